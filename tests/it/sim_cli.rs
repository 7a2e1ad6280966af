//! The `simulate` subcommand, run as a process.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    }
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = cli(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON: {e}"),
    }
}

fn write_config(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    if let Err(e) = std::fs::write(&path, text) {
        panic!("cannot write {}: {e}", path.display());
    }
    path
}

/// Writes `text` to config file `name` and requires `simulate --config` to run it (exit 0);
/// `what` names the case in the failure message.
fn assert_config_runs(name: &str, text: &str, what: &str) {
    let path = write_config(name, text);
    let out = cli(&["simulate", "--config", &path.to_string_lossy()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn scenario_json_carries_jobs_metrics_and_key_facts() {
    let v = json(&[
        "simulate",
        "--scenario",
        "retry-dead-letter",
        "--format",
        "json",
    ]);
    assert_eq!(v["jobs"][0]["name"], "send_mail");
    assert_eq!(v["jobs"][0]["status"], "done");
    assert_eq!(v["jobs"][0]["attempts"], 3);
    assert_eq!(v["jobs"][0]["max_attempts"], 5);
    assert_eq!(
        v["jobs"][0]["last_error"],
        "TimeoutError: mail server did not respond"
    );
    assert_eq!(v["jobs"][1]["status"], "dead");
    assert_eq!(v["metrics"]["done"], 1);
    assert_eq!(v["metrics"]["dead"], 1);
    assert!(v["events"].as_array().is_some_and(|e| e.len() == 14));

    let v = json(&[
        "simulate",
        "--scenario",
        "duplicate-execution",
        "--format",
        "json",
    ]);
    assert_eq!(v["balance"], 200);
    let v = json(&[
        "simulate",
        "--scenario",
        "duplicate-execution",
        "--variant",
        "idempotency-key",
        "--format",
        "json",
    ]);
    assert_eq!(v["balance"], 100);

    let v = json(&[
        "simulate",
        "--scenario",
        "claim-race",
        "--variant",
        "two-statement",
        "--format",
        "json",
    ]);
    assert_eq!(v["claims"], serde_json::json!({"A": 1, "B": 1}));
    let v = json(&[
        "simulate",
        "--scenario",
        "claim-race",
        "--variant",
        "atomic",
        "--format",
        "json",
    ]);
    assert_eq!(v["claims"], serde_json::json!({"A": 1, "B": 2}));

    let v = json(&[
        "simulate",
        "--scenario",
        "pg-row-locks",
        "--variant",
        "nowait",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["errors"]["B"],
        "could not obtain lock on row in relation \"jobs\""
    );

    let v = json(&[
        "simulate",
        "--scenario",
        "jitter-contention",
        "--variant",
        "full",
        "--format",
        "json",
        "--seed",
        "3",
    ]);
    assert_eq!(v["contention"]["clients"], 100);
    assert!(v["contention"]["calls_mean"]
        .as_f64()
        .is_some_and(|c| c > 100.0));
}

#[test]
fn text_output_shows_the_event_log_and_table() {
    let out = cli(&["simulate", "--scenario", "claim-race"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("0.001s B job#1 send_mail 2/3: claimed (UPDATE by id)"),
        "{text}"
    );
    assert!(
        text.contains("first claims: A → job#1, B → job#1"),
        "{text}"
    );
    // Why it stopped, in words rather than the enum's name.
    assert!(text.contains("stopped: nothing left to do after"), "{text}");
}

#[test]
fn unknown_variant_exits_2_listing_the_allowed() {
    let out = cli(&["simulate", "--scenario", "claim-race", "--variant", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--variant") && err.contains("two-statement, atomic"),
        "{err}"
    );
}

/// `(config text, a fragment the error must contain)`.
fn check_bad(name: &str, text: &str, expected: &str) {
    let path = write_config(name, text);
    let out = cli(&["simulate", "--config", &path.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert!(
        err.contains(expected),
        "{name}: expected {expected:?} in {err}"
    );
}

const KINDS: &str = r#""kinds":[{"name":"send_mail","max_attempts":3}]"#;

#[test]
fn bad_configs_exit_2_naming_the_field() {
    check_bad(
        "neg.json",
        &format!(
            r#"{{{KINDS},"arrivals":[{{"kind":0,"pattern":{{"type":"burst","count":-1}}}}],"workers":{{"count":1}}}}"#
        ),
        "arrivals[0].pattern.count is -1; allowed: 0 to",
    );
    check_bad(
        "cap.json",
        &format!(
            r#"{{{KINDS},"arrivals":[],"workers":{{"count":1}},"retry":{{"base_ms":500,"cap_ms":100}}}}"#
        ),
        "retry: cap_ms (100) is below base_ms (500)",
    );
    check_bad(
        "noworkers.json",
        &format!(
            r#"{{{KINDS},"arrivals":[{{"kind":0,"pattern":{{"type":"burst","count":3}}}}],"workers":{{"count":0}}}}"#
        ),
        "workers.count is 0 but 3 jobs arrive",
    );
    check_bad(
        "absurd.json",
        &format!(r#"{{{KINDS},"arrivals":[],"workers":{{"count":99999999}}}}"#),
        "workers.count is 99999999; allowed: 0 to 10000",
    );
    check_bad(
        "type.json",
        &format!(r#"{{{KINDS},"arrivals":[],"workers":{{"count":"two"}}}}"#),
        "workers.count: invalid type",
    );
    // A refused worker count is reported once, not also as "no workers".
    let out = cli(&[
        "simulate",
        "--config",
        &write_config(
            "many.json",
            &format!(
                r#"{{{KINDS},"arrivals":[{{"kind":0,"pattern":{{"type":"burst","count":200}}}}],"workers":{{"count":100000}}}}"#
            ),
        )
        .to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("workers.count is 100000; allowed: 0 to 10000"),
        "{err}"
    );
    assert!(!err.contains("but 200 jobs arrive"), "{err}");
    check_bad(
        "keep.json",
        &format!(r#"{{{KINDS},"arrivals":[],"workers":{{"count":1}},"keep_rows":-5}}"#),
        "keep_rows is -5; allowed: 0 to 2000000",
    );
    check_bad(
        "unknown.json",
        r#"{"kinds":[],"arrivals":[],"workers":{"count":1},"colour":1}"#,
        "colour",
    );
}

#[test]
fn a_config_file_runs_and_the_seed_flag_overrides_it() {
    let path = write_config(
        "ok.json",
        r#"{"seed":7,"kinds":[{"name":"send_mail","max_attempts":4,
             "duration":{"type":"lognormal","p50_ms":80,"p95_ms":400},
             "failure":{"type":"probability","p":0.3},"error":"TimeoutError"}],
           "arrivals":[{"kind":0,"pattern":{"type":"poisson","rate_per_s":5,"count":40}}],
           "workers":{"count":2,"poll_ms":50},
           "retry":{"base_ms":100,"cap_ms":5000,"growth":"exponential","jitter":"full"}}"#,
    );
    let p = path.to_string_lossy();
    let a = json(&["simulate", "--config", &p, "--format", "json"]);
    let b = json(&[
        "simulate", "--config", &p, "--format", "json", "--seed", "7",
    ]);
    let c = json(&[
        "simulate", "--config", &p, "--format", "json", "--seed", "8",
    ]);
    assert_eq!(a["jobs"].as_array().map(Vec::len), Some(40));
    assert_eq!(a, b);
    assert_ne!(a["events"], c["events"]);
    let m = &a["metrics"];
    assert_eq!(
        m["done"].as_u64().unwrap_or(0) + m["dead"].as_u64().unwrap_or(0),
        40
    );
}

#[test]
fn advise_still_works() {
    let out = cli(&["advise", "--time-triggered", "yes"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_example_config_with_every_field_runs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sim-config.json");
    let v = json(&["simulate", "--config", path, "--format", "json"]);
    let m = &v["metrics"];
    let settled = m["done"].as_u64().unwrap_or(0) + m["dead"].as_u64().unwrap_or(0);
    assert_eq!(
        Some(settled),
        m["jobs"].as_u64(),
        "every queued job settles: {m}"
    );
    assert_eq!(m["stop"], "drained");
}

/// Every `static/examples/*.config.json` validates and runs through `simulate --config`, as
/// the README's command line runs it; the queue example shows its lesson (a capacity-1
/// downstream answers "busy" and the queue's retries with full jitter get the jobs done).
#[test]
fn example_configs_validate_and_run() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/examples");
    let mut names: Vec<std::path::PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".config.json"))
            .collect(),
        Err(e) => panic!("cannot read {}: {e}", dir.display()),
    };
    names.sort();
    assert!(names.len() >= 2, "example configs: {names:?}");
    for path in &names {
        let p = path.to_string_lossy();
        let v = json(&[
            "simulate", "--config", &p, "--seed", "7", "--format", "json",
        ]);
        let m = &v["metrics"];
        let done = m["done"].as_u64().unwrap_or(0);
        assert!(done > 0, "{p}: nothing done: {m}");
        assert_eq!(m["queued"].as_u64(), Some(0), "{p}: {m}");
        assert_eq!(m["running"].as_u64(), Some(0), "{p}: {m}");
        if p.ends_with("queue-retry.config.json") {
            assert!(m["calls_busy"].as_u64().unwrap_or(0) > 0, "{p}: {m}");
            assert!(done >= 20, "{p}: {m}");
        }
    }
}

/// Help texts point to things a user can read (docs/CLI.md, the example files), never to a
/// Rust module path.
#[test]
fn help_points_to_readable_docs() {
    for args in [
        &["--help"][..],
        &["advise", "--help"],
        &["sheet", "--help"],
        &["simulate", "--help"],
    ] {
        let out = cli(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!text.contains("::"), "{args:?} names a Rust path:\n{text}");
    }
    let out = cli(&["simulate", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("docs/CLI.md"), "{text}");
    assert!(text.contains("static/examples/"), "{text}");
}

#[test]
fn keep_rows_keeps_the_first_rows_and_every_count() {
    // 300 jobs, every one done: with keep_rows 20 the report lists the first 20 rows, says
    // 280 were deleted, and still counts 300 done with the same latency figures.
    let config = |keep: &str| {
        format!(
            r#"{{"seed":3,"kinds":[{{"name":"k","max_attempts":3,"duration":{{"type":"fixed","ms":5}}}}],
               "arrivals":[{{"kind":0,"pattern":{{"type":"poisson","rate_per_s":50,"count":300}}}}],
               "workers":{{"count":2}},"log":false{keep}}}"#
        )
    };
    let all = write_config("keep-all.json", &config(""));
    let some = write_config("keep-20.json", &config(r#","keep_rows":20"#));
    let a = json(&[
        "simulate",
        "--config",
        &all.to_string_lossy(),
        "--format",
        "json",
    ]);
    let b = json(&[
        "simulate",
        "--config",
        &some.to_string_lossy(),
        "--format",
        "json",
    ]);
    assert_eq!(a["jobs"].as_array().map(Vec::len), Some(300));
    assert_eq!(b["jobs"].as_array().map(Vec::len), Some(20));
    assert_eq!(b["jobs"][19], a["jobs"][19]);
    assert_eq!(b["metrics"]["deleted_rows"], 280);
    // Every row kept: the counter is written, 0.
    assert_eq!(
        a["metrics"].get("deleted_rows"),
        Some(&serde_json::Value::from(0))
    );
    for k in [
        "jobs",
        "done",
        "dead",
        "events",
        "latency_ms",
        "wait_ms",
        "queue_depth",
    ] {
        assert_eq!(a["metrics"][k], b["metrics"][k], "{k}");
    }
}

#[test]
fn a_variant_with_a_config_file_is_refused() {
    let out = cli(&[
        "simulate",
        "--config",
        "static/examples/flaky-handler.config.json",
        "--variant",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--variant"));
}

#[test]
fn the_load_preset_runs_from_the_cli_with_the_pages_fingerprint() {
    use modality_advisor::domain::sim::runner::{run, RunRequest, LOAD_SCENARIO};
    // The page's Load preset at 3 000 jobs, seed 5 (with its event log, which the CLI does
    // not keep: the fingerprint must not depend on it).
    let req = RunRequest {
        id: 1,
        scenario: LOAD_SCENARIO.into(),
        variant: None,
        seed: 5,
        jobs: Some(3_000),
        custom: None,
    };
    let page = match run(&req, 1_000, |_| {}) {
        Ok(view) => view,
        Err(e) => panic!("the page's run failed: {e:?}"),
    };
    let load = |seed: &'static str, json_out: bool| {
        let mut args = vec![
            "simulate",
            "--scenario",
            "mmc-load",
            "--jobs",
            "3000",
            "--seed",
            seed,
        ];
        if json_out {
            args.extend(["--format", "json"]);
        }
        args
    };
    let v = json(&load("5", true));
    assert_eq!(v["trace_hash"], page.trace_hash.as_str());
    assert_eq!(v["scenario"], "mmc-load");
    let m = &v["metrics"];
    assert_eq!(m["done"].as_u64(), Some(page.counts[0]));
    assert_eq!(m["dead"].as_u64(), Some(page.counts[1]));
    // Another seed, another fingerprint; the text output ends with it too.
    assert_ne!(json(&load("6", true))["trace_hash"], v["trace_hash"]);
    // Its one variant may be named, as the output names it.
    let mut named = load("5", true);
    named.extend(["--variant", "bench"]);
    assert_eq!(json(&named)["trace_hash"], v["trace_hash"]);
    let text = cli(&load("5", false));
    assert_eq!(text.status.code(), Some(0));
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.trim_end()
            .ends_with(&format!("trace hash: {}", page.trace_hash)),
        "{out}"
    );
}

#[test]
fn load_preset_flags_are_checked() {
    for (args, flag) in [
        (
            vec!["--scenario", "mmc-load", "--jobs", "0"],
            "'--jobs <N>': expected a whole number from 1 to 1,000,000",
        ),
        (
            vec!["--scenario", "mmc-load", "--jobs", "1000001"],
            "expected a whole number from 1 to 1,000,000",
        ),
        (
            vec!["--scenario", "mmc-load", "--jobs", "-1"],
            "expected a whole number from 1 to 1,000,000",
        ),
        (
            vec!["--scenario", "mmc-load", "--jobs", "abc"],
            "expected a whole number from 1 to 1,000,000",
        ),
        (
            vec!["--scenario", "retry-dead-letter", "--jobs", "5"],
            "--jobs: only for --scenario mmc-load",
        ),
        (
            vec!["--scenario", "mmc-load", "--variant", "x"],
            "--variant: mmc-load has one variant, bench",
        ),
        (
            vec![
                "--config",
                "static/examples/flaky-handler.config.json",
                "--jobs",
                "5",
            ],
            "--jobs",
        ),
    ] {
        let mut all = vec!["simulate"];
        all.extend(args.iter().copied());
        let out = cli(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag), "{all:?}: {err}");
    }
}

#[test]
fn config_file_mistakes_are_told_in_the_files_terms() {
    let base = match std::fs::read_to_string("static/examples/flaky-handler.config.json") {
        Ok(t) => t,
        Err(e) => panic!("example config: {e}"),
    };
    let with = |key: &str, value: serde_json::Value| {
        let mut v: serde_json::Value = match serde_json::from_str(&base) {
            Ok(v) => v,
            Err(e) => panic!("example config: {e}"),
        };
        v[key] = value;
        v.to_string()
    };
    let outage = {
        let mut v: serde_json::Value =
            serde_json::from_str(&with("claim", "atomic".into())).unwrap_or_default();
        v["downstream"] = serde_json::json!({
            "capacity": 1,
            "latency": {"type": "fixed", "ms": 10},
            "outage": {"from_ms": 5000, "until_ms": 1000}
        });
        v.to_string()
    };
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "empty.json",
            String::new(),
            "config: the file is empty; expected a JSON object",
        ),
        (
            "cut.json",
            "{".into(),
            "config: the JSON ends before it is complete",
        ),
        (
            "list.json",
            "[]".into(),
            "config: expected a JSON object with the config's fields",
        ),
        (
            "claim.json",
            with("claim", "bogus".into()),
            "claim: unknown variant `bogus`, expected one of `atomic`",
        ),
        (
            "backoff.json",
            with(
                "in_worker_retry",
                serde_json::json!({"max_retries": 1, "backoff": 1}),
            ),
            "in_worker_retry.backoff: invalid type: integer `1`, expected an object {\"base_ms\"",
        ),
        (
            "kinds.json",
            with("kinds", serde_json::json!([])),
            "kinds: no job kind is defined",
        ),
        (
            "outage.json",
            outage,
            "downstream.outage: until_ms (1000) is before from_ms (5000)",
        ),
    ];
    for (name, text, want) in cases {
        let path = write_config(name, &text);
        let out = cli(&["simulate", "--config", &path.to_string_lossy()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{name}: {err}");
        assert!(err.contains(name), "{name}: the file is named: {err}");
        for rust in ["SimConfigFile", "ClaimFile", "BackoffFile", "i64", "u32"] {
            assert!(!err.contains(rust), "{name}: no Rust type names: {err}");
        }
    }
    // The claim by name, and a byte-order mark in front of the JSON, are accepted.
    for (name, text) in [
        ("named-claim.json", with("claim", "skip-locked".into())),
        ("bom.json", format!("\u{feff}{base}")),
    ] {
        assert_config_runs(name, &text, name);
    }
}

#[test]
fn a_bad_seed_names_the_range() {
    for seed in ["18446744073709551616", "abc", "-1", "1.5"] {
        let out = cli(&[
            "simulate",
            "--scenario",
            "retry-dead-letter",
            "--seed",
            seed,
        ]);
        assert_eq!(out.status.code(), Some(2), "{seed}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--seed") && err.contains("from 0 to 18,446,744,073,709,551,615"),
            "{seed}: {err}"
        );
    }
    let out = cli(&[
        "simulate",
        "--scenario",
        "retry-dead-letter",
        "--seed",
        "18446744073709551615",
    ]);
    assert_eq!(out.status.code(), Some(0));
}

/// Runs the CLI with `input` on its standard input.
fn cli_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("cannot run the CLI: {e}"),
    };
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let text = input.to_owned();
    // Written from another thread so that a large output cannot block the pipe.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(text.as_bytes());
    });
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => panic!("the CLI did not finish: {e}"),
    };
    writer.join().expect("stdin written");
    out
}

/// `--config -` reads the config from standard input, as `sheet --input -` does: the same run
/// as from the file, and errors name "standard input" as the file (as `sheet` does).
#[test]
fn config_from_stdin() {
    let path = "static/examples/flaky-handler.config.json";
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => panic!("{path}: {e}"),
    };
    let from_file = json(&["simulate", "--config", path, "--format", "json"]);
    let out = cli_stdin(&["simulate", "--config", "-", "--format", "json"], &text);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_stdin: serde_json::Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON: {e}"),
    };
    assert_eq!(from_stdin["trace_hash"], from_file["trace_hash"]);
    assert!(from_stdin["trace_hash"].is_string());

    let bad = text.replace(r#""count": 2"#, r#""count": 99999999"#);
    assert_ne!(bad, text);
    let out = cli_stdin(&["simulate", "--config", "-"], &bad);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("standard input: workers.count is 99999999; allowed: 0 to 10000"),
        "{err}"
    );
    let out = cli_stdin(&["simulate", "--config", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("standard input: config: the file is empty"),
        "{err}"
    );
    // A file that cannot be read names the flag and the path.
    let out = cli(&["simulate", "--config", "/nonexistent/run.config.json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--config: cannot read /nonexistent/run.config.json"),
        "{err}"
    );
}

/// `effect.amount` has a range (so that the balance, at most one effect per engine event,
/// cannot reach the limits of its 64-bit integer): a file outside it exits 2 naming
/// `kinds[i].effect.amount` and the range; the ends of the range run.
#[test]
fn effect_amount_has_a_range() {
    let config = |amount: &str| {
        format!(
            r#"{{"kinds":[{{"name":"pay","duration":{{"type":"fixed","ms":1}}}},
                         {{"name":"charge","effect":{{"amount":{amount}}}}}],
                "arrivals":[{{"kind":1,"pattern":{{"type":"burst","count":2}}}}],
                "workers":{{"count":1}},"log":false}}"#
        )
    };
    for amount in ["1000000001", "-1000000001", "9223372036854775807"] {
        check_bad("amount.json", &config(amount), "kinds[1].effect.amount is ");
        check_bad(
            "amount.json",
            &config(amount),
            "allowed: -1000000000 to 1000000000",
        );
    }
    for (amount, balance) in [
        ("1000000000", 2_000_000_000_i64),
        ("-1000000000", -2_000_000_000),
    ] {
        let path = write_config("amount-ok.json", &config(amount));
        let v = json(&[
            "simulate",
            "--config",
            &path.to_string_lossy(),
            "--format",
            "json",
        ]);
        assert_eq!(v["balance"].as_i64(), Some(balance), "{amount}");
    }
    // A config built in code is held to the same range.
    let mut cfg = match modality_advisor::domain::sim::load_config(&config("5")) {
        Ok(c) => c,
        Err(e) => panic!("{e:?}"),
    };
    assert!(cfg.validate().is_empty());
    if let Some(e) = cfg.kinds[1].effect.as_mut() {
        e.amount = -5_000_000_000;
    }
    let errs: Vec<String> = cfg.validate().iter().map(ToString::to_string).collect();
    assert_eq!(
        errs,
        ["kinds[1].effect.amount is -5000000000; allowed: -1000000000 to 1000000000"]
    );
}

/// Shapes serde's derive would let through are refused, naming the path: a unit variant with
/// extra fields, a struct (or a tagged object) written as a list of its values; a wrong type
/// inside a tagged object names the field itself and its range.
#[test]
fn loose_shapes_are_refused_naming_the_path() {
    const K: &str = r#""kinds":[{"name":"k","duration":{"type":"fixed","ms":1}}]"#;
    let cases: Vec<(String, &[&str])> = vec![
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}},"claim":{{"type":"atomic","x":1}}}}"#),
            &["claim.x: unknown field `x`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}},"claim":{{"type":"skip-locked","gap_ms":1}}}}"#),
            &["claim.gap_ms: unknown field `gap_ms`"],
        ),
        (
            r#"{"kinds":[{"name":"k","failure":{"type":"never","p":1}}],"arrivals":[],"workers":{"count":1}}"#.into(),
            &["kinds[0].failure.p: unknown field `p`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}},"intake":{{"type":"direct","publish_failure":0.5}}}}"#),
            &["intake.publish_failure: unknown field `publish_failure`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":[1,50]}}"#),
            &["workers: invalid type: list, expected an object {\"count\": …}"],
        ),
        (
            r#"[1,[{"name":"k"}],[],{"count":1}]"#.into(),
            &["config: expected a JSON object with the config's fields"],
        ),
        (
            r#"{"kinds":[["k",3]],"arrivals":[],"workers":{"count":1}}"#.into(),
            &["kinds[0]: invalid type: list, expected a job kind object"],
        ),
        (
            r#"{"kinds":[{"name":"k","duration":["fixed",5]}],"arrivals":[],"workers":{"count":1}}"#.into(),
            &["kinds[0].duration: invalid type: list, expected a duration object such as"],
        ),
        (
            r#"{"kinds":[{"name":"k","effect":[5]}],"arrivals":[],"workers":{"count":1}}"#.into(),
            &["kinds[0].effect: invalid type: list, expected an object"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}},"retry":[100,200]}}"#),
            &["retry: invalid type: list, expected an object {\"base_ms\""],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}},"limits":[5]}}"#),
            &["limits: invalid type: list, expected an object"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"type":"poisson","count":"200","rate_per_s":5}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern.count: invalid type: string \"200\", expected a whole number from 0 to 2000000"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"type":"times","at_ms":[0,"5"]}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern.at_ms[1]: invalid type: string \"5\", expected a whole number from 0 to 2592000000"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"type":"poisson","count":5,"rate_per_s":"fast"}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern.rate_per_s: invalid type: string \"fast\", expected a number from 0.000000001 to 1000000"],
        ),
        (
            r#"{"kinds":[{"name":"k","failure":{"type":"probability","p":"high"}}],"arrivals":[],"workers":{"count":1}}"#.into(),
            &["kinds[0].failure.p: invalid type: string \"high\", expected a number from 0 to 1"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"type":"poisson","count":5}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern: missing field `rate_per_s`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"type":"wave","count":5}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern: unknown variant `wave`, expected one of `burst`, `poisson`, `times`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"count":5}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern: missing field `type`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}}}} {{"seed":2}}"#),
            &["config: unexpected text after the end of the JSON object at line 1"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1}},"claim":{{"type":"two-statement","gap_ms":"x"}}}}"#),
            &["claim.gap_ms: invalid type: string \"x\", expected a whole number from 0 to 2592000000"],
        ),
        (
            format!(r#"{{{K},"arrivals":[{{"kind":0,"pattern":{{"type":"burst","count":1,"count":2}}}}],"workers":{{"count":1}}}}"#),
            &["arrivals[0].pattern: duplicate field `count`"],
        ),
        (
            format!(r#"{{{K},"arrivals":[],"workers":{{"count":1.5}}}}"#),
            &["workers.count: invalid type: floating point `1.5`, expected a whole number from 0 to 10000"],
        ),
    ];
    for (text, needles) in &cases {
        let path = write_config("loose.json", text);
        let out = cli(&["simulate", "--config", &path.to_string_lossy()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        for n in *needles {
            assert!(err.contains(n), "{text}:\nexpected {n:?} in\n{err}");
        }
        for rust in ["File", "i64", "f64", "u64", "sequence", "struct", "enum"] {
            assert!(!err.contains(rust), "{text}: no Rust terms: {err}");
        }
    }
    // The regular shapes still run: a unit variant by name or as {"type"}, key order free.
    for claim in [
        r#""atomic""#,
        r#"{"type":"atomic"}"#,
        r#"{"lock_timeout_ms":5,"type":"for-update"}"#,
    ] {
        let text = format!(
            r#"{{{K},"arrivals":[{{"pattern":{{"count":2,"type":"burst"}},"kind":0}}],"workers":{{"count":1}},"claim":{claim}}}"#
        );
        assert_config_runs("tight.json", &text, &text);
    }
}

/// A wrong-type value in a number field names the same range as an out-of-range value of
/// the right type does.
#[test]
fn wrong_type_and_out_of_range_name_the_same_range() {
    use modality_advisor::domain::sim::load_config;
    let base: serde_json::Value = serde_json::json!({
        "kinds": [{"name": "k", "max_attempts": 3, "duration": {"type": "fixed", "ms": 1},
                   "failure": {"type": "first-runs", "k": 1}, "effect": {"amount": 1}}],
        "arrivals": [{"kind": 0, "pattern": {"type": "burst", "count": 1, "at_ms": 0}}],
        "workers": {"count": 1, "poll_ms": 5, "restart_after_ms": 5},
        "lease_ms": 100,
        "retry": {"base_ms": 1, "cap_ms": 1},
        "in_worker_retry": {"max_retries": 1, "backoff": {"base_ms": 1, "cap_ms": 1}},
        "intake": {"type": "queue", "fallback_calls": 1},
        "limits": {"max_events": 100, "max_time_ms": 100},
        "series_bucket_ms": 100,
        "keep_rows": 1
    });
    assert!(load_config(&base.to_string()).is_ok());
    let fields: &[(&[&str], i64)] = &[
        (&["kinds", "0", "max_attempts"], 0),
        (&["kinds", "0", "duration", "ms"], -1),
        (&["kinds", "0", "failure", "k"], -1),
        (&["kinds", "0", "effect", "amount"], 2_000_000_000),
        (&["arrivals", "0", "pattern", "count"], -1),
        (&["arrivals", "0", "pattern", "at_ms"], -1),
        (&["workers", "count"], -1),
        (&["workers", "poll_ms"], -1),
        (&["workers", "restart_after_ms"], -1),
        (&["lease_ms"], 0),
        (&["retry", "base_ms"], -1),
        (&["in_worker_retry", "max_retries"], -1),
        (&["in_worker_retry", "backoff", "cap_ms"], -1),
        (&["intake", "fallback_calls"], -1),
        (&["limits", "max_events"], 0),
        (&["limits", "max_time_ms"], 0),
        (&["series_bucket_ms"], 0),
        (&["keep_rows"], -1),
    ];
    let set = |path: &[&str], value: serde_json::Value| {
        let mut v = base.clone();
        let mut at = &mut v;
        for p in path {
            at = match p.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*p],
            };
        }
        *at = value;
        let errs = match load_config(&v.to_string()) {
            Ok(_) => panic!("{path:?}: accepted"),
            Err(e) => e,
        };
        assert_eq!(errs.len(), 1, "{path:?}: {errs:?}");
        errs[0].to_string()
    };
    for (path, bad) in fields {
        let range = set(path, (*bad).into());
        let range = match range.split_once("; allowed: ") {
            Some((_, r)) => r.to_owned(),
            None => panic!("{path:?}: {range}"),
        };
        let typed = set(path, "x".into());
        assert!(
            typed.contains(&format!("expected a whole number from {range}")),
            "{path:?}: {typed} (range {range})"
        );
    }
}

/// The printed event log is capped (`--log-lines`, default 10 000 lines): a longer log ends with
/// a line saying how many lines were left out and how to print them; JSON says it in
/// `events_left_out`; the trace hash covers the whole log either way.
#[test]
fn the_printed_event_log_is_capped() {
    // 4 000 jobs at once: their arrival, claim and done lines make more than 10 000.
    let path = write_config(
        "long-log.json",
        r#"{"kinds":[{"name":"k","duration":{"type":"fixed","ms":1}}],
            "arrivals":[{"kind":0,"pattern":{"type":"burst","count":4000}}],
            "workers":{"count":4,"poll_ms":0},"keep_rows":10}"#,
    );
    let p = path.to_string_lossy();
    let all = json(&[
        "simulate",
        "--config",
        &p,
        "--format",
        "json",
        "--log-lines",
        "all",
    ]);
    let total = all["events"].as_array().map_or(0, Vec::len);
    assert!(total > 10_000, "{total} lines");
    // Nothing left out: the counter is written, 0.
    assert_eq!(
        all.get("events_left_out"),
        Some(&serde_json::Value::from(0))
    );

    let capped = json(&["simulate", "--config", &p, "--format", "json"]);
    assert_eq!(capped["events"].as_array().map(Vec::len), Some(10_000));
    assert_eq!(capped["events"][9_999], all["events"][9_999]);
    assert_eq!(
        capped["events_left_out"].as_u64(),
        Some(total as u64 - 10_000)
    );
    assert_eq!(capped["trace_hash"], all["trace_hash"]);
    assert_eq!(capped["metrics"], all["metrics"]);

    let out = cli(&["simulate", "--config", &p, "--log-lines", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| *l == "events:").unwrap_or(0);
    assert_eq!(
        lines[at + 1].trim(),
        all["events"][0].as_str().unwrap_or("?")
    );
    assert_eq!(
        lines[at + 3].trim(),
        all["events"][2].as_str().unwrap_or("?")
    );
    let left = total - 3;
    let left = modality_advisor::domain::number::group_thousands(left as u64);
    assert_eq!(
        lines[at + 4],
        format!("  … {left} more event lines left out (the first 3 are printed; --log-lines all prints every line)")
    );
    assert_eq!(lines[at + 5], "");
    assert_eq!(lines[at + 6], "jobs:");
    let hash = format!("trace hash: {}", all["trace_hash"].as_str().unwrap_or("?"));
    assert_eq!(lines.last().copied(), Some(hash.as_str()));

    // None printed: the count alone.
    let out = cli(&["simulate", "--config", &p, "--log-lines", "0"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "\nevents: {} lines left out (--log-lines all prints every line)\n\njobs:\n",
            modality_advisor::domain::number::group_thousands(total as u64)
        )),
        "{text}"
    );
    // A short log is printed whole, with no note.
    let out = cli(&[
        "simulate",
        "--scenario",
        "retry-dead-letter",
        "--log-lines",
        "14",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("left out"), "{text}");
    // A bad value names the flag and what is allowed.
    for bad in ["-1", "some", "1.5"] {
        let out = cli(&[
            "simulate",
            "--scenario",
            "retry-dead-letter",
            "--log-lines",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--log-lines") && err.contains("expected all, or a whole number from 0"),
            "{bad}: {err}"
        );
    }
}

/// `metrics.calls_per_s` of a `simulate --format json` run: `bucket_s` and the three rate
/// lists, each rate times the bucket width summed back to a count.
fn calls_per_s_totals(v: &serde_json::Value) -> Option<[f64; 3]> {
    let c = v["metrics"].get("calls_per_s")?;
    let width = c["bucket_s"].as_f64().filter(|w| *w > 0.0)?;
    let list = |k: &str| -> Vec<f64> {
        c[k].as_array()
            .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
            .unwrap_or_default()
    };
    let (ok, busy, failed) = (list("ok"), list("busy"), list("failed"));
    assert!(!ok.is_empty(), "{c}");
    assert_eq!((ok.len(), busy.len()), (failed.len(), failed.len()), "{c}");
    assert!(
        ok.iter().chain(&busy).chain(&failed).all(|r| *r >= 0.0),
        "{c}"
    );
    let count = |rates: &[f64]| rates.iter().map(|r| r * width).sum::<f64>();
    Some([count(&ok), count(&busy), count(&failed)])
}

#[test]
fn json_has_the_calls_per_second_series_summing_to_the_counters() {
    for variant in ["direct", "queue-redelivery", "two-tier-jitter"] {
        let v = json(&[
            "simulate",
            "--scenario",
            "burst-leveling",
            "--variant",
            variant,
            "--format",
            "json",
        ]);
        let m = &v["metrics"];
        let n = |k: &str| m[k].as_u64().unwrap_or(u64::MAX) as f64;
        let Some([ok, busy, failed]) = calls_per_s_totals(&v) else {
            panic!("{variant}: no metrics.calls_per_s in {m}");
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6 * b.max(1.0);
        assert!(
            close(ok, n("calls_ok")),
            "{variant}: ok {ok} vs {}",
            n("calls_ok")
        );
        assert!(close(busy, n("calls_busy")), "{variant}: busy {busy}");
        let refused = n("calls_rate_limited") + n("calls_unavailable");
        assert!(
            close(failed, refused),
            "{variant}: failed {failed} vs {refused}"
        );
        assert!(close(ok + busy + failed, n("calls")), "{variant}: {m}");
        assert!(
            n("calls_busy") > 0.0,
            "{variant}: the burst meets a busy downstream"
        );
    }
    // No downstream calls, no series (null, not left out); the jitter study has no queue
    // metrics at all.
    let v = json(&["simulate", "--scenario", "claim-race", "--format", "json"]);
    assert_eq!(v["metrics"]["calls"], 0);
    assert!(
        v["metrics"].get("calls_per_s") == Some(&serde_json::Value::Null),
        "{}",
        v["metrics"]
    );
    let v = json(&[
        "simulate",
        "--scenario",
        "jitter-contention",
        "--format",
        "json",
    ]);
    assert!(v["metrics"].is_null());
}

#[test]
fn the_calls_series_leaves_the_trace_hash_as_the_page_shows_it() {
    use modality_advisor::domain::sim::runner::{execute, Preset, Purpose, RunSpec};
    let spec = RunSpec {
        preset: Preset::Scenario {
            name: "burst-leveling".into(),
            variant: Some("two-tier-jitter".into()),
        },
        seed: None,
    };
    let (_, hash) = match execute(&spec, Purpose::Report, |_| {}) {
        Ok(f) => f.report(),
        Err(e) => panic!("{e:?}"),
    };
    let v = json(&[
        "simulate",
        "--scenario",
        "burst-leveling",
        "--variant",
        "two-tier-jitter",
        "--format",
        "json",
    ]);
    assert_eq!(v["trace_hash"], hash.as_str());
}

//! The `modality-advisor advise` command, run as a process.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .output()
        .expect("the CLI binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

fn check_outcome(args: &[&str], outcome: &str) {
    let mut all = vec!["advise", "--format", "json"];
    all.extend_from_slice(args);
    assert_eq!(json(&all)["outcome"], outcome, "{args:?}");
}

#[test]
fn the_five_outcomes() {
    check_outcome(&["--time-triggered", "yes"], "batch");
    check_outcome(
        &["--time-triggered", "no", "--needs-result-now", "no"],
        "async-enqueue",
    );
    check_outcome(
        &[
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--within-seconds",
            "no",
        ],
        "async-ticket",
    );
    check_outcome(
        &[
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--within-seconds",
            "yes",
            "--external-call",
            "no",
        ],
        "sync",
    );
    check_outcome(
        &[
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--within-seconds",
            "yes",
            "--external-call",
            "yes",
            "--keep-accepting-when-down",
            "no",
        ],
        "sync-timeout",
    );
    check_outcome(
        &[
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--within-seconds",
            "yes",
            "--external-call",
            "yes",
            "--keep-accepting-when-down",
            "yes",
        ],
        "async-ticket",
    );
    check_outcome(
        &[
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--target-ms",
            "2000",
            "--p95-ms",
            "8000",
        ],
        "async-ticket",
    );
}

#[test]
fn json_shape() {
    let v = json(&[
        "advise",
        "--time-triggered",
        "no",
        "--needs-result-now",
        "no",
        "--format",
        "json",
    ]);
    let obj = v.as_object().expect("an object");
    let keys: Vec<_> = obj.keys().map(String::as_str).collect();
    assert_eq!(keys, ["outcome", "path", "reasons", "tradeoffs"]);
    assert_eq!(
        v["path"],
        serde_json::json!([
            {"question": "time-triggered", "answer": false},
            {"question": "needs-result-now", "answer": false}
        ])
    );
    assert_eq!(v["reasons"].as_array().map(Vec::len), Some(2));
    assert!(v["reasons"]
        .as_array()
        .into_iter()
        .flatten()
        .all(|r| r.as_str().is_some_and(|s| !s.is_empty())));
    assert!(v["tradeoffs"].as_array().is_some_and(|t| t.len() >= 2));
}

#[test]
fn japanese_and_text_output() {
    let v = json(&[
        "advise",
        "--time-triggered",
        "yes",
        "--format",
        "json",
        "--lang",
        "ja",
    ]);
    assert!(v["reasons"][0]
        .as_str()
        .is_some_and(|s| s.contains("定期バッチ")));
    let out = run(&["advise", "--time-triggered", "yes"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Scheduled batch [batch]\n"), "{text}");
    assert!(text.contains("Trade-offs:"));
    let out = run(&[
        "advise",
        "--time-triggered",
        "no",
        "--needs-result-now",
        "yes",
        "--target-ms",
        "2000",
        "--p95-ms",
        "8000",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("p95 8,000 ms > target 2,000 ms → no"));
    // Durations with a unit, as the page's fields take them.
    let out = run(&[
        "advise",
        "--time-triggered",
        "no",
        "--needs-result-now",
        "yes",
        "--target-ms",
        "2s",
        "--p95-ms",
        "１.５分",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("p95 90,000 ms > target 2,000 ms → no"));
}

fn check_error(args: &[&str], needles: &[&str]) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
}

#[test]
fn errors_exit_2_naming_the_flag() {
    check_error(&["advise"], &["missing answer: --time-triggered"]);
    // The range a refused value names is the range the flag takes: a target starts at 1 ms.
    check_error(
        &["advise", "--target-ms", "604800001", "--p95-ms", "5"],
        &["--target-ms", "from 1 to 604,800,000"],
    );
    check_error(
        &["advise", "--target-ms", "0", "--p95-ms", "5"],
        &["--target-ms", "from 1 to 604,800,000"],
    );
    check_error(
        &["advise", "--target-ms", "5", "--p95-ms", "604800001"],
        &["--p95-ms", "from 0 to 604,800,000"],
    );
    check_error(
        &["advise", "--target-ms", "8d", "--p95-ms", "5"],
        &["--target-ms", "from 1 to 604,800,000"],
    );
    check_error(
        &["advise", "--target-ms", "5 weeks", "--p95-ms", "5"],
        &[
            "--target-ms",
            "unknown unit “weeks”: use ms, s, min, h or d; expected a whole number of \
             milliseconds from 1 to 604,800,000 (or a number with a unit: 2s, 1.5min)",
        ],
    );
    check_error(
        &["advise", "--target-ms", "5", "--p95-ms", "1.5ms"],
        &["--p95-ms", "“1.5ms” is not a whole number of milliseconds"],
    );
    check_error(
        &["advise", "--time-triggered", "no"],
        &["missing answer: --needs-result-now"],
    );
    check_error(
        &[
            "advise",
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
        ],
        &["missing answer: --within-seconds", "--target-ms"],
    );
    check_error(
        &["advise", "--time-triggered", "maybe"],
        &["--time-triggered", "maybe", "yes", "no"],
    );
    check_error(
        &["advise", "--time-triggered", "yes", "--format", "xml"],
        &["--format", "text", "json"],
    );
    check_error(
        &["advise", "--time-triggered", "yes", "--lang", "fr"],
        &["--lang", "en", "ja"],
    );
    check_error(
        &[
            "advise",
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--target-ms",
            "2000",
        ],
        &["--p95-ms"],
    );
    check_error(
        &[
            "advise",
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--target-ms",
            "0",
            "--p95-ms",
            "5",
        ],
        &["--target-ms", "from 1 to 604,800,000"],
    );
    check_error(
        &[
            "advise",
            "--time-triggered",
            "no",
            "--needs-result-now",
            "yes",
            "--target-ms",
            "-5",
            "--p95-ms",
            "5",
        ],
        &["--target-ms"],
    );
    check_error(
        &[
            "advise",
            "--within-seconds",
            "yes",
            "--target-ms",
            "1",
            "--p95-ms",
            "1",
            "--time-triggered",
            "no",
        ],
        &["--within-seconds", "--target-ms"],
    );
}

#[test]
fn full_width_and_grouped_milliseconds_are_read() {
    let v = json(&[
        "advise",
        "--time-triggered",
        "no",
        "--needs-result-now",
        "yes",
        "--target-ms",
        "２０００",
        "--p95-ms",
        "8,000",
        "--format",
        "json",
    ]);
    assert_eq!(v["outcome"], "async-ticket");
    assert_eq!(
        v["reasons"][2]
            .as_str()
            .map(|s| s.starts_with("p95 8,000 ms > target 2,000 ms")),
        Some(true)
    );
}

#[test]
fn ignored_answers_are_noted_on_stderr() {
    let out = run(&["advise", "--time-triggered", "yes", "--external-call", "no"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--external-call was ignored"));
}

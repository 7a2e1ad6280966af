//! What `simulate --config` says about a bad value, and what it accepts: ranges as stated,
//! numbers printed readably, the wrong type told as such with the field's range, whole ms
//! only, no `null`; and the command line without a scenario or a config. Config files take the
//! full `u64` seed range, like the CLI's `--seed` and the browser.

use modality_advisor::domain::sim::load_config;
use modality_advisor::domain::sim::setup::knobs::CustomRun;
use std::process::Command;

/// The one error `text` gets, as the CLI prints it (after the file name).
fn the_error(text: &str) -> String {
    match load_config(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(errs) => {
            assert_eq!(errs.len(), 1, "{text}: {errs:?}");
            errs[0].to_string()
        }
    }
}

const KIND: &str = r#""kinds":[{"name":"k"}]"#;

/// A config with one kind, one worker and `arrival` (a pattern object) as its arrivals.
fn with_pattern(pattern: &str) -> String {
    format!(r#"{{{KIND},"arrivals":[{{"kind":0,"pattern":{pattern}}}],"workers":{{"count":1}}}}"#)
}

/// A config with one kind, no arrivals, one worker and `extra` fields at the top level.
fn with(extra: &str) -> String {
    format!(r#"{{{KIND},"arrivals":[],"workers":{{"count":1}},{extra}}}"#)
}

#[test]
fn rates_below_the_stated_minimum_are_refused() {
    let e = the_error(&with_pattern(
        r#"{"type":"poisson","rate_per_s":1e-300,"count":5}"#,
    ));
    assert_eq!(
        e,
        "arrivals[0].pattern.rate_per_s is 1e-300; allowed: 0.000000001 to 1000000"
    );
    let e = the_error(&with(
        r#""downstream":{"latency":{"type":"fixed","ms":1},"rate_limit":{"rate_per_s":1e-12,"burst":1}}"#,
    ));
    assert_eq!(
        e,
        "downstream.rate_limit.rate_per_s is 1e-12; allowed: 0.000000001 to 1000000"
    );
    // The stated bounds themselves run.
    for rate in ["1e-9", "1000000"] {
        let text = with_pattern(&format!(
            r#"{{"type":"poisson","rate_per_s":{rate},"count":1}}"#
        ));
        assert!(load_config(&text).is_ok(), "{rate}");
    }
}

#[test]
fn numbers_out_of_range_are_printed_readably() {
    let e = the_error(&with_pattern(
        r#"{"type":"poisson","rate_per_s":1e300,"count":5}"#,
    ));
    assert_eq!(
        e,
        "arrivals[0].pattern.rate_per_s is 1e300; allowed: 0.000000001 to 1000000"
    );
    // A float where a whole number goes: the decoder's 301 digits, shortened.
    let e = the_error(&with_pattern(r#"{"type":"burst","count":1e300}"#));
    assert!(e.contains("floating point `1e300`"), "{e}");
    assert!(e.len() < 200, "{e}");
    // A whole number beyond 2^53 as written, not rounded to a float's.
    let e = the_error(&with(r#""keep_rows":9007199254740993"#));
    assert_eq!(e, "keep_rows is 9007199254740993; allowed: 0 to 2000000");
    let e = the_error(&with(r#""lease_ms":-9223372036854775807"#));
    assert_eq!(
        e,
        "lease_ms is -9223372036854775807; allowed: 1 to 2592000000"
    );
}

#[test]
fn a_seed_of_the_wrong_type_is_told_so_with_its_range() {
    let range = "expected a whole number from 0 to 18446744073709551615";
    for (seed, what) in [
        (r#""7""#, r#"invalid type: string "7""#),
        ("1.5", "invalid type: floating point `1.5`"),
        ("true", "invalid type: boolean `true`"),
    ] {
        let e = the_error(&with(&format!(r#""seed":{seed}"#)));
        assert!(
            e.starts_with(&format!("seed: {what}, {range}")),
            "{seed}: {e}"
        );
        assert!(!e.contains("out of range"), "{seed}: {e}");
    }
    let e = the_error(&with(r#""seed":-1"#));
    assert!(
        e.starts_with("seed: -1 is out of range; allowed: 0 to 18446744073709551615"),
        "{e}"
    );
}

#[test]
fn an_arrivals_kind_is_told_the_kinds_defined() {
    let three = r#""kinds":[{"name":"a"},{"name":"b"},{"name":"c"}]"#;
    for kind in ["-1", "5"] {
        let text = format!(
            r#"{{{three},"arrivals":[{{"kind":{kind},"pattern":{{"type":"burst","count":1}}}}],"workers":{{"count":1}}}}"#
        );
        assert_eq!(
            the_error(&text),
            format!("arrivals[0].kind is {kind}; allowed: 0 to 2")
        );
    }
    let text = format!(
        r#"{{{KIND},"arrivals":[{{"kind":"a","pattern":{{"type":"burst","count":1}}}}],"workers":{{"count":1}}}}"#
    );
    let e = the_error(&text);
    assert!(
        e.contains("the index of a kind in `kinds`") && !e.contains("4294967295"),
        "{e}"
    );
}

#[test]
fn workers_count_messages_agree() {
    let note = "0 to 10000 (at least 1 when jobs arrive)";
    let e = the_error(&format!(
        r#"{{{KIND},"arrivals":[],"workers":{{"count":true}}}}"#
    ));
    assert!(e.contains(note), "{e}");
    let e = the_error(&format!(
        r#"{{{KIND},"arrivals":[{{"kind":0,"pattern":{{"type":"burst","count":3}}}}],"workers":{{"count":0}}}}"#
    ));
    assert!(e.contains(note), "{e}");
}

#[test]
fn growth_and_jitter_are_names() {
    let e = the_error(&with(
        r#""retry":{"base_ms":1,"cap_ms":2,"growth":{"type":"fixed"}}"#,
    ));
    assert!(
        e.starts_with("retry.growth: ")
            && e.contains(r#""fixed" or "exponential""#)
            && !e.contains("unknown variant `type`"),
        "{e}"
    );
    let e = the_error(&with(r#""retry":{"base_ms":1,"cap_ms":2,"jitter":1}"#));
    assert!(
        e.starts_with("retry.jitter: ")
            && e.contains(r#""none", "full", "equal" or "decorrelated""#),
        "{e}"
    );
    let text = with(r#""retry":{"base_ms":1,"cap_ms":2,"growth":"exponential","jitter":"full"}"#);
    assert!(load_config(&text).is_ok());
}

#[test]
fn times_are_whole_ms_and_null_is_refused() {
    let lognormal = |p50: &str| {
        format!(
            r#"{{"kinds":[{{"name":"k","duration":{{"type":"lognormal","p50_ms":{p50},"p95_ms":100}}}}],"arrivals":[],"workers":{{"count":1}}}}"#
        )
    };
    let e = the_error(&lognormal("40.5"));
    assert!(
        e.starts_with("kinds[0].duration.p50_ms: ")
            && e.contains("expected a whole number from 1 to 2592000000"),
        "{e}"
    );
    assert!(load_config(&lognormal("40")).is_ok());
    let e = the_error(&lognormal("0"));
    assert_eq!(e, "kinds[0].duration.p50_ms is 0; allowed: 1 to 2592000000");
    let e = the_error(
        r#"{"kinds":[{"name":"k","duration":{"type":"exponential","mean_ms":0.5}}],"arrivals":[],"workers":{"count":1}}"#,
    );
    assert!(
        e.starts_with("kinds[0].duration.mean_ms: ")
            && e.contains("expected a whole number from 1 to 2592000000"),
        "{e}"
    );
    // `null` means nothing a left-out field does not: refused, naming the field.
    for (extra, field) in [
        (r#""lease_ms":null"#, "lease_ms: "),
        (r#""retry":null"#, "retry: "),
        (r#""intake":null"#, "intake: "),
        (r#""limits":{"max_events":null}"#, "limits.max_events: "),
        (
            r#""claim":{"type":"for-update","lock_timeout_ms":null}"#,
            "claim.lock_timeout_ms: ",
        ),
    ] {
        let e = the_error(&with(extra));
        assert!(
            e.starts_with(field)
                && e.contains("invalid type: null")
                && e.contains("leave the field out for its default"),
            "{extra}: {e}"
        );
    }
    assert!(load_config(&with(r#""lease_ms":1000"#)).is_ok());
}

#[test]
fn simulate_without_a_source_names_both() {
    let out = match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("simulate")
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    };
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().take(2).collect::<Vec<_>>().join("\n");
    assert!(
        first.contains("--scenario") && first.contains("--config"),
        "{err}"
    );
}

#[test]
fn submission_lines_read_like_job_lines() {
    use modality_advisor::domain::sim::run_scenario;
    let report = match run_scenario("burst-leveling", Some("direct"), 1) {
        Ok(r) => r,
        Err(e) => panic!("{e:?}"),
    };
    let text = report.events.join("\n");
    assert!(text.contains("s submission 2: "), "{text}");
    assert!(!text.contains("s: submission"), "{text}");
}

const FILE: &str = r#"{"seed":SEED,"kinds":[{"name":"job","max_attempts":3}],
    "arrivals":[{"kind":0,"pattern":{"type":"burst","count":3,"at_ms":0}}],"workers":{"count":1}}"#;

#[test]
fn config_files_take_every_u64_seed_and_refuse_others_naming_the_field_and_range() {
    let max = load_config(&FILE.replace("SEED", "18446744073709551615")).expect("u64::MAX runs");
    assert_eq!(max.seed, u64::MAX);
    let file = CustomRun::default().to_file(u64::MAX);
    let text = serde_json::to_string(&file).expect("serialises");
    assert!(text.contains("\"seed\":18446744073709551615"), "{text}");
    for bad in ["-1", "18446744073709551616", "1.5"] {
        let errs = load_config(&FILE.replace("SEED", bad)).expect_err(bad);
        let msg = errs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        assert!(msg.starts_with("seed: "), "{bad}: {msg}");
        // Out of range ("allowed: 0 to …") or, for 1.5, the wrong type ("from 0 to …").
        assert!(msg.contains(" 0 to 18446744073709551615"), "{bad}: {msg}");
    }
}

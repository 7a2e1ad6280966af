//! The "Load and capacity" section's findings (schema 3): fired by numbers the formulas prove
//! cannot work, quiet otherwise, with the numbers in both languages.

use modality_advisor::domain::sheet::check::{validate, Severity};
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::Lang;

const SHEET: &str = include_str!("../../static/examples/partner-inventory-sync.json");

/// The example sheet with `load` replaced by `load` (JSON) and the retry lease set to
/// `lease_ms`.
fn sheet(load: &str, lease_ms: u64) -> JobSheet {
    let mut v: serde_json::Value = serde_json::from_str(SHEET).expect("JSON");
    v["load"] = serde_json::from_str(load).expect("load JSON");
    let mut s = match import_json(&v.to_string(), Lang::En) {
        Ok(s) => s,
        Err(e) => panic!("imports: {e}"),
    };
    if let Some(r) = s.retry.as_mut() {
        r.lease_ms = lease_ms;
        r.attempt_timeout_ms = r.attempt_timeout_ms.min(lease_ms - 1);
    }
    s
}

/// The load findings of `load` (codes, severities), in code order.
fn check(load: &str, lease_ms: u64, want: &[(&str, Severity)]) {
    let s = sheet(load, lease_ms);
    let codes = [
        "our-limit-above-downstream-rate",
        "lease-not-above-handler-tail",
        "drain-deadline-unreachable",
        "workers-cannot-keep-up",
        "workers-miss-wait-target",
    ];
    let mut got: Vec<(&str, Severity)> = validate(&s, Lang::En)
        .into_iter()
        .filter(|f| codes.contains(&f.code))
        .map(|f| (f.code, f.severity))
        .collect();
    got.sort_by_key(|x| x.0);
    let mut want = want.to_vec();
    want.sort_by_key(|x| x.0);
    assert_eq!(got, want, "{load}");
}

#[test]
fn load_findings_fire_and_stay_quiet() {
    use Severity::{Error, Warning};
    let ok = r#"{"arrival": {"count": 2, "per": "second"}, "handler": {"lognormal": {"p50_ms": 80, "p95_ms": 300}},
        "downstream": {"rate": {"count": 10, "per": "second"}}, "our_limit": {"count": 10, "per": "second"},
        "burst": {"at-once": {"count": 500}}, "drain_within_ms": 120000, "target_wait_p95_ms": 5000, "workers": 2}"#;
    check(ok, 60_000, &[]);
    // Nothing filled in: nothing to say.
    check("{}", 60_000, &[]);
    check(
        r#"{"our_limit": {"count": 20, "per": "second"}, "downstream": {"rate": {"count": 600, "per": "minute"}}}"#,
        60_000,
        &[("our-limit-above-downstream-rate", Warning)],
    );
    // Pacing equal to the limit is fine (600/min = 10/s).
    check(
        r#"{"our_limit": {"count": 10, "per": "second"}, "downstream": {"rate": {"count": 600, "per": "minute"}}}"#,
        60_000,
        &[],
    );
    check(
        r#"{"handler": {"lognormal": {"p50_ms": 20000, "p95_ms": 50000}}}"#,
        60_000,
        &[("lease-not-above-handler-tail", Warning)],
    );
    check(
        r#"{"handler": {"fixed": {"ms": 100}}, "burst": {"at-once": {"count": 500}},
            "our_limit": {"count": 10, "per": "second"}, "drain_within_ms": 30000}"#,
        60_000,
        &[("drain-deadline-unreachable", Error)],
    );
    check(
        r#"{"arrival": {"count": 50, "per": "second"}, "handler": {"exponential": {"mean_ms": 100}}, "workers": 4}"#,
        60_000,
        &[("workers-cannot-keep-up", Error)],
    );
    // Retries count: 0.75/s × 6 s = 4.5 Erlangs is stable with 5 workers … until 20 % of
    // attempts fail (× 1.25 attempts = 5.6 Erlangs).
    check(
        r#"{"arrival": {"count": 45, "per": "minute"}, "handler": {"exponential": {"mean_ms": 6000}}, "workers": 5}"#,
        60_000,
        &[],
    );
    check(
        r#"{"arrival": {"count": 45, "per": "minute"}, "handler": {"exponential": {"mean_ms": 6000}}, "workers": 5, "failure_bp": 2000}"#,
        60_000,
        &[("workers-cannot-keep-up", Error)],
    );
    check(
        r#"{"arrival": {"count": 9, "per": "second"}, "handler": {"exponential": {"mean_ms": 100}}, "workers": 1,
            "target_wait_p95_ms": 100}"#,
        60_000,
        &[("workers-miss-wait-target", Warning)],
    );
}

/// The message of the sheet's "workers-cannot-keep-up" finding in `lang` (empty: none).
fn cannot_keep_up(s: &JobSheet, lang: Lang) -> String {
    validate(s, lang)
        .into_iter()
        .find(|f| f.code == "workers-cannot-keep-up")
        .map(|f| f.message)
        .unwrap_or_default()
}

#[test]
fn load_messages_carry_the_numbers_in_both_languages() {
    let s = sheet(
        r#"{"arrival": {"count": 50, "per": "second"}, "handler": {"exponential": {"mean_ms": 100}}, "workers": 4}"#,
        60_000,
    );
    for (lang, words) in [
        (
            Lang::En,
            [
                "With 4 at once",
                "50.0/s",
                "5.00 Erlangs",
                "ρ = arrivals ÷ ceiling = 1.25",
                // It said "but the workers lets through at most 40.0/s".
                "but at most 40.0/s get through (the workers; ρ",
            ],
        ),
        (
            Lang::Ja,
            [
                "同時4件",
                "毎秒50.0件",
                "5.00アーラン",
                "ρ = 到着 ÷ 上限 = 1.25",
                "ワーカー数が通すのは毎秒40.0件まで",
            ],
        ),
    ] {
        let f = cannot_keep_up(&s, lang);
        for w in words {
            assert!(f.contains(w), "{lang:?}: {f:?} lacks {w:?}");
        }
    }
    // A large fleet's numbers grouped as the page's others are (it said "With 1000 at once").
    let s = sheet(
        r#"{"arrival": {"count": 20000, "per": "second"}, "handler": {"exponential": {"mean_ms": 100}}, "workers": 1000}"#,
        60_000,
    );
    let f = cannot_keep_up(&s, Lang::En);
    for w in [
        "With 1,000 at once",
        "20,000/s arrive",
        "2,000 Erlangs",
        "at most 10,000/s get through",
    ] {
        assert!(f.contains(w), "{f:?} lacks {w:?}");
    }
}

#[test]
fn an_attempt_timeout_under_the_load_sections_p95_is_an_error_naming_both() {
    let mut s = sheet(
        r#"{"handler": {"lognormal": {"p50_ms": 20000, "p95_ms": 90000}}}"#,
        600_000,
    );
    if let Some(r) = s.retry.as_mut() {
        r.attempt_timeout_ms = 60_000;
    }
    for (lang, words) in [
        (Lang::En, ["1 min", "90 s", "Load and capacity"]),
        (Lang::Ja, ["1分", "90秒", "負荷とキャパシティ"]),
    ] {
        let f = validate(&s, lang)
            .into_iter()
            .find(|f| f.code == "attempt-timeout-under-p95")
            .map(|f| (f.severity, f.message));
        let Some((sev, msg)) = f else {
            panic!("{lang:?}: no finding")
        };
        assert_eq!(sev, Severity::Error);
        for w in words {
            assert!(msg.contains(w), "{lang:?}: {msg:?} lacks {w:?}");
        }
    }
    if let Some(r) = s.retry.as_mut() {
        r.attempt_timeout_ms = 90_000;
    }
    assert!(validate(&s, Lang::En)
        .iter()
        .all(|f| f.code != "attempt-timeout-under-p95"));
}

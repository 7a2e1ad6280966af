//! The `size` subcommand, run as a process: the documented JSON, determinism for a seed, the
//! languages, and errors that name the field (exit 2).

use std::process::{Command, Output};

const SHEET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/static/examples/partner-inventory-sync.json"
);

fn cli(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("size")
        .args(args)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    }
}

fn ok(args: &[&str]) -> String {
    let out = cli(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    match serde_json::from_str(&ok(args)) {
        Ok(v) => v,
        Err(e) => panic!("not JSON: {e}"),
    }
}

/// Exit 2 and a message on standard error containing every one of `wants`.
fn refused(args: &[&str], wants: &[&str]) {
    let out = cli(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for w in wants {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
}

#[test]
fn json_has_the_documented_shape() {
    let v = json(&[
        "--input", SHEET, "--seeds", "3", "--jobs", "2000", "--format", "json",
    ]);
    let rec = &v["recommendation"];
    assert!(rec["workers"].is_u64() || rec["workers"].is_null(), "{rec}");
    assert!(rec["reason"].as_str().is_some_and(|r| !r.is_empty()));
    assert!(v["bottleneck"].is_string());
    let points = v["points"].as_array().map_or(0, Vec::len);
    assert_eq!(points, 8, "8 worker counts");
    for p in v["points"].as_array().into_iter().flatten() {
        assert!(p["workers"].is_u64());
        for k in ["p50", "p95", "p99"] {
            assert!(p["wait_ms"][k].is_number(), "{p}");
        }
        assert_eq!(p["wait_p95_ci_ms"].as_array().map(Vec::len), Some(2));
        assert!(p["drain_ms"].is_number(), "a burst: {p}");
        assert_eq!(p["drain_ci_ms"].as_array().map(Vec::len), Some(2));
    }
    for a in v["analytic"].as_array().into_iter().flatten() {
        assert!(a["workers"].is_u64());
        assert!(a.get("wait_p95_ms").is_some());
    }
    for k in ["lease_ms", "offered_load", "utilisation"] {
        assert!(v[k].is_number(), "{k}");
    }
}

#[test]
fn the_same_seed_prints_the_same_answer() {
    let args = [
        "--input", SHEET, "--seeds", "2", "--jobs", "1000", "--seed", "42",
    ];
    assert_eq!(ok(&args), ok(&args));
    let other = [
        "--input", SHEET, "--seeds", "2", "--jobs", "1000", "--seed", "43",
    ];
    assert_ne!(ok(&args), ok(&other), "another seed, other runs");
}

#[test]
fn flags_alone_answer_the_partner_question() {
    // "How many workers so a burst of 500 drains in 2 minutes without exceeding 10 req/s?"
    let v = json(&[
        "--arrival-per-s",
        "0",
        "--handler",
        "fixed",
        "--mean-ms",
        "60",
        "--burst",
        "500",
        "--drain-within-ms",
        "30s",
        "--our-limit-per-s",
        "10",
        "--seeds",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(v["recommendation"]["workers"], serde_json::Value::Null);
    assert_eq!(v["recommendation"]["reason_id"], "limited-elsewhere");
    assert_eq!(v["bottleneck"], "our-limit");
    let floor = v["drain_floor_ms"].as_f64().unwrap_or(0.0);
    assert!((floor - 50_000.0).abs() < 1.0, "{floor}");
}

/// A burst with no steady arrivals: the text says so and the ceiling, not "Offered load 0.00
/// Erlangs" and "utilisation 0 %".
#[test]
fn a_burst_alone_prints_no_zero_load() {
    let args = |lang: &'static str| {
        [
            "--arrival-per-s",
            "0",
            "--handler",
            "fixed",
            "--mean-ms",
            "100",
            "--burst",
            "500",
            "--workers-max",
            "4",
            "--seeds",
            "2",
            "--lang",
            lang,
        ]
    };
    let en = ok(&args("en"));
    assert!(
        !en.contains("Erlangs") && !en.contains("utilisation"),
        "{en}"
    );
    assert!(
        en.contains("No steady arrivals (a burst only); at "),
        "{en}"
    );
    assert!(en.contains("throughput ceiling "), "{en}");
    let ja = ok(&args("ja"));
    assert!(!ja.contains("アーラン") && !ja.contains("稼働率"), "{ja}");
    assert!(ja.contains("定常の到着なし（バーストのみ）。同時"), "{ja}");
}

/// Far past the largest count: the offered load grouped as the page's numbers are ("1682.51
/// Erlangs" was ungrouped) and the utilisation as ρ with what it means, not "841 %" (a worker
/// cannot be busy more than all the time), in both languages.
#[test]
fn an_overload_reads_grouped_and_as_rho() {
    let args = |lang: &'static str| {
        [
            "--arrival-per-s",
            "2000",
            "--handler",
            "fixed",
            "--mean-ms",
            "841",
            "--workers-max",
            "200",
            "--seeds",
            "1",
            "--jobs",
            "500",
            "--lang",
            lang,
        ]
    };
    let en = ok(&args("en"));
    assert!(en.contains("Offered load 1,682 Erlangs"), "{en}");
    // The attempts as the sheet's load row writes them ("1.00", not "1.000").
    assert!(en.contains("× 1.00 attempts ×"), "{en}");
    assert!(en.contains("with retries 1,682 Erlangs of work"), "{en}");
    assert!(
        en.contains(
            "the workers' utilisation ρ = 8.41 (1 or more: more work arrives than they can do)"
        ),
        "{en}"
    );
    assert!(!en.contains("841 %"), "{en}");
    let ja = ok(&args("ja"));
    assert!(ja.contains("提供負荷 1,682 アーラン"), "{ja}");
    assert!(ja.contains("× 試行1.00回 ×"), "{ja}");
    assert!(
        ja.contains("ワーカーの稼働率ρ = 8.41（1以上：処理できる以上の仕事が届きます）"),
        "{ja}"
    );
}

#[test]
fn japanese_text_and_markdown() {
    let ja = ok(&[
        "--input", SHEET, "--seeds", "2", "--jobs", "1000", "--lang", "ja",
    ]);
    assert!(ja.starts_with("キャパシティ"), "{ja}");
    assert!(ja.contains("リース／可視性タイムアウト"), "{ja}");
    let md = ok(&[
        "--input", SHEET, "--seeds", "2", "--jobs", "1000", "--format", "markdown",
    ]);
    assert!(md.starts_with("## Capacity\n"), "{md}");
    assert!(md.contains("| Workers |"), "{md}");
    assert_eq!(
        md.lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| Workers"))
            .count(),
        8,
        "{md}"
    );
    assert!(md.contains("2,000 jobs"), "grouped numbers: {md}");
}

#[test]
fn bad_input_names_the_field_and_range() {
    refused(
        &[
            "--handler",
            "lognormal",
            "--p50-ms",
            "500",
            "--p95-ms",
            "100",
            "--arrival-per-s",
            "1",
        ],
        &["--p95-ms", "below --p50-ms"],
    );
    refused(
        &[
            "--failure-rate",
            "1.5",
            "--arrival-per-s",
            "1",
            "--mean-ms",
            "10",
        ],
        &["0 to 0.99"],
    );
    refused(
        &["--burst", "200000", "--mean-ms", "10"],
        &["--burst", "1 to 100,000"],
    );
    // A negative number is a value out of range, not an unknown flag.
    refused(
        &["--burst", "-5", "--mean-ms", "10"],
        &["--burst", "whole number from 1 to 100,000"],
    );
    refused(
        &["--arrival-per-s", "-1", "--mean-ms", "10"],
        &["--arrival-per-s", "0 to 1,000,000"],
    );
    refused(&["--mean-ms", "10"], &["not sized yet", "--arrival-per-s"]);
    refused(&["--arrival-per-s", "3"], &["not sized yet", "--handler"]);
    refused(
        &[
            "--arrival-per-s",
            "3",
            "--mean-ms",
            "10",
            "--lang",
            "ja",
            "--seeds",
            "50",
            "--jobs",
            "100000",
            "--burst",
            "100000",
        ],
        &["seeds", "範囲外"],
    );
    refused(
        &["--input", "/nonexistent/sheet.json"],
        &["/nonexistent/sheet.json"],
    );
    let bare = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/examples/reservation-mail.en.json"
    );
    refused(
        &["--input", bare],
        &["section is empty", "not sized yet", "--arrival-per-s"],
    );
    refused(
        &["--input", bare, "--lang", "ja"],
        &["負荷とキャパシティ", "まだ見積もれません"],
    );
}

//! `modality-advisor sheet --target NAME` and `modality-advisor targets`, run as a process:
//! the configuration alone on stdout (the same text as the library's), the whole report with
//! `--report`, errors that exit 2 naming the flag, target, field and range, and the list of
//! targets with their default windows.

use crate::target_queue_support::{example, with_retry};
use modality_advisor::domain::queues::{self, Format, TargetId};
use modality_advisor::domain::sheet::{JobSheet, SCHEMA_VERSION};
use modality_advisor::domain::Lang;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    }
}

/// `sheet` written to a file of its own (named `name`), as the app saves it.
fn sheet_file(sheet: &JobSheet, name: &str) -> String {
    let mut sheet = sheet.clone();
    sheet.schema_version = SCHEMA_VERSION;
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let json = serde_json::to_string_pretty(&sheet).expect("a sheet serialises");
    std::fs::write(&path, json).expect("writes");
    path.to_string_lossy().into_owned()
}

/// The shipped batch example (examples/sheets/nightly-report.sheet.json) in this build's
/// schema.
fn batch_file() -> String {
    let text = include_str!("../../examples/sheets/nightly-report.sheet.json");
    let mut v: serde_json::Value = serde_json::from_str(text).expect("JSON");
    v["schema_version"] = SCHEMA_VERSION.into();
    let path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("target-cli-batch.sheet.json");
    std::fs::write(&path, v.to_string()).expect("writes");
    path.to_string_lossy().into_owned()
}

fn stdout_of(args: &[&str]) -> (String, String) {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn check_error(args: &[&str], needles: &[&str]) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
}

#[test]
fn sheet_target_prints_only_the_configuration() {
    let en = example(Lang::En);
    let file = sheet_file(&en, "target-cli-en.sheet.json");
    for (name, format, lang, code) in [
        ("sqs", None, Lang::En, "en"),
        ("sqs", Some(Format::Terraform), Lang::En, "en"),
        ("celery", None, Lang::Ja, "ja"),
        ("sidekiq", None, Lang::En, "en"),
        ("bullmq", None, Lang::En, "en"),
    ] {
        let id = TargetId::parse(name).expect("a target");
        let want = match queues::report(&en, id, format, lang) {
            Ok(r) => r.built.text,
            Err(e) => panic!("{}", e.message(Lang::En)),
        };
        let mut args = vec!["sheet", "--input", &file, "--target", name, "--lang", code];
        if let Some(f) = format {
            args.extend(["--format", f.name()]);
        }
        let (got, err) = stdout_of(&args);
        assert_eq!(got.trim_end(), want.trim_end(), "{name}");
        // The target's findings go to stderr (SQS: the lease under 6 × the timeout).
        assert_eq!(
            err.contains("[lease-under-target-factor]"),
            name == "sqs",
            "{name}: {err}"
        );
    }
}

#[test]
fn report_prints_the_whole_report_as_json() {
    let file = sheet_file(&example(Lang::En), "target-cli-report.sheet.json");
    let (out, _) = stdout_of(&["sheet", "--input", &file, "--target", "sidekiq", "--report"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["target"], "sidekiq");
    assert_eq!(v["file_name"], "send_reservation_mail.sidekiq.rb");
    assert!(v["text"].as_str().is_some_and(|t| t.contains("retry: 4")));
    assert_eq!(v["mapping"][0]["key"], "sidekiq_options retry:");
    assert_eq!(v["mapping"][0]["value"], "4");
    assert!(v["gaps"].as_array().is_some_and(|g| !g.is_empty()));
    assert_eq!(v["actual"]["attempts"], 5);
    assert_eq!(v["defaults"]["attempts"], 26);
    assert_eq!(v["sheet_schedule"]["window_s"]["max"], 150.0);
}

#[test]
fn errors_exit_2_naming_flag_target_field_and_range() {
    let file = sheet_file(&example(Lang::En), "target-cli-errors.sheet.json");
    let f = file.as_str();
    check_error(
        &["sheet", "--input", f, "--target", "rabbit"],
        &[
            "--target",
            "unknown target \"rabbit\"",
            "sqs, celery, sidekiq",
        ],
    );
    check_error(
        &[
            "sheet", "--input", f, "--target", "sqs", "--format", "python",
        ],
        &[
            "--format",
            "sqs has no format \"python\"",
            "cloudformation, terraform",
        ],
    );
    check_error(
        &[
            "sheet", "--input", f, "--target", "celery", "--format", "json",
        ],
        &["--format", "celery has no format \"json\"", "python"],
    );
    check_error(
        &["sheet", "--input", f, "--format", "terraform"],
        &["--format terraform", "only with --target"],
    );
    check_error(&["sheet", "--input", f, "--report"], &["--target"]);
    let batch = batch_file();
    check_error(
        &["sheet", "--input", &batch, "--target", "bullmq"],
        &["BullMQ configures nothing", "batch"],
    );
    let long = sheet_file(
        &with_retry(|r| r.lease_ms = 13 * 3_600_000),
        "target-cli-long-lease.sheet.json",
    );
    check_error(
        &["sheet", "--input", &long, "--target", "sqs"],
        &["timeout", "13 h", "AWS SQS + Lambda allows 0 s to 12 h"],
    );
    check_error(
        &["sheet", "--input", &long, "--target", "sqs", "--lang", "ja"],
        &["13時間", "0秒〜12時間"],
    );
}

#[test]
fn targets_lists_every_target_with_its_default_window() {
    let (out, _) = stdout_of(&["targets", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let list = v.as_array().expect("an array");
    let names: Vec<&str> = list.iter().filter_map(|t| t["name"].as_str()).collect();
    let want: Vec<&str> = TargetId::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(names, want);
    for t in list {
        for key in [
            "label",
            "formats",
            "default_policy",
            "default_attempts",
            "window_s",
        ] {
            assert!(t.get(key).is_some(), "{t}: {key}");
        }
        for key in ["min", "expected", "max"] {
            assert!(t["window_s"].get(key).is_some(), "{t}: window_s.{key}");
        }
    }
    let by_name = |n: &str| {
        list.iter()
            .find(|t| t["name"] == n)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        by_name("sqs")["formats"],
        serde_json::json!(["cloudformation", "terraform"])
    );
    assert!(by_name("sqs")["window_s"]["max"].is_null());
    assert!(by_name("sqs")["default_attempts"].is_null());
    // Sidekiq: Σ_{c=0}^{24} (c⁴ + 15) = 1 763 395 s at least (see target_sidekiq.rs).
    assert_eq!(by_name("sidekiq")["window_s"]["min"], 1_763_395.0);
    assert_eq!(by_name("celery")["window_s"]["max"], 540.0);

    let (text, _) = stdout_of(&["targets", "--lang", "ja"]);
    for name in want {
        assert!(text.contains(&format!("{name} — ")), "{name}");
    }
    assert!(text.contains("既定の試行回数"));
}

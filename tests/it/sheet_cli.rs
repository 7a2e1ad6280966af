//! The `modality-advisor sheet` command, run as a process.

use crate::sheet_support::{example, EXAMPLE_JA};
use modality_advisor::domain::export::{to_csv, to_json, to_markdown, to_tsv};
use modality_advisor::domain::Lang;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/static/examples/reservation-mail.json"
);

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI binary runs");
    let input = stdin.unwrap_or("").to_owned();
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // Write from a thread so a large output cannot block the child on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the CLI finishes");
    writer.join().expect("stdin written");
    out
}

fn stdout(args: &[&str], stdin: Option<&str>) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn each_format_matches_the_library() {
    for (lang, code) in [(Lang::Ja, "ja"), (Lang::En, "en")] {
        // The Japanese file read in either language: the pre-filled texts follow --lang.
        let sheet = crate::sheet_support::example_in(EXAMPLE_JA, lang);
        for (format, want) in [
            ("markdown", to_markdown(&sheet, lang)),
            ("tsv", to_tsv(&sheet, lang)),
            ("csv", to_csv(&sheet, lang, false)),
            ("json", to_json(&sheet)),
        ] {
            let got = stdout(
                &[
                    "sheet", "--input", EXAMPLE, "--format", format, "--lang", code,
                ],
                None,
            );
            assert_eq!(got, want, "{format} {code}");
        }
    }
}

#[test]
fn the_issues_command_prints_the_seeds_values() {
    let tsv = stdout(
        &[
            "sheet", "--input", EXAMPLE, "--format", "tsv", "--lang", "ja",
        ],
        None,
    );
    assert_eq!(tsv, to_tsv(&example(Lang::Ja), Lang::Ja));
    for value in [
        "send_reservation_mail（予約確定メール送信）",
        "\t5回\n",
        "\t指数バックオフ（初回10秒、上限10分）＋ジッター",
        "\t30秒",
        "\t予約ID＋confirm-mail\n",
        "\t宛先アドレスの形式エラー、予約が取り消し済み\n",
        "\tdoneは30日、deadは対応が終わるまで",
    ] {
        assert!(tsv.contains(value), "{value}: {tsv}");
    }
    // Without --lang the file's own language is used: the issue's exact command prints the
    // source documents' values.
    let plain = stdout(&["sheet", "--input", EXAMPLE, "--format", "tsv"], None);
    assert_eq!(plain, tsv);
    // --lang overrides the labels; the file's texts and its defaults stay Japanese.
    let en = stdout(
        &[
            "sheet", "--input", EXAMPLE, "--format", "tsv", "--lang", "en",
        ],
        None,
    );
    assert!(
        en.starts_with("Item\tWhat to write\tThis job's value\n"),
        "{en}"
    );
    assert!(en.contains("接続エラー"), "{en}");
}

#[test]
fn stdin_output_file_and_bom() {
    let from_stdin = stdout(
        &["sheet", "--input", "-", "--format", "json", "--lang", "ja"],
        Some(EXAMPLE_JA),
    );
    assert_eq!(from_stdin, to_json(&example(Lang::Ja)));

    let dir =
        std::env::temp_dir().join(format!("modality-advisor-sheet-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("sheet.csv");
    let p = path.to_str().expect("UTF-8 path");
    let printed = stdout(
        &[
            "sheet", "--input", EXAMPLE, "--format", "csv", "--bom", "--lang", "ja", "--output", p,
        ],
        None,
    );
    assert_eq!(printed, "", "nothing on stdout with --output");
    let written = std::fs::read(&path).expect("the output file");
    assert_eq!(written[..3], [0xEF, 0xBB, 0xBF]);
    assert_eq!(
        String::from_utf8(written).expect("UTF-8"),
        to_csv(&example(Lang::Ja), Lang::Ja, true)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exit 2, nothing on stdout, and stderr holds every needle.
fn check_error(args: &[&str], stdin: Option<&str>, needles: &[&str]) {
    let out = run(args, stdin);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    let err = String::from_utf8_lossy(&out.stderr);
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
}

#[test]
fn errors_exit_2_naming_the_field_flag_or_path() {
    let sheet = |stdin: &str, needles: &[&str]| {
        check_error(
            &["sheet", "--input", "-", "--format", "tsv"],
            Some(stdin),
            needles,
        );
    };
    sheet("{", &["standard input: not valid JSON (line 1"]);
    sheet(
        "{\"schema_version\": 7}",
        &["schema_version: 7 is not supported; allowed: 1"],
    );
    let bad = EXAMPLE_JA.replace(
        "\"acceptable_wait_ms\": 600000",
        "\"acceptable_wait_ms\": 0",
    );
    sheet(
        &bad,
        &["process.acceptable_wait_ms: 0 is out of range; allowed: 1 to 2592000000"],
    );
    let bad = EXAMPLE_JA.replace("\"outcome\": \"async-enqueue\"", "\"outcome\": \"sync\"");
    sheet(
        &bad,
        &["decision.outcome: sync does not follow from the answers; they give async-enqueue"],
    );

    check_error(
        &[
            "sheet",
            "--input",
            "/nonexistent/sheet.json",
            "--format",
            "json",
        ],
        None,
        &["cannot read /nonexistent/sheet.json"],
    );
    check_error(
        &["sheet", "--input", EXAMPLE, "--format", "tsv", "--bom"],
        None,
        &["--bom", "--format csv"],
    );
    check_error(
        &["sheet", "--input", EXAMPLE, "--format", "pdf"],
        None,
        &["--format", "markdown", "tsv", "csv", "json"],
    );
    check_error(
        &[
            "sheet", "--input", EXAMPLE, "--format", "tsv", "--lang", "fr",
        ],
        None,
        &["--lang", "en", "ja"],
    );
    check_error(&["sheet", "--format", "tsv"], None, &["--input"]);
    check_error(&["sheet", "--input", EXAMPLE], None, &["--format"]);
    check_error(
        &[
            "sheet",
            "--input",
            EXAMPLE,
            "--format",
            "tsv",
            "--output",
            "/nonexistent/dir/out.tsv",
        ],
        None,
        &["cannot write /nonexistent/dir/out.tsv"],
    );
}

#[test]
fn formats_without_a_findings_section_report_findings_on_stderr() {
    let mut sheet: serde_json::Value =
        match std::fs::read_to_string("examples/sheets/nightly-report.sheet.json")
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
        {
            Some(v) => v,
            None => panic!("the example sheet"),
        };
    sheet["batch"]["schedule"] = "99 99 * * *".into();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("cron-finding.sheet.json");
    if let Err(e) = std::fs::write(&path, sheet.to_string()) {
        panic!("cannot write {}: {e}", path.display());
    }
    let run = |format: &str, lang: &str| match std::process::Command::new(env!(
        "CARGO_BIN_EXE_modality-advisor"
    ))
    .args([
        "sheet",
        "--input",
        &path.to_string_lossy(),
        "--format",
        format,
        "--lang",
        lang,
    ])
    .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    };
    for format in ["json", "csv", "tsv"] {
        let out = run(format, "en");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{format}: findings are warnings"
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("warning [batch-schedule-not-cron]: The schedule's minute 99 is out of range; allowed: 0–59."),
            "{format}: {err}"
        );
    }
    let ja = run("json", "ja");
    assert!(String::from_utf8_lossy(&ja.stderr)
        .contains("注意 [batch-schedule-not-cron]: スケジュールの分「99」は範囲外です"));
    // Markdown has them in the document instead.
    let md = run("markdown", "en");
    assert!(
        md.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&md.stderr)
    );
    assert!(String::from_utf8_lossy(&md.stdout).contains("minute 99 is out of range"));
}

#[test]
fn a_batch_in_a_zone_with_daylight_saving_gets_the_days_from_the_machines_clock() {
    let mut sheet: serde_json::Value =
        match std::fs::read_to_string("examples/sheets/nightly-report.sheet.json")
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
        {
            Some(v) => v,
            None => panic!("the example sheet"),
        };
    sheet["batch"]["schedule"] = "30 2 * * *".into();
    sheet["batch"]["time_zone"] = "America/New_York".into();
    let text = sheet.to_string();
    // TSV on stdout, the findings on stderr: New York's spring-forward day skips 02:30.
    let out = run(
        &["sheet", "--input", "-", "--format", "tsv", "--lang", "en"],
        Some(&text),
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("[batch-dst-skipped]"), "{err}");
    assert!(
        err.contains("Daylight saving in America/New_York: on ") && err.contains("-03-"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("America/New_York"));
    // The Markdown lists it among the findings; the CronJob carries the zone.
    let md = stdout(
        &[
            "sheet", "--input", "-", "--format", "markdown", "--lang", "ja",
        ],
        Some(&text),
    );
    assert!(md.contains("America/New\\_York の夏時間"), "{md}");
    let out = run(
        &["sheet", "--input", "-", "--target", "kubernetes"],
        Some(&text),
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("  timeZone: \"America/New_York\""));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[batch-dst-skipped]"));
}

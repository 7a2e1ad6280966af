//! The command line in the run's language: `simulate`'s text report in Japanese with
//! `--lang ja` (its labels, stop reason and event log), numbers grouped by threes in both
//! languages, and clap's usage errors of a `--lang ja` run worded in Japanese, naming the
//! argument and the values allowed, exit 2 (an English run keeps clap's own message).

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .output()
        .expect("the CLI runs")
}

fn stdout_ok(args: &[&str]) -> String {
    let out = cli(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// stderr of a run refused as bad usage (exit 2, nothing on stdout).
fn usage_error(args: &[&str]) -> String {
    let out = cli(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).expect("UTF-8")
}

#[test]
fn simulate_text_follows_lang() {
    let ja = stdout_ok(&[
        "simulate",
        "--scenario",
        "duplicate-execution",
        "--lang",
        "ja",
    ]);
    insta::assert_snapshot!("simulate_duplicate_execution_ja", ja);
    let en = stdout_ok(&["simulate", "--scenario", "duplicate-execution"]);
    insta::assert_snapshot!("simulate_duplicate_execution_en", en);
    // The same run: the same trace hash, the same numbers, other words.
    let hash = |s: &str| {
        s.lines()
            .last()
            .and_then(|l| l.split(' ').next_back())
            .map(str::to_owned)
    };
    let ja_hash = ja
        .lines()
        .last()
        .and_then(|l| l.split('：').nth(1))
        .map(str::to_owned);
    assert_eq!(hash(&en), ja_hash);
    for english in ["events:", "jobs:", "metrics:", "stopped:", "enqueued\n"] {
        assert!(
            !ja.contains(english),
            "{english} in the Japanese report:\n{ja}"
        );
    }
}

#[test]
fn simulate_text_groups_numbers_by_threes() {
    for lang in ["en", "ja"] {
        let text = stdout_ok(&[
            "simulate",
            "--scenario",
            "mmc-load",
            "--jobs",
            "12000",
            "--lang",
            lang,
        ]);
        assert!(text.contains("12,000"), "{lang}: {text}");
        assert!(!text.contains("12000"), "{lang}: {text}");
    }
    let cut = stdout_ok(&[
        "simulate",
        "--scenario",
        "retry-dead-letter",
        "--log-lines",
        "2",
        "--lang",
        "ja",
    ]);
    assert!(cut.contains("先頭の 2 行を表示"), "{cut}");
}

#[test]
fn usage_errors_of_a_japanese_run_are_japanese() {
    let bad_value = usage_error(&[
        "simulate",
        "--scenario",
        "claim-race",
        "--format",
        "xml",
        "--lang",
        "ja",
    ]);
    let unknown = usage_error(&["size", "--workerz", "3", "--lang=ja"]);
    let missing = usage_error(&["simulate", "--lang", "ja"]);
    let invalid = usage_error(&[
        "simulate",
        "--scenario",
        "claim-race",
        "--seed",
        "-1",
        "--lang",
        "ja",
    ]);
    insta::assert_snapshot!(
        "usage_errors_ja",
        [&bad_value, &unknown, &missing, &invalid]
            .map(String::as_str)
            .join("---\n")
    );
    assert!(
        bad_value.contains("--format") && bad_value.contains("text, json"),
        "{bad_value}"
    );
    assert!(
        unknown.contains("--workerz") && unknown.contains("--workers-max"),
        "{unknown}"
    );
    assert!(missing.contains("--scenario"), "{missing}");
    // Our own value parsers' reasons too: what is allowed, in Japanese.
    assert!(
        invalid.contains("--seed") && invalid.contains("0〜18,446,744,073,709,551,615 の整数"),
        "{invalid}"
    );
    let duration = usage_error(&["size", "--mean-ms", "3 weeks", "--lang", "ja"]);
    assert!(
        duration.contains("--mean-ms") && duration.contains("ミリ秒の整数"),
        "{duration}"
    );
    assert!(!duration.contains("expected"), "{duration}");
    for e in [&bad_value, &unknown, &missing, &invalid] {
        assert!(e.contains("使い方は --help"), "{e}");
        assert!(!e.contains("Usage:"), "{e}");
    }
}

#[test]
fn usage_errors_of_an_english_run_are_clap_s() {
    let e = usage_error(&["simulate", "--scenario", "claim-race", "--format", "xml"]);
    assert!(e.contains("invalid value 'xml' for '--format"), "{e}");
    assert!(e.contains("[possible values: text, json]"), "{e}");
    // The CLI's own value parsers keep their English reason.
    let e = usage_error(&["size", "--seeds", "0"]);
    assert!(e.contains("expected a whole number from 1 to 50"), "{e}");
    let e = usage_error(&["check", "--lang", "en", "--fail-level", "x"]);
    assert!(e.contains("invalid value 'x'"), "{e}");
}

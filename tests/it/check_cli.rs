//! `modality-advisor check`, run as a process on the committed fixtures
//! (`tests/fixtures/check/`: two sheets and a catalog with several findings, a file that is not
//! a sheet, and a directory of broken files): every format as a snapshot, the exit codes, the
//! GitHub limits and escaping, the step summary, the JUnit report read by python3's XML
//! reader, and Japanese.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The fixtures' folder: the CLI runs in it, so the files are named relative to it.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check")
}

/// Runs `check` with `args` in the fixtures' folder, `GITHUB_STEP_SUMMARY` set to `summary`
/// (or unset).
pub fn check_in(args: &[&str], summary: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_modality-advisor"));
    cmd.arg("check").args(args).current_dir(fixtures());
    cmd.env_remove("GITHUB_STEP_SUMMARY");
    if let Some(s) = summary {
        cmd.env("GITHUB_STEP_SUMMARY", s);
    }
    cmd.output().expect("the CLI runs")
}

/// stdout, stderr and the exit code of `check args`.
pub fn check(args: &[&str]) -> (String, String, i32) {
    let out = check_in(args, None);
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

const INPUTS: [&str; 2] = ["sheets", "system.catalog.json"];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = INPUTS.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn every_format_on_the_fixtures() {
    for format in ["text", "json", "sarif", "github", "junit"] {
        let (out, err, code) = check(&with(&["--format", format]));
        assert_eq!(code, 1, "{format}: errors at the default fail level: {err}");
        insta::assert_snapshot!(format!("check_{format}"), out);
    }
}

#[test]
fn japanese() {
    let (out, _, code) = check(&with(&["--lang", "ja"]));
    assert_eq!(code, 1);
    assert!(
        out.contains("エラー [MA-lease-not-longer-than-timeout] リース（30秒）"),
        "{out}"
    );
    insta::assert_snapshot!("check_text_ja", out);
    let (sarif, _, _) = check(&with(&["--lang", "ja", "--format", "sarif"]));
    assert!(sarif.contains("\"text\": \"リースが1回のタイムアウトより長くない\""));
}

#[test]
fn exit_codes_follow_the_fail_level() {
    for (level, code) in [("error", 1), ("warning", 1), ("none", 0)] {
        assert_eq!(check(&with(&["--fail-level", level])).2, code, "{level}");
    }
    // Warnings only: 0 at the default level, 1 from warning up.
    let only_warnings = ["sheets/charge-card.sheet.json"];
    assert_eq!(check(&only_warnings).2, 0);
    let mut w = only_warnings.to_vec();
    w.extend(["--fail-level", "warning"]);
    assert_eq!(check(&w).2, 1);
}

#[test]
fn a_broken_file_exits_2_naming_the_file_and_the_place() {
    let (out, _, code) = check(&["broken"]);
    assert_eq!(code, 2);
    insta::assert_snapshot!("check_broken_text", out);
    assert!(
        out.contains("broken/broken.sheet.json:5:1: not valid JSON"),
        "{out}"
    );
    assert!(
        out.contains("broken/out-of-range.sheet.json:33:5: retry.max_attempts: 1000 is out of range; allowed: 1 to 100"),
        "{out}"
    );
    // Beside good files the findings are still reported, and the exit is still 2.
    let (json, err, code) = check(&["broken", "sheets", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(err.contains("broken/broken.sheet.json:5:1"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(2));
    assert!(v["findings"].as_array().is_some_and(|f| !f.is_empty()));
}

#[test]
fn bad_usage_and_missing_inputs_exit_2() {
    for args in [
        vec![],
        vec!["sheets", "--format", "xml"],
        vec!["sheets", "--fail-level", "info"],
        vec!["no-such-file.json"],
        vec!["sheets/notes.json"],
        vec!["broken/../no-such-dir/"],
    ] {
        let (_, err, code) = check(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    // A file named on the command line that is not a sheet says why.
    let (out, _, _) = check(&["sheets/notes.json"]);
    assert!(out.contains("neither a sheet"), "{out}");
}

#[test]
fn a_field_not_in_the_file_points_at_its_parent_and_says_so() {
    let (json, _, _) = check(&["sheets/charge-card.sheet.json", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let f = v["findings"]
        .as_array()
        .and_then(|a| a.iter().find(|f| f["rule"] == "MA-call-not-described"))
        .expect("the call is not described");
    assert_eq!(f["field"], "sync.call");
    assert_eq!(f["field_in_file"], false);
    // `"sync": {` is on line 44, column 3 of the file.
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(44), Some(3))
    );
}

#[test]
fn github_annotations_respect_the_limits_and_escape() {
    // 12 copies of a sheet with 2 errors and 2 warnings each: 24 errors, 24 warnings.
    let tmp = tempdir("check-github");
    let dir = tmp.path();
    let src = std::fs::read_to_string(fixtures().join("sheets/receipt-mail.sheet.json"))
        .expect("fixture");
    for n in 0..12 {
        std::fs::write(dir.join(format!("job, {n}: x.sheet.json")), &src).expect("write");
    }
    let summary = dir.join("summary.md");
    let out = check_in(
        &[dir.to_str().expect("UTF-8 path"), "--format", "github"],
        Some(&summary),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let errors = text.lines().filter(|l| l.starts_with("::error ")).count();
    let warnings = text.lines().filter(|l| l.starts_with("::warning ")).count();
    assert_eq!((errors, warnings), (10, 10), "{text}");
    assert!(
        text.contains(
            "::notice title=modality-advisor check::14 errors and 14 warnings are not annotated"
        ),
        "{text}"
    );
    // `,` and `:` in the file name and the title are escaped in the properties.
    assert!(text.contains("job%2C 0%3A x.sheet.json,line=41,col=5,title=MA-lease-not-longer-than-timeout%3A The lease"), "{text}");
    let md = std::fs::read_to_string(&summary).expect("a step summary");
    assert!(md.starts_with("## modality-advisor check\n"));
    assert_eq!(md.matches("| `MA-").count(), 48, "{md}");
}

#[test]
fn junit_is_read_by_python() {
    let (xml, _, _) = check(&with(&["--format", "junit"]));
    let script = r#"
import sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
suites = root.findall("testsuite")
cases = [c for s in suites for c in s.findall("testcase")]
failed = [c.get("name") for c in cases if c.find("failure") is not None]
print(len(suites), len(cases), root.get("failures"), ",".join(sorted(set(failed))))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), xml.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("python3 ends");
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).expect("UTF-8");
    // 3 files; 37 sheet rules each, plus the 2 link rules for the catalog; errors fail.
    assert_eq!(
        line.trim(),
        "3 113 3 MA-batch-time-zone-unknown,MA-idempotency-key-uses-job-id,MA-lease-not-longer-than-timeout"
    );
    // roxmltree (a strict XML 1.0 reader) agrees it is well-formed.
    roxmltree::Document::parse(&xml).expect("well-formed XML");
}

/// A fresh empty folder under the system's temporary folder.
pub fn tempdir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

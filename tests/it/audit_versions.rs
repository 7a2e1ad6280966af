//! `audit` audits each job for the release its project pins (issue 27 item 3), through the
//! real binary on the project trees of `tests/fixtures/audit/projects/`: a Rails app whose
//! Gemfile.lock pins sidekiq 6.5.12 (the schedule follows 6.2.2 – 7.x's jitter and says
//! "from Gemfile.lock:16"), the same app without the lock (8.x assumed, with how to choose),
//! `--target-version` over a pin, a lock file given on the command line as context, a
//! package.json range for BullMQ, a requirements range for Celery, a Celery release
//! outside the ones followed (a warning naming the pin) and `wait: :polynomially_longer`
//! under a Rails 7.0 pin (an error: that release does not retry the job at all).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// stdout and the exit code of `audit args` run in the fixtures' folder.
fn audit(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("audit")
        .args(args)
        .current_dir(fixtures())
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("the CLI runs");
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

fn json(args: &[&str]) -> (Value, i32) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (out, code) = audit(&all);
    (serde_json::from_str(&out).expect("JSON"), code)
}

const PINNED: &str = "projects/rails-pinned/app/jobs/receipt_job.rb";
const UNPINNED: &str = "projects/rails-unpinned/app/jobs/receipt_job.rb";
const INVOICE: &str = "projects/rails-pinned/app/jobs/invoice_job.rb";
const PROJECTS: [&str; 6] = [
    PINNED,
    INVOICE,
    UNPINNED,
    "projects/node-bullmq/src/queue.ts",
    "projects/python-celery/tasks.py",
    "projects/python-old-celery/tasks.py",
];

/// The largest wait before retry `n` (1-based) of the first job.
fn max_wait(v: &Value, n: usize) -> f64 {
    v["jobs"][0]["schedule"]["delays"][n - 1]["max_s"]
        .as_f64()
        .expect("a wait")
}

#[test]
fn a_gemfile_lock_above_the_job_chooses_sidekiq_6_and_its_jitter() {
    let (v, code) = json(&[PINNED, "--fail-level", "none"]);
    assert_eq!(code, 0);
    let version = &v["jobs"][0]["version"];
    assert_eq!(version["release"], "6.2.2-7");
    assert_eq!(version["from"], "projects/rails-pinned/Gemfile.lock:16");
    assert_eq!(version["pinned"], "6.5.12");
    assert_eq!(version["range"], false);
    // Sidekiq 6.x: 16 + rand(10)·2 ≤ 34 s before the second retry; 8.x: 16 + rand(20) ≤ 35 s.
    assert_eq!(max_wait(&v, 2), 34.0);
    let (text, _) = audit(&[PINNED]);
    assert!(
        text.contains("Audited for Sidekiq 6.2.2 – 7.x (source read: 6.4.1): projects/rails-pinned/Gemfile.lock:16 pins sidekiq 6.5.12."),
        "{text}"
    );
    assert!(
        text.contains("rand(10) · (c + 1) s (Sidekiq 6.2.2 – 7.x's own wait"),
        "{text}"
    );
}

#[test]
fn without_a_lock_the_newest_is_assumed_and_the_job_says_how_to_choose() {
    let (v, code) = json(&[UNPINNED, "--fail-level", "warning"]);
    let job = &v["jobs"][0];
    assert_eq!(job["version"]["release"], "8");
    assert_eq!(job["version"]["from"], "assumed");
    assert_eq!(job["version"]["pinned"], Value::Null);
    let note = job["version"]["note"].as_str().unwrap_or_default();
    assert!(note.contains("--target-version sidekiq=VERSION"), "{note}");
    assert!(note.contains("Gemfile.lock"), "{note}");
    assert_eq!(max_wait(&v, 2), 35.0);
    // Asking is not a finding: it neither fails the run nor shows as a warning.
    assert!(job["findings"]
        .as_array()
        .is_some_and(|f| f.iter().all(|f| f["rule"] != "MA-version-not-followed")));
    assert_eq!(code, 0, "{v}");
    let (ja, _) = audit(&[UNPINNED, "--lang", "ja"]);
    assert!(ja.contains("と仮定して確認しました"), "{ja}");
}

#[test]
fn target_version_wins_over_the_pin_and_says_so() {
    let (v, _) = json(&[PINNED, "--target-version", "sidekiq=8"]);
    let version = &v["jobs"][0]["version"];
    assert_eq!(version["release"], "8");
    assert_eq!(version["from"], "--target-version");
    assert_eq!(version["pinned"], "6.5.12");
    let note = version["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("not for what projects/rails-pinned/Gemfile.lock:16 pins"),
        "{note}"
    );
    assert_eq!(max_wait(&v, 2), 35.0);
    let (_, code) = audit(&[PINNED, "--target-version", "sidekiq=5"]);
    assert_eq!(code, 2, "an unknown version is bad usage");
    // A release names its range; naming the range the lock pins is the pin, not an override.
    for same in ["6.2.2-7", "6.5.12", "7"] {
        let (v, _) = json(&[PINNED, "--target-version", &format!("sidekiq={same}")]);
        let version = &v["jobs"][0]["version"];
        assert_eq!(version["release"], "6.2.2-7", "{same}");
        assert_eq!(
            version["from"], "projects/rails-pinned/Gemfile.lock:16",
            "{same}"
        );
        let note = version["note"].as_str().unwrap_or_default();
        assert!(!note.contains("not for what"), "{same}: {note}");
    }
    let (v, _) = json(&[PINNED, "--target-version", "sidekiq=8.0.1"]);
    assert_eq!(v["jobs"][0]["version"]["release"], "8");
    assert_eq!(v["jobs"][0]["version"]["from"], "--target-version");
}

#[test]
fn a_lock_file_given_is_context_not_a_configuration() {
    let lock = "projects/rails-pinned/Gemfile.lock";
    let (v, code) = json(&[UNPINNED, lock, "--fail-level", "none"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["errors"], serde_json::json!([]));
    assert_eq!(v["summary"]["files"], 1);
    assert_eq!(v["jobs"][0]["version"]["from"], format!("{lock}:16"));
    // Alone it audits nothing, and says nothing is wrong with it.
    let (v, code) = json(&[lock]);
    assert_eq!((code, &v["errors"]), (0, &serde_json::json!([])));
    // One that cannot be read is named with its line.
    let tmp = crate::check_cli::tempdir("audit-pins");
    let dir = tmp.path();
    let bad = dir.join("package.json");
    std::fs::write(&bad, "{\n  \"dependencies\": {\n    \"bullmq\": ^6\n").expect("write");
    let (out, code) = audit(&[PINNED, bad.to_str().expect("UTF-8")]);
    assert_eq!(code, 2);
    assert!(out.contains("package.json:3:"), "{out}");
}

#[test]
fn ranges_and_releases_outside_the_ones_followed_are_said() {
    let (v, code) = json(&[
        "projects/node-bullmq/src/queue.ts",
        "projects/python-celery/tasks.py",
        "projects/python-old-celery/tasks.py",
        "--fail-level",
        "warning",
    ]);
    assert_eq!(code, 1);
    let jobs = v["jobs"].as_array().expect("jobs");
    assert_eq!(
        jobs[0]["version"]["from"],
        "projects/node-bullmq/package.json:6"
    );
    assert_eq!(jobs[0]["version"]["pinned"], "^6.7.0");
    assert_eq!(jobs[0]["version"]["range"], true);
    assert_eq!(
        jobs[1]["version"]["from"],
        "projects/python-celery/requirements.txt:3"
    );
    assert_eq!(jobs[1]["version"]["pinned"], ">=5.2,<6");
    assert_eq!(jobs[1]["version"]["range"], true);
    assert_eq!(jobs[1]["version"]["release"], Value::Null);
    let old = &jobs[2];
    assert_eq!(old["version"]["pinned"], "==4.4.7");
    let warning = old["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["rule"] == "MA-version-not-followed"))
        .unwrap_or_else(|| panic!("a warning about celery 4.4.7: {old}"));
    assert_eq!(warning["severity"], "warning");
    let message = warning["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("projects/python-old-celery/requirements.txt:1 pins celery ==4.4.7")
            && message.contains("Celery 5.x"),
        "{message}"
    );
    let (sarif, _) = audit(&["projects/python-old-celery/tasks.py", "--format", "sarif"]);
    crate::check_sarif::assert_valid(&sarif);
    assert!(sarif.contains("MA-version-not-followed"));
}

#[test]
fn the_projects_as_text_and_json() {
    let mut args = PROJECTS.to_vec();
    args.extend(["--fail-level", "none"]);
    let (text, _) = audit(&args);
    insta::assert_snapshot!("audit_versions_text", text);
    args.extend(["--format", "json"]);
    let (out, _) = audit(&args);
    insta::assert_snapshot!("audit_versions_json", out);
}

#[test]
fn polynomially_longer_under_a_rails_7_0_pin_is_an_error() {
    let (v, code) = json(&[INVOICE]);
    assert_eq!(code, 1, "{v}");
    let job = &v["jobs"][0];
    assert_eq!(job["version"]["release"], "6.1-7.0");
    assert_eq!(
        job["version"]["from"],
        "projects/rails-pinned/Gemfile.lock:7"
    );
    let error = job["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["rule"] == "MA-wait-unknown-to-release"))
        .unwrap_or_else(|| panic!("an error about :polynomially_longer: {job}"));
    assert_eq!(
        (error["severity"].as_str(), error["line"].as_u64()),
        (Some("error"), Some(4))
    );
    // The schedule says what that release runs: one attempt, no waits.
    assert_eq!(job["schedule"]["attempts"], 1, "{job}");
    assert_eq!(job["schedule"]["delays"], serde_json::json!([]));
    // For Rails 7.1 the same file is fine, and waits n⁴ + rand · n⁴ · 0.15 + 2 s (the
    // default jitter leaves the 2 s out): retry 1 at most 3.15 s, retry 2 at most 20.4 s.
    let (v, _) = json(&[INVOICE, "--target-version", "active-job=7.1"]);
    assert!(v["jobs"][0]["findings"]
        .as_array()
        .is_some_and(|f| f.iter().all(|f| f["rule"] != "MA-wait-unknown-to-release")));
    assert_eq!(v["jobs"][0]["schedule"]["attempts"], 5);
    assert!((max_wait(&v, 1) - 3.15).abs() < 1e-9, "{}", max_wait(&v, 1));
    assert!((max_wait(&v, 2) - 20.4).abs() < 1e-9, "{}", max_wait(&v, 2));
}

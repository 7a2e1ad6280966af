//! `modality-advisor audit`, run as a process on the committed fixtures
//! (`tests/fixtures/audit/`: CloudFormation YAML with short tags and JSON, a SAM template,
//! Terraform, Kubernetes Jobs and CronJobs, Cloud Tasks queues as `gcloud` prints them and as
//! App Engine's queue.yaml, with hostile text — bidi controls, `::` and `%` for GitHub's
//! commands, XML specials — and a folder of bad files): every format as a snapshot, SARIF
//! against the 2.1.0 schema, JUnit read by a strict XML reader, the exit codes and the bad
//! inputs named with their file and line.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// stdout, stderr and the exit code of `audit args` run in the fixtures' folder.
fn audit(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("audit")
        .args(args)
        .current_dir(fixtures())
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("the CLI runs");
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

const FILES: [&str; 8] = [
    "sqs-lambda.cfn.yaml",
    "sqs-lambda.cfn.json",
    "sam.yaml",
    "sqs.tf",
    "jobs.k8s.yaml",
    "cloud-tasks.describe.yaml",
    "cloud-tasks.describe.json",
    "queue.yaml",
];

fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = FILES.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn every_format_on_the_fixtures() {
    for format in ["text", "json", "sarif", "github", "junit"] {
        let (out, err, code) = audit(&with(&["--format", format, "--fail-level", "none"]));
        assert_eq!(code, 0, "{format}: {err}");
        insta::assert_snapshot!(format!("audit_{format}"), out);
    }
    let (out, _, code) = audit(&with(&["--lang", "ja", "--fail-level", "none"]));
    assert_eq!(code, 0);
    insta::assert_snapshot!("audit_text_ja", out);
}

#[test]
fn the_facts_and_traps_of_each_system_are_read_at_their_lines() {
    let (out, _, _) = audit(&with(&["--fail-level", "none"]));
    for want in [
        // CloudFormation: the queue joined to its mapping and function through !GetAtt / !Ref.
        "sqs-lambda.cfn.yaml:12:26: warning [MA-lease-under-target-factor] Queue OrderQueue: the visibility timeout (1 min) is under AWS's advice for a queue Lambda consumes: at least 6 × the function's timeout (30 s) + the mapping's batching window (5 s) = 185 s.",
        // A parameter is not resolved, never guessed.
        "not resolved: VisibilityTimeout = !Ref AuditVisibility (line 45)",
        // The redrive policy as a JSON string.
        "failure.dead_letter = arn:aws:sqs:us-east-1:123456789012:jobs-dlq",
        // Terraform: jsonencode of a literal object; var.* and local.* not resolved.
        "sqs.tf:13:32: warning [MA-lease-under-target-factor]",
        "not resolved: visibility_timeout_seconds = var.visibility (line 42)",
        "not resolved: message_retention_seconds = local.retention (line 43)",
        // Kubernetes: backoffLimit 4 → 5 attempts, the controller's 10 s doubling.
        "schedule: attempts: 5; waits: 10 s, 20 s, 40 s, 1.3 min; window: 2.5 min",
        // The Job's deadline (100 s) ends it before 5 attempts (150 s of waits + 5 × 20 s).
        "jobs.k8s.yaml:8:26: warning [MA-job-deadline-before-retries] The Job pi fails at its activeDeadlineSeconds (100 s), before its 5 attempts can run",
        // Retries outlasting the queue's retention: 4 × 60 s of visibility + 5 × 3 s > 120 s.
        "sqs-lambda.cfn.json:15:35: error [MA-window-over-retention] Retries can last up to 4.3 min, but the queue keeps a message only 2 min",
        // Cloud Tasks: both limits.
        "cloud-tasks.describe.yaml:10:21: warning [MA-cloud-tasks-both-limits]",
        "queue.yaml:9:21: warning [MA-cloud-tasks-both-limits]",
        // The doublings as written: 10 s, then linear.
        "schedule: attempts: 8; waits: 10 s, 20 s, 30 s, 40 s, 50 s, 1 min, 1.2 min; window: 4.7 min",
        // A default is said to be one, and the finding about it says the file does not state it.
        "retry.lease_ms = 30 s  — not stated (default: 30 s (AWS SQS + Lambda's default))",
        "sam.yaml:4:3: warning [MA-no-dead-letter-queue] The queue SqsQueue has no redrive policy",
        "(the file does not state this value; the finding is about the system's default)",
        // Hostile text shown, not obeyed.
        "evil <&> \"q\" ::error file=a::x %0A 100% <U+202E>gnp.exe",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    assert!(
        !out.contains('\u{202E}'),
        "a bidi control reached the output"
    );
}

#[test]
fn sarif_is_valid_and_names_the_audit_rules() {
    let (out, _, _) = audit(&with(&["--format", "sarif", "--fail-level", "none"]));
    let v = crate::check_sarif::assert_valid(&out);
    let ids: Vec<&str> = v["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    for id in [
        "MA-cloud-tasks-both-limits",
        "MA-no-dead-letter-queue",
        "MA-lease-under-target-factor",
    ] {
        assert!(ids.contains(&id), "{id}");
    }
    for r in v["runs"][0]["results"].as_array().expect("results") {
        let index = r["ruleIndex"].as_u64().expect("index") as usize;
        assert_eq!(ids[index], r["ruleId"].as_str().unwrap_or_default());
    }
    let (bad, _, code) = audit(&["bad/broken.tf", "--format", "sarif"]);
    assert_eq!(code, 2);
    let v = crate::check_sarif::assert_valid(&bad);
    assert_eq!(v["runs"][0]["invocations"][0]["executionSuccessful"], false);
}

#[test]
fn github_commands_escape_hostile_names_and_junit_is_well_formed() {
    // Past GitHub's 10 warnings per step the rest are counted in a notice.
    let (out, _, _) = audit(&with(&["--format", "github", "--fail-level", "none"]));
    assert_eq!(
        out.lines().filter(|l| l.starts_with("::warning")).count(),
        10
    );
    assert_eq!(out.lines().filter(|l| l.starts_with("::error")).count(), 1);
    assert!(
        out.contains(
            "::notice title=modality-advisor audit::0 errors and 4 warnings are not annotated"
        ),
        "{out}"
    );
    // The hostile queue name: `%` escaped as %25 (so its "%0A" stays text), `::` kept in the
    // message (GitHub reads the command up to the first `::` only), the bidi control shown.
    let (out, _, _) = audit(&["queue.yaml", "--format", "github", "--fail-level", "none"]);
    let evil = out
        .lines()
        .find(|l| l.starts_with("::warning") && l.contains("evil"))
        .unwrap_or_else(|| panic!("an annotation names the hostile queue:\n{out}"));
    assert!(
        evil.contains("evil <&> \"q\" ::error file=a::x %250A 100%25 <U+202E>gnp.exe"),
        "{evil}"
    );
    let (xml, _, _) = audit(&with(&["--format", "junit", "--fail-level", "warning"]));
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.attribute("name"), Some("modality-advisor audit"));
    assert!(
        root.attribute("failures")
            .and_then(|f| f.parse::<u32>().ok())
            > Some(0)
    );
}

#[test]
fn exit_codes_follow_the_fail_level() {
    assert_eq!(audit(&["sqs.tf"]).2, 0, "warnings only");
    assert_eq!(audit(&["sqs.tf", "--fail-level", "warning"]).2, 1);
    assert_eq!(audit(&["sqs.tf", "bad/broken.tf"]).2, 2);
    assert_eq!(audit(&[]).2, 2, "no file is bad usage");
}

#[test]
fn bad_files_exit_2_naming_the_file_and_the_line() {
    for (file, want) in [
        ("bad/broken.tf", "bad/broken.tf:2:32: syntax error"),
        ("bad/broken.yaml", "bad/broken.yaml:4:4: syntax error"),
        (
            "bad/bomb.yaml",
            "bad/bomb.yaml:6:10: nested deeper than 64 levels, or more than 200000 YAML nodes",
        ),
        ("bad/binary.yaml", "bad/binary.yaml:1:1: not a text file"),
        (
            "bad/nothing.cfn.yaml",
            "bad/nothing.cfn.yaml:1:1: no queue or job found (read as CloudFormation",
        ),
        (
            "bad/deployment.yaml",
            "bad/deployment.yaml:1:1: no queue or job found (read as Kubernetes",
        ),
        (
            "bad/unknown.yaml",
            "bad/unknown.yaml:1:1: not a configuration the audit can read",
        ),
        ("missing.tf", "missing.tf: cannot read the file"),
        (
            "bad",
            "bad: cannot read the file: a folder: give the configuration files in it",
        ),
    ] {
        let (out, _, code) = audit(&[file]);
        assert_eq!(code, 2, "{file}");
        assert!(out.contains(want), "{file}: {out}");
    }
    // A 50 MB file is refused before it is read.
    let tmp = crate::check_cli::tempdir("audit-large");
    let dir = tmp.path();
    let big = dir.join("big.yaml");
    let f = std::fs::File::create(&big).expect("create");
    f.set_len(50 * 1024 * 1024).expect("sparse 50 MB");
    let (out, _, code) = audit(&[big.to_str().unwrap_or_default()]);
    assert_eq!(code, 2);
    assert!(
        out.contains(
            "the file has 50.0 MiB (52,428,800 bytes); allowed: at most 5.0 MiB (5,242,880 bytes)"
        ),
        "{out}"
    );
}

/// A SAM template's `Globals.Function.Timeout` is the timeout of every SAM function that sets
/// none: the 6 × rule measures the queue's visibility timeout (line 12) against it (120 s →
/// 12 min > 5 min); a function with its own `Timeout` keeps it (40 s → 4 min ≤ 5 min, no
/// finding).
#[test]
fn sam_globals_give_the_functions_timeout() {
    let (out, _, code) = audit(&[
        "sam-globals.yaml",
        "--format",
        "json",
        "--fail-level",
        "none",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let jobs = v["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 2, "{out}");
    let timeouts: Vec<u64> = jobs
        .iter()
        .filter_map(|j| j["sheet"]["retry"]["attempt_timeout_ms"].as_u64())
        .collect();
    assert_eq!(
        timeouts,
        [120_000, 40_000],
        "Globals, then the function's own"
    );
    let rules = |i: usize| -> Vec<String> {
        jobs[i]["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| format!("{}@{}", f["rule"].as_str().unwrap_or(""), f["line"]))
            .collect()
    };
    assert!(
        rules(0).contains(&"MA-lease-under-target-factor@12".to_owned()),
        "{:?}",
        rules(0)
    );
    assert!(
        !rules(1)
            .iter()
            .any(|r| r.starts_with("MA-lease-under-target-factor")),
        "a function's own Timeout wins over Globals: {:?}",
        rules(1)
    );
}

/// Terraform's JSON syntax (`*.tf.json`, as CDK for Terraform writes it: `${…}`
/// interpolations, `jsonencode` inside one, a block as an array of one object, `//` comments)
/// gives the same jobs as the same configuration in HCL (`sqs.tf`): sheets, schedules,
/// findings and what is not resolved — everything but the lines.
#[test]
fn terraform_json_reads_as_its_hcl() {
    fn without_places(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for k in ["file", "line", "column", "message"] {
                    m.remove(k);
                }
                m.values_mut().for_each(without_places);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(without_places),
            _ => {}
        }
    }
    let jobs = |file: &str| {
        let (out, err, code) = audit(&[file, "--format", "json", "--fail-level", "none"]);
        assert_eq!(code, 0, "{file}: {err}{out}");
        let mut v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let mut jobs = v["jobs"].take();
        without_places(&mut jobs);
        jobs
    };
    let (hcl, json) = (jobs("sqs.tf"), jobs("sqs.tf.json"));
    assert_eq!(hcl.as_array().map(Vec::len), Some(2), "{hcl}");
    assert_eq!(json, hcl);
    // And the places are the JSON file's own.
    let (text, _, _) = audit(&["sqs.tf.json", "--fail-level", "none"]);
    assert!(
        text.contains("sqs.tf.json:19:39: warning [MA-lease-under-target-factor]"),
        "{text}"
    );
    assert!(
        text.contains("not resolved: visibility_timeout_seconds = var.visibility (line 25)"),
        "{text}"
    );
}

/// A redrive policy written as a JSON string with `${…}` inside (by hand in HCL, or CDK for
/// Terraform's `JSON.stringify` in JSON) is read as the object it is: 4 receives, the
/// dead-letter queue of the file (not listed as a job of its own), no "no DLQ" finding; a
/// policy that is one variable stays not resolved.
#[test]
fn a_redrive_policy_as_a_json_string_with_interpolations_is_read() {
    for file in ["redrive-string.tf", "redrive-string.tf.json"] {
        let (out, err, code) = audit(&[file, "--format", "json", "--fail-level", "none"]);
        assert_eq!(code, 0, "{file}: {err}{out}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let jobs = v["jobs"].as_array().expect("jobs");
        let names: Vec<&str> = jobs.iter().filter_map(|j| j["name"].as_str()).collect();
        assert_eq!(names, ["invoices", "reports"], "{file}: the DLQ is no job");
        let invoices = &jobs[0];
        assert_eq!(invoices["sheet"]["retry"]["max_attempts"], 4, "{file}");
        assert!(
            !invoices["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .any(|f| f["rule"] == "MA-no-dead-letter-queue"),
            "{file}: {invoices}"
        );
        assert!(
            invoices["unresolved"].as_array().is_some_and(Vec::is_empty),
            "{file}: {invoices}"
        );
        let reports = jobs[1]["unresolved"].to_string();
        assert!(reports.contains("var.reports_policy"), "{file}: {reports}");
    }
}

/// The JSON report of `audit` on files written to a fresh folder (name, text).
fn audit_json_of(files: &[(&str, &str)], extra: &[&str]) -> serde_json::Value {
    let dir = std::env::temp_dir().join(format!(
        "ma-audit-honest-{}-{}",
        std::process::id(),
        files[0].0
    ));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let mut args: Vec<String> = Vec::new();
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("written");
        args.push(p.display().to_string());
    }
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("audit")
        .args(&args)
        .args(["--format", "json", "--fail-level", "none"])
        .current_dir(&dir)
        .output()
        .expect("the CLI runs");
    let _ = std::fs::remove_dir_all(&dir);
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// A queue whose visibility timeout is a variable, consumed by a function with a 10 s
/// timeout: the default 30 s would be under 6 × 10 s, but the file does not say 30 s.
const VAR_VISIBILITY: &str = r#"
resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  visibility_timeout_seconds = var.visibility
}
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 10
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.jobs.arn
  function_name    = aws_lambda_function.worker.arn
}
"#;

#[test]
fn a_value_not_resolved_is_never_used_as_the_default() {
    let v = audit_json_of(&[("var.tf", VAR_VISIBILITY)], &[]);
    let job = &v["jobs"][0];
    // (a) Not "not stated": the field is marked not resolved, with its expression.
    let not_stated: Vec<&str> = job["not_stated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["path"].as_str().unwrap())
        .collect();
    assert!(!not_stated.contains(&"retry.lease_ms"), "{not_stated:?}");
    assert!(job["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["path"] == "retry.lease_ms" && u["expression"] == "var.visibility"));
    // (b) The waits are the visibility timeout: unknown, and so is the window.
    let parts = job["schedule_unknown"].as_array().unwrap();
    assert!(parts.iter().any(
        |p| p["part"] == "waits" && p["needs"] == "visibility_timeout_seconds = var.visibility"
    ));
    assert!(job["schedule"]["window_s"]["max"].is_null());
    assert_eq!(job["schedule"]["delays"].as_array().unwrap().len(), 0);
    // (c) The 6 × rule is not raised on the default; it cannot be checked.
    let rules: Vec<&str> = job["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(
        !rules.contains(&"MA-lease-under-target-factor"),
        "{rules:?}"
    );
    assert!(job["unchecked"].as_array().unwrap().iter().any(|u| {
        u["rule"] == "MA-lease-under-target-factor"
            && u["needs"][0] == "visibility_timeout_seconds = var.visibility"
    }));
}

#[test]
fn a_value_not_resolved_reads_so_in_text_junit_sarif_and_github() {
    let (text, _, _) = audit(&["sqs.tf", "--fail-level", "none"]);
    assert!(
        text.contains(
            "retry.lease_ms = not resolved: visibility_timeout_seconds = var.visibility (line 42)"
        ),
        "{text}"
    );
    assert!(text.contains(
        "waits: not resolved (visibility_timeout_seconds = var.visibility, line 42); window: not known"
    ));
    assert!(text.contains("cannot check [MA-lease-under-target-factor]"));
    let (junit, _, _) = audit(&["sqs.tf", "--format", "junit", "--fail-level", "none"]);
    assert!(junit.contains("<skipped message="), "{junit}");
    let (sarif, _, _) = audit(&["sqs.tf", "--format", "sarif", "--fail-level", "none"]);
    assert!(sarif.contains("\"level\": \"note\""), "{sarif}");
    let (github, _, _) = audit(&["sqs.tf", "--format", "github", "--fail-level", "none"]);
    assert!(github.contains("::notice file=sqs.tf,line=40"), "{github}");
}

#[test]
fn a_code_wait_not_resolved_leaves_the_waits_unknown() {
    let v = audit_json_of(
        &[(
            "retry_job.rb",
            "class HardJob\n  include Sidekiq::Job\n  sidekiq_options retry: 3\n  sidekiq_retry_in { |count| 60 * (count + 1) }\nend\n",
        )],
        &["--target-version", "sidekiq=8"],
    );
    let job = &v["jobs"][0];
    assert_eq!(job["schedule"]["attempts"], 4);
    assert_eq!(job["schedule"]["delays"].as_array().unwrap().len(), 0);
    assert!(job["schedule"]["window_s"]["max"].is_null());
    assert_eq!(job["schedule_unknown"][0]["part"], "waits");
    let not_stated = job["not_stated"].as_array().unwrap();
    assert!(!not_stated
        .iter()
        .any(|n| n["path"].as_str().unwrap().starts_with("retry.backoff")));
}

#[test]
fn defaults_are_the_systems_not_the_sheets() {
    let plain = "resource \"aws_sqs_queue\" \"plain\" {\n  name = \"plain\"\n}\n";
    for (lang, none) in [("en", "none — "), ("ja", "なし — ")] {
        let v = audit_json_of(&[("plain.tf", plain)], &["--lang", lang]);
        let job = &v["jobs"][0];
        let dead = job["sheet"]["failure"]["dead_letter"].as_str().unwrap();
        assert!(dead.starts_with(none) && dead.contains('4'), "{dead}");
        // 4 d ÷ 30 s = 11,520 receives; the sheet holds 100 and says so.
        assert_eq!(job["schedule"]["attempts"], 11_520);
        assert_eq!(job["sheet"]["retry"]["max_attempts"], 100);
        let attempts = job["not_stated"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["path"] == "retry.max_attempts")
            .unwrap()["default"]
            .as_str()
            .unwrap();
        assert!(
            attempts.contains("11,520") && attempts.contains("100"),
            "{attempts}"
        );
    }
    let (text, _, _) = audit(&[
        "jobs.k8s.yaml",
        "cloud-tasks.describe.yaml",
        "--fail-level",
        "none",
    ]);
    assert!(text.contains("failure.dead_letter = none — the failed Job stays"));
    assert!(text.contains("failure.dead_letter = none — Cloud Tasks has no dead-letter queue"));
}

#[test]
fn the_text_is_in_words_and_junit_lists_only_the_rules_evaluated() {
    let (text, _, _) = audit(&["sqs.tf", "jobs.k8s.yaml", "--fail-level", "none"]);
    for bad in [
        "1 attempts",
        "1 files",
        "1 jobs",
        "1 errors",
        "Fixed",
        "polynomial {",
    ] {
        assert!(!text.contains(bad), "{bad}: {text}");
    }
    assert!(
        text.contains("retry.backoff = fixed wait of 20 s"),
        "{text}"
    );
    assert!(text.contains("batch.overlap = forbid: skip the new run while one runs"));
    assert!(text.contains("window: 2.5 min"), "{text}");
    let (junit, _, _) = audit(&["sqs.tf", "--format", "junit", "--fail-level", "none"]);
    // No key in a queue configuration: the key's rules were not evaluated.
    assert!(!junit.contains("MA-no-idempotency-key"), "{junit}");
    assert!(junit.contains("name=\"MA-lease-under-target-factor\""));
}

/// An expression as written that holds a bidi control (a hostile `retry_kwargs`) reaches no
/// report raw: not the sheet's lines, the schedule's unknown parts nor what cannot be checked.
#[test]
fn no_bidi_control_leaves_an_expression_raw() {
    for format in ["text", "json", "sarif", "github", "junit"] {
        let (out, _, _) = audit(&[
            "code/celery_retry_kwargs.py",
            "--format",
            format,
            "--fail-level",
            "none",
        ]);
        assert!(
            out.contains("EXTRA"),
            "{format}: the hostile job is reported"
        );
        assert!(
            !out.contains('\u{202E}'),
            "{format}: a raw bidi control in\n{out}"
        );
    }
}

#[test]
fn junit_has_one_case_per_rule_and_job_each_with_one_outcome() {
    // OrderQueue's 6 × rule is checked (and fails); AuditQueue's is not resolved (skipped).
    let (xml, _, _) = audit(&[
        "sqs-lambda.cfn.yaml",
        "--format",
        "junit",
        "--fail-level",
        "warning",
    ]);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let cases: Vec<(String, String, bool, bool)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| {
            (
                n.attribute("classname").unwrap_or_default().to_owned(),
                n.attribute("name").unwrap_or_default().to_owned(),
                n.children().any(|c| c.has_tag_name("skipped")),
                n.children().any(|c| c.has_tag_name("failure")),
            )
        })
        .collect();
    let mut keys: Vec<(&str, &str)> = cases.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
    keys.sort();
    let before = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), before, "a test case listed twice:\n{xml}");
    let rule = "MA-lease-under-target-factor";
    let of = |class: &str| {
        cases
            .iter()
            .filter(|c| c.0 == class && c.1 == rule)
            .map(|c| (c.2, c.3))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        of("sqs-lambda.cfn.yaml:8 OrderQueue"),
        [(false, true)],
        "{xml}"
    );
    assert_eq!(
        of("sqs-lambda.cfn.yaml:42 AuditQueue"),
        [(true, false)],
        "{xml}"
    );
}

#[test]
fn github_writes_the_annotations_only() {
    let (out, _, _) = audit(&["sqs.tf", "--format", "github", "--fail-level", "none"]);
    assert!(out.lines().count() > 0);
    for l in out.lines() {
        assert!(
            l.starts_with("::"),
            "a line that is no workflow command: {l:?}\n{out}"
        );
    }
}

#[test]
fn an_out_of_range_literal_is_a_finding_and_a_setting_is_unresolved_once() {
    let tmp = crate::check_cli::tempdir("audit-range");
    let file = tmp.path().join("tasks.py");
    std::fs::write(
        &file,
        "from celery import Celery\nfrom settings import RETRY_KWARGS\napp = Celery('p')\n\n\
         @app.task(max_retries=-3)\ndef neg(x):\n    pass\n\n\
         @app.task(autoretry_for=(IOError,), retry_kwargs=RETRY_KWARGS)\ndef kw(x):\n    pass\n",
    )
    .expect("write");
    let path = file.to_str().expect("UTF-8");
    let (json, _, _) = audit(&[path, "--format", "json", "--fail-level", "none"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let jobs = v["jobs"].as_array().expect("jobs");
    let neg = &jobs[0];
    assert_eq!(neg["unresolved"].as_array().map(Vec::len), Some(0), "{neg}");
    let f = neg["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["rule"] == "MA-value-out-of-range")
        .unwrap_or_else(|| panic!("{neg}"));
    assert_eq!(f["severity"], "error");
    let m = f["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("max_retries = -3") && m.contains("0 to 4,294,967,295"),
        "{m}"
    );
    let kw = &jobs[1];
    assert_eq!(kw["unresolved"].as_array().map(Vec::len), Some(1), "{kw}");
    let (text, _, _) = audit(&[path, "--fail-level", "none"]);
    assert!(
        !text.contains("max_retries = -3 (line 5); the value is known only"),
        "{text}"
    );
    assert_eq!(
        text.matches("not resolved: retry_kwargs = RETRY_KWARGS (line 9); the value")
            .count(),
        1,
        "{text}"
    );
}

/// An SQS stack whose values AWS itself refuses: a visibility timeout past 12 h, a retention
/// past 14 days, a `maxReceiveCount` past 1,000 and a Lambda timeout of 0 (each deploy
/// fails). They passed the gate without a word; each is now an error at its line naming
/// what AWS accepts, in the run's language, and the gate fails on them.
const PAST_AWS_LIMITS: &str = r#"
resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  visibility_timeout_seconds = 86400
  message_retention_seconds  = 2000000
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 1001
  })
}
resource "aws_sqs_queue" "dlq" {
  name = "jobs-dlq"
}
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 0
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.jobs.arn
  function_name    = aws_lambda_function.worker.arn
}
"#;

#[test]
fn values_past_aws_limits_are_errors_at_their_lines() {
    let v = audit_json_of(&[("queue.tf", PAST_AWS_LIMITS)], &[]);
    let jobs = v["jobs"].as_array().expect("jobs");
    let over: Vec<(u64, String)> = jobs
        .iter()
        .flat_map(|j| j["findings"].as_array().into_iter().flatten())
        .filter(|f| f["rule"] == "MA-value-out-of-range")
        .map(|f| {
            assert_eq!(f["severity"], "error", "{f}");
            (
                f["line"].as_u64().unwrap_or_default(),
                f["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let lines: Vec<u64> = over.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [4, 5, 8, 16], "{over:#?}");
    // The sheet holds 100 of the 1,001 deliveries: said at the setting (its schedule counted
    // 1,001 and its findings 100 without a word).
    let kept = jobs
        .iter()
        .flat_map(|j| j["findings"].as_array().into_iter().flatten())
        .find(|f| f["rule"] == "MA-setting-not-in-sheet" && f["line"] == 8)
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(
        kept["message"],
        "redrive_policy.maxReceiveCount = 1,001: the sheet holds 1 – 100, so it keeps 100."
    );
    for (want, (_, m)) in [
        "visibility_timeout_seconds = 1 d is outside what AWS accepts (0 s – 12 h)",
        "message_retention_seconds = 2,000,000 s is outside what AWS accepts (1 min – 14 d)",
        "redrive_policy.maxReceiveCount = 1,001 is outside what AWS accepts (1 – 1,000)",
        "timeout = 0 s is outside what AWS accepts (1 s – 15 min)",
    ]
    .iter()
    .zip(&over)
    {
        assert!(m.starts_with(want), "{m}\nwanted: {want}");
    }
    // The gate: `--fail-level error` fails on them.
    let dir = crate::check_cli::tempdir("audit-aws-limits");
    let file = dir.path().join("queue.tf");
    std::fs::write(&file, PAST_AWS_LIMITS).expect("write");
    let path = file.to_str().expect("UTF-8");
    let (_, _, code) = audit(&[path, "--fail-level", "error"]);
    assert_eq!(code, 1);
    let (text, _, _) = audit(&[path, "--fail-level", "none", "--lang", "ja"]);
    assert!(
        text.contains("timeout = 0秒 は AWS が受け付ける範囲（1秒〜15分）の外です"),
        "{text}"
    );
    // Within the limits (12 h, 14 d, 1,000, 15 min): no such error.
    let within = PAST_AWS_LIMITS
        .replace("86400", "43200")
        .replace("2000000", "1209600")
        .replace("1001", "1000")
        .replace("timeout       = 0", "timeout       = 900");
    let v = audit_json_of(&[("within.tf", &within)], &[]);
    assert!(!v.to_string().contains("outside what AWS accepts"), "{v:#}");
}

#[test]
fn a_setting_two_jobs_share_is_one_finding_of_the_file() {
    // One function consuming two queues, its timeout past AWS's limit: each job lists the
    // error, but GitHub's annotations, SARIF and the summary count it once (it was annotated
    // twice at the same line).
    let tf = r#"
resource "aws_sqs_queue" "a" {
  name                       = "a"
  visibility_timeout_seconds = 6000
}
resource "aws_sqs_queue" "b" {
  name                       = "b"
  visibility_timeout_seconds = 6000
}
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 901
}
resource "aws_lambda_event_source_mapping" "ma" {
  event_source_arn = aws_sqs_queue.a.arn
  function_name    = aws_lambda_function.worker.arn
}
resource "aws_lambda_event_source_mapping" "mb" {
  event_source_arn = aws_sqs_queue.b.arn
  function_name    = aws_lambda_function.worker.arn
}
"#;
    let dir = crate::check_cli::tempdir("audit-shared");
    let file = dir.path().join("twoq.tf");
    std::fs::write(&file, tf).expect("write");
    let path = file.to_str().expect("UTF-8");
    let (github, _, _) = audit(&[path, "--format", "github", "--fail-level", "none"]);
    assert_eq!(
        github.matches("MA-value-out-of-range").count(),
        1,
        "{github}"
    );
    let (sarif, _, _) = audit(&[path, "--format", "sarif", "--fail-level", "none"]);
    let v: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF");
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert_eq!(
        results
            .iter()
            .filter(|r| r["ruleId"] == "MA-value-out-of-range")
            .count(),
        1,
        "{results:#?}"
    );
    let (text, _, _) = audit(&[path, "--fail-level", "none"]);
    assert!(text.contains("errors: 1,"), "{text}");
    let (json, _, _) = audit(&[path, "--format", "json", "--fail-level", "none"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    for job in v["jobs"].as_array().expect("jobs") {
        assert!(
            job["findings"]
                .as_array()
                .is_some_and(|f| f.iter().any(|x| x["rule"] == "MA-value-out-of-range")),
            "each job keeps it: {job}"
        );
    }
}

#[test]
fn a_dead_letter_queue_past_aws_limits_is_an_error_at_its_line() {
    // The dead-letter queue is no job of its own, so its values went unchecked (exit 0);
    // AWS refuses a retention over 14 days there as anywhere.
    let tf = r#"resource "aws_sqs_queue" "dlq" {
  name                       = "jobs-dlq"
  message_retention_seconds  = 1209601
  visibility_timeout_seconds = 50000
}
resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  visibility_timeout_seconds = 180
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}
"#;
    let cfn = "Resources:\n  Dlq:\n    Type: AWS::SQS::Queue\n    Properties:\n      MessageRetentionPeriod: 1209601\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 180\n      RedrivePolicy:\n        deadLetterTargetArn: !GetAtt Dlq.Arn\n        maxReceiveCount: 5\n";
    for (name, text, want) in [
        (
            "dlq.tf",
            tf,
            vec![
                (
                    3,
                    "aws_sqs_queue.dlq.message_retention_seconds = 1,209,601 s",
                ),
                (4, "aws_sqs_queue.dlq.visibility_timeout_seconds = 50,000 s"),
            ],
        ),
        (
            "dlq.yaml",
            cfn,
            vec![(5, "Dlq.MessageRetentionPeriod = 1,209,601 s")],
        ),
    ] {
        let v = audit_json_of(&[(name, text)], &[]);
        let over: Vec<(u64, String)> = v["jobs"]
            .as_array()
            .expect("jobs")
            .iter()
            .flat_map(|j| j["findings"].as_array().into_iter().flatten())
            .filter(|f| f["rule"] == "MA-value-out-of-range")
            .map(|f| {
                (
                    f["line"].as_u64().unwrap_or_default(),
                    f["message"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        assert_eq!(over.len(), want.len(), "{name}: {over:#?}");
        for ((line, start), (l, m)) in want.iter().zip(&over) {
            assert_eq!(l, line, "{name}: {m}");
            assert!(m.starts_with(start), "{name}: {m}");
        }
        assert_eq!(v["summary"]["exit_code"], 0, "--fail-level none");
    }
}

#[test]
fn the_simulators_configuration_is_named_for_what_it_is_and_exits_2() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/examples/queue-retry.config.json"
    );
    let (out, err, code) = audit(&[path]);
    assert_eq!(code, 2, "{out}{err}");
    let said = format!("{out}{err}");
    assert!(
        said.contains("the command-line simulator's configuration")
            && said.contains("simulate --config FILE"),
        "{said}"
    );
}

//! The JSON outputs of `simulate`, `size` and `check` against their committed schemas
//! (`docs/schemas/*.schema.json`, draft 2020-12): real runs of the CLI — presets and config
//! files, a burst and none, ρ ≥ 1, findings and none, unreadable files — each validated
//! offline with the `jsonschema` crate. The schemas are closed (`additionalProperties:
//! false`, every property required), so a field added to a report without its schema fails
//! here, and a counter left out when zero fails as a missing required field.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema_value(name: &str) -> Value {
    let path = root().join(format!("docs/schemas/{name}.schema.json"));
    let text = std::fs::read_to_string(&path).expect("the schema");
    serde_json::from_str(&text).expect("schema JSON")
}

fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema_value(name)).expect("a valid draft 2020-12 schema")
}

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the CLI runs")
}

/// The JSON `args` print (exit code in `codes`), checked against schema `name`.
fn valid(name: &str, args: &[&str], dir: &Path, codes: &[i32]) -> Value {
    let out = run(args, dir);
    let code = out.status.code().unwrap_or(-1);
    assert!(
        codes.contains(&code),
        "{args:?}: exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    if let Some(e) = errors_of(name, &v) {
        panic!("{args:?} against {name}: {e:#?}");
    }
    v
}

fn errors_of(name: &str, v: &Value) -> Option<Vec<String>> {
    let errors: Vec<String> = validator(name)
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    (!errors.is_empty()).then_some(errors)
}

const COUNTERS: [&str; 22] = [
    "deleted_rows",
    "runs",
    "failures",
    "duplicate_runs",
    "duplicate_effects",
    "prevented_by_key",
    "crashes",
    "lock_errors",
    "calls",
    "calls_ok",
    "calls_busy",
    "calls_rate_limited",
    "calls_unavailable",
    "accepted",
    "failed_to_user",
    "fallbacks",
    "overlapping_runs",
    "stale_results",
    "claims_over_max",
    "completed_after_dead",
    "lost_jobs",
    "lease_renewals",
];

#[test]
fn simulate_runs_match_their_schema_with_every_counter_written() {
    let dir = root();
    let runs: [&[&str]; 9] = [
        &["--scenario", "duplicate-execution"],
        &[
            "--scenario",
            "duplicate-execution",
            "--variant",
            "idempotency-key",
        ],
        &["--scenario", "pg-row-locks", "--variant", "nowait"],
        &[
            "--scenario",
            "lease-shorter-than-handler",
            "--variant",
            "naive",
        ],
        &["--scenario", "retry-dead-letter", "--log-lines", "3"],
        &["--scenario", "jitter-contention"],
        &["--scenario", "mmc-load", "--jobs", "2000"],
        &["--config", "static/examples/queue-retry.config.json"],
        &["--config", "static/examples/flaky-handler.config.json"],
    ];
    let mut saw_lease_counter = false;
    for extra in runs {
        let mut args = vec!["simulate", "--format", "json"];
        args.extend_from_slice(extra);
        let v = valid("simulate", &args, dir, &[0]);
        if let Some(m) = v["metrics"].as_object() {
            for key in COUNTERS {
                assert!(
                    m[key].is_u64(),
                    "{extra:?}: metrics.{key} = {:?}",
                    m.get(key)
                );
            }
            saw_lease_counter |= m["overlapping_runs"].as_u64() > Some(0);
        } else {
            assert!(
                v["contention"].is_object(),
                "{extra:?}: no metrics, no study"
            );
        }
    }
    assert!(
        saw_lease_counter,
        "one run counts a lease counter above 0, so both cases are validated"
    );
}

#[test]
fn zero_counters_and_missing_values_are_written_not_left_out() {
    let v = valid(
        "simulate",
        &[
            "simulate",
            "--scenario",
            "duplicate-execution",
            "--format",
            "json",
        ],
        root(),
        &[0],
    );
    let m = &v["metrics"];
    // The counters a run without lease trouble used to leave out.
    for key in [
        "stale_results",
        "claims_over_max",
        "lost_jobs",
        "deleted_rows",
    ] {
        assert_eq!(m[key], Value::from(0), "{key}");
    }
    assert_eq!(m["calls_per_s"], Value::Null, "no downstream: null");
    assert_eq!(v["contention"], Value::Null);
    assert_eq!(v["errors"], serde_json::json!({}));
    assert_eq!(v["events_left_out"], Value::from(0));
    assert_eq!(v["balance"], Value::from(200));
}

#[test]
fn a_field_the_schema_does_not_name_is_refused() {
    let v = valid(
        "simulate",
        &["simulate", "--scenario", "claim-race", "--format", "json"],
        root(),
        &[0],
    );
    let mut top = v.clone();
    top["new_counter"] = Value::from(0);
    assert!(errors_of("simulate", &top).is_some(), "top level");
    let mut inner = v.clone();
    inner["metrics"]["new_counter"] = Value::from(0);
    assert!(errors_of("simulate", &inner).is_some(), "metrics");
    let mut missing = v;
    if let Some(m) = missing["metrics"].as_object_mut() {
        m.remove("stale_results");
    }
    assert!(
        errors_of("simulate", &missing).is_some(),
        "a counter left out"
    );
}

/// Every object the schemas describe is closed and names every property as required, except
/// the maps keyed by worker name (`claims`, `errors`) whose values are typed.
#[test]
fn the_schemas_are_closed() {
    fn walk(v: &Value, at: &str, bad: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::Object(props)) = o.get("properties") {
                    if o.get("additionalProperties") != Some(&Value::Bool(false)) {
                        bad.push(format!("{at}: not closed"));
                    }
                    let required: Vec<&str> = o
                        .get("required")
                        .and_then(Value::as_array)
                        .map(|r| r.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    for k in props.keys() {
                        if !required.contains(&k.as_str()) {
                            bad.push(format!("{at}.{k}: not required"));
                        }
                    }
                }
                for (k, x) in o {
                    walk(x, &format!("{at}/{k}"), bad);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, at, bad)),
            _ => {}
        }
    }
    for name in ["simulate", "size", "check"] {
        let s = schema_value(name);
        assert_eq!(
            s["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        for key in ["$id", "title", "description"] {
            assert!(s[key].is_string(), "{name}: {key}");
        }
        let mut bad = Vec::new();
        walk(&s, name, &mut bad);
        assert!(bad.is_empty(), "{bad:#?}");
    }
}

#[test]
fn size_answers_match_their_schema_with_and_without_a_burst() {
    let dir = root();
    let small = ["--seeds", "2", "--jobs", "300", "--format", "json"];
    let runs: [&[&str]; 5] = [
        // A burst against a downstream's rate limit (drain figures written).
        &[
            "--arrival-per-s",
            "0",
            "--handler",
            "fixed",
            "--mean-ms",
            "60",
            "--burst",
            "200",
            "--drain-within-ms",
            "2min",
            "--downstream-limit-per-s",
            "10",
        ],
        // Steady arrivals, no burst (drain figures null, burst counters 0).
        &[
            "--arrival-per-s",
            "20",
            "--handler",
            "exponential",
            "--mean-ms",
            "100",
            "--target-wait-p95-ms",
            "100ms",
            "--failure-rate",
            "0.1",
            "--max-attempts",
            "5",
        ],
        // ρ ≥ 1: no count up to 1 keeps up.
        &[
            "--arrival-per-s",
            "20",
            "--handler",
            "exponential",
            "--mean-ms",
            "100",
            "--workers-max",
            "1",
            "--lang",
            "ja",
        ],
        // Lognormal with our own limiter.
        &[
            "--arrival-per-s",
            "5",
            "--handler",
            "lognormal",
            "--p50-ms",
            "80",
            "--p95-ms",
            "400",
            "--our-limit-per-s",
            "8",
        ],
        // A sheet's numbers.
        &["--input", "static/examples/partner-inventory-sync.json"],
    ];
    let mut saw = (false, false, false);
    for extra in runs {
        let mut args = vec!["size"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&small);
        let v = valid("size", &args, dir, &[0]);
        for p in v["points"].as_array().into_iter().flatten() {
            assert!(p["undrained_runs"].is_u64() && p["burst_dead_jobs"].is_u64());
            if v["input"]["burst"].is_null() {
                saw.0 = true;
                assert!(p["drain_ms"].is_null() && p["drain_ci_ms"].is_null(), "{p}");
                assert_eq!(p["burst_dead_jobs"], Value::from(0));
            } else {
                saw.1 = true;
            }
        }
        saw.2 |= v["recommendation"]["reason_id"] == "unstable";
    }
    assert_eq!(saw, (true, true, true), "no burst, a burst, ρ ≥ 1");
}

#[test]
fn check_reports_match_their_schema_with_findings_and_without() {
    let dir = root().join("tests/fixtures/check");
    // Findings (errors and warnings), in both languages.
    let v = valid(
        "check",
        &["check", "sheets", "system.catalog.json", "--format", "json"],
        &dir,
        &[1],
    );
    assert!(
        v["summary"]["errors"].as_u64() > Some(0),
        "{}",
        v["summary"]
    );
    assert_eq!(v["summary"]["exit_code"], Value::from(1));
    valid(
        "check",
        &["check", "sheets", "--format", "json", "--lang", "ja"],
        &dir,
        &[0, 1],
    );
    // Unreadable files: the errors with their places.
    let v = valid(
        "check",
        &["check", "broken", "sheets", "--format", "json"],
        &dir,
        &[2],
    );
    assert!(v["summary"]["unreadable"].as_u64() > Some(0));
    // No finding: every count written as 0.
    let v = valid(
        "check",
        &[
            "check",
            "examples/sheets/nightly-report.sheet.json",
            "--format",
            "json",
        ],
        root(),
        &[0],
    );
    let s = &v["summary"];
    for key in ["errors", "warnings", "unreadable", "skipped"] {
        assert_eq!(s[key], Value::from(0), "{key}: {s}");
    }
    assert_eq!(v["findings"], serde_json::json!([]));
}

#[test]
fn audit_versions_match_the_schema() {
    // Each job's release: pinned by a lock file, a range, outside the ones followed,
    // assumed, and chosen with --target-version over a pin.
    let dir = root().join("tests/fixtures/audit");
    let projects = [
        "projects/rails-pinned/app/jobs/receipt_job.rb",
        "projects/rails-pinned/app/jobs/invoice_job.rb",
        "projects/rails-unpinned/app/jobs/receipt_job.rb",
        "projects/node-bullmq/src/queue.ts",
        "projects/python-celery/tasks.py",
        "projects/python-old-celery/tasks.py",
    ];
    for extra in [
        &[][..],
        &["--target-version", "sidekiq=8", "--lang", "ja"][..],
    ] {
        let mut args = vec!["audit", "--format", "json", "--fail-level", "none"];
        args.extend(projects);
        args.extend(extra);
        let v = valid("audit", &args, &dir, &[0]);
        assert_eq!(v["jobs"].as_array().map(Vec::len), Some(6));
    }
}

#[test]
fn audit_reports_match_their_schema() {
    let dir = root().join("tests/fixtures/audit");
    let files = [
        "sqs-lambda.cfn.yaml",
        "sqs-lambda.cfn.json",
        "sam.yaml",
        "sqs.tf",
        "jobs.k8s.yaml",
        "cloud-tasks.describe.yaml",
        "cloud-tasks.describe.json",
        "queue.yaml",
    ];
    let mut args = vec!["audit", "--format", "json", "--fail-level", "warning"];
    args.extend(files);
    let v = valid("audit", &args, &dir, &[1]);
    assert_eq!(
        v["summary"]["jobs"].as_u64(),
        v["jobs"].as_array().map(|j| j.len() as u64)
    );
    assert!(
        v["jobs"].as_array().is_some_and(|j| j.len() >= 8),
        "{}",
        v["summary"]
    );
    args.push("--lang");
    args.push("ja");
    valid("audit", &args, &dir, &[1]);
    // Unreadable files, and a file with no queue: every count written, the errors placed.
    let v = valid(
        "audit",
        &[
            "audit",
            "bad/broken.tf",
            "bad/bomb.yaml",
            "bad/nothing.cfn.yaml",
            "--format",
            "json",
        ],
        &dir,
        &[2],
    );
    assert_eq!(v["summary"]["unreadable"], Value::from(3));
    assert_eq!(v["errors"][0]["line"], Value::from(2));
}

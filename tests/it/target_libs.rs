//! Celery, BullMQ and pg-boss compute our schedules with their own retry code (issue 27 item
//! 3), as `target_versions` does for Sidekiq and Active Job. For several sheets (fixed waits,
//! a fixed wait with jitter, exponential waits with each jitter, a polynomial, fewer attempts)
//! our export of each system is run by the library, as installed by `scripts/install-tools.sh`:
//!
//! - **Celery 5.7** (PyPI; `tests/tools/run_celery_retries.py`): the export module imported as
//!   it is, its task applied eagerly (no broker) through Celery's autoretry wrapper or the
//!   export's `self.retry(countdown=…)`, then `Task.retry` (`max_retries`), until Celery gives
//!   up and the task's `on_failure` (the dead letter) runs; the countdowns from Celery's
//!   `task_retry` signal.
//! - **BullMQ 6.7** (npm, `tests/tools/node`; `run_bullmq_retries.mjs`): the TypeScript export
//!   compiled and run with the real package, its Queue and Worker only keeping their options
//!   (no Redis); a real `Job` through `job.moveToFailed` (`shouldRetryJob`,
//!   `Backoffs.calculate`, the built-in or the export's own strategy) as the Worker calls it,
//!   the Redis scripts it would run recording the delay or the end.
//! - **pg-boss 12.38** (npm, `tests/tools/node`; `run_pg_boss_retries.mjs`): on a PostgreSQL
//!   server this test starts (`target_sql_support::Pg::server`), the export's `setup(boss)`,
//!   then jobs fetched and failed by pg-boss (its SQL computes `start_after`) on pg-boss's own
//!   `TestClock`, moved to each retry's time instead of waiting; `random()` as its SQL calls
//!   it replaced by a function of the test's (ahead of `pg_catalog` on the search path).
//!
//! Each library's waits equal the report's: the number of attempts, each wait's min and max
//! exactly (the library's random source stubbed to its lowest and highest value), each mean
//! near the report's expected wait: for Celery and BullMQ, 2,000 seeded runs within 3 % of the
//! wait's range (a uniform's mean over 2,000 draws is off by more than that, 4.6 standard
//! deviations, about once in 3 · 10⁵ waits); for pg-boss, 400 jobs whose `random()` are the
//! midpoints of 400 equal steps of [0, 1), within 1/400 of the range (the midpoint rule's
//! bound for a wait that grows with U). A missing library fails the test, naming what to
//! install.

use crate::target_queue_support::{backoff, with_retry};
use crate::target_sql_support::Pg;
use modality_advisor::domain::queues::{self, TargetId, TargetReport};
use modality_advisor::domain::sheet::{BackoffKind, Jitter, JobSheet, Polynomial};
use modality_advisor::domain::Lang;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Attempts of most sheets here (4 retries).
const ATTEMPTS: u32 = 5;

/// One export and what its library computed.
struct Run {
    name: String,
    report: TargetReport,
    result: Value,
}

/// The sheets, named; the retryable and permanent errors are Python's built-in classes (the
/// Celery export names them in `autoretry_for` / `dont_autoretry_for`).
fn sheets(target: TargetId) -> Vec<(String, JobSheet)> {
    let exp = |jitter| backoff(BackoffKind::Exponential, 2_000, 60_000, jitter);
    let mut list = vec![
        (
            "fixed 10 s".to_owned(),
            backoff(BackoffKind::Fixed, 10_000, 10_000, Jitter::None),
            ATTEMPTS,
        ),
        (
            "fixed 1.5 s, 3 attempts".to_owned(),
            backoff(BackoffKind::Fixed, 1_500, 1_500, Jitter::None),
            3,
        ),
        (
            "fixed 10 s, full jitter".to_owned(),
            backoff(BackoffKind::Fixed, 10_000, 10_000, Jitter::Full),
            ATTEMPTS,
        ),
        (
            "exponential 10 s, cap 10 min, full jitter (the worked example's)".to_owned(),
            backoff(BackoffKind::Exponential, 10_000, 600_000, Jitter::Full),
            ATTEMPTS,
        ),
        (
            "polynomial n⁴ + 2 s, cap 1 d".to_owned(),
            backoff(
                BackoffKind::Polynomial(Polynomial {
                    exponent: 4,
                    first_n: 1,
                }),
                2_000,
                86_400_000,
                Jitter::None,
            ),
            ATTEMPTS,
        ),
        (
            "exponential 2 s, cap 10 s (reached), 7 attempts".to_owned(),
            backoff(BackoffKind::Exponential, 2_000, 10_000, Jitter::Equal),
            7,
        ),
        (
            "one attempt, no retry".to_owned(),
            backoff(BackoffKind::Fixed, 10_000, 10_000, Jitter::None),
            1,
        ),
        (
            "exponential 1 s, cap 7 d, 20 attempts (pg-boss's 2^16 ceiling)".to_owned(),
            backoff(BackoffKind::Exponential, 1_000, 604_800_000, Jitter::None),
            20,
        ),
    ];
    for jitter in [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
    ] {
        list.push((
            format!("exponential 2 s, cap 60 s, jitter {jitter:?}"),
            exp(jitter),
            ATTEMPTS,
        ));
    }
    list.into_iter()
        .enumerate()
        .map(|(i, (name, b, attempts))| {
            let mut sheet = with_retry(|r| {
                r.max_attempts = attempts;
                r.backoff = b;
                r.retryable_errors = vec!["TimeoutError".to_owned()];
                r.non_retryable_errors = vec!["ValueError".to_owned()];
            });
            sheet.process.code_name = format!("libs_{}_{i}", target.name().replace('-', "_"));
            (name, sheet)
        })
        .collect()
}

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("target-libs");
    std::fs::create_dir_all(&d).expect("the temporary folder");
    d
}

/// `tests/tools/node`: the npm packages (bullmq, pg-boss, typescript) and the drivers.
fn node_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/node")
}

/// The exports of every sheet for `target`, each written to its own file.
fn exports(target: TargetId, ext: &str) -> Vec<(String, TargetReport, PathBuf)> {
    let d = dir();
    sheets(target)
        .into_iter()
        .enumerate()
        .map(|(i, (name, sheet))| {
            let rep = queues::report(&sheet, target, None, Lang::En)
                .unwrap_or_else(|e| panic!("{target:?} {name}: {}", e.message(Lang::En)));
            let file = d.join(format!("{}-{i}.{ext}", target.name()));
            std::fs::write(&file, &rep.built.text).expect("write the export");
            (name, rep, file)
        })
        .collect()
}

/// Runs a driver; its JSON results, one per case, paired with the cases.
fn drive(
    mut command: Command,
    what: &str,
    install: &str,
    cases: Vec<(String, TargetReport, PathBuf)>,
) -> Vec<Run> {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{what} does not start ({e}): {install}"));
    assert!(
        out.status.success(),
        "the {what} driver failed ({install}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "the {what} driver's JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(results.len(), cases.len(), "{what}: one result a case");
    cases
        .into_iter()
        .zip(results)
        .map(|((name, report, _), result)| {
            let error = result["error"].as_str().unwrap_or_default();
            assert!(error.is_empty(), "{what}, {name}: {error} ({install})");
            Run {
                name,
                report,
                result,
            }
        })
        .collect()
}

/// Jobs of pg-boss's mean (one grid value of `random()` each).
const PG_BOSS_JOBS: u32 = 400;

const PIP: &str = "run scripts/install-tools.sh (PyPI celery==5.7.0)";
const NPM: &str = "run scripts/install-tools.sh (npm ci in tests/tools/node: bullmq, pg-boss)";

fn celery_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let cases = exports(TargetId::Celery, "py");
        let spec: Vec<Value> = cases
            .iter()
            .map(|(name, rep, file)| {
                json!({"name": name, "file": file, "task": task_name(&rep.built.text), "draws": 2000})
            })
            .collect();
        let spec_file = dir().join("celery-cases.json");
        std::fs::write(&spec_file, Value::Array(spec).to_string()).expect("write the cases");
        let mut c = Command::new("python3");
        c.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/run_celery_retries.py"))
            .arg(&spec_file);
        drive(c, "Celery", PIP, cases)
    })
}

/// The task's name in the export's decorator (`name="…"`).
fn task_name(text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("name=\""))
        .and_then(|l| l.strip_suffix("\","))
        .expect("the export names its task")
        .to_owned()
}

fn bullmq_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let cases = exports(TargetId::Bullmq, "ts");
        let spec: Vec<Value> = cases
            .iter()
            .map(|(name, _, file)| json!({"name": name, "file": file, "draws": 2000}))
            .collect();
        let spec_file = dir().join("bullmq-cases.json");
        std::fs::write(&spec_file, Value::Array(spec).to_string()).expect("write the cases");
        let mut c = Command::new("node");
        c.arg(node_dir().join("run_bullmq_retries.mjs"))
            .arg(&spec_file);
        drive(c, "BullMQ", NPM, cases)
    })
}

fn pg_boss_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        // The exports import 'pg-boss': their folder resolves it from tests/tools/node.
        let modules = dir().join("node_modules");
        if std::fs::symlink_metadata(&modules).is_err() {
            std::os::unix::fs::symlink(node_dir().join("node_modules"), &modules)
                .expect("link node_modules");
        }
        let cases = exports(TargetId::PgBoss, "mjs");
        let pg = Pg::server();
        let spec = json!({
            "host": pg.dir(),
            "port": pg.port(),
            "user": "postgres",
            "database": "postgres",
            "cases": cases
                .iter()
                .map(|(name, _, file)| json!({"name": name, "file": file, "jobs": PG_BOSS_JOBS}))
                .collect::<Vec<_>>(),
        });
        let spec_file = dir().join("pg-boss-cases.json");
        std::fs::write(&spec_file, spec.to_string()).expect("write the cases");
        let mut c = Command::new("node");
        c.arg(node_dir().join("run_pg_boss_retries.mjs"))
            .arg(&spec_file);
        let runs = drive(c, "pg-boss", NPM, cases);
        drop(pg);
        runs
    })
}

fn numbers(v: &Value, key: &str, name: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no {key:?} in {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap_or_else(|| panic!("{name}: {key} {x}")))
        .collect()
}

/// Every run's min and max equal the report's and its mean the expected wait within `share`
/// of the wait's range; `scale` turns the library's unit into seconds.
fn assert_matches(runs: &[Run], library: &str, version: &str, scale: f64, share: f64) {
    for run in runs {
        let name = &run.name;
        let installed = run.result["versions"][library].as_str().unwrap_or_default();
        assert!(
            installed.starts_with(version),
            "{name}: {library} {installed} is not the {version} this test is for ({PIP}; {NPM})"
        );
        let actual = &run.report.built.actual;
        let [min, max, mean] = ["min", "max", "mean"].map(|k| {
            numbers(&run.result, k, name)
                .into_iter()
                .map(|x| x * scale)
                .collect::<Vec<_>>()
        });
        assert_eq!(
            actual.delays.len(),
            min.len(),
            "{name}: {library} retried {} times, the report says {} ({min:?})",
            min.len(),
            actual.delays.len()
        );
        assert_eq!(max.len(), min.len(), "{name}: retries at the highest draw");
        assert_eq!(mean.len(), min.len(), "{name}: retries of the seeded runs");
        for (i, d) in actual.delays.iter().enumerate() {
            assert!(
                (min[i] - d.min_s).abs() < 1e-6,
                "{name}, retry {}: {library} waits at least {} s, the report says {} s",
                i + 1,
                min[i],
                d.min_s
            );
            assert!(
                (max[i] - d.max_s).abs() < 1e-6,
                "{name}, retry {}: {library} waits at most {} s, the report says {} s",
                i + 1,
                max[i],
                d.max_s
            );
            let tolerance = share * (d.max_s - d.min_s) + 1e-6;
            assert!(
                (mean[i] - d.expected_s).abs() <= tolerance,
                "{name}, retry {}: {library} waits {} s on average, the report expects {} s (± {tolerance})",
                i + 1,
                mean[i],
                d.expected_s
            );
        }
    }
}

/// The attempts the library ran equal the report's (`retries + 1`: no off-by-one).
fn assert_attempts(run: &Run, ran: u64) {
    let claimed = run.report.built.actual.attempts;
    assert_eq!(
        Some(ran),
        claimed.map(u64::from),
        "{}: the library ran {ran} attempts, the report says {claimed:?}",
        run.name
    );
}

#[test]
fn celery_computes_the_schedules_the_report_claims() {
    let runs = celery_runs();
    assert_matches(runs, "celery", "5.7.", 1.0, 0.03);
    for run in runs {
        let r = &run.result;
        assert_attempts(run, r["runs"].as_u64().unwrap_or_default());
        assert_eq!(r["state"], "FAILURE", "{}", run.name);
        assert_dead_once(&run.name, &r["dead"]);
        // A permanent error: one run, no retry, the dead letter at once.
        let p = &r["permanent"];
        assert_eq!(p["runs"], 1, "{}: {p}", run.name);
        assert_eq!(p["countdowns"], json!([]), "{}: {p}", run.name);
        assert_dead_once(&run.name, &p["dead"]);
    }
    // Both of the export's ways ran: Celery's own backoff and the export's countdown function.
    let text = |i: usize| &runs[i].report.built.text;
    assert!(text(3).contains("retry_backoff=10,") && text(3).contains("retry_jitter=True"));
    assert!(text(1).contains("default_retry_delay=1.5"));
    assert!(text(4).contains("def sheet_countdown("));
}

/// The export's dead letter (`on_failure`) logged the job once.
fn assert_dead_once(name: &str, logged: &Value) {
    let dead = logged
        .as_array()
        .map(|l| {
            l.iter()
                .filter(|m| m.as_str().unwrap_or_default().contains("is dead"))
                .count()
        })
        .unwrap_or_default();
    assert_eq!(
        dead, 1,
        "{name}: the dead letter ran {dead} times: {logged}"
    );
}

#[test]
fn bullmq_computes_the_schedules_the_report_claims() {
    let runs = bullmq_runs();
    assert_matches(runs, "bullmq", "6.7.", 0.001, 0.03);
    for run in runs {
        let r = &run.result;
        assert_attempts(run, r["attempts"].as_u64().unwrap_or_default());
        assert_dead_once(&run.name, &r["dead"]);
        // NON_RETRYABLE: thrown as UnrecoverableError, no retry, the failed listener's dead job.
        let p = &r["permanent"];
        assert_eq!(p["runs"], 1, "{}: {p}", run.name);
        assert_eq!(p["delays"], json!([]), "{}: {p}", run.name);
        assert_dead_once(&run.name, &p["dead"]);
    }
    let text = |i: usize| &runs[i].report.built.text;
    assert!(text(2).contains("type: \"fixed\", delay: 10000, jitter: 1"));
    assert!(text(4).contains("backoffStrategy: sheetBackoff"));
}

#[test]
fn pg_boss_computes_the_schedules_the_report_claims() {
    let runs = pg_boss_runs();
    assert_matches(
        runs,
        "pg-boss",
        "12.38.",
        1.0,
        1.0 / f64::from(PG_BOSS_JOBS),
    );
    for run in runs {
        let r = &run.result;
        assert_eq!(
            r["attempts"].as_array().map(Vec::len),
            Some(1),
            "{}",
            run.name
        );
        assert_attempts(run, r["attempts"][0].as_u64().unwrap_or_default());
        assert_eq!(r["states"], json!({"failed": 1}), "{}", run.name);
        assert_eq!(r["dead_letter"], 1, "{}: the dead-letter queue", run.name);
    }
}

//! The versions of the queue systems (issue 27 item 3), proven by the libraries themselves:
//! Debian's Sidekiq 6.4.1 and Active Job 6.1.7 (`scripts/install-tools.sh`) run their own
//! retry code — `Sidekiq::JobRetry#delay_for`, Active Job's `retry_on` handler and
//! `determine_delay` — on the job class of our export for that version
//! (`tests/tools/run_ruby_retries.rb`), for a fixed wait, a fixed wait of a fraction of a
//! second, an exponential wait with each jitter and the library's own polynomial. With
//! `Kernel#rand` stubbed to its lowest and highest value the waits equal the report's
//! min / max exactly; the mean of the seeded runs (3,000 for Sidekiq, 1,500 for Active Job)
//! lies within 3 % of the wait's range of the report's expected wait (a uniform's mean over
//! 1,500 draws is off by more than 2.3 % of its range about once in 10⁴ runs).
//!
//! Also: the newest Active Job export (`:polynomially_longer`) on Rails 6.1 raises "Couldn't
//! determine a delay" (the job would not be retried), and the Sidekiq 8 export's `:kill` on
//! Sidekiq 6.4 is no delay at all (`Symbol#to_i` raises: the global handler retries the job),
//! while the 6.2.2 – 7.x export ends a permanent error in `perform`, the retries-exhausted
//! block called and the job in the Dead set. Plus the CLI's `--target-version`.

use crate::target_queue_support::{backoff, with_retry};
use modality_advisor::domain::queues::{self, TargetId, TargetReport, TargetVersion};
use modality_advisor::domain::sheet::{BackoffKind, Jitter, JobSheet, Polynomial};
use modality_advisor::domain::Lang;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Attempts of every sheet here: 4 retries.
const ATTEMPTS: u32 = 5;

/// One export run by its library.
struct Run {
    name: String,
    report: TargetReport,
    result: Value,
}

/// The sheets, named: the wait strategy changed, the retryable error a class Ruby knows
/// (`Timeout::Error`), `ArgumentError` the permanent one, each class named apart.
fn sheets(target: TargetId) -> Vec<(String, JobSheet)> {
    let own = match target {
        // Sidekiq's own c⁴ + 15 (c from 0): the export writes no delay.
        TargetId::Sidekiq => backoff(
            BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 0,
            }),
            15_000,
            86_400_000,
            Jitter::None,
        ),
        // Active Job's n⁴ + 2 (n from 1): :exponentially_longer / :polynomially_longer.
        _ => backoff(
            BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 1,
            }),
            2_000,
            86_400_000,
            Jitter::None,
        ),
    };
    let mut out = vec![
        (
            "fixed 10 s".to_owned(),
            backoff(BackoffKind::Fixed, 10_000, 10_000, Jitter::None),
        ),
        (
            "fixed 1.5 s".to_owned(),
            backoff(BackoffKind::Fixed, 1_500, 1_500, Jitter::None),
        ),
        ("the library's own polynomial".to_owned(), own),
    ];
    for jitter in [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
    ] {
        out.push((
            format!("exponential 2 s, cap 60 s, jitter {jitter:?}"),
            backoff(BackoffKind::Exponential, 2_000, 60_000, jitter),
        ));
    }
    out.into_iter()
        .enumerate()
        .map(|(i, (name, b))| {
            let mut sheet = with_retry(|r| {
                r.max_attempts = ATTEMPTS;
                r.backoff = b;
                r.retryable_errors = vec!["Timeout::Error".to_owned()];
                r.non_retryable_errors = vec!["ArgumentError".to_owned()];
            });
            sheet.process.code_name = format!("versions_{}_{i}", target.name().replace('-', "_"));
            (name, sheet)
        })
        .collect()
}

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("target-versions");
    std::fs::create_dir_all(&d).expect("the temporary folder");
    d
}

fn export(sheet: &JobSheet, target: TargetId, version: Option<TargetVersion>) -> TargetReport {
    queues::report_version(sheet, target, None, version, Lang::En)
        .unwrap_or_else(|e| panic!("{target:?} {version:?}: {}", e.message(Lang::En)))
}

/// Runs the Ruby driver over `cases` (name, library, report), each export in its own file.
fn run_ruby(cases: Vec<(String, &'static str, TargetReport)>, draws: u32) -> Vec<Run> {
    let d = dir();
    let mut spec = Vec::new();
    for (i, (name, library, rep)) in cases.iter().enumerate() {
        let file = d.join(format!("case-{library}-{i}.rb"));
        std::fs::write(&file, &rep.built.text).expect("write the export");
        spec.push(json!({
            "name": name,
            "library": library,
            "file": file,
            "class": class_of_text(&rep.built.text),
            "retries": ATTEMPTS - 1,
            "draws": draws,
            "permanent": (*library == "sidekiq").then_some("ArgumentError"),
        }));
    }
    let spec_file = d.join(format!("cases-{}.json", cases[0].1));
    std::fs::write(&spec_file, Value::Array(spec).to_string()).expect("write the cases");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/run_ruby_retries.rb");
    let out = Command::new("ruby")
        .arg(&script)
        .arg(&spec_file)
        .output()
        .expect("ruby runs (scripts/install-tools.sh installs it)");
    assert!(
        out.status.success(),
        "the Ruby driver failed (are ruby-sidekiq and ruby-activejob installed? \
         scripts/install-tools.sh): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the driver's JSON");
    cases
        .into_iter()
        .zip(results)
        .map(|((name, _, report), result)| Run {
            name,
            report,
            result,
        })
        .collect()
}

/// The class name the export declares (`class XJob`).
fn class_of_text(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("class "))
        .and_then(|l| l.split_whitespace().next())
        .expect("the export declares a class")
        .to_owned()
}

fn numbers(v: &Value, key: &str, name: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no {key:?} in {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// Every run's min and max equal the report's, and its mean the expected wait.
fn assert_matches(runs: &[Run], library: &str, version: &str) {
    for run in runs {
        let name = &run.name;
        let installed = run.result["versions"][library].as_str().unwrap_or_default();
        assert!(
            installed.starts_with(version),
            "{name}: {library} {installed} is not the {version} this test is for (Debian 12's)"
        );
        assert!(
            run.result["error"].is_null(),
            "{name}: {}",
            run.result["error"]
        );
        let (min, max, mean) = (
            numbers(&run.result, "min", name),
            numbers(&run.result, "max", name),
            numbers(&run.result, "mean", name),
        );
        let delays = &run.report.built.actual.delays;
        assert_eq!(delays.len(), min.len(), "{name}: retries");
        for (i, d) in delays.iter().enumerate() {
            assert!(
                (min[i] - d.min_s).abs() < 1e-6,
                "{name}, retry {i}: {library} waits at least {} s, the report says {} s",
                min[i],
                d.min_s
            );
            assert!(
                (max[i] - d.max_s).abs() < 1e-6,
                "{name}, retry {i}: {library} waits at most {} s, the report says {} s",
                max[i],
                d.max_s
            );
            let tolerance = 0.03 * (d.max_s - d.min_s) + 1e-6;
            assert!(
                (mean[i] - d.expected_s).abs() <= tolerance,
                "{name}, retry {i}: {library} waits {} s on average, the report expects {} s (± {tolerance})",
                mean[i],
                d.expected_s
            );
        }
    }
}

/// One run of each library over every sheet, made once for the tests below.
fn sidekiq_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let mut cases: Vec<(String, &'static str, TargetReport)> = sheets(TargetId::Sidekiq)
            .into_iter()
            .map(|(name, sheet)| {
                let rep = export(&sheet, TargetId::Sidekiq, Some(TargetVersion::Sidekiq6));
                (name, "sidekiq", rep)
            })
            .collect();
        // The Sidekiq 8 export of the first sheet, for its :kill on Sidekiq 6.
        let (_, first) = &sheets(TargetId::Sidekiq)[0];
        let mut newest = first.clone();
        newest.process.code_name = "versions_sidekiq_newest".to_owned();
        cases.push((
            "the Sidekiq 8 export".to_owned(),
            "sidekiq",
            export(&newest, TargetId::Sidekiq, None),
        ));
        run_ruby(cases, 3000)
    })
}

fn active_job_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let mut cases: Vec<(String, &'static str, TargetReport)> = sheets(TargetId::ActiveJob)
            .into_iter()
            .map(|(name, sheet)| {
                let rep = export(
                    &sheet,
                    TargetId::ActiveJob,
                    Some(TargetVersion::ActiveJob61),
                );
                (name, "active-job", rep)
            })
            .collect();
        let (_, own) = &sheets(TargetId::ActiveJob)[2];
        let mut newest = own.clone();
        newest.process.code_name = "versions_active_job_newest".to_owned();
        cases.push((
            "the Rails 7.1 export".to_owned(),
            "active-job",
            export(&newest, TargetId::ActiveJob, None),
        ));
        run_ruby(cases, 1500)
    })
}

#[test]
fn sidekiq_6_runs_the_schedule_the_6_2_2_to_7_report_claims() {
    let runs = sidekiq_runs();
    let (older, newest) = runs.split_at(runs.len() - 1);
    assert_matches(older, "sidekiq", "6.4.");
    // Sidekiq 6's jitter is rand(10)·(c+1): at most 9·(c+1), not 10·(c+1) − 1.
    let fixed = &older[0].report.built.actual.delays;
    assert_eq!(
        fixed.iter().map(|d| d.max_s).collect::<Vec<_>>(),
        vec![19.0, 28.0, 37.0, 46.0]
    );
    // The 8.x report claims another schedule (rand(10·(c+1))), which Sidekiq 6 does not run.
    let claimed8: Vec<f64> = newest[0]
        .report
        .built
        .actual
        .delays
        .iter()
        .map(|d| d.max_s)
        .collect();
    assert_eq!(claimed8, vec![19.0, 29.0, 39.0, 49.0]);
    assert_ne!(numbers(&newest[0].result, "max", "8.x"), claimed8);
}

#[test]
fn a_permanent_error_ends_the_job_on_sidekiq_6_only_with_the_6_export() {
    let runs = sidekiq_runs();
    for run in &runs[..runs.len() - 1] {
        let p = &run.result["permanent_outcome"];
        assert_eq!(
            p["raised"],
            Value::Null,
            "{}: perform raised: {p}",
            run.name
        );
        assert_eq!(
            p["exhausted"],
            json!([[class_of_text(&run.report.built.text), "ArgumentError"]]),
            "{}: the retries-exhausted block ran once",
            run.name
        );
        assert_eq!(p["dead"], json!(["ArgumentError"]), "{}", run.name);
    }
    // The 8.x export's block returns :kill; Sidekiq 6's delay_for calls to_i on it, which
    // raises outside the block's rescue, and the global handler schedules a retry.
    let newest = &runs[runs.len() - 1];
    assert!(newest.report.built.text.contains("next :kill"));
    let out = Command::new("ruby")
        .args(["-e", KILL_PROBE])
        .arg(dir().join(format!("case-sidekiq-{}.rb", runs.len() - 1)))
        .arg(class_of_text(&newest.report.built.text))
        .output()
        .expect("ruby runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("NoMethodError") && said.contains("to_i"),
        "Sidekiq 6 on :kill said {said:?} {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Asks Sidekiq 6's own `delay_for` for the wait after a permanent error of the job class
/// (`ARGV`: its file and class); prints the wait or the error raised.
const KILL_PROBE: &str = r##"
require "sidekiq"
require "sidekiq/job_retry"
load ARGV[0]
begin
  puts Sidekiq::JobRetry.new.send(:delay_for, Object.const_get(ARGV[1]).new, 0, ArgumentError.new("x"))
rescue Exception => e
  puts "#{e.class}: #{e.message}"
end
"##;

#[test]
fn active_job_6_1_runs_the_schedule_the_6_1_report_claims() {
    let runs = active_job_runs();
    let (older, _) = runs.split_at(runs.len() - 1);
    assert_matches(older, "active-job", "6.1.");
    assert!(older[2].report.built.text.contains(":exponentially_longer"));
    // A fixed 1.5 s is a Proc for Rails 6.1 (a Duration would be truncated to 1 s).
    assert!(older[1]
        .report
        .built
        .text
        .contains("->(executions) { 1.5 }"));
}

#[test]
fn the_rails_7_1_export_is_not_retried_on_rails_6_1() {
    let runs = active_job_runs();
    let newest = &runs[runs.len() - 1];
    assert!(newest.report.built.text.contains(":polynomially_longer"));
    let error = newest.result["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("Couldn't determine a delay based on :polynomially_longer"),
        "Rails 6.1 said {:?}",
        newest.result
    );
}

#[test]
fn each_target_states_the_versions_it_follows() {
    for t in TargetId::ALL {
        for lang in [Lang::En, Lang::Ja] {
            let followed = queues::versions::followed(t, None, lang);
            assert!(
                !followed.is_empty() && !followed.starts_with("target."),
                "{t:?}"
            );
        }
    }
    let sheet = with_retry(|_| {});
    let rep = export(&sheet, TargetId::Celery, None);
    assert_eq!(rep.versions, "Celery 5.x (source read: 5.6.2)");
    assert!(rep
        .built
        .text
        .contains("# Follows Celery 5.x (source read: 5.6.2): its formulas"));
    let old = export(&sheet, TargetId::Sidekiq, Some(TargetVersion::Sidekiq6));
    assert_eq!(old.version, Some(TargetVersion::Sidekiq6));
    assert!(old.built.text.contains("# Follows Sidekiq 6.2.2 – 7.x"));
    assert!(old.defaults.summary.contains("rand(10)·(c+1)"));
    let wrong = queues::report_version(
        &sheet,
        TargetId::Celery,
        None,
        Some(TargetVersion::Sidekiq6),
        Lang::En,
    );
    assert!(matches!(
        wrong,
        Err(queues::TargetError::UnknownVersion { .. })
    ));
}

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the CLI runs")
}

#[test]
fn the_cli_chooses_the_version() {
    let input = "static/examples/reservation-mail.json";
    let old = cli(&[
        "sheet",
        "--input",
        input,
        "--lang",
        "en",
        "--target",
        "active-job",
        "--target-version",
        "6.1-7.0",
    ]);
    assert!(
        old.status.success(),
        "{}",
        String::from_utf8_lossy(&old.stderr)
    );
    assert!(String::from_utf8_lossy(&old.stdout).contains("# Follows Rails (Active Job) 6.1 – 7.0"));
    let bad = cli(&[
        "sheet",
        "--input",
        input,
        "--target",
        "sidekiq",
        "--target-version",
        "5",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("--target-version") && said.contains("8, 6.2.2-7"),
        "{said}"
    );
    let none = cli(&[
        "sheet",
        "--input",
        input,
        "--target",
        "celery",
        "--target-version",
        "5",
    ]);
    assert_eq!(none.status.code(), Some(2));
    let list = cli(&[
        "targets",
        "--format",
        "json",
        "--target-version",
        "sidekiq=6.2.2-7",
    ]);
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let rows: Vec<Value> = serde_json::from_slice(&list.stdout).expect("JSON");
    let sidekiq = rows
        .iter()
        .find(|r| r["name"] == "sidekiq")
        .expect("sidekiq");
    assert_eq!(sidekiq["version"], "6.2.2-7");
    assert_eq!(sidekiq["target_versions"], json!(["8", "6.2.2-7"]));
    assert!(sidekiq["default_policy"]
        .as_str()
        .unwrap_or_default()
        .contains("rand(10)·(c+1)"));
    let celery = rows.iter().find(|r| r["name"] == "celery").expect("celery");
    assert_eq!(celery["versions"], "Celery 5.x (source read: 5.6.2)");
    let bad_list = cli(&["targets", "--target-version", "sidekiq=5"]);
    assert_eq!(bad_list.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_list.stderr).contains("allowed: 8, 6.2.2-7"));
}

#[test]
fn the_older_versions_exports_of_the_worked_example() {
    use crate::target_queue_support::{example, mapping_text};
    let sheet = example(Lang::En);
    let sidekiq = export(&sheet, TargetId::Sidekiq, Some(TargetVersion::Sidekiq6));
    insta::assert_snapshot!("sidekiq_6_text_en", sidekiq.built.text);
    insta::assert_snapshot!("sidekiq_6_mapping_en", mapping_text(&sidekiq));
    assert!(!sidekiq.built.text.contains("next :kill"));
    let rails = export(
        &sheet,
        TargetId::ActiveJob,
        Some(TargetVersion::ActiveJob61),
    );
    insta::assert_snapshot!("active_job_6_1_text_en", rails.built.text);
    let ja = queues::report_version(
        &example(Lang::Ja),
        TargetId::Sidekiq,
        None,
        Some(TargetVersion::Sidekiq6),
        Lang::Ja,
    )
    .expect("the Japanese export");
    assert!(ja
        .built
        .text
        .contains("# Sidekiq 6.2.2 – 7.x（読んだソース：6.4.1）の計算式と書き方に従います。"));
    assert!(ja.defaults.summary.contains("rand(10)·(c+1)"));
}

//! The `kubernetes` target: a Job for an asynchronous sheet, a CronJob for a batch sheet; the
//! controller's own pod-failure delays as the actual schedule; YAML read back by a YAML parser.

use crate::target_sql::{example, retry_sheet};
use modality_advisor::domain::queues::kubernetes::{self, pod_backoff_s};
use modality_advisor::domain::queues::{report, sample, MappingRow, TargetError, TargetId};
use modality_advisor::domain::sheet::FieldId;
use modality_advisor::domain::sheet::{BatchSpec, JobSheet, Keep, MissedRun, Overlap, Retention};
use modality_advisor::domain::sim::SimRng;
use modality_advisor::domain::{Lang, Outcome};
use proptest::prelude::*;
use std::io::Write as _;
use std::process::{Command, Stdio};

const K8S: TargetId = TargetId::Kubernetes;

pub fn table(rows: &[MappingRow]) -> String {
    rows.iter()
        .map(|r| {
            format!(
                "{} | {} | {} | {} | {}",
                r.field.id(),
                r.sheet,
                r.key,
                r.value,
                r.note
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A nightly batch: `0 3 * * *`, no overlap, a missed run once, 1 h per run, done kept 30 days,
/// dead until handled.
fn batch(schedule: &str) -> JobSheet {
    let mut s = example();
    s.decision.outcome = Outcome::Batch;
    s.retry = None;
    s.batch = Some(BatchSpec {
        time_zone: "UTC".to_owned(),
        schedule: schedule.to_owned(),
        overlap: Overlap::Forbid,
        missed_run: MissedRun::RunOnce,
        run_timeout_ms: 3_600_000,
        partial_failure: "retry the failed rows in the next run".to_owned(),
    });
    s
}

/// `text` parsed by PyYAML (python3 -c 'yaml.safe_load'), back as JSON.
pub fn parse_yaml(text: &str) -> serde_json::Value {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 with PyYAML (scripts/install-tools.sh)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("yaml to python3");
    let out = child.wait_with_output().expect("python3 ends");
    assert!(
        out.status.success(),
        "not YAML:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn job_of_the_example() {
    let en = report(&example(), K8S, None, Lang::En).expect("en");
    insta::assert_snapshot!("k8s_mapping_en", table(&en.built.mapping));
    insta::assert_snapshot!("k8s_job_yaml", en.built.text);
    let ja = report(
        &modality_advisor::domain::sheet::example::example(Lang::Ja).expect("ja"),
        K8S,
        None,
        Lang::Ja,
    )
    .expect("ja");
    insta::assert_snapshot!("k8s_mapping_ja", table(&ja.built.mapping));
    let y = parse_yaml(&en.built.text);
    assert_eq!(y["kind"], "Job");
    // 5 attempts → backoffLimit 4 (retries).
    assert_eq!(y["spec"]["backoffLimit"], 4);
    // Delays 10+20+40+80 = 150 s, + 5 attempts × 30 s = 300 s.
    assert_eq!(y["spec"]["activeDeadlineSeconds"], 300);
    assert_eq!(y["spec"]["template"]["spec"]["activeDeadlineSeconds"], 30);
    // done 30 d, dead until handled: no TTL (it would delete failed Jobs too).
    assert!(y["spec"].get("ttlSecondsAfterFinished").is_none());
    assert_eq!(y["metadata"]["generateName"], "send-reservation-mail-");
}

#[test]
fn cron_job_of_a_batch_sheet() {
    let rep = report(&batch("0 3 * * *"), K8S, None, Lang::En).expect("batch");
    insta::assert_snapshot!("k8s_cronjob_yaml", rep.built.text);
    insta::assert_snapshot!("k8s_cronjob_mapping_en", table(&rep.built.mapping));
    let y = parse_yaml(&rep.built.text);
    assert_eq!(y["kind"], "CronJob");
    assert_eq!(y["spec"]["schedule"], "0 3 * * *");
    // The sheet's zone (UTC by default) is written, not left to the controller's zone.
    assert_eq!(y["spec"]["timeZone"], "UTC");
    assert_eq!(y["spec"]["concurrencyPolicy"], "Forbid");
    assert!(y["spec"].get("startingDeadlineSeconds").is_none());
    // Once a day, done kept 30 days → 30 Jobs; dead "until handled" takes the same count.
    assert_eq!(y["spec"]["successfulJobsHistoryLimit"], 30);
    assert_eq!(y["spec"]["failedJobsHistoryLimit"], 30);
    let job = &y["spec"]["jobTemplate"]["spec"];
    assert_eq!(job["backoffLimit"], 0);
    assert_eq!(job["activeDeadlineSeconds"], 3600);
    assert_eq!(rep.built.actual.attempts, Some(1));

    // Every 15 minutes on weekdays, skip missed runs, replace: 96 runs a day × 5/7 of the
    // days × 30 days = 2057.1… → 2058; dead kept 7 days → 96 × 5/7 × 7 = 480.
    let mut s = batch("*/15 * * * mon-fri");
    if let Some(b) = s.batch.as_mut() {
        b.overlap = Overlap::Replace;
        b.missed_run = MissedRun::Skip;
    }
    if let Some(f) = s.failure.as_mut() {
        f.retention = Retention {
            done: Keep::Days(30),
            dead: Keep::Days(7),
        };
    }
    let y = parse_yaml(&report(&s, K8S, None, Lang::En).expect("r").built.text);
    assert_eq!(y["spec"]["concurrencyPolicy"], "Replace");
    assert_eq!(y["spec"]["startingDeadlineSeconds"], 60);
    assert_eq!(y["spec"]["successfulJobsHistoryLimit"], 2058);
    assert_eq!(y["spec"]["failedJobsHistoryLimit"], 480);
}

#[test]
fn cron_job_carries_the_time_zone_and_refuses_an_unknown_one() {
    let mut s = batch("30 2 * * *");
    s.batch.as_mut().expect("batch").time_zone = "America/New_York".to_owned();
    let rep = report(&s, K8S, None, Lang::Ja).expect("batch");
    let y = parse_yaml(&rep.built.text);
    assert_eq!(y["spec"]["timeZone"], "America/New_York");
    let row = rep
        .built
        .mapping
        .iter()
        .find(|r| r.field == FieldId::TimeZone)
        .expect("a time zone row");
    assert_eq!(
        (row.key.as_str(), row.value.as_str()),
        ("spec.timeZone", "America/New_York")
    );
    assert!(!rep
        .built
        .gaps
        .iter()
        .any(|g| g.what.contains("タイムゾーン")));

    s.batch.as_mut().expect("batch").time_zone = "Mars/Olympus".to_owned();
    match report(&s, K8S, None, Lang::En) {
        Err(TargetError::OutOfRange { field, value, .. }) => {
            assert_eq!((field, value.as_str()), (FieldId::TimeZone, "Mars/Olympus"));
        }
        other => panic!("expected OutOfRange on the time zone, got {other:?}"),
    }
}

#[test]
fn actual_schedule_is_the_controllers() {
    // delay(n) = min(600, 10·2^(n−1)) s after the n-th failure: 10, 20, 40, 80, 160, 320,
    // 600 (640 capped), 600.
    let got: Vec<u64> = (1..=8).map(pod_backoff_s).collect();
    assert_eq!(got, [10, 20, 40, 80, 160, 320, 600, 600]);
    // The example's 5 attempts → 4 pods fail before the last: 10+20+40+80 = 150 s, whatever
    // the sheet's wait (exponential from 10 s with full jitter) says.
    let rep = report(&example(), K8S, None, Lang::En).expect("r");
    let a = &rep.built.actual;
    assert_eq!(a.attempts, Some(5));
    assert_eq!(
        (a.window_s.min, a.window_s.expected, a.window_s.max),
        (Some(150.0), Some(150.0), Some(150.0))
    );
    // 9 attempts: 10+20+40+80+160+320+600+600 = 1830 s.
    let mut s = example();
    s.retry.as_mut().expect("retry").max_attempts = 9;
    let rep = report(&s, K8S, None, Lang::En).expect("r");
    assert_eq!(rep.built.actual.window_s.max, Some(1830.0));
    // 1 attempt: backoffLimit 0, no delays.
    s.retry.as_mut().expect("retry").max_attempts = 1;
    let rep = report(&s, K8S, None, Lang::En).expect("r");
    assert!(rep.built.actual.delays.is_empty());
    assert!(rep.built.text.contains("backoffLimit: 0"));
}

#[test]
fn defaults_window_from_the_formula() {
    // backoffLimit 6 → 7 pods; 10+20+40+80+160+320 = 630 s, no jitter.
    let d = kubernetes::defaults(Lang::En);
    assert_eq!(d.attempts, Some(7));
    let w = d.schedule.window_s;
    assert_eq!(
        (w.min, w.expected, w.max),
        (Some(630.0), Some(630.0), Some(630.0))
    );
    assert!(!kubernetes::defaults(Lang::Ja).summary.is_empty());
}

#[test]
fn schedules_kubernetes_cannot_read_are_out_of_range() {
    for bad in ["@reboot", "every night", "0 25 * * *"] {
        let e = report(&batch(bad), K8S, None, Lang::En).expect_err(bad);
        let TargetError::OutOfRange { field, value, .. } = &e else {
            panic!("{bad}: {e:?}")
        };
        assert_eq!((*field, value.as_str()), (FieldId::Schedule, bad));
        assert!(e.message(Lang::En).contains("schedule") && e.message(Lang::En).contains("cron"));
        assert!(e.message(Lang::Ja).contains("schedule") && e.message(Lang::Ja).contains("cron"));
    }
    let mut s = example();
    s.retry = None;
    s.decision.outcome = Outcome::Sync;
    assert_eq!(
        report(&s, K8S, None, Lang::En).expect_err("sync"),
        TargetError::NotApplicable {
            target: K8S,
            outcome: "sync"
        }
    );
}

#[test]
fn hostile_text_is_still_yaml() {
    for text in crate::sheet_hostile::HOSTILE {
        let mut s = example();
        s.process.process_name = format!("{text}\n# not a comment: x\u{202e}`${{x}}`#{{y}}");
        s.process.code_name = (*text).to_owned();
        let r = s.retry.as_mut().expect("retry");
        r.idempotency_key = format!("{text}\"'");
        r.non_retryable_errors = vec![format!("*/ {text}\n---\n")];
        if let Some(f) = s.failure.as_mut() {
            f.dead_letter = format!("</script>{text}");
        }
        let rep = report(&s, K8S, None, Lang::En).expect("exports");
        let y = parse_yaml(&rep.built.text);
        let ann = &y["metadata"]["annotations"];
        assert_eq!(
            ann["modality-advisor/process-name"],
            s.process.process_name.as_str()
        );
        assert_eq!(
            ann["modality-advisor/idempotency-key"],
            s.retry
                .as_ref()
                .map(|r| r.idempotency_key.as_str())
                .unwrap_or_default()
        );
        let mut b = batch("0 3 * * *");
        b.process = s.process.clone();
        if let Some(bs) = b.batch.as_mut() {
            bs.partial_failure = (*text).to_owned();
        }
        parse_yaml(&report(&b, K8S, None, Lang::En).expect("batch").built.text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_delays_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in 0u64..1000) {
        let rep = report(&sheet, K8S, None, Lang::En).expect("every retry sheet exports");
        let a = &rep.built.actual;
        for d in &a.delays {
            prop_assert!(d.min_s <= d.expected_s && d.expected_s <= d.max_s);
        }
        let mut rng = SimRng::new(seed);
        let mut u = || rng.unit();
        for _ in 0..20 {
            let run = sample(&sheet, K8S, &mut u).expect("sample");
            prop_assert_eq!(run.len(), a.delays.len());
            for (w, d) in run.iter().zip(&a.delays) {
                prop_assert!(*w >= d.min_s && *w <= d.max_s);
            }
            let total: f64 = run.iter().sum();
            prop_assert!(total >= a.window_s.min.unwrap_or(0.0) - 1e-9);
            prop_assert!(total <= a.window_s.max.unwrap_or(f64::MAX) + 1e-9);
        }
    }
}

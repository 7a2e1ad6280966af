//! The `cloud-tasks` target: queue.yaml for `gcloud app deploy`, Cloud Tasks' doubling-then-
//! linear delays as the actual schedule, the AND stop rule (no age limit written), no jitter,
//! no dead-letter queue.

use crate::target_kubernetes::{parse_yaml, table};
use crate::target_sql::{example, retry_sheet};
use modality_advisor::domain::queues::cloud_tasks::{self, delay_s, RetryParams};
use modality_advisor::domain::queues::{report, sample, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, BackoffPolicy, FieldId, Jitter};
use modality_advisor::domain::sim::SimRng;
use modality_advisor::domain::{Lang, Outcome};
use proptest::prelude::*;

const CT: TargetId = TargetId::CloudTasks;

#[test]
fn queue_yaml_of_the_example() {
    let en = report(&example(), CT, None, Lang::En).expect("en");
    insta::assert_snapshot!("cloud_tasks_mapping_en", table(&en.built.mapping));
    insta::assert_snapshot!("cloud_tasks_yaml", en.built.text);
    let ja = report(
        &modality_advisor::domain::sheet::example::example(Lang::Ja).expect("ja"),
        CT,
        None,
        Lang::Ja,
    )
    .expect("ja");
    insta::assert_snapshot!("cloud_tasks_mapping_ja", table(&ja.built.mapping));
    let y = parse_yaml(&en.built.text);
    let q = &y["queue"][0];
    assert_eq!(q["name"], "send-reservation-mail");
    let p = &q["retry_parameters"];
    // 5 attempts → 4 retries; 10 s doubling to 600 s: ⌈log2(600/10)⌉ = ⌈5.9⌉ = 6 doublings.
    assert_eq!(p["task_retry_limit"], 4);
    assert_eq!(p["min_backoff_seconds"], 10);
    assert_eq!(p["max_backoff_seconds"], 600);
    assert_eq!(p["max_doublings"], 6);
    assert!(p.get("task_age_limit").is_none());
    assert!(en.built.text.contains("gcloud app deploy queue.yaml"));
    assert!(en.built.text.contains("--max-attempts=5 "));
}

#[test]
fn actual_schedule_doubles_then_grows_linearly() {
    // queue.proto's example: 10 s, 300 s, 3 doublings → 10, 20, 40, 80 (k ≤ 4 = 3 + 1),
    // then 10·2³·(k − 3) = 160, 240, 320 → capped 300, 300.
    let p = RetryParams {
        max_attempts: 9,
        min_backoff_ms: 10_000,
        max_backoff_ms: 300_000,
        max_doublings: 3,
    };
    let got: Vec<f64> = (1..=8).map(|k| delay_s(&p, k)).collect();
    assert_eq!(got, [10.0, 20.0, 40.0, 80.0, 160.0, 240.0, 300.0, 300.0]);
    // The example: 4 retries of 10, 20, 40, 80 s = 150 s, the sheet's full jitter dropped.
    let rep = report(&example(), CT, None, Lang::En).expect("r");
    let a = &rep.built.actual;
    assert_eq!(
        (a.window_s.min, a.window_s.expected, a.window_s.max),
        (Some(150.0), Some(150.0), Some(150.0))
    );
    assert!(rep
        .built
        .gaps
        .iter()
        .any(|g| g.field == FieldId::WaitStrategy));
    // Fixed 0.2 s, 3 attempts: min = max = 0.2 s, no doublings → 0.2, 0.2.
    let mut s = example();
    let r = s.retry.as_mut().expect("retry");
    r.max_attempts = 3;
    r.backoff = BackoffPolicy {
        kind: BackoffKind::Fixed,
        base_ms: 200,
        cap_ms: 200,
        jitter: Jitter::None,
    };
    let rep = report(&s, CT, None, Lang::En).expect("r");
    let d: Vec<f64> = rep.built.actual.delays.iter().map(|d| d.max_s).collect();
    assert_eq!(d, [0.2, 0.2]);
    assert!(rep.built.text.contains("max_doublings: 0"));
}

#[test]
fn defaults_window_from_the_formula() {
    // 100 attempts → 99 retries; 0.1 s doubling: k = 1..16 give 0.1·2^(k−1) ≤ 3276.8 s, sum
    // 0.1·(2^16 − 1) = 6553.5 s; k = 17 gives 6553.6 → 3600 s, and so does every k after it
    // (linear growth is above the cap): 83 × 3600 = 298 800 s. Window 305 353.5 s.
    let d = cloud_tasks::defaults(Lang::En);
    assert_eq!(d.attempts, Some(100));
    let max = d.schedule.window_s.max.expect("bounded");
    assert!((max - 305_353.5).abs() < 1e-6, "{max}");
    assert_eq!(d.schedule.window_s.min, d.schedule.window_s.max);
    assert!(!cloud_tasks::defaults(Lang::Ja).summary.is_empty());
}

#[test]
fn values_cloud_tasks_cannot_hold_are_out_of_range() {
    let mut s = example();
    s.retry.as_mut().expect("retry").attempt_timeout_ms = 31 * 60_000;
    let e = report(&s, CT, None, Lang::En).expect_err("31 min");
    assert_eq!(
        e,
        TargetError::OutOfRange {
            target: CT,
            field: FieldId::Timeout,
            value: "31 min".to_owned(),
            allowed: "15 s to 30 min (the HTTP task's dispatch deadline)".to_owned(),
        }
    );
    assert!(e.message(Lang::En).contains("timeout") && e.message(Lang::En).contains("30 min"));
    assert!(e.message(Lang::Ja).contains("timeout") && e.message(Lang::Ja).contains("30 min"));
    // 40 attempts of a fixed 1 day: 39 days of retries, beyond a task's 31 days.
    let mut s = example();
    let r = s.retry.as_mut().expect("retry");
    r.max_attempts = 40;
    r.backoff = BackoffPolicy {
        kind: BackoffKind::Fixed,
        base_ms: 86_400_000,
        cap_ms: 86_400_000,
        jitter: Jitter::None,
    };
    let e = report(&s, CT, None, Lang::En).expect_err("39 d");
    let TargetError::OutOfRange { field, value, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!((*field, value.as_str()), (FieldId::RetryWindow, "39.0 d"));
    let mut s = example();
    s.retry = None;
    s.decision.outcome = Outcome::Batch;
    assert!(matches!(
        report(&s, CT, None, Lang::En),
        Err(TargetError::NotApplicable { .. })
    ));
}

#[test]
fn hostile_text_is_still_yaml() {
    for text in crate::sheet_hostile::HOSTILE {
        let mut s = example();
        s.process.process_name = format!("{text}\n- name: evil\u{202e}");
        s.process.code_name = format!("{text}\nrate: 1/d");
        let r = s.retry.as_mut().expect("retry");
        r.idempotency_key = format!("{text} ${{x}} #{{y}}");
        r.non_retryable_errors = vec![format!("*/ {text}\n...\n")];
        let rep = report(&s, CT, None, Lang::En).expect("exports");
        let y = parse_yaml(&rep.built.text);
        assert_eq!(y["queue"].as_array().map(Vec::len), Some(1), "{text}");
        assert_eq!(y["queue"][0]["rate"], "5/s");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_delays_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in 0u64..1000) {
        let Ok(rep) = report(&sheet, CT, None, Lang::En) else {
            return Ok(());
        };
        let a = &rep.built.actual;
        let mut rng = SimRng::new(seed);
        let mut u = || rng.unit();
        for _ in 0..20 {
            let run = sample(&sheet, CT, &mut u).expect("sample");
            prop_assert_eq!(run.len(), a.delays.len());
            for (w, d) in run.iter().zip(&a.delays) {
                prop_assert!(d.min_s <= d.expected_s && d.expected_s <= d.max_s);
                prop_assert!((*w - d.min_s).abs() <= 1e-6 * d.max_s.max(1.0), "{} vs {:?}", w, d);
            }
            let total: f64 = run.iter().sum();
            let max = a.window_s.max.unwrap_or(f64::MAX);
            prop_assert!((total - max).abs() <= 1e-6 * max.max(1.0));
        }
    }
}

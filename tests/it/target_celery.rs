//! The Celery export (`domain::queues::celery`): the mapping of the worked example, the
//! schedule Celery really runs (retries counted from 0, the cap before the jitter, the factor
//! a whole number of seconds), its defaults' window, sampled runs within the reported ranges,
//! and the sheets it refuses.

use crate::target_queue_support::{
    backoff, batch_sheet, example, mapping_text, report, retry_sheet, samples_lie_within, triples,
    with_retry,
};
use modality_advisor::domain::queues::{self, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, Jitter};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = report(&example(Lang::En), TargetId::Celery, Lang::En);
    insta::assert_snapshot!("celery_mapping_en", mapping_text(&en));
    let ja = report(&example(Lang::Ja), TargetId::Celery, Lang::Ja);
    insta::assert_snapshot!("celery_mapping_ja", mapping_text(&ja));
    for line in [
        "    max_retries=4,\n",
        "    retry_backoff=10,\n",
        "    retry_backoff_max=600,\n",
        "    retry_jitter=True,\n",
        "    time_limit=30,\n",
        "broker_transport_options={\"visibility_timeout\": 60},",
    ] {
        assert!(en.built.text.contains(line), "{line}");
    }
    // 5 attempts, 10 s doubling, full jitter randrange(c + 1): c = 10, 20, 40, 80;
    // each delay 0..c, E c/2; window 0 / 75 / 150 s.
    assert_eq!(
        triples(&en.built.actual),
        vec![
            (0.0, 5.0, 10.0),
            (0.0, 10.0, 20.0),
            (0.0, 20.0, 40.0),
            (0.0, 40.0, 80.0)
        ]
    );
    assert_eq!(en.built.actual.window_s.expected, Some(75.0));
}

#[test]
fn the_cap_applies_before_the_jitter_and_retries_count_from_zero() {
    // 5 attempts, 10 s doubling, cap 25 s, no jitter: r = 0..3 → 10, 20, min(25, 40), min(25, 80).
    let s = with_retry(|r| {
        r.backoff = backoff(BackoffKind::Exponential, 10_000, 25_000, Jitter::None);
    });
    let rep = report(&s, TargetId::Celery, Lang::En);
    assert_eq!(
        triples(&rep.built.actual),
        vec![
            (10.0, 10.0, 10.0),
            (20.0, 20.0, 20.0),
            (25.0, 25.0, 25.0),
            (25.0, 25.0, 25.0)
        ]
    );
    assert!(rep.built.text.contains("retry_jitter=False,"));
}

#[test]
fn waits_celery_cannot_hold_get_a_countdown_function() {
    // 2.5 s is not a whole number of seconds (Celery would truncate the factor to 2): the
    // sheet's own formula runs, 2.5, 5 s.
    let s = with_retry(|r| {
        r.max_attempts = 3;
        r.backoff = backoff(BackoffKind::Exponential, 2_500, 60_000, Jitter::None);
    });
    let rep = report(&s, TargetId::Celery, Lang::En);
    assert!(rep
        .built
        .text
        .contains("def sheet_countdown(retries, previous):"));
    assert!(rep.built.text.contains("countdown=wait,"));
    assert!(!rep.built.text.contains("retry_backoff="));
    assert_eq!(
        triples(&rep.built.actual),
        vec![(2.5, 2.5, 2.5), (5.0, 5.0, 5.0)]
    );
    assert!(rep
        .built
        .gaps
        .iter()
        .any(|g| g.instead == queues::Instead::Callback));
    // A fixed wait without jitter: default_retry_delay.
    let s = with_retry(|r| {
        r.max_attempts = 2;
        r.backoff = backoff(BackoffKind::Fixed, 1_500, 1_500, Jitter::None);
    });
    let rep = report(&s, TargetId::Celery, Lang::En);
    assert!(rep.built.text.contains("default_retry_delay=1.5,"));
    assert_eq!(triples(&rep.built.actual), vec![(1.5, 1.5, 1.5)]);
}

#[test]
fn exception_classes_go_into_the_tuples_and_texts_into_comments() {
    let s = with_retry(|r| {
        r.retryable_errors = vec![
            "TimeoutError".into(),
            "botocore.exceptions.ClientError".into(),
            "connection error".into(),
            "Net::ReadTimeout".into(),
            "class".into(),
        ];
        r.non_retryable_errors = vec!["ValueError".into()];
    });
    let text = report(&s, TargetId::Celery, Lang::En).built.text;
    assert!(text.contains("import botocore.exceptions\n"));
    assert!(text.contains("RETRYABLE = (TimeoutError, botocore.exceptions.ClientError)\n"));
    assert!(text.contains("NON_RETRYABLE = (ValueError,)\n"));
    assert!(text.contains("connection error, Net::ReadTimeout, class"));
}

#[test]
fn the_default_window_is_three_retries_of_180_s() {
    // max_retries 3 → 4 attempts; no retry_backoff → default_retry_delay 180 s: 3 × 180 = 540 s.
    let d = queues::defaults(TargetId::Celery, Lang::En);
    assert_eq!(d.attempts, Some(4));
    assert_eq!(d.schedule.window_s.min, Some(540.0));
    assert_eq!(d.schedule.window_s.max, Some(540.0));
}

#[test]
fn sheets_without_a_queued_job_are_refused() {
    let err = queues::report(&batch_sheet(), TargetId::Celery, None, Lang::En);
    assert_eq!(
        err.err(),
        Some(TargetError::NotApplicable {
            target: TargetId::Celery,
            outcome: "batch"
        })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_runs_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in any::<u64>()) {
        prop_assert_eq!(samples_lie_within(TargetId::Celery, &sheet, seed), Ok(()));
    }
}

#[test]
fn other_layers_multiply_the_calls() {
    // 5 attempts × 3 SDK tries = 15 calls of the work.
    let s = with_retry(|r| {
        r.layers = vec![modality_advisor::domain::sheet::RetryLayer {
            layer: modality_advisor::domain::sheet::LayerKind::Sdk,
            attempts: 3,
            what: "AWS SDK standard retry mode".into(),
        }];
    });
    for target in [
        TargetId::Celery,
        TargetId::Sqs,
        TargetId::Sidekiq,
        TargetId::Bullmq,
    ] {
        let rep = report(&s, target, Lang::En);
        let row = rep
            .built
            .mapping
            .iter()
            .find(|m| m.field == modality_advisor::domain::sheet::FieldId::RetryLayers);
        assert!(
            row.is_some_and(|m| m.sheet == "AWS SDK standard retry mode × 3"
                && m.note.contains("up to 15 calls")),
            "{target:?}: {row:?}"
        );
    }
}

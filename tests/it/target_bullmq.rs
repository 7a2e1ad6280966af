//! The BullMQ export (`domain::queues::bullmq`): the mapping of the worked example, the
//! schedule BullMQ really runs (attempts counted with the first run, k = 1 at the first retry,
//! downward jitter in whole ms), its defaults, sampled runs within the reported ranges, and
//! the sheets it refuses.

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
    let en = report(&example(Lang::En), TargetId::Bullmq, Lang::En);
    insta::assert_snapshot!("bullmq_mapping_en", mapping_text(&en));
    let ja = report(&example(Lang::Ja), TargetId::Bullmq, Lang::Ja);
    insta::assert_snapshot!("bullmq_mapping_ja", mapping_text(&ja));
    for line in [
        "    attempts: 5,\n",
        "    backoff: { type: \"exponential\", delay: 10000, jitter: 1 },\n",
        "    removeOnComplete: { age: 2592000 },\n",
        "    removeOnFail: false,\n",
        "    lockDuration: 60000,\n",
        "{ jobId: key }",
    ] {
        assert!(en.built.text.contains(line), "{line}");
    }
    // round(2^(k−1) · 10 000) ms for k = 1..4: 10, 20, 40, 80 s; jitter 1 draws
    // floor(U · m) ms: 0 .. m − 1 ms, E ≈ m/2 − 0.5 ms.
    assert_eq!(
        triples(&en.built.actual),
        vec![
            (0.0, 4.9995, 9.999),
            (0.0, 9.9995, 19.999),
            (0.0, 19.9995, 39.999),
            (0.0, 39.9995, 79.999)
        ]
    );
}

#[test]
fn a_cap_bullmq_would_pass_needs_a_strategy() {
    // 4 attempts, 1 s doubling, cap 3 s: BullMQ's exponential would wait 1, 2, 4 s; the
    // strategy keeps the sheet's 1, 2, 3 s.
    let s = with_retry(|r| {
        r.max_attempts = 4;
        r.backoff = backoff(BackoffKind::Exponential, 1_000, 3_000, Jitter::None);
    });
    let rep = report(&s, TargetId::Bullmq, Lang::En);
    assert!(rep.built.text.contains("backoffStrategy: sheetBackoff"));
    assert!(rep.built.text.contains("const n = attemptsMade - 1;"));
    assert_eq!(
        triples(&rep.built.actual),
        vec![(1.0, 1.0, 1.0), (2.0, 2.0, 2.0), (3.0, 3.0, 3.0)]
    );
    // Fixed 2 s with equal jitter: BullMQ's fixed with jitter 0.5, floor(U·1000 + 1000) ms.
    let s = with_retry(|r| {
        r.max_attempts = 2;
        r.backoff = backoff(BackoffKind::Fixed, 2_000, 2_000, Jitter::Equal);
    });
    let rep = report(&s, TargetId::Bullmq, Lang::En);
    assert!(rep
        .built
        .text
        .contains("backoff: { type: \"fixed\", delay: 2000, jitter: 0.5 },"));
    assert_eq!(triples(&rep.built.actual), vec![(1.0, 1.4995, 1.999)]);
}

#[test]
fn by_default_bullmq_retries_nothing() {
    let d = queues::defaults(TargetId::Bullmq, Lang::En);
    assert_eq!(d.attempts, Some(1));
    assert!(d.schedule.delays.is_empty());
    assert_eq!(d.schedule.window_s.max, Some(0.0));
}

#[test]
fn sheets_without_a_queued_job_are_refused() {
    let err = queues::report(&batch_sheet(), TargetId::Bullmq, None, Lang::En);
    assert_eq!(
        err.err(),
        Some(TargetError::NotApplicable {
            target: TargetId::Bullmq,
            outcome: "batch"
        })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_runs_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in any::<u64>()) {
        prop_assert_eq!(samples_lie_within(TargetId::Bullmq, &sheet, seed), Ok(()));
    }
}

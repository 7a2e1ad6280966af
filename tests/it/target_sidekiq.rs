//! The Sidekiq export (`domain::queues::sidekiq`): the mapping of the worked example, the
//! schedule Sidekiq really runs (its own jitter added even to custom delays), its defaults'
//! window, sampled runs within the reported ranges, and the sheets it refuses.

use crate::target_queue_support::{
    backoff, batch_sheet, example, mapping_text, report, retry_sheet, samples_lie_within, triples,
    with_retry,
};
use modality_advisor::domain::queues::{self, Format, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, Jitter, Polynomial};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = report(&example(Lang::En), TargetId::Sidekiq, Lang::En);
    insta::assert_snapshot!("sidekiq_mapping_en", mapping_text(&en));
    let ja = report(&example(Lang::Ja), TargetId::Sidekiq, Lang::Ja);
    insta::assert_snapshot!("sidekiq_mapping_ja", mapping_text(&ja));
    assert!(en.built.text.contains("sidekiq_options retry: 4\n"));
    assert!(en.built.text.contains("[wait.round, 1].max"));
}

#[test]
fn custom_delays_still_get_sidekiqs_jitter() {
    // 3 attempts, fixed 60 s: retry 2; c = 0: 60 + rand(10) → 60..69, E 64.5;
    // c = 1: 60 + rand(20) → 60..79, E 69.5.
    let s = with_retry(|r| {
        r.max_attempts = 3;
        r.backoff = backoff(BackoffKind::Fixed, 60_000, 60_000, Jitter::None);
    });
    let rep = report(&s, TargetId::Sidekiq, Lang::En);
    assert!(rep.built.text.contains("retry: 2\n"));
    assert_eq!(
        triples(&rep.built.actual),
        vec![(60.0, 64.5, 69.0), (60.0, 69.5, 79.0)]
    );
    assert_eq!(rep.built.actual.window_s.max, Some(148.0));
}

#[test]
fn the_sheets_c4_plus_15_is_sidekiqs_own() {
    // Sidekiq's own c⁴ + 15 with c from 0: 15, 16, 31 (+ rand(10), rand(20), rand(30)).
    let s = with_retry(|r| {
        r.max_attempts = 4;
        r.backoff = backoff(
            BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 0,
            }),
            15_000,
            86_400_000,
            Jitter::None,
        );
    });
    let rep = report(&s, TargetId::Sidekiq, Lang::En);
    assert!(rep.built.text.contains(":default\n"));
    assert!(!rep.built.text.contains("BASE_S"));
    assert_eq!(
        triples(&rep.built.actual),
        vec![(15.0, 19.5, 24.0), (16.0, 25.5, 35.0), (31.0, 45.5, 60.0)]
    );
}

#[test]
fn the_default_window_is_25_retries_of_c4_plus_15_plus_jitter() {
    // Σ_{c=0}^{24} c⁴ = 24·25·49·1799 / 30 = 1 763 020; + 25 × 15 = 1 763 395 s (min).
    // Jitter: Σ_{c=0}^{24} (10(c+1) − 1) = 10 · 325 − 25 = 3 225 s at most, 1 612.5 expected.
    let d = queues::defaults(TargetId::Sidekiq, Lang::En);
    assert_eq!(d.attempts, Some(26));
    assert_eq!(d.schedule.window_s.min, Some(1_763_395.0));
    assert_eq!(d.schedule.window_s.expected, Some(1_765_007.5));
    assert_eq!(d.schedule.window_s.max, Some(1_766_620.0));
    // c = 24: 24⁴ + 15 = 331 791 s, the last delay (3.84 d).
    assert_eq!(d.schedule.delays[24].min_s, 331_791.0);
    assert!(d.summary.contains("25 retries"));
    assert!(!queues::defaults(TargetId::Sidekiq, Lang::Ja)
        .summary
        .is_empty());
}

#[test]
fn sheets_without_a_queued_job_are_refused() {
    let err = queues::report(&batch_sheet(), TargetId::Sidekiq, None, Lang::En);
    assert_eq!(
        err.err(),
        Some(TargetError::NotApplicable {
            target: TargetId::Sidekiq,
            outcome: "batch"
        })
    );
    let err = queues::report(
        &example(Lang::En),
        TargetId::Sidekiq,
        Some(Format::Python),
        Lang::En,
    );
    assert!(matches!(err, Err(TargetError::UnknownFormat { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_runs_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in any::<u64>()) {
        prop_assert_eq!(samples_lie_within(TargetId::Sidekiq, &sheet, seed), Ok(()));
    }
}

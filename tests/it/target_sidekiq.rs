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

#[test]
fn a_wait_that_rounds_to_zero_counts_as_one_second() {
    // 2 attempts, exponential 10 s, full jitter: the block returns [rand·10 .round, 1].max,
    // 5.05 s on average (a wait under 0.5 s becomes 1 s), plus Sidekiq's rand(10), 4.5 s:
    // 9.55 s, not 9.5 (issue 27 item 3).
    let s = with_retry(|r| {
        r.max_attempts = 2;
        r.backoff = backoff(BackoffKind::Exponential, 10_000, 60_000, Jitter::Full);
    });
    let rep = report(&s, TargetId::Sidekiq, Lang::En);
    let d = &rep.built.actual.delays[0];
    assert!((d.expected_s - 9.55).abs() < 1e-9, "{d:?}");
    assert_eq!((d.min_s, d.max_s), (1.0, 19.0));
}

#[test]
fn the_expected_waits_are_the_mean_of_sidekiqs_own_draws() {
    // The reported expectation against the mean of 40 000 sampled runs (`sample` draws as
    // job_retry.rb does, rounding included), for full and equal jitter at sizes where the
    // rounding matters (1 s) and where it does not (40 s). Seeded: the same draws every run;
    // the tolerance is 5 standard errors of the mean.
    for (base_ms, jitter) in [
        (1_000, Jitter::Full),
        (1_000, Jitter::Equal),
        (3_000, Jitter::Full),
        (40_000, Jitter::Equal),
    ] {
        let s = with_retry(|r| {
            r.max_attempts = 4;
            r.backoff = backoff(BackoffKind::Exponential, base_ms, 600_000, jitter);
        });
        let rep = report(&s, TargetId::Sidekiq, Lang::En);
        let mut u = crate::target_queue_support::uniform(7);
        let runs = 40_000;
        let mut sums = vec![0.0; rep.built.actual.delays.len()];
        for _ in 0..runs {
            let got = queues::sample(&s, TargetId::Sidekiq, &mut u).expect("sampled");
            for (sum, g) in sums.iter_mut().zip(got) {
                *sum += g;
            }
        }
        for (i, (sum, d)) in sums.iter().zip(&rep.built.actual.delays).enumerate() {
            let mean = sum / f64::from(runs);
            let sd = (d.max_s - d.min_s) / 2.0;
            let tolerance = 5.0 * sd / f64::from(runs).sqrt();
            assert!(
                (mean - d.expected_s).abs() <= tolerance,
                "{base_ms} ms {jitter:?} retry {}: sampled mean {mean}, reported {}",
                i + 1,
                d.expected_s
            );
        }
    }
}

/// Sidekiq's and Active Job's class names end in `Job` once, as Rails' job generator writes
/// them: an empty "Name in code" read `class JobJob`, and `send_mail_job` `SendMailJobJob`.
#[test]
fn the_class_ends_in_job_once_as_rails_names_it() {
    for (code, class) in [
        ("", "Job"),
        ("send_mail_job", "SendMailJob"),
        ("send_mail", "SendMailJob"),
    ] {
        let mut s = example(Lang::En);
        s.process.code_name = code.to_owned();
        for target in [TargetId::Sidekiq, TargetId::ActiveJob] {
            let text = report(&s, target, Lang::En).built.text;
            assert!(
                text.contains(&format!("\nclass {class}\n"))
                    || text.contains(&format!("\nclass {class} < ApplicationJob\n")),
                "{target:?} for {code:?}: {text}"
            );
            assert!(!text.contains("JobJob"), "{target:?} for {code:?}");
        }
    }
}

//! The Active Job / Solid Queue export (`brief/QUEUES.md` §9): the worked example's mapping,
//! the schedule the exported `wait:` runs (executions = 1 at the first failure), `retry_on`'s
//! default window, the window property, bad input and hostile text.

use crate::target_kit::{
    assert_out_of_range, backoff, built, check_hostile, check_windows, example, retry_sheet,
    sync_sheet, table, triples, with_retry,
};
use modality_advisor::domain::queues::{active_job, report, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, FieldId, Jitter, Polynomial, MAX_CAP_MS};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

const T: TargetId = TargetId::ActiveJob;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = built(&example(Lang::En), T, None, Lang::En);
    insta::assert_snapshot!("active_job_mapping_en", table(&en));
    insta::assert_snapshot!("active_job_text_en", en.text);
    let ja = built(&example(Lang::Ja), T, None, Lang::Ja);
    insta::assert_snapshot!("active_job_mapping_ja", table(&ja));
}

#[test]
fn the_example_exports_what_active_job_reads() {
    let b = built(&example(Lang::En), T, None, Lang::En);
    assert!(
        b.text.starts_with("# frozen_string_literal: true\n"),
        "{}",
        b.text
    );
    for needle in [
        "ATTEMPTS = 5",
        "WAIT = ->(executions) { Kernel.rand * [10.0 * 2**(executions - 1), 600.0].min }",
        "retry_on StandardError, wait: WAIT, attempts: ATTEMPTS",
        "def perform(reservation_id)",
        "config.solid_queue.clear_finished_jobs_after = 30.days",
    ] {
        assert!(b.text.contains(needle), "{needle}\n{}", b.text);
    }
    // Permanent errors that are classes are re-raised at once, after retry_on (later wins).
    let s = with_retry(|r| {
        r.retryable_errors = vec!["Net::ReadTimeout".into()];
        r.non_retryable_errors = vec!["Mail::BadAddress".into(), "not a class".into()];
    });
    let b = built(&s, T, None, Lang::En);
    let retry = b
        .text
        .find("retry_on Net::ReadTimeout, wait: WAIT")
        .expect("retry_on");
    let discard = b
        .text
        .find("discard_on(Mail::BadAddress) { |_job, error| raise error }")
        .expect("discard_on");
    assert!(retry < discard, "{}", b.text);
}

#[test]
fn the_actual_schedule_by_hand() {
    // The example: executions = 1 at the first failure → 10 · 2^(1−1) = 10 s, then 20, 40,
    // 80 s; full jitter Kernel.rand · t: min 0, mean t/2, max t.
    let b = built(&example(Lang::En), T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![
            (0.0, 5.0, 10.0),
            (0.0, 10.0, 20.0),
            (0.0, 20.0, 40.0),
            (0.0, 40.0, 80.0)
        ]
    );
    // Active Job's own :polynomially_longer is n⁴ + 2 s, n = executions (1 first): a sheet of
    // exponent 4 from n = 1 plus 2 s exports as that symbol with jitter 0.0, 5 attempts:
    // 1 + 2 = 3, 16 + 2 = 18, 81 + 2 = 83, 256 + 2 = 258 s.
    let s = with_retry(|r| {
        r.backoff = backoff(
            BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 1,
            }),
            2_000,
            MAX_CAP_MS,
            Jitter::None,
        );
    });
    let b = built(&s, T, None, Lang::En);
    assert!(
        b.text.contains("wait: :polynomially_longer, jitter: 0.0"),
        "{}",
        b.text
    );
    assert_eq!(
        triples(&b.actual),
        vec![
            (3.0, 3.0, 3.0),
            (18.0, 18.0, 18.0),
            (83.0, 83.0, 83.0),
            (258.0, 258.0, 258.0)
        ]
    );
    // A fixed wait without jitter is a Duration with jitter: 0.0: 1.5 s each time.
    let s = with_retry(|r| {
        r.max_attempts = 2;
        r.backoff = backoff(BackoffKind::Fixed, 1_500, 1_500, Jitter::None);
    });
    let b = built(&s, T, None, Lang::En);
    assert!(
        b.text.contains("wait: 1.5.seconds, jitter: 0.0"),
        "{}",
        b.text
    );
    assert_eq!(triples(&b.actual), vec![(1.5, 1.5, 1.5)]);
}

#[test]
fn defaults_window_from_the_formula() {
    // retry_on: 5 attempts, 4 waits of 3 s + Kernel.rand · 3 · 0.15 (Rails ≥ 6.1 defaults):
    // each in [3, 3.45], mean 3.225; window 12 / 12.9 / 13.8 s.
    let d = active_job::defaults(Lang::En);
    assert_eq!(d.attempts, Some(5));
    let w = d.schedule.window_s;
    let near = |x: Option<f64>, want: f64| (x.unwrap_or(0.0) - want).abs() < 1e-9;
    assert!(
        near(w.min, 12.0) && near(w.expected, 12.9) && near(w.max, 13.8),
        "{w:?}"
    );
}

#[test]
fn bad_input_names_the_field_and_range() {
    let s = with_retry(|r| r.max_attempts = 0);
    let err = report(&s, T, None, Lang::En).expect_err("0 attempts");
    assert_out_of_range(err, T, FieldId::MaxAttempts);
    assert!(matches!(
        report(&sync_sheet(), T, None, Lang::En),
        Err(TargetError::NotApplicable { .. })
    ));
}

#[test]
fn hostile_text_stays_text() {
    check_hostile(T, None, "#");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn samples_lie_within_the_reported_window(sheet in retry_sheet(), seed in any::<u64>()) {
        check_windows(T, None, &sheet, seed);
    }
}

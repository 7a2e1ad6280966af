//! The Temporal export (`brief/QUEUES.md` §10), Go and TypeScript: the worked example's
//! mapping, the schedule the exported RetryPolicy runs (n = 1 at the first failure, no
//! jitter), Temporal's unbounded default, the window property, bad input and hostile text.

use crate::target_kit::{
    assert_out_of_range, backoff, built, check_hostile, check_windows, example, retry_sheet,
    sync_sheet, table, triples, with_retry,
};
use modality_advisor::domain::queues::{report, temporal, Format, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, FieldId, Jitter, Polynomial, MAX_CAP_MS};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

const T: TargetId = TargetId::Temporal;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = built(&example(Lang::En), T, Some(Format::Go), Lang::En);
    insta::assert_snapshot!("temporal_mapping_en", table(&en));
    insta::assert_snapshot!("temporal_text_go_en", en.text);
    let ts = built(&example(Lang::En), T, Some(Format::TypeScript), Lang::En);
    insta::assert_snapshot!("temporal_text_ts_en", ts.text);
    let ja = built(&example(Lang::Ja), T, Some(Format::TypeScript), Lang::Ja);
    insta::assert_snapshot!("temporal_mapping_ja", table(&ja));
}

#[test]
fn the_example_exports_what_temporal_reads() {
    let go = built(&example(Lang::En), T, Some(Format::Go), Lang::En).text;
    for needle in [
        "StartToCloseTimeout: 30 * time.Second,",
        "HeartbeatTimeout:    1 * time.Minute,",
        "InitialInterval:        10 * time.Second,",
        "BackoffCoefficient:     2.0,",
        "MaximumInterval:        10 * time.Minute,",
        "MaximumAttempts:        5,",
        // The sheet describes its permanent errors in words: they are a comment, and the
        // list Temporal compares with error types stays empty (issue 27).
        "NonRetryableErrorTypes: []string{},",
        "//   - malformed address\n//   - reservation already cancelled\nfunc ",
    ] {
        assert!(go.contains(needle), "{needle}\n{go}");
    }
    let ts = built(&example(Lang::En), T, Some(Format::TypeScript), Lang::En).text;
    for needle in [
        "startToCloseTimeout: '30s',",
        "heartbeatTimeout: '1m',",
        "initialInterval: '10s',",
        "backoffCoefficient: 2.0,",
        "maximumInterval: '10m',",
        "maximumAttempts: 5,",
    ] {
        assert!(ts.contains(needle), "{needle}\n{ts}");
    }
}

#[test]
fn the_actual_schedule_by_hand() {
    // The example: InitialInterval 10 s · 2^(n−1), n = 1 at the first failure: 10, 20, 40,
    // 80 s, capped at 600 s (not reached); no jitter, so min = expected = max; window 150 s.
    let b = built(&example(Lang::En), T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![
            (10.0, 10.0, 10.0),
            (20.0, 20.0, 20.0),
            (40.0, 40.0, 40.0),
            (80.0, 80.0, 80.0)
        ]
    );
    assert_eq!(b.actual.window_s.max, Some(150.0));
    // Fixed 10 s: coefficient 1.0, MaximumInterval 10 s: 10 s each time.
    let s = with_retry(|r| {
        r.max_attempts = 3;
        r.backoff = backoff(BackoffKind::Fixed, 10_000, 60_000, Jitter::Full);
    });
    let b = built(&s, T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![(10.0, 10.0, 10.0), (10.0, 10.0, 10.0)]
    );
    // Polynomial n⁴ + 2 s from n = 1, 5 attempts: first 3 s, last 4⁴ + 2 = 258 s; the
    // coefficient through both: (258 / 3)^(1/3) = 86^(1/3) = 4.414 → 4.41. Waits 3, 13.23,
    // 58.3443, 257.298363 s.
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
    let p = temporal::policy(s.retry.as_ref().expect("retry"));
    assert_eq!((p.initial_ms, p.coefficient), (3_000, 4.41));
    let b = built(&s, T, None, Lang::En);
    let mins: Vec<f64> = b.actual.delays.iter().map(|d| d.min_s).collect();
    crate::target_kit::assert_close(&mins, &[3.0, 13.23, 58.3443, 257.298_363], "polynomial fit");
}

#[test]
fn defaults_window_from_the_formula() {
    // Unlimited attempts: 1 s · 2^(n−1) up to 100 s: 1, 2, 4, 8, 16, 32, 64, then 100 s for
    // ever; the window is unbounded.
    let d = temporal::defaults(Lang::En);
    assert_eq!(d.attempts, None);
    assert_eq!(d.schedule.window_s.max, None);
    let firsts: Vec<f64> = d.schedule.delays.iter().take(9).map(|d| d.max_s).collect();
    assert_eq!(
        firsts,
        vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 100.0, 100.0]
    );
}

#[test]
fn bad_input_names_the_field_and_range() {
    // Temporal reads MaximumAttempts 0 as unlimited.
    let s = with_retry(|r| r.max_attempts = 0);
    for f in [Format::Go, Format::TypeScript] {
        let err = report(&s, T, Some(f), Lang::En).expect_err("0 attempts");
        assert_out_of_range(err, T, FieldId::MaxAttempts);
    }
    assert!(matches!(
        report(&sync_sheet(), T, None, Lang::En),
        Err(TargetError::NotApplicable { .. })
    ));
}

#[test]
fn hostile_text_stays_text() {
    check_hostile(T, Some(Format::Go), "//");
    check_hostile(T, Some(Format::TypeScript), "//");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn samples_lie_within_the_reported_window(sheet in retry_sheet(), seed in any::<u64>()) {
        check_windows(T, Some(Format::Go), &sheet, seed);
    }
}

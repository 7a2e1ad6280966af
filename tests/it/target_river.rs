//! The River export (`brief/QUEUES.md` §7): the worked example's mapping, the schedule the
//! exported `NextRetry` runs (n = len(job.Errors), 0 at the first failure), River's default
//! window from `n⁴` s ± 10 %, the window property, bad input and hostile text.

use crate::target_kit::{
    assert_out_of_range, backoff, built, check_hostile, check_windows, example, retry_sheet,
    sync_sheet, table, triples, with_retry,
};
use modality_advisor::domain::queues::{report, river, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, FieldId, Jitter, Polynomial};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

const T: TargetId = TargetId::River;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = built(&example(Lang::En), T, None, Lang::En);
    insta::assert_snapshot!("river_mapping_en", table(&en));
    insta::assert_snapshot!("river_text_en", en.text);
    let ja = built(&example(Lang::Ja), T, None, Lang::Ja);
    insta::assert_snapshot!("river_mapping_ja", table(&ja));
}

#[test]
fn the_example_exports_what_river_reads() {
    let b = built(&example(Lang::En), T, None, Lang::En);
    for needle in [
        "ReservationId string `json:\"reservation_id\" river:\"unique\"`",
        "MaxAttempts: 5,",
        "UniqueOpts:  river.UniqueOpts{ByArgs: true},",
        "n := len(job.Errors)",
        "t := math.Min(capMs, baseMs*math.Pow(2, float64(n)))",
        "ms := rand.Float64() * t",
        "return 30 * time.Second",
        "JobTimeout:                  30 * time.Second,",
        "RescueStuckJobsAfter:        1 * time.Minute,",
        "DiscardedJobRetentionPeriod: -1,",
    ] {
        assert!(b.text.contains(needle), "{needle}\n{}", b.text);
    }
}

#[test]
fn the_actual_schedule_by_hand() {
    // The example: n = len(job.Errors) = 0 at the first failure, so t = 10 · 2⁰ = 10 s, then
    // 20, 40, 80 s; full jitter U · t: min 0, mean t/2, max t; 5 attempts, 4 delays.
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
    // River's own n⁴ shape as a sheet: exponent 4 from n = 1, base 0, no jitter, 4 attempts:
    // 1⁴ = 1, 2⁴ = 16, 3⁴ = 81 s (River would add ± 10 %; the export writes none).
    let s = with_retry(|r| {
        r.max_attempts = 4;
        r.backoff = backoff(
            BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 1,
            }),
            0,
            86_400_000,
            Jitter::None,
        );
    });
    let b = built(&s, T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![(1.0, 1.0, 1.0), (16.0, 16.0, 16.0), (81.0, 81.0, 81.0)]
    );
    assert!(
        b.text.contains("math.Pow(float64(n+1), 4)*1000"),
        "{}",
        b.text
    );
}

#[test]
fn defaults_window_from_the_formula() {
    // 25 attempts, 24 delays n⁴ s for n = 1..24: Σ n⁴ = n(n+1)(2n+1)(3n²+3n−1)/30 at n = 24
    // = 24·25·49·1 799 / 30 = 1 763 020 s (20.4 d); ± 10 %: min 1 586 718, max 1 939 322.
    let d = river::defaults(Lang::En);
    assert_eq!(d.attempts, Some(25));
    assert_eq!(d.schedule.delays.len(), 24);
    assert_eq!(d.schedule.delays[23].expected_s, 331_776.0);
    let w = d.schedule.window_s;
    let near = |x: Option<f64>, want: f64| (x.unwrap_or(0.0) - want).abs() < 1e-6;
    assert!(near(w.expected, 1_763_020.0), "{w:?}");
    assert!(near(w.min, 1_586_718.0), "{w:?}");
    assert!(near(w.max, 1_939_322.0), "{w:?}");
}

#[test]
fn bad_input_names_the_field_and_range() {
    // River refuses RescueStuckJobsAfter < JobTimeout.
    let s = with_retry(|r| {
        r.attempt_timeout_ms = 30_000;
        r.lease_ms = 20_000;
    });
    let err = report(&s, T, None, Lang::En).expect_err("a lease under the timeout");
    assert_out_of_range(err, T, FieldId::Timeout);
    // Which of the row's two values, in the message's language (the Japanese said "lease").
    let ja = report(&s, T, None, Lang::Ja)
        .expect_err("a lease under the timeout")
        .message(Lang::Ja);
    assert!(ja.contains("リース／可視性タイムアウト 20秒"), "{ja}");
    assert!(ja.contains("JobTimeout") && ja.contains("30秒"), "{ja}");
    assert!(!ja.contains("lease"), "{ja}");
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
    check_hostile(T, None, "//");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn samples_lie_within_the_reported_window(sheet in retry_sheet(), seed in any::<u64>()) {
        check_windows(T, None, &sheet, seed);
    }
}

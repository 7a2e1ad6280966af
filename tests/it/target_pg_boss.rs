//! The pg-boss export (`brief/QUEUES.md` §8): the worked example's mapping, the schedule
//! pg-boss runs for the exported options by its own formula (`retryLimit` counts retries,
//! rc = 0 at the first retry, equal jitter, cap after the jitter), its default window, the
//! window property, bad input and hostile text.

use crate::target_kit::{
    assert_out_of_range, backoff, built, check_hostile, check_windows, example, retry_sheet,
    sync_sheet, table, triples, with_retry,
};
use modality_advisor::domain::queues::{pg_boss, report, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, FieldId, Jitter};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

const T: TargetId = TargetId::PgBoss;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = built(&example(Lang::En), T, None, Lang::En);
    insta::assert_snapshot!("pg_boss_mapping_en", table(&en));
    insta::assert_snapshot!("pg_boss_text_en", en.text);
    let ja = built(&example(Lang::Ja), T, None, Lang::Ja);
    insta::assert_snapshot!("pg_boss_mapping_ja", table(&ja));
}

#[test]
fn the_example_exports_what_pg_boss_reads() {
    let b = built(&example(Lang::En), T, None, Lang::En);
    for needle in [
        "retryLimit: 4,",
        "retryDelay: 3,",
        "retryBackoff: true,",
        "retryDelayMax: 600,",
        "expireInSeconds: 30,",
        "deleteAfterSeconds: 2592000,",
        "deadLetter: DEAD_LETTER,",
        "policy: 'short',",
        "singletonKey: [data.reservation_id, \"confirm-mail\"].join(':')",
        "await boss.createQueue(DEAD_LETTER)",
    ] {
        assert!(b.text.contains(needle), "{needle}\n{}", b.text);
    }
}

#[test]
fn the_actual_schedule_by_hand() {
    // The example (5 attempts → retryLimit 4; full jitter from 10 s: first expected wait
    // 5 s, retryDelay = round(5 / 1.5) = 3). pg-boss waits 3 · 2^rc · (1 + U), rc = 0 first:
    // [3, 6), [6, 12), [12, 24), [24, 48), means 4.5, 9, 18, 36; the 600 s cap never bites.
    let b = built(&example(Lang::En), T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![
            (3.0, 4.5, 6.0),
            (6.0, 9.0, 12.0),
            (12.0, 18.0, 24.0),
            (24.0, 36.0, 48.0)
        ]
    );
    assert_eq!(b.actual.attempts, Some(5));
    // Equal jitter from 10 s, cap 30 s: retryDelay = 0.75·10/1.5 = 5; a = 5·2^rc = 5, 10, 20,
    // 40. rc 0: [5, 10) mean 7.5; rc 1: [10, 20) mean 15; rc 2: a = 20 < 30 < 2a = 40, so
    // min 20, max 30, mean ((30² − 20²)/2 + 30·(40 − 30))/20 = (250 + 300)/20 = 27.5; rc 3:
    // a = 40 ≥ 30: always 30.
    let s = with_retry(|r| {
        r.backoff = backoff(BackoffKind::Exponential, 10_000, 30_000, Jitter::Equal);
    });
    let b = built(&s, T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![
            (5.0, 7.5, 10.0),
            (10.0, 15.0, 20.0),
            (20.0, 27.5, 30.0),
            (30.0, 30.0, 30.0)
        ]
    );
    // Fixed 10 s without jitter, 3 attempts: retryLimit 2, retryBackoff false, 10 s twice.
    let s = with_retry(|r| {
        r.max_attempts = 3;
        r.backoff = backoff(BackoffKind::Fixed, 10_000, 10_000, Jitter::None);
    });
    let b = built(&s, T, None, Lang::En);
    assert_eq!(
        triples(&b.actual),
        vec![(10.0, 10.0, 10.0), (10.0, 10.0, 10.0)]
    );
    assert!(b.text.contains("retryLimit: 2,") && b.text.contains("retryBackoff: false,"));
}

#[test]
fn defaults_window_from_the_formula() {
    // retryLimit 2 → 3 attempts; retryDelay 0 in fixed mode: two waits of 0 s, window 0.
    let d = pg_boss::defaults(Lang::En);
    assert_eq!(d.attempts, Some(3));
    assert_eq!(triples(&d.schedule), vec![(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]);
    assert_eq!(d.schedule.window_s.max, Some(0.0));
    // With retryBackoff and retryDelay 0: max(0, 1) · 2^rc · (1 + U) → [1, 2), [2, 4).
    let o = pg_boss::RetryOptions {
        retry_limit: 2,
        retry_delay_s: 0,
        backoff: true,
        delay_max_s: None,
    };
    assert_eq!(
        triples(&o.schedule()),
        vec![(1.0, 1.5, 2.0), (2.0, 3.0, 4.0)]
    );
}

#[test]
fn bad_input_names_the_field_and_range() {
    // expireInSeconds must stay under 24 h.
    let s = with_retry(|r| {
        r.attempt_timeout_ms = 86_400_000;
        r.lease_ms = 86_400_000;
    });
    let err = report(&s, T, None, Lang::En).expect_err("24 h is refused");
    assert_out_of_range(err, T, FieldId::Timeout);
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

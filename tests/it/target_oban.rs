//! The Oban export (`brief/QUEUES.md` §6): the worked example's mapping, the schedule the
//! exported `backoff/1` runs (whole seconds, attempt 1 at the first failure), Oban's default
//! window from `15 + 2^a` + 0 … 10 %, the window property, bad input and hostile text.

use crate::target_kit::{
    assert_close, assert_out_of_range, backoff, built, check_hostile, check_windows, example,
    retry_sheet, sync_sheet, table, triples, with_retry,
};
use modality_advisor::domain::queues::{oban, report, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, FieldId, Jitter};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

const T: TargetId = TargetId::Oban;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = built(&example(Lang::En), T, None, Lang::En);
    insta::assert_snapshot!("oban_mapping_en", table(&en));
    insta::assert_snapshot!("oban_text_en", en.text);
    let ja = built(&example(Lang::Ja), T, None, Lang::Ja);
    insta::assert_snapshot!("oban_mapping_ja", table(&ja));
}

#[test]
fn the_example_exports_what_oban_reads() {
    let b = built(&example(Lang::En), T, None, Lang::En);
    for needle in [
        "max_attempts: 5",
        "unique: [fields: [:args, :worker], keys: [:reservation_id], period: :infinity]",
        "def backoff(%Oban.Job{attempt: attempt})",
        "t = min(@cap_ms, @base_ms * Integer.pow(2, attempt - 1))",
        "round(:rand.uniform() * t / 1000)",
        "def timeout(_job), do: 30_000",
        "pruner: [max_age: 2_592_000]",
        "lifeline: [rescue_after: 60_000]",
    ] {
        assert!(b.text.contains(needle), "{needle}\n{}", b.text);
    }
}

#[test]
fn the_actual_schedule_by_hand() {
    // The example: 5 attempts, exponential from 10 s, cap 10 min, full jitter. attempt = 1 at
    // the first failure, so n = attempt − 1 = 0: t = 10 · 2⁰ = 10 s (not 20 s); then 20, 40,
    // 80 s. Full jitter: U · t, rounded to whole seconds: min 0, max t, mean t/2.
    let b = built(&example(Lang::En), T, None, Lang::En);
    let t = triples(&b.actual);
    assert_eq!(
        t,
        vec![
            (0.0, 5.0, 10.0),
            (0.0, 10.0, 20.0),
            (0.0, 20.0, 40.0),
            (0.0, 40.0, 80.0)
        ]
    );
    assert_eq!(
        b.actual.attempts,
        Some(5),
        "max_attempts counts the first run"
    );
    // Fixed 1.5 s without jitter, 3 attempts: round(1.5) = 2 s (half away from zero) twice.
    let s = with_retry(|r| {
        r.max_attempts = 3;
        r.backoff = backoff(BackoffKind::Fixed, 1_500, 1_500, Jitter::None);
    });
    let b = built(&s, T, None, Lang::En);
    assert_eq!(triples(&b.actual), vec![(2.0, 2.0, 2.0), (2.0, 2.0, 2.0)]);
    assert_eq!(b.actual.window_s.max, Some(4.0));
}

#[test]
fn defaults_window_from_the_formula() {
    // t_a = 15 + 2^a s for a = 1..19 (20 attempts): 17, 19, 23, 31, …, 524 303.
    // min = Σ t_a = 15·19 + (2^20 − 2) = 285 + 1 048 574 = 1 048 859 s (12.1 d).
    // max adds the largest trunc(U · 0.1 · t) = ⌊t/10⌋ (t never ends in 0): Σ = 104 876,
    // so 1 153 735 s (13.4 d; Oban's docs' "13 days 8 hours" is this max-jitter total).
    // expected adds (f(f−1)/2 + f(m−f))/m per delay, m = t/10, f = ⌊m⌋: 1 101 292.64 s.
    let d = oban::defaults(Lang::En);
    assert_eq!(d.attempts, Some(20));
    assert_eq!(d.schedule.delays.len(), 19);
    assert_eq!(d.schedule.delays[0].min_s, 17.0);
    assert_eq!(d.schedule.delays[18].min_s, 524_303.0);
    assert_eq!(d.schedule.delays[18].max_s, 576_733.0);
    let w = d.schedule.window_s;
    assert_eq!(w.min, Some(1_048_859.0));
    assert_eq!(w.max, Some(1_153_735.0));
    assert_close(
        &[w.expected.unwrap_or(0.0)],
        &[1_101_292.635_906_973],
        "expected",
    );
    assert!(oban::defaults(Lang::Ja).summary.contains("max_attempts 20"));
}

#[test]
fn bad_input_names_the_field_and_range() {
    let s = with_retry(|r| r.max_attempts = 0);
    let err = report(&s, T, None, Lang::En).expect_err("0 attempts is refused");
    assert_out_of_range(err, T, FieldId::MaxAttempts);
    assert!(matches!(
        report(&sync_sheet(), T, None, Lang::En),
        Err(TargetError::NotApplicable {
            outcome: "sync",
            ..
        })
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

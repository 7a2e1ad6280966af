//! The decision engine through its public API.

use modality_advisor::domain::flowchart::{Answer, Next, RULES};
use modality_advisor::domain::{evaluate, Answers, Lang, Outcome, QuestionId, Status, Timing};
use QuestionId::*;

/// The flowchart of docs/DOMAIN.md §1, written out independently of the production table:
/// given the five answers (tt, nrn, ws, ec, kaw), the expected outcome and how many
/// questions are on the path.
fn expected(a: [bool; 5]) -> (&'static str, usize) {
    let [tt, nrn, ws, ec, kaw] = a;
    if tt {
        ("batch", 1)
    } else if !nrn {
        ("async-enqueue", 2)
    } else if !ws {
        ("async-ticket", 3)
    } else if !ec {
        ("sync", 4)
    } else if kaw {
        ("async-ticket", 5)
    } else {
        ("sync-timeout", 5)
    }
}

#[test]
fn all_32_combinations_match_the_independent_table() {
    let mut seen = std::collections::BTreeMap::new();
    for bits in 0u8..32 {
        let a: [bool; 5] = std::array::from_fn(|i| bits & (1 << i) != 0);
        let mut answers = Answers::new();
        for (q, v) in QuestionId::ALL.into_iter().zip(a) {
            answers.set(q, v);
        }
        let eval = evaluate(&answers);
        let (want, path_len) = expected(a);
        assert_eq!(eval.outcome().map(Outcome::id), Some(want), "answers {a:?}");
        assert_eq!(eval.path.len(), path_len, "answers {a:?}");
        // The path is a prefix of the flowchart order with the given answers.
        for (step, (q, v)) in eval.path.iter().zip(QuestionId::ALL.into_iter().zip(a)) {
            assert_eq!((step.question, step.yes()), (q, v), "answers {a:?}");
        }
        // Everything answered beyond the path is reported as ignored.
        let ignored: Vec<_> = QuestionId::ALL[path_len..].to_vec();
        assert_eq!(eval.ignored, ignored, "answers {a:?}");
        assert_eq!(eval.reasons(Lang::En).len(), path_len);
        *seen.entry(want).or_insert(0) += 1;
    }
    // 16 batch, 8 async-enqueue, 4 + 1 async-ticket, 2 sync, 1 sync-timeout.
    let counts: Vec<_> = seen.into_iter().collect();
    assert_eq!(
        counts,
        [
            ("async-enqueue", 8),
            ("async-ticket", 5),
            ("batch", 16),
            ("sync", 2),
            ("sync-timeout", 1)
        ]
    );
}

fn check_next(given: &[(QuestionId, bool)], want: Status) {
    let mut answers = Answers::new();
    for &(q, v) in given {
        answers.set(q, v);
    }
    assert_eq!(evaluate(&answers).status, want, "given {given:?}");
}

#[test]
fn incomplete_answers_ask_the_next_question() {
    check_next(&[], Status::Ask(TimeTriggered));
    check_next(&[(TimeTriggered, false)], Status::Ask(NeedsResultNow));
    check_next(
        &[(TimeTriggered, false), (NeedsResultNow, true)],
        Status::Ask(WithinSeconds),
    );
    check_next(
        &[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
        ],
        Status::Ask(ExternalCall),
    );
    check_next(
        &[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, true),
        ],
        Status::Ask(KeepAcceptingWhenDown),
    );
    // Later answers without the first one still ask the first question, and are ignored.
    check_next(
        &[(ExternalCall, true), (WithinSeconds, false)],
        Status::Ask(TimeTriggered),
    );
    // A gap in the middle asks for the gap.
    check_next(
        &[
            (TimeTriggered, false),
            (WithinSeconds, true),
            (ExternalCall, false),
        ],
        Status::Ask(NeedsResultNow),
    );
    // Off-path answers do not block a decision.
    check_next(
        &[(TimeTriggered, true), (ExternalCall, true)],
        Status::Decided(Outcome::Batch),
    );
}

#[test]
fn off_path_answers_are_reported_as_ignored() {
    let answers = Answers::new()
        .with(TimeTriggered, false)
        .with(NeedsResultNow, false)
        .with(ExternalCall, true)
        .with(KeepAcceptingWhenDown, false);
    let eval = evaluate(&answers);
    assert_eq!(eval.outcome(), Some(Outcome::AsyncEnqueue));
    assert_eq!(eval.ignored, vec![ExternalCall, KeepAcceptingWhenDown]);
}

fn check_threshold(target_ms: u64, p95_ms: u64, within: bool, shown: &str) {
    let t = Timing::new(target_ms, p95_ms).expect("valid timing");
    assert_eq!(t.within(), within, "target {target_ms} p95 {p95_ms}");
    assert_eq!(t.comparison(Lang::En), shown);
}

#[test]
fn threshold_at_above_and_below_the_target() {
    check_threshold(2000, 8000, false, "p95 8,000 ms > target 2,000 ms → no");
    check_threshold(2000, 2000, true, "p95 2,000 ms ≤ target 2,000 ms → yes");
    check_threshold(2000, 2001, false, "p95 2,001 ms > target 2,000 ms → no");
    check_threshold(2000, 1999, true, "p95 1,999 ms ≤ target 2,000 ms → yes");
    check_threshold(1, 0, true, "p95 0 ms ≤ target 1 ms → yes");
    check_threshold(
        3_000_000,
        1_234_567,
        true,
        "p95 1,234,567 ms ≤ target 3,000,000 ms → yes",
    );
    assert_eq!(
        Timing::new(2000, 8000).map(|t| t.comparison(Lang::Ja)),
        Ok("p95 8,000 ms > 目標 2,000 ms → いいえ".to_owned())
    );
}

#[test]
fn threshold_drives_the_walk_and_the_reason() {
    let mut answers = Answers::new()
        .with(TimeTriggered, false)
        .with(NeedsResultNow, true);
    answers.set_timing(Timing::new(2000, 8000).expect("valid"));
    let eval = evaluate(&answers);
    assert_eq!(eval.outcome(), Some(Outcome::AsyncTicket));
    assert!(eval.reasons(Lang::En)[2].starts_with("p95 8,000 ms > target 2,000 ms → no: "));
    answers.set_timing(Timing::new(2000, 500).expect("valid"));
    assert_eq!(evaluate(&answers).status, Status::Ask(ExternalCall));
}

#[test]
fn timing_out_of_range_names_the_field_and_range() {
    let err = |t, p| Timing::new(t, p).map_err(|e| e.to_string());
    assert_eq!(
        err(0, 5),
        Err("target_ms is 0 ms; allowed: 1 to 604800000 ms (whole milliseconds)".into())
    );
    assert_eq!(
        err(5, 604_800_001),
        Err("p95_ms is 604800001 ms; allowed: 0 to 604800000 ms (whole milliseconds)".into())
    );
    assert!(Timing::new(Timing::MAX_MS, Timing::MAX_MS).is_ok());
}

#[test]
fn changing_an_earlier_answer_drops_later_answers_off_the_path() {
    let mut answers = Answers::new()
        .with(TimeTriggered, false)
        .with(NeedsResultNow, true)
        .with(WithinSeconds, true)
        .with(ExternalCall, false);
    // Same branch: nothing dropped.
    assert_eq!(answers.answer(TimeTriggered, Answer::Given(false)), vec![]);
    // Off the branch: the two later answers go.
    let dropped = answers.answer(NeedsResultNow, Answer::Given(false));
    assert_eq!(
        dropped,
        vec![
            (WithinSeconds, Answer::Given(true)),
            (ExternalCall, Answer::Given(false))
        ]
    );
    assert_eq!(evaluate(&answers).outcome(), Some(Outcome::AsyncEnqueue));
    assert_eq!(answers.get(WithinSeconds), None);
}

#[test]
fn back_goes_to_the_previous_question_on_the_path() {
    let answers = Answers::new()
        .with(TimeTriggered, false)
        .with(NeedsResultNow, true)
        .with(WithinSeconds, false);
    let eval = evaluate(&answers);
    assert_eq!(eval.back_from(None), Some(WithinSeconds));
    assert_eq!(eval.back_from(Some(WithinSeconds)), Some(NeedsResultNow));
    assert_eq!(eval.back_from(Some(NeedsResultNow)), Some(TimeTriggered));
    assert_eq!(eval.back_from(Some(TimeTriggered)), Some(TimeTriggered));
    let pending = evaluate(&Answers::new().with(TimeTriggered, false));
    assert_eq!(pending.back_from(Some(NeedsResultNow)), Some(TimeTriggered));
    assert_eq!(
        evaluate(&Answers::new()).back_from(Some(TimeTriggered)),
        Some(TimeTriggered)
    );
}

#[test]
fn the_rules_form_a_tree_reaching_every_outcome() {
    let mut reached = Vec::new();
    for r in RULES {
        for next in [r.yes, r.no] {
            if let Next::Decide(o) = next {
                reached.push(o);
            }
        }
    }
    for o in Outcome::ALL {
        assert!(reached.contains(&o), "{o:?} unreachable");
    }
}

#[test]
fn ids_round_trip() {
    for q in QuestionId::ALL {
        assert_eq!(QuestionId::parse(q.id()), Ok(q));
    }
    assert!(QuestionId::parse("within_seconds").is_err());
    assert_eq!(Lang::parse("ja"), Ok(Lang::Ja));
    assert_eq!(
        Lang::parse("fr").map_err(|e| e.to_string()),
        Err("invalid language \"fr\"; allowed: en, ja".into())
    );
}

#[test]
fn browser_language_picks_ja_or_en() {
    let check = |tags: &[&str], want| {
        assert_eq!(
            Lang::from_browser_tags(tags.iter().copied()),
            want,
            "{tags:?}"
        )
    };
    check(&["ja-JP", "en-US"], Lang::Ja);
    check(&["fr-FR", "ja"], Lang::Ja);
    check(&["en-GB", "ja"], Lang::En);
    check(&["de-DE"], Lang::En);
    check(&[], Lang::En);
    check(&["JA_jp"], Lang::Ja);
}

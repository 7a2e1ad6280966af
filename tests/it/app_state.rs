//! The app's state machine (`domain::app_state`), natively: answers and the answers a change
//! drops, sheet edits accepted and refused, fields reporting refused values, the simulator's
//! choices, the language, the screens and places, loading the example and undoing it.

use modality_advisor::domain::app_state::{reduce, Action, AppState, Output, Screen, SheetNotice};
use modality_advisor::domain::flowchart::Answer;
use modality_advisor::domain::place::Place;
use modality_advisor::domain::session::{SimEdit, CUSTOM_PRESET};
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::inputs::{label_of, SheetInput, INPUTS};
use modality_advisor::domain::{Lang, Outcome, QuestionId, Timing, TimingField};

use QuestionId::{
    ExternalCall, KeepAcceptingWhenDown, NeedsResultNow, TimeTriggered, WithinSeconds,
};

const EXAMPLE_EN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/static/examples/reservation-mail.en.json"
));

/// `state` after each action in turn.
fn run(state: AppState, actions: impl IntoIterator<Item = Action>) -> AppState {
    actions.into_iter().fold(state, AppState::after)
}

/// A fresh English state after answering `answers` in turn.
fn answered(answers: &[(QuestionId, bool)]) -> AppState {
    run(
        AppState::new(Lang::En),
        answers
            .iter()
            .map(|&(q, v)| Action::Answer(q, Answer::Given(v))),
    )
}

/// Answers that decide "put a job on a queue" (the outcome with every sheet section).
const ENQUEUE: [(QuestionId, bool); 2] = [(TimeTriggered, false), (NeedsResultNow, false)];

fn on_sheet() -> AppState {
    answered(&ENQUEUE).after(Action::OpenSheet)
}

#[test]
fn answers_walk_the_flowchart_to_an_outcome() {
    // (answers, outcome or the next question)
    type Case<'a> = (&'a [(QuestionId, bool)], Result<Outcome, QuestionId>);
    let cases: [Case; 5] = [
        (&[], Err(TimeTriggered)),
        (&[(TimeTriggered, true)], Ok(Outcome::Batch)),
        (&[(TimeTriggered, false)], Err(NeedsResultNow)),
        (&ENQUEUE, Ok(Outcome::AsyncEnqueue)),
        (
            &[
                (TimeTriggered, false),
                (NeedsResultNow, true),
                (WithinSeconds, true),
                (ExternalCall, true),
                (KeepAcceptingWhenDown, false),
            ],
            Ok(Outcome::SyncTimeout),
        ),
    ];
    for (answers, want) in cases {
        let s = answered(answers);
        let got = s.evaluation().outcome().ok_or(s.current_question());
        let want_place = match want {
            Ok(_) => Place::Result,
            Err(q) => Place::Question(q),
        };
        assert_eq!(got, want.map_err(Some), "{answers:?}");
        assert_eq!(s.place(), want_place, "{answers:?}");
        assert_eq!(s.interacted, !answers.is_empty(), "{answers:?}");
        assert!(s.dropped.is_empty(), "{answers:?}");
    }
}

#[test]
fn a_changed_answer_drops_the_answers_off_the_new_path_until_dismissed() {
    let long = answered(&[
        (TimeTriggered, false),
        (NeedsResultNow, true),
        (WithinSeconds, true),
        (ExternalCall, true),
    ]);
    let editing = long.after(Action::Edit(NeedsResultNow));
    assert_eq!(editing.place(), Place::Question(NeedsResultNow));
    // The same answer again drops nothing.
    let same = editing
        .clone()
        .after(Action::Answer(NeedsResultNow, Answer::Given(true)));
    assert!(same.dropped.is_empty());
    assert_eq!(same.current_question(), Some(KeepAcceptingWhenDown));
    // The other answer ends the walk earlier: the two answers after it are dropped, with
    // the values they had.
    let changed = editing.after(Action::Answer(NeedsResultNow, Answer::Given(false)));
    assert_eq!(
        changed.dropped,
        vec![(WithinSeconds, true), (ExternalCall, true)]
    );
    assert_eq!(changed.editing, None);
    assert_eq!(changed.evaluation().outcome(), Some(Outcome::AsyncEnqueue));
    assert_eq!(changed.answers.get(WithinSeconds), None);
    let dismissed = changed.after(Action::DismissDropped);
    assert!(dismissed.dropped.is_empty());
    assert_eq!(
        dismissed.evaluation().outcome(),
        Some(Outcome::AsyncEnqueue)
    );
}

#[test]
fn a_derived_timing_answers_within_seconds() {
    let s = answered(&[(TimeTriggered, false), (NeedsResultNow, true)]);
    let slow = Timing::new(2_000, 8_000).expect("in range");
    let s = s.after(Action::Answer(WithinSeconds, Answer::Derived(slow)));
    assert_eq!(s.answers.get(WithinSeconds), Some(Answer::Derived(slow)));
    assert_eq!(s.evaluation().outcome(), Some(Outcome::AsyncTicket));
}

#[test]
fn back_and_restart() {
    let s = answered(&[(TimeTriggered, false)]);
    let back = s.after(Action::Back);
    assert_eq!(back.place(), Place::Question(TimeTriggered));
    // Restart forgets the answers and keeps the sheet (its facts serve the next decision).
    let with_sheet = on_sheet().after(Action::EditSheet(SheetEdit::ProcessName("mail".into())));
    let restarted = with_sheet.after(Action::Restart);
    assert!(restarted.answers.get(TimeTriggered).is_none());
    assert_eq!(restarted.place(), Place::Question(TimeTriggered));
    assert_eq!(
        restarted
            .sheet
            .as_ref()
            .map(|s| s.process.process_name.as_str()),
        Some("mail")
    );
    assert!(restarted.interacted);
}

#[test]
fn the_sheet_opens_only_for_a_decision() {
    let undecided = answered(&[(TimeTriggered, false)]).after(Action::OpenSheet);
    assert_eq!(undecided.screen, Screen::Decide);
    assert!(undecided.sheet.is_none());
    let s = on_sheet();
    assert_eq!(s.screen, Screen::Sheet);
    assert_eq!(s.place(), Place::Sheet);
    let sheet = s.sheet.as_ref().expect("opened");
    assert_eq!(sheet.decision.outcome, Outcome::AsyncEnqueue);
    assert!(sheet.retry.is_some());
}

#[test]
fn sheet_edits_are_applied_or_refused_leaving_the_sheet_as_it_was() {
    let accepted = [
        SheetEdit::MaxAttempts(7),
        SheetEdit::BaseMs(30_000),
        SheetEdit::ProcessName("send mail".into()),
        SheetEdit::Arguments(vec!["reservation_id".into()]),
    ];
    for edit in accepted {
        let before = on_sheet();
        let after = before.clone().after(Action::EditSheet(edit.clone()));
        let want = edit.clone().apply(before.sheet.as_ref().expect("sheet"));
        assert_eq!(after.sheet.as_ref(), want.as_ref().ok(), "{edit:?}");
        assert_ne!(after.sheet, before.sheet, "{edit:?} changes the sheet");
        assert_eq!(after.notice, None, "{edit:?}");
    }
    let refused = [
        (SheetEdit::MaxAttempts(0), "retry.max_attempts"),
        (SheetEdit::MaxAttempts(101), "retry.max_attempts"),
        (SheetEdit::CapMs(9_999), "retry.backoff.cap_ms"),
        (SheetEdit::LeaseMs(0), "retry.lease_ms"),
    ];
    for (edit, path) in refused {
        let before = on_sheet();
        let after = before.clone().after(Action::EditSheet(edit.clone()));
        assert_eq!(
            after.sheet, before.sheet,
            "{edit:?} leaves the sheet as it was"
        );
        match &after.notice {
            Some(n @ SheetNotice::Refused(e)) => {
                assert!(!n.is_info(), "{edit:?}");
                assert!(e.to_string().starts_with(path), "{edit:?}: {e}");
            }
            other => panic!("{edit:?}: {other:?}"),
        }
    }
    // No sheet yet: an edit changes nothing but the "interacted" flag.
    let none = answered(&ENQUEUE);
    let edited = none
        .clone()
        .after(Action::EditSheet(SheetEdit::MaxAttempts(7)));
    assert_eq!(edited.sheet, None);
    assert_eq!(edited.notice, None);
}

#[test]
fn field_reports_are_the_one_record_of_refused_values() {
    let s = on_sheet();
    assert_eq!(s.check_output(Output::Copy), Ok(()));
    let refuse = |id: &str, m: &str| Action::FieldRefused(id.into(), Some(m.into()));
    // Reported out of page order, with a simulator knob among them.
    let s = run(
        s,
        [
            refuse("base", "bad base"),
            refuse("knob-workers", "bad workers"),
            refuse("max-attempts", "bad attempts"),
        ],
    );
    assert_eq!(s.refused.len(), 3);
    assert_eq!(
        s.sheet_refused(),
        vec![
            ("max-attempts".to_owned(), "bad attempts".to_owned()),
            ("base".to_owned(), "bad base".to_owned()),
        ],
        "the sheet's own, in page order"
    );
    // The same report again changes nothing (nothing is drawn again).
    assert!(reduce(&s, refuse("base", "bad base")).is_none());
    // A reworded report replaces the message.
    let s = s.after(refuse("base", "mauvaise base"));
    assert_eq!(s.sheet_refused()[1].1, "mauvaise base");
    // Outputs wait until every sheet field is fixed, naming them in page order.
    for out in [
        Output::Copy,
        Output::Download,
        Output::Print,
        Output::Simulate,
    ] {
        let notice = s.check_output(out).expect_err("refused");
        assert_eq!(
            notice,
            SheetNotice::FieldsRefused(out, vec!["max-attempts".into(), "base".into()])
        );
        let text = notice.text(Lang::En);
        let (a, b) = (text.find("Max attempts"), text.find("First wait (base)"));
        assert!(a.is_some() && b.is_some() && a < b, "{text}");
        assert!(notice.text(Lang::Ja).contains("最大試行回数"));
    }
    // Reports are not the user's doing: they leave "interacted" and the screen alone.
    assert_eq!(s.screen, Screen::Sheet);
    // Cleared one by one; a knob's report does not hold up the sheet's outputs.
    let s = run(
        s,
        [
            Action::FieldRefused("max-attempts".into(), None),
            Action::FieldRefused("base".into(), None),
        ],
    );
    assert_eq!(s.sheet_refused(), Vec::new());
    assert_eq!(s.check_output(Output::Print), Ok(()));
    assert_eq!(
        s.refused,
        vec![("knob-workers".into(), "bad workers".into())]
    );
    // The knobs' reports are the simulator's record too: Run, Compare and the config download
    // refuse while one shows a refused value, naming the knobs in their order.
    use modality_advisor::domain::sim::setup::knobs::Knob;
    assert_eq!(s.knobs_refused(), vec![Knob::Workers]);
    let s2 = s.clone().after(refuse("knob-max-attempts", "bad attempts"));
    assert_eq!(s2.knobs_refused(), vec![Knob::MaxAttempts, Knob::Workers]);
    let s2 = s2.after(Action::FieldRefused("knob-workers".into(), None));
    assert_eq!(s2.knobs_refused(), vec![Knob::MaxAttempts]);
    // Clearing what is not reported changes nothing.
    assert!(reduce(&s, Action::FieldRefused("base".into(), None)).is_none());
}

#[test]
fn simulator_choices_and_simulating_the_sheet() {
    let s = AppState::new(Lang::En).after(Action::SetSim(SimEdit::Seed(7)));
    assert_eq!(s.sim.seed, 7);
    assert!(
        !s.interacted,
        "a choice of the simulator does not move focus"
    );
    let s = s.after(Action::SetSim(SimEdit::Preset("no-such-preset".into())));
    assert_ne!(
        s.sim.preset, "no-such-preset",
        "unknown presets change nothing"
    );
    let s = s.after(Action::ShowSimulate);
    assert_eq!((s.screen, s.place()), (Screen::Simulate, Place::Simulate));

    // "Simulate these settings" makes the sheet from the decision when there is none yet.
    let s = answered(&ENQUEUE);
    assert!(s.sheet.is_none());
    let sim = s.after(Action::SimulateSheet);
    assert_eq!(sim.screen, Screen::Simulate);
    assert_eq!(sim.sim.preset, CUSTOM_PRESET);
    assert_eq!(sim.sim.variant, "your-settings");
    assert_eq!(sim.sim_sheet_requests, 1);
    assert_eq!(
        sim.sheet.as_ref().map(|s| s.decision.outcome),
        Some(Outcome::AsyncEnqueue)
    );
    // Each press counts (the simulator re-reads the sheet each time).
    let again = sim.after(Action::ShowDecide).after(Action::SimulateSheet);
    assert_eq!(again.sim_sheet_requests, 2);
}

#[test]
fn the_language_switch_rewords_defaults_and_keeps_the_users_words() {
    let s = on_sheet().after(Action::EditSheet(SheetEdit::ProcessName(
        "send mail".into(),
    )));
    let ja = s.clone().after(Action::SetLang(Lang::Ja));
    assert_eq!(ja.lang, Lang::Ja);
    assert_eq!(ja.interacted, s.interacted, "the switch is not an answer");
    let sheet = ja.sheet.as_ref().expect("sheet");
    assert_eq!(
        sheet.process.process_name, "send mail",
        "the user's words stay"
    );
    assert_ne!(ja.sheet, s.sheet, "defaults follow");
    assert_eq!(sheet.lang, Some(Lang::Ja));
    let back = ja.after(Action::SetLang(Lang::En));
    assert_eq!(back.sheet, s.sheet, "and come back");
    // Before any answer, the switch is not the user's doing on the questions.
    let fresh = AppState::new(Lang::En).after(Action::SetLang(Lang::Ja));
    assert!(!fresh.interacted);
}

#[test]
fn screens_and_places_from_the_history() {
    // (state, place from the history, where the user ends up)
    let undecided = answered(&[(TimeTriggered, false)]);
    let decided = answered(&ENQUEUE);
    let cases = [
        (
            undecided.clone(),
            Place::Sheet,
            Place::Question(NeedsResultNow),
        ),
        (
            undecided.clone(),
            Place::Result,
            Place::Question(NeedsResultNow),
        ),
        (
            undecided.clone(),
            Place::Question(TimeTriggered),
            Place::Question(TimeTriggered),
        ),
        // A question off the current path shows the pending one.
        (
            undecided.clone(),
            Place::Question(ExternalCall),
            Place::Question(NeedsResultNow),
        ),
        (undecided, Place::Simulate, Place::Simulate),
        // The history never makes a sheet: a process without one shows its result.
        (decided.clone(), Place::Sheet, Place::Result),
        (
            decided.clone().after(Action::OpenSheet),
            Place::Sheet,
            Place::Sheet,
        ),
        (decided.clone(), Place::Result, Place::Result),
        (
            decided.clone().after(Action::OpenSheet),
            Place::Result,
            Place::Result,
        ),
        (
            decided,
            Place::Question(NeedsResultNow),
            Place::Question(NeedsResultNow),
        ),
    ];
    for (state, to, want) in cases {
        let after = state.clone().after(Action::GoTo(to, None));
        assert_eq!(after.place(), want, "{:?} → {to:?}", state.place());
    }
    let s = on_sheet().after(Action::ShowDecide);
    assert_eq!((s.screen, s.place()), (Screen::Decide, Place::Result));
    assert!(
        s.sheet.is_some(),
        "the sheet is kept while the user looks at the questions"
    );
}

#[test]
fn loading_the_example_can_be_undone_until_the_next_edit() {
    let example = import_json(EXAMPLE_EN, Lang::En).expect("the example imports");
    let before = answered(&[(TimeTriggered, true)]).after(Action::OpenSheet);
    let loaded = run(
        before.clone(),
        [
            Action::LoadSheet(Box::new(example.clone())),
            Action::Notice(Some(SheetNotice::ExampleLoaded)),
        ],
    );
    assert_eq!(loaded.screen, Screen::Sheet);
    assert_eq!(loaded.sheet.as_ref(), Some(&example));
    assert_eq!(loaded.evaluation().outcome(), Some(Outcome::AsyncEnqueue));
    assert!(loaded.notice.as_ref().is_some_and(SheetNotice::is_info));
    let undone = loaded.clone().after(Action::UndoLoad);
    assert_eq!(undone.sheet, before.sheet);
    assert_eq!(undone.answers, before.answers);
    assert_eq!(undone.notice, None);
    assert!(undone.before_load.is_none());
    // After an edit, undo would throw the edit away: it is no longer offered.
    let edited = loaded.after(Action::EditSheet(SheetEdit::MaxAttempts(4)));
    assert!(edited.before_load.is_none());
    assert_eq!(edited.notice, None);
    let kept = edited.clone().after(Action::UndoLoad);
    assert_eq!(kept.sheet, edited.sheet);
    // Undoing a load that replaced no sheet goes back to the questions.
    let from_nothing = AppState::new(Lang::En)
        .after(Action::LoadSheet(Box::new(example)))
        .after(Action::UndoLoad);
    assert_eq!(
        (from_nothing.screen, from_nothing.sheet),
        (Screen::Decide, None)
    );
}

#[test]
fn a_saved_catalog_restores_answers_sheet_and_screen() {
    use modality_advisor::domain::app_state::CatalogAction;
    let add = Action::Catalog(CatalogAction::Add {
        seed: 1,
        now_ms: 1,
        name: "Mail".into(),
    });
    let s = run(
        AppState::new(Lang::En),
        [add]
            .into_iter()
            .chain(
                ENQUEUE
                    .iter()
                    .map(|&(q, v)| Action::Answer(q, Answer::Given(v))),
            )
            .chain([Action::OpenSheet, Action::SetSim(SimEdit::Seed(42))]),
    );
    // What the page saves is the catalog; a reload starts from it on the process it had open.
    let restored = AppState::on_catalog(Lang::En, s.catalog_now(), s.open.as_ref());
    assert_eq!(restored.answers, s.answers);
    assert_eq!(restored.sheet, s.sheet);
    assert_eq!(restored.screen, Screen::Sheet);
    assert_eq!(restored.sim, s.sim);
    assert!(!restored.interacted);
}

#[test]
fn the_wizard_reads_timing_numbers_with_the_domains_parser() {
    // (field, typed, read)
    let cases = [
        (TimingField::Target, "2000", Some(2_000)),
        (TimingField::Target, "２０００", Some(2_000)),
        (TimingField::Target, "2 000", Some(2_000)),
        (TimingField::P95, "８，０００", Some(8_000)),
        (TimingField::P95, "0", Some(0)),
        (TimingField::Target, "0", None),
        (TimingField::Target, "1,5", None),
        (TimingField::P95, "-5", None),
        (TimingField::P95, "abc", None),
        (TimingField::P95, "604800000", Some(Timing::MAX_MS)),
        (TimingField::P95, "604800001", None),
        // Durations with a unit, as people type them.
        (TimingField::Target, "2 s", Some(2_000)),
        (TimingField::Target, "2s", Some(2_000)),
        (TimingField::P95, "１．５分", Some(90_000)),
        (TimingField::P95, "500ms", Some(500)),
        (TimingField::P95, "7 d", Some(Timing::MAX_MS)),
        (TimingField::P95, "8 d", None),
        (TimingField::P95, "0.5", None),
        (TimingField::P95, "5 weeks", None),
    ];
    for (field, typed, want) in cases {
        assert_eq!(
            Timing::parse_field(field, typed),
            want,
            "{field:?} {typed:?}"
        );
    }
}

#[test]
fn every_sheet_input_has_a_label_in_both_languages_and_one_id() {
    for (i, input) in INPUTS.iter().enumerate() {
        assert!(
            INPUTS[..i].iter().all(|o| o.id != input.id),
            "{} twice",
            input.id
        );
        assert_eq!(SheetInput::find(input.id), Some(*input));
        for lang in [Lang::En, Lang::Ja] {
            let label = input.label(lang);
            assert!(
                !label.is_empty() && !label.contains("sheet."),
                "{} in {lang:?}: {label}",
                input.id
            );
            assert_eq!(label_of(input.id, lang), label);
        }
    }
    assert_eq!(
        label_of("retention-dead-days", Lang::En),
        "Dead jobs are kept: Days"
    );
    assert_eq!(label_of("knob-workers", Lang::En), "knob-workers");
}

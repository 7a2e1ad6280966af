//! The catalog in the app's state machine (`domain::app_state`, `CatalogAction`): add, open,
//! duplicate, rename, delete with undo, reorder, import with undo, held processes resolved,
//! storage refused — natively, through the same actions the page dispatches.

use modality_advisor::domain::app_state::{
    Action, AppState, CatalogAction, CatalogNotice, Keeping, Screen,
};
use modality_advisor::domain::catalog::sync::Held;
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::flowchart::Answer;
use modality_advisor::domain::{Lang, QuestionId};

fn cat(a: CatalogAction) -> Action {
    Action::Catalog(a)
}

fn add(name: &str, seed: u64) -> Action {
    cat(CatalogAction::Add {
        seed,
        now_ms: 10_000 + seed,
        name: name.to_owned(),
    })
}

fn names(s: &AppState) -> Vec<String> {
    s.catalog_now()
        .processes
        .iter()
        .map(|p| p.name.clone())
        .collect()
}

/// A state with three processes, the last one open, as the page makes them.
fn three() -> AppState {
    [add("Place order", 1), add("", 2), add("Nightly report", 3)]
        .into_iter()
        .fold(AppState::new(Lang::En), AppState::after)
}

#[test]
fn add_opens_the_questions_of_a_new_process_named_or_numbered() {
    let s = three();
    assert_eq!(names(&s), ["Place order", "Process 2", "Nightly report"]);
    assert_eq!(s.screen, Screen::Decide);
    assert_eq!(s.open, Some(s.catalog.processes[2].id.clone()));
    let ids: Vec<&ProcessId> = s.catalog.processes.iter().map(|p| &p.id).collect();
    assert!(ids.iter().all(|id| ProcessId::is_valid(id.as_str())));
    assert_eq!(s.catalog.processes[0].created_ms, 10_001);
    let ja = AppState::new(Lang::Ja).after(add("", 9));
    assert_eq!(names(&ja), ["プロセス 1"]);
}

#[test]
fn each_process_keeps_its_own_answers() {
    let s = three().after(Action::Answer(
        QuestionId::TimeTriggered,
        Answer::Given(true),
    ));
    let first = s.catalog.processes[0].id.clone();
    let s = s.after(cat(CatalogAction::Open(first.clone())));
    assert_eq!(s.open, Some(first));
    assert!(s.answers.answered().next().is_none(), "the first has none");
    let c = s.catalog_now();
    assert_eq!(c.processes[2].outcome.map(|o| o.id()), Some("batch"));
    assert_eq!(c.processes[0].outcome, None);
}

#[test]
fn delete_then_undo_puts_the_process_back_in_its_place() {
    let s = three();
    let middle = s.catalog.processes[1].id.clone();
    let s = s.after(cat(CatalogAction::Delete(middle.clone())));
    assert_eq!(names(&s), ["Place order", "Nightly report"]);
    assert_eq!(
        s.catalog_notice,
        Some(CatalogNotice::Deleted("Process 2".to_owned()))
    );
    assert!(s.catalog_notice.as_ref().unwrap().can_undo());
    let s = s.after(cat(CatalogAction::Undo));
    assert_eq!(names(&s), ["Place order", "Process 2", "Nightly report"]);
    assert_eq!(s.catalog.processes[1].id, middle);
    assert_eq!(s.catalog_notice, None);
}

#[test]
fn deleting_the_open_process_shows_the_catalog() {
    let s = three();
    let open = s.open.clone().unwrap();
    let s = s.after(cat(CatalogAction::Delete(open)));
    assert_eq!(s.open, None);
    assert_eq!(s.screen, Screen::Catalog);
    let s = s.after(cat(CatalogAction::Undo));
    assert_eq!(names(&s).len(), 3);
}

#[test]
fn rename_duplicate_and_move() {
    let s = three();
    let first = s.catalog.processes[0].id.clone();
    let s = s.after(cat(CatalogAction::Rename(
        first.clone(),
        "  Order placed  ".into(),
    )));
    assert_eq!(names(&s)[0], "Order placed");
    let refused = s
        .clone()
        .after(cat(CatalogAction::Rename(first.clone(), "   ".into())));
    assert_eq!(names(&refused)[0], "Order placed");
    assert_eq!(refused.catalog_notice, Some(CatalogNotice::NameRefused));
    let long = "x".repeat(201);
    let refused = s
        .clone()
        .after(cat(CatalogAction::Rename(first.clone(), long)));
    assert_eq!(refused.catalog_notice, Some(CatalogNotice::NameRefused));
    let s = s.after(cat(CatalogAction::Duplicate {
        id: first.clone(),
        seed: 77,
        now_ms: 50_000,
    }));
    assert_eq!(
        names(&s),
        [
            "Order placed",
            "Order placed (copy)",
            "Process 2",
            "Nightly report"
        ]
    );
    assert_ne!(s.catalog.processes[1].id, first);
    assert_eq!(s.catalog.processes[1].created_ms, 50_000);
    let s = s.after(cat(CatalogAction::Move(first.clone(), false)));
    assert_eq!(s.catalog.processes[1].id, first);
    let s = s.after(cat(CatalogAction::Move(first.clone(), true)));
    let s = s.after(cat(CatalogAction::Move(first.clone(), true)));
    assert_eq!(s.catalog.processes[0].id, first, "the top stays the top");
}

#[test]
fn a_renamed_process_names_its_sheet_and_the_sheet_names_the_process() {
    let s = AppState::new(Lang::En)
        .after(add("Confirmation mail", 1))
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(false),
        ))
        .after(Action::Answer(
            QuestionId::NeedsResultNow,
            Answer::Given(false),
        ))
        .after(Action::OpenSheet);
    let sheet = s.sheet.as_ref().expect("sheet open");
    assert_eq!(sheet.process.process_name, "Confirmation mail");
    let id = s.open.clone().unwrap();
    let s = s.after(cat(CatalogAction::Rename(
        id.clone(),
        "Booking mail".into(),
    )));
    assert_eq!(
        s.sheet.as_ref().unwrap().process.process_name,
        "Booking mail"
    );
    assert_eq!(s.catalog_now().get(&id).unwrap().name, "Booking mail");
}

#[test]
fn import_replaces_and_undo_puts_the_catalog_back() {
    let s = three();
    let before = s.catalog_now();
    let mut incoming = Catalog::new("Imported");
    incoming
        .processes
        .push(Process::new(ProcessId("p-x".into()), "From file", 1));
    let s = s.after(cat(CatalogAction::Import(Box::new(incoming), 1, 0)));
    assert_eq!(names(&s), ["From file"]);
    assert_eq!(
        s.open, None,
        "the open process is not in the imported catalog"
    );
    assert_eq!(s.screen, Screen::Catalog);
    let s = s.after(cat(CatalogAction::Undo));
    assert_eq!(s.catalog_now(), before);
    assert!(s.open.is_some());
}

#[test]
fn a_held_process_is_resolved_by_reload_or_keep_mine() {
    let s = three();
    let open = s.open.clone().unwrap();
    let mut catalog = s.catalog_now();
    let theirs = {
        let mut p = catalog.get(&open).unwrap().clone();
        p.name = "Changed elsewhere".into();
        p
    };
    catalog.processes[0].name = "Arrived from the other tab".into();
    let held = vec![Held {
        id: open.clone(),
        fields: vec!["name".into()],
    }];
    let s = s.after(cat(CatalogAction::Synced(catalog, held.clone())));
    assert_eq!(names(&s)[0], "Arrived from the other tab");
    assert_eq!(s.held, held);
    assert_eq!(
        names(&s)[2],
        "Nightly report",
        "the open one is not swapped"
    );
    let kept = s.clone().after(cat(CatalogAction::KeepMine(open.clone())));
    assert!(kept.held.is_empty());
    assert_eq!(names(&kept)[2], "Nightly report");
    let reloaded = s.after(cat(CatalogAction::Reload(
        open.clone(),
        Some(Box::new(theirs)),
    )));
    assert!(reloaded.held.is_empty());
    assert_eq!(names(&reloaded)[2], "Changed elsewhere");
    assert_eq!(reloaded.open, Some(open));
}

#[test]
fn storage_refused_keeps_working_in_memory() {
    let s = three().after(cat(CatalogAction::StorageRefused("SecurityError".into())));
    assert_eq!(s.keeping, Keeping::MemoryOnly("SecurityError".into()));
    let s = s.after(add("Still works", 5));
    assert_eq!(names(&s).len(), 4);
    let s = s.after(cat(CatalogAction::DismissKeeping));
    assert!(s.keeping_dismissed);
}

#[test]
fn the_catalog_is_a_place_in_the_history() {
    use modality_advisor::domain::place::Place;
    let s = three().after(Action::GoTo(Place::Catalog, None));
    assert_eq!(s.screen, Screen::Catalog);
    assert_eq!(s.place(), Place::Catalog);
    assert_eq!(Place::parse("#catalog"), Some(Place::Catalog));
}

#[test]
fn a_numbered_process_leaves_the_sheets_name_to_the_user() {
    let s = AppState::new(Lang::En)
        .after(add("", 1))
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(true),
        ))
        .after(Action::OpenSheet);
    assert_eq!(names(&s), ["Process 1"]);
    assert_eq!(
        s.sheet.as_ref().unwrap().process.process_name,
        "",
        "the sheet still asks for the process's name"
    );
}

#[test]
fn the_untouched_first_process_makes_way_for_the_first_added() {
    use modality_advisor::domain::catalog::sync::boot;
    let b = boot(None, None, "Process 1", 3, 1_000);
    let s = AppState::on_catalog(Lang::En, b.catalog, None);
    assert_eq!(names(&s), ["Process 1"]);
    let s = s.after(add("Confirmation mail", 5));
    assert_eq!(names(&s), ["Confirmation mail"]);
    // Once touched, it stays.
    let b = boot(None, None, "Process 1", 3, 1_000);
    let s = AppState::on_catalog(Lang::En, b.catalog, None)
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(true),
        ))
        .after(add("Confirmation mail", 5));
    assert_eq!(names(&s), ["Process 1", "Confirmation mail"]);
}

#[test]
fn two_deletes_in_a_row_can_both_be_undone() {
    let s = three();
    let (first, second) = (
        s.catalog.processes[0].id.clone(),
        s.catalog.processes[1].id.clone(),
    );
    let s = s
        .after(cat(CatalogAction::Delete(first)))
        .after(cat(CatalogAction::Delete(second)));
    assert_eq!(names(&s), ["Nightly report"]);
    let s = s.after(cat(CatalogAction::Undo));
    assert_eq!(names(&s), ["Process 2", "Nightly report"]);
    assert_eq!(
        s.catalog_notice,
        Some(CatalogNotice::Deleted("Place order".to_owned())),
        "the earlier delete is offered next"
    );
    let s = s.after(cat(CatalogAction::Undo));
    assert_eq!(names(&s), ["Place order", "Process 2", "Nightly report"]);
    assert_eq!(s.catalog_notice, None);
}

#[test]
fn notices_follow_a_language_switch_or_go() {
    // A download's notice is worded at display time: after switching to Japanese it reads in
    // Japanese (issue 26: an English "Downloaded…" stayed after switching to 日本語).
    let s = three().after(cat(CatalogAction::Notice(Some(CatalogNotice::Downloaded(
        "catalog.md".to_owned(),
    )))));
    let notice = s.catalog_notice.clone().expect("a notice");
    assert_eq!(notice.text(s.lang), "Downloaded catalog.md.");
    let ja = s.after(Action::SetLang(Lang::Ja));
    assert_eq!(
        ja.catalog_notice.as_ref().map(|n| n.text(ja.lang)),
        Some("catalog.md をダウンロードしました。".to_owned())
    );
    let copied = three()
        .after(cat(CatalogAction::Notice(Some(CatalogNotice::Copied(
            "Markdown".to_owned(),
        )))))
        .after(Action::SetLang(Lang::Ja));
    let text = copied
        .catalog_notice
        .map(|n| n.text(Lang::Ja))
        .expect("kept");
    assert!(
        text.contains("Markdown") && !text.contains("Copied"),
        "{text}"
    );
    // A failure's message was worded in the old language and cannot be reworded: it goes.
    let failed = three()
        .after(cat(CatalogAction::Notice(Some(CatalogNotice::Failed(
            "The clipboard is blocked.".to_owned(),
        )))))
        .after(Action::SetLang(Lang::Ja));
    assert_eq!(failed.catalog_notice, None);
}

/// "Start over" on the result forgets the open process's answers, never the catalog: every
/// process stays, the same one stays open and its questions start again (it once rebuilt the
/// state from nothing, so the catalog screen then said "No process yet").
#[test]
fn start_over_keeps_every_process_and_the_open_one() {
    let s = three()
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(true),
        ))
        .after(Action::OpenSheet);
    let open = s.open.clone();
    assert!(open.is_some());
    let s = s.after(Action::Restart);
    assert_eq!(names(&s), ["Place order", "Process 2", "Nightly report"]);
    assert_eq!(s.open, open);
    assert!(s.answers.get(QuestionId::TimeTriggered).is_none());
    assert_eq!(s.screen, Screen::Decide);
    let now = s.catalog_now();
    let p = now.processes.iter().find(|p| Some(&p.id) == open.as_ref());
    assert!(
        p.is_some_and(|p| p.answers.is_empty()),
        "the open process is undecided again"
    );
    assert!(s.sheet.is_some(), "the sheet stays");
}

#[test]
fn another_tabs_change_to_the_open_process_arrives_in_place() {
    let s = three().after(Action::FieldRefused(
        "max-attempts".into(),
        Some("refused".into()),
    ));
    let open = s.open.clone().unwrap();
    let mut catalog = s.catalog_now();
    let mut answers = modality_advisor::domain::Answers::new();
    answers.answer(QuestionId::TimeTriggered, Answer::Given(true));
    catalog.get_mut(&open).unwrap().set_answers(&answers);
    let after = s.clone().after(cat(CatalogAction::Synced(catalog, vec![])));
    assert_eq!(after.answers, answers, "the other tab's answers arrive");
    assert_eq!(after.screen, s.screen, "the screen stays");
    assert_eq!(after.refused, s.refused, "the fields' reports stay");
    assert!(after.held.is_empty());
}

#[test]
fn the_history_reopens_the_process_it_names_and_changes_nothing() {
    use modality_advisor::domain::place::Place;
    // "Alpha" decided with its sheet, "Beta" decided without one, Beta open.
    let first = three().catalog.processes[0].id.clone();
    let s = three()
        .after(cat(CatalogAction::Open(first)))
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(true),
        ))
        .after(Action::OpenSheet);
    let alpha = s.open.clone().unwrap();
    let beta = s.catalog.processes[1].id.clone();
    let s = s
        .after(cat(CatalogAction::Open(beta.clone())))
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(true),
        ));
    let before = s.catalog_now();
    // Back to "#sheet/<alpha>": Alpha's sheet, Beta untouched.
    let fragment = Place::Sheet.fragment_of(Some(&alpha));
    assert_eq!(fragment, format!("#sheet/{alpha}"));
    let (place, id) = Place::parse_with_process(&fragment).unwrap();
    let back = s.clone().after(Action::GoTo(place, id));
    assert_eq!(back.open.as_ref(), Some(&alpha));
    assert_eq!(back.place(), Place::Sheet);
    assert_eq!(back.catalog_now(), before, "nothing made or changed");
    // An old "#sheet" (no id) of a process without a sheet shows its result, makes none.
    let old = s
        .clone()
        .after(Action::GoTo(Place::parse("#sheet").unwrap(), None));
    assert_eq!(old.place(), Place::Result);
    assert!(old.sheet.is_none());
    assert_eq!(old.catalog_now(), before);
    // A process that no longer exists: the place of the open one.
    let (place, id) = Place::parse_with_process("#result/p-gone").unwrap();
    assert_eq!(id, Some(ProcessId("p-gone".into())));
    assert_eq!(s.clone().after(Action::GoTo(place, id)).open, s.open);
    assert_eq!(Place::parse_with_process("#catalog/p-1"), None);
    assert_eq!(Place::parse_with_process("#sheet/Bad Id"), None);
}

//! Two tabs, one storage (`domain::catalog::sync`): every write merges with what another tab
//! wrote since; edits to different processes, and to different fields of one process, both
//! stay; a field changed in both tabs is held back (named), never silently overwritten; and
//! where a page starts (stored catalog, an older build's session, a new process).

use modality_advisor::domain::app_state::{Action, AppState, CatalogAction, Screen};
use modality_advisor::domain::catalog::sync::{boot, sync, Held, Stored, Synced};
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::flowchart::Answer;
use modality_advisor::domain::session::Session;
use modality_advisor::domain::{Lang, QuestionId};

fn pid(s: &str) -> ProcessId {
    ProcessId(s.to_owned())
}

fn catalog(names: &[(&str, &str)]) -> Catalog {
    let mut c = Catalog::new("Reservations");
    for (id, name) in names {
        c.processes.push(Process::new(pid(id), name, 1_000));
    }
    c
}

/// Storage after a first write of `c` from a tab that found nothing stored.
fn first_write(c: &Catalog) -> Stored {
    let s = sync(None, &Stored::initial(c.clone()), c, &[], None, 2_000);
    s.write.expect("nothing stored yet: the first sync writes")
}

fn renamed(c: &Catalog, id: &str, name: &str) -> Catalog {
    let mut c = c.clone();
    c.get_mut(&pid(id)).expect("process exists").name = name.to_owned();
    c
}

fn names(c: &Catalog) -> Vec<(String, String)> {
    c.processes
        .iter()
        .map(|p| (p.id.to_string(), p.name.clone()))
        .collect()
}

/// One tab's save: merge `mine` into `stored` from `base`; returns the merge and what storage
/// holds afterwards.
fn save(stored: &Stored, base: &Stored, mine: &Catalog, open: Option<&str>) -> (Synced, Stored) {
    let open = open.map(pid);
    let r = sync(Some(stored), base, mine, &[], open.as_ref(), 5_000);
    let now = r.write.clone().unwrap_or_else(|| stored.clone());
    (r, now)
}

#[test]
fn the_first_sync_writes_everything_at_revision_one() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let s = first_write(&c);
    assert_eq!(s.revision, 1);
    assert_eq!(s.catalog.processes.len(), 2);
    assert_eq!(
        s.to_json(),
        Stored::from_json(&s.to_json()).unwrap().to_json()
    );
}

#[test]
fn edits_to_different_processes_in_two_tabs_both_stay() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    // Both tabs start from the same storage.
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let (r1, stored) = save(
        &stored,
        &tab1,
        &renamed(&c, "p-a", "Place order"),
        Some("p-a"),
    );
    assert!(r1.write.is_some());
    let (r2, stored) = save(
        &stored,
        &tab2,
        &renamed(&c, "p-b", "Confirmation mail"),
        Some("p-b"),
    );
    assert!(r2.held.is_empty(), "different processes never conflict");
    let expected = vec![
        ("p-a".to_owned(), "Place order".to_owned()),
        ("p-b".to_owned(), "Confirmation mail".to_owned()),
    ];
    assert_eq!(names(&stored.catalog), expected);
    // Tab 2 now shows tab 1's edit too.
    assert_eq!(names(&r2.catalog), expected);
}

#[test]
fn the_same_process_changed_in_two_tabs_is_held_not_overwritten() {
    let c = catalog(&[("p-a", "Order")]);
    let stored = first_write(&c);
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let (_, stored) = save(&stored, &tab1, &renamed(&c, "p-a", "Name from tab 1"), None);
    let mine2 = renamed(&c, "p-a", "Name from tab 2");
    let (r2, after) = save(&stored, &tab2, &mine2, None);
    assert_eq!(
        r2.held,
        vec![held("p-a", &["name"])],
        "the conflict names the field"
    );
    assert_eq!(
        after.catalog.get(&pid("p-a")).unwrap().name,
        "Name from tab 1",
        "storage keeps the other tab's work"
    );
    assert_eq!(
        r2.catalog.get(&pid("p-a")).unwrap().name,
        "Name from tab 2",
        "this tab keeps its own work on screen"
    );
    // While held, later saves of tab 2 leave storage alone.
    let later = renamed(&c, "p-a", "Name from tab 2, edited again");
    let r3 = sync(Some(&after), &r2.base, &later, &r2.held, None, 6_000);
    assert_eq!(r3.held, vec![held("p-a", &["name"])]);
    assert!(r3.write.is_none(), "nothing is written for a held field");
    // "Keep mine": no longer held, so the next save writes tab 2's version.
    let r4 = sync(Some(&after), &r3.base, &later, &[], None, 7_000);
    let written = r4.write.expect("keep mine writes");
    assert_eq!(
        written.catalog.get(&pid("p-a")).unwrap().name,
        "Name from tab 2, edited again"
    );
    assert!(r4.held.is_empty());
}

fn held(id: &str, fields: &[&str]) -> Held {
    Held {
        id: pid(id),
        fields: fields.iter().map(|f| (*f).to_owned()).collect(),
    }
}

fn answered(c: &Catalog, id: &str, answers: &[(QuestionId, Answer)]) -> Catalog {
    let mut c = c.clone();
    let mut a = modality_advisor::domain::Answers::new();
    for (q, v) in answers {
        a.answer(*q, *v);
    }
    c.get_mut(&pid(id)).expect("process exists").set_answers(&a);
    c
}

#[test]
fn the_open_process_takes_in_another_tabs_change_to_a_field_it_did_not_change() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let (r1, stored) = save(
        &stored,
        &tab1,
        &renamed(&c, "p-a", "Renamed in tab 1"),
        Some("p-a"),
    );
    // Tab 2 has p-a open and changed nothing: it shows tab 1's name, nothing is held.
    let r = sync(Some(&stored), &tab2, &c, &[], Some(&pid("p-a")), 6_000);
    assert!(r.held.is_empty());
    assert_eq!(r.catalog.get(&pid("p-a")).unwrap().name, "Renamed in tab 1");
    // Deleted in tab 1 while open in tab 2: held whole, still on tab 2's screen.
    let mut gone = r1.catalog.clone();
    gone.processes.retain(|p| p.id != pid("p-a"));
    let (_, stored) = save(&stored, &r1.base, &gone, None);
    let r = sync(Some(&stored), &tab2, &c, &[], Some(&pid("p-a")), 7_000);
    assert_eq!(r.held, vec![held("p-a", &[])]);
    assert_eq!(r.catalog.get(&pid("p-a")).unwrap().name, "Order");
}

#[test]
fn two_tabs_editing_different_fields_of_one_process_both_keep_their_edits() {
    let c = catalog(&[("p-a", "Order")]);
    let stored = first_write(&c);
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let (_, stored) = save(
        &stored,
        &tab1,
        &renamed(&c, "p-a", "Named in tab 1"),
        Some("p-a"),
    );
    let mine2 = answered(
        &c,
        "p-a",
        &[(QuestionId::TimeTriggered, Answer::Given(true))],
    );
    let (r2, after) = save(&stored, &tab2, &mine2, Some("p-a"));
    assert!(
        r2.held.is_empty(),
        "different fields never conflict: {:?}",
        r2.held
    );
    for p in [
        after.catalog.get(&pid("p-a")).unwrap(),
        r2.catalog.get(&pid("p-a")).unwrap(),
    ] {
        assert_eq!(p.name, "Named in tab 1", "tab 1's name is kept");
        assert_eq!(
            p.answers, mine2.processes[0].answers,
            "tab 2's answers are kept"
        );
        assert_eq!(p.outcome, mine2.processes[0].outcome);
    }
    assert_eq!(
        after.catalog.processes[0].updated_ms, 5_000,
        "stamped by the merge's write"
    );
    // Tab 1 takes tab 2's answers in on its next sync, nothing held.
    let r1 = sync(
        Some(&after),
        &stored,
        &renamed(&c, "p-a", "Named in tab 1"),
        &[],
        Some(&pid("p-a")),
        6_000,
    );
    assert!(r1.held.is_empty());
    assert!(r1.write.is_none(), "nothing new to write");
    assert_eq!(r1.catalog.processes[0].answers, mine2.processes[0].answers);
}

#[test]
fn a_held_field_stays_out_of_writes_while_the_others_are_written() {
    let c = catalog(&[("p-a", "Order")]);
    let stored = first_write(&c);
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let (_, stored) = save(&stored, &tab1, &renamed(&c, "p-a", "From tab 1"), None);
    let (r2, after) = save(&stored, &tab2, &renamed(&c, "p-a", "From tab 2"), None);
    assert_eq!(r2.held, vec![held("p-a", &["name"])]);
    // Tab 2 answers a question: written; the name stays tab 1's in storage, tab 2's on screen.
    let mine = answered(
        &renamed(&c, "p-a", "From tab 2"),
        "p-a",
        &[(QuestionId::TimeTriggered, Answer::Given(true))],
    );
    let r3 = sync(Some(&after), &r2.base, &mine, &r2.held, None, 6_000);
    assert_eq!(r3.held, vec![held("p-a", &["name"])]);
    let written = r3.write.expect("the answers are written");
    assert_eq!(written.catalog.processes[0].name, "From tab 1");
    assert_eq!(
        written.catalog.processes[0].answers,
        mine.processes[0].answers
    );
    assert_eq!(r3.catalog.processes[0].name, "From tab 2");
    // Tab 1 types the same name as tab 2: nothing is left to hold.
    let (_, stored) = save(
        &written,
        &r3.base,
        &renamed(
            &answered(
                &c,
                "p-a",
                &[(QuestionId::TimeTriggered, Answer::Given(true))],
            ),
            "p-a",
            "From tab 2",
        ),
        None,
    );
    let r4 = sync(Some(&stored), &r3.base, &mine, &r3.held, None, 7_000);
    assert!(r4.held.is_empty(), "{:?}", r4.held);
}

#[test]
fn a_delete_here_loses_to_an_edit_elsewhere_and_adds_merge() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let (_, stored) = save(&stored, &tab1, &renamed(&c, "p-a", "Edited"), None);
    let mut mine = c.clone();
    mine.processes.retain(|p| p.id != pid("p-a"));
    mine.processes
        .push(Process::new(pid("p-c"), "Report", 3_000));
    let (r, after) = save(&stored, &tab2, &mine, None);
    assert_eq!(
        names(&after.catalog),
        vec![
            ("p-a".to_owned(), "Edited".to_owned()),
            ("p-b".to_owned(), "Mail".to_owned()),
            ("p-c".to_owned(), "Report".to_owned()),
        ],
        "the edited process comes back; the new one is added"
    );
    assert_eq!(names(&r.catalog), names(&after.catalog));
}

#[test]
fn a_reorder_here_and_an_add_elsewhere_both_stay() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    let (tab1, tab2) = (stored.clone(), stored.clone());
    let mut added = c.clone();
    added
        .processes
        .push(Process::new(pid("p-c"), "Report", 3_000));
    let (_, stored) = save(&stored, &tab1, &added, None);
    let mut moved = c.clone();
    moved.processes.reverse();
    let (_, after) = save(&stored, &tab2, &moved, None);
    let ids: Vec<String> = after
        .catalog
        .processes
        .iter()
        .map(|p| p.id.to_string())
        .collect();
    assert_eq!(ids, ["p-b", "p-a", "p-c"]);
}

#[test]
fn a_write_lost_to_a_simultaneous_write_is_written_again() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    // Both tabs read revision 1 and write revision 2 at the same instant: tab 2's write
    // lands last and does not hold tab 1's edit.
    let (r1, _) = save(&stored, &stored, &renamed(&c, "p-a", "Tab 1's edit"), None);
    let (_, storage) = save(&stored, &stored, &renamed(&c, "p-b", "Tab 2's edit"), None);
    // Tab 1 hears of tab 2's write and merges again: its edit is written back, tab 2's stays.
    let mine1 = r1.catalog.clone();
    let again = sync(Some(&storage), &r1.base, &mine1, &[], None, 9_000);
    let written = again.write.expect("tab 1's lost edit is written again");
    assert_eq!(
        names(&written.catalog),
        vec![
            ("p-a".to_owned(), "Tab 1's edit".to_owned()),
            ("p-b".to_owned(), "Tab 2's edit".to_owned()),
        ]
    );
}

#[test]
fn only_changed_processes_get_the_new_edit_time() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    let (r, _) = save(&stored, &stored, &renamed(&c, "p-a", "Edited"), None);
    assert_eq!(r.catalog.get(&pid("p-a")).unwrap().updated_ms, 5_000);
    assert_eq!(r.catalog.get(&pid("p-b")).unwrap().updated_ms, 1_000);
    // Nothing changed: nothing written.
    let again = sync(r.write.as_ref(), &r.base, &r.catalog, &[], None, 9_000);
    assert!(again.write.is_none());
    assert_eq!(again.catalog, r.catalog);
}

#[test]
fn unreadable_storage_is_never_read_as_a_catalog() {
    for text in ["", "{", "null", r#"{"store_version":99}"#, "[1,2]"] {
        assert!(Stored::from_json(text).is_none(), "{text:?}");
    }
    let b = boot(Some("{ damaged"), None, "Process 1", 7, 1_000);
    assert!(
        b.set_aside,
        "a stored catalog that does not read is set aside, not overwritten"
    );
    assert_eq!(b.catalog.processes.len(), 1);
    assert_eq!(b.catalog.processes[0].name, "Process 1");
}

#[test]
fn boot_reads_the_stored_catalog_first() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let stored = first_write(&c);
    let b = boot(
        Some(&stored.to_json()),
        Some("ignored"),
        "Process 1",
        7,
        1_000,
    );
    assert_eq!(b.catalog, stored.catalog);
    assert_eq!(b.base, stored);
    assert!(!b.migrated && !b.set_aside);
    let s = AppState::on_catalog(Lang::En, b.catalog, None);
    assert_eq!(
        s.screen,
        Screen::Catalog,
        "more than one process: the catalog is home"
    );
}

/// A session exactly as builds before the catalog stored it (key `modality-advisor.session`):
/// two answers deciding "put a job on a queue", no sheet, the simulator on a scenario.
const OLD_SESSION: &str = r#"{"version":1,"answers":[{"question":"time-triggered","answer":false},{"question":"needs-result-now","answer":false}],"sheet":null,"on_sheet":false,"on_simulate":false,"sim":{"preset":"retry-dead-letter","variant":"transient","seed":42,"jobs":100000,"custom":null}}"#;

#[test]
fn an_older_builds_session_becomes_a_one_process_catalog() {
    let b = boot(None, Some(OLD_SESSION), "Process 1", 7, 1_000);
    assert!(b.migrated);
    assert_eq!(b.catalog.processes.len(), 1);
    let p = &b.catalog.processes[0];
    let session = Session::from_json(OLD_SESSION).expect("the sample is today's format");
    assert_eq!(p.answers, session.answers, "no answer lost");
    assert_eq!(p.sim, session.sim, "the simulator's choices kept");
    assert_eq!(p.name, "Process 1");
    // The page opens on that process's questions, answers in place.
    let s = AppState::on_catalog(Lang::En, b.catalog.clone(), None);
    assert_eq!(s.screen, Screen::Decide);
    assert_eq!(s.answers, session.answers());
    assert_eq!(s.sim.seed, 42);
    // The first save writes it.
    let r = sync(None, &b.base, &s.catalog_now(), &[], None, 2_000);
    assert!(r.write.is_some());
}

#[test]
fn a_changed_open_process_reaches_storage_through_the_state() {
    let c = catalog(&[("p-a", "Order"), ("p-b", "Mail")]);
    let s = AppState::on_catalog(Lang::En, c, Some(&pid("p-b")));
    assert_eq!(s.open, Some(pid("p-b")));
    let s = s.after(Action::Answer(
        QuestionId::TimeTriggered,
        Answer::Given(true),
    ));
    let now = s.catalog_now();
    let p = now.get(&pid("p-b")).unwrap();
    assert_eq!(p.answers.len(), 1);
    assert_eq!(p.outcome.map(|o| o.id()), Some("batch"));
    // Switching processes keeps the work of the one left.
    let s = s.after(Action::Catalog(CatalogAction::Open(pid("p-a"))));
    assert!(s.answers.answered().next().is_none());
    assert_eq!(s.catalog.get(&pid("p-b")).unwrap().answers.len(), 1);
}

#[test]
fn an_imported_process_keeps_the_files_times() {
    let c = catalog(&[("p-a", "Order")]);
    let stored = first_write(&c);
    let mut imported = c.clone();
    let mut from_file = Process::new(pid("p-a"), "Order, from the file", 100);
    from_file.updated_ms = 200;
    imported.processes[0] = from_file;
    imported
        .processes
        .push(Process::new(pid("p-b"), "Mail, from the file", 300));
    let (r, after) = save(&stored, &stored, &imported, None);
    assert!(r.write.is_some());
    assert_eq!(after.catalog.get(&pid("p-a")).unwrap().updated_ms, 200);
    assert_eq!(after.catalog.get(&pid("p-b")).unwrap().updated_ms, 300);
    assert_eq!(
        after.catalog, imported,
        "the catalog file round-trips through storage"
    );
}

#[test]
fn a_held_field_is_named_as_the_form_labels_it() {
    use modality_advisor::domain::catalog::field_merge::field_label;
    assert_eq!(field_label("sheet.failure.notify", Lang::En), "Notify");
    assert_eq!(field_label("sheet.failure.notify", Lang::Ja), "通知先");
    assert_eq!(
        field_label("sheet.process.process_name", Lang::En),
        "Process name"
    );
    assert_eq!(field_label("name", Lang::En), "Process name");
    assert_eq!(field_label("answers", Lang::Ja), "回答");
}

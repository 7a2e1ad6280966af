//! A share link opened in the app (`domain::app_state`, `ShareAction`), through the page's
//! path: the fragment read by the export worker's reader (`ReadAs::ShareLink`), crossing as
//! the worker's reply, taken in by the page's reader, shown read-only, saved on request —
//! never over the user's own work.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::app_state::{
    Action, AppState, CatalogAction, CatalogNotice, LinkStatus, PanelScope, Screen, ShareAction,
};
use modality_advisor::domain::catalog::sync::boot;
use modality_advisor::domain::catalog::{Catalog, MAX_PROCESSES};
use modality_advisor::domain::export::read::{result_to_json, ReadAs, ReadDone, ReadRequest};
use modality_advisor::domain::flowchart::Answer;
use modality_advisor::domain::share::link::{app_url, encode};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::{Lang, QuestionId};

/// What the page dispatches for a fragment: the worker reads it, the page reads the reply.
fn opened(fragment: &str) -> ShareAction {
    let request = ReadRequest {
        id: 1,
        lang: Lang::En,
        text: fragment.to_owned(),
        read: ReadAs::ShareLink,
    };
    let reply = result_to_json(&request.run());
    match ReadDone::from_reply(&reply).expect("the page reads the worker's reply") {
        Ok(ReadDone::Shared(share)) => ShareAction::Opened(share),
        Ok(ReadDone::Refused { en, ja }) => ShareAction::Failed { en, ja },
        other => panic!("unexpected reply {other:?}"),
    }
}

/// A first visit: the untouched "Process 1" a fresh page starts with.
fn fresh() -> AppState {
    let b = boot(None, None, "Process 1", 7, 1_000);
    AppState::on_catalog(Lang::En, b.catalog, None)
}

fn share_of_process(i: usize) -> (Share, String) {
    let p = example_catalog().processes[i].clone();
    let share = Share {
        lang: Lang::Ja,
        content: Shared::Process(Box::new(p)),
    };
    let url = app_url("http://127.0.0.1:8080/", &share);
    let fragment = url
        .split_once('#')
        .map(|(_, f)| format!("#{f}"))
        .unwrap_or_default();
    (share, fragment)
}

#[test]
fn a_link_opens_read_only_and_save_adds_it_in_place_of_the_untouched_first_process() {
    let (share, fragment) = share_of_process(2);
    let s = fresh().after(Action::Share(ShareAction::Opening));
    assert_eq!(s.link, LinkStatus::Opening);
    let s = s.after(Action::Share(opened(&fragment)));
    assert_eq!(s.link, LinkStatus::Idle);
    assert_eq!(s.shared.as_deref(), Some(&share));
    // Shown, not taken in: the user's catalog is as it was.
    assert_eq!(s.catalog_now(), fresh().catalog_now());
    let s = s.after(Action::Share(ShareAction::Save {
        seed: 99,
        now_ms: 5_000,
    }));
    assert!(s.shared.is_none());
    assert_eq!(s.screen, Screen::Catalog);
    let c = s.catalog_now();
    assert_eq!(c.processes.len(), 1, "the untouched first process made way");
    assert_eq!(c.processes[0], *share_processes(&share)[0]);
    assert_eq!(s.catalog_notice, Some(CatalogNotice::Saved(1, 0)));
    // Undo puts the catalog back as it was.
    let s = s.after(Action::Catalog(CatalogAction::Undo));
    assert_eq!(s.catalog_now().processes.len(), 1);
    assert_eq!(s.catalog_now().processes[0].name, "Process 1");
}

fn share_processes(s: &Share) -> Vec<&modality_advisor::domain::catalog::Process> {
    s.processes().iter().collect()
}

#[test]
fn saving_never_overwrites_the_users_own_process_with_the_same_id() {
    let (share, fragment) = share_of_process(1);
    // The user has the same process (same id), changed since.
    let mut mine = example_catalog();
    mine.processes[1].name = "Charge the card (my version)".into();
    let s = AppState::on_catalog(Lang::En, mine.clone(), None);
    let s = s
        .after(Action::Share(opened(&fragment)))
        .after(Action::Share(ShareAction::Save {
            seed: 42,
            now_ms: 9,
        }));
    let c = s.catalog_now();
    assert_eq!(c.processes.len(), mine.processes.len() + 1);
    assert_eq!(c.processes[1].name, "Charge the card (my version)");
    let added = c.processes.last().expect("added");
    assert_ne!(
        added.id,
        share.processes()[0].id,
        "a new id, the user's process kept"
    );
    assert_eq!(added.name, share.processes()[0].name);
    // Saving the same link again while the user has it unchanged adds nothing.
    let again = AppState::on_catalog(Lang::En, example_catalog(), None)
        .after(Action::Share(opened(&fragment)))
        .after(Action::Share(ShareAction::Save { seed: 1, now_ms: 9 }));
    assert_eq!(again.catalog_now(), example_catalog());
    assert_eq!(again.catalog_notice, Some(CatalogNotice::Saved(0, 1)));
}

#[test]
fn a_shared_catalog_is_saved_whole_and_names_an_unnamed_catalog() {
    let share = Share {
        lang: Lang::En,
        content: Shared::Catalog(example_catalog()),
    };
    let s = fresh()
        .after(Action::Share(opened(&encode(&share))))
        .after(Action::Share(ShareAction::Save { seed: 3, now_ms: 9 }));
    assert_eq!(s.catalog_now(), example_catalog());
    assert_eq!(
        s.catalog_notice,
        Some(CatalogNotice::Saved(example_catalog().processes.len(), 0))
    );
}

#[test]
fn a_save_past_the_catalogs_limit_changes_nothing_and_says_so() {
    let mut big = Catalog::new("Big");
    for i in 0..MAX_PROCESSES {
        let mut p = example_catalog().processes[0].clone();
        p.id = modality_advisor::domain::catalog::ProcessId(format!("p-{i}"));
        big.processes.push(p);
    }
    let (_, fragment) = share_of_process(3);
    let s =
        AppState::on_catalog(Lang::En, big.clone(), None).after(Action::Share(opened(&fragment)));
    let s = s.after(Action::Share(ShareAction::Save { seed: 3, now_ms: 9 }));
    assert_eq!(s.catalog_now(), big);
    assert!(s.shared.is_some(), "the shared view stays open");
    let notice = s.catalog_notice.expect("a notice");
    assert!(notice.is_error());
    assert!(
        notice.text(Lang::En).contains("500"),
        "{}",
        notice.text(Lang::En)
    );
}

#[test]
fn a_tampered_link_says_why_in_both_languages_and_changes_nothing() {
    let (_, fragment) = share_of_process(0);
    let mut tampered = fragment.clone();
    tampered.truncate(fragment.len() - 40);
    let s = fresh().after(Action::Share(ShareAction::Opening));
    let s = s.after(Action::Share(opened(&tampered)));
    assert!(s.shared.is_none());
    let en = s.link.message(Lang::En).expect("a message").to_owned();
    let ja = s.link.message(Lang::Ja).expect("a message").to_owned();
    assert!(en.contains("cut or changed"), "{en}");
    assert!(ja.contains("リンク"), "{ja}");
    assert_eq!(s.catalog_now(), fresh().catalog_now());
    let s = s.after(Action::Share(ShareAction::Dismiss));
    assert_eq!(s.link, LinkStatus::Idle);
}

#[test]
fn closing_the_shared_view_keeps_nothing_of_it() {
    let (_, fragment) = share_of_process(4);
    let s = fresh()
        .after(Action::Answer(
            QuestionId::TimeTriggered,
            Answer::Given(true),
        ))
        .after(Action::Share(opened(&fragment)))
        .after(Action::Share(ShareAction::Close));
    assert!(s.shared.is_none());
    assert_eq!(s.catalog_now().processes.len(), 1);
    assert_eq!(
        s.answers.get(QuestionId::TimeTriggered).map(|a| a.value()),
        Some(true),
        "the user's own answers are untouched"
    );
}

#[test]
fn the_share_button_offers_the_open_process_or_the_catalog() {
    let s = AppState::on_catalog(Lang::En, example_catalog(), None);
    assert_eq!(s.screen, Screen::Catalog);
    assert_eq!(s.share_scope(), PanelScope::Catalog);
    let id = example_catalog().processes[2].id.clone();
    let s = s.after(Action::Catalog(CatalogAction::Open(id.clone())));
    assert_eq!(s.share_scope(), PanelScope::Process);
    let share = s.share_of(PanelScope::Process).expect("a process is open");
    assert_eq!(share.processes()[0].id, id);
    let s = s.after(Action::Share(ShareAction::Panel(Some(PanelScope::Process))));
    assert_eq!(s.share_panel, Some(PanelScope::Process));
    let whole = s.share_of(PanelScope::Catalog).expect("always");
    assert_eq!(whole.processes().len(), example_catalog().processes.len());
}

#[test]
fn the_share_panel_closes_when_what_it_shares_is_no_longer_open() {
    // A process's panel stayed open on the catalog screen ("Share “Process 1”" above the
    // catalog) and on every process opened after it.
    let ids: Vec<_> = example_catalog()
        .processes
        .iter()
        .map(|p| p.id.clone())
        .collect();
    let s = AppState::on_catalog(Lang::En, example_catalog(), None)
        .after(Action::Catalog(CatalogAction::Open(ids[2].clone())))
        .after(Action::Share(ShareAction::Panel(Some(PanelScope::Process))));
    assert_eq!(s.share_panel, Some(PanelScope::Process));
    // Back to the catalog: closed.
    let back = s.clone().after(Action::Catalog(CatalogAction::Show));
    assert_eq!(back.screen, Screen::Catalog);
    assert_eq!(back.share_panel, None);
    // Another process: closed.
    let other = s
        .clone()
        .after(Action::Catalog(CatalogAction::Open(ids[3].clone())));
    assert_eq!(other.share_panel, None);
    // The same process on another of its screens: kept (it shares the same process).
    let sim = s.after(Action::ShowSimulate);
    assert_eq!(sim.share_panel, Some(PanelScope::Process));
    // The catalog's panel on the catalog screen: kept while the catalog is shown.
    let cat = back
        .after(Action::Share(ShareAction::Panel(Some(PanelScope::Catalog))))
        .after(Action::SetLang(Lang::Ja));
    assert_eq!(cat.share_panel, Some(PanelScope::Catalog));
}

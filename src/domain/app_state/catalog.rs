//! The catalog's part of the state machine: which process is open, adding, opening,
//! duplicating, renaming, deleting (with undo), reordering and importing processes, and taking
//! in what the storage merge decided ([`crate::domain::catalog::sync`]).
//!
//! The open process's work lives in the state's own fields (answers, sheet, simulator
//! choices) while it is open — the wizard, the sheet and the simulator work on those — and is
//! written back into the catalog ([`AppState::catalog_now`]) whenever the catalog is saved or
//! another process is opened.

use super::{AppState, Screen};
use crate::domain::bidi::isolate;
use crate::domain::catalog::sync::Held;
use crate::domain::catalog::system::{Link, LinkError};
use crate::domain::catalog::{Catalog, Process, ProcessId, MAX_NAME_CHARS};
use crate::domain::flowchart::evaluate;
use crate::domain::session::SimChoice;
use crate::domain::sheet::prefill::relocalize;
use crate::domain::Lang;
use crate::text::t;

/// How many deletes and imports can be undone, newest first.
pub const UNDO_DEPTH: usize = 20;

/// Makes `undo` (with its `notice`) the one the Undo button undoes; the one before it, if any,
/// waits its turn (so two deletes in a row can both be undone).
pub(super) fn remember_undo(s: &mut AppState, undo: CatalogUndo, notice: CatalogNotice) {
    if let (Some(prev), Some(prev_notice)) = (s.undo_catalog.take(), s.catalog_notice.take()) {
        if prev_notice.can_undo() {
            s.older_undos.push((prev, prev_notice));
            if s.older_undos.len() > UNDO_DEPTH {
                s.older_undos.remove(0);
            }
        }
    }
    s.undo_catalog = Some(Box::new(undo));
    s.catalog_notice = Some(notice);
}

/// A message about the catalog, worded at display time ([`CatalogNotice::text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogNotice {
    /// A process was deleted (its name); it can be put back.
    Deleted(String),
    /// A catalog file was imported (processes added, replaced); the catalog before can be
    /// put back.
    Imported(usize, usize),
    /// A shared process or catalog was saved into the catalog: processes added, and those
    /// already there unchanged (not added twice); the catalog before can be put back.
    Saved(usize, usize),
    /// A rename was refused: the name is empty or longer than [`MAX_NAME_CHARS`].
    NameRefused,
    /// A link was refused (worded in the page's language when shown).
    LinkRefused(LinkError),
    /// Reading or exporting failed: the message, already in the page's language (a language
    /// switch clears it: it cannot be reworded).
    Failed(String),
    /// An export was copied to the clipboard in this format (its label, e.g. "Markdown").
    Copied(String),
    /// An export was downloaded as this file name.
    Downloaded(String),
}

impl CatalogNotice {
    /// The notice in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            CatalogNotice::Deleted(name) => {
                t!("catalog-ui.deleted", locale = l, name = isolate(name)).into_owned()
            }
            CatalogNotice::Imported(added, 0) => {
                t!("catalog-ui.imported-added", locale = l, added = added).into_owned()
            }
            CatalogNotice::Imported(added, replaced) => t!(
                "catalog-ui.imported",
                locale = l,
                added = added,
                replaced = replaced
            )
            .into_owned(),
            CatalogNotice::Saved(added, already) => t!(
                "share-ui.saved",
                locale = l,
                added = added,
                already = already
            )
            .into_owned(),
            CatalogNotice::NameRefused => {
                t!("catalog-ui.name-refused", locale = l, max = MAX_NAME_CHARS).into_owned()
            }
            CatalogNotice::LinkRefused(e) => e.message(lang),
            CatalogNotice::Copied(format) => {
                t!("catalog-io.copied", locale = l, format = format).into_owned()
            }
            CatalogNotice::Downloaded(file) => {
                t!("catalog-io.downloaded", locale = l, file = file).into_owned()
            }
            CatalogNotice::Failed(m) => m.clone(),
        }
    }

    /// Whether the notice reports a failure (shown as an error).
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            CatalogNotice::Failed(_) | CatalogNotice::NameRefused | CatalogNotice::LinkRefused(_)
        )
    }

    /// Whether the notice can be undone (a delete, an import).
    pub fn can_undo(&self) -> bool {
        matches!(
            self,
            CatalogNotice::Deleted(_) | CatalogNotice::Imported(..) | CatalogNotice::Saved(..)
        )
    }
}

/// Whether the page's storage keeps the catalog.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Keeping {
    /// Saved in the browser's local storage after every change.
    #[default]
    Stored,
    /// Storage refused (blocked in a cross-site frame, a private window, full): the catalog
    /// lives in memory only and is lost when the page closes. The browser's own words.
    MemoryOnly(String),
}

/// The catalog's actions ([`super::Action::Catalog`]).
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogAction {
    /// Start a new process and open the questions for it. `seed` makes its id (the caller's
    /// random number), `now_ms` its creation time (Unix ms), `name` its name (empty: "Process
    /// N").
    Add {
        /// The id seed ([`Catalog::fresh_id`]).
        seed: u64,
        /// Creation time, Unix milliseconds.
        now_ms: u64,
        /// The name typed (may be empty).
        name: String,
    },
    /// Open a process: its sheet when it has one for its decision, else its questions.
    Open(ProcessId),
    /// Copy a process (new id from `seed`, created at `now_ms`), placed after it.
    Duplicate {
        /// The process copied.
        id: ProcessId,
        /// The id seed of the copy.
        seed: u64,
        /// Creation time, Unix milliseconds.
        now_ms: u64,
    },
    /// Rename a process (trimmed; 1 ..= [`MAX_NAME_CHARS`] characters, else refused). The
    /// sheet's process name follows.
    Rename(ProcessId, String),
    /// Rename the catalog (the system; at most [`MAX_NAME_CHARS`] characters).
    RenameCatalog(String),
    /// Delete a process (can be undone until the next delete or import).
    Delete(ProcessId),
    /// Move a process one place up (`true`) or down.
    Move(ProcessId, bool),
    /// Put back what the last delete or import removed or replaced.
    Undo,
    /// Show the catalog screen.
    Show,
    /// Hide the catalog's notice.
    Dismiss,
    /// What the storage merge decided: the catalog to show and the processes held back.
    Synced(Catalog, Vec<Held>),
    /// Resolve a held process by taking storage's version (`None`: another tab deleted it).
    Reload(ProcessId, Option<Box<Process>>),
    /// Resolve a held process by keeping this tab's version (written by the next save).
    KeepMine(ProcessId),
    /// Storage refused: keep working in memory (the browser's words).
    StorageRefused(String),
    /// Hide the "nothing will be kept" notice (it does not come back for this page).
    DismissKeeping,
    /// Replace the catalog with `catalog` (an import already checked and merged, with the
    /// counts of processes added and replaced); the catalog before can be put back.
    Import(Box<Catalog>, usize, usize),
    /// Show a message about the catalog (`None` hides it).
    Notice(Option<CatalogNotice>),
    /// Add a link to a process (what triggers it or what it triggers); a refusal is the
    /// catalog's notice ([`Catalog::add_link`]).
    Link(ProcessId, Link),
    /// Remove the process's link at this index.
    Unlink(ProcessId, usize),
    /// The process's audit record has been read: it is dropped ([`Process::audit`]), with
    /// the sheet's notice and the catalog row's mark.
    Reviewed(ProcessId),
}

impl AppState {
    /// The catalog with the open process's current work written into it (answers, outcome,
    /// sheet, simulator choices; its name follows the sheet's process name when that is
    /// filled). What is saved and exported.
    pub fn catalog_now(&self) -> Catalog {
        let mut c = self.catalog.clone();
        if let Some(p) = self.open.as_ref().and_then(|id| c.get_mut(id)) {
            p.set_answers(&self.answers);
            p.sheet = self.sheet.clone();
            p.sim = (self.sim != SimChoice::default()).then(|| self.sim.clone());
            if let Some(name) = self
                .sheet
                .as_ref()
                .map(|s| s.process.process_name.trim())
                .filter(|n| !n.is_empty() && n.chars().count() <= MAX_NAME_CHARS)
            {
                p.name = name.to_owned();
            }
        }
        c
    }

    /// The open process as the catalog has it now ([`AppState::catalog_now`]).
    pub fn open_process(&self) -> Option<Process> {
        let id = self.open.as_ref()?;
        self.catalog_now().get(id).cloned()
    }

    /// A state in `lang` on a catalog (from storage or a migration), with `open` open when it
    /// exists (else the first process). The catalog screen is the home once there is more
    /// than one process; with one, its questions (or its sheet) open as before.
    pub fn on_catalog(lang: Lang, catalog: Catalog, open: Option<&ProcessId>) -> AppState {
        let mut s = AppState::new(lang);
        let first = catalog.processes.first().map(|p| p.id.clone());
        let open = open
            .filter(|id| catalog.get(id).is_some())
            .cloned()
            .or(first);
        let many = catalog.processes.len() > 1;
        s.catalog = catalog;
        if let Some(id) = open {
            load(&mut s, &id);
        }
        if many || s.open.is_none() {
            s.screen = Screen::Catalog;
        }
        s
    }
}

/// Writes the open process's work into the catalog (before another opens or the catalog
/// changes around it).
pub(super) fn flush(s: &mut AppState) {
    s.catalog = s.catalog_now();
}

/// Makes `id` the open process: its work into the state's fields, the questions (or its
/// sheet) on screen.
pub(super) fn load(s: &mut AppState, id: &ProcessId) {
    let Some(p) = s.catalog.get(id).cloned() else {
        return;
    };
    s.open = Some(id.clone());
    s.answers = p.answers();
    s.sheet = p.sheet.as_ref().map(|sheet| relocalize(sheet, s.lang));
    s.sim = p.sim.unwrap_or_default();
    s.editing = None;
    s.dropped.clear();
    s.before_load = None;
    s.notice = None;
    s.refused.clear();
    let decided = evaluate(&s.answers).outcome().is_some();
    s.screen = if decided && s.sheet.is_some() {
        Screen::Sheet
    } else {
        Screen::Decide
    };
}

/// The name of the `n`th process in `lang` ("Process 3" / "処理 3").
fn default_name(lang: Lang, n: usize) -> String {
    t!("catalog-ui.default-name", locale = lang.code(), n = n).into_owned()
}

/// Whether `name` is a numbered name the catalog gives a process nobody named ("Process 3",
/// "処理 3"; [`default_name`] in either language).
pub(super) fn is_numbered_name(name: &str) -> bool {
    Lang::ALL.iter().any(|&lang| {
        let probe = default_name(lang, 0);
        let prefix = probe.trim_end_matches('0');
        name.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// The process a first visit starts with, never touched, makes way for the first one the
/// user adds or saves (it would only be an empty row).
pub(super) fn drop_untouched(s: &mut AppState) {
    if let [only] = s.catalog.processes.as_slice() {
        if only.answers.is_empty() && only.sheet.is_none() && is_numbered_name(&only.name) {
            s.catalog.processes.clear();
            s.open = None;
        }
    }
}

fn valid_name(name: &str) -> Option<String> {
    let name = name.trim();
    (!name.is_empty() && name.chars().count() <= MAX_NAME_CHARS).then(|| name.to_owned())
}

/// One catalog action on `s`.
pub(super) fn reduce_catalog(s: &mut AppState, action: CatalogAction) {
    match action {
        CatalogAction::Add { seed, now_ms, name } => {
            flush(s);
            drop_untouched(s);
            let id = s.catalog.fresh_id(seed);
            let name = valid_name(&name)
                .unwrap_or_else(|| default_name(s.lang, s.catalog.processes.len() + 1));
            s.catalog
                .processes
                .push(Process::new(id.clone(), &name, now_ms));
            load(s, &id);
            s.catalog_notice = None;
        }
        CatalogAction::Open(id) => {
            flush(s);
            load(s, &id);
        }
        CatalogAction::Duplicate { id, seed, now_ms } => {
            flush(s);
            if let Some(at) = s.catalog.position(&id) {
                let mut copy = s.catalog.processes[at].clone();
                copy.id = s.catalog.fresh_id(seed);
                copy.name = t!(
                    "catalog-ui.copy-name",
                    locale = s.lang.code(),
                    name = copy.name
                )
                .chars()
                .take(MAX_NAME_CHARS)
                .collect();
                if let Some(sheet) = copy.sheet.as_mut() {
                    sheet.process.process_name = copy.name.clone();
                }
                copy.created_ms = now_ms;
                copy.updated_ms = now_ms;
                s.catalog.processes.insert(at + 1, copy);
            }
        }
        CatalogAction::Rename(id, name) => rename(s, &id, &name),
        CatalogAction::RenameCatalog(name) => {
            let name = name.trim();
            if name.chars().count() <= MAX_NAME_CHARS {
                s.catalog.name = name.to_owned();
            } else {
                s.catalog_notice = Some(CatalogNotice::NameRefused);
            }
        }
        CatalogAction::Delete(id) => delete(s, &id),
        CatalogAction::Link(id, link) => {
            s.catalog_notice = match s.catalog.add_link(&id, link) {
                Ok(()) => None,
                Err(e) => Some(CatalogNotice::LinkRefused(e)),
            };
        }
        CatalogAction::Unlink(id, index) => s.catalog.remove_link(&id, index),
        CatalogAction::Reviewed(id) => {
            if let Some(p) = s.catalog.get_mut(&id) {
                p.audit = None;
            }
        }
        CatalogAction::Move(id, up) => {
            if let Some(at) = s.catalog.position(&id) {
                let to = if up { at.checked_sub(1) } else { Some(at + 1) };
                if let Some(to) = to.filter(|t| *t < s.catalog.processes.len()) {
                    s.catalog.processes.swap(at, to);
                }
            }
        }
        CatalogAction::Undo => undo(s),
        CatalogAction::Show => {
            flush(s);
            s.screen = Screen::Catalog;
        }
        CatalogAction::Dismiss => s.catalog_notice = None,
        CatalogAction::Synced(catalog, held) => synced(s, catalog, held),
        CatalogAction::Reload(id, theirs) => {
            s.held.retain(|h| h.id != id);
            let at = s.catalog.position(&id);
            match (at, theirs) {
                (Some(at), Some(p)) => s.catalog.processes[at] = *p,
                (None, Some(p)) => s.catalog.processes.push(*p),
                (Some(at), None) => {
                    s.catalog.processes.remove(at);
                }
                (None, None) => {}
            }
            if s.open.as_ref() == Some(&id) {
                if s.catalog.get(&id).is_some() {
                    let screen = s.screen;
                    load(s, &id);
                    s.screen = screen;
                } else {
                    s.open = None;
                    s.screen = Screen::Catalog;
                }
            }
        }
        CatalogAction::KeepMine(id) => s.held.retain(|h| h.id != id),
        CatalogAction::StorageRefused(why) => s.keeping = Keeping::MemoryOnly(why),
        CatalogAction::DismissKeeping => s.keeping_dismissed = true,
        CatalogAction::Import(catalog, added, replaced) => {
            flush(s);
            let before = std::mem::replace(&mut s.catalog, *catalog);
            let open = s.open.clone();
            reopen(s);
            s.screen = Screen::Catalog;
            remember_undo(
                s,
                CatalogUndo::Imported(before, open),
                CatalogNotice::Imported(added, replaced),
            );
        }
        CatalogAction::Notice(n) => s.catalog_notice = n,
    }
}

/// After the catalog changed under the open process (an import, an undo): keep it open when
/// it is still there (its work reloaded), else none is open.
fn reopen(s: &mut AppState) {
    match s.open.clone() {
        Some(id) if s.catalog.get(&id).is_some() => {
            let screen = s.screen;
            load(s, &id);
            s.screen = screen;
        }
        _ => s.open = None,
    }
}

fn rename(s: &mut AppState, id: &ProcessId, name: &str) {
    let Some(name) = valid_name(name) else {
        s.catalog_notice = Some(CatalogNotice::NameRefused);
        return;
    };
    flush(s);
    if let Some(p) = s.catalog.get_mut(id) {
        p.name = name.clone();
        if let Some(sheet) = p.sheet.as_mut() {
            sheet.process.process_name = name.clone();
        }
    }
    if s.open.as_ref() == Some(id) {
        if let Some(sheet) = s.sheet.as_mut() {
            sheet.process.process_name = name;
        }
    }
    if s.catalog_notice == Some(CatalogNotice::NameRefused) {
        s.catalog_notice = None;
    }
}

fn delete(s: &mut AppState, id: &ProcessId) {
    flush(s);
    let Some(at) = s.catalog.position(id) else {
        return;
    };
    let gone = s.catalog.processes.remove(at);
    let was_open = s.open.as_ref() == Some(id);
    s.held.retain(|h| h.id != *id);
    if was_open {
        s.open = None;
        s.screen = Screen::Catalog;
    }
    let notice = CatalogNotice::Deleted(gone.name.clone());
    remember_undo(
        s,
        CatalogUndo::Deleted {
            at,
            process: Box::new(gone),
            was_open,
        },
        notice,
    );
}

/// What the last delete or import can put back.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogUndo {
    /// A deleted process and where it stood.
    Deleted {
        /// Its place in the order.
        at: usize,
        /// The process as it was.
        process: Box<Process>,
        /// Whether it was open.
        was_open: bool,
    },
    /// The catalog an import replaced, and the process open then.
    Imported(Catalog, Option<ProcessId>),
}

/// Puts back what the last delete or import removed or replaced. A deleted process returns
/// to its place (unless its id came back meanwhile); an import is undone whole (processes
/// another tab added meanwhile come back through storage: the merge keeps them).
fn undo(s: &mut AppState) {
    let Some(undo) = s.undo_catalog.take() else {
        return;
    };
    flush(s);
    match *undo {
        CatalogUndo::Deleted {
            at,
            process,
            was_open,
        } => {
            if s.catalog.get(&process.id).is_none() {
                let id = process.id.clone();
                let at = at.min(s.catalog.processes.len());
                s.catalog.processes.insert(at, *process);
                if was_open && s.open.is_none() {
                    load(s, &id);
                    s.screen = Screen::Catalog;
                }
            }
        }
        CatalogUndo::Imported(before, open) => {
            s.catalog = before;
            s.open = open;
            reopen(s);
        }
    }
    // The delete or import before it can be undone next.
    match s.older_undos.pop() {
        Some((undo, notice)) => {
            s.undo_catalog = Some(undo);
            s.catalog_notice = Some(notice);
        }
        None => s.catalog_notice = None,
    }
}

/// Takes in what the storage merge decided: another tab's work on other processes, the
/// processes held back. When the merge brought another tab's change to a field of the open
/// process (one this tab did not change too: those are held), the open process's work takes
/// it in place — the screen, the fields' reports and the undo of a loaded sheet stay.
fn synced(s: &mut AppState, catalog: Catalog, held: Vec<Held>) {
    let open_before = s.open_process();
    s.catalog = catalog;
    s.held = held;
    if let Some(id) = s.open.clone() {
        match s.catalog.get(&id) {
            None => {
                s.open = None;
                if s.screen != Screen::Simulate {
                    s.screen = Screen::Catalog;
                }
            }
            Some(p) if open_before.as_ref().is_some_and(|b| !b.same_work(p)) => {
                let p = p.clone();
                s.answers = p.answers();
                s.sheet = p.sheet.as_ref().map(|sheet| relocalize(sheet, s.lang));
                s.sim = p.sim.unwrap_or_default();
                if s.sheet.is_none() && s.screen == Screen::Sheet {
                    s.screen = Screen::Decide;
                }
            }
            Some(_) => {}
        }
    }
}

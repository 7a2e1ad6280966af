//! A share link opened in the app ([`crate::domain::share`]): the shared process or catalog
//! shown read-only beside the user's own work, saved into the catalog only when asked —
//! never over anything the user has.

use super::catalog::{drop_untouched, flush, remember_undo};
use super::{AppState, CatalogNotice, CatalogUndo, Screen};
use crate::domain::catalog::{Process, MAX_PROCESSES};
use crate::domain::share::{Share, Shared};
use crate::domain::Lang;
use crate::text::t;

/// Where opening a link stands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LinkStatus {
    /// No link is being opened, or the last one opened fine.
    #[default]
    Idle,
    /// The page's fragment is a share link being read (by the export worker).
    Opening,
    /// The link could not be opened: why, in English and in Japanese (so the message follows
    /// a language switch). The user's own work is untouched.
    Failed {
        /// The message in English.
        en: String,
        /// The message in Japanese.
        ja: String,
    },
}

impl LinkStatus {
    /// The failure message in `lang` (`None` unless [`LinkStatus::Failed`]).
    pub fn message(&self, lang: Lang) -> Option<&str> {
        match (self, lang) {
            (LinkStatus::Failed { en, .. }, Lang::En) => Some(en),
            (LinkStatus::Failed { ja, .. }, Lang::Ja) => Some(ja),
            _ => None,
        }
    }
}

/// What the share panel shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelScope {
    /// The open process (as the catalog has it now).
    Process,
    /// The whole catalog.
    Catalog,
}

impl AppState {
    /// What the share panel of `scope` shares now, in the page's language: the open
    /// process (`None` when none is open) or the whole catalog, with the open process's
    /// current work in it ([`AppState::catalog_now`]).
    pub fn share_of(&self, scope: PanelScope) -> Option<Share> {
        let content = match scope {
            PanelScope::Process => Shared::Process(Box::new(self.open_process()?)),
            PanelScope::Catalog => Shared::Catalog(self.catalog_now()),
        };
        Some(Share {
            lang: self.lang,
            content,
        })
    }

    /// The scope the share button offers here: the catalog on the catalog screen (or when
    /// no process is open), else the open process.
    pub fn share_scope(&self) -> PanelScope {
        if self.screen == Screen::Catalog || self.open.is_none() {
            PanelScope::Catalog
        } else {
            PanelScope::Process
        }
    }
}

/// What can happen to a share link in the app ([`super::Action::Share`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ShareAction {
    /// The page was opened with (or moved to) a share link; it is being read.
    Opening,
    /// The link was read and checked: show what it holds, read-only.
    Opened(Box<Share>),
    /// The link could not be read: the message in English and Japanese.
    Failed {
        /// The message in English.
        en: String,
        /// The message in Japanese.
        ja: String,
    },
    /// Add what is shown to the catalog: every shared process not already there (same id
    /// and same work), under its own id when free, else a new one from `seed`; a shared
    /// catalog's name when the user's catalog has none. Can be undone. Refused, changing
    /// nothing, past [`MAX_PROCESSES`].
    Save {
        /// The id seed for processes whose id is taken ([`crate::domain::catalog::Catalog::fresh_id`]).
        seed: u64,
        /// The time saved, Unix milliseconds (a short link carries no edit times).
        now_ms: u64,
    },
    /// Close the shared view; nothing is saved.
    Close,
    /// Hide the "could not open" message.
    Dismiss,
    /// Show the share panel for `scope`, or hide it (`None`).
    Panel(Option<PanelScope>),
}

/// One share action on `s`.
pub(super) fn reduce_share(s: &mut AppState, action: ShareAction) {
    match action {
        ShareAction::Opening => s.link = LinkStatus::Opening,
        ShareAction::Opened(share) => {
            s.link = LinkStatus::Idle;
            s.shared = Some(share);
        }
        ShareAction::Failed { en, ja } => s.link = LinkStatus::Failed { en, ja },
        ShareAction::Save { seed, now_ms } => save(s, seed, now_ms),
        ShareAction::Close => s.shared = None,
        ShareAction::Dismiss => s.link = LinkStatus::Idle,
        ShareAction::Panel(scope) => s.share_panel = scope,
    }
}

fn save(s: &mut AppState, seed: u64, now_ms: u64) {
    let Some(share) = s.shared.clone() else {
        return;
    };
    flush(s);
    let before = s.catalog.clone();
    let open = s.open.clone();
    drop_untouched(s);
    let (mut added, mut already) = (0, 0);
    let mut incoming: Vec<Process> = Vec::new();
    for p in share.processes() {
        if s.catalog.get(&p.id).is_some_and(|mine| mine.same_work(p)) {
            already += 1;
        } else {
            incoming.push(p.clone());
        }
    }
    if s.catalog.processes.len() + incoming.len() > MAX_PROCESSES {
        s.catalog = before;
        s.open = open;
        s.catalog_notice = Some(CatalogNotice::Failed(
            t!(
                "share-ui.too-many",
                locale = s.lang.code(),
                max = MAX_PROCESSES,
                adding = incoming.len()
            )
            .into_owned(),
        ));
        return;
    }
    for (i, mut p) in incoming.into_iter().enumerate() {
        if s.catalog.get(&p.id).is_some() {
            p.id = s.catalog.fresh_id(seed.wrapping_add(i as u64));
        }
        if p.created_ms == 0 {
            p.created_ms = now_ms;
        }
        p.updated_ms = p.updated_ms.max(p.created_ms);
        s.catalog.processes.push(p);
        added += 1;
    }
    if let Shared::Catalog(c) = &share.content {
        if s.catalog.name.trim().is_empty() {
            s.catalog.name = c.name.clone();
        }
    }
    s.shared = None;
    s.screen = Screen::Catalog;
    remember_undo(
        s,
        CatalogUndo::Imported(before, open),
        CatalogNotice::Saved(added, already),
    );
}

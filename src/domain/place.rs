//! Where the user is, as the URL fragment the browser's history keeps, so Back and Forward
//! move between questions and screens instead of leaving the app.
//!
//! Fragments: `#q/<question id>` (a question, e.g. `#q/needs-result-now`), `#result`,
//! `#sheet`, `#simulate`, `#catalog`; each but `#catalog` followed by `/<process id>` for the
//! process it shows (`#sheet/p-1a2b`; [`Place::fragment_of`]), so Back and Forward reopen that
//! process. Fragments without the id (older links, bookmarks) still read: the open process.
//! Anything else parses to `None` and is ignored.

use crate::domain::catalog::ProcessId;
use crate::domain::QuestionId;

/// A place in the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A question card on the Decide screen.
    Question(QuestionId),
    /// The result card on the Decide screen.
    Result,
    /// The job definition sheet.
    Sheet,
    /// The simulator.
    Simulate,
    /// The catalog of the system's processes.
    Catalog,
}

impl Place {
    /// The URL fragment, with its leading `#`.
    pub fn fragment(self) -> String {
        match self {
            Place::Question(q) => format!("#q/{}", q.id()),
            Place::Result => "#result".to_owned(),
            Place::Sheet => "#sheet".to_owned(),
            Place::Simulate => "#simulate".to_owned(),
            Place::Catalog => "#catalog".to_owned(),
        }
    }

    /// The URL fragment of this place of the process `open` (`#sheet/<id>`); the catalog, and
    /// any place with no process open, as [`Place::fragment`].
    pub fn fragment_of(self, open: Option<&ProcessId>) -> String {
        match open {
            Some(id) if self != Place::Catalog => format!("{}/{id}", self.fragment()),
            _ => self.fragment(),
        }
    }

    /// The place and the process a fragment names ([`Place::fragment_of`]; the process `None`
    /// when the fragment names none, or no well-formed id); `None` for anything else.
    pub fn parse_with_process(fragment: &str) -> Option<(Place, Option<ProcessId>)> {
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        if let Some(place) = Place::parse(f) {
            return Some((place, None));
        }
        let (head, id) = f.rsplit_once('/')?;
        let place = Place::parse(head).filter(|p| *p != Place::Catalog)?;
        ProcessId::is_valid(id).then(|| (place, Some(ProcessId(id.to_owned()))))
    }

    /// The place a fragment names (with or without its leading `#`); `None` for anything
    /// else, including an unknown question id.
    pub fn parse(fragment: &str) -> Option<Place> {
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        match f {
            "result" => Some(Place::Result),
            "sheet" => Some(Place::Sheet),
            "simulate" => Some(Place::Simulate),
            "catalog" => Some(Place::Catalog),
            _ => f
                .strip_prefix("q/")
                .and_then(|id| QuestionId::parse(id).ok())
                .map(Place::Question),
        }
    }
}

//! The catalog: every process of one system, each with its decision, its sheet and its
//! simulator choices — what a team puts on its wiki page as one document.
//!
//! Architects decide modality per process (placing an order, the confirmation mail, the
//! nightly report…); the catalog keeps them together under the system's name. It is a pure,
//! versioned JSON model ([`CATALOG_VERSION`]): the catalog file the page downloads and the CLI
//! renders (`modality-advisor catalog`), and what the browser keeps in local storage (wrapped
//! with revision numbers by [`sync`], which merges the edits of two tabs).
//!
//! The domain has no clock and no randomness: creation and edit times (Unix milliseconds) and
//! the seed of a new process id are supplied by the caller.
//!
//! | part | module |
//! |---|---|
//! | reading a file, every limit, errors naming the field | [`check`] |
//! | a sheet file as a process; the import preview, merge or replace | [`import`] |
//! | today's single-process session as a one-process catalog | [`migrate`] |
//! | two tabs, one storage: revisions and the three-way merge | [`sync`] |
//! | two tabs, one process: the merge field by field, the fields' names | [`field_merge`] |
//! | the whole catalog as Markdown / CSV / TSV / JSON | [`export`] |
//! | what triggers what: the links, the system diagram, its findings | [`system`] |
//! | what the audit of an existing configuration said about a process made from it | [`origin`] |

pub mod check;
pub mod export;
pub mod field_merge;
pub mod import;
pub mod migrate;
pub mod origin;
pub mod sync;
pub mod system;

use crate::domain::flowchart::{evaluate, Outcome};
use crate::domain::session::{Session, SimChoice};
use crate::domain::sheet::{DecisionAnswer, JobSheet};
use crate::domain::Answers;
use serde::{Deserialize, Serialize};

/// The catalog format written by this build (`catalog_version` in the file).
pub const CATALOG_VERSION: u32 = 1;

/// The most processes a catalog holds (a system's processes fit many times over; a file
/// with more is refused before anything is built).
pub const MAX_PROCESSES: usize = 500;

/// The longest process or catalog name, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// The largest catalog file read, in bytes (a 500-process catalog of full sheets is ~1.5 MB).
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// A process id: 1 to 40 characters of `a-z`, `0-9` and `-`, stable for the life of the
/// process (kept by rename, reorder and export; a duplicate gets a new one).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProcessId(pub String);

impl ProcessId {
    /// Whether `s` is a well-formed id (1 ..= 40 of `a-z 0-9 -`).
    pub fn is_valid(s: &str) -> bool {
        (1..=40).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ProcessId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One process of the system: its decision (the answers, possibly an incomplete walk), the
/// outcome they give, the job sheet once opened, and the simulator's choices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Process {
    /// Stable id ([`ProcessId::is_valid`]), unique in the catalog.
    pub id: ProcessId,
    /// The human name, e.g. "send reservation confirmation mail" (at most
    /// [`MAX_NAME_CHARS`]); kept equal to the sheet's process name once a sheet exists.
    pub name: String,
    /// When the process was created, Unix milliseconds (supplied by the caller).
    pub created_ms: u64,
    /// When it was last edited, Unix milliseconds (supplied by the caller).
    pub updated_ms: u64,
    /// Every answer given, in flowchart order (the same shape as a sheet's decision).
    pub answers: Vec<DecisionAnswer>,
    /// The outcome the answers give (`None` while the walk is incomplete). Redundant on
    /// purpose, so the file reads on its own; on reading it must equal what the answers give.
    pub outcome: Option<Outcome>,
    /// The job definition sheet, once opened.
    pub sheet: Option<JobSheet>,
    /// The simulator's choices (`None`: the defaults). A convenience, read leniently: parts
    /// that no longer check out take their defaults ([`SimChoice::from_value`]) and never
    /// make the process, or the catalog, unreadable. The embed page's build reads over them
    /// (`session::skipped_sim`, built for that page only): its card shows none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        not(feature = "embed"),
        serde(deserialize_with = "crate::domain::session::lenient_sim")
    )]
    #[cfg_attr(
        feature = "embed",
        serde(deserialize_with = "crate::domain::session::skipped_sim")
    )]
    pub sim: Option<SimChoice>,
    /// What triggers this process and what it triggers ([`system::Link`]), in the order
    /// given (at most [`system::MAX_LINKS`]). Left out of the file when empty, so files
    /// written before the system picture read unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<system::Link>,
    /// What the audit said, for a process made from an existing configuration ("Check an
    /// existing configuration"), until marked as reviewed ([`origin::AuditOrigin`]). Left out
    /// of the file when absent; never in a share link. The embed page reads no catalog file
    /// and no link holds it, so its build neither reads nor writes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "embed", serde(skip))]
    pub audit: Option<origin::Held>,
}

/// A system's processes, in the order the team put them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Always [`CATALOG_VERSION`] when written by this build.
    pub catalog_version: u32,
    /// The system's name, e.g. "Reservation system" (at most [`MAX_NAME_CHARS`]; may be
    /// empty).
    pub name: String,
    /// The processes in display order (at most [`MAX_PROCESSES`], ids unique).
    pub processes: Vec<Process>,
}

impl Default for Catalog {
    fn default() -> Self {
        Catalog::new("")
    }
}

impl Catalog {
    /// An empty catalog named `name`.
    pub fn new(name: &str) -> Catalog {
        Catalog {
            catalog_version: CATALOG_VERSION,
            name: name.to_owned(),
            processes: Vec::new(),
        }
    }

    /// The process with this id.
    pub fn get(&self, id: &ProcessId) -> Option<&Process> {
        self.processes.iter().find(|p| p.id == *id)
    }

    /// The process with this id, to change it.
    pub fn get_mut(&mut self, id: &ProcessId) -> Option<&mut Process> {
        self.processes.iter_mut().find(|p| p.id == *id)
    }

    /// Where the process with this id stands in the order.
    pub fn position(&self, id: &ProcessId) -> Option<usize> {
        self.processes.iter().position(|p| p.id == *id)
    }

    /// A new id not used in this catalog, made from `seed` (the caller's random number or
    /// clock): `p-` and the seed in base 36, bumped until unused. Two tabs adding a process at
    /// once get different ids as long as their seeds differ.
    pub fn fresh_id(&self, seed: u64) -> ProcessId {
        let mut n = seed;
        loop {
            let id = ProcessId(format!("p-{}", base36(n)));
            if self.get(&id).is_none() {
                return id;
            }
            n = n.wrapping_add(1);
        }
    }

    /// The catalog as pretty-printed JSON: the catalog file (reads back identical through
    /// [`check::read_catalog`]). Plain strings and numbers: serialising cannot fail.
    pub fn to_json(&self) -> String {
        let mut s = crate::domain::json::pretty(self);
        s.push('\n');
        s
    }
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

impl Process {
    /// A new process with no answers, named `name`, created (and last edited) at `now_ms`.
    pub fn new(id: ProcessId, name: &str, now_ms: u64) -> Process {
        Process {
            id,
            name: name.to_owned(),
            created_ms: now_ms,
            updated_ms: now_ms,
            answers: Vec::new(),
            outcome: None,
            sheet: None,
            sim: None,
            links: Vec::new(),
            audit: None,
        }
    }

    /// The process holding what a saved single-process session held (the format stored by
    /// builds before the catalog): its answers, sheet and simulator choices. The name is the
    /// sheet's process name, or `fallback_name` when there is no sheet or it has no name.
    pub fn from_session(
        id: ProcessId,
        session: &Session,
        fallback_name: &str,
        now_ms: u64,
    ) -> Process {
        let name = session
            .sheet
            .as_ref()
            .map(|s| s.process.process_name.trim())
            .filter(|n| !n.is_empty())
            .unwrap_or(fallback_name);
        let mut p = Process::new(id, name, now_ms);
        p.set_answers(&session.answers());
        p.sheet = session.sheet.clone();
        p.sim = session.sim.clone();
        p
    }

    /// The audit's record ([`Process::audit`]): always `None` in the embed page's build,
    /// which never reads one, so none of the code that checks or shows a record is in it.
    pub fn audit_record(&self) -> Option<&origin::AuditOrigin> {
        #[cfg(feature = "embed")]
        return None;
        #[cfg(not(feature = "embed"))]
        self.audit.as_deref()
    }

    /// Replaces the answers (and the outcome they give).
    pub fn set_answers(&mut self, answers: &Answers) {
        let session = Session::new(answers, None, false);
        self.answers = session.answers;
        self.outcome = evaluate(answers).outcome();
    }

    /// The answers as the engine's [`Answers`].
    pub fn answers(&self) -> Answers {
        self.session().answers()
    }

    /// The process as a session (answers, sheet, simulator choices; no screen).
    pub fn session(&self) -> Session {
        Session {
            version: crate::domain::session::SESSION_VERSION,
            answers: self.answers.clone(),
            sheet: self.sheet.clone(),
            on_sheet: false,
            on_simulate: false,
            sim: self.sim.clone(),
        }
    }

    /// Whether `other` holds the same work (everything but the edit time).
    pub fn same_work(&self, other: &Process) -> bool {
        let mut a = self.clone();
        a.updated_ms = other.updated_ms;
        a == *other
    }
}

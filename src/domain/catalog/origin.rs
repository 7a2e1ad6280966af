//! Where a process came from when "Check an existing configuration" made it (issue 27 item
//! 2): the file and the line of the job, the queue system and the release the audit followed,
//! and what the audit said — the findings, the values not resolved, the facts the file does
//! not state (the sheet then holds the system's defaults for them) — in English and in
//! Japanese. The sheet screen shows it until someone marks it as reviewed, the catalog's row
//! and documents say it, and "Configuration for" starts at the system and release audited.
//!
//! Kept in the catalog file and in the browser's storage; never in a share link
//! ([`crate::domain::share`] leaves it out and refuses a link that holds one).

use crate::domain::queues::{TargetId, TargetVersion};
use serde::{Deserialize, Serialize};

/// The most lines of notes kept per language.
pub const MAX_NOTES: usize = 200;

/// The longest line of notes, in characters.
pub const MAX_NOTE_CHARS: usize = 4_000;

/// The longest file name kept, in characters.
pub const MAX_FILE_CHARS: usize = 260;

/// What the audit of an existing configuration said about the job a process was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditOrigin {
    /// The configuration's file name as given (or "pasted text"), at most
    /// [`MAX_FILE_CHARS`] characters.
    pub file: String,
    /// The line where the job is defined (1-based).
    pub line: u32,
    /// The queue system, a name from `targets` (e.g. `sqs`).
    pub system: String,
    /// The system's version range the audit followed (a [`TargetVersion`] name, e.g.
    /// `sidekiq-7`), when the system has several; `None` for a system with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The audit's findings at error level.
    pub errors: u32,
    /// The audit's findings at warning level.
    pub warnings: u32,
    /// The notes, one sentence each, in English: the release followed, the schedule the
    /// system runs, each finding, each value not resolved, the facts not stated (at most
    /// [`MAX_NOTES`] of at most [`MAX_NOTE_CHARS`] characters).
    pub en: Vec<String>,
    /// The same notes in Japanese.
    pub ja: Vec<String>,
}

impl AuditOrigin {
    /// The queue system, when [`AuditOrigin::system`] names one.
    pub fn target(&self) -> Option<TargetId> {
        TargetId::ALL.into_iter().find(|t| t.name() == self.system)
    }

    /// The release range followed, when [`AuditOrigin::version`] names one of the system's.
    pub fn target_version(&self) -> Option<TargetVersion> {
        let (target, name) = (self.target()?, self.version.as_deref()?);
        TargetVersion::parse(target, name).ok()
    }

    /// The notes in `ja` (Japanese) or English.
    pub fn notes(&self, ja: bool) -> &[String] {
        if ja {
            &self.ja
        } else {
            &self.en
        }
    }
}

/// What [`Process::audit`](super::Process::audit) holds: the record, boxed (most processes
/// have none).
#[cfg(not(feature = "embed"))]
pub type Held = Box<AuditOrigin>;

/// What [`Process::audit`](super::Process::audit) holds in the embed page's build: nothing.
/// No link carries a record, so the embed page never reads one, and none of the code that
/// keeps, checks or shows a record is in its budget.
#[cfg(feature = "embed")]
pub type Held = Unread;

/// A record the embed page's build does not read.
#[cfg(feature = "embed")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unread;

/// `a` as [`Process::audit`](super::Process::audit) holds it (`None` in the embed page's
/// build).
pub fn hold(a: AuditOrigin) -> Option<Held> {
    #[cfg(feature = "embed")]
    {
        let _ = a;
        None
    }
    #[cfg(not(feature = "embed"))]
    Some(Box::new(a))
}

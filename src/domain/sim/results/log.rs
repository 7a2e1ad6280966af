//! The engine's event log as compact typed entries, rendered in English or Japanese on demand.
//!
//! The engine records one [`LogEntry`] per noteworthy step (40 bytes, no heap allocation except
//! the rare `SKIP LOCKED` list): the time, who (worker index), which job (id, kind index,
//! attempt) and a [`LogEvent`]. Names and texts — kind names, worker names, error messages,
//! idempotency-key templates — live once in [`LogNames`]. A [`Line`] (entry + names) renders:
//!
//! * English through [`std::fmt::Display`], byte for byte the text the source documents' printed runs use
//!   (`1000.000s A job#1 add_points 1/3: claimed (UPDATE … RETURNING)`); this is what
//!   [`Report::events`](crate::domain::sim::Report), its trace hash and the CLI carry.
//! * Japanese through [`Line::render`] with the words in `locales/simulator/sim-log.yml`; ids, times,
//!   SQL, worker and kind names and the handlers' own error messages stay as they are.
//!
//! [`EventLog`] stores entries in fixed 65 536-entry chunks, so a log of millions of lines
//! grows without reallocating (and copying) one huge buffer.
//!
//! Files: this one holds the entry types, the names and the log's storage; `render`: a line
//! as English or Japanese text; `words`: an entry as integers (its JSON form).

use crate::domain::lang::Lang;
use crate::domain::sim::core::call::CallResult;
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::ErrorId;
use crate::text::t;
use serde::{Deserialize, Serialize};
use std::fmt;

mod render;
mod words;

pub(crate) use render::fill_key;

/// How a claim was made (the claim strategy's statement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimHow {
    /// `UPDATE … RETURNING` in one statement.
    Atomic,
    /// `UPDATE … WHERE id = ?` after a separate `SELECT`.
    ById,
    /// `SELECT … FOR UPDATE`.
    ForUpdate,
    /// `FOR UPDATE NOWAIT`.
    Nowait,
    /// `FOR UPDATE SKIP LOCKED`.
    SkipLocked,
}

impl ClaimHow {
    fn sql(self) -> &'static str {
        match self {
            ClaimHow::Atomic => "UPDATE … RETURNING",
            ClaimHow::ById => "UPDATE by id",
            ClaimHow::ForUpdate => "SELECT … FOR UPDATE",
            ClaimHow::Nowait => "FOR UPDATE NOWAIT",
            ClaimHow::SkipLocked => "FOR UPDATE SKIP LOCKED",
        }
    }
}

/// A claim statement that failed on a row lock (PostgreSQL's own messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockError {
    /// `NOWAIT` met a locked row.
    Nowait,
    /// `lock_timeout` ran out while waiting.
    Timeout,
}

impl LockError {
    /// PostgreSQL's message, e.g. `could not obtain lock on row in relation "jobs"`.
    pub fn text(self) -> &'static str {
        match self {
            LockError::Nowait => "could not obtain lock on row in relation \"jobs\"",
            LockError::Timeout => "canceling statement due to lock timeout",
        }
    }
}

/// Which of the source documents' finishing statements a stale result was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// `complete()`.
    Complete,
    /// `release()`.
    Release,
}

impl Finish {
    /// The statement as the log writes it: `complete()` or `release()`.
    pub fn text(self) -> &'static str {
        match self {
            Finish::Complete => "complete()",
            Finish::Release => "release()",
        }
    }
}

/// What happened. Numbers are ids (`job`: job id; `n`: submission number, 1-based), times,
/// or indices into [`LogNames`] (`err`: [`ErrorId`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogEvent {
    /// `enqueued`: a row was inserted.
    Enqueued,
    /// `claimed (<statement>)`.
    Claimed(ClaimHow),
    /// `SELECT picks job#<job>` (first half of the two-statement claim).
    Picked {
        /// The row the `SELECT` returned.
        job: u32,
    },
    /// `nothing to claim` (a probe worker found no row).
    NothingToClaim,
    /// `ROLLBACK (the probe only looks)`.
    ProbeRollback,
    /// `done`.
    Done,
    /// `error <message> → queued until <time>`: released for a retry.
    ErrorQueued {
        /// The attempt's error.
        err: ErrorId,
        /// The row's new `run_after`.
        until: SimTime,
    },
    /// `error <message> → dead`: attempts used up, dead-lettered.
    ErrorDead {
        /// The attempt's error.
        err: ErrorId,
    },
    /// `error <message> (permanent) → dead`: classified as not worth retrying.
    ErrorPermanent {
        /// The attempt's error.
        err: ErrorId,
    },
    /// `side effect applied: balance <before> → <after>`; `after` is `before` plus the kind's
    /// effect amount (saturating), so it is not stored.
    SideEffect {
        /// The balance before the effect.
        before: i64,
    },
    /// `idempotency key <key> already recorded (unique constraint) → ROLLBACK, balance stays
    /// <balance>`; the key is the kind's template with `{n}` = `arrival`.
    KeyRejected {
        /// The job's arrival number (the key template's `{n}`).
        arrival: u32,
        /// The balance, unchanged.
        balance: i64,
    },
    /// `worker dies before complete()`.
    Crash,
    /// `FOR UPDATE waits for the row lock on job#<job>`.
    RowLockWait {
        /// The locked row.
        job: u32,
    },
    /// `SKIP LOCKED passes over job#<a>, job#<b>`.
    SkipLocked {
        /// The locked rows passed over, in id order (boxed: rare, keeps entries small).
        #[allow(clippy::box_collection)]
        jobs: Box<Vec<u32>>,
    },
    /// `error: <PostgreSQL message>`.
    LockError(LockError),
    /// `downstream ok`.
    DownstreamOk,
    /// `<call result> → retry in the worker in <wait>`.
    InWorkerRetry {
        /// The refused call's answer.
        result: CallResult,
        /// The backoff wait before the next call.
        wait: SimDuration,
    },
    /// `submission <n>: publish failed, calling the downstream directly`.
    SubmissionFallback {
        /// Submission number.
        n: u32,
    },
    /// `submission <n>: failed back to the user` (no call allowed).
    SubmissionFailed {
        /// Submission number.
        n: u32,
    },
    /// `submission <n>: downstream ok → accepted`.
    SubmissionAccepted {
        /// Submission number.
        n: u32,
    },
    /// `submission <n>: <call result> → call again in <wait>`.
    SubmissionRetry {
        /// Submission number.
        n: u32,
        /// The refused call's answer.
        result: CallResult,
        /// The wait before the next call.
        wait: SimDuration,
    },
    /// `submission <n>: <call result> → failed back to the user`.
    SubmissionGaveUp {
        /// Submission number.
        n: u32,
        /// The last call's answer.
        result: CallResult,
    },
    /// `another run of this job is still going (overlapping runs)`: a run started while one
    /// of the same job had not ended (its lease expired under it).
    Overlap,
    /// `attempt past max_attempts (the claim has no attempts check)`.
    ClaimOverMax,
    /// `stale <complete()|release()>: this worker no longer holds the job → applied (no owner
    /// check)` or `→ refused (owner check), the row stays as it is`.
    StaleResult {
        /// Which statement.
        op: Finish,
        /// Refused by the owner check (else applied).
        refused: bool,
    },
    /// `a dead job turned done by a late complete()`.
    CompletedAfterDead,
    /// `lease expired on the last attempt → dead (dead-letter rule)`.
    LeaseExpiredDead,
    /// `acknowledged at the claim, before the work (at-most-once)`.
    AckedEarly,
    /// `the job was acknowledged before the work and is lost (never done)`.
    Lost,
    /// `heartbeat: lease extended until <time>`.
    LeaseRenewed {
        /// The new `locked_until`.
        until: SimTime,
    },
    /// `enqueued again (the same request submitted twice)`.
    EnqueuedAgain,
}

/// No worker (`LogEntry::worker`).
pub const NO_WORKER: u16 = u16::MAX;

impl LogEntry {
    /// Whether a time or wait this entry writes has a sub-millisecond part.
    pub fn has_micros(&self) -> bool {
        let sub = |us: u64| !us.is_multiple_of(1_000);
        sub(self.time.0)
            || match &self.event {
                LogEvent::ErrorQueued { until, .. } | LogEvent::LeaseRenewed { until } => {
                    sub(until.0)
                }
                LogEvent::InWorkerRetry { wait, .. } | LogEvent::SubmissionRetry { wait, .. } => {
                    sub(wait.0)
                }
                _ => false,
            }
    }
}

/// One line of the event log, 40 bytes. On the wire (JSON between the worker and the page)
/// it is one array of integers, see [`LogEntry::to_words`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// When it happened.
    pub time: SimTime,
    /// What happened.
    pub event: LogEvent,
    /// Job id (1, 2, …), or 0 when the line concerns no job.
    pub job: u32,
    /// The job's kind (index into [`LogNames::kinds`]); meaningless when `job` is 0.
    pub kind: u32,
    /// The attempt number shown as `attempt/max_attempts` (0 when enqueued).
    pub attempt: u32,
    /// Worker index (into [`LogNames::workers`]), or [`NO_WORKER`].
    pub worker: u16,
}

/// What a kind contributes to its log lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindNames {
    /// The handler's name, e.g. `send_mail`.
    pub name: String,
    /// Claims allowed (every row of the kind has it).
    pub max_attempts: u32,
    /// The side effect's amount (0 when none).
    pub amount: i64,
    /// The idempotency-key template (`{n}` = arrival number, `{id}` = job id), if any.
    pub key: Option<String>,
}

/// The names and texts the entries refer to by index; small, one per run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogNames {
    /// Per kind.
    pub kinds: Vec<KindNames>,
    /// Worker names, in config order.
    pub workers: Vec<String>,
    /// Error messages by [`ErrorId`]: each kind's handler error, then the engine's own four
    /// (lease expired on the last attempt, busy, rate limited, unavailable).
    pub errors: Vec<String>,
    /// Index of the first of the engine's own errors in `errors`.
    pub builtin_errors: u32,
}

/// The engine's own error texts, in the order they follow the kinds' errors.
pub const BUILTIN_ERRORS: [&str; 4] = [
    "lease expired on the last attempt (worker lost)",
    "busy: downstream is locked by another write",
    "rate limited: too many requests",
    "unavailable: downstream is down",
];

const BUILTIN_KEYS: [&str; 4] = [
    "sim-log.err.lease-expired",
    "sim-log.call.busy",
    "sim-log.call.rate-limited",
    "sim-log.call.unavailable",
];

impl CallResult {
    /// The English text of a refusal (`ok` for a served call).
    pub fn text(self) -> &'static str {
        match self {
            CallResult::Ok => "ok",
            CallResult::Busy => BUILTIN_ERRORS[1],
            CallResult::RateLimited => BUILTIN_ERRORS[2],
            CallResult::Unavailable => BUILTIN_ERRORS[3],
        }
    }

    fn key(self) -> &'static str {
        match self {
            CallResult::Ok => "sim-log.call.ok",
            CallResult::Busy => BUILTIN_KEYS[1],
            CallResult::RateLimited => BUILTIN_KEYS[2],
            CallResult::Unavailable => BUILTIN_KEYS[3],
        }
    }
}

const CHUNK: usize = 1 << 16;

/// The recorded entries, in order. Chunked: pushing never moves earlier entries.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    chunks: Vec<Vec<LogEntry>>,
    len: usize,
}

impl EventLog {
    /// An empty log.
    pub fn new() -> EventLog {
        EventLog::default()
    }

    /// Appends an entry.
    pub fn push(&mut self, e: LogEntry) {
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks
                .push(Vec::with_capacity(CHUNK.min(64.max(self.len))));
        }
        if let Some(c) = self.chunks.last_mut() {
            c.push(e);
            self.len += 1;
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i` (0-based), if it exists.
    pub fn get(&self, i: usize) -> Option<&LogEntry> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }

    /// Every entry in order.
    pub fn iter(&self) -> impl Iterator<Item = &LogEntry> + '_ {
        self.chunks.iter().flatten()
    }

    /// Whether the log is written in microseconds: true when any entry has a time or wait
    /// with a sub-millisecond part ([`LogEntry::has_micros`]); then every line's times get
    /// six decimals, else three.
    pub fn micros(&self) -> bool {
        self.iter().any(LogEntry::has_micros)
    }

    /// Up to `count` entries from `from` (fewer at the end; none when `from >= len`).
    pub fn slice(&self, from: usize, count: usize) -> Vec<LogEntry> {
        (from..self.len.min(from.saturating_add(count)))
            .filter_map(|i| self.get(i).cloned())
            .collect()
    }
}

/// An entry with the names it refers to: displays as one English line.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// The entry.
    pub entry: &'a LogEntry,
    /// The run's names.
    pub names: &'a LogNames,
    /// Times with six decimals: the whole log's [`EventLog::micros`], so the time column
    /// lines up (false: three, unless this entry's own value needs six).
    pub micros: bool,
}

/// A run's log with its names (what [`Simulation::log`](crate::domain::sim::Simulation::log)
/// returns).
#[derive(Debug, Clone, Copy)]
pub struct Log<'a> {
    /// The entries.
    pub entries: &'a EventLog,
    /// The run's names.
    pub names: &'a LogNames,
}

impl<'a> Log<'a> {
    /// Lines in order, their times all with the log's precision ([`EventLog::micros`]).
    pub fn iter(self) -> impl Iterator<Item = Line<'a>> {
        let names = self.names;
        let micros = self.entries.micros();
        self.entries.iter().map(move |entry| Line {
            entry,
            names,
            micros,
        })
    }

    /// Number of lines.
    pub fn len(self) -> usize {
        self.entries.len()
    }

    /// Whether the log is empty (the config turned logging off, or nothing happened).
    pub fn is_empty(self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_40_bytes() {
        assert_eq!(std::mem::size_of::<LogEntry>(), 40);
    }
}

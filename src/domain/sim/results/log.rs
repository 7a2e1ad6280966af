//! The engine's event log as compact typed entries, rendered in English or Japanese on demand.
//!
//! The engine records one [`LogEntry`] per noteworthy step (40 bytes, no heap allocation except
//! the rare `SKIP LOCKED` list): the time, who (worker index), which job (id, kind index,
//! attempt) and a [`LogEvent`]. Names and texts — kind names, worker names, error messages,
//! idempotency-key templates — live once in [`LogNames`]. A [`Line`] (entry + names) renders:
//!
//! * English through [`std::fmt::Display`], byte for byte the text the seed's printed runs use
//!   (`1000.000s A job#1 add_points 1/3: claimed (UPDATE … RETURNING)`); this is what
//!   [`Report::events`](super::Report), its trace hash and the CLI carry.
//! * Japanese through [`Line::render`] with the words in `locales/sim-log.yml`; ids, times,
//!   SQL, worker and kind names and the handlers' own error messages stay as they are.
//!
//! [`EventLog`] stores entries in fixed 65 536-entry chunks, so a log of millions of lines
//! grows without reallocating (and copying) one huge buffer.

use crate::domain::lang::Lang;
use crate::domain::sim::core::call::CallResult;
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::ErrorId;
use rust_i18n::t;
use serde::{Deserialize, Serialize};
use std::fmt;

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
}

/// No worker (`LogEntry::worker`).
pub const NO_WORKER: u16 = u16::MAX;

/// Seconds as a log writes them: `1031.000s` when the log is in milliseconds, `0.066988s`
/// when it has any time or wait with a sub-millisecond part ([`EventLog::micros`]). One choice
/// per log, so its times line up; a value with a sub-millisecond part always gets six decimals,
/// so nothing is ever rounded.
#[derive(Clone, Copy)]
struct Secs {
    us: u64,
    micros: bool,
}

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, frac) = (self.us / 1_000_000, self.us % 1_000_000);
        if self.micros || !frac.is_multiple_of(1_000) {
            write!(f, "{s}.{frac:06}s")
        } else {
            write!(f, "{s}.{:03}s", frac / 1_000)
        }
    }
}

impl LogEntry {
    /// Whether a time or wait this entry writes has a sub-millisecond part.
    pub fn has_micros(&self) -> bool {
        let sub = |us: u64| !us.is_multiple_of(1_000);
        sub(self.time.0)
            || match &self.event {
                LogEvent::ErrorQueued { until, .. } => sub(until.0),
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

fn call_of(w: u64) -> Option<CallResult> {
    [
        CallResult::Ok,
        CallResult::Busy,
        CallResult::RateLimited,
        CallResult::Unavailable,
    ]
    .get(usize::try_from(w).ok()?)
    .copied()
}

fn call_word(r: CallResult) -> u64 {
    match r {
        CallResult::Ok => 0,
        CallResult::Busy => 1,
        CallResult::RateLimited => 2,
        CallResult::Unavailable => 3,
    }
}

impl LogEntry {
    /// The entry as integers: `[time µs, job, kind, attempt, worker, tag, payload…]`, where
    /// the tag numbers the [`LogEvent`] variants in declaration order (0 = `Enqueued` …
    /// 21 = `SubmissionGaveUp`) and the payload is its fields in order (signed balances as
    /// their two's-complement bits; `SkipLocked`: the job ids).
    pub fn to_words(&self) -> Vec<u64> {
        use LogEvent as E;
        let (tag, payload): (u64, Vec<u64>) = match &self.event {
            E::Enqueued => (0, vec![]),
            E::Claimed(h) => (1, vec![*h as u64]),
            E::Picked { job } => (2, vec![u64::from(*job)]),
            E::NothingToClaim => (3, vec![]),
            E::ProbeRollback => (4, vec![]),
            E::Done => (5, vec![]),
            E::ErrorQueued { err, until } => (6, vec![u64::from(err.0), until.0]),
            E::ErrorDead { err } => (7, vec![u64::from(err.0)]),
            E::ErrorPermanent { err } => (8, vec![u64::from(err.0)]),
            E::SideEffect { before } => (9, vec![*before as u64]),
            E::KeyRejected { arrival, balance } => (10, vec![u64::from(*arrival), *balance as u64]),
            E::Crash => (11, vec![]),
            E::RowLockWait { job } => (12, vec![u64::from(*job)]),
            E::SkipLocked { jobs } => (13, jobs.iter().map(|&j| u64::from(j)).collect()),
            E::LockError(le) => (14, vec![*le as u64]),
            E::DownstreamOk => (15, vec![]),
            E::InWorkerRetry { result, wait } => (16, vec![call_word(*result), wait.0]),
            E::SubmissionFallback { n } => (17, vec![u64::from(*n)]),
            E::SubmissionFailed { n } => (18, vec![u64::from(*n)]),
            E::SubmissionAccepted { n } => (19, vec![u64::from(*n)]),
            E::SubmissionRetry { n, result, wait } => {
                (20, vec![u64::from(*n), call_word(*result), wait.0])
            }
            E::SubmissionGaveUp { n, result } => (21, vec![u64::from(*n), call_word(*result)]),
        };
        let mut w = vec![
            self.time.0,
            u64::from(self.job),
            u64::from(self.kind),
            u64::from(self.attempt),
            u64::from(self.worker),
            tag,
        ];
        w.extend(payload);
        w
    }

    /// Reads [`LogEntry::to_words`]; `None` for anything malformed (never panics).
    pub fn from_words(w: &[u64]) -> Option<LogEntry> {
        use LogEvent as E;
        let u32_at = |i: usize| w.get(i).and_then(|&x| u32::try_from(x).ok());
        let at = |i: usize| w.get(i).copied();
        let p = |i: usize| u32_at(6 + i);
        let event = match at(5)? {
            0 => E::Enqueued,
            1 => E::Claimed(
                [
                    ClaimHow::Atomic,
                    ClaimHow::ById,
                    ClaimHow::ForUpdate,
                    ClaimHow::Nowait,
                    ClaimHow::SkipLocked,
                ]
                .get(usize::try_from(at(6)?).ok()?)
                .copied()?,
            ),
            2 => E::Picked { job: p(0)? },
            3 => E::NothingToClaim,
            4 => E::ProbeRollback,
            5 => E::Done,
            6 => E::ErrorQueued {
                err: ErrorId(p(0)?),
                until: SimTime(at(7)?),
            },
            7 => E::ErrorDead {
                err: ErrorId(p(0)?),
            },
            8 => E::ErrorPermanent {
                err: ErrorId(p(0)?),
            },
            9 => E::SideEffect {
                before: at(6)? as i64,
            },
            10 => E::KeyRejected {
                arrival: p(0)?,
                balance: at(7)? as i64,
            },
            11 => E::Crash,
            12 => E::RowLockWait { job: p(0)? },
            13 => E::SkipLocked {
                jobs: Box::new(
                    w[6.min(w.len())..]
                        .iter()
                        .map(|&j| u32::try_from(j).ok())
                        .collect::<Option<Vec<u32>>>()?,
                ),
            },
            14 => E::LockError(match at(6)? {
                0 => LockError::Nowait,
                1 => LockError::Timeout,
                _ => return None,
            }),
            15 => E::DownstreamOk,
            16 => E::InWorkerRetry {
                result: call_of(at(6)?)?,
                wait: SimDuration(at(7)?),
            },
            17 => E::SubmissionFallback { n: p(0)? },
            18 => E::SubmissionFailed { n: p(0)? },
            19 => E::SubmissionAccepted { n: p(0)? },
            20 => E::SubmissionRetry {
                n: p(0)?,
                result: call_of(at(7)?)?,
                wait: SimDuration(at(8)?),
            },
            21 => E::SubmissionGaveUp {
                n: p(0)?,
                result: call_of(at(7)?)?,
            },
            _ => return None,
        };
        Some(LogEntry {
            time: SimTime(at(0)?),
            event,
            job: u32_at(1)?,
            kind: u32_at(2)?,
            attempt: u32_at(3)?,
            worker: u16::try_from(at(4)?).ok()?,
        })
    }
}

impl Serialize for LogEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_words().serialize(s)
    }
}

impl<'de> Deserialize<'de> for LogEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LogEntry, D::Error> {
        let w = Vec::<u64>::deserialize(d)?;
        LogEntry::from_words(&w).ok_or_else(|| serde::de::Error::custom("not a log entry"))
    }
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
    /// The idempotency-key template (`{n}` = arrival number), if any.
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

/// A run's log with its names (what [`Simulation::log`](super::Simulation::log) returns).
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

impl LogNames {
    fn kind(&self, k: u32) -> Option<&KindNames> {
        self.kinds.get(k as usize)
    }

    fn error(&self, e: ErrorId) -> &str {
        self.errors.get(e.0 as usize).map_or("", String::as_str)
    }

    /// The error text in `lang`: the engine's own errors come from the locale file, the
    /// handlers' own messages (e.g. `TimeoutError: …`) stay as raised.
    fn error_in(&self, e: ErrorId, lang: Lang) -> String {
        match e.0.checked_sub(self.builtin_errors).map(|i| i as usize) {
            Some(i) if i < BUILTIN_KEYS.len() => {
                t!(BUILTIN_KEYS[i], locale = lang.code()).into_owned()
            }
            _ => self.error(e).to_owned(),
        }
    }

    fn key(&self, k: u32, arrival: u32) -> String {
        self.kind(k)
            .and_then(|k| k.key.as_deref())
            .map(|t| t.replace("{n}", &arrival.to_string()))
            .unwrap_or_default()
    }

    fn after(&self, k: u32, before: i64) -> i64 {
        before.saturating_add(self.kind(k).map_or(0, |k| k.amount))
    }

    /// Pairs an entry with these names, its times in milliseconds unless the entry itself
    /// needs microseconds (set [`Line::micros`] to the log's [`EventLog::micros`] to line a
    /// whole log up).
    pub fn line<'a>(&'a self, entry: &'a LogEntry) -> Line<'a> {
        Line {
            entry,
            names: self,
            micros: false,
        }
    }
}

fn job_list(jobs: &[u32]) -> String {
    jobs.iter()
        .map(|j| format!("job#{j}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Line<'_> {
    /// `us` microseconds as this line writes seconds.
    fn secs(&self, us: u64) -> Secs {
        Secs {
            us,
            micros: self.micros,
        }
    }

    fn head(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, n) = (self.entry, self.names);
        write!(f, "{}", self.secs(e.time.0))?;
        if let Some(w) = n.workers.get(usize::from(e.worker)) {
            write!(f, " {w}")?;
        }
        if e.job != 0 {
            let (name, max) = n
                .kind(e.kind)
                .map_or(("", 0), |k| (k.name.as_str(), k.max_attempts));
            write!(f, " job#{} {name} {}/{max}", e.job, e.attempt)?;
        }
        // A submission's line names it where a job's names the job, then its colon:
        // `0.020s submission 2: downstream ok → accepted`, as `0.020s job#2 …: done`.
        let submission = matches!(
            e.event,
            LogEvent::SubmissionFallback { .. }
                | LogEvent::SubmissionFailed { .. }
                | LogEvent::SubmissionAccepted { .. }
                | LogEvent::SubmissionRetry { .. }
                | LogEvent::SubmissionGaveUp { .. }
        );
        f.write_str(if submission { " " } else { ": " })
    }

    /// The line in `lang`, from the templates in `locales/sim-log.yml`: the English ones are
    /// the [`Display`](fmt::Display) text (a test holds them equal); Japanese keeps the time,
    /// worker, job, kind, attempt, SQL and the handlers' own error messages and translates
    /// the rest.
    pub fn render(&self, lang: Lang) -> String {
        struct Head<'a>(&'a Line<'a>);
        impl fmt::Display for Head<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.head(f)
            }
        }
        let mut s = Head(self).to_string();
        let (key, args) = self.template(lang);
        fill(&mut s, &t!(key, locale = lang.code()), &args);
        s
    }

    /// The template key of the event and its `%{name}` values.
    fn template(&self, lang: Lang) -> (&'static str, Vec<(&'static str, String)>) {
        let (e, n) = (self.entry, self.names);
        let call = |r: CallResult| t!(r.key(), locale = lang.code()).into_owned();
        let err = |id: ErrorId| ("error", n.error_in(id, lang));
        match &e.event {
            LogEvent::Enqueued => ("sim-log.enqueued", vec![]),
            LogEvent::Claimed(how) => ("sim-log.claimed", vec![("sql", how.sql().to_owned())]),
            LogEvent::Picked { job } => ("sim-log.picked", vec![("job", job.to_string())]),
            LogEvent::NothingToClaim => ("sim-log.nothing", vec![]),
            LogEvent::ProbeRollback => ("sim-log.probe-rollback", vec![]),
            LogEvent::Done => ("sim-log.done", vec![]),
            LogEvent::ErrorQueued { err: id, until } => (
                "sim-log.error-queued",
                vec![err(*id), ("until", self.secs(until.0).to_string())],
            ),
            LogEvent::ErrorDead { err: id } => ("sim-log.error-dead", vec![err(*id)]),
            LogEvent::ErrorPermanent { err: id } => ("sim-log.error-permanent", vec![err(*id)]),
            LogEvent::SideEffect { before } => (
                "sim-log.side-effect",
                vec![
                    ("before", before.to_string()),
                    ("after", n.after(e.kind, *before).to_string()),
                ],
            ),
            LogEvent::KeyRejected { arrival, balance } => (
                "sim-log.key-rejected",
                vec![
                    ("key", n.key(e.kind, *arrival)),
                    ("balance", balance.to_string()),
                ],
            ),
            LogEvent::Crash => ("sim-log.crash", vec![]),
            LogEvent::RowLockWait { job } => {
                ("sim-log.row-lock-wait", vec![("job", job.to_string())])
            }
            LogEvent::SkipLocked { jobs } => {
                ("sim-log.skip-locked", vec![("jobs", job_list(jobs))])
            }
            LogEvent::LockError(le) => {
                ("sim-log.lock-error", vec![("error", le.text().to_owned())])
            }
            LogEvent::DownstreamOk => ("sim-log.downstream-ok", vec![]),
            LogEvent::InWorkerRetry { result, wait } => (
                "sim-log.in-worker-retry",
                vec![
                    ("result", call(*result)),
                    ("wait", self.secs(wait.0).to_string()),
                ],
            ),
            LogEvent::SubmissionFallback { n } => {
                ("sim-log.submission-fallback", vec![("n", n.to_string())])
            }
            LogEvent::SubmissionFailed { n } => {
                ("sim-log.submission-failed", vec![("n", n.to_string())])
            }
            LogEvent::SubmissionAccepted { n } => {
                ("sim-log.submission-accepted", vec![("n", n.to_string())])
            }
            LogEvent::SubmissionRetry { n, result, wait } => (
                "sim-log.submission-retry",
                vec![
                    ("n", n.to_string()),
                    ("result", call(*result)),
                    ("wait", self.secs(wait.0).to_string()),
                ],
            ),
            LogEvent::SubmissionGaveUp { n, result } => (
                "sim-log.submission-gave-up",
                vec![("n", n.to_string()), ("result", call(*result))],
            ),
        }
    }
}

/// Appends `template` to `out` with each `%{name}` replaced by its value, in one pass (a
/// value that itself contains `%{…}` is left alone). Unknown names stay as written.
fn fill(out: &mut String, template: &str, args: &[(&str, String)]) {
    let mut rest = template;
    while let Some(i) = rest.find("%{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find('}') {
            Some(j) => {
                let name = &after[..j];
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[i..i + 3 + j]),
                }
                rest = &after[j + 1..];
            }
            None => {
                out.push_str(&rest[i..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.head(f)?;
        let (e, n) = (self.entry, self.names);
        match &e.event {
            LogEvent::Enqueued => f.write_str("enqueued"),
            LogEvent::Claimed(how) => write!(f, "claimed ({})", how.sql()),
            LogEvent::Picked { job } => write!(f, "SELECT picks job#{job}"),
            LogEvent::NothingToClaim => f.write_str("nothing to claim"),
            LogEvent::ProbeRollback => f.write_str("ROLLBACK (the probe only looks)"),
            LogEvent::Done => f.write_str("done"),
            LogEvent::ErrorQueued { err, until } => {
                let until = self.secs(until.0);
                write!(f, "error {} → queued until {until}", n.error(*err))
            }
            LogEvent::ErrorDead { err } => write!(f, "error {} → dead", n.error(*err)),
            LogEvent::ErrorPermanent { err } => {
                write!(f, "error {} (permanent) → dead", n.error(*err))
            }
            LogEvent::SideEffect { before } => write!(
                f,
                "side effect applied: balance {before} → {}",
                n.after(e.kind, *before)
            ),
            LogEvent::KeyRejected { arrival, balance } => write!(
                f,
                "idempotency key {} already recorded (unique constraint) → ROLLBACK, balance stays {balance}",
                n.key(e.kind, *arrival)
            ),
            LogEvent::Crash => f.write_str("worker dies before complete()"),
            LogEvent::RowLockWait { job } => {
                write!(f, "FOR UPDATE waits for the row lock on job#{job}")
            }
            LogEvent::SkipLocked { jobs } => {
                write!(f, "SKIP LOCKED passes over {}", job_list(jobs))
            }
            LogEvent::LockError(le) => write!(f, "error: {}", le.text()),
            LogEvent::DownstreamOk => f.write_str("downstream ok"),
            LogEvent::InWorkerRetry { result, wait } => {
                let wait = self.secs(wait.0);
                write!(f, "{} → retry in the worker in {wait}", result.text())
            }
            LogEvent::SubmissionFallback { n } => write!(
                f,
                "submission {n}: publish failed, calling the downstream directly"
            ),
            LogEvent::SubmissionFailed { n } => {
                write!(f, "submission {n}: failed back to the user")
            }
            LogEvent::SubmissionAccepted { n } => {
                write!(f, "submission {n}: downstream ok → accepted")
            }
            LogEvent::SubmissionRetry { n, result, wait } => write!(
                f,
                "submission {n}: {} → call again in {}",
                result.text(),
                self.secs(wait.0)
            ),
            LogEvent::SubmissionGaveUp { n, result } => write!(
                f,
                "submission {n}: {} → failed back to the user",
                result.text()
            ),
        }
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

//! The jobs table and its four operations, with the seed's exact semantics.
//!
//! Source: seed `000` (`miniqueue.py`), restated in `docs/DOMAIN.md` §2. One row per job:
//! `id` (1, 2, …), `name`, `status`, `attempts` (times claimed), `max_attempts`, `run_after`,
//! `locked_until` (lease end), `last_error`. Every row is in exactly one [`Status`] at any time.
//!
//! * [`JobsTable::claim`] takes the lowest id among rows that are (`queued` and
//!   `run_after <= now`) or (`running` and `locked_until <= now`: an expired lease is
//!   reclaimed), and in the same step sets `running`, `attempts += 1`,
//!   `locked_until = now + lease`.
//! * [`JobsTable::complete`] sets `done` and clears the lease; `last_error` is kept.
//! * [`JobsTable::release`] sets `dead` when the claimed attempt number has reached
//!   `max_attempts`, else `queued` with `run_after = now + wait`; both record `last_error`.
//!
//! One deliberate addition to the seed's SQL: a `running` row whose lease has expired on its
//! last allowed attempt (`attempts >= max_attempts`) is not claimed again but goes to `dead`
//! (with the error set by [`JobsTable::set_expiry_error`]), as a managed queue moves a message
//! to its dead-letter queue after `maxReceiveCount` receives. Without it a worker that keeps
//! dying would push `attempts` past `max_attempts`. (The two-statement claim can still do so:
//! that race is what it demonstrates.)
//!
//! Claims cost `O(log n)`: rows that are claimable now sit in an ordered set (a four-level
//! bitset over ids: insert, remove and "lowest id" touch one word per level); rows that become
//! claimable later (a `run_after` or a lease end) sit in a min-heap keyed by that time and move
//! over when a claim looks at a later `now`. Stale heap entries are skipped.
//!
//! A table built with [`Retention::FirstRows`] deletes finished rows past the first `n` ids
//! (as a production queue's pruner deletes finished jobs), so its memory follows the jobs in
//! flight instead of the whole run; [`JobsTable::count`], [`JobsTable::transitions`] and
//! [`JobsTable::attempts_summary`] still cover every row ever enqueued.

use crate::domain::sim::core::time::{SimDuration, SimTime};
use ready::IdSet;
use serde::Serialize;
use std::cell::OnceCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

mod ready;

/// A job's id: 1, 2, … in enqueue order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct JobId(pub u64);

/// Index of a job kind (its handler) in the simulation's kind list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct KindId(pub u32);

/// Index of an error message in the simulation's error list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ErrorId(pub u32);

/// A row's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Waiting to be claimed (not before `run_after`).
    Queued,
    /// Claimed; other workers keep off until `locked_until`.
    Running,
    /// Completed.
    Done,
    /// Attempts used up (dead-lettered).
    Dead,
}

impl Status {
    /// All states.
    pub const ALL: [Status; 4] = [Status::Queued, Status::Running, Status::Done, Status::Dead];

    /// The column value, e.g. `"queued"`.
    pub fn id(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Running => "running",
            Status::Done => "done",
            Status::Dead => "dead",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One row of the jobs table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Row id.
    pub id: JobId,
    /// Which handler runs it.
    pub kind: KindId,
    /// Current state.
    pub status: Status,
    /// Times claimed.
    pub attempts: u32,
    /// Claims allowed, the first included.
    pub max_attempts: u32,
    /// Not claimable before this instant.
    pub run_after: SimTime,
    /// Lease end while `running`; `None` otherwise.
    pub locked_until: Option<SimTime>,
    /// The error of the latest failed attempt (kept when the job later completes).
    pub last_error: Option<ErrorId>,
}

/// A move of a row between states, counted by [`JobsTable::transitions`]. Each value has fixed
/// end states ([`Transition::from`], [`Transition::to`]; `from` is `None` for an enqueue), so
/// the counts per state are the enqueues plus the moves in minus the moves out. The first
/// [`Transition::NAMED`] values are the moves the seed's operations make; the rest,
/// [`Transition::other`], catch a write the table accepts without re-checking the status
/// (e.g. a late `release` by a worker whose lease expired and whose job another worker has
/// since completed: `done → queued`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Transition(pub u8);

impl Transition {
    /// `enqueue`: a new row, `queued`.
    pub const ENQUEUE: Transition = Transition(0);
    /// `claim`: `queued → running` (`attempts += 1`, lease set).
    pub const CLAIM: Transition = Transition(1);
    /// Lease expired, claimed again by a worker: `running → running` (`attempts += 1`).
    pub const RECLAIM: Transition = Transition(2);
    /// Claimed again while its lease still runs (the two-statement race's second `UPDATE`):
    /// `running → running`.
    pub const DOUBLE_CLAIM: Transition = Transition(3);
    /// `complete`: `running → done`.
    pub const COMPLETE: Transition = Transition(4);
    /// `release` with attempts left: `running → queued` with `run_after = now + wait`.
    pub const RETRY: Transition = Transition(5);
    /// `release` with attempts used up, or a permanent error: `running → dead`.
    pub const DEAD_LETTER: Transition = Transition(6);
    /// Lease expired on the last attempt: `running → dead`.
    pub const EXPIRE: Transition = Transition(7);
    /// A rolled-back transaction puts the row image back: `running → queued`.
    pub const ROLLBACK: Transition = Transition(8);
    /// `complete` on a row already `done` (a duplicate run finishing): `done → done`.
    pub const COMPLETE_AGAIN: Transition = Transition(9);
    /// Number of named transitions (indices `0 .. NAMED`).
    pub const NAMED: usize = 10;
    /// Size of the counter array: the named ones, then one per `(from, to)` pair of states.
    pub const COUNT: usize = Self::NAMED + 16;

    /// Any other write from `from` to `to`.
    pub const fn other(from: Status, to: Status) -> Transition {
        Transition((Self::NAMED + from as usize * 4 + to as usize) as u8)
    }

    /// The state it leaves (`None` for an enqueue).
    pub fn from(self) -> Option<Status> {
        Some(match self.0 {
            0 => return None,
            1 => Status::Queued,
            2..=8 => Status::Running,
            9 => Status::Done,
            n => Status::ALL[(usize::from(n).saturating_sub(Self::NAMED) / 4) % 4],
        })
    }

    /// The state it enters.
    pub fn to(self) -> Status {
        match self.0 {
            0 | 5 | 8 => Status::Queued,
            1..=3 => Status::Running,
            4 | 9 => Status::Done,
            6 | 7 => Status::Dead,
            n => Status::ALL[usize::from(n).saturating_sub(Self::NAMED) % 4],
        }
    }

    /// A stable name: `enqueue`, `claim`, `reclaim`, `double-claim`, `complete`, `retry`,
    /// `dead-letter`, `expire`, `rollback`, `complete-again`, else `other`.
    pub fn id(self) -> &'static str {
        match self.0 {
            0 => "enqueue",
            1 => "claim",
            2 => "reclaim",
            3 => "double-claim",
            4 => "complete",
            5 => "retry",
            6 => "dead-letter",
            7 => "expire",
            8 => "rollback",
            9 => "complete-again",
            _ => "other",
        }
    }

    /// `via` when it matches the move from `old` to `new`, else the catch-all for the pair.
    #[inline(always)]
    fn of(via: Transition, old: Status, new: Status) -> Transition {
        if via.from() == Some(old) && via.to() == new {
            via
        } else {
            Transition::other(old, new)
        }
    }
}

/// A row just claimed: its id, its attempt number (`attempts` after the claim) and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Claimed {
    pub id: JobId,
    pub attempts: u32,
    pub kind: KindId,
    pub enqueued_at: SimTime,
}

/// What [`JobsTable::release`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Released {
    /// Back to `queued`, claimable from `run_after`.
    Queued {
        /// When it can be claimed again.
        run_after: SimTime,
    },
    /// Attempts used up: `dead`.
    Dead,
}

/// "No error" in [`Row::last_error`].
const NO_ERROR: u32 = u32::MAX;

/// [`Row::flags`]: a run of the job has succeeded.
const SUCCEEDED: u8 = 1;
/// [`Row::flags`]: the job's side effect has been applied.
const EFFECTED: u8 = 2;
/// [`Row::flags`]: the row has been deleted ([`Retention::FirstRows`]); only its slot is left.
const DELETED: u8 = 4;

/// A row as stored: ids are implicit, options are sentinels, and the few per-job facts the
/// engine needs while a job lives (enqueue time, "succeeded before", "effect applied before",
/// workers holding it) ride along, so they go when the row is deleted.
#[derive(Debug, Clone, Copy)]
struct Row {
    run_after: SimTime,
    /// Lease end; meaningful when `leased`.
    lease_end: SimTime,
    /// When it was enqueued (for the wait and latency spans).
    enqueued_at: SimTime,
    kind: KindId,
    attempts: u32,
    max_attempts: u32,
    /// An [`ErrorId`], or [`NO_ERROR`].
    last_error: u32,
    status: Status,
    leased: bool,
    /// [`SUCCEEDED`], [`EFFECTED`], [`DELETED`].
    flags: u8,
}

impl Row {
    fn locked_until(&self) -> Option<SimTime> {
        self.leased.then_some(self.lease_end)
    }

    fn last_error(&self) -> Option<ErrorId> {
        (self.last_error != NO_ERROR).then_some(ErrorId(self.last_error))
    }

    fn set_last_error(&mut self, e: Option<ErrorId>) {
        self.last_error = e.map_or(NO_ERROR, |e| e.0);
    }

    fn job(&self, id: u64) -> Job {
        Job {
            id: JobId(id),
            kind: self.kind,
            status: self.status,
            attempts: self.attempts,
            max_attempts: self.max_attempts,
            run_after: self.run_after,
            locked_until: self.locked_until(),
            last_error: self.last_error(),
        }
    }

    /// The time at which the row's pending heap entry is still meaningful.
    fn due(&self) -> Option<SimTime> {
        match self.status {
            Status::Queued => Some(self.run_after),
            Status::Running => self.locked_until(),
            Status::Done | Status::Dead => None,
        }
    }

    fn finished(&self) -> bool {
        matches!(self.status, Status::Done | Status::Dead)
    }
}

/// Enqueues between two sweeps of a table that deletes finished rows ([`Retention::FirstRows`]).
pub const SWEEP_EVERY: u64 = 4_096;

/// Which rows the table keeps once their job is finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Retention {
    /// Every row stays, as in the seed's table.
    #[default]
    All,
    /// Rows with ids up to `n` stay; any later row is deleted once it is finished (`done` or
    /// `dead`) and no worker refers to it, as a production queue's pruner deletes finished
    /// jobs: in sweeps every [`SWEEP_EVERY`] enqueues and when the run stops. [`JobsTable::count`], [`JobsTable::transitions`],
    /// [`JobsTable::attempts_summary`] and the engine's wait and latency samples still cover
    /// every row ever enqueued. Memory then grows with the jobs in flight, not with the run.
    FirstRows(u64),
}

/// The jobs table. See the module docs for the semantics.
///
/// Rows are stored compactly; [`JobsTable::rows`] and [`JobsTable::get`] hand out [`Job`]s
/// from a view built on first use after a change (`O(n)` then), while [`JobsTable::row`] and
/// [`JobsTable::iter`] build single rows on the fly.
#[derive(Debug, Clone)]
pub struct JobsTable {
    /// The stored rows: ids `1 ..= keep`, then the later ids not yet removed. A deleted row
    /// ([`Retention::FirstRows`]) stays as a [`DELETED`] slot until every older row past the
    /// kept ids is deleted too (`removed` counts the slots freed), so the row of id
    /// `i > keep + removed` is `rows[i - 1 - removed]`: one subtraction, no search.
    rows: Vec<Row>,
    /// Ids that are never deleted: [`u64::MAX`] under [`Retention::All`].
    keep: u64,
    /// Rows removed from `rows` (all deleted, ids `keep + 1 ..= keep + removed`).
    removed: u64,

    /// Rows ever enqueued (the highest id).
    enqueued: u64,
    /// Deleted rows per `(status, attempts, max_attempts)`, in order of first deletion (a
    /// handful of distinct keys: a list beats a map here).
    deleted: Vec<((Status, u32, u32), u64)>,
    /// The rows as [`Job`]s, built by [`JobsTable::rows`]; cleared by every change.
    view: OnceCell<Vec<Job>>,
    /// Ids claimable at the time of the latest [`JobsTable::refresh`].
    ready: IdSet,
    /// `(time, id)` at which a row becomes claimable; may hold stale entries.
    later: BinaryHeap<Reverse<(SimTime, u64)>>,
    counts: [u64; 4],
    expiry_error: Option<ErrorId>,
    /// The latest `now` seen by [`JobsTable::refresh`]; time never goes back.
    refreshed: SimTime,
    /// Moves so far, indexed by [`Transition`].
    moves: [u64; Transition::COUNT],
}

impl Default for JobsTable {
    fn default() -> JobsTable {
        JobsTable {
            rows: Vec::new(),
            keep: u64::MAX,
            removed: 0,

            enqueued: 0,
            deleted: Vec::new(),
            view: OnceCell::new(),
            ready: IdSet::default(),
            later: BinaryHeap::new(),
            counts: [0; 4],
            expiry_error: None,
            refreshed: SimTime::ZERO,
            moves: [0; Transition::COUNT],
        }
    }
}

impl JobsTable {
    /// An empty table that keeps every row.
    pub fn new() -> JobsTable {
        JobsTable::default()
    }

    /// An empty table with room for `rows` rows (capped at 2²⁰ up front; it grows past that).
    pub fn with_capacity(rows: u64) -> JobsTable {
        JobsTable::with_retention(rows, Retention::All)
    }

    /// An empty table keeping rows as `retention` says, with room for the rows it keeps
    /// (capped at 2²⁰ up front).
    pub fn with_retention(rows: u64, retention: Retention) -> JobsTable {
        let mut t = JobsTable::new();
        if let Retention::FirstRows(n) = retention {
            t.keep = n.min(u64::MAX - 1);
        }
        t.rows.reserve(rows.min(t.keep).min(1 << 20) as usize);
        t
    }

    /// `true` when some rows may be deleted ([`Retention::FirstRows`]).
    #[inline]
    pub(super) fn deletes(&self) -> bool {
        self.keep != u64::MAX
    }

    /// Rows deleted so far ([`Retention::FirstRows`]); `0` under [`Retention::All`].
    pub fn deleted(&self) -> u64 {
        self.deleted.iter().map(|&(_, n)| n).sum()
    }

    /// Every row ever enqueued, kept or deleted, as `(status, attempts, max_attempts, rows)`:
    /// the kept rows one by one, then the deleted ones grouped.
    pub fn attempts_summary(&self) -> impl Iterator<Item = (Status, u32, u32, u64)> + '_ {
        self.slots()
            .map(|(_, r)| (r.status, r.attempts, r.max_attempts, 1))
            .chain(self.deleted.iter().map(|&((s, a, m), n)| (s, a, m, n)))
    }

    /// The `last_error` given to a row whose lease expired on its last attempt (see the
    /// module docs). Unset: such a row keeps its previous `last_error`.
    pub fn set_expiry_error(&mut self, error: ErrorId) {
        self.expiry_error = Some(error);
    }

    /// All rows in id order. Builds (and keeps until the next change) a view of the table:
    /// `O(n)` on the first call after a change; [`JobsTable::iter`] does not keep one.
    pub fn rows(&self) -> &[Job] {
        self.view.get_or_init(|| self.iter().collect())
    }

    /// All kept rows in id order, each built on the fly.
    pub fn iter(&self) -> impl Iterator<Item = Job> + '_ {
        self.slots().map(|(id, r)| r.job(id))
    }

    /// Kept rows with their ids.
    fn slots(&self) -> impl Iterator<Item = (u64, &Row)> + '_ {
        let kept = usize::try_from(self.keep)
            .unwrap_or(usize::MAX)
            .min(self.rows.len());
        let (first, later) = self.rows.split_at(kept);
        // (Rows first in the zip: the id range is only advanced for a row that exists.)
        let later = later
            .iter()
            .zip(self.keep.saturating_add(self.removed).saturating_add(1)..)
            .filter(|(r, _)| r.flags & DELETED == 0)
            .map(|(r, id)| (id, r));
        (1..).zip(first).chain(later)
    }

    /// The kept row with `id`, from the view of [`JobsTable::rows`].
    pub fn get(&self, id: JobId) -> Option<&Job> {
        let rows = self.rows();
        rows.binary_search_by_key(&id, |j| j.id)
            .ok()
            .and_then(|i| rows.get(i))
    }

    /// The kept row with `id`, built on the fly (`O(1)`, no view); `None` for an unknown or
    /// deleted id.
    pub fn row(&self, id: JobId) -> Option<Job> {
        self.stored(id).map(|r| r.job(id.0))
    }

    /// Where row `id` is stored in `rows` (`None` for id 0 or a removed id; a deleted slot
    /// still has an index).
    #[inline(always)]
    fn index(&self, id: u64) -> Option<usize> {
        let i = id.checked_sub(1)?;
        let i = if id <= self.keep {
            i
        } else if id > self.keep + self.removed {
            i - self.removed
        } else {
            return None;
        };
        usize::try_from(i).ok()
    }

    #[inline(always)]
    fn stored(&self, id: JobId) -> Option<&Row> {
        self.rows
            .get(self.index(id.0)?)
            .filter(|r| r.flags & DELETED == 0)
    }

    /// The stored row, for a change: drops the view.
    #[inline(always)]
    fn stored_mut(&mut self, id: JobId) -> Option<&mut Row> {
        if self.view.get().is_some() {
            self.view = OnceCell::new();
        }
        let i = self.index(id.0)?;
        self.rows.get_mut(i).filter(|r| r.flags & DELETED == 0)
    }

    /// Sets flag `bit` on row `id`; returns whether it was already set.
    fn flag(&mut self, id: JobId, bit: u8) -> bool {
        self.stored_mut(id).is_some_and(|r| {
            let before = r.flags & bit != 0;
            r.flags |= bit;
            before
        })
    }

    /// Records that a run of `id` succeeded; returns whether one had before (a duplicate run).
    pub(super) fn mark_succeeded(&mut self, id: JobId) -> bool {
        self.flag(id, SUCCEEDED)
    }

    /// Records that `id`'s side effect was applied; returns whether it had been before.
    pub(super) fn mark_effected(&mut self, id: JobId) -> bool {
        self.flag(id, EFFECTED)
    }

    /// Deletes every finished row past the kept ids that no worker refers to (`held`: the
    /// ids workers are running, selecting or waiting for, sorted), then frees the
    /// leading run of deleted slots. `O(rows stored past the kept ids + held)`; the engine
    /// calls it every [`SWEEP_EVERY`] enqueues and when a run stops, so a finished run's table
    /// holds exactly the rows [`Retention::FirstRows`] keeps.
    pub(super) fn sweep(&mut self, held: &[JobId]) {
        if self.keep == u64::MAX {
            return;
        }
        let kept = usize::try_from(self.keep)
            .unwrap_or(usize::MAX)
            .min(self.rows.len());
        let first_id = self.keep + self.removed + 1;
        let mut deleted_any = false;
        // Rows below the lowest held id need no search in `held`; the group of the previous
        // deletion is tried first (most deleted rows share one: done on their first attempt).
        let held_from = held.first().map_or(u64::MAX, |h| h.0);
        let mut group = 0;
        for (r, id) in self.rows[kept..].iter_mut().zip(first_id..) {
            if r.flags & DELETED != 0
                || !r.finished()
                || (id >= held_from && held.binary_search(&JobId(id)).is_ok())
            {
                continue;
            }
            r.flags |= DELETED;
            deleted_any = true;
            let key = (r.status, r.attempts, r.max_attempts);
            match self.deleted.get_mut(group) {
                Some((k, n)) if *k == key => *n += 1,
                _ => match self.deleted.iter().position(|(k, _)| *k == key) {
                    Some(i) => {
                        group = i;
                        self.deleted[i].1 += 1;
                    }
                    None => {
                        group = self.deleted.len();
                        self.deleted.push((key, 1));
                    }
                },
            }
        }
        if !deleted_any {
            return;
        }
        self.view = OnceCell::new();
        let dead = self.rows[kept..]
            .iter()
            .take_while(|r| r.flags & DELETED != 0)
            .count();
        self.rows.drain(kept..kept + dead);
        self.removed += dead as u64;
    }

    /// Number of rows in `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.counts[status.index()]
    }

    /// Moves so far per [`Transition`] (index = its number): cumulative, so the moves of one
    /// engine step are the difference of two reads.
    pub fn transitions(&self) -> &[u64; Transition::COUNT] {
        &self.moves
    }

    /// Number of rows ever enqueued (kept or deleted): the highest id.
    pub fn len(&self) -> usize {
        usize::try_from(self.enqueued).unwrap_or(usize::MAX)
    }

    /// `true` when no row was ever enqueued.
    pub fn is_empty(&self) -> bool {
        self.enqueued == 0
    }

    fn set_status(&mut self, id: JobId, status: Status, via: Transition) {
        if let Some(row) = self.stored_mut(id) {
            let old = row.status;
            row.status = status;
            self.counts[old.index()] -= 1;
            self.counts[status.index()] += 1;
            self.moves[usize::from(Transition::of(via, old, status).0)] += 1;
        }
    }

    /// Adds a `queued` row claimable from `run_after`; returns its id.
    pub fn enqueue(&mut self, kind: KindId, max_attempts: u32, run_after: SimTime) -> JobId {
        self.enqueued += 1;
        let id = JobId(self.enqueued);
        self.view = OnceCell::new();
        let row = Row {
            run_after,
            lease_end: SimTime::ZERO,
            enqueued_at: run_after,
            kind,
            attempts: 0,
            max_attempts,
            last_error: NO_ERROR,
            status: Status::Queued,
            leased: false,
            flags: 0,
        };
        self.rows.push(row);
        self.counts[Status::Queued.index()] += 1;
        self.moves[usize::from(Transition::ENQUEUE.0)] += 1;
        if run_after <= self.refreshed {
            // What `admit` would do for this fresh `queued` row, without looking it up.
            self.ready.insert(id.0);
        } else {
            self.schedule(run_after, id.0);
        }
        id
    }

    /// Files row `id` as claimable from `t`: straight into the ready set when `t` has already
    /// been reached, never when `t` is [`SimTime::MAX`] (a lease that never expires).
    fn schedule(&mut self, t: SimTime, id: u64) {
        if t == SimTime::MAX {
            return;
        }
        if t <= self.refreshed {
            self.admit(t, id);
        } else {
            self.later.push(Reverse((t, id)));
        }
    }

    /// Row `id` has reached its time `t`: into the ready set, unless the entry is stale or the
    /// row's lease expired on its last attempt (then `dead`).
    fn admit(&mut self, t: SimTime, id: u64) {
        let Some(row) = self.stored(JobId(id)) else {
            return;
        };
        if row.due() != Some(t) {
            return;
        }
        if row.status == Status::Running && row.attempts >= row.max_attempts {
            let err = self.expiry_error.or(row.last_error());
            self.set_status(JobId(id), Status::Dead, Transition::EXPIRE);
            if let Some(row) = self.stored_mut(JobId(id)) {
                row.leased = false;
                row.set_last_error(err);
            }
        } else {
            self.ready.insert(id);
        }
    }

    /// Is `row` claimable at `now`?
    pub fn claimable(row: &Job, now: SimTime) -> bool {
        match row.status {
            Status::Queued => row.run_after <= now,
            Status::Running => row.locked_until.is_some_and(|t| t <= now),
            Status::Done | Status::Dead => false,
        }
    }

    /// Moves rows that have become claimable by `now` into the ready set.
    #[inline(always)]
    pub fn refresh(&mut self, now: SimTime) {
        self.refreshed = self.refreshed.max(now);
        // Inlined check, out-of-line work: most calls find nothing due.
        if self.later.peek().is_some_and(|&Reverse((t, _))| t <= now) {
            self.admit_due(now);
        }
    }

    /// [`JobsTable::refresh`]'s work: admits every row due by `now`.
    #[inline(never)]
    fn admit_due(&mut self, now: SimTime) {
        while let Some(&Reverse((t, id))) = self.later.peek() {
            if t > now {
                break;
            }
            self.later.pop();
            self.admit(t, id);
        }
    }

    /// The earliest future instant at which some row becomes claimable (a `run_after` or a
    /// lease end), if any.
    pub fn next_claimable_at(&mut self) -> Option<SimTime> {
        while let Some(&Reverse((t, id))) = self.later.peek() {
            let live = self.stored(JobId(id)).is_some_and(|r| r.due() == Some(t));
            if live {
                return Some(t);
            }
            self.later.pop();
        }
        None
    }

    /// Number of rows claimable at `now`.
    pub fn claimable_count(&mut self, now: SimTime) -> usize {
        self.refresh(now);
        self.ready.len()
    }

    /// The lowest claimable id at `now`, without claiming it (the first statement of a
    /// two-statement claim, or the row a `FOR UPDATE` would lock).
    #[inline(always)]
    pub fn peek_claimable(&mut self, now: SimTime) -> Option<JobId> {
        self.refresh(now);
        self.ready.first().map(JobId)
    }

    /// The lowest claimable id at `now` that `skip` does not reject.
    pub fn peek_claimable_where(
        &mut self,
        now: SimTime,
        mut skip: impl FnMut(JobId) -> bool,
    ) -> Option<JobId> {
        self.refresh(now);
        self.ready.iter().map(JobId).find(|&id| !skip(id))
    }

    /// Atomic claim (`UPDATE … RETURNING` in one statement): the lowest claimable id at `now`
    /// becomes `running` with `attempts += 1` and `locked_until = now + lease`. Returns the
    /// claimed row, or `None` when nothing is claimable.
    pub fn claim(&mut self, now: SimTime, lease: SimDuration) -> Option<Job> {
        let id = self.peek_claimable(now)?;
        self.mark_running(id, now, lease)
    }

    /// Sets row `id` to `running`, `attempts += 1`, `locked_until = now + lease`,
    /// unconditionally: the second statement of a two-statement claim, which does not re-check
    /// the status (that is the race). Returns the updated row; `None` for an unknown id.
    pub fn mark_running(&mut self, id: JobId, now: SimTime, lease: SimDuration) -> Option<Job> {
        self.mark_running_claimed(id, now, lease)?;
        self.row(id)
    }

    /// [`JobsTable::mark_running`] returning only what a worker needs to start the run (the
    /// engine's hot path: no [`Job`] is built).
    #[inline(always)]
    pub(super) fn mark_running_claimed(
        &mut self,
        id: JobId,
        now: SimTime,
        lease: SimDuration,
    ) -> Option<Claimed> {
        let row = self.stored_mut(id)?;
        let old = row.status;
        let via = match old {
            Status::Running if row.leased && row.lease_end <= now => Transition::RECLAIM,
            Status::Running => Transition::DOUBLE_CLAIM,
            _ => Transition::CLAIM,
        };
        let until = now.plus(lease);
        row.status = Status::Running;
        row.attempts = row.attempts.saturating_add(1);
        row.lease_end = until;
        row.leased = true;
        let out = Claimed {
            id,
            attempts: row.attempts,
            kind: row.kind,
            enqueued_at: row.enqueued_at,
        };
        self.counts[old.index()] -= 1;
        self.counts[Status::Running.index()] += 1;
        self.moves[usize::from(Transition::of(via, old, Status::Running).0)] += 1;
        self.ready.remove(id.0);
        self.schedule(until, id.0);
        Some(out)
    }

    /// Atomic claim returning only what a worker needs (see [`JobsTable::claim`]).
    #[inline(always)]
    pub(super) fn claim_run(&mut self, now: SimTime, lease: SimDuration) -> Option<Claimed> {
        let id = self.peek_claimable(now)?;
        self.mark_running_claimed(id, now, lease)
    }

    /// `complete`: `done`, lease cleared, `last_error` kept. Returns `false` for an unknown id.
    pub fn complete(&mut self, id: JobId) -> bool {
        self.complete_run(id, false).is_some()
    }

    /// [`JobsTable::complete`] in one row lookup, returning when the row was enqueued and
    /// whether a run of it had succeeded before (`None` for an unknown id). With `succeeded`,
    /// also records the run's success (as [`JobsTable::mark_succeeded`] does, in the same
    /// lookup); without, the second value is `false`.
    #[inline(always)]
    pub(super) fn complete_run(&mut self, id: JobId, succeeded: bool) -> Option<(SimTime, bool)> {
        let row = self.stored_mut(id)?;
        let again = succeeded && row.flags & SUCCEEDED != 0;
        if succeeded {
            row.flags |= SUCCEEDED;
        }
        let old = row.status;
        let via = if old == Status::Done {
            Transition::COMPLETE_AGAIN
        } else {
            Transition::COMPLETE
        };
        row.status = Status::Done;
        row.leased = false;
        let enqueued_at = row.enqueued_at;
        self.counts[old.index()] -= 1;
        self.counts[Status::Done.index()] += 1;
        self.moves[usize::from(Transition::of(via, old, Status::Done).0)] += 1;
        self.ready.remove(id.0);
        Some((enqueued_at, again))
    }

    /// `release` after a failed attempt. `attempt` is the attempt number returned by the claim
    /// (the seed compares the claimed row's `attempts`, not a fresh read). When
    /// `attempt >= max_attempts` the row becomes `dead`; otherwise `queued` with
    /// `run_after = now + wait`. Either way `last_error = error`. `None` for an unknown id.
    pub fn release(
        &mut self,
        id: JobId,
        attempt: u32,
        error: ErrorId,
        now: SimTime,
        wait: SimDuration,
    ) -> Option<Released> {
        let max = self.stored(id)?.max_attempts;
        if attempt >= max {
            self.dead_letter(id, error);
            return Some(Released::Dead);
        }
        self.set_status(id, Status::Queued, Transition::RETRY);
        self.ready.remove(id.0);
        let run_after = now.plus(wait);
        let row = self.stored_mut(id)?;
        row.leased = false;
        row.run_after = run_after;
        row.set_last_error(Some(error));
        self.schedule(run_after, id.0);
        Some(Released::Queued { run_after })
    }

    /// Sends row `id` straight to `dead` with `last_error = error` (a permanent error when
    /// errors are classified). Returns `false` for an unknown id.
    pub fn dead_letter(&mut self, id: JobId, error: ErrorId) -> bool {
        if self.stored(id).is_none() {
            return false;
        }
        self.set_status(id, Status::Dead, Transition::DEAD_LETTER);
        self.ready.remove(id.0);
        if let Some(row) = self.stored_mut(id) {
            row.leased = false;
            row.set_last_error(Some(error));
        }
        true
    }

    /// Puts back a row image taken before an uncommitted change (a rolled-back transaction).
    pub fn restore(&mut self, image: Job) {
        let id = image.id;
        if self.stored(id).is_none() {
            return;
        }
        self.set_status(id, image.status, Transition::ROLLBACK);
        self.ready.remove(id.0);
        let due = Self::due(&image);
        if let Some(row) = self.stored_mut(id) {
            // The image holds the table's columns; what the engine keeps beside them stays.
            *row = Row {
                run_after: image.run_after,
                lease_end: image.locked_until.unwrap_or(SimTime::ZERO),
                kind: image.kind,
                attempts: image.attempts,
                max_attempts: image.max_attempts,
                status: image.status,
                leased: image.locked_until.is_some(),
                ..*row
            };
            row.set_last_error(image.last_error);
        }
        if let Some(t) = due {
            self.schedule(t, id.0);
        }
    }

    /// The time at which the row's pending heap entry is still meaningful.
    fn due(row: &Job) -> Option<SimTime> {
        match row.status {
            Status::Queued => Some(row.run_after),
            Status::Running => row.locked_until,
            Status::Done | Status::Dead => None,
        }
    }
}

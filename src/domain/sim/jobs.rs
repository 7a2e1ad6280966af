//! The jobs table and its four operations, with the source documents' exact semantics.
//!
//! Source: source document `000` (`miniqueue.py`), restated in `docs/DOMAIN.md` §2. One row per job:
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
//! What happens to a `running` row whose lease has expired on its last allowed attempt
//! (`attempts >= max_attempts`) is an [`ExpiryRule`] ([`JobsTable::set_expiry_rule`]):
//! [`ExpiryRule::Reclaim`] (the default) is the source documents' SQL: the claim has no attempts
//! check, so the row is claimed again (attempt 2/1, 3/1 …) and goes `dead` only when a
//! `release` finds `attempts >= max_attempts`. [`ExpiryRule::DeadLetter`] sends the row to
//! `dead` instead (with the error set by [`JobsTable::set_expiry_error`]), as a managed queue
//! moves a message to its dead-letter queue after `maxReceiveCount` receives (SQS).
//!
//! Beside the columns, a row keeps what the engine asks of it: how many runs of it are going
//! ([`JobsTable::end_run`]; a claim starts one), whether a claim still holds it
//! ([`JobsTable::holds`]: the owner check), and lease renewals ([`JobsTable::extend_lease`]).
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
//!
//! Files: this one holds the table and its operations; `lease`: the runs going, the owner
//! check, heartbeats and the dead-letter rule's expiry mark; `row`: a row as stored; `ready`: the
//! set of claimable ids; `transition`: the counted moves between states; `retention`: which
//! finished rows are kept, and the sweep that deletes the others.

use crate::domain::sim::core::time::{SimDuration, SimTime};
use ready::IdSet;
use serde::Serialize;
use std::cell::OnceCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

mod lease;
mod ready;
mod retention;
mod row;
mod transition;

pub use lease::ExpiryRule;
pub use retention::{Retention, SWEEP_EVERY};
use row::{Row, DELETED, EFFECTED, EXPIRED, NO_ERROR, SUCCEEDED};
pub use transition::Transition;

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

/// A row just claimed: its id, its attempt number (`attempts` after the claim) and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Claimed {
    pub id: JobId,
    pub attempts: u32,
    pub kind: KindId,
    pub enqueued_at: SimTime,
    /// Another run of the row was still going when this claim started one.
    pub overlap: bool,
}

/// What [`JobsTable::complete_run`] found and did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Completed {
    /// When the row was enqueued.
    pub enqueued_at: SimTime,
    /// A run of it had succeeded before (only with `succeeded`).
    pub again: bool,
    /// Its status before the `complete`.
    pub was: Status,
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
    /// What an expired lease on the last attempt does.
    expiry_rule: ExpiryRule,
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
            expiry_rule: ExpiryRule::Reclaim,
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

    /// Every row ever enqueued, kept or deleted, as `(status, attempts, max_attempts, rows)`:
    /// the kept rows one by one, then the deleted ones grouped.
    pub fn attempts_summary(&self) -> impl Iterator<Item = (Status, u32, u32, u64)> + '_ {
        self.slots()
            .map(|(_, r)| (r.status, r.attempts, r.max_attempts, 1))
            .chain(self.deleted.iter().map(|&((s, a, m), n)| (s, a, m, n)))
    }

    /// The `last_error` given to a row whose lease expired on its last attempt under
    /// [`ExpiryRule::DeadLetter`]. Unset: such a row keeps its previous `last_error`.
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
            live: 0,
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
    /// row's lease expired on its last attempt under [`ExpiryRule::DeadLetter`] (then `dead`).
    fn admit(&mut self, t: SimTime, id: u64) {
        let Some(row) = self.stored(JobId(id)) else {
            return;
        };
        if row.due() != Some(t) {
            return;
        }
        if row.status == Status::Running
            && row.attempts >= row.max_attempts
            && self.expiry_rule == ExpiryRule::DeadLetter
        {
            let err = self.expiry_error.or(row.last_error());
            self.set_status(JobId(id), Status::Dead, Transition::EXPIRE);
            if let Some(row) = self.stored_mut(JobId(id)) {
                row.leased = false;
                row.flags |= EXPIRED;
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

    /// Sets row `id` to `running`, `attempts += 1`, `locked_until = now + lease` (and counts a
    /// run of it as going, see [`JobsTable::end_run`]), unconditionally: the second statement of a two-statement claim, which does not re-check
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
        let overlap = row.live > 0;
        row.live = row.live.saturating_add(1);
        let out = Claimed {
            id,
            attempts: row.attempts,
            kind: row.kind,
            enqueued_at: row.enqueued_at,
            overlap,
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

    /// [`JobsTable::complete`] in one row lookup, returning when the row was enqueued, whether
    /// a run of it had succeeded before and its status before (`None` for an unknown id). With
    /// `succeeded`, also records the run's success (as [`JobsTable::mark_succeeded`] does, in
    /// the same lookup); without, `again` is `false`.
    #[inline(always)]
    pub(super) fn complete_run(&mut self, id: JobId, succeeded: bool) -> Option<Completed> {
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
        Some(Completed {
            enqueued_at,
            again,
            was: old,
        })
    }

    /// `release` after a failed attempt. `attempt` is the attempt number returned by the claim
    /// (the source documents' SQL compares the claimed row's `attempts`, not a fresh read). When
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

//! [`Row`]: a row of the jobs table as stored (compact, ids implicit, options as sentinels),
//! and the [`Job`] it stands for.

use super::{ErrorId, Job, JobId, KindId, Status};
use crate::domain::sim::core::time::SimTime;

/// "No error" in [`Row::last_error`].
pub(super) const NO_ERROR: u32 = u32::MAX;

/// [`Row::flags`]: a run of the job has succeeded.
pub(super) const SUCCEEDED: u8 = 1;
/// [`Row::flags`]: the job's side effect has been applied.
pub(super) const EFFECTED: u8 = 2;
/// [`Row::flags`]: the row has been deleted ([`Retention::FirstRows`]); only its slot is left.
pub(super) const DELETED: u8 = 4;
/// [`Row::flags`]: the row went `dead` when its lease expired on its last attempt, not yet
/// reported ([`JobsTable::take_expired`](super::JobsTable::take_expired)).
pub(super) const EXPIRED: u8 = 8;

/// A row as stored: ids are implicit, options are sentinels, and the few per-job facts the
/// engine needs while a job lives (enqueue time, "succeeded before", "effect applied before",
/// workers holding it) ride along, so they go when the row is deleted.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) run_after: SimTime,
    /// Lease end; meaningful when `leased`.
    pub(super) lease_end: SimTime,
    /// When it was enqueued (for the wait and latency spans).
    pub(super) enqueued_at: SimTime,
    pub(super) kind: KindId,
    pub(super) attempts: u32,
    pub(super) max_attempts: u32,
    /// An [`ErrorId`], or [`NO_ERROR`].
    pub(super) last_error: u32,
    pub(super) status: Status,
    pub(super) leased: bool,
    /// [`SUCCEEDED`], [`EFFECTED`], [`DELETED`], [`EXPIRED`].
    pub(super) flags: u8,
    /// Runs of the job going (a claim starts one; the engine ends it).
    pub(super) live: u8,
}

impl Row {
    pub(super) fn locked_until(&self) -> Option<SimTime> {
        self.leased.then_some(self.lease_end)
    }

    pub(super) fn last_error(&self) -> Option<ErrorId> {
        (self.last_error != NO_ERROR).then_some(ErrorId(self.last_error))
    }

    pub(super) fn set_last_error(&mut self, e: Option<ErrorId>) {
        self.last_error = e.map_or(NO_ERROR, |e| e.0);
    }

    pub(super) fn job(&self, id: u64) -> Job {
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
    pub(super) fn due(&self) -> Option<SimTime> {
        match self.status {
            Status::Queued => Some(self.run_after),
            Status::Running => self.locked_until(),
            Status::Done | Status::Dead => None,
        }
    }

    pub(super) fn finished(&self) -> bool {
        matches!(self.status, Status::Done | Status::Dead)
    }
}

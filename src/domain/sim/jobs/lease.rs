//! The table's side of leases beyond the source documents' four statements: how many runs of
//! a row are going, whether a claim still holds a row (the owner check), heartbeats, and the
//! dead-letter rule's expiry mark.

use super::row::EXPIRED;
use super::{JobId, JobsTable, Status};
use crate::domain::sim::core::time::SimTime;
use serde::Serialize;

/// What happens to a `running` row whose lease expires on its last allowed attempt. See the
/// docs of [`jobs`](super).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExpiryRule {
    /// Claimed again, past `max_attempts` (the source documents' claim has no attempts check).
    #[default]
    Reclaim,
    /// Sent to `dead` when the lease ends (a dead-letter queue's `maxReceiveCount`).
    DeadLetter,
}

impl JobsTable {
    /// What an expired lease on the last attempt does (default [`ExpiryRule::Reclaim`]).
    pub fn set_expiry_rule(&mut self, rule: ExpiryRule) {
        self.expiry_rule = rule;
    }

    /// A run of row `id` has ended (every claim starts one; a `u8` count, saturating).
    #[inline(always)]
    pub fn end_run(&mut self, id: JobId) {
        let i = self.index(id.0).unwrap_or(usize::MAX);
        if let Some(row) = self.rows.get_mut(i) {
            row.live = row.live.saturating_sub(1);
        }
    }

    /// [`JobsTable::end_run`] and [`JobsTable::holds`] in one row lookup (the end of a run on
    /// the engine's hot path).
    #[inline(always)]
    pub(in crate::domain::sim) fn end_run_holding(
        &mut self,
        id: JobId,
        attempt: u32,
        now: SimTime,
    ) -> bool {
        let i = self.index(id.0).unwrap_or(usize::MAX);
        match self.rows.get_mut(i) {
            Some(row) => {
                row.live = row.live.saturating_sub(1);
                row.attempts == attempt && row.lease_end > now
            }
            None => false,
        }
    }

    /// Whether the claim that returned attempt number `attempt` still holds row `id` at `now`:
    /// no claim has taken the row since (its `attempts` is still `attempt`) and that claim's
    /// lease has not run out (`locked_until > now`, as last set by the claim or a heartbeat).
    /// This is the owner check of `complete` / `release` (a lease token: `WHERE id = ? AND
    /// attempts = ? AND locked_until > now`); a result from a claim that no longer holds the
    /// row is stale.
    #[inline(always)]
    pub fn holds(&self, id: JobId, attempt: u32, now: SimTime) -> bool {
        self.stored(id)
            .is_some_and(|r| r.attempts == attempt && r.lease_end > now)
    }

    /// A heartbeat: when the claim that returned `attempt` still holds row `id` at `now`
    /// ([`JobsTable::holds`]) and the row is `running`, its lease is extended to `until`;
    /// returns whether it was.
    pub fn extend_lease(&mut self, id: JobId, attempt: u32, now: SimTime, until: SimTime) -> bool {
        let running = self.stored(id).is_some_and(|r| r.status == Status::Running);
        if !running || !self.holds(id, attempt, now) {
            return false;
        }
        if let Some(row) = self.stored_mut(id) {
            row.lease_end = until;
            row.leased = true;
        }
        self.ready.remove(id.0);
        self.schedule(until, id.0);
        true
    }

    /// Whether row `id` went `dead` because its lease expired on its last attempt under
    /// [`ExpiryRule::DeadLetter`] since the last call (brought up to `now` first); the mark is
    /// cleared, so each expiry is reported once.
    pub fn take_expired(&mut self, id: JobId, now: SimTime) -> bool {
        self.refresh(now);
        let expired = self.stored(id).is_some_and(|r| r.flags & EXPIRED != 0);
        if expired {
            if let Some(row) = self.stored_mut(id) {
                row.flags &= !EXPIRED;
            }
        }
        expired
    }
}

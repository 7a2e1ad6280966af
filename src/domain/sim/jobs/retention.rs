//! [`Retention`]: which finished rows the jobs table keeps, and the sweep that deletes the
//! others ([`Retention::FirstRows`]), so a long run's memory follows the jobs in flight.

use super::row::DELETED;
use super::{JobId, JobsTable};
use serde::Serialize;
use std::cell::OnceCell;

/// Enqueues between two sweeps of a table that deletes finished rows ([`Retention::FirstRows`]).
pub const SWEEP_EVERY: u64 = 4_096;

/// Which rows the table keeps once their job is finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Retention {
    /// Every row stays, as in the source documents' table.
    #[default]
    All,
    /// Rows with ids up to `n` stay; any later row is deleted once it is finished (`done` or
    /// `dead`) and no worker refers to it, as a production queue's pruner deletes finished
    /// jobs: in sweeps every [`SWEEP_EVERY`] enqueues and when the run stops. [`JobsTable::count`], [`JobsTable::transitions`],
    /// [`JobsTable::attempts_summary`] and the engine's wait and latency samples still cover
    /// every row ever enqueued. Memory then grows with the jobs in flight, not with the run.
    FirstRows(u64),
}

impl JobsTable {
    /// `true` when some rows may be deleted ([`Retention::FirstRows`]).
    #[inline]
    pub(in crate::domain::sim) fn deletes(&self) -> bool {
        self.keep != u64::MAX
    }

    /// Rows deleted so far ([`Retention::FirstRows`]); `0` under [`Retention::All`].
    pub fn deleted(&self) -> u64 {
        self.deleted.iter().map(|&(_, n)| n).sum()
    }

    /// Deletes every finished row past the kept ids that no worker refers to (`held`: the
    /// ids workers are running, selecting or waiting for, sorted), then frees the
    /// leading run of deleted slots. `O(rows stored past the kept ids + held)`; the engine
    /// calls it every [`SWEEP_EVERY`] enqueues and when a run stops, so a finished run's table
    /// holds exactly the rows [`Retention::FirstRows`] keeps.
    pub(in crate::domain::sim) fn sweep(&mut self, held: &[JobId]) {
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
}

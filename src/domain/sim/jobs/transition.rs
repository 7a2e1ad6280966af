//! [`Transition`]: the moves of a row between states that [`JobsTable`](super::JobsTable)
//! counts, named after the source documents' operations, with a catch-all per pair of states.

use super::Status;
use serde::Serialize;

/// A move of a row between states, counted by
/// [`JobsTable::transitions`](super::JobsTable::transitions). Each value has fixed end states
/// ([`Transition::from`], [`Transition::to`]; `from` is `None` for an enqueue), so the counts per
/// state are the enqueues plus the moves in minus the moves out. The first [`Transition::NAMED`]
/// values are the moves the source documents' operations make; the rest, [`Transition::other`], catch a write
/// the table accepts without re-checking the status (e.g. a late `release` by a worker whose lease
/// expired and whose job another worker has since completed: `done → queued`).
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
    pub(super) fn of(via: Transition, old: Status, new: Status) -> Transition {
        if via.from() == Some(old) && via.to() == new {
            via
        } else {
            Transition::other(old, new)
        }
    }
}

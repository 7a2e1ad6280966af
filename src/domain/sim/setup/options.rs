//! The options that show what real queues do about leases and delivery (issue 15): the rule
//! for a lease that expires on the last attempt, the owner check on `complete` / `release`,
//! heartbeats, acknowledging before or after the work, where a crash strikes, and the same
//! request submitted twice. All default to the source documents' behaviour (`docs/DOMAIN.md` §2),
//! so a config that names none of them runs exactly as before.

use serde::{Deserialize, Serialize};

pub use crate::domain::sim::jobs::ExpiryRule;

/// When a worker acknowledges (completes or deletes) the row it claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ack {
    /// After the handler (at-least-once, the source documents): a crash repeats the job.
    #[default]
    After,
    /// At the claim, before the handler (at-most-once): a crash or failure loses the job,
    /// never repeats it.
    Before,
}

/// Where a worker's crash (`crash_probability`) strikes in a successful run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashPoint {
    /// After the side effect, before `complete` (the source documents' duplicate execution).
    #[default]
    AfterEffect,
    /// Before the side effect.
    BeforeEffect,
}

/// Every submission enqueued a second time, `after_ms` later, as a separate row with the same
/// request (arrival) number: the same order sent twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DuplicateSubmissions {
    /// Delay of the second submission, ms (0 ..= [`MAX_MS`](crate::domain::sim::setup::limits::MAX_MS)).
    pub after_ms: u64,
}

//! The options that show what real queues do about leases and delivery (issue 15): the rule
//! for a lease that expires on the last attempt, the owner check on `complete` / `release`,
//! heartbeats, acknowledging before or after the work, where a crash strikes, and the same
//! request submitted twice. All default to the source documents' behaviour (`docs/DOMAIN.md` §2),
//! so a config that names none of them runs exactly as before.

use crate::domain::sim::setup::config::{SimConfig, MAX_MS};
use crate::domain::sim::setup::error::ConfigError;
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
    /// Delay of the second submission, ms (0 ..= [`MAX_MS`]).
    pub after_ms: u64,
}

impl SimConfig {
    /// `true` when any option of this module is on (not its default): such a config takes the
    /// general path ([`SimConfig::is_plain`]).
    pub fn uses_lease_options(&self) -> bool {
        self.expired_on_last_attempt != ExpiryRule::Reclaim
            || self.owner_check
            || self.heartbeat_ms.is_some()
            || self.ack != Ack::After
            || self.crash_point != CrashPoint::AfterEffect
            || self.duplicate_submissions.is_some()
    }

    /// The heartbeat interval (1 ms ..= the lease less 1 ms, at most [`MAX_MS`]) and the duplicate
    /// submissions' delay (0 ..= [`MAX_MS`]).
    pub(super) fn check_lease_options(&self, errs: &mut Vec<ConfigError>) {
        if let Some(hb) = self.heartbeat_ms {
            // A heartbeat must come before the lease it renews runs out: the range's top is
            // the lease less 1 ms (and at most MAX_MS).
            let top = (self.lease.0 / 1_000).saturating_sub(1).min(MAX_MS);
            if hb == 0 || hb > top {
                errs.push(ConfigError::int_range(
                    "heartbeat_ms",
                    i64::try_from(hb).unwrap_or(i64::MAX),
                    1,
                    top as i64,
                ));
            }
        }
        if let Some(d) = self.duplicate_submissions {
            if d.after_ms > MAX_MS {
                errs.push(ConfigError::int_range(
                    "duplicate_submissions.after_ms",
                    i64::try_from(d.after_ms).unwrap_or(i64::MAX),
                    0,
                    MAX_MS as i64,
                ));
            }
        }
    }
}

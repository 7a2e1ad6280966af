//! The defaults the questions' numbers give: when `within-seconds` was answered from a
//! response-time target and the handler's p95 ([`Timing`]), the sheet's timeouts and the
//! acceptable wait are pre-filled from them instead of the fixed defaults, each with a reason
//! that names the numbers (issue 25: one set of numbers, entered once).
//!
//! - Attempt timeout (async): 2 × p95 rounded up to a round value ([`ROUND_TIMEOUTS_MS`]),
//!   never under the fixed 30 s; the lease is twice the timeout, as for the fixed default.
//! - Call timeout (sync): the target — the call must end within it (at most 10 min, the
//!   field's limit).
//! - Acceptable wait (sync): the target — the user waits for the result in the response. An
//!   asynchronous outcome returns before the work is done, so the target says nothing about
//!   how long its result may take; it is not copied there.

use crate::domain::duration::exact;
use crate::domain::flowchart::{Outcome, QuestionId, Timing};
use crate::domain::lang::Lang;
use crate::domain::sheet::import::limits;
use crate::domain::sheet::{Decision, FieldId};
use crate::text::t;

/// The attempt timeout when nothing is known of the handler's time (the source documents'
/// example), and the least a derived one is.
pub const FIXED_TIMEOUT_MS: u64 = 30_000;

/// The lease is this many times the attempt timeout.
pub const LEASE_FACTOR: u64 = 2;

/// The round values a derived attempt timeout is rounded up to, in ms: 30 s … 12 h. The last
/// is the longest that leaves room for a lease twice as long within the field's limit (1 day).
pub const ROUND_TIMEOUTS_MS: [u64; 16] = [
    30_000, 60_000, 120_000, 180_000, 300_000, 600_000, 900_000, 1_200_000, 1_800_000, 3_600_000,
    7_200_000, 10_800_000, 14_400_000, 21_600_000, 28_800_000, 43_200_000,
];

/// The timing `decision`'s `within-seconds` answer was derived from, if it was.
pub fn timing_of(decision: &Decision) -> Option<Timing> {
    decision
        .answers
        .iter()
        .find(|a| a.question == QuestionId::WithinSeconds)
        .and_then(|a| a.timing)
}

/// The attempt timeout for a handler whose p95 is `p95_ms`: the first of
/// [`ROUND_TIMEOUTS_MS`] at or above 2 × p95 (5 min → 10 min, 800 ms → 30 s), or the last
/// when none is (the handler's tail is then longer than any timeout the lease leaves room for).
pub fn timeout_for_p95(p95_ms: u64) -> u64 {
    let wanted = p95_ms.saturating_mul(2);
    let last = ROUND_TIMEOUTS_MS[ROUND_TIMEOUTS_MS.len() - 1];
    ROUND_TIMEOUTS_MS
        .into_iter()
        .find(|&v| v >= wanted)
        .unwrap_or(last)
}

/// The call timeout for a response-time target of `target_ms`: the target, at most the
/// field's limit (10 min).
pub fn call_timeout_for_target(target_ms: u64) -> u64 {
    target_ms.clamp(limits::CALL_TIMEOUT_MS.0, limits::CALL_TIMEOUT_MS.1)
}

/// Whether the user waits for the result in the response (the synchronous outcomes).
fn waits_in_response(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::Sync | Outcome::SyncTimeout)
}

/// The acceptable wait the questions give `decision`: the response-time target when the
/// outcome is synchronous and the answer came from numbers; `None` otherwise.
pub fn derived_wait(decision: &Decision) -> Option<u64> {
    let timing = timing_of(decision)?;
    waits_in_response(decision.outcome).then(|| {
        timing
            .target_ms
            .clamp(limits::ACCEPTABLE_WAIT_MS.0, limits::ACCEPTABLE_WAIT_MS.1)
    })
}

/// The acceptable wait a user who ticks "users can be made to wait at most…" starts from: the
/// one the questions give ([`derived_wait`]), else 10 min.
pub fn wait_when_stated(decision: &Decision) -> u64 {
    derived_wait(decision).unwrap_or(600_000)
}

/// `(attempt timeout, lease)` for `decision`: from the handler's p95 when known, else the
/// fixed 30 s and 1 min.
pub fn attempt_timeout_and_lease(decision: &Decision) -> (u64, u64) {
    let timeout = timing_of(decision).map_or(FIXED_TIMEOUT_MS, |t| timeout_for_p95(t.p95_ms));
    (timeout, timeout * LEASE_FACTOR)
}

/// The call timeout for `decision`: from the response-time target when known, else the fixed
/// 5 s (3 s for a synchronous call with an explicit timeout on the external system).
pub fn call_timeout(decision: &Decision) -> u64 {
    match timing_of(decision) {
        Some(t) => call_timeout_for_target(t.target_ms),
        None if decision.outcome == Outcome::SyncTimeout => 3_000,
        None => 5_000,
    }
}

/// Why `field`'s default is what the questions' numbers made it, in `lang`, naming the
/// numbers; `None` when the field's default does not come from them (the fixed reason
/// applies).
pub fn reason(field: FieldId, decision: &Decision, lang: Lang) -> Option<String> {
    let timing = timing_of(decision)?;
    let l = lang.code();
    let d = |ms: u64| exact(ms, lang);
    let is_async = matches!(
        decision.outcome,
        Outcome::AsyncEnqueue | Outcome::AsyncTicket
    );
    let text = match field {
        FieldId::Timeout if is_async => {
            let (timeout, lease) = attempt_timeout_and_lease(decision);
            let double = timing.p95_ms.saturating_mul(2);
            let key = if double > timeout {
                "sheet.reason.timeout.from-p95-capped"
            } else if timeout == FIXED_TIMEOUT_MS {
                "sheet.reason.timeout.from-short-p95"
            } else {
                "sheet.reason.timeout.from-p95"
            };
            t!(
                key,
                locale = l,
                p95 = d(timing.p95_ms),
                double = d(double),
                timeout = d(timeout),
                lease = d(lease)
            )
        }
        FieldId::CallTimeout if waits_in_response(decision.outcome) => {
            let timeout = call_timeout(decision);
            let key = if timeout < timing.target_ms {
                "sheet.reason.call-timeout.from-target-capped"
            } else {
                "sheet.reason.call-timeout.from-target"
            };
            t!(
                key,
                locale = l,
                target = d(timing.target_ms),
                p95 = d(timing.p95_ms),
                timeout = d(timeout)
            )
        }
        FieldId::AcceptableWait if waits_in_response(decision.outcome) => t!(
            "sheet.reason.acceptable-wait.from-target",
            locale = l,
            target = d(timing.target_ms)
        ),
        FieldId::AcceptableWait => t!(
            "sheet.reason.acceptable-wait.not-from-target",
            locale = l,
            target = d(timing.target_ms)
        ),
        _ => return None,
    };
    Some(text.into_owned())
}

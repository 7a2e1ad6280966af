//! The retry window: how long a job can take from its first attempt until it is done or
//! dead, given its attempts, waits and attempt timeout. Pure arithmetic, no randomness.
//!
//! Waits follow the AWS Architecture Blog "Exponential Backoff And Jitter" (docs/DOMAIN.md §5):
//! for retry n (0-based), base b, cap c, t = min(c, b·2ⁿ) (exponential) or b (fixed):
//! none: t · full: U(0, t) · equal: t/2 + U(0, t/2) ·
//! decorrelated: min(c, U(b, 3·previous)), previous starting at b.
//! There are `max_attempts − 1` waits (one before each retry).

use crate::domain::sheet::{BackoffKind, BackoffPolicy, Jitter};

/// The range of one wait, in milliseconds (floating point: jitter makes expectations
/// fractional).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaitRange {
    /// The shortest possible wait.
    pub min_ms: f64,
    /// The expected wait. For decorrelated jitter this is a mean-field estimate (each wait's
    /// expectation computed from the previous wait's expectation), not the exact mean.
    pub expected_ms: f64,
    /// The longest possible wait.
    pub max_ms: f64,
}

/// The waits and totals of a retry schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryWindow {
    /// One range per wait: `waits[k]` is the wait after attempt k+1 (length `max_attempts − 1`).
    pub waits: Vec<WaitRange>,
    /// The sum of all waits.
    pub total_wait: WaitRange,
    /// The attempt timeout times the number of attempts: the longest the attempts themselves
    /// can take, in ms.
    pub attempts_ms: f64,
    /// The longest time from the first attempt's start until the job is done or dead:
    /// `total_wait.max_ms + attempts_ms`.
    pub worst_case_ms: f64,
}

/// The deterministic wait before retry `n` (0-based) without jitter: `min(cap, base·2ⁿ)` for
/// exponential, `base` for fixed, `min(cap, base + (n + first_n)^k s)` for polynomial.
/// Saturates instead of overflowing.
pub fn ceiling_ms(policy: &BackoffPolicy, n: u32) -> u64 {
    match policy.kind {
        BackoffKind::Fixed => policy.base_ms,
        BackoffKind::Exponential => {
            let factor = 1u64.checked_shl(n.min(63)).unwrap_or(u64::MAX);
            policy.base_ms.saturating_mul(factor).min(policy.cap_ms)
        }
        BackoffKind::Polynomial(p) => {
            let n = u64::from(n.saturating_add(p.first_n));
            let grown = n
                .checked_pow(p.exponent)
                .and_then(|v| v.checked_mul(1_000))
                .unwrap_or(u64::MAX);
            policy.base_ms.saturating_add(grown).min(policy.cap_ms)
        }
    }
}

/// Computes the retry window of `max_attempts` attempts with `policy` and
/// `attempt_timeout_ms` per attempt.
///
/// Example (the source documents' reservation mail): 5 attempts, exponential from 10 s capped at 10 min,
/// full jitter, 30 s per attempt → waits ≤ 10, 20, 40, 80 s; total wait min 0 / expected
/// 75 s / max 150 s; worst case 150 s + 5 × 30 s = 300 s.
pub fn retry_window(
    policy: &BackoffPolicy,
    max_attempts: u32,
    attempt_timeout_ms: u64,
) -> RetryWindow {
    let retries = max_attempts.saturating_sub(1);
    let base = policy.base_ms as f64;
    let cap = policy.cap_ms.max(policy.base_ms) as f64;
    let mut waits = Vec::with_capacity(retries as usize);
    // Decorrelated jitter depends on the previous wait: track its range.
    let (mut prev_min, mut prev_exp, mut prev_max) = (base, base, base);
    for n in 0..retries {
        let t = ceiling_ms(policy, n) as f64;
        let w = match policy.jitter {
            Jitter::None => WaitRange {
                min_ms: t,
                expected_ms: t,
                max_ms: t,
            },
            Jitter::Full => WaitRange {
                min_ms: 0.0,
                expected_ms: t / 2.0,
                max_ms: t,
            },
            Jitter::Equal => WaitRange {
                min_ms: t / 2.0,
                expected_ms: 0.75 * t,
                max_ms: t,
            },
            Jitter::Decorrelated => {
                let min = (base.min(3.0 * prev_min)).min(cap);
                let max = (3.0 * prev_max).max(base).min(cap);
                let expected = expected_capped_uniform(base, 3.0 * prev_exp, cap);
                prev_min = min;
                prev_exp = expected;
                prev_max = max;
                WaitRange {
                    min_ms: min,
                    expected_ms: expected,
                    max_ms: max,
                }
            }
        };
        waits.push(w);
    }
    let total_wait = WaitRange {
        min_ms: waits.iter().map(|w| w.min_ms).sum(),
        expected_ms: waits.iter().map(|w| w.expected_ms).sum(),
        max_ms: waits.iter().map(|w| w.max_ms).sum(),
    };
    let attempts_ms = attempt_timeout_ms as f64 * f64::from(max_attempts);
    RetryWindow {
        worst_case_ms: total_wait.max_ms + attempts_ms,
        waits,
        total_wait,
        attempts_ms,
    }
}

/// E[min(cap, U(lo, hi))] for `lo <= hi`; `lo` when the interval is empty.
fn expected_capped_uniform(lo: f64, hi: f64, cap: f64) -> f64 {
    if hi <= lo {
        return lo.min(cap);
    }
    if hi <= cap {
        return (lo + hi) / 2.0;
    }
    if lo >= cap {
        return cap;
    }
    // Below the cap the density is uniform; above it, the mass sits at the cap.
    let width = hi - lo;
    ((cap - lo) * (cap + lo) / 2.0 + (hi - cap) * cap) / width
}

//! Retry waits: fixed, exponential, and full / equal / decorrelated jitter.
//!
//! Source: AWS Architecture Blog, "Exponential Backoff And Jitter" (Marc Brooker, 2015),
//! restated in `docs/DOMAIN.md` §5. With retry `n` (0-based), base `b`, cap `c` and
//! `t = min(c, b·2ⁿ)`:
//!
//! | strategy | wait |
//! |---|---|
//! | fixed (`none`) | `min(c, b)` |
//! | exponential | `t` |
//! | full jitter | `U(0, t)` |
//! | equal jitter | `t/2 + U(0, t/2)` |
//! | decorrelated jitter | `min(c, U(b, 3·previous))`, `previous` starting at `b` |
//!
//! Every wait lies in `[0, c]`.

use crate::domain::sim::core::rng::SimRng;
use crate::domain::sim::core::time::SimDuration;
use serde::{Deserialize, Serialize};

/// How the un-jittered wait grows with the retry number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Growth {
    /// Always the base.
    Fixed,
    /// `min(cap, base·2ⁿ)`.
    Exponential,
}

/// The random spreading applied on top of [`Growth`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jitter {
    /// No randomness: lock-step retries.
    None,
    /// `U(0, t)`.
    Full,
    /// `t/2 + U(0, t/2)`.
    Equal,
    /// `min(cap, U(base, 3·previous))`; ignores [`Growth`].
    Decorrelated,
}

/// The five named strategies of the AWS study (`none`, `exponential`, `full`, `equal`,
/// `decorrelated`), as used by the CLI and the `jitter-contention` scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Fixed wait of `base`, no jitter (as a [`BackoffPolicy`]; the jitter study's `none`
    /// waits nothing, as the study's simulator does: see
    /// [`run_contention`](crate::domain::sim::reference::contention::run_contention)).
    None,
    /// Exponential, no jitter.
    Exponential,
    /// Exponential with full jitter.
    Full,
    /// Exponential with equal jitter.
    Equal,
    /// Decorrelated jitter.
    Decorrelated,
}

impl Strategy {
    /// All five, in the study's order.
    pub const ALL: [Strategy; 5] = [
        Strategy::None,
        Strategy::Exponential,
        Strategy::Full,
        Strategy::Equal,
        Strategy::Decorrelated,
    ];

    /// The stable name, e.g. `"full"`.
    pub fn id(self) -> &'static str {
        match self {
            Strategy::None => "none",
            Strategy::Exponential => "exponential",
            Strategy::Full => "full",
            Strategy::Equal => "equal",
            Strategy::Decorrelated => "decorrelated",
        }
    }

    /// The growth and jitter this strategy stands for.
    pub fn parts(self) -> (Growth, Jitter) {
        match self {
            Strategy::None => (Growth::Fixed, Jitter::None),
            Strategy::Exponential => (Growth::Exponential, Jitter::None),
            Strategy::Full => (Growth::Exponential, Jitter::Full),
            Strategy::Equal => (Growth::Exponential, Jitter::Equal),
            Strategy::Decorrelated => (Growth::Exponential, Jitter::Decorrelated),
        }
    }
}

/// A retry-wait policy: base, cap, growth and jitter. Build with [`BackoffPolicy::fixed`] or
/// [`BackoffPolicy::named`]; config files are checked by `SimConfig` validation (`cap >= base`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BackoffPolicy {
    /// First wait (and the lower bound of decorrelated jitter).
    pub base: SimDuration,
    /// Largest wait ever returned.
    pub cap: SimDuration,
    /// Growth of the un-jittered wait.
    pub growth: Growth,
    /// Random spreading.
    pub jitter: Jitter,
}

impl BackoffPolicy {
    /// The same wait every time (the source documents' `wait_sec=0.2`).
    pub fn fixed(wait: SimDuration) -> BackoffPolicy {
        BackoffPolicy {
            base: wait,
            cap: wait,
            growth: Growth::Fixed,
            jitter: Jitter::None,
        }
    }

    /// One of the AWS study's strategies with the given base and cap.
    pub fn named(strategy: Strategy, base: SimDuration, cap: SimDuration) -> BackoffPolicy {
        let (growth, jitter) = strategy.parts();
        BackoffPolicy {
            base,
            cap,
            growth,
            jitter,
        }
    }

    /// The un-jittered wait before retry `n` (0-based): `min(cap, base·2ⁿ)` or `min(cap, base)`.
    pub fn ceiling(&self, n: u32) -> SimDuration {
        let b = self.base.0;
        let t = match self.growth {
            Growth::Fixed => b,
            Growth::Exponential => {
                if n >= 64 {
                    u64::MAX
                } else {
                    b.saturating_mul(1u64 << n)
                }
            }
        };
        SimDuration(t.min(self.cap.0))
    }

    /// The wait before retry `n` (0-based). `previous` is the wait returned for retry `n - 1`
    /// (only decorrelated jitter uses it; pass `None` for the first retry). Always within
    /// `[0, cap]`.
    pub fn wait(&self, n: u32, previous: Option<SimDuration>, rng: &mut SimRng) -> SimDuration {
        let cap = self.cap.0;
        let w = match self.jitter {
            Jitter::None => self.ceiling(n).0,
            Jitter::Full => rng.uniform_u64(0, self.ceiling(n).0),
            Jitter::Equal => {
                let t = self.ceiling(n).0;
                let half = t / 2;
                // t - half keeps the sum at most t when t is odd.
                half + rng.uniform_u64(0, t - half)
            }
            Jitter::Decorrelated => {
                let prev = previous.map_or(self.base.0, |p| p.0);
                let hi = prev.saturating_mul(3).max(self.base.0);
                rng.uniform_u64(self.base.0, hi)
            }
        };
        SimDuration(w.min(cap))
    }
}

//! Virtual time: integer microseconds since the start of a run.
//!
//! Time is never a float: two events at the same instant compare equal, and ties are broken by the
//! order in which they were scheduled (see [`EventQueue`](crate::domain::sim::EventQueue)).
//! Microseconds (not milliseconds) because the AWS jitter model needs sub-millisecond network
//! delays.

use serde::Serialize;
use std::fmt;

/// An instant of virtual time, in microseconds since the start of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct SimTime(pub u64);

/// A span of virtual time, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct SimDuration(pub u64);

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// The last representable instant; used as "never".
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// `ms` milliseconds after the start (saturating).
    pub const fn from_ms(ms: u64) -> SimTime {
        SimTime(ms.saturating_mul(1_000))
    }

    /// `s` seconds after the start (saturating).
    pub const fn from_secs(s: u64) -> SimTime {
        SimTime(s.saturating_mul(1_000_000))
    }

    /// Microseconds since the start.
    pub const fn as_micros(self) -> u64 {
        self.0
    }

    /// This instant plus `d`, saturating at [`SimTime::MAX`].
    pub const fn plus(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }

    /// The span from `earlier` to `self` (zero if `earlier` is later).
    pub const fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }

    /// Seconds as a float, for reports only (never for ordering).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl SimDuration {
    /// No time at all.
    pub const ZERO: SimDuration = SimDuration(0);

    /// `ms` milliseconds (saturating).
    pub const fn from_ms(ms: u64) -> SimDuration {
        SimDuration(ms.saturating_mul(1_000))
    }

    /// `s` seconds (saturating).
    pub const fn from_secs(s: u64) -> SimDuration {
        SimDuration(s.saturating_mul(1_000_000))
    }

    /// Microseconds.
    pub const fn as_micros(self) -> u64 {
        self.0
    }

    /// Milliseconds as a float, for reports only.
    pub fn as_ms_f64(self) -> f64 {
        self.0 as f64 / 1e3
    }
}

/// Seconds with millisecond precision, and microseconds only when there are any:
/// `1031.000s`, `0.010250s`. (The event log picks one precision per log instead, so its time
/// column lines up: [`EventLog::micros`](crate::domain::sim::results::log::EventLog::micros).)
fn write_secs(f: &mut fmt::Formatter<'_>, us: u64) -> fmt::Result {
    let (s, frac) = (us / 1_000_000, us % 1_000_000);
    if frac % 1_000 == 0 {
        write!(f, "{s}.{:03}s", frac / 1_000)
    } else {
        write!(f, "{s}.{frac:06}s")
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_secs(f, self.0)
    }
}

impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_secs(f, self.0)
    }
}

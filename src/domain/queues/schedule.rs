//! Retry schedules in **seconds**: the delay before each retry as a range (min / expected /
//! max) and the window they add up to, with zero processing time and zero poll latency
//! (`brief/QUEUES.md` §0, "Window"). The sheet's own schedule comes from
//! [`crate::domain::sheet::retry_window::retry_window`]; each target computes
//! its actual one from its own formula.

use crate::domain::sheet::retry_window::retry_window;
use crate::domain::sheet::JobSheet;
use serde::Serialize;

/// How many delays a schedule lists at most (a target with unlimited or very many attempts
/// lists its first ones; the window still counts them all when bounded).
pub const MAX_LISTED: usize = 100;

/// One delay between attempts, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delay {
    /// The shortest.
    pub min_s: f64,
    /// The expected.
    pub expected_s: f64,
    /// The longest.
    pub max_s: f64,
}

impl Delay {
    /// A delay without randomness.
    pub fn fixed(s: f64) -> Delay {
        Delay {
            min_s: s,
            expected_s: s,
            max_s: s,
        }
    }
}

/// The total of the delays, in seconds; `None` where unbounded (unlimited attempts).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WindowS {
    /// The shortest total.
    pub min: Option<f64>,
    /// The expected total.
    pub expected: Option<f64>,
    /// The longest total.
    pub max: Option<f64>,
}

/// A retry schedule: the runs, the delays between them and their window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    /// Runs including the first; `None` when unlimited.
    pub attempts: Option<u32>,
    /// The delay before each retry (`attempts − 1` of them, at most [`MAX_LISTED`]).
    pub delays: Vec<Delay>,
    /// Their sum.
    pub window_s: WindowS,
}

impl Schedule {
    /// A bounded schedule: `delays` are all the delays (one per retry).
    pub fn bounded(delays: Vec<Delay>) -> Schedule {
        let attempts = u32::try_from(delays.len()).map_or(u32::MAX, |n| n.saturating_add(1));
        // `+ 0.0` turns the empty sum's −0.0 into 0.0 (JSON would print `-0.0`).
        let window_s = WindowS {
            min: Some(delays.iter().map(|d| d.min_s).sum::<f64>() + 0.0),
            expected: Some(delays.iter().map(|d| d.expected_s).sum::<f64>() + 0.0),
            max: Some(delays.iter().map(|d| d.max_s).sum::<f64>() + 0.0),
        };
        let mut delays = delays;
        delays.truncate(MAX_LISTED);
        Schedule {
            attempts: Some(attempts),
            delays,
            window_s,
        }
    }

    /// An unlimited schedule: `first` are its first delays; the window is unbounded.
    pub fn unlimited(mut first: Vec<Delay>) -> Schedule {
        first.truncate(MAX_LISTED);
        Schedule {
            attempts: None,
            delays: first,
            window_s: WindowS {
                min: None,
                expected: None,
                max: None,
            },
        }
    }
}

/// The sheet's own schedule: its waits by its formula (`retry_window`), in seconds. A sheet
/// without a retry section has one run and no delays.
pub fn of_sheet(sheet: &JobSheet) -> Schedule {
    let Some(r) = &sheet.retry else {
        return Schedule::bounded(Vec::new());
    };
    let w = retry_window(&r.backoff, r.max_attempts, r.attempt_timeout_ms);
    Schedule::bounded(
        w.waits
            .iter()
            .map(|w| Delay {
                min_s: w.min_ms / 1000.0,
                expected_s: w.expected_ms / 1000.0,
                max_s: w.max_ms / 1000.0,
            })
            .collect(),
    )
}

//! [`CallResult`]: a downstream's answer to one call. Its own module, below both the engine
//! that produces answers and the event log that records them; the log gives it its text
//! (`CallResult::text`, in `results/log`).

use serde::Serialize;

/// A downstream answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallResult {
    /// Served.
    Ok,
    /// Refused: already serving its capacity.
    Busy,
    /// Refused by the rate limit.
    RateLimited,
    /// Refused: inside the outage window.
    Unavailable,
}

//! Errors of the domain, returned as values (a panic in wasm kills the page).

use std::fmt;

/// A value given as text that is not one of the allowed values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// `value` is not one of `allowed` for `what`.
    Invalid {
        /// What was being parsed, e.g. `"question id"`.
        what: &'static str,
        /// The offending input.
        value: String,
        /// The allowed values, comma separated.
        allowed: &'static str,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Invalid {
                what,
                value,
                allowed,
            } => write!(f, "invalid {what} {value:?}; allowed: {allowed}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// A response-time target or expected duration outside the accepted range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimingError {
    /// `field` (`"target_ms"` or `"p95_ms"`) is `value`, outside `min..=max` milliseconds.
    OutOfRange {
        /// `"target_ms"` or `"p95_ms"`.
        field: &'static str,
        /// The rejected value in milliseconds.
        value: u64,
        /// Smallest accepted value, in milliseconds.
        min: u64,
        /// Largest accepted value, in milliseconds.
        max: u64,
    },
}

impl fmt::Display for TimingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimingError::OutOfRange {
                field,
                value,
                min,
                max,
            } => write!(
                f,
                "{field} is {value} ms; allowed: {min} to {max} ms (whole milliseconds)"
            ),
        }
    }
}

impl std::error::Error for TimingError {}

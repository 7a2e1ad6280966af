//! Errors of simulation configs, returned as values.

use std::fmt;

/// A problem with a simulation config. `field` is the path in the JSON config file, e.g.
/// `workers.count` or `kinds[0].max_attempts`.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigError {
    /// The file is not valid JSON for the config shape (wrong type, unknown field, syntax).
    Parse {
        /// Path of the offending field (`.` for the whole document).
        field: String,
        /// What the parser said.
        message: String,
    },
    /// A number outside its allowed range (negative counts, absurd sizes, probabilities
    /// outside `[0, 1]`).
    OutOfRange {
        /// Path of the field.
        field: String,
        /// The rejected value.
        value: Num,
        /// Smallest allowed value.
        min: Num,
        /// Largest allowed value.
        max: Num,
    },
    /// A backoff whose cap is below its base.
    CapBelowBase {
        /// Path of the backoff policy.
        field: String,
        /// Base, ms.
        base_ms: f64,
        /// Cap, ms.
        cap_ms: f64,
    },
    /// Jobs arrive but there is no worker to run them.
    NoWorkers {
        /// Jobs the arrivals would create.
        jobs: u64,
    },
    /// An unknown scenario or variant name, or a value that is not allowed.
    Invalid {
        /// Path of the field (or `scenario` / `variant`).
        field: String,
        /// Why, with the allowed values.
        reason: String,
    },
}

/// A number in an error message, kept as it was read: a whole number exactly (also beyond
/// 2^53, which an `f64` would round), any other number readably ([`Num::Float`]'s display).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A whole number (counts, ms, indexes).
    Int(i64),
    /// A number that may have a fraction (rates, probabilities).
    Float(f64),
}

impl fmt::Display for Num {
    /// `Int` in full (`9007199254740993`); `Float` in plain decimals from 10^-9 up to 10^15
    /// (`0.000000001`, `40.5`, `1000000`), otherwise with an exponent (`1e300`, `1e-300`),
    /// never as a 300-digit number; both with the shortest digits that read back the same.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) if x == 0.0 || (1e-9..1e15).contains(&x.abs()) => write!(f, "{x}"),
            Num::Float(x) => write!(f, "{x:e}"),
        }
    }
}

impl ConfigError {
    /// An [`ConfigError::OutOfRange`] for `field`, of a number that may have a fraction.
    pub fn range(field: &str, value: f64, min: f64, max: f64) -> ConfigError {
        ConfigError::OutOfRange {
            field: field.to_owned(),
            value: Num::Float(value),
            min: Num::Float(min),
            max: Num::Float(max),
        }
    }

    /// An [`ConfigError::OutOfRange`] for `field`, of a whole number.
    pub fn int_range(field: &str, value: i64, min: i64, max: i64) -> ConfigError {
        ConfigError::OutOfRange {
            field: field.to_owned(),
            value: Num::Int(value),
            min: Num::Int(min),
            max: Num::Int(max),
        }
    }

    /// The path of the offending field.
    pub fn field(&self) -> &str {
        match self {
            ConfigError::Parse { field, .. }
            | ConfigError::OutOfRange { field, .. }
            | ConfigError::CapBelowBase { field, .. }
            | ConfigError::Invalid { field, .. } => field,
            ConfigError::NoWorkers { .. } => "workers.count",
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Parse { field, message } => write!(f, "{field}: {message}"),
            ConfigError::OutOfRange {
                field,
                value,
                min,
                max,
            } => write!(f, "{field} is {value}; allowed: {min} to {max}"),
            ConfigError::CapBelowBase {
                field,
                base_ms,
                cap_ms,
            } => write!(
                f,
                "{field}: cap_ms ({cap_ms}) is below base_ms ({base_ms}); allowed: cap_ms >= base_ms"
            ),
            ConfigError::NoWorkers { jobs } => write!(
                f,
                "workers.count is 0 but {jobs} jobs arrive; allowed: 0 to {} (at least 1 when jobs arrive)",
                crate::domain::sim::setup::config::MAX_WORKERS
            ),
            ConfigError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
        }
    }
}

impl std::error::Error for ConfigError {}

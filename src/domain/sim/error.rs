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
        value: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
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

impl ConfigError {
    /// An [`ConfigError::OutOfRange`] for `field`.
    pub fn range(field: &str, value: f64, min: f64, max: f64) -> ConfigError {
        ConfigError::OutOfRange {
            field: field.to_owned(),
            value,
            min,
            max,
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
                "workers.count is 0 but {jobs} jobs arrive; allowed: 1 to {} when there are jobs",
                super::config::MAX_WORKERS
            ),
            ConfigError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
        }
    }
}

impl std::error::Error for ConfigError {}

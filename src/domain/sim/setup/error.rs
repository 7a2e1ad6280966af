//! Errors of simulation configs, returned as values. Typed all the way to the page: the
//! worker sends them as JSON ([`RunMessage::Failed`](crate::domain::sim::runner::RunMessage)),
//! the page words them in its language ([`ConfigError::message`], `locales/sim-config.yml`);
//! the CLI prints their English [`Display`](fmt::Display).

use crate::domain::lang::Lang;
use crate::domain::sim::setup::limits::{MAX_LOAD_JOBS, MAX_WORKERS};
use rust_i18n::t;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A problem with a simulation config. `field` is the path in the JSON config file, e.g.
/// `workers.count` or `kinds[0].max_attempts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
        reason: Reason,
    },
    /// The load preset's job count outside 1 ..= [`MAX_LOAD_JOBS`] (field `jobs`).
    LoadJobs {
        /// The count asked for.
        jobs: u64,
    },
}

/// Why a value is not allowed ([`ConfigError::Invalid`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reason {
    /// No scenario has this name.
    UnknownScenario {
        /// The name given.
        got: String,
        /// The scenario names.
        allowed: Vec<String>,
    },
    /// The scenario has no variant of this name.
    UnknownVariant {
        /// The name given.
        got: String,
        /// The scenario's id.
        scenario: String,
        /// Its variants.
        allowed: Vec<String>,
    },
    /// A kind calls the downstream but none is configured.
    NoDownstream,
    /// Arrivals but no job kind.
    NoKind,
    /// An outage that ends before it starts (ms).
    OutageBackwards {
        /// Start, ms.
        from_ms: u64,
        /// End, ms.
        until_ms: u64,
    },
    /// A uniform duration whose maximum is below its minimum (ms).
    MaxBelowMin {
        /// Minimum, ms.
        min_ms: u64,
        /// Maximum, ms.
        max_ms: u64,
    },
}

impl Reason {
    /// The reason in `lang` (English: as [`Display`](fmt::Display) prints it).
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            Reason::UnknownScenario { got, allowed } => t!(
                "sim-config.unknown-scenario",
                locale = l,
                got = format!("{got:?}"),
                allowed = allowed.join(", ")
            ),
            Reason::UnknownVariant {
                got,
                scenario,
                allowed,
            } => t!(
                "sim-config.unknown-variant",
                locale = l,
                got = format!("{got:?}"),
                scenario = scenario,
                allowed = allowed.join(", ")
            ),
            Reason::NoDownstream => t!("sim-config.no-downstream", locale = l),
            Reason::NoKind => t!("sim-config.no-kind", locale = l),
            Reason::OutageBackwards { from_ms, until_ms } => t!(
                "sim-config.outage-backwards",
                locale = l,
                from = from_ms,
                until = until_ms
            ),
            Reason::MaxBelowMin { min_ms, max_ms } => t!(
                "sim-config.max-below-min",
                locale = l,
                min = min_ms,
                max = max_ms
            ),
        }
        .into_owned()
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::UnknownScenario { got, allowed } => {
                write!(f, "unknown scenario {got:?}; allowed: {}", allowed.join(", "))
            }
            Reason::UnknownVariant {
                got,
                scenario,
                allowed,
            } => write!(
                f,
                "unknown variant {got:?} of {scenario}; allowed: {}",
                allowed.join(", ")
            ),
            Reason::NoDownstream => {
                f.write_str("the kind calls the downstream but no downstream is configured")
            }
            Reason::NoKind => f.write_str(
                "no job kind is defined, but arrivals need one (add at least one kind)",
            ),
            Reason::OutageBackwards { from_ms, until_ms } => write!(
                f,
                "until_ms ({until_ms}) is before from_ms ({from_ms}); the outage must end after it starts"
            ),
            Reason::MaxBelowMin { min_ms, max_ms } => {
                write!(f, "max_ms ({max_ms}) is below min_ms ({min_ms})")
            }
        }
    }
}

/// A number in an error message, kept as it was read: a whole number exactly (also beyond
/// 2^53, which an `f64` would round), any other number readably ([`Num::Float`]'s display).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
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
            ConfigError::LoadJobs { .. } => "jobs",
        }
    }

    /// The error in `lang`, naming the field and the allowed range (English: exactly as
    /// [`Display`](fmt::Display) prints it, which the CLI prints). A parse error keeps the
    /// JSON decoder's own (English) words after a translated lead.
    pub fn message(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        let l = lang.code();
        match self {
            ConfigError::Parse { field, message } => {
                t!(
                    "sim-config.parse",
                    locale = l,
                    field = field,
                    message = message
                )
            }
            ConfigError::OutOfRange {
                field,
                value,
                min,
                max,
            } => t!(
                "sim-config.out-of-range",
                locale = l,
                field = field,
                value = value,
                min = min,
                max = max
            ),
            ConfigError::CapBelowBase {
                field,
                base_ms,
                cap_ms,
            } => t!(
                "sim-config.cap-below-base",
                locale = l,
                field = field,
                base = base_ms,
                cap = cap_ms
            ),
            ConfigError::NoWorkers { jobs } => t!(
                "sim-config.no-workers",
                locale = l,
                jobs = jobs,
                max = MAX_WORKERS
            ),
            ConfigError::Invalid { field, reason } => t!(
                "sim-config.invalid",
                locale = l,
                field = field,
                reason = reason.message(lang)
            ),
            ConfigError::LoadJobs { jobs } => t!(
                "sim-config.load-jobs",
                locale = l,
                jobs = jobs,
                max = MAX_LOAD_JOBS
            ),
        }
        .into_owned()
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
                "workers.count is 0 but {jobs} jobs arrive; allowed: 0 to {MAX_WORKERS} (at least 1 when jobs arrive)"
            ),
            ConfigError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
            ConfigError::LoadJobs { jobs } => write!(
                f,
                "jobs: {jobs} is out of range; allowed: 1 to {MAX_LOAD_JOBS}"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

//! Errors of simulation configs, returned as values. Typed all the way to the page: the
//! worker sends them as JSON ([`RunMessage::Failed`](crate::domain::sim::runner::RunMessage)),
//! the page words them in its language ([`ConfigError::message`], `locales/page/sim-config.yml`);
//! the CLI prints their English [`Display`](fmt::Display).

use crate::domain::lang::Lang;
use crate::domain::sim::setup::limits::{MAX_LOAD_JOBS, MAX_WORKERS};
use crate::text::t;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::fmt;

/// A problem with a simulation config. `field` is the path in the JSON config file, e.g.
/// `workers.count` or `kinds[0].max_attempts`.
///
/// As JSON (the worker's [`RunMessage::Failed`](crate::domain::sim::runner::RunMessage)),
/// serde's externally tagged form: `{"OutOfRange": {"field": "workers.count", "value":
/// {"Int": 20000}, "min": {"Int": 0}, "max": {"Int": 10000}}}`. It is read back by hand
/// ([`ConfigError::from_json`]): serde's derived readers of these enums took ~30 KB of the
/// page's wasm, which has a tight size budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
        let (key, args): (&str, Args) = match self {
            Reason::UnknownScenario { got, allowed } => (
                "sim-config.unknown-scenario",
                vec![("got", format!("{got:?}")), ("allowed", allowed.join(", "))],
            ),
            Reason::UnknownVariant {
                got,
                scenario,
                allowed,
            } => (
                "sim-config.unknown-variant",
                vec![
                    ("got", format!("{got:?}")),
                    ("scenario", scenario.clone()),
                    ("allowed", allowed.join(", ")),
                ],
            ),
            Reason::NoDownstream => ("sim-config.no-downstream", Vec::new()),
            Reason::NoKind => ("sim-config.no-kind", Vec::new()),
            Reason::OutageBackwards { from_ms, until_ms } => (
                "sim-config.outage-backwards",
                vec![
                    ("from", from_ms.to_string()),
                    ("until", until_ms.to_string()),
                ],
            ),
            Reason::MaxBelowMin { min_ms, max_ms } => (
                "sim-config.max-below-min",
                vec![("min", min_ms.to_string()), ("max", max_ms.to_string())],
            ),
        };
        fill(&t!(key, locale = lang.code()), &args)
    }
}

/// The named values of a message: `("field", "workers.count")` fills `%{field}`.
type Args = Vec<(&'static str, String)>;

/// `template` with each `%{name}` replaced by its value in `args`, in one pass (a value that
/// itself holds `%{…}` stays as it is); an unknown name stays as written. One routine for
/// every config message keeps the page's wasm small (a `t!` with arguments expands in place).
fn fill(template: &str, args: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(i) = rest.find("%{") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 2..];
        let Some(end) = tail.find('}') else {
            out.push_str(&rest[i..]);
            return out;
        };
        match args.iter().find(|(k, _)| *k == &tail[..end]) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(&rest[i..i + 3 + end]),
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
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
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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

    /// The error in `lang`, naming the field and the allowed range (English: the same text
    /// as [`Display`](fmt::Display), which the CLI prints; the page words it from the locale
    /// file, so its wasm holds no second copy). A parse error keeps the JSON decoder's own
    /// (English) words after a translated lead.
    pub fn message(&self, lang: Lang) -> String {
        let (key, args): (&str, Args) = match self {
            ConfigError::Parse { field, message } => (
                "sim-config.parse",
                vec![("field", field.clone()), ("message", message.clone())],
            ),
            ConfigError::OutOfRange {
                field,
                value,
                min,
                max,
            } => (
                "sim-config.out-of-range",
                vec![
                    ("field", field.clone()),
                    ("value", value.to_string()),
                    ("min", min.to_string()),
                    ("max", max.to_string()),
                ],
            ),
            ConfigError::CapBelowBase {
                field,
                base_ms,
                cap_ms,
            } => (
                "sim-config.cap-below-base",
                vec![
                    ("field", field.clone()),
                    ("base", base_ms.to_string()),
                    ("cap", cap_ms.to_string()),
                ],
            ),
            ConfigError::NoWorkers { jobs } => (
                "sim-config.no-workers",
                vec![("jobs", jobs.to_string()), ("max", MAX_WORKERS.to_string())],
            ),
            ConfigError::Invalid { field, reason } => (
                "sim-config.invalid",
                vec![("field", field.clone()), ("reason", reason.message(lang))],
            ),
            ConfigError::LoadJobs { jobs } => (
                "sim-config.load-jobs",
                vec![
                    ("jobs", jobs.to_string()),
                    ("max", MAX_LOAD_JOBS.to_string()),
                ],
            ),
        };
        fill(&t!(key, locale = lang.code()), &args)
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

impl<'de> Deserialize<'de> for ConfigError {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ConfigError, D::Error> {
        let v = Value::deserialize(d)?;
        ConfigError::from_json(&v).ok_or_else(|| serde::de::Error::custom("not a config error"))
    }
}

impl ConfigError {
    /// Reads the JSON that [`Serialize`] writes; `None` for anything else.
    pub fn from_json(v: &Value) -> Option<ConfigError> {
        let (tag, b) = v.as_object()?.iter().next()?;
        let text = |k: &str| b.get(k)?.as_str().map(str::to_owned);
        let num = |k: &str| Num::from_json(b.get(k)?);
        Some(match tag.as_str() {
            "Parse" => ConfigError::Parse {
                field: text("field")?,
                message: text("message")?,
            },
            "OutOfRange" => ConfigError::OutOfRange {
                field: text("field")?,
                value: num("value")?,
                min: num("min")?,
                max: num("max")?,
            },
            "CapBelowBase" => ConfigError::CapBelowBase {
                field: text("field")?,
                base_ms: b.get("base_ms")?.as_f64()?,
                cap_ms: b.get("cap_ms")?.as_f64()?,
            },
            "NoWorkers" => ConfigError::NoWorkers {
                jobs: b.get("jobs")?.as_u64()?,
            },
            "Invalid" => ConfigError::Invalid {
                field: text("field")?,
                reason: Reason::from_json(b.get("reason")?)?,
            },
            "LoadJobs" => ConfigError::LoadJobs {
                jobs: b.get("jobs")?.as_u64()?,
            },
            _ => return None,
        })
    }
}

impl Reason {
    /// Reads the JSON that [`Serialize`] writes; `None` for anything else.
    fn from_json(v: &Value) -> Option<Reason> {
        match v.as_str() {
            Some("NoDownstream") => return Some(Reason::NoDownstream),
            Some("NoKind") => return Some(Reason::NoKind),
            Some(_) => return None,
            None => {}
        }
        let (tag, b) = v.as_object()?.iter().next()?;
        let text = |k: &str| b.get(k)?.as_str().map(str::to_owned);
        let list = |k: &str| -> Option<Vec<String>> {
            b.get(k)?
                .as_array()?
                .iter()
                .map(|x| x.as_str().map(str::to_owned))
                .collect()
        };
        let ms = |k: &str| b.get(k)?.as_u64();
        Some(match tag.as_str() {
            "UnknownScenario" => Reason::UnknownScenario {
                got: text("got")?,
                allowed: list("allowed")?,
            },
            "UnknownVariant" => Reason::UnknownVariant {
                got: text("got")?,
                scenario: text("scenario")?,
                allowed: list("allowed")?,
            },
            "OutageBackwards" => Reason::OutageBackwards {
                from_ms: ms("from_ms")?,
                until_ms: ms("until_ms")?,
            },
            "MaxBelowMin" => Reason::MaxBelowMin {
                min_ms: ms("min_ms")?,
                max_ms: ms("max_ms")?,
            },
            _ => return None,
        })
    }
}

impl Num {
    /// Reads `{"Int": n}` or `{"Float": x}`.
    fn from_json(v: &Value) -> Option<Num> {
        let (tag, x) = v.as_object()?.iter().next()?;
        match tag.as_str() {
            "Int" => x.as_i64().map(Num::Int),
            "Float" => x.as_f64().map(Num::Float),
            _ => None,
        }
    }
}

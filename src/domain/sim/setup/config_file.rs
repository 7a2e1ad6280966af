//! The JSON config file of `simulate --config FILE.json`, and its checks.
//!
//! Numbers are read as signed integers and floats, then checked, so that a negative count or
//! an absurd size is reported with its field path and allowed range instead of a bare parse
//! error. Unknown fields are rejected, also beside a `type` that takes no options
//! (`{"type": "atomic", "x": 1}`); an object must be written as a JSON object (serde would also
//! take a list of its values in field order); nothing may follow the top-level object. A value
//! of the wrong type names its path, inside tagged objects too (`arrivals[0].pattern.count`),
//! and a number field's range. Times are whole milliseconds (`mean_ms`, `p50_ms`, `p95_ms`
//! too, from 1). An optional field is left out for its default; `null` is refused as the wrong
//! type. `growth` and `jitter` are names (`"exponential"`), not objects. Every range finding is
//! returned, not only the first. Example:
//!
//! ```json
//! { "seed": 7,
//!   "kinds": [{ "name": "send_mail", "max_attempts": 5,
//!               "duration": { "type": "lognormal", "p50_ms": 80, "p95_ms": 400 },
//!               "failure": { "type": "probability", "p": 0.2 },
//!               "error": "TimeoutError", "error_class": "retryable" }],
//!   "arrivals": [{ "kind": 0, "pattern": { "type": "poisson", "rate_per_s": 5, "count": 100 } }],
//!   "workers": { "count": 2, "poll_ms": 50 },
//!   "retry": { "base_ms": 100, "cap_ms": 5000, "growth": "exponential", "jitter": "full" } }
//! ```

use crate::domain::sim::core::backoff::{BackoffPolicy, Growth, Jitter};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::Retention;
use crate::domain::sim::setup::config::{
    Arrivals, ClaimStrategy, Downstream, DurationDist, Effect, ErrorClass, FailureModel,
    InWorkerRetry, Intake, JobKind, Pattern, SimConfig, TokenBucket, WorkerSpec,
};
use crate::domain::sim::setup::error::{ConfigError, Num};
use crate::domain::sim::setup::limits::{
    MAX_ATTEMPTS, MAX_BURST, MAX_EFFECT_AMOUNT, MAX_EVENTS, MAX_JOBS, MAX_MS, MAX_WORKERS,
    RATE_RANGE,
};
use serde::de::{DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;

/// Declares a tagged enum of the file (`{"type": "<variant in kebab-case>", …its fields}`):
/// the public enum, written with its `type` tag, and a private externally tagged copy
/// (`{"<variant>": {…its fields}}`) that [`tagged`] reads it through. serde's own internally
/// tagged enums accept extra fields on a unit variant, accept a list in place of the object,
/// and lose the path below the enum; reading through the copy refuses the first two and names
/// the field (`arrivals[0].pattern.count`). `expecting` completes "expected …" when the value
/// is not an object.
macro_rules! tagged_file_enum {
    (
        $(#[$m:meta])*
        pub enum $name:ident read as $mirror:ident, expecting $what:expr, {
            $(
                $(#[$vm:meta])*
                $variant:ident $({
                    $( $(#[$fm:meta])* $field:ident : $ty:ty ),* $(,)?
                })?
            ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(tag = "type", rename_all = "kebab-case")]
        pub enum $name {
            $( $(#[$vm])* $variant $({ $( $(#[$fm])* $field: $ty ),* })? ),*
        }

        #[derive(Deserialize)]
        #[serde(rename_all = "kebab-case", deny_unknown_fields)]
        enum $mirror {
            $( $variant { $($( $(#[$fm])* $field: $ty ),*)? } ),*
        }

        impl From<$mirror> for $name {
            fn from(m: $mirror) -> $name {
                match m {
                    $( $mirror::$variant { $($($field),*)? } => $name::$variant $({ $($field),* })? ),*
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                tagged::<$mirror, D>(d, $what).map(Into::into)
            }
        }
    };
}

/// The prefix of an error from inside a tagged object, naming the field below it:
/// `in `count`: invalid type: …` ([`load_config`] moves the field into the path).
const INSIDE: &str = "in `";

/// Reads a tagged object (`{"type": "poisson", "count": 100, …}`) as `M`, its externally
/// tagged copy (`{"poisson": {"count": 100, …}}`); only a JSON object is accepted.
///
/// # Errors
/// Not an object ("expected {what}"); a duplicate field; `missing field `type``; an unknown
/// `type` (listing the allowed ones); an unknown or missing field or a wrong value of the
/// variant, prefixed with [`INSIDE`] and the field's path below the object.
fn tagged<'de, M: DeserializeOwned, D: Deserializer<'de>>(
    d: D,
    what: &'static str,
) -> Result<M, D::Error> {
    struct Tagged<M>(&'static str, PhantomData<M>);
    impl<'de, M: DeserializeOwned> Visitor<'de> for Tagged<M> {
        type Value = M;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<M, A::Error> {
            use serde::de::Error;
            use serde_json::{Map, Value};
            let (mut tag, mut fields) = (None, Map::new());
            while let Some(key) = map.next_key::<String>()? {
                let value: Value = map.next_value()?;
                let twice = if key == "type" {
                    tag.replace(value).is_some()
                } else {
                    fields.insert(key.clone(), value).is_some()
                };
                if twice {
                    return Err(A::Error::custom(format_args!("duplicate field `{key}`")));
                }
            }
            let name = match tag {
                Some(Value::String(name)) => name,
                Some(other) => other.to_string(),
                None => return Err(A::Error::missing_field("type")),
            };
            let outer = Value::Object(Map::from_iter([(name, Value::Object(fields))]));
            serde_path_to_error::deserialize(outer).map_err(|e| {
                // The path starts with the variant's name; below it is the field.
                let path = e.path().to_string();
                let inner = e.into_inner();
                match path.split_once('.') {
                    Some((_, field)) if !field.is_empty() && field != "?" => {
                        A::Error::custom(format_args!("{INSIDE}{field}`: {inner}"))
                    }
                    _ => A::Error::custom(inner),
                }
            })
        }
    }
    d.deserialize_map(Tagged(what, PhantomData))
}

/// A struct of the file, read only from a JSON object: serde's derived structs also take a
/// list of the field values in declaration order, which nobody writing a file means.
/// `T::WHAT` completes "expected …" when the value is not an object.
struct Obj<T>(T);

/// What a struct of the file is, for "expected …".
trait FileObject {
    const WHAT: &'static str;
}

impl<'de, T: Deserialize<'de> + FileObject> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Obj<T>, D::Error> {
        struct Object<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + FileObject> Visitor<'de> for Object<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(T::WHAT)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                // The fields are read from the same map, so their paths are kept.
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Object(PhantomData)).map(Obj)
    }
}

/// `deserialize_with` for a struct field: an object only.
fn object<'de, D: Deserializer<'de>, T: Deserialize<'de> + FileObject>(
    d: D,
) -> Result<T, D::Error> {
    Obj::deserialize(d).map(|Obj(t)| t)
}

/// `deserialize_with` for an optional struct field: an object (left out: `None`; `null` is
/// refused as the wrong type, as it means nothing a left-out field does not).
fn opt_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FileObject,
{
    Obj::<T>::deserialize(d).map(|Obj(t)| Some(t))
}

/// `deserialize_with` for an optional field: its value (left out: `None`, the default);
/// `null` is refused as the wrong type, naming what the field takes.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A JSON value's type as the decoder names it in "invalid type: …".
fn json_type(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "list".to_owned(),
        Value::Object(_) => "object".to_owned(),
    }
}

/// `deserialize_with` for a field that takes one of the `names` (`"fixed" or "exponential"`)
/// as a JSON string: anything else (an object `{"type": "fixed"}`, `null`) is refused naming
/// them.
fn by_name<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
    names: &str,
) -> Result<Option<T>, D::Error> {
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        v @ serde_json::Value::String(_) => serde_json::from_value(v)
            .map(Some)
            .map_err(D::Error::custom),
        other => Err(D::Error::custom(format_args!(
            "invalid type: {}, expected a name as a string: {names}",
            json_type(&other)
        ))),
    }
}

fn growth_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Growth>, D::Error> {
    by_name(d, "\"fixed\" or \"exponential\"")
}

fn jitter_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Jitter>, D::Error> {
    by_name(d, "\"none\", \"full\", \"equal\" or \"decorrelated\"")
}

/// `deserialize_with` for a list of structs: a list of objects.
fn objects<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FileObject,
{
    Vec::<Obj<T>>::deserialize(d).map(|v| v.into_iter().map(|Obj(t)| t).collect())
}

macro_rules! file_objects {
    ($($t:ty => $what:expr),* $(,)?) => {
        $(impl FileObject for $t {
            const WHAT: &'static str = $what;
        })*
    };
}

file_objects! {
    SimConfigFile => "a JSON object with the config's fields",
    KindFile => "a job kind object {\"name\": …, \"duration\": {…}, …}",
    EffectFile => "an object {\"amount\": …} with an optional \"idempotency_key\"",
    ArrivalsFile => "an object {\"kind\": …, \"pattern\": {…}}",
    WorkersFile => "an object {\"count\": …} with the workers' options",
    BackoffFile => "an object {\"base_ms\": …, \"cap_ms\": …} with optional \"growth\" and \"jitter\"",
    InWorkerRetryFile => "an object {\"max_retries\": …, \"backoff\": {…}}",
    DownstreamFile => "an object {\"latency\": {…}} with the downstream's options",
    RateLimitFile => "an object {\"rate_per_s\": …, \"burst\": …}",
    OutageFile => "an object {\"from_ms\": …, \"until_ms\": …}",
    LimitsFile => "an object with \"max_events\" and/or \"max_time_ms\"",
}

/// The file's top level. See the module docs for an example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfigFile {
    /// RNG seed, 0 ..= 18 446 744 073 709 551 615 (the full `u64` range, as the CLI's
    /// `--seed` and the browser take; default 1). A negative or larger seed is refused as a
    /// parse error on `seed` naming the range.
    #[serde(default = "one", deserialize_with = "seed_in_range")]
    pub seed: u64,
    /// Job kinds.
    #[serde(deserialize_with = "objects")]
    pub kinds: Vec<KindFile>,
    /// Arrivals.
    #[serde(deserialize_with = "objects")]
    pub arrivals: Vec<ArrivalsFile>,
    /// Workers.
    #[serde(deserialize_with = "object")]
    pub workers: WorkersFile,
    /// Claim strategy (default atomic): a name (`"atomic"`, `"skip-locked"`, …) or an object
    /// with `type` and its option (`{"type": "for-update", "lock_timeout_ms": 500}`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "claim_by_name_or_object"
    )]
    pub claim: Option<ClaimFile>,
    /// Lease, ms (default 30 000).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub lease_ms: Option<i64>,
    /// Queue retry wait (default fixed 200 ms).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub retry: Option<BackoffFile>,
    /// Permanent errors go to `dead` at once (default false).
    #[serde(default)]
    pub classify_errors: bool,
    /// Retries inside the worker for downstream calls.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub in_worker_retry: Option<InWorkerRetryFile>,
    /// The downstream.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub downstream: Option<DownstreamFile>,
    /// Intake (default queue, no publish failures).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub intake: Option<IntakeFile>,
    /// Run bounds.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub limits: Option<LimitsFile>,
    /// Record the event log (default true).
    #[serde(default = "yes")]
    pub log: bool,
    /// Queue-depth series bucket, ms (default 1000).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub series_bucket_ms: Option<i64>,
    /// Rows of finished jobs the final table keeps: the first `keep_rows` ids, 0 ..= 2 000 000
    /// (default: every row). Later rows are deleted once finished, as a queue's pruner deletes
    /// finished jobs; counts, waits, latencies and the attempts chart still cover every job
    /// (`Retention::FirstRows`). For large runs: memory then follows the jobs in flight.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub keep_rows: Option<i64>,
}

fn one() -> u64 {
    1
}
fn one_i64() -> i64 {
    1
}

/// Reads `seed` as any JSON value: a whole number outside `0 ..= u64::MAX` is refused as out
/// of range, anything else (a string, a fraction, …) as the wrong type, both naming the range.
fn seed_in_range<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    use serde_json::Value;
    let v = Value::deserialize(d)?;
    if let Some(seed) = v.as_u64() {
        return Ok(seed);
    }
    let whole = |n: &serde_json::Number| {
        n.as_i64().is_some() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
    };
    let message = match &v {
        Value::Number(n) if whole(n) => format!(
            "{n} is out of range; allowed: 0 to {} (a whole number)",
            u64::MAX
        ),
        other => format!(
            "invalid type: {}, expected a whole number from 0 to {}",
            json_type(other),
            u64::MAX
        ),
    };
    Err(serde::de::Error::custom(message))
}
fn yes() -> bool {
    true
}

/// A job kind in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct KindFile {
    pub name: String,
    #[serde(default = "three")]
    pub max_attempts: i64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub duration: Option<DistFile>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub failure: Option<FailureFile>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub error: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub error_class: Option<ErrorClass>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub effect: Option<EffectFile>,
    #[serde(default)]
    pub calls_downstream: bool,
}

fn three() -> i64 {
    3
}

tagged_file_enum! {
    /// A duration distribution in the file (ms).
    #[allow(missing_docs)]
    pub enum DistFile read as DistRead,
        expecting "a duration object such as {\"type\": \"fixed\", \"ms\": 100}", {
        Fixed { ms: i64 },
        Uniform { min_ms: i64, max_ms: i64 },
        Exponential { mean_ms: i64 },
        Lognormal { p50_ms: i64, p95_ms: i64 },
    }
}

tagged_file_enum! {
    /// A failure model in the file.
    #[allow(missing_docs)]
    pub enum FailureFile read as FailureRead,
        expecting "a failure object such as {\"type\": \"probability\", \"p\": 0.2}", {
        Never,
        FirstRuns { k: i64 },
        Probability { p: f64 },
        Always,
    }
}

/// A side effect in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct EffectFile {
    /// Added to the balance by each applied run: a whole number from −1 000 000 000 to
    /// 1 000 000 000 ([`MAX_EFFECT_AMOUNT`]).
    pub amount: i64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub idempotency_key: Option<String>,
}

/// Arrivals in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ArrivalsFile {
    pub kind: i64,
    pub pattern: PatternFile,
}

tagged_file_enum! {
    /// An arrival pattern in the file.
    #[allow(missing_docs)]
    pub enum PatternFile read as PatternRead,
        expecting "an arrival pattern such as {\"type\": \"burst\", \"count\": 10}", {
        Burst {
            count: i64,
            #[serde(default)]
            at_ms: i64,
        },
        Poisson {
            rate_per_s: f64,
            count: i64,
        },
        Times {
            at_ms: Vec<i64>,
        },
    }
}

/// Workers in the file: `count` alike workers named `A`, `B`, ….
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct WorkersFile {
    pub count: i64,
    /// Idle poll interval, ms; 0: woken on work (default 50).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub poll_ms: Option<i64>,
    #[serde(default)]
    pub crash_probability: f64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub restart_after_ms: Option<i64>,
}

tagged_file_enum! {
    /// A claim strategy in the file.
    #[allow(missing_docs)]
    pub enum ClaimFile read as ClaimRead, expecting CLAIM_EXPECTED, {
        Atomic,
        TwoStatement {
            #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
            gap_ms: Option<i64>,
        },
        ForUpdate {
            #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
            lock_timeout_ms: Option<i64>,
        },
        Nowait,
        SkipLocked,
    }
}

/// What a claim strategy may be, for "expected …".
const CLAIM_EXPECTED: &str = "a claim strategy: \"atomic\", \"two-statement\" (option gap_ms), \"for-update\" (option lock_timeout_ms), \"nowait\" or \"skip-locked\", or an object such as {\"type\": \"for-update\", \"lock_timeout_ms\": 500}";

/// A backoff policy in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct BackoffFile {
    pub base_ms: i64,
    pub cap_ms: i64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "growth_by_name"
    )]
    pub growth: Option<Growth>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "jitter_by_name"
    )]
    pub jitter: Option<Jitter>,
}

/// In-worker retries in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct InWorkerRetryFile {
    pub max_retries: i64,
    #[serde(deserialize_with = "object")]
    pub backoff: BackoffFile,
}

/// The downstream in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct DownstreamFile {
    #[serde(default)]
    pub capacity: i64,
    pub latency: DistFile,
    #[serde(default)]
    pub refusal_ms: i64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub rate_limit: Option<RateLimitFile>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub outage: Option<OutageFile>,
}

/// A token bucket in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RateLimitFile {
    pub rate_per_s: f64,
    pub burst: i64,
}

/// An outage window in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct OutageFile {
    pub from_ms: i64,
    pub until_ms: i64,
}

tagged_file_enum! {
    /// Intake in the file.
    #[allow(missing_docs)]
    pub enum IntakeFile read as IntakeRead,
        expecting "an intake object such as {\"type\": \"queue\", \"publish_failure\": 0.01}", {
        Queue {
            #[serde(default)]
            publish_failure: f64,
            #[serde(default)]
            fallback_calls: i64,
        },
        Direct {
            #[serde(default = "one_i64")]
            calls: i64,
        },
    }
}

/// Limits in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct LimitsFile {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub max_events: Option<i64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub max_time_ms: Option<i64>,
}

/// Parses and checks a config file's text.
///
/// # Errors
/// [`ConfigError::Parse`] (with the field path) for malformed JSON, a wrong type or an
/// unknown field; otherwise every range and cross-field finding.
pub fn load_config(text: &str) -> Result<SimConfig, Vec<ConfigError>> {
    parse_file(text)?.into_config()
}

/// Reads a JSON config file into its typed form (not yet checked against the ranges: see
/// [`SimConfigFile::into_config`]).
///
/// # Errors
/// [`ConfigError::Parse`] (with the field path) for an empty document, malformed JSON, a wrong
/// type or an unknown field.
pub fn parse_file(text: &str) -> Result<SimConfigFile, Vec<ConfigError>> {
    // A byte-order mark, as some editors save JSON, is not part of the document.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(vec![ConfigError::Parse {
            field: "config".into(),
            message: "the file is empty; expected a JSON object such as {\"seed\": 1, \"kinds\": […], \"arrivals\": […], \"workers\": {…}}".into(),
        }]);
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let parse_error = |path: String, message: String| {
        let mut field = if path == "." || path == "?" {
            "config".to_owned()
        } else {
            path
        };
        // An error from inside a tagged object names the field below it: move it to the path.
        let mut message = message.as_str();
        if let Some((inner, rest)) = message
            .strip_prefix(INSIDE)
            .and_then(|m| m.split_once("`: "))
        {
            field = format!("{field}.{inner}");
            message = rest;
        }
        let message = readable(&field, message);
        vec![ConfigError::Parse { field, message }]
    };
    let Obj(file): Obj<SimConfigFile> = serde_path_to_error::deserialize(&mut *de)
        .map_err(|e| parse_error(e.path().to_string(), e.into_inner().to_string()))?;
    // Only whitespace may follow the object.
    de.end()
        .map_err(|e| parse_error(".".into(), e.to_string()))?;
    Ok(file)
}

/// The range of a number field, by its path with the list indexes left out
/// (`arrivals.pattern.count`): whether it is whole, and its smallest and largest value — as
/// the range checks ([`SimConfigFile::into_config`], [`SimConfig::validate`]) allow, so that a
/// value of the wrong type is told the same range as one out of range.
fn number_range(field: &str) -> Option<(bool, f64, f64)> {
    let mut path = String::with_capacity(field.len());
    let mut in_index = false;
    for c in field.chars() {
        match c {
            '[' => in_index = true,
            ']' => in_index = false,
            c if !in_index => path.push(c),
            _ => {}
        }
    }
    let ms = (true, 0.0, MAX_MS as f64);
    let attempts = (true, 0.0, MAX_ATTEMPTS as f64);
    let rate = (false, RATE_RANGE.0, RATE_RANGE.1);
    let probability = (false, 0.0, 1.0);
    let positive_ms = (true, 1.0, MAX_MS as f64);
    let dist = |name: &str| match name {
        "ms" | "min_ms" | "max_ms" => Some(ms),
        "mean_ms" | "p50_ms" | "p95_ms" => Some(positive_ms),
        _ => None,
    };
    if let Some(name) = path
        .strip_prefix("kinds.duration.")
        .or_else(|| path.strip_prefix("downstream.latency."))
    {
        return dist(name);
    }
    Some(match path.as_str() {
        "kinds.max_attempts" | "intake.calls" => (true, 1.0, MAX_ATTEMPTS as f64),
        "kinds.failure.k" | "in_worker_retry.max_retries" | "intake.fallback_calls" => attempts,
        "kinds.failure.p" | "workers.crash_probability" | "intake.publish_failure" => probability,
        "kinds.effect.amount" => (true, -(MAX_EFFECT_AMOUNT as f64), MAX_EFFECT_AMOUNT as f64),
        "arrivals.pattern.count" | "keep_rows" => (true, 0.0, MAX_JOBS as f64),
        "arrivals.pattern.rate_per_s" | "downstream.rate_limit.rate_per_s" => rate,
        "workers.count" | "downstream.capacity" => (true, 0.0, MAX_WORKERS as f64),
        "downstream.rate_limit.burst" => (true, 1.0, MAX_BURST as f64),
        "lease_ms" | "limits.max_time_ms" | "series_bucket_ms" => (true, 1.0, MAX_MS as f64),
        "limits.max_events" => (true, 1.0, MAX_EVENTS as f64),
        "arrivals.pattern.at_ms"
        | "workers.poll_ms"
        | "workers.restart_after_ms"
        | "claim.gap_ms"
        | "claim.lock_timeout_ms"
        | "retry.base_ms"
        | "retry.cap_ms"
        | "in_worker_retry.backoff.base_ms"
        | "in_worker_retry.backoff.cap_ms"
        | "downstream.refusal_ms"
        | "downstream.outage.from_ms"
        | "downstream.outage.until_ms" => ms,
        _ => return None,
    })
}

/// The claim strategy as a name (`"skip-locked"`) or as the tagged object.
fn claim_by_name_or_object<'de, D>(de: D) -> Result<Option<ClaimFile>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let value = serde_json::Value::deserialize(de)?;
    let value = match value {
        serde_json::Value::String(name) => serde_json::json!({ "type": name }),
        other => other,
    };
    serde_json::from_value(value)
        .map(Some)
        .map_err(D::Error::custom)
}

/// The JSON decoder's message about `field` in the file's terms: no Rust type names, and what
/// a value may be.
fn readable(field: &str, message: &str) -> String {
    if message.contains("EOF while parsing") {
        let at = message.find(" at line ").map_or("", |i| &message[i..]);
        return format!("the JSON ends before it is complete{at}");
    }
    if let Some(at) = message.strip_prefix("trailing characters") {
        return format!("unexpected text after the end of the JSON object{at}");
    }
    if field == "config" && message.contains(SimConfigFile::WHAT) {
        return "expected a JSON object with the config's fields, not a list or a single value"
            .into();
    }
    if field == "claim" && message.contains("missing field `type`") {
        return format!("expected {CLAIM_EXPECTED}");
    }
    let mut m = message.to_owned();
    // A float as the decoder prints it (`1e300` in full, 301 digits): readably.
    let float = "floating point `";
    if let Some(i) = m.find(float).map(|i| i + float.len()) {
        if let Some(j) = m[i..].find('`').map(|j| i + j) {
            if let Ok(x) = m[i..j].parse::<f64>() {
                m = format!("{}{}{}", &m[..i], Num::Float(x), &m[j..]);
            }
        }
    }
    // A number field of the wrong type: the field's own range, as a value out of it is told.
    let range = number_range(field).map(|(whole, min, max)| {
        let what = if whole { "a whole number" } else { "a number" };
        let note = if field == "workers.count" {
            " (at least 1 when jobs arrive)"
        } else {
            ""
        };
        format!(
            "expected {what} from {} to {}{note}",
            Num::Float(min),
            Num::Float(max)
        )
    });
    let range = range.or_else(|| {
        (field.starts_with("arrivals[") && field.ends_with("].kind")).then(|| {
            "expected a whole number: the index of a kind in `kinds`, from 0 (the first) to their count − 1".to_owned()
        })
    });
    if let Some(range) = range {
        for rust in ["expected i64", "expected f64"] {
            if let Some(i) = m.find(rust) {
                m = format!("{}{range}{}", &m[..i], &m[i + rust.len()..]);
            }
        }
    }
    if m.starts_with("invalid type: null") {
        let at = m.find(" at line ").unwrap_or(m.len());
        m.insert_str(
            at,
            "; null is not a value here: leave the field out for its default",
        );
    }
    // Structs and tagged objects say what they expect themselves ([`FileObject`],
    // [`tagged_file_enum!`]); what is left is the decoder's words for JSON values.
    for (rust, file) in [
        (
            "expected i64",
            "expected a whole number from −9 223 372 036 854 775 808 to 9 223 372 036 854 775 807 (and within the field's range)",
        ),
        ("expected u64", "expected a whole number from 0"),
        ("expected f64", "expected a number"),
        ("invalid type: map", "invalid type: object"),
        ("expected a sequence", "expected a list"),
        ("invalid type: sequence", "invalid type: list"),
    ] {
        if let Some(i) = m.find(rust) {
            m = format!("{}{}{}", &m[..i], file, &m[i + rust.len()..]);
        }
    }
    m
}

struct Check(Vec<ConfigError>);

impl Check {
    fn int(&mut self, field: &str, v: i64, min: u64, max: u64) -> u64 {
        if v < 0 || (v as u64) < min || (v as u64) > max {
            self.0
                .push(ConfigError::int_range(field, v, min as i64, max as i64));
            min
        } else {
            v as u64
        }
    }

    /// A side effect's amount: within ±[`MAX_EFFECT_AMOUNT`] (0 stands in for a refused one).
    fn amount(&mut self, field: &str, v: i64) -> i64 {
        if v.unsigned_abs() > MAX_EFFECT_AMOUNT {
            self.0
                .push(crate::domain::sim::setup::config::effect_amount_range(
                    field, v,
                ));
            0
        } else {
            v
        }
    }

    fn ms(&mut self, field: &str, v: i64) -> u64 {
        self.int(field, v, 0, MAX_MS)
    }

    fn dist(&mut self, field: &str, d: &DistFile) -> DurationDist {
        match *d {
            DistFile::Fixed { ms } => DurationDist::Fixed {
                ms: self.ms(&format!("{field}.ms"), ms),
            },
            DistFile::Uniform { min_ms, max_ms } => DurationDist::Uniform {
                min_ms: self.ms(&format!("{field}.min_ms"), min_ms),
                max_ms: self.ms(&format!("{field}.max_ms"), max_ms),
            },
            DistFile::Exponential { mean_ms } => DurationDist::Exponential {
                mean_ms: self.int(&format!("{field}.mean_ms"), mean_ms, 1, MAX_MS) as f64,
            },
            DistFile::Lognormal { p50_ms, p95_ms } => DurationDist::LogNormal {
                p50_ms: self.int(&format!("{field}.p50_ms"), p50_ms, 1, MAX_MS) as f64,
                p95_ms: self.int(&format!("{field}.p95_ms"), p95_ms, 1, MAX_MS) as f64,
            },
        }
    }

    fn backoff(&mut self, field: &str, b: &BackoffFile) -> BackoffPolicy {
        BackoffPolicy {
            base: SimDuration::from_ms(self.ms(&format!("{field}.base_ms"), b.base_ms)),
            cap: SimDuration::from_ms(self.ms(&format!("{field}.cap_ms"), b.cap_ms)),
            growth: b.growth.unwrap_or(Growth::Fixed),
            jitter: b.jitter.unwrap_or(Jitter::None),
        }
    }
}

impl SimConfigFile {
    /// Converts to a [`SimConfig`], checking every field.
    ///
    /// # Errors
    /// Every finding (ranges first, then [`SimConfig::validate`]'s cross-field checks).
    pub fn into_config(self) -> Result<SimConfig, Vec<ConfigError>> {
        let mut c = Check(Vec::new());
        let mut cfg = SimConfig::empty(self.seed);
        for (i, k) in self.kinds.iter().enumerate() {
            let f = |n: &str| format!("kinds[{i}].{n}");
            let failure = match k.failure.clone().unwrap_or(FailureFile::Never) {
                FailureFile::Never => FailureModel::Never,
                FailureFile::FirstRuns { k: n } => FailureModel::FirstRuns {
                    k: c.int(&f("failure.k"), n, 0, MAX_ATTEMPTS) as u32,
                },
                FailureFile::Probability { p } => FailureModel::Probability { p },
                FailureFile::Always => FailureModel::Always,
            };
            cfg.kinds.push(JobKind {
                name: k.name.clone(),
                max_attempts: c.int(&f("max_attempts"), k.max_attempts, 1, MAX_ATTEMPTS) as u32,
                duration: k
                    .duration
                    .as_ref()
                    .map_or(DurationDist::Fixed { ms: 0 }, |d| c.dist(&f("duration"), d)),
                failure,
                error: k.error.clone().unwrap_or_else(|| "error".into()),
                error_class: k.error_class.unwrap_or(ErrorClass::Retryable),
                effect: k.effect.as_ref().map(|e| Effect {
                    amount: c.amount(&f("effect.amount"), e.amount),
                    idempotency_key: e.idempotency_key.clone(),
                }),
                calls_downstream: k.calls_downstream,
            });
        }
        for (i, a) in self.arrivals.iter().enumerate() {
            let f = |n: &str| format!("arrivals[{i}].{n}");
            let pattern = match &a.pattern {
                PatternFile::Burst { count, at_ms } => Pattern::Burst {
                    count: c.int(&f("pattern.count"), *count, 0, MAX_JOBS),
                    at_ms: c.ms(&f("pattern.at_ms"), *at_ms),
                },
                PatternFile::Poisson { rate_per_s, count } => Pattern::Poisson {
                    rate_per_s: *rate_per_s,
                    count: c.int(&f("pattern.count"), *count, 0, MAX_JOBS),
                },
                PatternFile::Times { at_ms } => {
                    if at_ms.len() as u64 > MAX_JOBS {
                        c.0.push(ConfigError::int_range(
                            &f("pattern.at_ms"),
                            i64::try_from(at_ms.len()).unwrap_or(i64::MAX),
                            0,
                            MAX_JOBS as i64,
                        ));
                    }
                    Pattern::Times {
                        at_ms: at_ms
                            .iter()
                            .take(MAX_JOBS as usize)
                            .enumerate()
                            .map(|(j, &t)| c.ms(&f(&format!("pattern.at_ms[{j}]")), t))
                            .collect(),
                    }
                }
            };
            // The kinds defined are the range; with none, `validate` says that instead.
            let kind = match self.kinds.len() {
                0 => 0,
                n => c.int(&f("kind"), a.kind, 0, n as u64 - 1) as usize,
            };
            cfg.arrivals.push(Arrivals { kind, pattern });
        }
        let w = &self.workers;
        let count = c.int("workers.count", w.count, 0, MAX_WORKERS);
        let poll = c.ms("workers.poll_ms", w.poll_ms.unwrap_or(50));
        let restart = w
            .restart_after_ms
            .map(|r| c.ms("workers.restart_after_ms", r));
        if !(0.0..=1.0).contains(&w.crash_probability) {
            c.0.push(ConfigError::range(
                "workers.crash_probability",
                w.crash_probability,
                0.0,
                1.0,
            ));
        }
        cfg.workers = (0..count as usize)
            .map(|i| WorkerSpec {
                crash_probability: w.crash_probability.clamp(0.0, 1.0),
                restart_after: restart.map(SimDuration::from_ms),
                ..WorkerSpec::new(WorkerSpec::default_name(i), poll)
            })
            .collect();
        cfg.claim = match self.claim.unwrap_or(ClaimFile::Atomic) {
            ClaimFile::Atomic => ClaimStrategy::Atomic,
            ClaimFile::TwoStatement { gap_ms } => ClaimStrategy::TwoStatement {
                gap: SimDuration::from_ms(c.ms("claim.gap_ms", gap_ms.unwrap_or(1))),
            },
            ClaimFile::ForUpdate { lock_timeout_ms } => ClaimStrategy::ForUpdate {
                lock_timeout: lock_timeout_ms
                    .map(|t| SimDuration::from_ms(c.ms("claim.lock_timeout_ms", t))),
            },
            ClaimFile::Nowait => ClaimStrategy::Nowait,
            ClaimFile::SkipLocked => ClaimStrategy::SkipLocked,
        };
        if let Some(l) = self.lease_ms {
            cfg.lease = SimDuration::from_ms(c.int("lease_ms", l, 1, MAX_MS));
        }
        if let Some(r) = &self.retry {
            cfg.retry = c.backoff("retry", r);
        }
        cfg.classify_errors = self.classify_errors;
        if let Some(r) = &self.in_worker_retry {
            cfg.in_worker_retry = Some(InWorkerRetry {
                max_retries: c.int(
                    "in_worker_retry.max_retries",
                    r.max_retries,
                    0,
                    MAX_ATTEMPTS,
                ) as u32,
                backoff: c.backoff("in_worker_retry.backoff", &r.backoff),
            });
        }
        if let Some(d) = &self.downstream {
            cfg.downstream = Some(Downstream {
                capacity: c.int("downstream.capacity", d.capacity, 0, MAX_WORKERS) as u32,
                latency: c.dist("downstream.latency", &d.latency),
                refusal: SimDuration::from_ms(c.ms("downstream.refusal_ms", d.refusal_ms)),
                rate_limit: d.rate_limit.as_ref().map(|r| TokenBucket {
                    rate_per_s: r.rate_per_s,
                    burst: c.int("downstream.rate_limit.burst", r.burst, 1, MAX_BURST) as u32,
                }),
                outage: d.outage.as_ref().map(|o| {
                    (
                        SimTime::from_ms(c.ms("downstream.outage.from_ms", o.from_ms)),
                        SimTime::from_ms(c.ms("downstream.outage.until_ms", o.until_ms)),
                    )
                }),
            });
        }
        if let Some(i) = &self.intake {
            cfg.intake = match *i {
                IntakeFile::Queue {
                    publish_failure,
                    fallback_calls,
                } => Intake::Queue {
                    publish_failure,
                    fallback_calls: c.int("intake.fallback_calls", fallback_calls, 0, MAX_ATTEMPTS)
                        as u32,
                },
                IntakeFile::Direct { calls } => Intake::Direct {
                    calls: c.int("intake.calls", calls, 1, MAX_ATTEMPTS) as u32,
                },
            };
        }
        if let Some(l) = &self.limits {
            if let Some(e) = l.max_events {
                cfg.limits.max_events = c.int("limits.max_events", e, 1, MAX_EVENTS);
            }
            if let Some(t) = l.max_time_ms {
                cfg.limits.max_time = SimTime::from_ms(c.int("limits.max_time_ms", t, 1, MAX_MS));
            }
        }
        cfg.log = self.log;
        if let Some(b) = self.series_bucket_ms {
            cfg.series_bucket = SimDuration::from_ms(c.int("series_bucket_ms", b, 1, MAX_MS));
        }
        if let Some(n) = self.keep_rows {
            cfg.retention = Retention::FirstRows(c.int("keep_rows", n, 0, MAX_JOBS));
        }
        let mut errs = c.0;
        if errs.is_empty() {
            errs = cfg.validate();
        } else {
            // Cross-field checks still run so that every finding is reported at once, except
            // those about a field already refused (its stand-in value would mislead: a refused
            // worker count must not also read as "no workers", nor a refused cap_ms as a
            // cap below its base).
            let refused: Vec<String> = errs.iter().map(|e| e.field().to_owned()).collect();
            errs.extend(cfg.validate().into_iter().filter(|e| {
                let about = |f: &String| {
                    f.strip_prefix(e.field())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                };
                !matches!(e, ConfigError::OutOfRange { .. }) && !refused.iter().any(about)
            }));
        }
        if errs.is_empty() {
            Ok(cfg)
        } else {
            Err(errs)
        }
    }
}

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

#[macro_use]
mod decode;
mod convert;

use crate::domain::sim::core::backoff::{Growth, Jitter};
use crate::domain::sim::setup::config::{Ack, CrashPoint, ErrorClass, ExpiryRule, SimConfig};
use crate::domain::sim::setup::error::ConfigError;
use decode::{
    ack_by_name, claim_by_name_or_object, crash_point_by_name, expiry_by_name, growth_by_name,
    jitter_by_name, json_type, object, objects, opt_object, present, readable, tagged, FileObject,
    Obj, INSIDE,
};
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};

file_objects! {
    SimConfigFile => "a JSON object with the config's fields",
    KindFile => "a job kind object {\"name\": …, \"duration\": {…}, …}",
    EffectFile => "an object {\"amount\": …} with an optional \"idempotency_key\"",
    ArrivalsFile => "an object {\"kind\": …, \"pattern\": {…}}",
    WorkersFile => "an object {\"count\": …} with the workers' options",
    BackoffFile => concat!(
        "an object {\"base_ms\": …, \"cap_ms\": …} with optional \"growth\" and ",
        "\"jitter\""
    ),
    InWorkerRetryFile => "an object {\"max_retries\": …, \"backoff\": {…}}",
    DownstreamFile => "an object {\"latency\": {…}} with the downstream's options",
    RateLimitFile => "an object {\"rate_per_s\": …, \"burst\": …}",
    OutageFile => "an object {\"from_ms\": …, \"until_ms\": …}",
    LimitsFile => "an object with \"max_events\" and/or \"max_time_ms\"",
    DuplicatesFile => "an object {\"after_ms\": …}",
    PacingFile => "an object {\"rate_per_s\": …}",
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
    /// What a lease that expires on the last attempt does: `"reclaim"` (default: claimed
    /// again, as the source documents' claim has no attempts check) or `"dead-letter"`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "expiry_by_name"
    )]
    pub expired_on_last_attempt: Option<ExpiryRule>,
    /// `complete` / `release` only while the worker's claim holds the row (default false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub owner_check: bool,
    /// Heartbeat interval, ms: a running worker extends its lease this often (1 ..= the lease
    /// less 1 ms; default none).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub heartbeat_ms: Option<i64>,
    /// `"after"` (default: acknowledged after the handler, at-least-once) or `"before"`
    /// (at the claim, at-most-once).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "ack_by_name"
    )]
    pub ack: Option<Ack>,
    /// Where a crash strikes: `"after-effect"` (default) or `"before-effect"`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crash_point_by_name"
    )]
    pub crash_point: Option<CrashPoint>,
    /// Every submission enqueued a second time `after_ms` later (0 ..= MAX_MS), with the same
    /// request number (an idempotency key's `{n}`; `{id}` is the job id).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub duplicate_submissions: Option<DuplicatesFile>,
    /// Our own limiter: the workers' downstream calls paced to at most `rate_per_s` calls per
    /// second across all workers, evenly spaced, no burst (default none; files written before
    /// it existed load unchanged).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_object"
    )]
    pub pacing: Option<PacingFile>,
}

/// Our own limiter in the file ([`Pacing`](crate::domain::sim::setup::config::Pacing)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacingFile {
    /// Calls per second across all workers (more than 0, at most 1 000 000).
    pub rate_per_s: f64,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The same request submitted twice, in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicatesFile {
    /// Delay of the second submission, ms (0 ..= MAX_MS).
    pub after_ms: i64,
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
    /// 1 000 000 000 ([`MAX_EFFECT_AMOUNT`](crate::domain::sim::setup::limits::MAX_EFFECT_AMOUNT)).
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
const CLAIM_EXPECTED: &str = concat!(
    "a claim strategy: \"atomic\", \"two-statement\" (option gap_ms), \"for-update\" ",
    "(option lock_timeout_ms), \"nowait\" or \"skip-locked\", or an object such as ",
    "{\"type\": \"for-update\", \"lock_timeout_ms\": 500}"
);

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
            message: concat!(
                "the file is empty; expected a JSON object such as {\"seed\": 1, ",
                "\"kinds\": […], \"arrivals\": […], \"workers\": {…}}"
            )
            .into(),
        }]);
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let parse_error = |path: String, message: String| {
        let mut field = if path == "." || path == "?" {
            "config".to_owned()
        } else if path.is_empty() || path.ends_with('.') {
            // A field with an empty name (`{"": 1}`), named as the file writes it.
            format!("{path}\"\"")
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

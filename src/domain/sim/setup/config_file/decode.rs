//! The serde helpers of the config file's decoder: tagged objects read with their paths
//! ([`tagged_file_enum!`], [`tagged`]), structs read only from objects ([`object`]), names
//! read only as strings ([`by_name`]), the number ranges a wrong type is told
//! ([`number_range`]) and the decoder's messages in the file's terms ([`readable`]).

use super::{ClaimFile, SimConfigFile, CLAIM_EXPECTED};
use crate::domain::sim::core::backoff::{Growth, Jitter};
use crate::domain::sim::setup::config::{Ack, CrashPoint, ExpiryRule};
use crate::domain::sim::setup::error::Num;
use crate::domain::sim::setup::limits::{
    MAX_ATTEMPTS, MAX_BURST, MAX_EFFECT_AMOUNT, MAX_EVENTS, MAX_JOBS, MAX_MS, MAX_WORKERS,
    RATE_RANGE,
};
use serde::de::{DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
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
pub(super) const INSIDE: &str = "in `";

/// Reads a tagged object (`{"type": "poisson", "count": 100, …}`) as `M`, its externally
/// tagged copy (`{"poisson": {"count": 100, …}}`); only a JSON object is accepted.
///
/// # Errors
/// Not an object ("expected {what}"); a duplicate field; `missing field `type``; an unknown
/// `type` (listing the allowed ones); an unknown or missing field or a wrong value of the
/// variant, prefixed with [`INSIDE`] and the field's path below the object.
pub(super) fn tagged<'de, M: DeserializeOwned, D: Deserializer<'de>>(
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
pub(super) struct Obj<T>(pub(super) T);

/// What a struct of the file is, for "expected …".
pub(super) trait FileObject {
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
pub(super) fn object<'de, D: Deserializer<'de>, T: Deserialize<'de> + FileObject>(
    d: D,
) -> Result<T, D::Error> {
    Obj::deserialize(d).map(|Obj(t)| t)
}

/// `deserialize_with` for an optional struct field: an object (left out: `None`; `null` is
/// refused as the wrong type, as it means nothing a left-out field does not).
pub(super) fn opt_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FileObject,
{
    Obj::<T>::deserialize(d).map(|Obj(t)| Some(t))
}

/// `deserialize_with` for an optional field: its value (left out: `None`, the default);
/// `null` is refused as the wrong type, naming what the field takes.
pub(super) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A JSON value's type as the decoder names it in "invalid type: …".
pub(super) fn json_type(v: &serde_json::Value) -> String {
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
pub(super) fn by_name<'de, D: Deserializer<'de>, T: DeserializeOwned>(
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

pub(super) fn growth_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Growth>, D::Error> {
    by_name(d, "\"fixed\" or \"exponential\"")
}

pub(super) fn jitter_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Jitter>, D::Error> {
    by_name(d, "\"none\", \"full\", \"equal\" or \"decorrelated\"")
}

pub(super) fn expiry_by_name<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<ExpiryRule>, D::Error> {
    by_name(d, "\"reclaim\" or \"dead-letter\"")
}

pub(super) fn ack_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Ack>, D::Error> {
    by_name(d, "\"after\" or \"before\"")
}

pub(super) fn crash_point_by_name<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<CrashPoint>, D::Error> {
    by_name(d, "\"after-effect\" or \"before-effect\"")
}

/// `deserialize_with` for a list of structs: a list of objects.
pub(super) fn objects<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
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

/// The range of a number field, by its path with the list indexes left out
/// (`arrivals.pattern.count`): whether it is whole, and its smallest and largest value — as
/// the range checks ([`SimConfigFile::into_config`], [`SimConfig::validate`]) allow, so that a
/// value of the wrong type is told the same range as one out of range.
pub(super) fn number_range(field: &str) -> Option<(bool, f64, f64)> {
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
        "arrivals.pattern.rate_per_s"
        | "downstream.rate_limit.rate_per_s"
        | "pacing.rate_per_s" => rate,
        "workers.count" | "downstream.capacity" => (true, 0.0, MAX_WORKERS as f64),
        "downstream.rate_limit.burst" => (true, 1.0, MAX_BURST as f64),
        "lease_ms" | "limits.max_time_ms" | "series_bucket_ms" | "heartbeat_ms" => {
            (true, 1.0, MAX_MS as f64)
        }
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
        | "downstream.outage.until_ms"
        | "duplicate_submissions.after_ms" => ms,
        _ => return None,
    })
}

/// The claim strategy as a name (`"skip-locked"`) or as the tagged object.
pub(super) fn claim_by_name_or_object<'de, D>(de: D) -> Result<Option<ClaimFile>, D::Error>
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
pub(super) fn readable(field: &str, message: &str) -> String {
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
            concat!(
                "expected a whole number: the index of a kind in `kinds`, from 0 (the first) ",
                "to their count − 1"
            )
            .to_owned()
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
            concat!(
                "expected a whole number from −9,223,372,036,854,775,808 to ",
                "9,223,372,036,854,775,807 (and within the field's range)"
            ),
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

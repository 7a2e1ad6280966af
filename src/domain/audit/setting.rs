//! Turning a node of a configuration into a [`Setting`]: a literal number of the system's
//! unit becomes a stated fact in the sheet's unit; anything else (a reference, a variable, a
//! function) is "not resolved", with the expression as written.

use super::found::{Fact, Pos, Setting, Value};
use super::tree::Node;

/// A number as written (`30`, `"30"`, `0.5`), if it is one and is finite and not negative.
pub fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    let v: f64 = t.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// A whole count as written, if it is one.
pub fn count(text: &str) -> Option<u32> {
    text.trim().parse().ok()
}

/// Seconds as ms, rounded (the systems' seconds are whole or have at most 9 decimals).
pub fn ms_of_s(s: f64) -> u64 {
    let ms = (s * 1000.0).round();
    if ms >= u64::MAX as f64 {
        u64::MAX
    } else {
        ms as u64
    }
}

/// A stated setting.
pub fn stated(key: &str, at: Pos, fact: Fact) -> Setting {
    Setting {
        key: key.to_owned(),
        at,
        value: Value::Stated(fact),
    }
}

/// A setting the reader cannot evaluate.
pub fn unresolved(key: &str, at: Pos, fact: &'static str, expression: &str) -> Setting {
    let mut expression: String = expression.trim().to_owned();
    if expression.chars().count() > 120 {
        expression = expression.chars().take(119).collect::<String>() + "…";
    }
    Setting {
        key: key.to_owned(),
        at,
        value: Value::Unresolved { fact, expression },
    }
}

/// A setting in seconds (`fact` given ms) from `node`: stated when a literal number, else
/// not resolved as `name`.
pub fn seconds(key: &str, node: &Node, name: &'static str, fact: fn(u64) -> Fact) -> Setting {
    match node.text().and_then(number) {
        Some(s) => stated(key, node.at, fact(ms_of_s(s))),
        None => unresolved(key, node.at, name, &node.shown()),
    }
}

/// A whole-count setting from `node`: stated when a literal count, else not resolved.
pub fn whole(key: &str, node: &Node, name: &'static str, fact: fn(u32) -> Fact) -> Setting {
    match node.text().and_then(count) {
        Some(n) => stated(key, node.at, fact(n)),
        None => unresolved(key, node.at, name, &node.shown()),
    }
}

/// The dead-letter queue `settings` name (a resource's id as the reader writes it:
/// `aws_sqs_queue.dlq`, `Dlq`), if they state one.
pub fn dead_letter_of(settings: &[Setting]) -> Option<&str> {
    settings.iter().find_map(|s| match &s.value {
        Value::Stated(Fact::DeadLetter(d)) => Some(d.as_str()),
        _ => None,
    })
}

/// What a job's dead-letter queue `id` states that AWS limits — its visibility timeout and
/// retention — keyed `id.key` ([`super::found::Found::elsewhere`]).
pub fn dead_letter_limits(own: Vec<Setting>, id: &str) -> Vec<Setting> {
    own.into_iter()
        .filter(|s| {
            matches!(
                s.value,
                Value::Stated(Fact::LeaseMs(_) | Fact::RetentionMs(_))
            )
        })
        .map(|s| Setting {
            key: format!("{id}.{}", s.key),
            ..s
        })
        .collect()
}

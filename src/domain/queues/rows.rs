//! What the queue targets (`sqs`, `celery`, `sidekiq`, `bullmq`) share: the retry section a
//! target needs, the sheet's values as the mapping shows them (and the retry layers' texts),
//! and numbers written into code. Their header comment is `header::labelled`.

use super::{text, TargetError, TargetId};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::{describe_backoff, join_list};
use crate::domain::sheet::{JobSheet, Keep, RetrySpec};
use crate::text::t;

/// The sheet's retry section, when its outcome queues a job (`async-enqueue`,
/// `async-ticket`).
///
/// # Errors
/// [`TargetError::NotApplicable`] for batch and synchronous sheets (no retry section).
pub fn retry_of(sheet: &JobSheet, target: TargetId) -> Result<&RetrySpec, TargetError> {
    sheet.retry.as_ref().ok_or(TargetError::NotApplicable {
        target,
        outcome: sheet.decision.outcome.id(),
    })
}

/// A number of seconds as code writes it: `30`, `0.5`, `1.25` (at most 3 decimals, no
/// trailing zeros).
pub fn num(s: f64) -> String {
    let t = format!("{s:.3}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t.is_empty() || t == "-0" {
        "0".to_owned()
    } else {
        t.to_owned()
    }
}

/// Milliseconds as seconds in code: `num(ms / 1000)`.
pub fn secs(ms: u64) -> String {
    num(ms as f64 / 1000.0)
}

/// Whole seconds, rounded up (a queue that counts seconds must not cut an attempt short).
pub fn ceil_s(ms: u64) -> u64 {
    ms.div_ceil(1000)
}

/// A kept-for value as the mapping shows it: `30 days` / `30日`, `until handled`.
pub fn keep_text(k: Keep, lang: Lang) -> String {
    match k {
        Keep::Days(d) => exact(u64::from(d) * 86_400_000, lang),
        Keep::UntilHandled => t!("target.rows.until-handled", locale = lang.code()).into_owned(),
    }
}

/// A list of texts (errors), `—` when empty.
pub fn list_text(items: &[String], lang: Lang) -> String {
    let s = join_list(items, lang);
    if s.is_empty() {
        "—".to_owned()
    } else {
        s
    }
}

/// Text safe in a one-line comment of every target, and in a YAML stream (the characters
/// YAML forbids anywhere, U+FEFF and U+FFFE / U+FFFF, dropped too), trimmed.
pub fn comment(s: &str) -> String {
    let s: String = text::comment(s)
        .chars()
        .filter(|c| !matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}'))
        .collect();
    s.trim().to_owned()
}

/// The mapping's sheet-side values, in `lang`.
pub struct SheetText {
    /// Max attempts, e.g. `5`.
    pub attempts: String,
    /// The wait strategy in words.
    pub wait: String,
    /// The attempt timeout, e.g. `30 s`.
    pub timeout: String,
    /// The lease, e.g. `60 s`.
    pub lease: String,
    /// The retryable errors.
    pub retryable: String,
    /// The non-retryable errors.
    pub non_retryable: String,
}

impl SheetText {
    /// The texts of `r`.
    pub fn of(r: &RetrySpec, lang: Lang) -> SheetText {
        SheetText {
            attempts: r.max_attempts.to_string(),
            wait: describe_backoff(&r.backoff, lang),
            timeout: exact(r.attempt_timeout_ms, lang),
            lease: exact(r.lease_ms, lang),
            retryable: list_text(&r.retryable_errors, lang),
            non_retryable: list_text(&r.non_retryable_errors, lang),
        }
    }
}

/// The sheet side of the retry-layers row (`mapping::layers_row`): each other layer
/// with its attempts, `HTTP client × 3, gateway × 2`.
pub fn layers_text(r: &RetrySpec) -> String {
    r.layers
        .iter()
        .map(|l| format!("{} × {}", comment(&l.what), l.attempts))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The retry-layers row's note in `lang`, given the `total` calls the layers multiply into.
pub fn layers_note(lang: Lang) -> impl FnOnce(u64) -> String {
    move |total| {
        t!(
            "target.rows.layers-note",
            locale = lang.code(),
            total = total
        )
        .into_owned()
    }
}

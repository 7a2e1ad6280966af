//! What the queue targets (`sqs`, `celery`, `sidekiq`, `bullmq`) share: the retry section a
//! target needs, the header comment every export starts with, the sheet's values as the
//! mapping shows them, and numbers written into code.

use super::{text, Gap, Instead, MappingRow, TargetError, TargetId};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::{describe_backoff, join_list};
use crate::domain::sheet::{FieldId, JobSheet, Keep, RetrySpec};
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

/// A mapping row.
pub fn row(field: FieldId, sheet: String, key: &str, value: String, note: String) -> MappingRow {
    MappingRow {
        field,
        sheet,
        key: key.to_owned(),
        value,
        note,
    }
}

/// A gap.
pub fn gap(field: FieldId, what: String, instead: Instead, detail: String) -> Gap {
    Gap {
        field,
        what,
        instead,
        detail,
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

/// The header comment every export starts with: what it was generated from, in `lang`, each
/// line starting with `prefix` (`#` or `//`). No date, so the same sheet gives the same text.
pub fn header(sheet: &JobSheet, target: TargetId, prefix: &str, lang: Lang) -> String {
    let l = lang.code();
    let p = &sheet.process;
    // Two fixed lines first: Python reads an encoding declaration from line 1 or 2 and Ruby
    // from line 1, so user text there could change how the file is read.
    let mut lines = vec![
        t!("target.rows.generated", locale = l, target = target.label()).into_owned(),
        t!(
            "target.rows.generated-report",
            locale = l,
            target = target.label()
        )
        .into_owned(),
        format!("{} ({})", comment(&p.process_name), comment(&p.code_name)),
        format!(
            "{}: {}",
            t!("target.rows.trigger", locale = l),
            comment(&p.trigger)
        ),
    ];
    if let Some(r) = &sheet.retry {
        lines.push(format!(
            "{}: {} · {}: {} · {}: {} · {}: {}",
            t!("target.rows.attempts", locale = l),
            r.max_attempts,
            t!("target.rows.wait", locale = l),
            describe_backoff(&r.backoff, lang),
            t!("target.rows.timeout", locale = l),
            exact(r.attempt_timeout_ms, lang),
            t!("target.rows.lease", locale = l),
            exact(r.lease_ms, lang),
        ));
        lines.push(format!(
            "{}: {}",
            t!("target.rows.key", locale = l),
            comment(&r.idempotency_key)
        ));
        lines.push(format!(
            "{}: {}",
            t!("target.rows.retryable", locale = l),
            comment(&list_text(&r.retryable_errors, lang))
        ));
        lines.push(format!(
            "{}: {}",
            t!("target.rows.non-retryable", locale = l),
            comment(&list_text(&r.non_retryable_errors, lang))
        ));
    }
    if let Some(f) = &sheet.failure {
        lines.push(format!(
            "{}: {} · {}: {}",
            t!("target.rows.dead-letter", locale = l),
            comment(&f.dead_letter),
            t!("target.rows.notify", locale = l),
            comment(&f.notify)
        ));
    }
    // The load section's numbers, only when the sheet gives some (else the header is as
    // before the section existed).
    lines.extend(super::knobs::comment_line(sheet, lang).map(|l| comment(&l)));
    let mut out = String::new();
    for line in lines {
        out.push_str(prefix);
        out.push(' ');
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
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

/// The retry-layers row every queue target adds when the sheet names other layers: the
/// total calls (`max attempts × Π layer attempts`) the target's attempts multiply into.
pub fn layers_row(r: &RetrySpec, key: &str, lang: Lang) -> Option<MappingRow> {
    if r.layers.is_empty() {
        return None;
    }
    let sheet = r
        .layers
        .iter()
        .map(|l| format!("{} × {}", comment(&l.what), l.attempts))
        .collect::<Vec<_>>()
        .join(", ");
    Some(row(
        FieldId::RetryLayers,
        sheet,
        key,
        String::new(),
        t!(
            "target.rows.layers-note",
            locale = lang.code(),
            total = r.total_calls()
        )
        .into_owned(),
    ))
}

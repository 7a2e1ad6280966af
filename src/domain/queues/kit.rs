//! Pieces the Oban, River, pg-boss, Active Job and Temporal exports share: the applicability
//! check, the sheet's values as mapping text (their header comment is
//! [`super::header::sentences`]), the idempotency
//! key split into argument and literal parts, identifiers made unique and kept off each
//! language's reserved words, and one sampled run of the sheet's own wait formula (for the
//! targets whose export writes that formula into a callback). Texts: `locales/worker/target-kit.yml`.

use super::{TargetError, TargetId};
use crate::domain::duration::exact;
use crate::domain::flowchart::Outcome;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sheet::fields::join_list;
use crate::domain::sheet::retry_window::ceiling_ms;
use crate::domain::sheet::{BackoffPolicy, FieldId, Jitter, JobSheet, Keep, RetrySpec};
use crate::text::t;

/// The sheet's retry section when `target` (a job queue) configures something for this
/// sheet: an asynchronous outcome with a retry section.
///
/// # Errors
/// [`TargetError::NotApplicable`] naming the outcome otherwise (sync, sync-timeout, batch).
pub(crate) fn retry_of(sheet: &JobSheet, target: TargetId) -> Result<&RetrySpec, TargetError> {
    let outcome = sheet.decision.outcome;
    match (&sheet.retry, outcome) {
        (Some(r), Outcome::AsyncEnqueue | Outcome::AsyncTicket) => Ok(r),
        _ => Err(TargetError::NotApplicable {
            target,
            outcome: outcome.id(),
        }),
    }
}

/// [`TargetError::OutOfRange`] for `max_attempts` 0 (no sheet the checks accept has it, but
/// every target needs at least the first run).
pub(crate) fn check_attempts(r: &RetrySpec, target: TargetId) -> Result<(), TargetError> {
    if r.max_attempts == 0 {
        return Err(TargetError::OutOfRange {
            target,
            field: FieldId::MaxAttempts,
            value: "0".to_owned(),
            allowed: "1 ..".to_owned(),
        });
    }
    Ok(())
}

/// A list of the sheet as text (`a, b` / `a、b`); "none" / "なし" when empty.
pub(crate) fn list_text(items: &[String], lang: Lang) -> String {
    let s = join_list(items, lang);
    if s.is_empty() {
        t!("target.kit.none", locale = lang.code()).into_owned()
    } else {
        s
    }
}

/// How long finished jobs of one status are kept, as text.
pub(crate) fn keep_text(k: Keep, lang: Lang) -> String {
    match (k, lang) {
        (Keep::Days(d), Lang::En) => format!("{} days", group_thousands(u64::from(d))),
        (Keep::Days(d), Lang::Ja) => format!("{}日", group_thousands(u64::from(d))),
        (Keep::UntilHandled, Lang::En) => "until handled".into(),
        (Keep::UntilHandled, Lang::Ja) => "対応が終わるまで".into(),
    }
}

/// The sheet's retention as text: "done 30 days, dead until handled".
pub(crate) fn retention_text(sheet: &JobSheet, lang: Lang) -> String {
    match &sheet.failure {
        Some(f) => t!(
            "target.kit.retention",
            locale = lang.code(),
            done = keep_text(f.retention.done, lang),
            dead = keep_text(f.retention.dead, lang)
        )
        .into_owned(),
        None => t!("target.kit.none", locale = lang.code()).into_owned(),
    }
}

/// The queue's retention as text ("not stated" when `None`).
pub(crate) fn queue_retention_text(r: &RetrySpec, lang: Lang) -> String {
    match r.queue_retention_ms {
        Some(ms) => exact(ms, lang),
        None => t!("target.kit.not-stated", locale = lang.code()).into_owned(),
    }
}

/// Seconds as a number literal any of the targets' languages reads: `10`, `1.5`, `0.001`.
pub(crate) fn secs_literal(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

/// An integer literal with `_` between groups of three digits (`2_592_000`), as Elixir, Ruby,
/// Go and JavaScript all read it.
pub(crate) fn int_literal(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// Names made unique in order: a repeat gets `2`, `3` … appended (`sep` between).
pub(crate) fn unique_names(names: Vec<String>, sep: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for base in names {
        let mut name = base.clone();
        let mut i = 2;
        while out.contains(&name) {
            name = format!("{base}{sep}{i}");
            i += 1;
        }
        out.push(name);
    }
    out
}

/// A Go `time.Duration` expression for `ms`: `30 * time.Second`, `1500 * time.Millisecond`.
pub(crate) fn go_duration(ms: u64) -> String {
    if ms.is_multiple_of(3_600_000) {
        format!("{} * time.Hour", ms / 3_600_000)
    } else if ms.is_multiple_of(60_000) {
        format!("{} * time.Minute", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{} * time.Second", ms / 1000)
    } else {
        format!("{ms} * time.Millisecond")
    }
}

/// Lines `key: value,` aligned as gofmt aligns a composite literal's keyed elements.
pub(crate) fn go_fields(indent: &str, pairs: &[(&str, String)]) -> String {
    let width = pairs.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    pairs
        .iter()
        .map(|(k, v)| format!("{indent}{:<w$} {v},\n", format!("{k}:"), w = width + 1))
        .collect()
}

/// A float as a literal with a decimal point (`2.0`, `1.4142135623730951`).
pub(crate) fn float_literal(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

/// Whole seconds, rounded up, at least `min`: for targets whose knobs take integer seconds.
pub(crate) fn ceil_s(ms: u64, min: u64) -> u64 {
    ms.div_ceil(1000).max(min)
}

/// One part of the idempotency key: a job argument (named in `process.arguments`) or literal
/// text (e.g. the purpose `confirm-mail`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyPart {
    /// The argument at this index of [`arg_idents`].
    Arg(usize),
    /// Literal text.
    Literal(String),
}

/// The idempotency key's parts (split at `+` or the full-width `＋`, trimmed, empty parts dropped), each an argument
/// when it names one of the process's arguments (case and spaces ignored).
pub(crate) fn key_parts(sheet: &JobSheet, r: &RetrySpec) -> Vec<KeyPart> {
    let norm = |s: &str| s.trim().to_lowercase();
    r.idempotency_key
        .split(['+', '＋'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            match sheet
                .process
                .arguments
                .iter()
                .position(|a| norm(a) == norm(p))
            {
                Some(i) => KeyPart::Arg(i),
                None => KeyPart::Literal(p.to_owned()),
            }
        })
        .collect()
}

/// One identifier per process argument in `snake_case` (`reservation_id`), unique (a repeat
/// gets `_2`, `_3` …) and never one of `reserved` (which gets a `_` appended). `job` parts
/// for arguments that leave nothing. An empty argument list gives one `id`.
pub(crate) fn arg_idents(sheet: &JobSheet, reserved: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let args: Vec<&str> = if sheet.process.arguments.is_empty() {
        vec!["id"]
    } else {
        sheet.process.arguments.iter().map(String::as_str).collect()
    };
    for a in args {
        let mut base = super::text::word_ident(a);
        if reserved.contains(&base.as_str()) {
            base.push('_');
        }
        let mut name = base.clone();
        let mut i = 2;
        while out.contains(&name) || reserved.contains(&name.as_str()) {
            name = format!("{base}_{i}");
            i += 1;
        }
        out.push(name);
    }
    out
}

/// The errors that can be written as classes (`text::is_class_path`) and the rest.
pub(crate) fn split_classes(
    errors: &[String],
    is_class: fn(&str) -> bool,
) -> (Vec<String>, Vec<String>) {
    let mut classes = Vec::new();
    let mut texts = Vec::new();
    for e in errors.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
        if is_class(e) {
            classes.push(e.to_owned());
        } else {
            texts.push(e.to_owned());
        }
    }
    (classes, texts)
}

/// The comment lines for the sheet's errors that are descriptions, not names the code can
/// compare (`texts`, from [`split_classes`]): one line telling the reader to add the names
/// that mean them (`example`: such a name in the target's language) to the list that
/// follows, then `- text` for each; every line starts with `lead` (e.g. `  # `). Empty when
/// there are none.
pub(crate) fn described_lines(texts: &[String], lead: &str, example: &str, lang: Lang) -> String {
    if texts.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "{lead}{}\n",
        t!(
            "target.kit.code.described",
            locale = lang.code(),
            example = example
        )
    );
    for e in texts {
        out.push_str(&format!("{lead}  - {}\n", super::text::comment(e)));
    }
    out
}

/// The sheet side of the retry-layers row ([`super::mapping::layers_row`]): this target's
/// attempts times each other layer's, `5 × 3 × 2`.
pub(crate) fn layers_text(r: &RetrySpec) -> String {
    let each = r
        .layers
        .iter()
        .map(|l| l.attempts.to_string())
        .collect::<Vec<_>>()
        .join(" × ");
    format!("{} × {each}", r.max_attempts)
}

/// The retry-layers row's note in `lang`, given the `total` calls the layers multiply into.
pub(crate) fn layers_note(lang: Lang) -> impl FnOnce(u64) -> String {
    move |total| t!("target.kit.layers", locale = lang.code(), total = total).into_owned()
}

/// One sampled run of the sheet's own wait formula (docs/DOMAIN.md §5), in **ms**, one per
/// retry, drawing from `u` once per wait: the ceiling `t = ceiling(n)`; none `t`, full
/// `U·t`, equal `t/2 + U·t/2`, decorrelated `min(cap, base + U·(3·prev − base))` with
/// `prev` starting at `base`. The exports of Oban, River and Active Job write this formula
/// into their callbacks.
pub(crate) fn sheet_run_ms(
    b: &BackoffPolicy,
    retries: u32,
    u: &mut dyn FnMut() -> f64,
) -> Vec<f64> {
    let base = b.base_ms as f64;
    let cap = b.cap_ms.max(b.base_ms) as f64;
    let mut prev = base;
    (0..retries)
        .map(|n| {
            let t = ceiling_ms(b, n) as f64;
            match b.jitter {
                Jitter::None => t,
                Jitter::Full => u() * t,
                Jitter::Equal => t / 2.0 + u() * t / 2.0,
                Jitter::Decorrelated => {
                    let hi = (3.0 * prev).max(base);
                    prev = (base + u() * (hi - base)).min(cap);
                    prev
                }
            }
        })
        .collect()
}

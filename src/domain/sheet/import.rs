//! Reading a sheet back from JSON: the versioned [`JobSheet`] format, or a short input file
//! with only the process facts and the decision (missing sections are pre-filled for the
//! outcome). Every problem is an [`ImportError`] naming the field (a JSON path such as
//! `retry.backoff.cap_ms`) and what is allowed; nothing is changed on error.

use crate::domain::flowchart::{evaluate, Outcome, Status};
use crate::domain::lang::Lang;
use crate::domain::sheet::prefill::prefill;
use crate::domain::sheet::{
    BackoffKind, BatchSpec, Decision, DecisionAnswer, ExternalCall, FailureSpec, JobSheet, Keep,
    KeyVia, ProcessFacts, RetrySpec, SyncSpec, TicketSpec, KEY_NAME_CHARS, OLDEST_SCHEMA_VERSION,
    SCHEMA_VERSION,
};
use serde::Deserialize;

pub use crate::domain::sheet::import_error::{versions, ImportError};

/// Allowed ranges, shared by import and the form. Durations in milliseconds. The retry
/// policy's ranges are the simulator's policy ranges
/// ([`sim::setup::limits`](crate::domain::sim::setup::limits)), which "Your settings" offers
/// too; the rest are the sheet's own.
pub mod limits {
    use crate::domain::sim::setup::limits as sim;
    /// `retry.max_attempts`: 1 to 100 ([`sim::POLICY_ATTEMPTS`]; a config file takes up to
    /// [`sim::MAX_ATTEMPTS`], for studies of extreme retries).
    pub const MAX_ATTEMPTS: (u64, u64) = sim::POLICY_ATTEMPTS;
    /// `retry.backoff.base_ms`: up to 1 day (from 1 ms; a polynomial backoff's constant may
    /// be 0, [`POLY_BASE_MS`]).
    pub const BASE_MS: (u64, u64) = sim::POLICY_BASE_MS;
    /// `retry.backoff.base_ms` of a polynomial backoff (the constant added to every wait):
    /// 0 to 1 day (River's `n⁴` adds nothing).
    pub const POLY_BASE_MS: (u64, u64) = (0, sim::POLICY_BASE_MS.1);
    /// `retry.backoff.cap_ms`: up to 30 days ([`MAX_CAP_MS`](crate::domain::sheet::MAX_CAP_MS);
    /// and at least `base_ms`, and 1 ms).
    pub const CAP_MS: (u64, u64) = (1, crate::domain::sheet::MAX_CAP_MS);
    /// `retry.backoff.kind.polynomial.exponent`: the power, 1 to 8.
    pub const POLY_EXPONENT: (u64, u64) = (1, 8);
    /// `retry.backoff.kind.polynomial.first_n`: the index at the first retry, 0 or 1.
    pub const POLY_FIRST_N: (u64, u64) = (0, 1);
    /// `retry.layers`: at most 5 other layers that retry.
    pub const LAYERS: usize = 5;
    /// `retry.layers[i].attempts`: 1 to 100 tries per try of the layer around it.
    pub const LAYER_ATTEMPTS: (u64, u64) = (1, 100);
    /// `retry.queue_retention_ms`: 1 minute to 30 days (SQS takes 60 s to 14 days).
    pub const QUEUE_RETENTION_MS: (u64, u64) = (60_000, crate::domain::sheet::MAX_CAP_MS);
    /// `retry.attempt_timeout_ms` and `retry.lease_ms`: up to 1 day.
    pub const TIMEOUT_MS: (u64, u64) = sim::POLICY_LEASE_MS;
    /// `process.acceptable_wait_ms`: up to 30 days (the simulator's longest time,
    /// [`sim::MAX_MS`]).
    pub const ACCEPTABLE_WAIT_MS: (u64, u64) = (1, sim::MAX_MS);
    /// `failure.notice_within_h`: up to a year.
    pub const NOTICE_H: (u64, u64) = (1, 8_760);
    /// `failure.retention.*.days`: up to 10 years.
    pub const RETENTION_DAYS: (u64, u64) = (1, 3_650);
    /// `ticket.poll_interval_ms`.
    pub const POLL_MS: (u64, u64) = (100, 86_400_000);
    /// `batch.run_timeout_ms`: up to 7 days.
    pub const RUN_TIMEOUT_MS: (u64, u64) = (1, 604_800_000);
    /// `sync.call_timeout_ms`: up to 10 minutes.
    pub const CALL_TIMEOUT_MS: (u64, u64) = sim::CALL_MS;
    /// Any text field, in characters.
    pub const TEXT_CHARS: usize = 10_000;
    /// Any list, in items.
    pub const LIST_ITEMS: usize = 100;
}

/// The file as read: like [`JobSheet`], but the outcome and the sections may be left out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SheetFile {
    schema_version: u32,
    #[serde(default)]
    lang: Option<Lang>,
    process: ProcessFacts,
    decision: DecisionFile,
    #[serde(default)]
    retry: Option<RetrySpec>,
    #[serde(default)]
    failure: Option<FailureSpec>,
    #[serde(default)]
    ticket: Option<TicketSpec>,
    #[serde(default)]
    batch: Option<BatchSpec>,
    #[serde(default)]
    sync: Option<SyncSpec>,
    #[serde(default)]
    load: Option<crate::domain::sheet::load::LoadSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DecisionFile {
    answers: Vec<DecisionAnswer>,
    #[serde(default)]
    outcome: Option<Outcome>,
}

fn range(path: &str, v: u64, (min, max): (u64, u64)) -> Result<(), ImportError> {
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(ImportError::OutOfRange {
            path: path.to_owned(),
            value: v.to_string(),
            allowed: format!("{min} to {max}"),
        })
    }
}

/// Checks a number for the form or an import: `Ok` inside `limits`, else the error naming
/// `path` and the range.
pub fn check_range(path: &str, v: u64, limits: (u64, u64)) -> Result<(), ImportError> {
    range(path, v, limits)
}

fn text(path: &str, s: &str) -> Result<(), ImportError> {
    let n = s.chars().count();
    if n > limits::TEXT_CHARS {
        return Err(ImportError::OutOfRange {
            path: path.to_owned(),
            value: format!("{n} characters"),
            allowed: format!("at most {} characters", limits::TEXT_CHARS),
        });
    }
    Ok(())
}

fn texts(path: &str, items: &[String]) -> Result<(), ImportError> {
    if items.len() > limits::LIST_ITEMS {
        return Err(ImportError::OutOfRange {
            path: path.to_owned(),
            value: format!("{} items", items.len()),
            allowed: format!("at most {} items", limits::LIST_ITEMS),
        });
    }
    for (i, s) in items.iter().enumerate() {
        text(&format!("{path}[{i}]"), s)?;
    }
    Ok(())
}

/// Checks every range and size in `sheet` (the checks the form applies field by field).
///
/// # Errors
/// The first field out of range, named by its JSON path.
pub fn check_sheet(sheet: &JobSheet) -> Result<(), ImportError> {
    let p = &sheet.process;
    text("process.process_name", &p.process_name)?;
    text("process.code_name", &p.code_name)?;
    text("process.trigger", &p.trigger)?;
    texts("process.arguments", &p.arguments)?;
    text("process.business_key", &p.business_key)?;
    text("process.key_purpose", &p.key_purpose)?;
    texts("process.permanent_errors", &p.permanent_errors)?;
    if let Some(w) = p.acceptable_wait_ms {
        range("process.acceptable_wait_ms", w, limits::ACCEPTABLE_WAIT_MS)?;
    }
    if let Some(r) = &sheet.retry {
        check_retry(r)?;
    }
    if let Some(f) = &sheet.failure {
        text("failure.dead_letter", &f.dead_letter)?;
        text("failure.notify", &f.notify)?;
        range(
            "failure.notice_within_h",
            u64::from(f.notice_within_h),
            limits::NOTICE_H,
        )?;
        text("failure.rerun", &f.rerun)?;
        for (name, k) in [("done", f.retention.done), ("dead", f.retention.dead)] {
            if let Keep::Days(d) = k {
                range(
                    &format!("failure.retention.{name}.days"),
                    u64::from(d),
                    limits::RETENTION_DAYS,
                )?;
            }
        }
    }
    if let Some(t) = &sheet.ticket {
        texts("ticket.states", &t.states)?;
        if t.states.is_empty() {
            return Err(ImportError::OutOfRange {
                path: "ticket.states".into(),
                value: "0 items".into(),
                allowed: format!("1 to {} items", limits::LIST_ITEMS),
            });
        }
        text("ticket.completion", &t.completion)?;
        range(
            "ticket.poll_interval_ms",
            t.poll_interval_ms,
            limits::POLL_MS,
        )?;
    }
    if let Some(b) = &sheet.batch {
        text("batch.schedule", &b.schedule)?;
        text("batch.time_zone", &b.time_zone)?;
        range(
            "batch.run_timeout_ms",
            b.run_timeout_ms,
            limits::RUN_TIMEOUT_MS,
        )?;
        text("batch.partial_failure", &b.partial_failure)?;
    }
    if let Some(s) = &sheet.sync {
        range(
            "sync.call_timeout_ms",
            s.call_timeout_ms,
            limits::CALL_TIMEOUT_MS,
        )?;
        text("sync.on_timeout", &s.on_timeout)?;
        if let Some(c) = &s.call {
            check_call(c)?;
        }
    }
    if let Some(l) = &sheet.load {
        crate::domain::sheet::load::check_load(l)?;
    }
    Ok(())
}

/// Checks an external call: the key's length, and the name of the header or body field the
/// provider takes it in (1 to [`KEY_NAME_CHARS`] characters; a header name of HTTP token
/// characters, RFC 9110 §5.1 and §5.6.2; a field name without spaces or control characters).
///
/// # Errors
/// [`ImportError::OutOfRange`] naming `sync.call.idempotency_key` or `sync.call.key_name`, the
/// value (its length, or the first character not allowed, as
/// `U+000A`) and what is allowed.
pub fn check_call(c: &ExternalCall) -> Result<(), ImportError> {
    text("sync.call.idempotency_key", &c.idempotency_key)?;
    match c.key_via {
        KeyVia::Header => key_name(
            &c.key_name,
            |c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c),
            "letters A-Z a-z, digits and !#$%&'*+-.^_`|~ (an HTTP header name, RFC 9110 §5.1)",
        ),
        KeyVia::Field => key_name(
            &c.key_name,
            |c| !c.is_whitespace() && !c.is_control() && !crate::domain::bidi::is_control(c),
            "no spaces or control characters",
        ),
        KeyVia::NotSupported => Ok(()),
    }
}

/// A header or field name (`sync.call.key_name`): 1 to [`KEY_NAME_CHARS`] characters, each
/// one `ok` allows.
fn key_name(name: &str, ok: fn(char) -> bool, rule: &str) -> Result<(), ImportError> {
    let n = name.chars().count();
    let value = match name.chars().find(|c| !ok(*c)) {
        _ if n == 0 || n > KEY_NAME_CHARS => format!("{n} characters"),
        Some(c) => format!("character U+{:04X}", u32::from(c)),
        None => return Ok(()),
    };
    Err(ImportError::OutOfRange {
        path: "sync.call.key_name".to_owned(),
        value,
        allowed: format!("1 to {KEY_NAME_CHARS} characters; {rule}"),
    })
}

/// The retry section's ranges: attempts, the backoff (its kind's own numbers), timeouts,
/// texts, the layers and the queue's retention.
fn check_retry(r: &RetrySpec) -> Result<(), ImportError> {
    range(
        "retry.max_attempts",
        u64::from(r.max_attempts),
        limits::MAX_ATTEMPTS,
    )?;
    let base = match r.backoff.kind {
        BackoffKind::Polynomial(p) => {
            let at = "retry.backoff.kind.polynomial";
            range(
                &format!("{at}.exponent"),
                u64::from(p.exponent),
                limits::POLY_EXPONENT,
            )?;
            range(
                &format!("{at}.first_n"),
                u64::from(p.first_n),
                limits::POLY_FIRST_N,
            )?;
            limits::POLY_BASE_MS
        }
        BackoffKind::Fixed | BackoffKind::Exponential => limits::BASE_MS,
    };
    range("retry.backoff.base_ms", r.backoff.base_ms, base)?;
    range(
        "retry.backoff.cap_ms",
        r.backoff.cap_ms,
        (r.backoff.base_ms.max(limits::CAP_MS.0), limits::CAP_MS.1),
    )?;
    range(
        "retry.attempt_timeout_ms",
        r.attempt_timeout_ms,
        limits::TIMEOUT_MS,
    )?;
    range("retry.lease_ms", r.lease_ms, limits::TIMEOUT_MS)?;
    text("retry.idempotency_key", &r.idempotency_key)?;
    texts("retry.retryable_errors", &r.retryable_errors)?;
    texts("retry.non_retryable_errors", &r.non_retryable_errors)?;
    if r.layers.len() > limits::LAYERS {
        return Err(ImportError::OutOfRange {
            path: "retry.layers".into(),
            value: format!("{} items", r.layers.len()),
            allowed: format!("at most {} items", limits::LAYERS),
        });
    }
    for (i, l) in r.layers.iter().enumerate() {
        range(
            &format!("retry.layers[{i}].attempts"),
            u64::from(l.attempts),
            limits::LAYER_ATTEMPTS,
        )?;
        text(&format!("retry.layers[{i}].what"), &l.what)?;
    }
    if let Some(ms) = r.queue_retention_ms {
        range("retry.queue_retention_ms", ms, limits::QUEUE_RETENTION_MS)?;
    }
    Ok(())
}

/// What a version-1 sheet may not hold: schema 2's additions (polynomial backoff, layers,
/// the queue's retention).
///
/// # Errors
/// [`ImportError::Inconsistent`] naming the first such field (`retry.backoff.kind`,
/// `retry.layers`, `retry.queue_retention_ms`) and the version it needs.
pub(crate) fn check_v1(retry: Option<&RetrySpec>) -> Result<(), ImportError> {
    let Some(r) = retry else { return Ok(()) };
    let path = if matches!(r.backoff.kind, BackoffKind::Polynomial(_)) {
        "retry.backoff.kind"
    } else if !r.layers.is_empty() {
        "retry.layers"
    } else if r.queue_retention_ms.is_some() {
        "retry.queue_retention_ms"
    } else {
        return Ok(());
    };
    Err(ImportError::Inconsistent {
        path: path.into(),
        problem: format!("needs schema_version {SCHEMA_VERSION}; the file says 1"),
    })
}

fn decision(file: DecisionFile) -> Result<Decision, ImportError> {
    let mut seen = Vec::new();
    for (i, a) in file.answers.iter().enumerate() {
        if seen.contains(&a.question) {
            return Err(ImportError::Inconsistent {
                path: format!("decision.answers[{i}]"),
                problem: format!(
                    "{} is answered twice; allowed: one answer per question",
                    a.question.id()
                ),
            });
        }
        seen.push(a.question);
        if let Some(t) = a.timing {
            if a.question != crate::domain::QuestionId::WithinSeconds {
                return Err(ImportError::Inconsistent {
                    path: format!("decision.answers[{i}].timing"),
                    problem: "timing is allowed on within-seconds only".into(),
                });
            }
            crate::domain::Timing::new(t.target_ms, t.p95_ms).map_err(|e| ImportError::Field {
                path: format!("decision.answers[{i}].timing"),
                problem: e.to_string(),
            })?;
            if t.within() != a.answer {
                return Err(ImportError::Inconsistent {
                    path: format!("decision.answers[{i}].answer"),
                    problem: format!("{} but the answer is {}", t.comparison(Lang::En), a.answer),
                });
            }
        }
    }
    let outcome = decided_outcome("decision", &file.answers)?;
    if let Some(given) = file.outcome {
        if given != outcome {
            return Err(ImportError::Inconsistent {
                path: "decision.outcome".into(),
                problem: format!(
                    "{} does not follow from the answers; they give {}",
                    given.id(),
                    outcome.id()
                ),
            });
        }
    }
    // Keep the answers in the order asked.
    let asked = Decision {
        answers: file.answers.clone(),
        outcome,
    }
    .to_answers();
    let ordered = Decision::from_answers(&asked)
        .map(|d| d.answers)
        .unwrap_or(file.answers);
    Ok(Decision {
        answers: ordered,
        outcome,
    })
}

/// A decoder error as an [`ImportError::Field`]. serde reports a missing field at its parent
/// (path `process`, or `.` at the top, with the message ``missing field `trigger` ``); name the
/// field itself instead (`process.trigger: missing; this field is required`).
///
/// A field with an empty name (`{"": 1}`, unknown to every format) is named as the file writes
/// it, `""` (`process.""`), so the error still names a field.
pub(crate) fn field_error(path: String, problem: String) -> ImportError {
    let path = if path.is_empty() || path.ends_with('.') {
        format!("{path}\"\"")
    } else {
        path
    };
    let missing = problem
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'));
    match missing {
        Some(name) => ImportError::Field {
            path: if path == "." {
                name.to_owned()
            } else {
                format!("{path}.{name}")
            },
            problem: "missing; this field is required".into(),
        },
        None => {
            let problem = match field_limits(&path) {
                // A number field: the field's own range, as a value of the right type outside
                // it would be told (not the range of the type the file is read into).
                Some((min, max))
                    if problem.contains("expected u") || problem.contains("expected f") =>
                {
                    let head = problem.split(", expected ").next().unwrap_or(&problem);
                    // (Written as the range check writes it: "1 to 100".)
                    format!("{head}, expected a whole number from {min} to {max}")
                }
                _ => number_words(&problem),
            };
            ImportError::Field { path, problem }
        }
    }
}

/// The allowed range of a number field of the file, by its JSON path ([`limits`]).
fn field_limits(path: &str) -> Option<(u64, u64)> {
    Some(match path {
        "process.acceptable_wait_ms" => limits::ACCEPTABLE_WAIT_MS,
        "retry.max_attempts" => limits::MAX_ATTEMPTS,
        "retry.backoff.base_ms" => limits::BASE_MS,
        "retry.backoff.cap_ms" => limits::CAP_MS,
        "retry.attempt_timeout_ms" | "retry.lease_ms" => limits::TIMEOUT_MS,
        "retry.backoff.kind.polynomial.exponent" => limits::POLY_EXPONENT,
        "retry.backoff.kind.polynomial.first_n" => limits::POLY_FIRST_N,
        "retry.queue_retention_ms" => limits::QUEUE_RETENTION_MS,
        p if p.starts_with("retry.layers[") && p.ends_with("].attempts") => limits::LAYER_ATTEMPTS,
        "failure.notice_within_h" => limits::NOTICE_H,
        "failure.retention.done.days" | "failure.retention.dead.days" => limits::RETENTION_DAYS,
        "ticket.poll_interval_ms" => limits::POLL_MS,
        "batch.run_timeout_ms" => limits::RUN_TIMEOUT_MS,
        "sync.call_timeout_ms" => limits::CALL_TIMEOUT_MS,
        p if p.starts_with("load.") => return crate::domain::sheet::load::field_limits(p),
        _ => return None,
    })
}

/// The decoder's Rust integer types in the file's terms: the range each number may take.
fn number_words(problem: &str) -> String {
    let mut p = problem.to_owned();
    for (rust, file) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65,535"),
        (
            "expected u32",
            "expected a whole number from 0 to 4,294,967,295",
        ),
        (
            "expected u64",
            "expected a whole number from 0 to 18,446,744,073,709,551,615",
        ),
        ("expected f64", "expected a number"),
    ] {
        if p.ends_with(rust) {
            p = format!("{}{file}", &p[..p.len() - rust.len()]);
        }
    }
    p
}

/// Reads a sheet from JSON text. Sections the outcome needs but the file leaves out are
/// pre-filled, with texts in the file's `lang` (or `lang` when the file names none); sections
/// that do not apply to the outcome are an error.
///
/// # Errors
/// [`ImportError`] naming the field and what is allowed: invalid JSON, a missing or unknown
/// `schema_version`, a missing / unknown / mistyped field, a value out of range, or a
/// decision that does not hold together.
pub fn import_json(json: &str, lang: Lang) -> Result<JobSheet, ImportError> {
    let value = file_value(json)?;
    #[cfg(not(feature = "embed"))]
    not_a_sheet(&value)?;
    match value.get("schema_version") {
        Some(v)
            if v.as_u64().is_some_and(|n| {
                (u64::from(OLDEST_SCHEMA_VERSION)..=u64::from(SCHEMA_VERSION)).contains(&n)
            }) => {}
        Some(v) => {
            return Err(ImportError::SchemaVersion {
                found: Some(v.to_string()),
            })
        }
        None => return Err(ImportError::SchemaVersion { found: None }),
    }
    crate::domain::sheet::load::check_shape(&value, "")?;
    let file: SheetFile = crate::domain::json::decode(&value)
        .map_err(|e| field_error(e.path().to_string(), e.inner().to_string()))?;
    if file.schema_version == 1 {
        check_v1(file.retry.as_ref())?;
    }
    if file.schema_version < 3 && file.load.is_some() {
        return Err(ImportError::Inconsistent {
            path: "load".into(),
            problem: format!(
                "needs schema_version {SCHEMA_VERSION}; the file says {}",
                file.schema_version
            ),
        });
    }
    let decision = decision(file.decision)?;
    let outcome = decision.outcome;
    // Defaults are written in the file's own language when it names one.
    let lang = file.lang.unwrap_or(lang);
    let defaults = prefill(file.process.clone(), decision.clone(), lang);
    let fit = |name: &str, present: bool, wanted: bool| -> Result<(), ImportError> {
        if present && !wanted {
            return Err(ImportError::Inconsistent {
                path: name.to_owned(),
                problem: format!(
                    "does not apply to outcome {}; allowed: null or absent",
                    outcome.id()
                ),
            });
        }
        Ok(())
    };
    fit("retry", file.retry.is_some(), defaults.retry.is_some())?;
    fit(
        "failure",
        file.failure.is_some(),
        defaults.failure.is_some(),
    )?;
    fit("ticket", file.ticket.is_some(), defaults.ticket.is_some())?;
    fit("batch", file.batch.is_some(), defaults.batch.is_some())?;
    fit("sync", file.sync.is_some(), defaults.sync.is_some())?;
    fit(
        "sync.call",
        file.sync.as_ref().is_some_and(|s| s.call.is_some()),
        outcome == Outcome::SyncTimeout,
    )?;
    fit("load", file.load.is_some(), defaults.load.is_some())?;
    let sheet = JobSheet {
        schema_version: SCHEMA_VERSION,
        lang: Some(lang),
        process: file.process,
        decision,
        retry: file.retry.or(defaults.retry),
        failure: file.failure.or(defaults.failure),
        ticket: file.ticket.or(defaults.ticket),
        batch: file.batch.or(defaults.batch),
        sync: file.sync.or(defaults.sync),
        load: file.load.or(defaults.load),
    };
    check_sheet(&sheet)?;
    Ok(sheet)
}

/// Refuses a value that is no sheet at all (a catalog file, a list, a bare value) before its
/// fields are looked at, so the error says what the file is rather than naming
/// `schema_version`.
///
/// # Errors
/// [`ImportError::NotASheet`] with `catalog` or the JSON kind found.
#[cfg(not(feature = "embed"))]
fn not_a_sheet(value: &serde_json::Value) -> Result<(), ImportError> {
    match value.as_object() {
        Some(o) if o.contains_key("catalog_version") || o.contains_key("processes") => {
            Err(ImportError::NotASheet {
                found: "catalog".into(),
            })
        }
        _ => not_an_object(value),
    }
}

/// Refuses a value that is not a JSON object (neither a sheet nor a catalog can be one).
///
/// # Errors
/// [`ImportError::NotASheet`] with the JSON kind found: `array`, `string`, `number`,
/// `boolean` or `null`.
#[cfg(not(feature = "embed"))]
pub(crate) fn not_an_object(value: &serde_json::Value) -> Result<(), ImportError> {
    use serde_json::Value;
    let found = match value {
        Value::Object(_) => return Ok(()),
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    };
    Err(ImportError::NotASheet {
        found: found.into(),
    })
}

/// The outcome `answers` decide (the answers of a sheet's decision at JSON path `at`, e.g.
/// `decision` or `processes[2].sheet.decision`).
///
/// # Errors
/// [`ImportError::Inconsistent`] naming `{at}.answers[i]` for an answer off the path of the
/// others, or `{at}.answers` when the walk is incomplete (the question to answer next).
pub(crate) fn decided_outcome(
    at: &str,
    answers: &[DecisionAnswer],
) -> Result<Outcome, ImportError> {
    let eval = evaluate(
        &Decision {
            answers: answers.to_vec(),
            outcome: Outcome::Sync,
        }
        .to_answers(),
    );
    if let Some(q) = eval.ignored.first() {
        let i = answers.iter().position(|a| a.question == *q).unwrap_or(0);
        return Err(ImportError::Inconsistent {
            path: format!("{at}.answers[{i}]"),
            problem: format!("{} is not on the path of the other answers", q.id()),
        });
    }
    match eval.status {
        Status::Decided(o) => Ok(o),
        Status::Ask(q) => Err(ImportError::Inconsistent {
            path: format!("{at}.answers"),
            problem: format!("incomplete: {} must be answered next", q.id()),
        }),
    }
}

/// A file's text (a sheet or a catalog chosen or dropped) as a JSON value: an empty file is
/// said to be empty rather than "the text ends before the JSON does".
///
/// # Errors
/// [`ImportError::NotASheet`] with `empty` for a text of blanks only; else as [`json_value`].
pub(crate) fn file_value(json: &str) -> Result<serde_json::Value, ImportError> {
    #[cfg(not(feature = "embed"))]
    if json
        .strip_prefix('\u{feff}')
        .unwrap_or(json)
        .trim()
        .is_empty()
    {
        return Err(ImportError::NotASheet {
            found: "empty".into(),
        });
    }
    json_value(json)
}

/// `json` (a leading byte-order mark, as some editors save JSON, skipped) as a JSON value.
///
/// # Errors
/// [`ImportError::InvalidJson`] with the 1-based line and column and the parser's message.
pub(crate) fn json_value(json: &str) -> Result<serde_json::Value, ImportError> {
    let json = json.strip_prefix('\u{feff}').unwrap_or(json);

    serde_json::from_str(json).map_err(|e| ImportError::InvalidJson {
        line: e.line(),
        column: e.column().max(1),
        // serde_json appends " at line L column C"; the variant carries those already.
        message: {
            let m = e.to_string();
            match m.rfind(" at line ") {
                Some(i) => m[..i].to_owned(),
                None => m,
            }
        },
    })
}

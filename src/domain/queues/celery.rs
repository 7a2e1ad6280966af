//! Celery (`brief/QUEUES.md` §3): a Python module with the app's settings (`acks_late`,
//! `reject_on_worker_lost`, the broker's `visibility_timeout` = the lease, `result_expires`)
//! and the task decorator (`autoretry_for` / `dont_autoretry_for`, `max_retries` = attempts −
//! 1, `retry_backoff` / `retry_backoff_max` / `retry_jitter`, time limits), plus a task base
//! whose `on_failure` is the dead letter.
//!
//! Celery's own backoff is `min(retry_backoff_max, int(max(1, retry_backoff)) · 2^r)`, r = 0
//! at the first retry, with full jitter `randrange(c + 1)` (`celery/utils/time.py`
//! `get_exponential_backoff_interval`). A sheet whose wait is not that (a fixed wait with
//! jitter, equal or decorrelated jitter, polynomial growth, or a first wait / cap that is not
//! whole seconds) gets a countdown function written from the sheet's formula instead.
//!
//! The load section's knobs (`worker_concurrency`, `rate_limit` per worker instance): `celery/knobs.rs`.

use super::mapping::{self, gap, row};
use super::rows::{self, comment, SheetText};
use super::schedule::{of_sheet, Delay};
use super::{header, versions};
use super::{text, Built, DefaultPolicy, Format, Instead, Schedule, TargetError, TargetId};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, Keep, RetrySpec};
use crate::text::t;
use std::fmt::Write;

mod knobs;
pub use knobs::rate_limit;

/// Celery's `max_retries` when not set.
pub const DEFAULT_MAX_RETRIES: u32 = 3;
/// Celery's `default_retry_delay`, in seconds: the wait of every retry when `retry_backoff`
/// is not set.
pub const DEFAULT_RETRY_DELAY_S: u64 = 180;

const PY_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Whether `s` can stand as an exception class in Python: a dotted class path without
/// keywords.
pub fn is_python_class(s: &str) -> bool {
    let s = s.trim();
    text::is_class_path(s) && !s.contains("::") && s.split('.').all(|p| !PY_KEYWORDS.contains(&p))
}

/// How the retries' countdowns are written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Celery's exponential backoff: `retry_backoff` (whole seconds ≥ 1), `retry_backoff_max`
    /// (whole seconds), `retry_jitter`.
    Native { factor: u64, cap: u64, jitter: bool },
    /// `default_retry_delay` (seconds), no jitter.
    Fixed { delay_s: f64 },
    /// A countdown function from the sheet's formula.
    Custom,
}

fn mode(r: &RetrySpec) -> Mode {
    let b = &r.backoff;
    let whole = |ms: u64| ms >= 1000 && ms.is_multiple_of(1000);
    match (b.kind, b.jitter) {
        (BackoffKind::Exponential, Jitter::None | Jitter::Full)
            if whole(b.base_ms) && whole(b.cap_ms) =>
        {
            Mode::Native {
                factor: b.base_ms / 1000,
                cap: b.cap_ms / 1000,
                jitter: b.jitter == Jitter::Full,
            }
        }
        (BackoffKind::Fixed, Jitter::None) => Mode::Fixed {
            delay_s: b.base_ms as f64 / 1000.0,
        },
        _ => Mode::Custom,
    }
}

/// Builds the Python module, the mapping, the gaps and the actual schedule.
///
/// # Errors
/// [`TargetError::NotApplicable`] for a sheet without a retry section;
/// [`TargetError::UnknownFormat`] for a format other than Python.
pub fn build(sheet: &JobSheet, format: Format, lang: Lang) -> Result<Built, TargetError> {
    let r = rows::retry_of(sheet, TargetId::Celery)?;
    if format != Format::Python {
        return Err(TargetError::UnknownFormat {
            target: TargetId::Celery,
            format: format.name().to_owned(),
        });
    }
    let m = mode(r);
    Ok(Built {
        text: python(sheet, r, m, lang),
        mapping: mapping(sheet, r, m, lang),
        gaps: gaps(sheet, r, m, lang),
        actual: actual(sheet, r, m),
    })
}

fn actual(sheet: &JobSheet, r: &RetrySpec, m: Mode) -> Schedule {
    let retries = r.max_attempts.saturating_sub(1);
    match m {
        Mode::Native {
            factor,
            cap,
            jitter,
        } => Schedule::bounded(
            (0..retries)
                .map(|n| {
                    let c = native_ceiling(factor, cap, n) as f64;
                    if jitter {
                        Delay {
                            min_s: 0.0,
                            expected_s: c / 2.0,
                            max_s: c,
                        }
                    } else {
                        Delay::fixed(c)
                    }
                })
                .collect(),
        ),
        Mode::Fixed { delay_s } => Schedule::bounded(vec![Delay::fixed(delay_s); retries as usize]),
        Mode::Custom => of_sheet(sheet),
    }
}

/// `min(retry_backoff_max, factor · 2^r)`, saturating.
fn native_ceiling(factor: u64, cap: u64, r: u32) -> u64 {
    factor
        .saturating_mul(1u64.checked_shl(r.min(63)).unwrap_or(u64::MAX))
        .min(cap)
}

/// The exception tuple for `errors`: the class names among them; the other texts are
/// returned to go into a comment.
fn classes(errors: &[String]) -> (Vec<String>, Vec<String>) {
    let (c, other): (Vec<&String>, Vec<&String>) = errors.iter().partition(|e| is_python_class(e));
    (
        c.into_iter().map(|s| s.trim().to_owned()).collect(),
        other.into_iter().cloned().collect(),
    )
}

fn tuple(items: &[String]) -> String {
    match items.len() {
        0 => "()".to_owned(),
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

/// The task's function name: the code name in snake case, `_task` added when that is a
/// Python keyword.
fn function_name(sheet: &JobSheet) -> String {
    let n = text::snake_ident(&sheet.process.code_name);
    if PY_KEYWORDS.contains(&n.as_str()) {
        format!("{n}_task")
    } else {
        n
    }
}

/// `soft_time_limit`: the attempt timeout less a tenth (at most 1 s), so the task can clean
/// up before the hard `time_limit` kills it.
fn soft_limit_s(timeout_ms: u64) -> f64 {
    let t = timeout_ms as f64 / 1000.0;
    t - (t / 10.0).min(1.0)
}

fn python(sheet: &JobSheet, r: &RetrySpec, m: Mode, lang: Lang) -> String {
    let l = lang.code();
    let mut s = header::write(
        "#",
        versions::header_line(TargetId::Celery, None, lang),
        header::labelled(sheet, TargetId::Celery, lang),
    );
    let name = function_name(sheet);
    let (retryable, retry_text) = classes(&r.retryable_errors);
    let (permanent, permanent_text) = classes(&r.non_retryable_errors);
    let mut modules: Vec<&str> = retryable
        .iter()
        .chain(&permanent)
        .filter_map(|c| c.rsplit_once('.').map(|(m, _)| m))
        .collect();
    modules.sort_unstable();
    modules.dedup();
    if m == Mode::Custom {
        modules.insert(0, "random");
    }
    if !modules.is_empty() {
        s.push('\n');
    }
    for module in modules {
        let _ = writeln!(s, "import {module}");
    }
    let _ = writeln!(s, "\nfrom celery import Celery, Task\n");
    let _ = writeln!(s, "app = Celery({})", text::dq(&name));
    s.push_str("app.conf.update(\n");
    s.push_str("    task_acks_late=True,\n    task_reject_on_worker_lost=True,\n");
    s.push_str(&knobs::concurrency_lines(sheet, lang));
    let _ = writeln!(
        s,
        "    # {}",
        comment(&t!("target.celery.code.lease", locale = l))
    );
    let _ = writeln!(
        s,
        "    broker_transport_options={{\"visibility_timeout\": {}}},",
        rows::ceil_s(r.lease_ms)
    );
    let expires = match sheet.failure.as_ref().map(|f| f.retention.done) {
        Some(Keep::Days(d)) => (u64::from(d) * 86_400).to_string(),
        Some(Keep::UntilHandled) => "None".to_owned(),
        None => "86400".to_owned(),
    };
    let _ = writeln!(s, "    result_expires={expires},\n)\n");
    for (label, texts) in [
        ("target.celery.code.retryable-texts", &retry_text),
        ("target.celery.code.permanent-texts", &permanent_text),
    ] {
        if !texts.is_empty() {
            let _ = writeln!(
                s,
                "# {}: {}",
                t!(label, locale = l),
                comment(&rows::list_text(texts, lang))
            );
        }
    }
    let retry_tuple = if retryable.is_empty() {
        "(Exception,)".to_owned()
    } else {
        tuple(&retryable)
    };
    let _ = writeln!(s, "RETRYABLE = {retry_tuple}");
    let _ = writeln!(s, "NON_RETRYABLE = {}\n", tuple(&permanent));
    dead_letter_class(&mut s, sheet, lang);
    if m == Mode::Custom {
        countdown_fn(&mut s, r);
    }
    decorator(&mut s, r, m, &name, knobs::rate_line(sheet, lang));
    body(&mut s, m, &name, lang);
    s
}

fn dead_letter_class(s: &mut String, sheet: &JobSheet, lang: Lang) {
    let l = lang.code();
    s.push_str("\nclass DeadLetterTask(Task):\n");
    let _ = writeln!(
        s,
        "    # {}",
        comment(&t!("target.celery.code.dead", locale = l))
    );
    if let Some(f) = &sheet.failure {
        let _ = writeln!(s, "    # {}", comment(&f.dead_letter));
        if !f.notify.trim().is_empty() {
            let _ = writeln!(s, "    # {}", comment(&f.notify));
        }
    }
    s.push_str(
        "    def on_failure(self, exc, task_id, args, kwargs, einfo):\n        \
         app.log.get_default_logger().error(\"%s %s is dead: %r\", self.name, task_id, exc)\n\n",
    );
}

fn countdown_fn(s: &mut String, r: &RetrySpec) {
    let b = &r.backoff;
    let _ = writeln!(s, "\nBASE_S = {}", rows::secs(b.base_ms));
    let _ = writeln!(s, "CAP_S = {}\n", rows::secs(b.cap_ms));
    s.push_str("\ndef sheet_countdown(retries, previous):\n");
    s.push_str(
        "    # The sheet's wait before retry `retries` (0 at the first retry), in seconds.\n",
    );
    let ceiling = match b.kind {
        BackoffKind::Fixed => "BASE_S".to_owned(),
        BackoffKind::Exponential => "min(CAP_S, BASE_S * 2 ** retries)".to_owned(),
        BackoffKind::Polynomial(p) => format!(
            "min(CAP_S, BASE_S + (retries + {}) ** {})",
            p.first_n, p.exponent
        ),
    };
    if b.jitter != Jitter::Decorrelated {
        let _ = writeln!(s, "    t = {ceiling}");
    }
    let ret = match b.jitter {
        Jitter::None => "t",
        Jitter::Full => "random.uniform(0, t)",
        Jitter::Equal => "t / 2 + random.uniform(0, t / 2)",
        Jitter::Decorrelated => {
            "min(CAP_S, random.uniform(BASE_S, 3 * (BASE_S if previous is None else previous)))"
        }
    };
    let _ = writeln!(s, "    return {ret}\n");
}

fn decorator(s: &mut String, r: &RetrySpec, m: Mode, name: &str, rate: String) {
    s.push_str("\n@app.task(\n    bind=True,\n    base=DeadLetterTask,\n");
    let _ = writeln!(s, "    name={},", text::dq(name));
    match m {
        Mode::Native {
            factor,
            cap,
            jitter,
        } => {
            s.push_str("    autoretry_for=RETRYABLE,\n    dont_autoretry_for=NON_RETRYABLE,\n");
            let _ = writeln!(
                s,
                "    retry_backoff={factor},\n    retry_backoff_max={cap},"
            );
            let _ = writeln!(
                s,
                "    retry_jitter={},",
                if jitter { "True" } else { "False" }
            );
        }
        Mode::Fixed { delay_s } => {
            s.push_str("    autoretry_for=RETRYABLE,\n    dont_autoretry_for=NON_RETRYABLE,\n");
            let _ = writeln!(s, "    default_retry_delay={},", rows::num(delay_s));
        }
        Mode::Custom => {}
    }
    let _ = writeln!(s, "    max_retries={},", r.max_attempts.saturating_sub(1));
    let _ = writeln!(
        s,
        "    soft_time_limit={},\n    time_limit={},",
        rows::num(soft_limit_s(r.attempt_timeout_ms)),
        rows::secs(r.attempt_timeout_ms)
    );
    s.push_str(&rate);
    s.push_str("    acks_late=True,\n    reject_on_worker_lost=True,\n)\n");
}

fn body(s: &mut String, m: Mode, name: &str, lang: Lang) {
    let work = comment(&t!("target.celery.code.work", locale = lang.code()));
    if m == Mode::Custom {
        let _ = writeln!(
            s,
            "def {name}(self, *args, _previous_wait_s=None, **kwargs):\n    \
             try:\n        return work(*args, **kwargs)\n    \
             except NON_RETRYABLE:\n        raise\n    \
             except RETRYABLE as exc:\n        \
             wait = sheet_countdown(self.request.retries, _previous_wait_s)\n        \
             raise self.retry(\n            exc=exc,\n            countdown=wait,\n            \
             kwargs={{**kwargs, \"_previous_wait_s\": wait}},\n        )\n\n"
        );
    } else {
        let _ = writeln!(
            s,
            "def {name}(self, *args, **kwargs):\n    return work(*args, **kwargs)\n\n"
        );
    }
    let _ = writeln!(
        s,
        "def work(*args, **kwargs):\n    # {work}\n    raise NotImplementedError({})",
        text::dq(&work)
    );
}

fn mapping(sheet: &JobSheet, r: &RetrySpec, m: Mode, lang: Lang) -> Vec<super::MappingRow> {
    let l = lang.code();
    let s = SheetText::of(r, lang);
    let tr = |k: &str| t!(format!("target.celery.note.{k}"), locale = l).into_owned();
    let (retryable, _) = classes(&r.retryable_errors);
    let (permanent, _) = classes(&r.non_retryable_errors);
    let mut out = vec![row(
        FieldId::MaxAttempts,
        s.attempts,
        "max_retries",
        r.max_attempts.saturating_sub(1).to_string(),
        tr("max-attempts"),
    )];
    out.push(match m {
        Mode::Native {
            factor,
            cap,
            jitter,
        } => row(
            FieldId::WaitStrategy,
            s.wait,
            "retry_backoff / retry_backoff_max / retry_jitter",
            format!(
                "{factor} / {cap} / {}",
                if jitter { "True" } else { "False" }
            ),
            tr("wait-native"),
        ),
        Mode::Fixed { delay_s } => row(
            FieldId::WaitStrategy,
            s.wait,
            "default_retry_delay",
            rows::num(delay_s),
            tr("wait-fixed"),
        ),
        Mode::Custom => row(
            FieldId::WaitStrategy,
            s.wait,
            "self.retry(countdown=sheet_countdown(…))",
            String::new(),
            tr("wait-custom"),
        ),
    });
    out.push(row(
        FieldId::Timeout,
        s.timeout,
        "time_limit / soft_time_limit",
        format!(
            "{} / {}",
            rows::secs(r.attempt_timeout_ms),
            rows::num(soft_limit_s(r.attempt_timeout_ms))
        ),
        tr("timeout"),
    ));
    out.push(mapping::lease_row(
        s.lease,
        "broker_transport_options[\"visibility_timeout\"]",
        rows::ceil_s(r.lease_ms).to_string(),
        tr("lease"),
    ));
    out.push(row(
        FieldId::IdempotencyKey,
        r.idempotency_key.clone(),
        "",
        String::new(),
        tr("key"),
    ));
    out.push(row(
        FieldId::RetryableErrors,
        s.retryable,
        "autoretry_for",
        if retryable.is_empty() {
            "(Exception,)".to_owned()
        } else {
            tuple(&retryable)
        },
        tr(if retryable.is_empty() {
            "retryable-all"
        } else {
            "retryable"
        }),
    ));
    out.push(row(
        FieldId::NonRetryableErrors,
        s.non_retryable,
        "dont_autoretry_for",
        tuple(&permanent),
        tr("non-retryable"),
    ));
    if let Some(f) = &sheet.failure {
        out.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "DeadLetterTask.on_failure",
            String::new(),
            tr("dead-letter"),
        ));
        out.push(row(
            FieldId::Retention,
            rows::keep_text(f.retention.done, lang),
            "result_expires",
            match f.retention.done {
                Keep::Days(d) => (u64::from(d) * 86_400).to_string(),
                Keep::UntilHandled => "None".to_owned(),
            },
            tr("retention"),
        ));
    }
    out.extend(mapping::layers_row(
        r,
        rows::layers_text,
        "max_retries",
        rows::layers_note(lang),
    ));
    out.extend(knobs::load_rows(sheet, lang));
    out
}

fn gaps(sheet: &JobSheet, r: &RetrySpec, m: Mode, lang: Lang) -> Vec<super::Gap> {
    let l = lang.code();
    let tr = |k: &str| t!(format!("target.celery.gap.{k}"), locale = l).into_owned();
    let mut g = Vec::new();
    if m == Mode::Custom {
        g.push(gap(
            FieldId::WaitStrategy,
            tr("wait"),
            Instead::Callback,
            tr("wait-detail"),
        ));
    }
    let texts = |e: &[String]| e.iter().any(|x| !is_python_class(x));
    if texts(&r.retryable_errors) || texts(&r.non_retryable_errors) {
        g.push(gap(
            FieldId::RetryableErrors,
            tr("errors"),
            Instead::Comment,
            tr("errors-detail"),
        ));
    }
    g.push(gap(
        FieldId::IdempotencyKey,
        tr("key"),
        Instead::Comment,
        String::new(),
    ));
    g.push(gap(
        FieldId::DeadLetter,
        tr("dead-letter"),
        Instead::Callback,
        tr("dead-letter-detail"),
    ));
    if let Some(f) = &sheet.failure {
        if f.retention.done != f.retention.dead {
            g.push(gap(
                FieldId::Retention,
                tr("retention"),
                Instead::Nothing,
                String::new(),
            ));
        }
    }
    let longest = of_sheet(sheet)
        .delays
        .iter()
        .fold(0.0f64, |a, d| a.max(d.max_s));
    if longest > rows::ceil_s(r.lease_ms) as f64 {
        g.push(mapping::lease_gap(
            t!(
                "target.celery.gap.countdown-over-lease",
                locale = l,
                lease = exact(r.lease_ms, lang)
            )
            .into_owned(),
            Instead::Nothing,
            tr("countdown-over-lease-detail"),
        ));
    }
    if r.queue_retention_ms.is_some() {
        g.push(gap(
            FieldId::QueueRetention,
            tr("queue-retention"),
            Instead::Nothing,
            String::new(),
        ));
    }
    g.extend(knobs::load_gaps(sheet, lang));
    g
}

/// Celery's defaults: `max_retries = 3` (4 attempts) and, without `retry_backoff`,
/// `default_retry_delay = 180` s before every retry: window 3 × 180 s.
pub fn defaults(lang: Lang) -> DefaultPolicy {
    DefaultPolicy {
        summary: t!(
            "target.celery.defaults",
            locale = lang.code(),
            retries = DEFAULT_MAX_RETRIES,
            attempts = DEFAULT_MAX_RETRIES + 1,
            delay = DEFAULT_RETRY_DELAY_S
        )
        .into_owned(),
        attempts: Some(DEFAULT_MAX_RETRIES + 1),
        schedule: Schedule::bounded(vec![
            Delay::fixed(DEFAULT_RETRY_DELAY_S as f64);
            DEFAULT_MAX_RETRIES as usize
        ]),
    }
}

/// One sampled run of the actual delays, in seconds. Celery's own path mirrors
/// `get_exponential_backoff_interval`: `countdown = random.randrange(c + 1)` for
/// `c = min(retry_backoff_max, factor * 2 ** retries)`; the countdown function mirrors the
/// exported `sheet_countdown`.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let r = rows::retry_of(sheet, TargetId::Celery)?;
    let b = &r.backoff;
    let mut out = Vec::new();
    let mut previous: Option<f64> = None;
    for retries in 0..r.max_attempts.saturating_sub(1) {
        let wait = match mode(r) {
            Mode::Native {
                factor,
                cap,
                jitter,
            } => {
                let c = native_ceiling(factor, cap, retries) as f64;
                if jitter {
                    (u() * (c + 1.0)).floor().min(c)
                } else {
                    c
                }
            }
            Mode::Fixed { delay_s } => delay_s,
            Mode::Custom => {
                let base = b.base_ms as f64 / 1000.0;
                let cap = b.cap_ms as f64 / 1000.0;
                let t = super::super::sheet::retry_window::ceiling_ms(b, retries) as f64 / 1000.0;
                match b.jitter {
                    Jitter::None => t,
                    Jitter::Full => u() * t,
                    Jitter::Equal => t / 2.0 + u() * t / 2.0,
                    Jitter::Decorrelated => {
                        let hi = 3.0 * previous.unwrap_or(base);
                        cap.min(base + u() * (hi - base))
                    }
                }
            }
        };
        previous = Some(wait);
        out.push(wait);
    }
    Ok(out)
}

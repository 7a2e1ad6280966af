//! Google Cloud Tasks: the queue as App Engine's `queue.yaml`, the file `gcloud app deploy
//! queue.yaml` reads (the `gcloud tasks queues create|update` commands take flags only; the
//! same values as flags are in the header comment). Facts: `brief/QUEUES.md` §11
//! (googleapis/googleapis `google/cloud/tasks/v2/queue.proto` RetryConfig; App Engine's
//! queue.yaml reference).
//!
//! - `task_retry_limit` counts retries ("retried up to seven times" for 7), so attempts − 1.
//!   ⚠ The Cloud Tasks API says `max_attempts` counts attempts and "has the same meaning as
//!   task_retry_limit": the export follows the queue.yaml reference and says so in a gap.
//! - Delay of retry k (k = 1 first): `min_backoff·2^(k−1)` while k ≤ max_doublings + 1, then
//!   `min_backoff·2^max_doublings·(k − max_doublings)` (linear), never above `max_backoff`.
//! - Stop rule: with `task_age_limit` (API: `max_retry_duration`) set, retries stop only when
//!   BOTH limits are met, so it can only extend; the export leaves it unset.
//! - No jitter, no dead-letter queue (an exhausted task is deleted), the attempt's deadline is
//!   the task's `dispatch_deadline` (HTTP targets 15 s–30 min), a task lives at most 31 days.

use super::knobs::{self, Knobs};
use super::{header, mapping, text, versions, TargetId};
use super::{Built, DefaultPolicy, Delay, Format, Gap, Instead, MappingRow, Schedule, TargetError};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::join_list;
use crate::domain::sheet::load::Rate;
use crate::domain::sheet::retry_window::ceiling_ms;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, RetrySpec};
use crate::text::t;
use std::fmt::Write as _;

/// The queue's defaults (a queue created without a retry config): attempts, ms.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 100;
/// Default `minBackoff`, ms (0.1 s).
pub const DEFAULT_MIN_BACKOFF_MS: u64 = 100;
/// Default `maxBackoff`, ms (3 600 s).
pub const DEFAULT_MAX_BACKOFF_MS: u64 = 3_600_000;
/// Default `maxDoublings`.
pub const DEFAULT_MAX_DOUBLINGS: u32 = 16;
/// The shortest dispatch deadline of an HTTP task, ms.
pub const MIN_DEADLINE_MS: u64 = 15_000;
/// The longest dispatch deadline of an HTTP task, ms (30 min).
pub const MAX_DEADLINE_MS: u64 = 1_800_000;
/// The longest a task is kept, ms (31 days).
pub const MAX_TASK_AGE_MS: u64 = 31 * 86_400_000;
/// App Engine's default processing rate, written because queue.yaml requires one.
pub const DEFAULT_RATE: &str = "5/s";
/// The highest `rate` (API: `rateLimits.maxDispatchesPerSecond`), per second.
pub const MAX_DISPATCHES_PER_SECOND: u64 = 500;
/// The highest `max_concurrent_requests` (API: `rateLimits.maxConcurrentDispatches`).
pub const MAX_CONCURRENT_DISPATCHES: u32 = 5_000;

/// The queue's `rate` for our limit: as typed (`10/s`, `600/m`, `5/h`), at most
/// [`MAX_DISPATCHES_PER_SECOND`] per second (`500/s`).
pub fn rate(r: Rate) -> String {
    if r.per_s() > MAX_DISPATCHES_PER_SECOND as f64 {
        format!("{MAX_DISPATCHES_PER_SECOND}/s")
    } else {
        knobs::rate_code(r)
    }
}

/// The queue's `max_concurrent_requests` for the sheet's jobs at once, at most
/// [`MAX_CONCURRENT_DISPATCHES`].
pub fn max_concurrent(k: &Knobs) -> u32 {
    k.slots().min(MAX_CONCURRENT_DISPATCHES)
}

/// The queue's retry parameters, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryParams {
    /// Attempts including the first (queue.yaml writes `task_retry_limit` = this − 1).
    pub max_attempts: u32,
    /// `min_backoff`, ms.
    pub min_backoff_ms: u64,
    /// `max_backoff`, ms.
    pub max_backoff_ms: u64,
    /// `max_doublings`.
    pub max_doublings: u32,
}

/// The smallest `d` with `base·2^d ≥ cap` (`⌈log2(cap/base)⌉`, at most 62).
fn doublings(base_ms: u64, cap_ms: u64) -> u32 {
    let mut d = 0;
    while d < 62 && base_ms.saturating_mul(1u64 << d) < cap_ms {
        d += 1;
    }
    d
}

/// The sheet's wait as Cloud Tasks' parameters: fixed → min = max = base, no doublings;
/// exponential → min = base, max = cap, doublings `⌈log2(cap/base)⌉` (the cap is reached by
/// doubling, so the linear phase never shows); polynomial → the first wait doubling up to the
/// cap (an approximation: see the gap).
pub fn params(r: &RetrySpec) -> RetryParams {
    let b = &r.backoff;
    let (min, max, d) = match b.kind {
        BackoffKind::Fixed => (b.base_ms, b.base_ms, 0),
        BackoffKind::Exponential => (b.base_ms, b.cap_ms, doublings(b.base_ms, b.cap_ms)),
        BackoffKind::Polynomial(_) => {
            let first = ceiling_ms(b, 0).max(1);
            (first, b.cap_ms.max(first), doublings(first, b.cap_ms))
        }
    };
    RetryParams {
        max_attempts: r.max_attempts,
        min_backoff_ms: min,
        max_backoff_ms: max.max(min),
        max_doublings: d,
    }
}

/// The delay before retry `k` (k = 1 first), seconds, by the queue.proto rule.
pub fn delay_s(p: &RetryParams, k: u32) -> f64 {
    let min = p.min_backoff_ms as f64 / 1000.0;
    let max = p.max_backoff_ms as f64 / 1000.0;
    let raw = if k <= p.max_doublings + 1 {
        min * 2f64.powi(k as i32 - 1)
    } else {
        min * 2f64.powi(p.max_doublings as i32) * f64::from(k - p.max_doublings)
    };
    raw.min(max)
}

fn schedule_of(p: &RetryParams) -> Schedule {
    Schedule::bounded(
        (1..p.max_attempts)
            .map(|k| Delay::fixed(delay_s(p, k)))
            .collect(),
    )
}

fn days(ms: u64) -> String {
    format!("{} d", ms / 86_400_000)
}

fn check(sheet: &JobSheet) -> Result<(&RetrySpec, RetryParams, Schedule), TargetError> {
    let target = TargetId::CloudTasks;
    let r = sheet.retry.as_ref().ok_or(TargetError::NotApplicable {
        target,
        outcome: sheet.decision.outcome.id(),
    })?;
    if r.attempt_timeout_ms > MAX_DEADLINE_MS {
        return Err(TargetError::OutOfRange {
            target,
            field: FieldId::Timeout,
            value: exact(r.attempt_timeout_ms, Lang::En),
            allowed: "15 s to 30 min (the HTTP task's dispatch deadline)".to_owned(),
        });
    }
    let p = params(r);
    let actual = schedule_of(&p);
    let window_ms = actual.window_s.max.unwrap_or(0.0) * 1000.0;
    if window_ms > MAX_TASK_AGE_MS as f64 {
        return Err(TargetError::OutOfRange {
            target,
            field: FieldId::RetryWindow,
            value: format!("{:.1} d", window_ms / 86_400_000.0),
            allowed: format!("0 s to {} (a task's longest life)", days(MAX_TASK_AGE_MS)),
        });
    }
    Ok((r, p, actual))
}

/// Seconds for queue.yaml: `10`, `0.2`.
fn secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

/// The comment lines above `queue.yaml`: the queue, how to read the file, the same values as
/// `gcloud` flags, the load, each task's deadline and name, the errors, the dead letter and
/// who is told — labels in `lang`, the sheet's values as typed; written by [`header::write`].
fn header_lines(sheet: &JobSheet, r: &RetrySpec, p: &RetryParams, lang: Lang) -> Vec<String> {
    let name = text::dns_label(&sheet.process.code_name);
    let mut lines = Vec::new();
    let mut c = |s: String| lines.push(s);
    let pr = &sheet.process;
    let k = Knobs::of(sheet);
    let l = lang.code();
    let mut flags = String::new();
    if let Some(r) = k.and_then(|k| k.our_limit) {
        let per_s = if r.per_s() > MAX_DISPATCHES_PER_SECOND as f64 {
            MAX_DISPATCHES_PER_SECOND.to_string()
        } else {
            knobs::per_s_literal(r)
        };
        flags.push_str(&format!(" --max-dispatches-per-second={per_s}"));
    }
    if let Some(k) = k.filter(Knobs::sized) {
        flags.push_str(&format!(
            " --max-concurrent-dispatches={}",
            max_concurrent(&k)
        ));
    }
    // The comments follow the export's language; the values in them are the sheet's.
    let sep = if lang == Lang::Ja { "、" } else { ", " };
    c(t!(
        "target.cloud-tasks.yaml.queue",
        locale = l,
        name = text::named(&pr.process_name, &pr.code_name, lang == Lang::Ja)
    )
    .into_owned());
    c(t!("target.cloud-tasks.yaml.read-by", locale = l).into_owned());
    let command = format!(
        "gcloud tasks queues update {name} --max-attempts={} --min-backoff={}s --max-backoff={}s --max-doublings={}{flags}",
        p.max_attempts,
        secs(p.min_backoff_ms),
        secs(p.max_backoff_ms),
        p.max_doublings
    );
    c(t!(
        "target.cloud-tasks.yaml.flags",
        locale = l,
        command = command
    )
    .into_owned());
    if let Some(line) = knobs::comment_line(sheet, lang) {
        c(line);
    }
    c(t!(
        "target.cloud-tasks.yaml.each-task",
        locale = l,
        deadline = secs(r.attempt_timeout_ms.max(MIN_DEADLINE_MS)),
        key = &r.idempotency_key
    )
    .into_owned());
    c(t!(
        "target.cloud-tasks.yaml.retryable",
        locale = l,
        list = r.retryable_errors.join(sep)
    )
    .into_owned());
    c(t!(
        "target.cloud-tasks.yaml.permanent",
        locale = l,
        list = r.non_retryable_errors.join(sep)
    )
    .into_owned());
    if let Some(f) = &sheet.failure {
        c(t!(
            "target.cloud-tasks.yaml.no-dlq",
            locale = l,
            count = p.max_attempts.saturating_sub(1),
            dead = &f.dead_letter
        )
        .into_owned());
        if !f.notify.trim().is_empty() {
            c(t!(
                "target.cloud-tasks.yaml.notify",
                locale = l,
                notify = &f.notify
            )
            .into_owned());
        }
    }
    lines
}

fn yaml(sheet: &JobSheet, r: &RetrySpec, p: &RetryParams, lang: Lang) -> String {
    let name = text::dns_label(&sheet.process.code_name);
    let k = Knobs::of(sheet);
    let mut out = header::write(
        "#",
        versions::header_line(TargetId::CloudTasks, None, lang),
        header_lines(sheet, r, p, lang),
    );
    let l = lang.code();
    out.push_str("queue:\n");
    let _ = writeln!(out, "  - name: {name}");
    match k.and_then(|k| k.our_limit) {
        Some(r) => {
            let _ = writeln!(
                out,
                "    rate: {}  # {}",
                rate(r),
                t!("target.cloud-tasks.yaml.rate-ours", locale = l)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "    rate: {DEFAULT_RATE}  # {}",
                t!("target.cloud-tasks.yaml.rate-required", locale = l)
            );
        }
    }
    if let Some(k) = k.filter(Knobs::sized) {
        let _ = writeln!(
            out,
            "    max_concurrent_requests: {}  # {}",
            max_concurrent(&k),
            t!(
                "target.cloud-tasks.yaml.concurrent",
                locale = l,
                workers = k.workers(),
                each = k.per_worker()
            )
        );
    }
    out.push_str("    retry_parameters:\n");
    let _ = writeln!(
        out,
        "      task_retry_limit: {}  # {}",
        p.max_attempts.saturating_sub(1),
        t!("target.cloud-tasks.yaml.retry-limit", locale = l)
    );
    let _ = writeln!(out, "      min_backoff_seconds: {}", secs(p.min_backoff_ms));
    let _ = writeln!(out, "      max_backoff_seconds: {}", secs(p.max_backoff_ms));
    let _ = writeln!(out, "      max_doublings: {}", p.max_doublings);
    let _ = writeln!(
        out,
        "      # {}",
        t!("target.cloud-tasks.yaml.age-limit", locale = l)
    );
    out
}

fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

/// A mapping row whose note is the text of the key `note`.
fn row(
    field: FieldId,
    sheet: String,
    key: &str,
    value: String,
    note: &str,
    lang: Lang,
) -> MappingRow {
    mapping::row(field, sheet, key, value, tr(note, lang))
}

fn mapping(sheet: &JobSheet, r: &RetrySpec, p: &RetryParams, lang: Lang) -> Vec<MappingRow> {
    let deadline = r.attempt_timeout_ms.max(MIN_DEADLINE_MS);
    let mut rows = vec![
        row(
            FieldId::MaxAttempts,
            r.max_attempts.to_string(),
            "task_retry_limit",
            p.max_attempts.saturating_sub(1).to_string(),
            "target.cloud-tasks.note.attempts",
            lang,
        ),
        row(
            FieldId::WaitStrategy,
            super::sql::wait_words(r, lang),
            "min_backoff_seconds / max_backoff_seconds / max_doublings",
            format!(
                "{} / {} / {}",
                secs(p.min_backoff_ms),
                secs(p.max_backoff_ms),
                p.max_doublings
            ),
            "target.cloud-tasks.note.wait",
            lang,
        ),
        row(
            FieldId::Timeout,
            exact(r.attempt_timeout_ms, lang),
            "task.dispatchDeadline",
            format!("{}s", secs(deadline)),
            "target.cloud-tasks.note.timeout",
            lang,
        ),
        mapping::lease_row(
            exact(r.lease_ms, lang),
            "",
            String::new(),
            tr("target.cloud-tasks.note.lease", lang),
        ),
        row(
            FieldId::IdempotencyKey,
            r.idempotency_key.clone(),
            "task.name",
            String::new(),
            "target.cloud-tasks.note.key",
            lang,
        ),
        row(
            FieldId::RetryableErrors,
            join_list(&r.retryable_errors, lang),
            "HTTP status",
            "non-2xx".to_owned(),
            "target.cloud-tasks.note.retryable",
            lang,
        ),
        row(
            FieldId::RetryWindow,
            super::sql::window_words(sheet, lang),
            "task_age_limit",
            String::new(),
            "target.cloud-tasks.note.window",
            lang,
        ),
    ];
    if let Some(f) = &sheet.failure {
        rows.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "",
            String::new(),
            "target.cloud-tasks.note.dead-letter",
            lang,
        ));
    }
    if let Some(q) = r.queue_retention_ms {
        rows.push(row(
            FieldId::QueueRetention,
            exact(q, lang),
            "",
            days(MAX_TASK_AGE_MS),
            "target.cloud-tasks.note.queue-retention",
            lang,
        ));
    }
    rows.extend(mapping::layers_row(
        r,
        |r| r.total_calls().to_string(),
        "",
        |calls| {
            t!(
                "target.cloud-tasks.note.layers",
                locale = lang.code(),
                calls = calls
            )
            .into_owned()
        },
    ));
    rows.extend(load_rows(sheet, lang));
    rows
}

fn gap(field: FieldId, key: &str, instead: Instead, lang: Lang) -> Gap {
    mapping::gap(
        field,
        tr(key, lang),
        instead,
        tr(&format!("{key}-detail"), lang),
    )
}

fn gaps(sheet: &JobSheet, r: &RetrySpec, lang: Lang) -> Vec<Gap> {
    let mut out = vec![gap(
        FieldId::MaxAttempts,
        "target.cloud-tasks.gap.retry-limit",
        Instead::Comment,
        lang,
    )];
    if r.backoff.jitter != Jitter::None {
        out.push(gap(
            FieldId::WaitStrategy,
            "target.cloud-tasks.gap.jitter",
            Instead::Nothing,
            lang,
        ));
    }
    if matches!(r.backoff.kind, BackoffKind::Polynomial(_)) {
        out.push(gap(
            FieldId::WaitStrategy,
            "target.cloud-tasks.gap.polynomial",
            Instead::Nothing,
            lang,
        ));
    }
    if !r.backoff.base_ms.is_multiple_of(1000) || !r.backoff.cap_ms.is_multiple_of(1000) {
        out.push(gap(
            FieldId::WaitStrategy,
            "target.cloud-tasks.gap.seconds",
            Instead::Nothing,
            lang,
        ));
    }
    if r.attempt_timeout_ms < MIN_DEADLINE_MS {
        out.push(gap(
            FieldId::Timeout,
            "target.cloud-tasks.gap.deadline",
            Instead::Comment,
            lang,
        ));
    }
    out.push(gap(
        FieldId::NonRetryableErrors,
        "target.cloud-tasks.gap.errors",
        Instead::Comment,
        lang,
    ));
    if sheet.failure.is_some() {
        out.push(gap(
            FieldId::DeadLetter,
            "target.cloud-tasks.gap.dead-letter",
            Instead::Comment,
            lang,
        ));
    }
    if sheet
        .failure
        .as_ref()
        .is_some_and(|f| !f.notify.trim().is_empty())
    {
        out.push(gap(
            FieldId::Notify,
            "target.cloud-tasks.gap.notify",
            Instead::Comment,
            lang,
        ));
    }
    out.extend(load_gaps(sheet, lang));
    out
}

/// The load section's rows: `rate` for our limit, `max_concurrent_requests` for the jobs at
/// once, the downstream's limits.
fn load_rows(sheet: &JobSheet, lang: Lang) -> Vec<MappingRow> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut m = Vec::new();
    if k.sized() {
        m.push(knobs::knob_row(
            FieldId::Workers,
            &k,
            "max_concurrent_requests (rateLimits.maxConcurrentDispatches)",
            max_concurrent(&k).to_string(),
            ("cloud-tasks", "workers"),
            lang,
        ));
    }
    if let Some(r) = k.our_limit {
        m.push(knobs::knob_row(
            FieldId::OurLimit,
            &k,
            "rate (rateLimits.maxDispatchesPerSecond)",
            rate(r),
            ("cloud-tasks", "rate"),
            lang,
        ));
    }
    m.extend(knobs::downstream_row(sheet, lang));
    m
}

/// The load section's gaps: a rate or a concurrency over Cloud Tasks' maximum.
fn load_gaps(sheet: &JobSheet, lang: Lang) -> Vec<Gap> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut g = Vec::new();
    if k.sized() && max_concurrent(&k) != k.slots() {
        g.push(knobs::knob_gap(
            FieldId::Workers,
            &k,
            ("cloud-tasks", "above"),
            Instead::Nothing,
            lang,
        ));
    }
    if k.our_limit
        .is_some_and(|r| r.per_s() > MAX_DISPATCHES_PER_SECOND as f64)
    {
        g.push(knobs::knob_gap(
            FieldId::OurLimit,
            &k,
            ("cloud-tasks", "rate-above"),
            Instead::Nothing,
            lang,
        ));
    }
    g
}

/// Builds `queue.yaml`.
///
/// # Errors
/// [`TargetError::NotApplicable`] without a retry section; [`TargetError::OutOfRange`] for an
/// attempt timeout over 30 min (the longest dispatch deadline) or an actual window over 31
/// days (a task's longest life).
pub fn build(sheet: &JobSheet, _format: Format, lang: Lang) -> Result<Built, TargetError> {
    let (r, p, actual) = check(sheet)?;
    Ok(Built {
        text: yaml(sheet, r, &p, lang),
        mapping: mapping(sheet, r, &p, lang),
        gaps: gaps(sheet, r, lang),
        actual,
    })
}

/// The defaults: 100 attempts, 0.1 s doubling 16 times, capped at 3 600 s, no jitter; the
/// window computed from the rule (Σ 0.1·2^(k−1) for k = 1..16, then 83 × 3 600 s).
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let p = RetryParams {
        max_attempts: DEFAULT_MAX_ATTEMPTS,
        min_backoff_ms: DEFAULT_MIN_BACKOFF_MS,
        max_backoff_ms: DEFAULT_MAX_BACKOFF_MS,
        max_doublings: DEFAULT_MAX_DOUBLINGS,
    };
    DefaultPolicy {
        summary: tr("target.cloud-tasks.defaults", lang),
        attempts: Some(DEFAULT_MAX_ATTEMPTS),
        schedule: schedule_of(&p),
    }
}

/// One run of the delays Cloud Tasks waits (no randomness: `u` is not drawn), written from
/// the queue.proto text: the interval starts at min_backoff, doubles max_doublings times,
/// then grows linearly by 2^max_doublings·min_backoff, never above max_backoff.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, _u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let (_, p, _) = check(sheet)?;
    let (min, max) = (
        p.min_backoff_ms as f64 / 1000.0,
        p.max_backoff_ms as f64 / 1000.0,
    );
    let mut out = Vec::new();
    let mut interval = min;
    for retry in 1..p.max_attempts {
        if retry > 1 {
            if retry <= p.max_doublings + 1 {
                interval *= 2.0;
            } else {
                interval += min * 2f64.powi(p.max_doublings as i32);
            }
        }
        out.push(interval.min(max));
    }
    Ok(out)
}

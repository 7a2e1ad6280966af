//! pg-boss (Node, Postgres): an ES module with the queue's options (`boss.createQueue`), the
//! send with its `singletonKey`, and a worker that dead-letters permanent errors at once.
//! Facts: `brief/QUEUES.md` §8 (timgit/pg-boss@55ee32f, v12.27.0; src/attorney.ts for limits):
//!
//! - `retryLimit` counts **retries** (default 2, so 3 attempts).
//! - Fixed mode waits `retryDelay` whole seconds (default 0), without jitter. Backoff mode
//!   (`retryBackoff: true`) waits `min(retryDelayMax, max(retryDelay, 1) · 2^min(16, rc+1) / 2
//!   · (1 + U))` s, `rc` the retries already made (0 first): equal jitter on
//!   `2^(rc+1) · retryDelay`, the cap applied after the jitter; it cannot be jitter-free.
//! - `expireInSeconds` (≥ 1, **under 24 h**, default 900) is the attempt timeout and the
//!   lease; the monitor notices an expired job within `monitorIntervalSeconds` (60 s).
//! - `deadLetter` names a queue that gets a copy of an exhausted job (it must exist first);
//!   `deleteAfterSeconds` (default 7 d, 0 = never) deletes completed, failed and cancelled
//!   jobs; `retentionSeconds` (default 14 d) deletes jobs still queued.
//!
//! Texts: `locales/worker/target-pg-boss.yml`.

use super::kit::{self, KeyPart};
use super::knobs::{self, Knobs};
use super::schedule::Delay;
use super::{header, mapping, versions};
use super::{
    text, Built, DefaultPolicy, Format, Gap, Instead, MappingRow, Schedule, TargetError, TargetId,
};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::retry_window::retry_window;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, Keep, RetrySpec};
use crate::text::t;

const TARGET: TargetId = TargetId::PgBoss;

/// pg-boss's default `retryLimit` (retries; src/plans.ts QUEUE_DEFAULTS).
pub const DEFAULT_RETRY_LIMIT: u32 = 2;
/// pg-boss's default `retryDelay`, in seconds.
pub const DEFAULT_RETRY_DELAY_S: u64 = 0;
/// `expireInSeconds` must stay under this many seconds (24 h; src/attorney.ts
/// `MAX_EXPIRATION_HOURS`).
pub const MAX_EXPIRE_S: u64 = 24 * 3600;
/// How long `retryBackoff` doubles: the exponent is `min(16, rc + 1)`.
pub const MAX_BACKOFF_EXPONENT: u32 = 16;

/// The retry settings the export writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryOptions {
    /// `retryLimit`: retries.
    pub retry_limit: u32,
    /// `retryDelay`, whole seconds.
    pub retry_delay_s: u64,
    /// `retryBackoff`.
    pub backoff: bool,
    /// `retryDelayMax`, whole seconds (`None`: not set, no cap).
    pub delay_max_s: Option<u64>,
}

impl RetryOptions {
    /// The delay before retry `rc` (0 first) as pg-boss computes it: fixed `retryDelay`, or
    /// `a · (1 + U)` capped by `retryDelayMax`, `a = max(retryDelay, 1) · 2^min(16, rc+1) / 2`.
    /// The expected value of `min(M, a(1 + U))` is `1.5a` when `2a ≤ M`, `M` when `a ≥ M`, and
    /// `((M² − a²)/2 + M(2a − M)) / a` between.
    pub fn delay(&self, rc: u32) -> Delay {
        if !self.backoff {
            return Delay::fixed(self.retry_delay_s as f64);
        }
        let a = self.retry_delay_s.max(1) as f64
            * 2f64.powi((rc + 1).min(MAX_BACKOFF_EXPONENT) as i32)
            / 2.0;
        let Some(m) = self.delay_max_s.map(|m| m as f64) else {
            return Delay {
                min_s: a,
                expected_s: 1.5 * a,
                max_s: 2.0 * a,
            };
        };
        let expected_s = if 2.0 * a <= m {
            1.5 * a
        } else if a >= m {
            m
        } else {
            ((m * m - a * a) / 2.0 + m * (2.0 * a - m)) / a
        };
        Delay {
            min_s: a.min(m),
            expected_s,
            max_s: (2.0 * a).min(m),
        }
    }

    /// All the delays: one per retry.
    pub fn schedule(&self) -> Schedule {
        Schedule::bounded((0..self.retry_limit).map(|rc| self.delay(rc)).collect())
    }

    /// One draw of the delay before retry `rc`, as the SQL in src/plans.ts `failJobsBody`
    /// writes it.
    fn draw(&self, rc: u32, u: f64) -> f64 {
        if !self.backoff {
            return self.retry_delay_s as f64;
        }
        let p = 2f64.powi((rc + 1).min(MAX_BACKOFF_EXPONENT) as i32);
        let d = self.retry_delay_s.max(1) as f64 * (p / 2.0 + p / 2.0 * u);
        match self.delay_max_s {
            Some(m) => d.min(m as f64),
            None => d,
        }
    }
}

/// The retry options for the sheet's policy: fixed without jitter as it is; anything else in
/// backoff mode with `retryDelay` = the sheet's first expected wait / 1.5 (pg-boss's mean
/// factor `1 + U`), so equal jitter matches exactly below the cap; `retryDelayMax` = the cap.
pub fn retry_options(r: &RetrySpec) -> RetryOptions {
    let b = &r.backoff;
    let retry_limit = r.max_attempts.saturating_sub(1);
    if b.kind == BackoffKind::Fixed {
        return RetryOptions {
            retry_limit,
            retry_delay_s: (b.base_ms as f64 / 1000.0).round() as u64,
            backoff: false,
            delay_max_s: None,
        };
    }
    let w = retry_window(b, 2, r.attempt_timeout_ms);
    let first_ms = w.waits.first().map_or(b.base_ms as f64, |w| w.expected_ms);
    RetryOptions {
        retry_limit,
        retry_delay_s: ((first_ms / 1500.0).round() as u64).max(1),
        backoff: true,
        delay_max_s: Some((b.cap_ms as f64 / 1000.0).round() as u64),
    }
}

/// pg-boss's default policy: 2 retries (3 attempts), no delay, expiry 15 min, completed jobs
/// kept 7 days, queued 14 days; its window computed from that formula (zero).
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let o = RetryOptions {
        retry_limit: DEFAULT_RETRY_LIMIT,
        retry_delay_s: DEFAULT_RETRY_DELAY_S,
        backoff: false,
        delay_max_s: None,
    };
    DefaultPolicy {
        summary: t!("target.pg-boss.defaults", locale = lang.code()).into_owned(),
        attempts: Some(DEFAULT_RETRY_LIMIT + 1),
        schedule: o.schedule(),
    }
}

fn checked(sheet: &JobSheet) -> Result<&RetrySpec, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    kit::check_attempts(r, TARGET)?;
    if kit::ceil_s(r.attempt_timeout_ms, 1) >= MAX_EXPIRE_S {
        return Err(TargetError::OutOfRange {
            target: TARGET,
            field: FieldId::Timeout,
            value: exact(r.attempt_timeout_ms, Lang::En),
            allowed: "1 s to 23 h 59 min 59 s (expireInSeconds < 24 h)".to_owned(),
        });
    }
    Ok(r)
}

/// Whether `s` is what the worker compares with a thrown error: its `name`
/// ([`text::is_js_error_name`]) or its `code` (`ECONNRESET`, PostgreSQL's `23505`).
fn is_name_or_code(s: &str) -> bool {
    text::is_js_error_name(s)
        || (!s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
}

/// Builds the pg-boss module for `sheet`.
///
/// # Errors
/// [`TargetError::NotApplicable`] without a retry section; [`TargetError::OutOfRange`] for
/// 0 attempts or an attempt timeout of 24 h or more (`expireInSeconds` must stay under 24 h).
pub fn build(sheet: &JobSheet, _format: Format, lang: Lang) -> Result<Built, TargetError> {
    let r = checked(sheet)?;
    let plan = Plan::new(sheet, r, lang);
    Ok(Built {
        text: plan.text(),
        mapping: plan.mapping(),
        gaps: plan.gaps(),
        actual: plan.opts.schedule(),
    })
}

/// One sampled run of the exported options by pg-boss's own formula.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let o = retry_options(checked(sheet)?);
    Ok((0..o.retry_limit).map(|rc| o.draw(rc, u())).collect())
}

/// What the export writes, computed once.
struct Plan<'a> {
    sheet: &'a JobSheet,
    r: &'a RetrySpec,
    lang: Lang,
    opts: RetryOptions,
    queue: String,
    args: Vec<String>,
    key: Vec<KeyPart>,
    delete_after_s: Option<u64>,
}

impl<'a> Plan<'a> {
    fn new(sheet: &'a JobSheet, r: &'a RetrySpec, lang: Lang) -> Plan<'a> {
        let delete_after_s = sheet.failure.as_ref().map(|f| match f.retention.done {
            Keep::Days(d) => u64::from(d) * 86_400,
            Keep::UntilHandled => 0,
        });
        Plan {
            sheet,
            r,
            lang,
            opts: retry_options(r),
            queue: text::dns_label(&sheet.process.code_name),
            args: kit::arg_idents(sheet, &[]),
            key: kit::key_parts(sheet, r),
            delete_after_s,
        }
    }

    fn tr(&self, key: &str) -> String {
        t!(key, locale = self.lang.code()).into_owned()
    }

    fn has_key_arg(&self) -> bool {
        self.key.iter().any(|p| matches!(p, KeyPart::Arg(_)))
    }

    /// The JavaScript expression of the key: `[data.reservation_id, "confirm-mail"].join(":")`.
    fn key_expr(&self) -> String {
        let parts: Vec<String> = self
            .key
            .iter()
            .map(|p| match p {
                KeyPart::Arg(i) => format!("data.{}", self.args[*i]),
                KeyPart::Literal(s) => text::dq(s),
            })
            .collect();
        format!("[{}].join(':')", parts.join(", "))
    }

    fn options(&self) -> Vec<(&'static str, String)> {
        let o = &self.opts;
        let mut v = vec![
            ("retryLimit", o.retry_limit.to_string()),
            ("retryDelay", o.retry_delay_s.to_string()),
            ("retryBackoff", o.backoff.to_string()),
        ];
        if let Some(m) = o.delay_max_s {
            v.push(("retryDelayMax", m.to_string()));
        }
        v.push((
            "expireInSeconds",
            kit::ceil_s(self.r.attempt_timeout_ms, 1).to_string(),
        ));
        if let Some(ms) = self.r.queue_retention_ms {
            v.push(("retentionSeconds", kit::ceil_s(ms, 1).to_string()));
        }
        if let Some(s) = self.delete_after_s {
            v.push(("deleteAfterSeconds", s.to_string()));
        }
        v.push(("deadLetter", "DEAD_LETTER".to_owned()));
        if self.has_key_arg() {
            v.push(("policy", "'short'".to_owned()));
        }
        v
    }

    fn text(&self) -> String {
        let mut o = header::write(
            "//",
            versions::header_line(TARGET, None, self.lang),
            header::sentences(self.sheet, TARGET, self.lang),
        );
        o.push_str("\nimport { PgBoss } from 'pg-boss'\n\n");
        o.push_str(&format!(
            "export const QUEUE = {}\nexport const DEAD_LETTER = {}\n",
            text::dq(&self.queue),
            text::dq(&format!("{}-dead", self.queue))
        ));
        o.push_str(&format!(
            "\n// {}\nexport const queueOptions = {{\n",
            self.tr("target.pg-boss.code.options")
        ));
        for (k, v) in self.options() {
            o.push_str(&format!("  {k}: {v},\n"));
        }
        o.push_str("}\n");
        o.push_str(&format!(
            "\n// {}\nexport const PERMANENT_ERRORS = [\n",
            self.tr("target.pg-boss.code.permanent")
        ));
        let (names, texts) = kit::split_classes(&self.r.non_retryable_errors, is_name_or_code);
        o.push_str(&kit::described_lines(
            &texts,
            "  // ",
            "ValidationError, 23505",
            self.lang,
        ));
        for e in &names {
            o.push_str(&format!("  {},\n", text::dq(e)));
        }
        o.push_str("]\n\n");
        o.push_str(&format!(
            "// {}\nexport async function setup (boss) {{\n  await boss.createQueue(DEAD_LETTER)\n  await boss.createQueue(QUEUE, queueOptions)\n}}\n",
            self.tr("target.pg-boss.code.setup")
        ));
        let (send_opts, note) = if self.has_key_arg() {
            (
                format!(", {{ singletonKey: {} }}", self.key_expr()),
                "target.pg-boss.code.enqueue",
            )
        } else {
            (String::new(), "target.pg-boss.code.enqueue-plain")
        };
        o.push_str(&format!(
            "\n// {}\nexport async function enqueue (boss, data) {{\n  return boss.send(QUEUE, data{send_opts})\n}}\n",
            self.tr(note)
        ));
        let (note, opts) = match Knobs::of(self.sheet).filter(Knobs::sized) {
            Some(k) => (
                format!(
                    "// {}\n",
                    text::comment(&t!(
                        "target.load.pg-boss.concurrency-code",
                        locale = self.lang.code(),
                        workers = k.workers(),
                        each = k.per_worker()
                    ))
                ),
                format!(", {{ localConcurrency: {} }}", k.per_worker()),
            ),
            None => (String::new(), String::new()),
        };
        o.push_str(&format!(
            "\n// {}\n{note}export async function work (boss, handler) {{\n  return boss.work(QUEUE{opts}, async ([job]) => {{\n    try {{\n      return await handler(job)\n    }} catch (err) {{\n      if (PERMANENT_ERRORS.includes(err?.name) || PERMANENT_ERRORS.includes(err?.code)) {{\n        await boss.send(DEAD_LETTER, job.data)\n        return null\n      }}\n      throw err\n    }}\n  }})\n}}\n\nexport function createBoss (connectionString) {{\n  return new PgBoss(connectionString)\n}}\n",
            self.tr("target.pg-boss.code.work")
        ));
        o
    }

    fn mapping(&self) -> Vec<MappingRow> {
        let (l, r, row, o) = (self.lang, self.r, mapping::row, &self.opts);
        let wait_value = match o.delay_max_s {
            Some(m) => format!(
                "retryBackoff: true, retryDelay: {}, retryDelayMax: {m}",
                o.retry_delay_s
            ),
            None => format!("retryBackoff: false, retryDelay: {}", o.retry_delay_s),
        };
        let mut m = vec![
            row(
                FieldId::MaxAttempts,
                r.max_attempts.to_string(),
                "retryLimit",
                o.retry_limit.to_string(),
                self.tr("target.pg-boss.map.max-attempts"),
            ),
            row(
                FieldId::WaitStrategy,
                describe_backoff(&r.backoff, l),
                "retryBackoff, retryDelay, retryDelayMax",
                wait_value,
                self.tr(if o.backoff {
                    "target.pg-boss.map.backoff"
                } else {
                    "target.pg-boss.map.fixed"
                }),
            ),
            row(
                FieldId::Timeout,
                exact(r.attempt_timeout_ms, l),
                "expireInSeconds",
                kit::ceil_s(r.attempt_timeout_ms, 1).to_string(),
                self.tr("target.pg-boss.map.timeout"),
            ),
            mapping::lease_row(
                exact(r.lease_ms, l),
                "",
                String::new(),
                self.tr("target.pg-boss.map.lease"),
            ),
            row(
                FieldId::IdempotencyKey,
                r.idempotency_key.clone(),
                "singletonKey, policy: 'short'",
                if self.has_key_arg() {
                    self.key_expr()
                } else {
                    String::new()
                },
                self.tr(if self.has_key_arg() {
                    "target.pg-boss.map.key"
                } else {
                    "target.pg-boss.map.key-none"
                }),
            ),
            row(
                FieldId::RetryableErrors,
                kit::list_text(&r.retryable_errors, l),
                "",
                String::new(),
                self.tr("target.pg-boss.map.retryable"),
            ),
            row(
                FieldId::NonRetryableErrors,
                kit::list_text(&r.non_retryable_errors, l),
                "PERMANENT_ERRORS",
                String::new(),
                self.tr("target.pg-boss.map.permanent"),
            ),
        ];
        if let Some(f) = &self.sheet.failure {
            m.push(row(
                FieldId::DeadLetter,
                f.dead_letter.clone(),
                "deadLetter",
                format!("{}-dead", self.queue),
                self.tr("target.pg-boss.map.dead-letter"),
            ));
            m.push(row(
                FieldId::Retention,
                kit::retention_text(self.sheet, l),
                "deleteAfterSeconds",
                self.delete_after_s
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
                self.tr("target.pg-boss.map.retention"),
            ));
        }
        m.push(row(
            FieldId::QueueRetention,
            kit::queue_retention_text(r, l),
            "retentionSeconds",
            r.queue_retention_ms
                .map(|ms| kit::ceil_s(ms, 1).to_string())
                .unwrap_or_default(),
            self.tr("target.pg-boss.map.queue-retention"),
        ));
        m.extend(mapping::layers_row(
            r,
            kit::layers_text,
            "",
            kit::layers_note(l),
        ));
        if let Some(k) = Knobs::of(self.sheet) {
            if k.sized() {
                m.push(knobs::knob_row(
                    FieldId::Workers,
                    &k,
                    "work() localConcurrency",
                    k.per_worker().to_string(),
                    ("pg-boss", "workers"),
                    l,
                ));
            }
            m.extend(knobs::downstream_row(self.sheet, l));
        }
        m
    }

    fn gaps(&self) -> Vec<Gap> {
        let (r, b) = (self.r, &self.r.backoff);
        let mut g = Vec::new();
        let mut wait_gap = |key: &str| {
            g.push(mapping::gap(
                FieldId::WaitStrategy,
                self.tr(key),
                Instead::Nothing,
                String::new(),
            ))
        };
        match (b.kind, b.jitter) {
            (BackoffKind::Fixed, Jitter::None) => {}
            (BackoffKind::Fixed, _) => wait_gap("target.pg-boss.gap.fixed-jitter"),
            (BackoffKind::Polynomial(_), _) => wait_gap("target.pg-boss.gap.polynomial"),
            (BackoffKind::Exponential, Jitter::Equal) => wait_gap("target.pg-boss.gap.equal"),
            (BackoffKind::Exponential, _) => wait_gap("target.pg-boss.gap.jitter"),
        }
        if b.base_ms % 1000 != 0 || b.cap_ms % 1000 != 0 {
            wait_gap("target.pg-boss.gap.whole-seconds");
        }
        if !r.retryable_errors.is_empty() {
            g.push(mapping::gap(
                FieldId::RetryableErrors,
                self.tr("target.pg-boss.gap.retryable"),
                Instead::Comment,
                String::new(),
            ));
        }
        if !r.non_retryable_errors.is_empty() {
            g.push(mapping::gap(
                FieldId::NonRetryableErrors,
                self.tr("target.pg-boss.gap.permanent"),
                Instead::Callback,
                String::new(),
            ));
        }
        if let Some(f) = &self.sheet.failure {
            g.push(mapping::gap(
                FieldId::DeadLetter,
                self.tr("target.pg-boss.gap.dead-letter"),
                Instead::Comment,
                String::new(),
            ));
            if !f.notify.trim().is_empty() {
                g.push(mapping::gap(
                    FieldId::Notify,
                    self.tr("target.pg-boss.gap.notify"),
                    Instead::Comment,
                    String::new(),
                ));
            }
            if f.retention.dead != f.retention.done || f.retention.dead == Keep::UntilHandled {
                g.push(mapping::gap(
                    FieldId::Retention,
                    self.tr("target.pg-boss.gap.dead-retention"),
                    Instead::Nothing,
                    String::new(),
                ));
            }
        }
        if let Some(k) = Knobs::of(self.sheet) {
            g.extend(knobs::rate_gap("pg-boss", &k, self.lang));
        }
        g
    }
}

//! Temporal activity options (Go `workflow.ActivityOptions`, TypeScript `ActivityOptions`):
//! the RetryPolicy (`InitialInterval`, `BackoffCoefficient`, `MaximumInterval`,
//! `MaximumAttempts`, `NonRetryableErrorTypes`), `StartToCloseTimeout` for the attempt
//! timeout and `HeartbeatTimeout` for the lease. Facts: `brief/QUEUES.md` §10
//! (temporalio/temporal@6805cae service/history/workflow/retry.go; temporalio/api@f53963d):
//!
//! - `MaximumAttempts` counts **attempts** including the first; 0 means unlimited (the
//!   default), 1 disables retries.
//! - The wait before attempt `n + 1` is `min(MaximumInterval, InitialInterval ·
//!   BackoffCoefficient^(n−1))`, `n` = 1 at the first failure; defaults 1 s, 2.0, 100 × the
//!   initial interval. **No jitter** of any kind.
//! - `NonRetryableErrorTypes` match an application error's type name exactly.
//! - No dead-letter place (the failure returns to the workflow); retention is the
//!   namespace's, for closed executions.
//!
//! Texts: `locales/worker/target-temporal.yml`.

use super::kit;
use super::knobs::{self, Knobs};
use super::schedule::Delay;
use super::{header, mapping, versions};
use super::{
    text, Built, DefaultPolicy, Format, Gap, Instead, MappingRow, Schedule, TargetError, TargetId,
};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::retry_window::ceiling_ms;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, RetrySpec};
use crate::text::t;

const TARGET: TargetId = TargetId::Temporal;

/// Temporal's default `InitialInterval`, in ms.
pub const DEFAULT_INITIAL_MS: u64 = 1_000;
/// Temporal's default `BackoffCoefficient`.
pub const DEFAULT_COEFFICIENT: f64 = 2.0;
/// The default `MaximumInterval` is this many times the initial interval.
pub const DEFAULT_MAX_INTERVAL_FACTOR: u64 = 100;
/// How many delays the unlimited default schedule lists.
const DEFAULT_LISTED: u32 = 20;

/// A RetryPolicy as the export writes it (intervals in ms; `maximum_attempts` 0 =
/// unlimited).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// `InitialInterval`, ms.
    pub initial_ms: u64,
    /// `BackoffCoefficient` (≥ 1).
    pub coefficient: f64,
    /// `MaximumInterval`, ms.
    pub maximum_ms: u64,
    /// `MaximumAttempts`, including the first; 0 = unlimited.
    pub maximum_attempts: u32,
}

impl RetryPolicy {
    /// The wait after failed attempt `n` (1 first), in seconds: `min(max, initial · c^(n−1))`.
    pub fn interval_s(&self, n: u32) -> f64 {
        let i = self.initial_ms as f64 * self.coefficient.powi(n.saturating_sub(1) as i32);
        i.min(self.maximum_ms as f64) / 1000.0
    }

    /// Its schedule: bounded by `maximum_attempts`, or the first `DEFAULT_LISTED` delays of
    /// an unlimited one.
    pub fn schedule(&self) -> Schedule {
        let d = |n: u32| Delay::fixed(self.interval_s(n));
        if self.maximum_attempts == 0 {
            Schedule::unlimited((1..=DEFAULT_LISTED).map(d).collect())
        } else {
            Schedule::bounded((1..self.maximum_attempts).map(d).collect())
        }
    }
}

/// The policy for the sheet's wait: exponential as it is (coefficient 2); fixed with
/// coefficient 1; polynomial fitted with a geometric coefficient through its first and last
/// waits (rounded to 2 decimals), capped at the cap.
pub fn policy(r: &RetrySpec) -> RetryPolicy {
    let b = &r.backoff;
    let (initial_ms, coefficient, maximum_ms) = match b.kind {
        BackoffKind::Exponential => (b.base_ms, 2.0, b.cap_ms.max(b.base_ms)),
        BackoffKind::Fixed => (b.base_ms, 1.0, b.base_ms),
        BackoffKind::Polynomial(_) => {
            let retries = r.max_attempts.saturating_sub(1);
            let first = ceiling_ms(b, 0).max(1);
            let last = ceiling_ms(b, retries.saturating_sub(1)).max(first);
            let c = if retries >= 2 {
                (last as f64 / first as f64).powf(1.0 / f64::from(retries - 1))
            } else {
                2.0
            };
            let c = ((c * 100.0).round() / 100.0).max(1.0);
            (first, c, b.cap_ms.max(first))
        }
    };
    RetryPolicy {
        initial_ms: initial_ms.max(1),
        coefficient,
        maximum_ms: maximum_ms.max(initial_ms.max(1)),
        maximum_attempts: r.max_attempts,
    }
}

/// Temporal's default activity retry policy: unlimited attempts, 1 s × 2^(n−1) up to 100 s,
/// no jitter; the window is unbounded (its first delays computed from the formula).
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let p = RetryPolicy {
        initial_ms: DEFAULT_INITIAL_MS,
        coefficient: DEFAULT_COEFFICIENT,
        maximum_ms: DEFAULT_INITIAL_MS * DEFAULT_MAX_INTERVAL_FACTOR,
        maximum_attempts: 0,
    };
    DefaultPolicy {
        summary: t!("target.temporal.defaults", locale = lang.code()).into_owned(),
        attempts: None,
        schedule: p.schedule(),
    }
}

fn checked(sheet: &JobSheet) -> Result<&RetrySpec, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    if r.max_attempts == 0 {
        // Temporal reads 0 as "unlimited".
        return Err(TargetError::OutOfRange {
            target: TARGET,
            field: FieldId::MaxAttempts,
            value: "0".to_owned(),
            allowed: "1 .. 2,147,483,647 (0 means unlimited)".to_owned(),
        });
    }
    Ok(r)
}

/// Whether `s` is what Temporal's Go SDK compares `NonRetryableErrorTypes` with: an
/// `ApplicationError`'s type, or a Go error's type name without package or `*` (`PgError`).
fn is_go_type(s: &str) -> bool {
    !s.contains("::") && text::is_ruby_constant(s)
}

/// Builds the activity options for `sheet` in Go or TypeScript.
///
/// # Errors
/// [`TargetError::NotApplicable`] without a retry section; [`TargetError::OutOfRange`] for
/// 0 attempts (Temporal's 0 means unlimited).
pub fn build(sheet: &JobSheet, format: Format, lang: Lang) -> Result<Built, TargetError> {
    let r = checked(sheet)?;
    let plan = Plan {
        sheet,
        r,
        lang,
        policy: policy(r),
    };
    Ok(Built {
        text: if format == Format::TypeScript {
            plan.typescript()
        } else {
            plan.go()
        },
        mapping: plan.mapping(format),
        gaps: plan.gaps(),
        actual: plan.policy.schedule(),
    })
}

/// One run of the exported policy (no randomness: Temporal adds no jitter).
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, _u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let p = policy(checked(sheet)?);
    Ok((1..p.maximum_attempts).map(|n| p.interval_s(n)).collect())
}

/// A duration for the TypeScript SDK (`ms`-style strings): `'30s'`, `'10m'`, `'1500ms'`.
fn ts_duration(ms: u64) -> String {
    let (n, unit) = if ms.is_multiple_of(86_400_000) {
        (ms / 86_400_000, "d")
    } else if ms.is_multiple_of(3_600_000) {
        (ms / 3_600_000, "h")
    } else if ms.is_multiple_of(60_000) {
        (ms / 60_000, "m")
    } else if ms.is_multiple_of(1000) {
        (ms / 1000, "s")
    } else {
        (ms, "ms")
    };
    format!("'{n}{unit}'")
}

/// What the export writes.
struct Plan<'a> {
    sheet: &'a JobSheet,
    r: &'a RetrySpec,
    lang: Lang,
    policy: RetryPolicy,
}

impl Plan<'_> {
    fn tr(&self, key: &str) -> String {
        t!(key, locale = self.lang.code()).into_owned()
    }

    fn coefficient(&self) -> String {
        kit::float_literal(self.policy.coefficient)
    }

    fn go(&self) -> String {
        let p = &self.policy;
        let name = text::camel_ident(&self.sheet.process.code_name);
        let mut o = header::write(
            "//",
            versions::header_line(TARGET, None, self.lang),
            header::sentences(self.sheet, TARGET, self.lang),
        );
        let knobs = self.worker_knobs(Format::Go);
        o.push_str(&format!(
            "\npackage workflows\n\nimport (\n\t\"time\"\n\n\t\"go.temporal.io/sdk/temporal\"\n{}\t\"go.temporal.io/sdk/workflow\"\n)\n",
            if knobs.is_empty() {
                ""
            } else {
                "\t\"go.temporal.io/sdk/worker\"\n"
            }
        ));
        let (names, texts) = kit::split_classes(&self.r.non_retryable_errors, is_go_type);
        let errors = names
            .iter()
            .map(|e| text::dq(e))
            .collect::<Vec<_>>()
            .join(", ");
        let policy = kit::go_fields(
            "\t\t\t",
            &[
                ("InitialInterval", kit::go_duration(p.initial_ms)),
                ("BackoffCoefficient", self.coefficient()),
                ("MaximumInterval", kit::go_duration(p.maximum_ms)),
                ("MaximumAttempts", p.maximum_attempts.to_string()),
                ("NonRetryableErrorTypes", format!("[]string{{{errors}}}")),
            ],
        );
        let timeouts = kit::go_fields(
            "\t\t",
            &[
                (
                    "StartToCloseTimeout",
                    kit::go_duration(self.r.attempt_timeout_ms),
                ),
                ("HeartbeatTimeout", kit::go_duration(self.r.lease_ms)),
            ],
        );
        o.push_str(&format!(
            "\n// {name}ActivityOptions: {}\n{}func {name}ActivityOptions() workflow.ActivityOptions {{\n\treturn workflow.ActivityOptions{{\n{timeouts}\t\tRetryPolicy: &temporal.RetryPolicy{{\n{policy}\t\t}},\n\t}}\n}}\n",
            self.tr("target.temporal.code.options"),
            kit::described_lines(&texts, "// ", "PgError", self.lang)
        ));
        if !knobs.is_empty() {
            o.push_str(&format!(
                "\n// {name}WorkerOptions: {}\nfunc {name}WorkerOptions() worker.Options {{\n\treturn worker.Options{{\n{}\t}}\n}}\n",
                self.worker_comment(Format::Go),
                kit::go_fields("\t\t", &knobs)
            ));
        }
        o
    }

    /// The worker's options for the load section, as (key, value) in `format`'s names:
    /// activities at once per worker, and the task queue's activities per second (enforced by
    /// the server for all workers). Empty without them.
    fn worker_knobs(&self, format: Format) -> Vec<(&'static str, String)> {
        let Some(k) = Knobs::of(self.sheet) else {
            return Vec::new();
        };
        let ts = format == Format::TypeScript;
        let mut out = Vec::new();
        if k.sized() {
            out.push((
                if ts {
                    "maxConcurrentActivityTaskExecutions"
                } else {
                    "MaxConcurrentActivityExecutionSize"
                },
                k.per_worker().to_string(),
            ));
        }
        if let Some(r) = k.our_limit {
            out.push((
                if ts {
                    "maxTaskQueueActivitiesPerSecond"
                } else {
                    "TaskQueueActivitiesPerSecond"
                },
                knobs::per_s_literal(r),
            ));
        }
        out
    }

    /// The comment above the worker's options (`format`: what takes them).
    fn worker_comment(&self, format: Format) -> String {
        let k = Knobs::of(self.sheet);
        let key = if format == Format::TypeScript {
            "target.load.temporal.options-code-ts"
        } else {
            "target.load.temporal.options-code"
        };
        text::comment(&t!(
            key,
            locale = self.lang.code(),
            workers = k.map_or(1, |k| k.workers()),
            each = k.map_or(1, |k| k.per_worker())
        ))
    }

    fn typescript(&self) -> String {
        let p = &self.policy;
        let name = text::camel_ident(&self.sheet.process.code_name);
        let mut lower = name.chars();
        let var = lower
            .next()
            .map(|f| f.to_ascii_lowercase().to_string() + lower.as_str())
            .unwrap_or_default();
        let mut o = header::write(
            "//",
            versions::header_line(TARGET, None, self.lang),
            header::sentences(self.sheet, TARGET, self.lang),
        );
        o.push_str("\nimport type { ActivityOptions } from '@temporalio/common'\n");
        if !self.worker_knobs(Format::TypeScript).is_empty() {
            o.push_str("import type { WorkerOptions } from '@temporalio/worker'\n");
        }
        o.push_str(&format!(
            "\n// {}\nexport const {var}ActivityOptions: ActivityOptions = {{\n  startToCloseTimeout: {},\n  heartbeatTimeout: {},\n  retry: {{\n    initialInterval: {},\n    backoffCoefficient: {},\n    maximumInterval: {},\n    maximumAttempts: {},\n    nonRetryableErrorTypes: [\n",
            self.tr("target.temporal.code.options"),
            ts_duration(self.r.attempt_timeout_ms),
            ts_duration(self.r.lease_ms),
            ts_duration(p.initial_ms),
            self.coefficient(),
            ts_duration(p.maximum_ms),
            p.maximum_attempts
        ));
        let (names, texts) =
            kit::split_classes(&self.r.non_retryable_errors, text::is_js_error_name);
        o.push_str(&kit::described_lines(
            &texts,
            "      // ",
            "ValidationError",
            self.lang,
        ));
        for e in &names {
            o.push_str(&format!("      {},\n", text::dq(e)));
        }
        o.push_str("    ],\n  },\n}\n");
        let knobs = self.worker_knobs(Format::TypeScript);
        if !knobs.is_empty() {
            o.push_str(&format!(
                "\n// {}\nexport const {var}WorkerOptions: Partial<WorkerOptions> = {{\n",
                self.worker_comment(Format::TypeScript)
            ));
            for (key, value) in knobs {
                o.push_str(&format!("  {key}: {value},\n"));
            }
            o.push_str("}\n");
        }
        o
    }

    fn mapping(&self, format: Format) -> Vec<MappingRow> {
        let (l, r, row, p) = (self.lang, self.r, mapping::row, &self.policy);
        let ts = format == Format::TypeScript;
        let dur = |ms: u64| {
            if ts {
                ts_duration(ms)
            } else {
                kit::go_duration(ms)
            }
        };
        let key = |go: &str, t: &str| if ts { t.to_owned() } else { go.to_owned() };
        let mut m = vec![
            row(
                FieldId::MaxAttempts,
                r.max_attempts.to_string(),
                &key("MaximumAttempts", "maximumAttempts"),
                p.maximum_attempts.to_string(),
                self.tr("target.temporal.map.max-attempts"),
            ),
            row(
                FieldId::WaitStrategy,
                describe_backoff(&r.backoff, l),
                &key(
                    "InitialInterval, BackoffCoefficient, MaximumInterval",
                    "initialInterval, backoffCoefficient, maximumInterval",
                ),
                format!(
                    "{}, {}, {}",
                    dur(p.initial_ms),
                    self.coefficient(),
                    dur(p.maximum_ms)
                ),
                self.tr("target.temporal.map.backoff"),
            ),
            row(
                FieldId::Timeout,
                exact(r.attempt_timeout_ms, l),
                &key("StartToCloseTimeout", "startToCloseTimeout"),
                dur(r.attempt_timeout_ms),
                self.tr("target.temporal.map.timeout"),
            ),
            mapping::lease_row(
                exact(r.lease_ms, l),
                &key("HeartbeatTimeout", "heartbeatTimeout"),
                dur(r.lease_ms),
                self.tr("target.temporal.map.lease"),
            ),
            row(
                FieldId::IdempotencyKey,
                r.idempotency_key.clone(),
                "",
                String::new(),
                self.tr("target.temporal.map.key"),
            ),
            row(
                FieldId::RetryableErrors,
                kit::list_text(&r.retryable_errors, l),
                "",
                String::new(),
                self.tr("target.temporal.map.retryable"),
            ),
            row(
                FieldId::NonRetryableErrors,
                kit::list_text(&r.non_retryable_errors, l),
                &key("NonRetryableErrorTypes", "nonRetryableErrorTypes"),
                kit::split_classes(
                    &r.non_retryable_errors,
                    if format == Format::TypeScript {
                        text::is_js_error_name
                    } else {
                        is_go_type
                    },
                )
                .0
                .join(", "),
                self.tr("target.temporal.map.permanent"),
            ),
        ];
        if let Some(f) = &self.sheet.failure {
            m.push(row(
                FieldId::DeadLetter,
                f.dead_letter.clone(),
                "",
                String::new(),
                self.tr("target.temporal.map.dead-letter"),
            ));
            m.push(row(
                FieldId::Retention,
                kit::retention_text(self.sheet, l),
                "",
                String::new(),
                self.tr("target.temporal.map.retention"),
            ));
        }
        m.push(row(
            FieldId::QueueRetention,
            kit::queue_retention_text(r, l),
            "",
            String::new(),
            self.tr("target.temporal.map.queue-retention"),
        ));
        m.extend(mapping::layers_row(
            r,
            kit::layers_text,
            "",
            kit::layers_note(l),
        ));
        m.extend(self.load_rows(format));
        m
    }

    /// The load section's rows: the worker's options for the sheet's workers and rate, the
    /// downstream's limits.
    fn load_rows(&self, format: Format) -> Vec<MappingRow> {
        let Some(k) = Knobs::of(self.sheet) else {
            return Vec::new();
        };
        let prefix = if format == Format::TypeScript {
            "WorkerOptions."
        } else {
            "worker.Options."
        };
        let mut m = Vec::new();
        for (key, value) in self.worker_knobs(format) {
            let (field, note) = if key.ends_with("PerSecond") {
                (FieldId::OurLimit, "rate")
            } else {
                (FieldId::Workers, "workers")
            };
            m.push(knobs::knob_row(
                field,
                &k,
                &format!("{prefix}{key}"),
                value,
                ("temporal", note),
                self.lang,
            ));
        }
        m.extend(knobs::downstream_row(self.sheet, self.lang));
        m
    }

    fn gaps(&self) -> Vec<Gap> {
        let (r, b) = (self.r, &self.r.backoff);
        let gap =
            |field, key: &str, instead| mapping::gap(field, self.tr(key), instead, String::new());
        let mut g = Vec::new();
        if b.jitter != Jitter::None {
            g.push(gap(
                FieldId::WaitStrategy,
                "target.temporal.gap.jitter",
                Instead::Nothing,
            ));
        }
        if matches!(b.kind, BackoffKind::Polynomial(_)) {
            g.push(gap(
                FieldId::WaitStrategy,
                "target.temporal.gap.polynomial",
                Instead::Nothing,
            ));
        }
        if !r.retryable_errors.is_empty() {
            g.push(gap(
                FieldId::RetryableErrors,
                "target.temporal.gap.retryable",
                Instead::Comment,
            ));
        }
        if r.non_retryable_errors
            .iter()
            .any(|e| !e.trim().is_empty() && !is_go_type(e.trim()))
        {
            g.push(gap(
                FieldId::NonRetryableErrors,
                "target.temporal.gap.permanent-texts",
                Instead::Comment,
            ));
        }
        g.push(gap(
            FieldId::IdempotencyKey,
            "target.temporal.gap.key",
            Instead::Comment,
        ));
        if let Some(f) = &self.sheet.failure {
            g.push(gap(
                FieldId::DeadLetter,
                "target.temporal.gap.dead-letter",
                Instead::Comment,
            ));
            if !f.notify.trim().is_empty() {
                g.push(gap(
                    FieldId::Notify,
                    "target.temporal.gap.notify",
                    Instead::Comment,
                ));
            }
            g.push(gap(
                FieldId::Retention,
                "target.temporal.gap.retention",
                Instead::Nothing,
            ));
        }
        if r.queue_retention_ms.is_some() {
            g.push(gap(
                FieldId::QueueRetention,
                "target.temporal.gap.queue-retention",
                Instead::Nothing,
            ));
        }
        g
    }
}

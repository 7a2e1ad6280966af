//! Active Job `retry_on` / `discard_on` on Solid Queue (Ruby): a job class with the sheet's
//! attempts and wait, permanent errors re-raised at once, and Solid Queue's retention.
//! Facts: `brief/QUEUES.md` §9 (rails/rails@2a2db1e activejob/lib/active_job/exceptions.rb;
//! rails/solid_queue@29e818d, v1.5.0):
//!
//! - `retry_on … attempts:` counts **attempts** including the first (default 5); the counter
//!   `executions` is 1 at the first failure. After the last attempt the error is re-raised to
//!   the backend (Solid Queue keeps it as a failed execution until someone acts).
//! - `wait:` a number / Duration (`d + rand · d · jitter`, jitter upward only, 0.0 unless
//!   Rails ≥ 6.1 defaults set 0.15), `:polynomially_longer` (`n⁴ + 2` + the same jitter) or a
//!   Proc `(executions)` whose result is used as is (no jitter added).
//! - Handlers are searched bottom to top: a `discard_on` after `retry_on` wins for its class.
//! - Solid Queue has no retries, no lease and no attempt timeout: jobs of a worker whose
//!   heartbeat stops are marked **failed** (`ProcessPrunedError`), not run again.
//!
//! - Rails 6.1 – 7.0 ([`TargetVersion::ActiveJob61`], read from Debian's 6.1.7) name the
//!   `n⁴ + 2` wait `:exponentially_longer` (`:polynomially_longer` raises "Couldn't determine
//!   a delay" there, and the job is not retried), and take a wait as a Duration or an Integer
//!   truncated by `to_i`: that export writes a wait of a fraction of a second as a Proc.
//!
//! Texts: `locales/worker/target-active-job.yml`.

use super::kit;
use super::knobs::{self, Knobs};
use super::schedule::{of_sheet, Delay};
use super::{header, mapping, versions};
use super::{
    text, Built, DefaultPolicy, Format, Gap, Instead, MappingRow, Schedule, TargetError, TargetId,
    TargetVersion,
};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::{
    BackoffKind, BackoffPolicy, FieldId, Jitter, JobSheet, Keep, RetrySpec,
};
use crate::text::t;

const TARGET: TargetId = TargetId::ActiveJob;

/// `retry_on`'s default `attempts:`.
pub const DEFAULT_ATTEMPTS: u32 = 5;
/// `retry_on`'s default `wait:`, in seconds.
pub const DEFAULT_WAIT_S: f64 = 3.0;
/// The jitter Rails ≥ 6.1 defaults set (`active_job.retry_jitter`); the class default is 0.0.
pub const DEFAULT_JITTER: f64 = 0.15;

/// Ruby's reserved words (lower-case ones: the only ones a `snake_case` name can hit).
const RUBY_KEYWORDS: [&str; 38] = [
    "alias",
    "and",
    "begin",
    "break",
    "case",
    "class",
    "def",
    "defined",
    "do",
    "else",
    "elsif",
    "end",
    "ensure",
    "false",
    "for",
    "if",
    "in",
    "module",
    "next",
    "nil",
    "not",
    "or",
    "redo",
    "rescue",
    "retry",
    "return",
    "self",
    "super",
    "then",
    "true",
    "undef",
    "unless",
    "until",
    "when",
    "while",
    "yield",
    "__method__",
    "__dir__",
];

/// A wait of `d` s with the jitter Rails ≥ 6.1 adds by default: `d + rand · d · 0.15`
/// (upward only).
pub fn with_default_jitter(d: f64) -> Delay {
    with_default_jitter_over(d, 0.0)
}

/// The seconds of `:polynomially_longer`'s wait that take no jitter: Rails computes
/// `delay = executions⁴; delay + rand · delay · jitter + 2` (`determine_delay` in
/// `active_job/exceptions.rb`, 6.1 to 8.x), so the 2 s are outside the jitter.
pub const POLYNOMIAL_FIXED_S: f64 = 2.0;

/// A wait of `d` s whose last `fixed` s take no jitter, with the jitter Rails ≥ 6.1 adds by
/// default: `(d − fixed) · (1 + rand · 0.15) + fixed` — for `:polynomially_longer` at
/// retry 1, 3 … 3.15 s; at retry 2, 18 … 20.4 s.
pub fn with_default_jitter_over(d: f64, fixed: f64) -> Delay {
    let jittered = (d - fixed).max(0.0);
    Delay {
        min_s: d,
        expected_s: d + jittered * DEFAULT_JITTER / 2.0,
        max_s: d + jittered * DEFAULT_JITTER,
    }
}

/// `retry_on`'s defaults as a Rails ≥ 6.1 app runs them: 5 attempts, 3 s + 0 … 15 %; its
/// window computed from `d + rand · d · 0.15`.
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let delays = (1..DEFAULT_ATTEMPTS)
        .map(|_| with_default_jitter(DEFAULT_WAIT_S))
        .collect();
    DefaultPolicy {
        summary: t!("target.active-job.defaults", locale = lang.code()).into_owned(),
        attempts: Some(DEFAULT_ATTEMPTS),
        schedule: Schedule::bounded(delays),
    }
}

/// Builds the Active Job class for `sheet`.
///
/// # Errors
/// [`TargetError::NotApplicable`] without a retry section; [`TargetError::OutOfRange`] for
/// 0 attempts.
pub fn build(
    sheet: &JobSheet,
    _format: Format,
    version: Option<TargetVersion>,
    lang: Lang,
) -> Result<Built, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    kit::check_attempts(r, TARGET)?;
    let plan = Plan::new(sheet, r, older(version), lang);
    Ok(Built {
        text: plan.text(),
        mapping: plan.mapping(),
        gaps: plan.gaps(),
        // The wait written is the sheet's formula in float seconds (a Duration, the built-in
        // polynomial without jitter, or a Proc): the sheet's own schedule.
        actual: of_sheet(sheet),
    })
}

/// One sampled run of the exported `wait:`, in seconds, as the Ruby code draws it; for
/// decorrelated jitter each call replays a fresh chain of `executions` draws.
///
/// # Errors
/// As [`build`].
pub fn sample(
    sheet: &JobSheet,
    _version: Option<TargetVersion>,
    u: &mut dyn FnMut() -> f64,
) -> Result<Vec<f64>, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    kit::check_attempts(r, TARGET)?;
    let b = &r.backoff;
    if b.jitter != Jitter::Decorrelated {
        return Ok(kit::sheet_run_ms(b, r.max_attempts - 1, u)
            .into_iter()
            .map(|ms| ms / 1000.0)
            .collect());
    }
    let (base, cap) = (b.base_ms as f64, b.cap_ms.max(b.base_ms) as f64);
    Ok((1..r.max_attempts)
        .map(|executions| {
            let mut prev = base;
            for _ in 0..executions {
                prev = (base + u() * (3.0 * prev - base)).min(cap);
            }
            prev / 1000.0
        })
        .collect())
}

/// Whether `version` is Rails 6.1 – 7.0 (`None`: the newest).
fn older(version: Option<TargetVersion>) -> bool {
    version == Some(TargetVersion::ActiveJob61)
}

/// The name of the built-in `n⁴ + 2` wait: `:polynomially_longer` from Rails 7.1,
/// `:exponentially_longer` before.
fn polynomial_name(old: bool) -> &'static str {
    if old {
        ":exponentially_longer"
    } else {
        ":polynomially_longer"
    }
}

/// The `wait:` argument for the sheet's policy and whether it is a Proc; `old`: for Rails
/// 6.1 – 7.0.
fn wait_arg(b: &BackoffPolicy, retries: u32, old: bool) -> (String, bool) {
    let f = |ms: u64| {
        let x = kit::secs_literal(ms);
        if x.contains('.') {
            x
        } else {
            format!("{x}.0")
        }
    };
    // `:polynomially_longer` without jitter is n⁴ + 2 s, n = executions (1 first): the sheet's
    // polynomial of exponent 4 from n = 1 plus 2 s, when the cap never bites.
    if let BackoffKind::Polynomial(p) = b.kind {
        let uncapped = 2_000
            + u64::from(retries.max(1))
                .saturating_pow(4)
                .saturating_mul(1000);
        if p.exponent == 4
            && p.first_n == 1
            && b.base_ms == 2_000
            && b.jitter == Jitter::None
            && b.cap_ms >= uncapped
        {
            return (format!("{}, jitter: 0.0", polynomial_name(old)), false);
        }
    }
    // Rails before 7.1 truncates a Duration to whole seconds (`to_i`): a Proc keeps the rest.
    let whole = b.base_ms.is_multiple_of(1000);
    if b.kind == BackoffKind::Fixed && b.jitter == Jitter::None && (whole || !old) {
        return (
            format!("{}.seconds, jitter: 0.0", kit::secs_literal(b.base_ms)),
            false,
        );
    }
    let (base, cap) = (f(b.base_ms), f(b.cap_ms));
    let t = match b.kind {
        BackoffKind::Fixed => base.clone(),
        BackoffKind::Exponential => format!("[{base} * 2**(executions - 1), {cap}].min"),
        BackoffKind::Polynomial(p) => format!(
            "[{base} + (executions - 1 + {})**{}, {cap}].min",
            p.first_n, p.exponent
        ),
    };
    let body = match b.jitter {
        Jitter::None => t,
        Jitter::Full => format!("Kernel.rand * {t}"),
        Jitter::Equal => format!("t = {t}; t / 2 + Kernel.rand * t / 2"),
        Jitter::Decorrelated => {
            let cap = f(b.cap_ms.max(b.base_ms));
            format!("executions.times.reduce({base}) {{ |prev, _| [{base} + Kernel.rand * (3 * prev - {base}), {cap}].min }}")
        }
    };
    (format!("->(executions) {{ {body} }}"), true)
}

/// What the export writes, computed once.
struct Plan<'a> {
    sheet: &'a JobSheet,
    r: &'a RetrySpec,
    lang: Lang,
    args: Vec<String>,
    retry_classes: Vec<String>,
    retry_texts: Vec<String>,
    permanent: (Vec<String>, Vec<String>),
    wait: (String, bool),
    old: bool,
}

impl<'a> Plan<'a> {
    fn new(sheet: &'a JobSheet, r: &'a RetrySpec, old: bool, lang: Lang) -> Plan<'a> {
        let (retry_classes, retry_texts) =
            kit::split_classes(&r.retryable_errors, text::is_ruby_constant);
        Plan {
            sheet,
            r,
            lang,
            args: kit::arg_idents(sheet, &RUBY_KEYWORDS),
            retry_classes,
            retry_texts,
            permanent: kit::split_classes(&r.non_retryable_errors, text::is_ruby_constant),
            wait: wait_arg(&r.backoff, r.max_attempts.saturating_sub(1), old),
            old,
        }
    }

    fn tr(&self, key: &str) -> String {
        t!(key, locale = self.lang.code()).into_owned()
    }

    /// The classes `retry_on` names: the sheet's retryable errors when all are constants,
    /// else `StandardError`.
    fn retry_on(&self) -> String {
        if self.retry_classes.is_empty() || !self.retry_texts.is_empty() {
            "StandardError".to_owned()
        } else {
            self.retry_classes.join(", ")
        }
    }

    fn text(&self) -> String {
        let c = text::comment;
        let r = self.r;
        // A fixed first line: Ruby reads an encoding magic comment only on line 1, so user
        // text in the header (e.g. `-*- coding: x -*-`) cannot become one.
        let mut o = "# frozen_string_literal: true\n\n".to_owned();
        o.push_str(&header::write(
            "#",
            versions::header_line(
                TARGET,
                self.old.then_some(TargetVersion::ActiveJob61),
                self.lang,
            ),
            header::sentences(self.sheet, TARGET, self.lang),
        ));
        let class = text::job_class(&self.sheet.process.code_name);
        o.push_str(&format!(
            "\nclass {class} < ApplicationJob\n  queue_as :{}\n\n",
            text::snake_ident(&self.sheet.process.code_name)
        ));
        o.push_str(&format!(
            "  # {}\n  ATTEMPTS = {}\n",
            self.tr("target.active-job.code.attempts"),
            r.max_attempts
        ));
        if self.wait.1 {
            o.push_str(&format!(
                "  # {}\n  WAIT = {}\n",
                self.tr("target.active-job.code.wait"),
                self.wait.0
            ));
        }
        o.push_str(&format!(
            "  # {}\n  ATTEMPT_TIMEOUT = {}\n\n",
            self.tr("target.active-job.code.timeout"),
            kit::secs_literal(r.attempt_timeout_ms)
        ));
        o.push_str(&format!(
            "  # {}\n",
            self.tr("target.active-job.code.retried")
        ));
        for e in &r.retryable_errors {
            o.push_str(&format!("  #   - {}\n", c(e)));
        }
        let wait = if self.wait.1 {
            "WAIT"
        } else {
            self.wait.0.as_str()
        };
        o.push_str(&format!(
            "  retry_on {}, wait: {wait}, attempts: ATTEMPTS\n\n",
            self.retry_on()
        ));
        o.push_str(&format!(
            "  # {}\n",
            self.tr("target.active-job.code.permanent")
        ));
        for e in &self.permanent.0 {
            o.push_str(&format!("  #   - {}\n", c(e)));
        }
        o.push_str(&kit::described_lines(
            &self.permanent.1,
            "  # ",
            "ActiveRecord::RecordInvalid",
            self.lang,
        ));
        if !self.permanent.0.is_empty() {
            o.push_str(&format!(
                "  discard_on({}) {{ |_job, error| raise error }}\n",
                self.permanent.0.join(", ")
            ));
        }
        o.push_str(&format!(
            "\n  def perform({})\n    # {}\n  end\nend\n",
            self.args.join(", "),
            self.tr("target.active-job.code.work")
        ));
        o.push_str(&self.config());
        o
    }

    fn config(&self) -> String {
        let mut o = format!(
            "\n# {}\nRails.application.configure do\n",
            self.tr("target.active-job.code.config")
        );
        match self.sheet.failure.as_ref().map(|f| f.retention.done) {
            Some(Keep::Days(d)) => o.push_str(&format!(
                "  config.solid_queue.preserve_finished_jobs = true\n  config.solid_queue.clear_finished_jobs_after = {d}.days\n"
            )),
            Some(Keep::UntilHandled) => {
                o.push_str("  config.solid_queue.preserve_finished_jobs = true\n")
            }
            None => {}
        }
        o.push_str("  config.active_job.queue_adapter = :solid_queue\nend\n");
        o.push_str(&self.queue_yml());
        o
    }

    /// Solid Queue's worker settings for the sheet's workers, as comment lines of
    /// `config/queue.yml` (a YAML file; this export is Ruby). Empty without them.
    fn queue_yml(&self) -> String {
        let Some(k) = Knobs::of(self.sheet).filter(Knobs::sized) else {
            return String::new();
        };
        format!(
            "\n# {}\n#   workers:\n#     - queues: {}\n#       threads: {}\n#       processes: {}\n",
            text::comment(&t!(
                "target.load.active-job.queue-yml-code",
                locale = self.lang.code(),
                workers = k.workers(),
                each = k.per_worker()
            )),
            text::snake_ident(&self.sheet.process.code_name),
            k.per_worker(),
            k.workers()
        )
    }

    fn mapping(&self) -> Vec<MappingRow> {
        let (l, r, row) = (self.lang, self.r, mapping::row);
        let mut m = vec![
            row(
                FieldId::MaxAttempts,
                r.max_attempts.to_string(),
                "retry_on attempts:",
                r.max_attempts.to_string(),
                self.tr("target.active-job.map.max-attempts"),
            ),
            row(
                FieldId::WaitStrategy,
                describe_backoff(&r.backoff, l),
                "retry_on wait:, jitter:",
                self.wait.0.clone(),
                if self.wait.1 {
                    self.tr("target.active-job.map.wait-proc")
                } else {
                    t!(
                        "target.active-job.map.wait",
                        locale = l.code(),
                        poly = polynomial_name(self.old)
                    )
                    .into_owned()
                },
            ),
            row(
                FieldId::Timeout,
                exact(r.attempt_timeout_ms, l),
                "ATTEMPT_TIMEOUT",
                kit::secs_literal(r.attempt_timeout_ms),
                self.tr("target.active-job.map.timeout"),
            ),
            mapping::lease_row(
                exact(r.lease_ms, l),
                "",
                String::new(),
                self.tr("target.active-job.map.lease"),
            ),
            row(
                FieldId::IdempotencyKey,
                r.idempotency_key.clone(),
                "",
                String::new(),
                self.tr("target.active-job.map.key"),
            ),
            row(
                FieldId::RetryableErrors,
                kit::list_text(&r.retryable_errors, l),
                "retry_on",
                self.retry_on(),
                self.tr("target.active-job.map.retryable"),
            ),
            row(
                FieldId::NonRetryableErrors,
                kit::list_text(&r.non_retryable_errors, l),
                "discard_on { raise }",
                self.permanent.0.join(", "),
                self.tr("target.active-job.map.permanent"),
            ),
        ];
        if let Some(f) = &self.sheet.failure {
            m.push(row(
                FieldId::DeadLetter,
                f.dead_letter.clone(),
                "solid_queue_failed_executions",
                String::new(),
                self.tr("target.active-job.map.dead-letter"),
            ));
            m.push(row(
                FieldId::Retention,
                kit::retention_text(self.sheet, l),
                "config.solid_queue.clear_finished_jobs_after",
                match f.retention.done {
                    Keep::Days(d) => format!("{d}.days"),
                    Keep::UntilHandled => String::new(),
                },
                self.tr("target.active-job.map.retention"),
            ));
        }
        m.push(row(
            FieldId::QueueRetention,
            kit::queue_retention_text(r, l),
            "",
            String::new(),
            self.tr("target.active-job.map.queue-retention"),
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
                    "config/queue.yml workers: threads",
                    k.per_worker().to_string(),
                    ("active-job", "threads"),
                    l,
                ));
                m.push(knobs::knob_row(
                    FieldId::Workers,
                    &k,
                    "config/queue.yml workers: processes",
                    k.workers().to_string(),
                    ("active-job", "processes"),
                    l,
                ));
            }
            m.extend(knobs::downstream_row(self.sheet, l));
        }
        m
    }

    fn gaps(&self) -> Vec<Gap> {
        let (r, b, l) = (self.r, &self.r.backoff, self.lang);
        let gap =
            |field, key: &str, instead, detail| mapping::gap(field, self.tr(key), instead, detail);
        let mut g = Vec::new();
        if self.wait.1 {
            let key = if b.jitter == Jitter::Decorrelated {
                "target.active-job.gap.decorrelated"
            } else {
                "target.active-job.gap.wait"
            };
            g.push(gap(
                FieldId::WaitStrategy,
                key,
                Instead::Callback,
                String::new(),
            ));
        }
        g.push(gap(
            FieldId::Timeout,
            "target.active-job.gap.timeout",
            Instead::Comment,
            String::new(),
        ));
        g.push(mapping::lease_gap(
            self.tr("target.active-job.gap.lease"),
            Instead::Nothing,
            String::new(),
        ));
        g.push(gap(
            FieldId::IdempotencyKey,
            "target.active-job.gap.key",
            Instead::Comment,
            String::new(),
        ));
        if !self.retry_texts.is_empty() {
            g.push(gap(
                FieldId::RetryableErrors,
                "target.active-job.gap.retryable",
                Instead::Comment,
                kit::list_text(&self.retry_texts, l),
            ));
        }
        if !self.permanent.1.is_empty() {
            g.push(gap(
                FieldId::NonRetryableErrors,
                "target.active-job.gap.permanent",
                Instead::Comment,
                kit::list_text(&self.permanent.1, l),
            ));
        }
        if let Some(f) = &self.sheet.failure {
            if !f.notify.trim().is_empty() {
                g.push(gap(
                    FieldId::Notify,
                    "target.active-job.gap.notify",
                    Instead::Comment,
                    String::new(),
                ));
            }
            if let Keep::Days(_) = f.retention.dead {
                g.push(gap(
                    FieldId::Retention,
                    "target.active-job.gap.dead-retention",
                    Instead::Nothing,
                    String::new(),
                ));
            }
        }
        if r.queue_retention_ms.is_some() {
            g.push(gap(
                FieldId::QueueRetention,
                "target.active-job.gap.queue-retention",
                Instead::Nothing,
                String::new(),
            ));
        }
        if let Some(k) = Knobs::of(self.sheet) {
            if k.sized() {
                g.push(knobs::knob_gap(
                    FieldId::Workers,
                    &k,
                    ("active-job", "queue-yml"),
                    Instead::Comment,
                    l,
                ));
            }
            g.extend(knobs::rate_gap("active-job", &k, l));
        }
        g
    }
}

//! Oban (Elixir): a worker module (`use Oban.Worker, queue:, max_attempts:, unique:`, a
//! `backoff/1` callback with the sheet's wait formula, `timeout/1`) and the Pruner / Lifeline
//! configuration. Facts: `brief/QUEUES.md` §6 (oban-bg/oban@2939e31, v2.23.0):
//!
//! - `max_attempts` counts **attempts** including the first (the docs say "retried"; the
//!   executor discards when `attempt >= max_attempts`); `attempt` is 1 at the first failure.
//! - The default backoff is `t = 15 + 2^a` s plus `trunc(U · 0.1 · t)` (0 … +10 %), `a` the
//!   attempt (rescaled to 20 steps when `max_attempts > 20`); a custom `backoff/1` replaces
//!   it wholly and returns **whole seconds**. No sheet states that default (a constant plus
//!   base-2 growth with an upward 10 % jitter), so the export always writes `backoff/1`.
//! - `timeout/1` is in ms (default `:infinity`); there is no lease: the Lifeline plugin
//!   rescues jobs still `executing` after `rescue_after` (ms), without checking the worker.
//! - Exhausted jobs stay in `oban_jobs` as `discarded`; the Pruner (off unless configured)
//!   deletes completed, cancelled and discarded jobs after one `max_age` (s).
//!
//! Texts: `locales/worker/target-oban.yml`.

use super::kit::{self, KeyPart};
use super::knobs::{self, Knobs};
use super::schedule::{of_sheet, Delay};
use super::{header, mapping, versions};
use super::{
    text, Built, DefaultPolicy, Format, Gap, Instead, MappingRow, Schedule, TargetError, TargetId,
};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, Keep, RetrySpec};
use crate::text::t;

const TARGET: TargetId = TargetId::Oban;

/// Oban's default `max_attempts` (lib/oban/job.ex L145).
pub const DEFAULT_MAX_ATTEMPTS: u32 = 20;
/// Oban's default backoff: the constant added to `2^a` seconds (`min_pad`).
pub const DEFAULT_MIN_PAD_S: u64 = 15;
/// Oban's default jitter: up to this fraction of `t`, added (`mode: :inc`, `mult: 0.1`).
pub const DEFAULT_JITTER_MULT: f64 = 0.1;

/// The delay Oban's default `backoff/1` waits after attempt `a` (1-based) of a job with
/// `max_attempts`, before its jitter: `15 + 2^a'` s with `a'` rescaled to 20 steps when
/// `max_attempts > 20` (lib/oban/worker.ex `backoff/1`, lib/oban/backoff.ex).
pub fn default_base_s(a: u32, max_attempts: u32) -> u64 {
    let a = if max_attempts <= 20 {
        a
    } else {
        (f64::from(a) / f64::from(max_attempts) * 20.0).round() as u32
    };
    DEFAULT_MIN_PAD_S + 2u64.pow(a.min(62))
}

/// The range of Oban's default delay of base `t` s: `t + trunc(U · 0.1 · t)`, U in `[0, 1)`.
/// The largest `trunc` is the largest integer below `0.1 · t`; its mean is
/// `(f(f−1)/2 + f(m−f)) / m` with `m = 0.1 · t`, `f = ⌊m⌋`.
pub fn default_delay(t: u64) -> Delay {
    let t = t as f64;
    let m = DEFAULT_JITTER_MULT * t;
    let f = m.floor();
    let max_add = if m == f { (f - 1.0).max(0.0) } else { f };
    let mean_add = if m > 0.0 {
        (f * (f - 1.0) / 2.0 + f * (m - f)) / m
    } else {
        0.0
    };
    Delay {
        min_s: t,
        expected_s: t + mean_add,
        max_s: t + max_add,
    }
}

/// Oban's default policy: 20 attempts, `15 + 2^a` s + 0 … 10 %, its window computed from
/// that formula; nothing pruned, no lease.
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let delays = (1..DEFAULT_MAX_ATTEMPTS)
        .map(|a| default_delay(default_base_s(a, DEFAULT_MAX_ATTEMPTS)))
        .collect();
    DefaultPolicy {
        summary: t!("target.oban.defaults", locale = lang.code()).into_owned(),
        attempts: Some(DEFAULT_MAX_ATTEMPTS),
        schedule: Schedule::bounded(delays),
    }
}

/// Builds the Oban worker and its configuration for `sheet`.
///
/// # Errors
/// [`TargetError::NotApplicable`] without a retry section; [`TargetError::OutOfRange`] for
/// 0 attempts (Oban's `max_attempts` is a positive integer).
pub fn build(sheet: &JobSheet, _format: Format, lang: Lang) -> Result<Built, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    kit::check_attempts(r, TARGET)?;
    let plan = Plan::new(sheet, r, lang);
    Ok(Built {
        text: plan.text(),
        mapping: plan.mapping(),
        gaps: plan.gaps(),
        actual: actual(sheet),
    })
}

/// The schedule the exported `backoff/1` runs: the sheet's waits, each rounded to whole
/// seconds (Oban schedules the retry `backoff` seconds after the failure).
fn actual(sheet: &JobSheet) -> Schedule {
    let delays = of_sheet(sheet)
        .delays
        .iter()
        .map(|d| {
            let (min_s, max_s) = (d.min_s.round(), d.max_s.round());
            Delay {
                min_s,
                expected_s: d.expected_s.clamp(min_s, max_s),
                max_s,
            }
        })
        .collect();
    Schedule::bounded(delays)
}

/// One sampled run of the exported `backoff/1`: the sheet's formula in ms, then
/// `round(ms / 1000)` as the Elixir code does.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    kit::check_attempts(r, TARGET)?;
    Ok(kit::sheet_run_ms(&r.backoff, r.max_attempts - 1, u)
        .into_iter()
        .map(|ms| (ms / 1000.0).round())
        .collect())
}

/// Whether `s` is an Elixir module alias (`MyApp.Mailer.BadAddress`): dot-separated parts,
/// each an upper-case ASCII letter then letters, digits or `_`.
fn is_alias(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|p| {
            let mut c = p.chars();
            c.next().is_some_and(|f| f.is_ascii_uppercase())
                && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        })
}

/// What the export writes, computed once.
struct Plan<'a> {
    sheet: &'a JobSheet,
    r: &'a RetrySpec,
    lang: Lang,
    queue: String,
    args: Vec<String>,
    key: Vec<KeyPart>,
    permanent: (Vec<String>, Vec<String>),
    /// The Pruner's `max_age` in seconds; `None`: not configured (keep everything).
    prune_s: Option<u64>,
}

impl<'a> Plan<'a> {
    fn new(sheet: &'a JobSheet, r: &'a RetrySpec, lang: Lang) -> Plan<'a> {
        let prune_s = match sheet.failure.as_ref().map(|f| f.retention.done) {
            Some(Keep::Days(d)) => Some(u64::from(d) * 86_400),
            _ => None,
        };
        Plan {
            sheet,
            r,
            lang,
            queue: text::snake_ident(&sheet.process.code_name),
            args: kit::arg_idents(sheet, &[]),
            key: kit::key_parts(sheet, r),
            permanent: kit::split_classes(&r.non_retryable_errors, is_alias),
            prune_s,
        }
    }

    fn tr(&self, key: &str) -> String {
        t!(key, locale = self.lang.code()).into_owned()
    }

    /// `unique: [...]` on the key's argument parts, or `None` when the key names none.
    fn unique(&self) -> Option<String> {
        let mut keys: Vec<String> = Vec::new();
        for p in &self.key {
            if let KeyPart::Arg(i) = p {
                let k = format!(":{}", self.args[*i]);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        (!keys.is_empty()).then(|| {
            format!(
                "[fields: [:args, :worker], keys: [{}], period: :infinity]",
                keys.join(", ")
            )
        })
    }

    fn text(&self) -> String {
        let c = text::comment;
        let mut o = header::write(
            "#",
            versions::header_line(TARGET, None, self.lang),
            header::sentences(self.sheet, TARGET, self.lang),
        );
        let module = text::camel_ident(&self.sheet.process.code_name);
        o.push_str(&format!("\ndefmodule MyApp.Workers.{module} do\n"));
        o.push_str(&format!(
            "  use Oban.Worker,\n    queue: :{},\n    max_attempts: {}",
            self.queue, self.r.max_attempts
        ));
        match self.unique() {
            Some(u) => o.push_str(&format!(",\n    unique: {u}\n\n")),
            None => o.push_str("\n\n"),
        }
        o.push_str(&format!("  # {}\n", self.tr("target.oban.code.key")));
        o.push_str(&format!("  # {}\n", c(&self.r.idempotency_key)));
        o.push_str(&format!("  # {}\n", self.tr("target.oban.code.retried")));
        for e in &self.r.retryable_errors {
            o.push_str(&format!("  #   - {}\n", c(e)));
        }
        o.push_str(&format!("  # {}\n", self.tr("target.oban.code.permanent")));
        for e in &self.permanent.0 {
            o.push_str(&format!("  #   - {}\n", c(e)));
        }
        o.push_str(&kit::described_lines(
            &self.permanent.1,
            "  # ",
            "Ecto.InvalidChangesetError",
            self.lang,
        ));
        o.push_str(&self.backoff_fn());
        o.push_str(&format!(
            "\n  @impl Oban.Worker\n  def timeout(_job), do: {}\n",
            kit::int_literal(self.r.attempt_timeout_ms)
        ));
        o.push_str(&self.perform_fn());
        o.push_str("end\n");
        o.push_str(&self.config());
        o
    }

    fn perform_fn(&self) -> String {
        let pattern = self
            .args
            .iter()
            .map(|a| format!("{} => _{a}", text::elixir_dq(a)))
            .collect::<Vec<_>>()
            .join(", ");
        let mut o = format!(
            "\n  @impl Oban.Worker\n  def perform(%Oban.Job{{args: %{{{pattern}}}}}) do\n    # {}\n    :ok\n",
            self.tr("target.oban.code.work")
        );
        if !self.permanent.0.is_empty() {
            o.push_str(&format!(
                "  rescue\n    e in [{}] -> {{:cancel, Exception.message(e)}}\n",
                self.permanent.0.join(", ")
            ));
        }
        o.push_str("  end\n");
        o
    }

    fn backoff_fn(&self) -> String {
        let b = &self.r.backoff;
        // Decorrelated jitter's draws are capped at max(cap, base), as the sheet's formula.
        let cap = if b.jitter == Jitter::Decorrelated {
            b.cap_ms.max(b.base_ms)
        } else {
            b.cap_ms
        };
        let mut o = format!(
            "\n  # {}\n  @base_ms {}\n  @cap_ms {}\n",
            self.tr("target.oban.code.backoff"),
            kit::int_literal(b.base_ms),
            kit::int_literal(cap)
        );
        if let BackoffKind::Polynomial(p) = b.kind {
            o.push_str(&format!(
                "  @first_n {}\n  @exponent {}\n",
                p.first_n, p.exponent
            ));
        }
        o.push_str("\n  @impl Oban.Worker\n");
        if b.jitter == Jitter::Decorrelated {
            o.push_str(&format!(
                "  def backoff(%Oban.Job{{id: id, attempt: attempt}}) do\n    # {}\n    seed = :rand.seed_s(:exsss, {{id, 0, 0}})\n\n    {{wait, _}} =\n      Enum.reduce(1..attempt, {{@base_ms, seed}}, fn _, {{prev, s}} ->\n        {{x, s}} = :rand.uniform_s(s)\n        {{min(@cap_ms, @base_ms + x * (3 * prev - @base_ms)), s}}\n      end)\n\n    round(wait / 1000)\n  end\n",
                self.tr("target.oban.code.decorrelated")
            ));
            return o;
        }
        let ceiling = match b.kind {
            BackoffKind::Fixed => "@base_ms".to_owned(),
            BackoffKind::Exponential => {
                "min(@cap_ms, @base_ms * Integer.pow(2, attempt - 1))".to_owned()
            }
            BackoffKind::Polynomial(_) => {
                "min(@cap_ms, @base_ms + Integer.pow(attempt - 1 + @first_n, @exponent) * 1000)"
                    .to_owned()
            }
        };
        let wait = match b.jitter {
            Jitter::Full => "round(:rand.uniform() * t / 1000)",
            Jitter::Equal => "round((t / 2 + :rand.uniform() * t / 2) / 1000)",
            _ => "round(t / 1000)",
        };
        let attempt = if b.kind == BackoffKind::Fixed {
            "_attempt"
        } else {
            "attempt"
        };
        o.push_str(&format!(
            "  def backoff(%Oban.Job{{attempt: {attempt}}}) do\n    t = {ceiling}\n    {wait}\n  end\n"
        ));
        o
    }

    fn config(&self) -> String {
        let (limit, note) = match Knobs::of(self.sheet).filter(Knobs::sized) {
            Some(k) => (
                k.per_worker(),
                format!(
                    "  # {}\n",
                    text::comment(&t!(
                        "target.load.oban.limit-code",
                        locale = self.lang.code(),
                        workers = k.workers(),
                        each = k.per_worker()
                    ))
                ),
            ),
            None => (10, String::new()),
        };
        let mut o = format!(
            "\n# {}\nimport Config\n\nconfig :my_app, Oban,\n{note}  queues: [{}: {limit}],\n",
            self.tr("target.oban.code.config"),
            self.queue
        );
        if let Some(s) = self.prune_s {
            o.push_str(&format!("  pruner: [max_age: {}],\n", kit::int_literal(s)));
        }
        o.push_str(&format!(
            "  lifeline: [rescue_after: {}]\n",
            kit::int_literal(self.r.lease_ms)
        ));
        o
    }

    fn mapping(&self) -> Vec<MappingRow> {
        let l = self.lang;
        let r = self.r;
        let row = mapping::row;
        let mut m = vec![
            row(
                FieldId::MaxAttempts,
                r.max_attempts.to_string(),
                "max_attempts",
                r.max_attempts.to_string(),
                self.tr("target.oban.map.max-attempts"),
            ),
            row(
                FieldId::WaitStrategy,
                describe_backoff(&r.backoff, l),
                "backoff/1",
                "callback".into(),
                self.tr("target.oban.map.backoff"),
            ),
            row(
                FieldId::Timeout,
                exact(r.attempt_timeout_ms, l),
                "timeout/1",
                r.attempt_timeout_ms.to_string(),
                self.tr("target.oban.map.timeout"),
            ),
            mapping::lease_row(
                exact(r.lease_ms, l),
                "lifeline: rescue_after",
                r.lease_ms.to_string(),
                self.tr("target.oban.map.lease"),
            ),
            row(
                FieldId::IdempotencyKey,
                r.idempotency_key.clone(),
                "unique",
                self.unique().unwrap_or_default(),
                self.tr(if self.unique().is_some() {
                    "target.oban.map.key"
                } else {
                    "target.oban.map.key-none"
                }),
            ),
            row(
                FieldId::RetryableErrors,
                kit::list_text(&r.retryable_errors, l),
                "",
                String::new(),
                self.tr("target.oban.map.retryable"),
            ),
            row(
                FieldId::NonRetryableErrors,
                kit::list_text(&r.non_retryable_errors, l),
                "{:cancel, reason}",
                self.permanent.0.join(", "),
                self.tr("target.oban.map.permanent"),
            ),
        ];
        if let Some(f) = &self.sheet.failure {
            m.push(row(
                FieldId::DeadLetter,
                f.dead_letter.clone(),
                "state: discarded",
                "oban_jobs".into(),
                self.tr("target.oban.map.dead-letter"),
            ));
        }
        m.push(row(
            FieldId::Retention,
            kit::retention_text(self.sheet, l),
            "pruner: max_age",
            self.prune_s.map(|s| s.to_string()).unwrap_or_default(),
            self.tr(if self.prune_s.is_some() {
                "target.oban.map.retention"
            } else {
                "target.oban.map.retention-none"
            }),
        ));
        m.push(row(
            FieldId::QueueRetention,
            kit::queue_retention_text(r, l),
            "",
            String::new(),
            self.tr("target.oban.map.queue-retention"),
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
                    "queues",
                    format!("[{}: {}]", self.queue, k.per_worker()),
                    ("oban", "workers"),
                    l,
                ));
            }
            m.extend(knobs::downstream_row(self.sheet, l));
        }
        m
    }

    fn gaps(&self) -> Vec<Gap> {
        let r = self.r;
        let mut g = vec![mapping::gap(
            FieldId::WaitStrategy,
            self.tr("target.oban.gap.backoff"),
            Instead::Callback,
            self.tr("target.oban.gap.backoff-detail"),
        )];
        if !r.retryable_errors.is_empty() {
            g.push(mapping::gap(
                FieldId::RetryableErrors,
                self.tr("target.oban.gap.retryable"),
                Instead::Comment,
                String::new(),
            ));
        }
        if !self.permanent.1.is_empty() {
            g.push(mapping::gap(
                FieldId::NonRetryableErrors,
                self.tr("target.oban.gap.permanent"),
                Instead::Comment,
                kit::list_text(&self.permanent.1, self.lang),
            ));
        }
        g.push(mapping::lease_gap(
            self.tr("target.oban.gap.lease"),
            Instead::Nothing,
            String::new(),
        ));
        if let Some(f) = &self.sheet.failure {
            g.push(mapping::gap(
                FieldId::DeadLetter,
                self.tr("target.oban.gap.dead-letter"),
                Instead::Comment,
                String::new(),
            ));
            if !f.notify.trim().is_empty() {
                g.push(mapping::gap(
                    FieldId::Notify,
                    self.tr("target.oban.gap.notify"),
                    Instead::Comment,
                    String::new(),
                ));
            }
            if self.prune_s.is_some() && f.retention.dead != f.retention.done {
                g.push(mapping::gap(
                    FieldId::Retention,
                    self.tr("target.oban.gap.retention"),
                    Instead::Nothing,
                    String::new(),
                ));
            }
        }
        if r.queue_retention_ms.is_some() {
            g.push(mapping::gap(
                FieldId::QueueRetention,
                self.tr("target.oban.gap.queue-retention"),
                Instead::Nothing,
                String::new(),
            ));
        }
        if let Some(k) = Knobs::of(self.sheet) {
            g.extend(knobs::rate_gap("oban", &k, self.lang));
        }
        g
    }
}

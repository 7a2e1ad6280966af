//! River (Go, Postgres): the job's args type (`Kind`, `InsertOpts` with `MaxAttempts` and
//! `UniqueOpts`), a worker with `NextRetry` (the sheet's wait) and `Timeout`, and the client
//! settings (`JobTimeout`, `RescueStuckJobsAfter` for the lease, the retention periods).
//! Facts: `brief/QUEUES.md` §7 (riverqueue/river@fdf6cdf, v0.43.0):
//!
//! - `MaxAttempts` counts **attempts** including the first (default 25; 0 means the client's
//!   default, so it cannot say "none").
//! - The default retry policy waits `n⁴` s `× (1 + U(−0.1, 0.1))`, `n = len(job.Errors) + 1`
//!   (1 at the first failure, the current error not yet recorded). The sheet has no
//!   symmetric ± 10 % jitter, so the export always writes `NextRetry`.
//! - `JobTimeout` (1 min by default) cancels the job's context, a failure; jobs `running`
//!   longer than `RescueStuckJobsAfter` (1 h, or `JobTimeout` + 1 h) are retried or
//!   discarded. The client refuses `RescueStuckJobsAfter < JobTimeout` (client.go L590).
//! - Exhausted jobs are `discarded` (kept 7 d); completed and cancelled 24 h; `-1` keeps.
//!
//! Texts: `locales/worker/target-river.yml`.

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

const TARGET: TargetId = TargetId::River;

/// River's default `MaxAttempts` (internal/rivercommon/river_common.go L16).
pub const DEFAULT_MAX_ATTEMPTS: u32 = 25;
/// River's default jitter: ± this fraction of the wait, uniform.
pub const DEFAULT_JITTER: f64 = 0.1;

/// The wait River's default retry policy makes after failure `n` (1 first): `n⁴` s ± 10 %.
pub fn default_delay(n: u32) -> Delay {
    let s = f64::from(n).powi(4);
    Delay {
        min_s: s * (1.0 - DEFAULT_JITTER),
        expected_s: s,
        max_s: s * (1.0 + DEFAULT_JITTER),
    }
}

/// River's default policy: 25 attempts, `n⁴` s ± 10 % (n = 1 at the first failure), its
/// window computed from that formula.
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let delays = (1..DEFAULT_MAX_ATTEMPTS).map(default_delay).collect();
    DefaultPolicy {
        summary: t!("target.river.defaults", locale = lang.code()).into_owned(),
        attempts: Some(DEFAULT_MAX_ATTEMPTS),
        schedule: Schedule::bounded(delays),
    }
}

/// Builds the River args, worker and client settings for `sheet`.
///
/// # Errors
/// [`TargetError::NotApplicable`] without a retry section; [`TargetError::OutOfRange`] for
/// 0 attempts (River reads 0 as "the default, 25") or a lease shorter than the attempt
/// timeout (River refuses `RescueStuckJobsAfter < JobTimeout`).
pub fn build(sheet: &JobSheet, _format: Format, lang: Lang) -> Result<Built, TargetError> {
    let r = checked(sheet, lang)?;
    let plan = Plan::new(sheet, r, lang);
    Ok(Built {
        text: plan.text(),
        mapping: plan.mapping(),
        gaps: plan.gaps(),
        // NextRetry computes the sheet's wait in float ms: the sheet's own schedule.
        actual: of_sheet(sheet),
    })
}

fn checked(sheet: &JobSheet, lang: Lang) -> Result<&RetrySpec, TargetError> {
    let r = kit::retry_of(sheet, TARGET)?;
    kit::check_attempts(r, TARGET)?;
    if r.lease_ms < r.attempt_timeout_ms {
        return Err(TargetError::OutOfRange {
            target: TARGET,
            field: FieldId::Timeout,
            // Which of the Timeout row's two values, in the message's language.
            value: format!(
                "{} {}",
                t!("sheet.ui.lease", locale = lang.code()),
                exact(r.lease_ms, lang)
            ),
            allowed: format!("≥ JobTimeout ({})", exact(r.attempt_timeout_ms, lang)),
        });
    }
    Ok(r)
}

/// One sampled run of the exported `NextRetry`: the sheet's formula in ms, as seconds.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let r = checked(sheet, Lang::En)?;
    Ok(kit::sheet_run_ms(&r.backoff, r.max_attempts - 1, u)
        .into_iter()
        .map(|ms| ms / 1000.0)
        .collect())
}

/// What the export writes, computed once.
struct Plan<'a> {
    sheet: &'a JobSheet,
    r: &'a RetrySpec,
    lang: Lang,
    name: String,
    kind: String,
    /// Per argument: (Go field, JSON name).
    fields: Vec<(String, String)>,
    /// Indexes of the arguments the key names.
    key_args: Vec<usize>,
}

impl<'a> Plan<'a> {
    fn new(sheet: &'a JobSheet, r: &'a RetrySpec, lang: Lang) -> Plan<'a> {
        let snake = kit::arg_idents(sheet, &[]);
        let camel = kit::unique_names(snake.iter().map(|s| text::camel(s)).collect(), "");
        let mut key_args = Vec::new();
        for p in kit::key_parts(sheet, r) {
            if let KeyPart::Arg(i) = p {
                if !key_args.contains(&i) {
                    key_args.push(i);
                }
            }
        }
        Plan {
            sheet,
            r,
            lang,
            name: text::camel_ident(&sheet.process.code_name),
            kind: text::snake_ident(&sheet.process.code_name),
            fields: camel.into_iter().zip(snake).collect(),
            key_args,
        }
    }

    /// The type name with a lower-case first letter (a package-private name).
    fn var_prefix(&self) -> String {
        let mut c = self.name.chars();
        c.next()
            .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
            .unwrap_or_default()
    }

    fn tr(&self, key: &str) -> String {
        t!(key, locale = self.lang.code()).into_owned()
    }

    fn text(&self) -> String {
        let b = &self.r.backoff;
        let mut o = header::write(
            "//",
            versions::header_line(TARGET, None, self.lang),
            header::sentences(self.sheet, TARGET, self.lang),
        );
        o.push_str("\npackage jobs\n\nimport (\n\t\"context\"\n");
        if b.kind != BackoffKind::Fixed || b.jitter == Jitter::Decorrelated {
            o.push_str("\t\"math\"\n");
        }
        if b.jitter != Jitter::None {
            o.push_str("\t\"math/rand/v2\"\n");
        }
        o.push_str("\t\"time\"\n\n\t\"github.com/riverqueue/river\"\n)\n");
        o.push_str(&self.args_type());
        o.push_str(&self.worker());
        o.push_str(&self.config());
        o
    }

    fn args_type(&self) -> String {
        let n = &self.name;
        let width = self.fields.iter().map(|f| f.0.len()).max().unwrap_or(0);
        let mut o = format!("\n// {n}Args are the job's arguments.\ntype {n}Args struct {{\n");
        for (i, (field, json)) in self.fields.iter().enumerate() {
            let unique = if self.key_args.contains(&i) {
                " river:\"unique\""
            } else {
                ""
            };
            o.push_str(&format!(
                "\t{field:<width$} string `json:\"{json}\"{unique}`\n"
            ));
        }
        o.push_str("}\n");
        o.push_str(&format!(
            "\n// Kind is the job's kind.\nfunc ({n}Args) Kind() string {{ return {} }}\n",
            text::dq(&self.kind)
        ));
        let mut opts = vec![
            ("MaxAttempts", self.r.max_attempts.to_string()),
            ("Queue", text::dq(&self.kind)),
        ];
        if !self.key_args.is_empty() {
            opts.push(("UniqueOpts", "river.UniqueOpts{ByArgs: true}".to_owned()));
        }
        o.push_str(&format!(
            "\n// InsertOpts: {}\nfunc ({n}Args) InsertOpts() river.InsertOpts {{\n\treturn river.InsertOpts{{\n{}\t}}\n}}\n",
            self.tr("target.river.code.insert-opts"),
            kit::go_fields("\t\t", &opts)
        ));
        o
    }

    fn worker(&self) -> String {
        let n = &self.name;
        let mut o = format!(
            "\n// {n}Worker runs the job.\ntype {n}Worker struct {{\n\triver.WorkerDefaults[{n}Args]\n}}\n"
        );
        o.push_str(&format!(
            "\n// {}\nvar {}PermanentErrors = []string{{\n",
            self.tr("target.river.code.permanent"),
            self.var_prefix()
        ));
        let (names, texts) =
            kit::split_classes(&self.r.non_retryable_errors, text::is_go_error_name);
        o.push_str(&kit::described_lines(
            &texts,
            "\t// ",
            "*pgconn.PgError",
            self.lang,
        ));
        for e in &names {
            o.push_str(&format!("\t{},\n", text::dq(e)));
        }
        o.push_str("}\n");
        o.push_str(&format!(
            "\n// Work: {}\nfunc (w *{n}Worker) Work(ctx context.Context, job *river.Job[{n}Args]) error {{\n\treturn nil\n}}\n",
            self.tr("target.river.code.work")
        ));
        o.push_str(&format!(
            "\n// Timeout: {}\nfunc (w *{n}Worker) Timeout(job *river.Job[{n}Args]) time.Duration {{\n\treturn {}\n}}\n",
            self.tr("target.river.code.timeout"),
            kit::go_duration(self.r.attempt_timeout_ms)
        ));
        o.push_str(&self.next_retry());
        o
    }

    fn next_retry(&self) -> String {
        let n = &self.name;
        let b = &self.r.backoff;
        let cap = if b.jitter == Jitter::Decorrelated {
            b.cap_ms.max(b.base_ms)
        } else {
            b.cap_ms
        };
        let mut o = format!(
            "\n// NextRetry: {}\nfunc (w *{n}Worker) NextRetry(job *river.Job[{n}Args]) time.Time {{\n\tconst baseMs, capMs = {}.0, {}.0\n",
            self.tr("target.river.code.next-retry"),
            b.base_ms,
            cap
        );
        if b.kind != BackoffKind::Fixed || b.jitter == Jitter::Decorrelated {
            o.push_str(&format!(
                "\tn := len(job.Errors) // {}\n",
                self.tr("target.river.code.n")
            ));
        }
        if b.jitter == Jitter::Decorrelated {
            o.push_str(&format!(
                "\t// {}\n\tr := rand.New(rand.NewPCG(uint64(job.ID), 0))\n\tms := baseMs\n\tfor i := 0; i <= n; i++ {{\n\t\tms = math.Min(capMs, baseMs+r.Float64()*(3*ms-baseMs))\n\t}}\n",
                self.tr("target.river.code.decorrelated")
            ));
        } else {
            let t = match b.kind {
                BackoffKind::Fixed => "\tt := baseMs\n".to_owned(),
                BackoffKind::Exponential => {
                    "\tt := math.Min(capMs, baseMs*math.Pow(2, float64(n)))\n".to_owned()
                }
                BackoffKind::Polynomial(p) => format!(
                    "\tt := math.Min(capMs, baseMs+math.Pow(float64(n+{}), {})*1000)\n",
                    p.first_n, p.exponent
                ),
            };
            o.push_str(&t);
            o.push_str(match b.jitter {
                Jitter::Full => "\tms := rand.Float64() * t\n",
                Jitter::Equal => "\tms := t/2 + rand.Float64()*t/2\n",
                _ => "\tms := t\n",
            });
        }
        o.push_str("\treturn time.Now().Add(time.Duration(ms * float64(time.Millisecond)))\n}\n");
        o
    }

    /// Retention of one final status: `d × 24 h`, or `-1` (keep).
    fn keep(k: Keep) -> String {
        match k {
            Keep::Days(d) => format!("{} * 24 * time.Hour", d),
            Keep::UntilHandled => "-1".to_owned(),
        }
    }

    fn config(&self) -> String {
        let mut pairs = vec![
            ("JobTimeout", kit::go_duration(self.r.attempt_timeout_ms)),
            ("RescueStuckJobsAfter", kit::go_duration(self.r.lease_ms)),
        ];
        if let Some(f) = &self.sheet.failure {
            pairs.push(("CompletedJobRetentionPeriod", Self::keep(f.retention.done)));
            pairs.push(("DiscardedJobRetentionPeriod", Self::keep(f.retention.dead)));
        }
        let (max_workers, note) = match Knobs::of(self.sheet).filter(Knobs::sized) {
            Some(k) => (
                k.per_worker(),
                format!(
                    "// {}\n",
                    text::comment(&t!(
                        "target.load.river.max-workers-code",
                        locale = self.lang.code(),
                        workers = k.workers(),
                        each = k.per_worker()
                    ))
                ),
            ),
            None => (10, String::new()),
        };
        pairs.push((
            "Queues",
            format!(
                "map[string]river.QueueConfig{{{}: {{MaxWorkers: {max_workers}}}}}",
                text::dq(&self.kind)
            ),
        ));
        pairs.push(("Workers", "workers".to_owned()));
        format!(
            "\n// NewConfig: {}\n{note}func NewConfig(workers *river.Workers) *river.Config {{\n\treturn &river.Config{{\n{}\t}}\n}}\n",
            self.tr("target.river.code.config"),
            kit::go_fields("\t\t", &pairs)
        )
    }

    fn mapping(&self) -> Vec<MappingRow> {
        let (l, r, row) = (self.lang, self.r, mapping::row);
        let mut m = vec![
            row(
                FieldId::MaxAttempts,
                r.max_attempts.to_string(),
                "InsertOpts.MaxAttempts",
                r.max_attempts.to_string(),
                self.tr("target.river.map.max-attempts"),
            ),
            row(
                FieldId::WaitStrategy,
                describe_backoff(&r.backoff, l),
                "Worker.NextRetry",
                "callback".into(),
                self.tr("target.river.map.backoff"),
            ),
            row(
                FieldId::Timeout,
                exact(r.attempt_timeout_ms, l),
                "Worker.Timeout, Config.JobTimeout",
                kit::go_duration(r.attempt_timeout_ms),
                self.tr("target.river.map.timeout"),
            ),
            mapping::lease_row(
                exact(r.lease_ms, l),
                "Config.RescueStuckJobsAfter",
                kit::go_duration(r.lease_ms),
                self.tr("target.river.map.lease"),
            ),
            row(
                FieldId::IdempotencyKey,
                r.idempotency_key.clone(),
                "UniqueOpts",
                if self.key_args.is_empty() {
                    String::new()
                } else {
                    "{ByArgs: true} + river:\"unique\"".into()
                },
                self.tr(if self.key_args.is_empty() {
                    "target.river.map.key-none"
                } else {
                    "target.river.map.key"
                }),
            ),
            row(
                FieldId::RetryableErrors,
                kit::list_text(&r.retryable_errors, l),
                "",
                String::new(),
                self.tr("target.river.map.retryable"),
            ),
            row(
                FieldId::NonRetryableErrors,
                kit::list_text(&r.non_retryable_errors, l),
                "river.JobCancel(err)",
                String::new(),
                self.tr("target.river.map.permanent"),
            ),
        ];
        if let Some(f) = &self.sheet.failure {
            m.push(row(
                FieldId::DeadLetter,
                f.dead_letter.clone(),
                "state: discarded",
                "river_job".into(),
                self.tr("target.river.map.dead-letter"),
            ));
            m.push(row(
                FieldId::Retention,
                kit::retention_text(self.sheet, l),
                "CompletedJobRetentionPeriod, DiscardedJobRetentionPeriod",
                format!(
                    "{}, {}",
                    Self::keep(f.retention.done),
                    Self::keep(f.retention.dead)
                ),
                self.tr("target.river.map.retention"),
            ));
        }
        m.push(row(
            FieldId::QueueRetention,
            kit::queue_retention_text(r, l),
            "",
            String::new(),
            self.tr("target.river.map.queue-retention"),
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
                    "QueueConfig.MaxWorkers",
                    k.per_worker().to_string(),
                    ("river", "workers"),
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
            self.tr("target.river.gap.backoff"),
            Instead::Callback,
            self.tr("target.river.gap.backoff-detail"),
        )];
        if !r.retryable_errors.is_empty() {
            g.push(mapping::gap(
                FieldId::RetryableErrors,
                self.tr("target.river.gap.retryable"),
                Instead::Comment,
                String::new(),
            ));
        }
        if !r.non_retryable_errors.is_empty() {
            g.push(mapping::gap(
                FieldId::NonRetryableErrors,
                self.tr("target.river.gap.permanent"),
                Instead::Comment,
                String::new(),
            ));
        }
        if let Some(f) = &self.sheet.failure {
            g.push(mapping::gap(
                FieldId::DeadLetter,
                self.tr("target.river.gap.dead-letter"),
                Instead::Comment,
                String::new(),
            ));
            if !f.notify.trim().is_empty() {
                g.push(mapping::gap(
                    FieldId::Notify,
                    self.tr("target.river.gap.notify"),
                    Instead::Comment,
                    String::new(),
                ));
            }
        }
        if r.queue_retention_ms.is_some() {
            g.push(mapping::gap(
                FieldId::QueueRetention,
                self.tr("target.river.gap.queue-retention"),
                Instead::Nothing,
                String::new(),
            ));
        }
        if let Some(k) = Knobs::of(self.sheet) {
            g.extend(knobs::rate_gap("river", &k, self.lang));
        }
        g
    }
}

//! Sidekiq OSS (`brief/QUEUES.md` §4): a Ruby job class with `sidekiq_options retry:` =
//! attempts − 1 (Sidekiq counts retries), a `sidekiq_retry_in` block where the sheet's waits
//! differ from Sidekiq's `c⁴ + 15` (and `:kill` for the non-retryable errors), and
//! `sidekiq_retries_exhausted` for the dead letter.
//!
//! Sidekiq 8 waits `delay + rand(10 · (c + 1))` s, c = 0 at the first retry, where `delay` is
//! the block's number when it returns one above 0 (a Float is truncated by `to_i`; 0 or
//! less falls back), else `c⁴ + 15` (`lib/sidekiq/job_retry.rb`
//! `delay_for`). The added jitter is there even for custom delays and cannot be turned off.
//!
//! Sidekiq 6.2.2 – 7.x ([`TargetVersion::Sidekiq6`], read from Debian's 6.4.1) adds
//! `rand(10) · (c + 1)` instead (0 … 9·(c+1) in steps of c + 1), calls the block with
//! `(count, exception)` only, and before 7.0 knows no `:kill`: `delay_for` calls `to_i` on
//! the block's answer outside the block's rescue, so a Symbol raises there and the global
//! handler retries the job with the default delay (and never calls
//! `sidekiq_retries_exhausted`). That export therefore ends a permanent error in `perform`:
//! it calls the `sidekiq_retries_exhausted` block and puts the job in the Dead set itself,
//! and the job ends without a retry.

use super::header;
use super::kit;
use super::knobs::{self, Knobs};
use super::mapping::{self, gap, row};
use super::rows::{self, comment, SheetText};
use super::schedule::{of_sheet, Delay};
use super::{
    text, versions, Built, DefaultPolicy, Format, Instead, Schedule, TargetError, TargetId,
    TargetVersion,
};
use crate::domain::lang::Lang;
use crate::domain::sheet::retry_window::ceiling_ms;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, Keep, RetrySpec};
use crate::text::t;
use std::fmt::Write;

/// Sidekiq's retries when `retry: true` (`DEFAULT_MAX_RETRY_ATTEMPTS`).
pub const DEFAULT_RETRIES: u32 = 25;
/// How long the Dead set keeps a job, in days (`dead_timeout_in_seconds`, 180 days).
pub const DEAD_DAYS: u32 = 180;

/// Sidekiq's own wait before retry `c` without its jitter: `c⁴ + 15` s.
pub fn default_delay_s(c: u32) -> f64 {
    f64::from(c).powi(4) + 15.0
}

/// Whether `version` is Sidekiq 6.2.2 – 7.x (`None`: the newest, 8.x).
fn older(version: Option<TargetVersion>) -> bool {
    version == Some(TargetVersion::Sidekiq6)
}

/// The most jitter Sidekiq adds before retry `c`, a whole number of seconds: 8.x
/// `rand(10 · (c + 1))` up to `10 · (c + 1) − 1`; 6.2.2 – 7.x `rand(10) · (c + 1)` up to
/// `9 · (c + 1)`. Both are uniform over their steps, so the expected jitter is half of it.
fn jitter_max_s(c: u32, old: bool) -> f64 {
    let k = f64::from(c) + 1.0;
    if old {
        9.0 * k
    } else {
        10.0 * k - 1.0
    }
}

/// The jitter's formula as the texts write it: `(math, math with count, code, most)`.
fn jitter_words(old: bool) -> [&'static str; 4] {
    if old {
        [
            "rand(10)·(c+1)",
            "rand(10)·(count+1)",
            "rand(10) * (count + 1)",
            "9·(count+1)",
        ]
    } else {
        [
            "rand(10·(c+1))",
            "rand(10·(count+1))",
            "rand(10 * (count + 1))",
            "10·(count+1) − 1",
        ]
    }
}

/// A Sidekiq text in `lang` with the version's jitter filled in (`%{jitter}`,
/// `%{jitter_count}`, `%{code}`, `%{most}`); `key` after `target.sidekiq.`.
fn tr(key: &str, old: bool, lang: Lang) -> String {
    let [jitter, jitter_count, code, most] = jitter_words(old);
    t!(
        format!("target.sidekiq.{key}"),
        locale = lang.code(),
        jitter = jitter,
        jitter_count = jitter_count,
        code = code,
        most = most
    )
    .into_owned()
}

/// Whether the sheet's wait is Sidekiq's own `c⁴ + 15` (no jitter, the cap never reached):
/// then no custom delay is written.
fn is_default(r: &RetrySpec) -> bool {
    let b = &r.backoff;
    let retries = r.max_attempts.saturating_sub(1);
    matches!(b.kind, BackoffKind::Polynomial(p) if p.exponent == 4 && p.first_n == 0)
        && b.base_ms == 15_000
        && b.jitter == Jitter::None
        && (0..retries).all(|c| ceiling_ms(b, c) as f64 == default_delay_s(c) * 1000.0)
}

/// Builds the Ruby job class, the mapping, the gaps and the actual schedule.
///
/// # Errors
/// [`TargetError::NotApplicable`] for a sheet without a retry section;
/// [`TargetError::UnknownFormat`] for a format other than Ruby.
pub fn build(
    sheet: &JobSheet,
    format: Format,
    version: Option<TargetVersion>,
    lang: Lang,
) -> Result<Built, TargetError> {
    let r = rows::retry_of(sheet, TargetId::Sidekiq)?;
    if format != Format::Ruby {
        return Err(TargetError::UnknownFormat {
            target: TargetId::Sidekiq,
            format: format.name().to_owned(),
        });
    }
    let old = older(version);
    Ok(Built {
        text: ruby(sheet, r, old, lang),
        mapping: mapping(sheet, r, old, lang),
        gaps: gaps(sheet, r, old, lang),
        actual: actual(sheet, r, old),
    })
}

fn actual(sheet: &JobSheet, r: &RetrySpec, old: bool) -> Schedule {
    let retries = r.max_attempts.saturating_sub(1);
    let jitter = |c: u32| Delay {
        min_s: 0.0,
        expected_s: jitter_max_s(c, old) / 2.0,
        max_s: jitter_max_s(c, old),
    };
    let add = |a: Delay, b: Delay| Delay {
        min_s: a.min_s + b.min_s,
        expected_s: a.expected_s + b.expected_s,
        max_s: a.max_s + b.max_s,
    };
    if is_default(r) {
        return Schedule::bounded(
            (0..retries)
                .map(|c| add(Delay::fixed(default_delay_s(c)), jitter(c)))
                .collect(),
        );
    }
    // The block returns max(1, round(the sheet's wait)).
    let whole = |s: f64| s.round().max(1.0);
    let uniform = matches!(r.backoff.jitter, Jitter::Full | Jitter::Equal);
    Schedule::bounded(
        of_sheet(sheet)
            .delays
            .iter()
            .zip(0u32..)
            .map(|(d, c)| {
                let expected = if uniform {
                    whole_mean_of_uniform(d.min_s, d.max_s)
                } else {
                    d.expected_s.max(1.0)
                };
                let own = Delay {
                    min_s: whole(d.min_s),
                    expected_s: expected.clamp(whole(d.min_s), whole(d.max_s)),
                    max_s: whole(d.max_s),
                };
                add(own, jitter(c))
            })
            .collect(),
    )
}

/// The mean of `[w.round, 1].max` for a wait `w` drawn uniformly from `[lo, hi]` seconds
/// (`0 ≤ lo ≤ hi`): what the exported `sidekiq_retry_in` block returns on average for full
/// (`[0, t]`) and equal (`[t/2, t]`) jitter. Rounding moves the mean at both ends, and the
/// `max` turns every wait under 0.5 s into 1 s: for a 10 s full-jitter wait it is 5.05 s,
/// not 5 s (issue 27 item 3; Ruby's `Float#round` rounds half away from zero, a tie has
/// probability 0). Exact: `∫ round(w) dw` from 0 to `x = n + f` is `n²/2 + n·min(f, ½) +
/// (n + 1)·max(0, f − ½)`.
fn whole_mean_of_uniform(lo: f64, hi: f64) -> f64 {
    let lo = lo.max(0.0);
    let hi = hi.max(lo);
    if hi - lo < 1e-9 {
        return lo.round().max(1.0);
    }
    let integral = |x: f64| {
        let n = x.floor();
        let f = x - n;
        n * n / 2.0 + n * f.min(0.5) + (n + 1.0) * (f - 0.5).max(0.0)
    };
    let below_half = ((0.5 - lo) / (hi - lo)).clamp(0.0, 1.0);
    (integral(hi) - integral(lo)) / (hi - lo) + below_half
}

fn class_name(sheet: &JobSheet) -> String {
    text::job_class(&sheet.process.code_name)
}

fn ruby_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| text::ruby_sq(s.trim())).collect();
    format!("[{}].freeze", quoted.join(", "))
}

fn ruby(sheet: &JobSheet, r: &RetrySpec, old: bool, lang: Lang) -> String {
    let l = lang.code();
    let c = |k: &str| comment(&tr(&format!("code.{k}"), old, lang));
    let version = old.then_some(TargetVersion::Sidekiq6);
    let mut s = header::write(
        "#",
        versions::header_line(TargetId::Sidekiq, version, lang),
        header::labelled(sheet, TargetId::Sidekiq, lang),
    );
    s.push_str("\nrequire \"sidekiq\"\n");
    if old {
        // Sidekiq::DeadSet, for the permanent errors perform ends.
        s.push_str("require \"sidekiq/api\"\n");
    }
    s.push('\n');
    if let Some(k) = Knobs::of(sheet).filter(Knobs::sized) {
        let _ = writeln!(
            s,
            "# {}\nSidekiq.configure_server do |config|\n  config.concurrency = {}\nend\n",
            comment(&t!(
                "target.load.sidekiq.concurrency-code",
                locale = l,
                workers = k.workers(),
                each = k.per_worker()
            )),
            k.per_worker()
        );
    }
    let _ = writeln!(s, "class {}\n  include Sidekiq::Job\n", class_name(sheet));
    let (retry_names, retry_texts) =
        kit::split_classes(&r.retryable_errors, text::is_ruby_constant);
    let (dead_names, dead_texts) =
        kit::split_classes(&r.non_retryable_errors, text::is_ruby_constant);
    let _ = writeln!(s, "  # {}", c("retryable"));
    s.push_str(&kit::described_lines(
        &retry_texts,
        "  # ",
        "Net::ReadTimeout",
        lang,
    ));
    let _ = writeln!(s, "  RETRYABLE = {}", ruby_list(&retry_names));
    let _ = writeln!(
        s,
        "  # {}",
        c(if old {
            "non-retryable-6"
        } else {
            "non-retryable"
        })
    );
    s.push_str(&kit::described_lines(
        &dead_texts,
        "  # ",
        "ActiveRecord::RecordInvalid",
        lang,
    ));
    let _ = writeln!(s, "  NON_RETRYABLE = {}", ruby_list(&dead_names));
    let custom = !is_default(r);
    if custom {
        let _ = writeln!(s, "  BASE_S = {}", rows::secs(r.backoff.base_ms));
        let _ = writeln!(s, "  CAP_S = {}", rows::secs(r.backoff.cap_ms));
    }
    let _ = writeln!(
        s,
        "\n  sidekiq_options retry: {}\n",
        r.max_attempts.saturating_sub(1)
    );
    if old && custom {
        // Sidekiq 6.2.2 – 7.x calls the block with (count, exception); no :kill before 7.0.
        s.push_str("  sidekiq_retry_in do |count, exception|\n");
    } else if !old {
        s.push_str("  sidekiq_retry_in do |count, exception, job|\n");
        s.push_str("    next :kill if NON_RETRYABLE.include?(exception.class.name)\n\n");
    }
    if custom {
        let _ = writeln!(s, "    # {}", c("wait"));
        s.push_str(&wait_lines(r, old));
        s.push_str("    [wait.round, 1].max\n  end\n\n");
    } else if !old {
        let _ = writeln!(s, "    # {}", c("default"));
        s.push_str("    :default\n  end\n\n");
    } else {
        let _ = writeln!(s, "  # {}\n", c("default"));
    }
    s.push_str("  sidekiq_retries_exhausted do |job, exception|\n");
    let _ = writeln!(s, "    # {}", c(if old { "dead-6" } else { "dead" }));
    if let Some(f) = &sheet.failure {
        let _ = writeln!(s, "    # {}", comment(&f.dead_letter));
        if !f.notify.trim().is_empty() {
            let _ = writeln!(s, "    # {}", comment(&f.notify));
        }
    }
    s.push_str(
        "    Sidekiq.logger.warn(\"#{job['class']} #{job['jid']} is dead: #{exception.message}\")\n  end\n\n",
    );
    let work = t!("target.sidekiq.code.work", locale = l);
    if old {
        s.push_str(&permanent_6(&c("permanent-6")));
    }
    let _ = writeln!(
        s,
        "  def {}(*args)\n    # {}\n    raise NotImplementedError, {}\n  end\nend",
        if old { "work" } else { "perform" },
        comment(&work),
        text::ruby_sq(&work)
    );
    s
}

/// Sidekiq 6.2.2 – 7.x: `perform` runs the work and ends a permanent error itself, as the
/// retries' end would (the `sidekiq_retries_exhausted` block, then the Dead set), so the job
/// is not retried; `why` is the comment saying so.
fn permanent_6(why: &str) -> String {
    format!(
        "  def perform(*args)\n    work(*args)\n  rescue StandardError => e\n    \
         raise unless NON_RETRYABLE.include?(e.class.name)\n\n    # {why}\n    \
         job = {{ \"class\" => self.class.name, \"jid\" => jid, \"args\" => args,\n            \
         \"error_class\" => e.class.name, \"error_message\" => e.message.to_s, \"failed_at\" => Time.now.to_f }}\n    \
         self.class.sidekiq_retries_exhausted_block&.call(job, e)\n    \
         Sidekiq::DeadSet.new.kill(Sidekiq.dump_json(job), notify_failure: false)\n  end\n\n"
    )
}

/// The block's lines computing `wait` (seconds) by the sheet's formula.
fn wait_lines(r: &RetrySpec, old: bool) -> String {
    let b = &r.backoff;
    let mut s = String::new();
    let ceiling = match b.kind {
        BackoffKind::Fixed => "BASE_S".to_owned(),
        BackoffKind::Exponential => "[BASE_S * 2**count, CAP_S].min".to_owned(),
        BackoffKind::Polynomial(p) => format!(
            "[BASE_S + (count + {})**{}, CAP_S].min",
            p.first_n, p.exponent
        ),
    };
    match b.jitter {
        Jitter::None => {
            let _ = writeln!(s, "    wait = {ceiling}");
        }
        Jitter::Full => {
            let _ = writeln!(s, "    wait = rand * {ceiling}");
        }
        Jitter::Equal => {
            let _ = writeln!(s, "    t = {ceiling}\n    wait = t / 2.0 + rand * t / 2.0");
        }
        Jitter::Decorrelated if old => {
            // No job hash before 8.0's block: each retry replays the chain of draws.
            s.push_str("    wait = (count + 1).times.reduce(BASE_S) do |previous, _|\n");
            s.push_str("      [BASE_S + rand * (3 * previous - BASE_S), CAP_S].min\n    end\n");
        }
        Jitter::Decorrelated => {
            s.push_str("    previous = job[\"previous_wait_s\"] || BASE_S\n");
            s.push_str("    wait = [BASE_S + rand * (3 * previous - BASE_S), CAP_S].min\n");
            s.push_str("    job[\"previous_wait_s\"] = wait\n");
        }
    }
    s
}

fn mapping(sheet: &JobSheet, r: &RetrySpec, old: bool, lang: Lang) -> Vec<super::MappingRow> {
    let s = SheetText::of(r, lang);
    let tr = |k: &str| tr(&format!("note.{k}"), old, lang);
    let mut out = vec![
        row(
            FieldId::MaxAttempts,
            s.attempts,
            "sidekiq_options retry:",
            r.max_attempts.saturating_sub(1).to_string(),
            tr("max-attempts"),
        ),
        if is_default(r) {
            row(
                FieldId::WaitStrategy,
                s.wait,
                if old { "" } else { "sidekiq_retry_in" },
                if old {
                    String::new()
                } else {
                    ":default".to_owned()
                },
                tr("wait-default"),
            )
        } else {
            row(
                FieldId::WaitStrategy,
                s.wait,
                "sidekiq_retry_in",
                "[wait.round, 1].max".to_owned(),
                tr("wait-custom"),
            )
        },
        row(
            FieldId::Timeout,
            s.timeout,
            "",
            String::new(),
            tr("timeout"),
        ),
        mapping::lease_row(s.lease, "", String::new(), tr("lease")),
        row(
            FieldId::IdempotencyKey,
            r.idempotency_key.clone(),
            "",
            String::new(),
            tr("key"),
        ),
        row(
            FieldId::RetryableErrors,
            s.retryable,
            "RETRYABLE",
            String::new(),
            tr("retryable"),
        ),
        row(
            FieldId::NonRetryableErrors,
            s.non_retryable,
            if old {
                "perform → sidekiq_retries_exhausted, DeadSet#kill"
            } else {
                "sidekiq_retry_in → :kill"
            },
            "NON_RETRYABLE".to_owned(),
            tr(if old {
                "non-retryable-6"
            } else {
                "non-retryable"
            }),
        ),
    ];
    if let Some(f) = &sheet.failure {
        out.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "sidekiq_retries_exhausted",
            String::new(),
            tr("dead-letter"),
        ));
        out.push(row(
            FieldId::Retention,
            rows::keep_text(f.retention.dead, lang),
            "dead_timeout_in_seconds",
            (u64::from(DEAD_DAYS) * 86_400).to_string(),
            tr("retention"),
        ));
    }
    out.extend(mapping::layers_row(
        r,
        rows::layers_text,
        "sidekiq_options retry:",
        rows::layers_note(lang),
    ));
    if let Some(k) = Knobs::of(sheet) {
        if k.sized() {
            out.push(knobs::knob_row(
                FieldId::Workers,
                &k,
                "config.concurrency",
                k.per_worker().to_string(),
                ("sidekiq", "workers"),
                lang,
            ));
        }
        out.extend(knobs::downstream_row(sheet, lang));
    }
    out
}

fn gaps(sheet: &JobSheet, r: &RetrySpec, old: bool, lang: Lang) -> Vec<super::Gap> {
    let tr = |k: &str| tr(&format!("gap.{k}"), old, lang);
    let mut g = vec![gap(
        FieldId::WaitStrategy,
        tr("jitter"),
        Instead::Nothing,
        tr("jitter-detail"),
    )];
    if !is_default(r) {
        g.push(gap(
            FieldId::WaitStrategy,
            tr("wait"),
            Instead::Callback,
            // What the callback keeps between attempts matters only for decorrelated jitter.
            tr(
                match (
                    r.backoff.jitter == crate::domain::sheet::Jitter::Decorrelated,
                    old,
                ) {
                    (false, _) => "wait-detail-plain",
                    (true, true) => "wait-detail-6",
                    (true, false) => "wait-detail",
                },
            ),
        ));
    }
    g.push(gap(
        FieldId::Timeout,
        tr("timeout"),
        Instead::Comment,
        String::new(),
    ));
    g.push(mapping::lease_gap(
        tr("lease"),
        Instead::Nothing,
        String::new(),
    ));
    g.push(gap(
        FieldId::IdempotencyKey,
        tr("key"),
        Instead::Comment,
        String::new(),
    ));
    if r.non_retryable_errors
        .iter()
        .any(|e| !e.trim().is_empty() && !text::is_ruby_constant(e.trim()))
    {
        g.push(gap(
            FieldId::NonRetryableErrors,
            tr("errors"),
            Instead::Comment,
            String::new(),
        ));
    }
    if let Some(f) = &sheet.failure {
        let over = match f.retention.dead {
            Keep::Days(d) => d > DEAD_DAYS,
            Keep::UntilHandled => true,
        };
        if over {
            g.push(gap(
                FieldId::Retention,
                tr("dead"),
                Instead::Nothing,
                String::new(),
            ));
        }
        if let Keep::Days(_) = f.retention.done {
            g.push(gap(
                FieldId::Retention,
                tr("done"),
                Instead::Nothing,
                String::new(),
            ));
        }
    }
    if r.queue_retention_ms.is_some() {
        g.push(gap(
            FieldId::QueueRetention,
            tr("queue-retention"),
            Instead::Nothing,
            String::new(),
        ));
    }
    if let Some(k) = Knobs::of(sheet) {
        g.extend(knobs::rate_gap("sidekiq", &k, lang));
    }
    g
}

/// Sidekiq's defaults: 25 retries (26 attempts), retry c waiting `c⁴ + 15 + rand(10·(c+1))`
/// s: window Σ (c⁴ + 15) s at least, plus Σ (10(c+1) − 1) s at most.
pub fn defaults(version: Option<TargetVersion>, lang: Lang) -> DefaultPolicy {
    let old = older(version);
    let schedule = Schedule::bounded(
        (0..DEFAULT_RETRIES)
            .map(|c| Delay {
                min_s: default_delay_s(c),
                expected_s: default_delay_s(c) + jitter_max_s(c, old) / 2.0,
                max_s: default_delay_s(c) + jitter_max_s(c, old),
            })
            .collect(),
    );
    DefaultPolicy {
        summary: t!(
            "target.sidekiq.defaults",
            locale = lang.code(),
            retries = DEFAULT_RETRIES,
            attempts = DEFAULT_RETRIES + 1,
            jitter = jitter_words(old)[0]
        )
        .into_owned(),
        attempts: Some(DEFAULT_RETRIES + 1),
        schedule,
    }
}

/// One sampled run of the actual delays, in seconds, as `job_retry.rb` computes them:
/// `delay + rand(10 * (count + 1))`, `delay` being the exported block's
/// `[wait.round, 1].max` (the sheet's formula) or Sidekiq's `count**4 + 15`.
///
/// # Errors
/// As [`build`].
pub fn sample(
    sheet: &JobSheet,
    version: Option<TargetVersion>,
    u: &mut dyn FnMut() -> f64,
) -> Result<Vec<f64>, TargetError> {
    let old = older(version);
    let r = rows::retry_of(sheet, TargetId::Sidekiq)?;
    let b = &r.backoff;
    let base = b.base_ms as f64 / 1000.0;
    let cap = b.cap_ms as f64 / 1000.0;
    let default = is_default(r);
    let mut previous = base;
    let mut out = Vec::new();
    for count in 0..r.max_attempts.saturating_sub(1) {
        let delay = if default {
            default_delay_s(count)
        } else {
            let t = ceiling_ms(b, count) as f64 / 1000.0;
            let wait = match b.jitter {
                Jitter::None => t,
                Jitter::Full => u() * t,
                Jitter::Equal => t / 2.0 + u() * t / 2.0,
                Jitter::Decorrelated if old => {
                    (0..=count).fold(base, |prev, _| cap.min(base + u() * (3.0 * prev - base)))
                }
                Jitter::Decorrelated => {
                    let w = cap.min(base + u() * (3.0 * previous - base));
                    previous = w;
                    w
                }
            };
            wait.round().max(1.0)
        };
        let k = f64::from(count) + 1.0;
        let jitter = if old {
            (u() * 10.0).floor().min(9.0) * k
        } else {
            (u() * 10.0 * k).floor()
        };
        out.push(delay + jitter.min(jitter_max_s(count, old)));
    }
    Ok(out)
}

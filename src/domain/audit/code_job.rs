//! The sheet and schedule of a job read from queue code (issue 27 item 2): Celery, Sidekiq,
//! Active Job, Oban, River, BullMQ, pg-boss and Temporal, on one path. The stated facts fill
//! the sheet's retry fields; for the rest each system's own defaults ([`defaults`], from
//! `brief/QUEUES.md` §3–§10 and the constants of [`crate::domain::queues`]) are used and
//! listed in `not_stated` with the default in words (`locales/worker/audit.yml`,
//! `audit.default.code.*`). The schedule is the one the system runs, from the target
//! modules' own formulas: [`queues::defaults`] when nothing about the retries is stated,
//! else the target's `built.actual` for the sheet, or the target's own default wait where the
//! sheet cannot hold it (Oban's `15 + 2^a`, River's `n⁴ ± 10 %`, Active Job's upward jitter,
//! no wait at all in BullMQ and pg-boss) and Temporal's and pg-boss's own retry policies.
//!
//! A stated value the sheet cannot hold is never dropped silently: out of the sheet's ranges
//! it is clamped, and unlimited attempts, a Temporal coefficient other than 2 or 1, a Celery
//! task acknowledged before it runs, Sidekiq dropping exhausted jobs and settings the sheet
//! has no field for become a `setting-not-in-sheet` finding at their line. `acks_late=True`
//! is what the sheet assumes already (a job acknowledged after it runs, redelivered when its
//! lease ends), so it needs no word.

use super::code_defaults::{defaults, Defaults};
use super::found::{Fact, Pos, Value};
use super::record::{not_in_sheet, sheet_for, AuditFinding, Build, Facts, NotStated};
use crate::domain::duration::human;
use crate::domain::queues::schedule::of_sheet;
use crate::domain::queues::{
    self, active_job, oban, pg_boss, river, temporal, Delay, Schedule, TargetId, TargetVersion,
};
use crate::domain::sheet::check::Severity;
use crate::domain::sheet::{BackoffKind, Jitter, JobSheet, Keep, MAX_CAP_MS};
use crate::text::t;

/// The sheet's largest attempt count.
const MAX_ATTEMPTS: u32 = 100;
/// The sheet's largest first wait, attempt timeout and lease, in ms (1 day).
const MAX_MS: u64 = 86_400_000;
/// How many attempts are listed for an unlimited schedule.
const LISTED: u32 = 21;

/// What the file states about the wait, with the defaults filled in.
struct Wait {
    /// Attempts, `None`: unlimited.
    attempts: Option<u32>,
    /// Whether the file states the attempts.
    attempts_stated: bool,
    /// Whether the file states anything about the wait.
    wait_stated: bool,
    /// Whether the file states the jitter.
    jitter_stated: bool,
    /// Whether the file states the cap.
    cap_stated: bool,
    /// The wait's kind.
    kind: BackoffKind,
    /// First wait, ms, as stated (may be 0).
    base_ms: u64,
    /// Cap, ms.
    cap_ms: u64,
    /// Jitter.
    jitter: Jitter,
    /// Temporal's coefficient.
    coefficient: f64,
}

/// Whether the file names `fact` (kebab-case) with a value the reader did not evaluate.
fn unresolved(f: &Facts, fact: &str) -> bool {
    f.settings
        .iter()
        .any(|s| matches!(&s.value, Value::Unresolved { fact: x, .. } if *x == fact))
}

/// A default in words: `audit.default.code.{system}.{field}`; Sidekiq 6.2.2 – 7.x's own
/// jitter `audit.default.code.sidekiq-6.{field}`.
fn words(b: &Build, sys: TargetId, field: &str) -> String {
    let older = b.version == Some(TargetVersion::Sidekiq6) && matches!(field, "backoff" | "jitter");
    let system = if older { "sidekiq-6" } else { sys.name() };
    b.say(&format!("code.{system}.{field}"))
}

/// Records `path` as not stated unless the file names it with an unresolved value (then it
/// is listed as unresolved instead).
fn not_stated(b: &mut Build, f: &Facts, path: &'static str, facts: &[&str], default: String) {
    if !facts.iter().any(|x| unresolved(f, x)) {
        b.not_stated.push(NotStated { path, default });
    }
}

/// `value` kept within `lo ..= hi`, with a finding at `at` when it was not.
fn clamp(b: &mut Build, path: &str, key: (&str, Pos), value: u64, lo: u64, hi: u64) -> u64 {
    let kept = value.clamp(lo, hi);
    if kept != value {
        let l = b.lang;
        not_in_sheet(
            b,
            path,
            key.1,
            "clamped",
            &[
                ("key", key.0.to_owned()),
                ("value", human(value, l)),
                ("allowed", format!("{} – {}", human(lo, l), human(hi, l))),
                ("kept", human(kept, l)),
            ],
        );
    }
    kept
}

/// The key the file writes a setting under, at `at`.
fn key_at(f: &Facts, at: Pos) -> String {
    f.settings
        .iter()
        .find(|s| s.at == at)
        .map_or_else(String::new, |s| s.key.clone())
}

/// The wait as stated, the system's defaults for the rest, with "not stated" recorded.
fn wait(sys: TargetId, d: &Defaults, f: &Facts, b: &mut Build) -> Wait {
    let attempts = f.get(|x| match x {
        Fact::Attempts(v) => Some(*v),
        _ => None,
    });
    if attempts.is_none() {
        not_stated(
            b,
            f,
            "retry.max_attempts",
            &["attempts"],
            words(b, sys, "attempts"),
        );
    }
    let kind = f.get(|x| match x {
        Fact::BackoffKind(k) => Some(*k),
        _ => None,
    });
    let base = f.get(|x| match x {
        Fact::BaseMs(v) => Some(*v),
        _ => None,
    });
    let cap = f.get(|x| match x {
        Fact::CapMs(v) => Some(*v),
        _ => None,
    });
    let jitter = f.get(|x| match x {
        Fact::Jitter(j) => Some(*j),
        _ => None,
    });
    let factor = f.get(|x| match x {
        Fact::FactorMilli(v) => Some(*v),
        _ => None,
    });
    let wait_stated = kind.is_some() || base.is_some() || cap.is_some() || jitter.is_some();
    for at in [
        kind.map(|k| k.1),
        base.map(|k| k.1),
        cap.map(|k| k.1),
        jitter.map(|k| k.1),
    ]
    .into_iter()
    .flatten()
    {
        b.at.push(("retry.backoff", at));
    }
    let kind_v = kind.map(|k| k.0).unwrap_or(match (base, sys) {
        // A stated first wait without a kind: the systems' own fixed waits.
        (Some(_), TargetId::Celery | TargetId::Bullmq | TargetId::PgBoss) => BackoffKind::Fixed,
        _ => d.kind,
    });
    // A wait of another kind than the system's default: its own defaults for the rest.
    let other = kind_v != d.kind;
    let exponential = kind_v == BackoffKind::Exponential && other;
    let base_v = base.map(|v| v.0).unwrap_or(match sys {
        // pg-boss's backoff waits max(retryDelay, 1) · 2^(rc+1) / 2 s: 2 s in the sheet's terms.
        TargetId::PgBoss if exponential => 2_000,
        _ => d.base_ms,
    });
    let cap_v = cap.map(|v| v.0).unwrap_or_else(|| {
        if sys == TargetId::Temporal {
            base_v.saturating_mul(temporal::DEFAULT_MAX_INTERVAL_FACTOR)
        } else if kind_v == BackoffKind::Fixed {
            base_v
        } else if other {
            d.exp_cap_ms
        } else {
            d.cap_ms
        }
    });
    let jitter_v = jitter
        .map(|j| j.0)
        .unwrap_or(if other { d.exp_jitter } else { d.jitter });
    let wait_facts = ["backoff-kind", "base-ms", "cap-ms", "jitter"];
    if !wait_stated {
        not_stated(b, f, "retry.backoff", &wait_facts, words(b, sys, "backoff"));
    } else {
        if cap.is_none() && kind_v != BackoffKind::Fixed {
            not_stated(
                b,
                f,
                "retry.backoff.cap_ms",
                &["cap-ms"],
                words(b, sys, "cap"),
            );
        }
        // Celery's and pg-boss's fixed waits have no jitter; BullMQ's and Active Job's do.
        let jittered =
            kind_v != BackoffKind::Fixed || matches!(sys, TargetId::Bullmq | TargetId::ActiveJob);
        if jitter.is_none() && jittered {
            not_stated(
                b,
                f,
                "retry.backoff.jitter",
                &["jitter"],
                words(b, sys, "jitter"),
            );
        }
    }
    let coefficient = coefficient(f, b, factor);
    Wait {
        attempts: attempts.map_or(d.attempts, |a| a.0),
        attempts_stated: attempts.is_some(),
        wait_stated: wait_stated || factor.is_some(),
        jitter_stated: jitter.is_some(),
        cap_stated: cap.is_some(),
        kind: kind_v,
        base_ms: base_v,
        cap_ms: cap_v,
        jitter: jitter_v,
        coefficient,
    }
}

/// Temporal's `backoffCoefficient` (2 when not stated); one other than 2 or 1 is said at its
/// line (the sheet's exponential backoff doubles).
fn coefficient(f: &Facts, b: &mut Build, factor: Option<(u64, Pos)>) -> f64 {
    let coefficient = factor.map_or(temporal::DEFAULT_COEFFICIENT, |(m, _)| m as f64 / 1000.0);
    if let Some((m, at)) = factor {
        if m != 1000 && m != 2000 {
            let key = key_at(f, at);
            not_in_sheet(
                b,
                "retry.backoff",
                at,
                "coefficient",
                &[("key", key), ("value", format!("{coefficient}"))],
            );
        }
    }
    coefficient
}

/// The retry section of a code system's job: its sheet (stated values, the system's defaults
/// for the rest, clamped into the sheet's ranges) and the schedule the system runs.
pub(super) fn code_job(sys: TargetId, f: &Facts, b: &mut Build) -> (JobSheet, Schedule) {
    let d = defaults(sys);
    let mut sheet = sheet_for(&b.name, false, b.lang);
    let w = wait(sys, &d, f, b);
    if sys == TargetId::Bullmq && !w.attempts_stated && !unresolved(f, "attempts") {
        let message = t!(
            "audit.finding.bullmq-no-retries",
            locale = b.lang.code(),
            job = &b.name
        )
        .into_owned();
        b.extra.push(AuditFinding {
            code: "bullmq-no-retries",
            severity: Severity::Warning,
            message,
            field: "retry.max_attempts".to_owned(),
            line: b.job_at.line,
            column: b.job_at.column,
            stated: false,
        });
    }
    let attempts_at = f.get(|x| match x {
        Fact::Attempts(_) => Some(()),
        _ => None,
    });
    if let Some(r) = sheet.retry.as_mut() {
        r.max_attempts = match (w.attempts, attempts_at) {
            (Some(n), Some((_, at))) => {
                let key = (key_at(f, at), at);
                clamp(
                    b,
                    "retry.max_attempts",
                    (&key.0, key.1),
                    u64::from(n),
                    1,
                    u64::from(MAX_ATTEMPTS),
                ) as u32
            }
            (Some(n), None) => n.clamp(1, MAX_ATTEMPTS),
            (None, at) => {
                if let Some((_, at)) = at {
                    let system = sys.label().to_owned();
                    not_in_sheet(
                        b,
                        "retry.max_attempts",
                        at,
                        "unlimited",
                        &[("key", key_at(f, at)), ("system", system)],
                    );
                }
                MAX_ATTEMPTS
            }
        };
        if let Some((_, at)) = attempts_at {
            b.at.push(("retry.max_attempts", at));
        }
        r.backoff.kind = w.kind;
        let least = u64::from(!matches!(w.kind, BackoffKind::Polynomial(_)));
        let backoff_at = b.place("retry.backoff").0;
        r.backoff.base_ms = if w.wait_stated {
            let key = key_at(f, backoff_at);
            clamp(
                b,
                "retry.backoff",
                (&key, backoff_at),
                w.base_ms,
                least,
                MAX_MS,
            )
        } else {
            w.base_ms.clamp(least, MAX_MS)
        };
        r.backoff.cap_ms = w.cap_ms.clamp(r.backoff.base_ms.max(1), MAX_CAP_MS);
        r.backoff.jitter = w.jitter;
    }
    // The system's own jitter the sheet cannot hold: Sidekiq always adds one; Oban's and
    // River's default waits and Active Job's default `jitter:` have one.
    let own_jitter = match sys {
        TargetId::Sidekiq => true,
        TargetId::Oban | TargetId::River => !w.wait_stated,
        TargetId::ActiveJob => !w.jitter_stated,
        _ => false,
    };
    if own_jitter {
        b.moot.push("exponential-without-jitter");
    }
    timing(sys, &d, f, b, &mut sheet);
    failure(sys, f, b, &mut sheet);
    let schedule = schedule(sys, &sheet, &w, b);
    (sheet, schedule)
}

/// The attempt timeout, the lease and the queue's retention.
fn timing(sys: TargetId, d: &Defaults, f: &Facts, b: &mut Build, sheet: &mut JobSheet) {
    let timeout = f.get(|x| match x {
        Fact::AttemptTimeoutMs(v) => Some(*v),
        _ => None,
    });
    let lease = f.get(|x| match x {
        Fact::LeaseMs(v) => Some(*v),
        _ => None,
    });
    let retention = f.get(|x| match x {
        Fact::RetentionMs(v) => Some(*v),
        _ => None,
    });
    if timeout.is_none() {
        let w = words(b, sys, "timeout");
        not_stated(b, f, "retry.attempt_timeout_ms", &["attempt-timeout-ms"], w);
    }
    if lease.is_none() {
        not_stated(
            b,
            f,
            "retry.lease_ms",
            &["lease-ms"],
            words(b, sys, "lease"),
        );
    }
    if retention.is_none() && sys == TargetId::PgBoss {
        let w = words(b, sys, "retention");
        not_stated(b, f, "retry.queue_retention_ms", &["retention-ms"], w);
    }
    let Some(r) = sheet.retry.as_mut() else {
        return;
    };
    if let Some(t) = timeout.map(|t| t.0).or(d.timeout_ms) {
        r.attempt_timeout_ms = match timeout {
            Some((_, at)) => {
                b.at.push(("retry.attempt_timeout_ms", at));
                clamp(
                    b,
                    "retry.attempt_timeout_ms",
                    (&key_at(f, at), at),
                    t,
                    1,
                    MAX_MS,
                )
            }
            None => t,
        };
    }
    if let Some(l) = lease.map(|l| l.0).or(d.lease_ms) {
        r.lease_ms = match lease {
            Some((_, at)) => {
                b.at.push(("retry.lease_ms", at));
                clamp(b, "retry.lease_ms", (&key_at(f, at), at), l, 1, MAX_MS)
            }
            None => l,
        };
    }
    // pg-boss's `expireInSeconds` is the attempt timeout and the lease at once; the sheet
    // wants the lease above the timeout (a job is noticed expired only after it).
    if sys == TargetId::PgBoss {
        // pg-boss's `expireInSeconds` is the attempt timeout and the lease at once; its
        // monitor notices an expired job within `monitorIntervalSeconds` (60 s).
        r.lease_ms = r.attempt_timeout_ms.saturating_add(60_000).min(MAX_MS);
    } else if timeout.is_none() && d.timeout_ms.is_none() && r.lease_ms <= r.attempt_timeout_ms {
        // No timeout in the system: the prefilled one stays under the system's lease.
        r.attempt_timeout_ms = if r.lease_ms > 1_000 {
            r.lease_ms - 1_000
        } else {
            (r.lease_ms / 2).max(1)
        };
    } else if lease.is_none() && r.lease_ms <= r.attempt_timeout_ms {
        r.lease_ms = r.attempt_timeout_ms.saturating_add(1_000).min(MAX_MS);
    }
    if let Some((ms, at)) = retention {
        b.at.push(("retry.queue_retention_ms", at));
        let key = key_at(f, at);
        r.queue_retention_ms = Some(clamp(
            b,
            "retry.queue_retention_ms",
            (&key, at),
            ms,
            60_000,
            MAX_CAP_MS,
        ));
    }
    match f.get(|x| match x {
        Fact::Retryable(v) => Some(v.clone()),
        _ => None,
    }) {
        Some((list, at)) => {
            b.at.push(("retry.retryable_errors", at));
            r.retryable_errors = list;
        }
        // One attempt: the system retries no error; the prefilled list would say otherwise.
        None if r.max_attempts == 1 => r.retryable_errors.clear(),
        None => {}
    }
    if let Some((list, at)) = f.get(|x| match x {
        Fact::NonRetryable(v) => Some(v.clone()),
        _ => None,
    }) {
        b.at.push(("retry.non_retryable_errors", at));
        r.non_retryable_errors = list;
    }
}

/// The dead letter, and the stated settings the sheet has no field for.
fn failure(sys: TargetId, f: &Facts, b: &mut Build, sheet: &mut JobSheet) {
    let dead = f.get(|x| match x {
        Fact::DeadLetter(v) => Some(v.clone()),
        _ => None,
    });
    let dropped = f.get(|x| match x {
        Fact::KeepDead(false) => Some(()),
        _ => None,
    });
    let text = match (dead, dropped) {
        (Some((name, at)), _) => {
            b.at.push(("failure.dead_letter", at));
            name
        }
        (None, Some((_, at))) => {
            b.at.push(("failure.dead_letter", at));
            let key = key_at(f, at);
            not_in_sheet(b, "failure.dead_letter", at, "dropped", &[("key", key)]);
            b.say("code.dropped")
        }
        (None, None) => match kept_failed(f, b, sheet) {
            Some(text) => text,
            None => {
                let w = words(b, sys, "dead-letter");
                not_stated(b, f, "failure.dead_letter", &["dead-letter"], w.clone());
                w
            }
        },
    };
    kept_done(f, b, sheet);
    if let Some(fs) = sheet.failure.as_mut() {
        fs.dead_letter = text;
    }
    for s in f.settings {
        let Value::Stated(fact) = &s.value else {
            continue;
        };
        let value = match fact {
            Fact::AcksLate(false) => {
                not_in_sheet(
                    b,
                    "retry.lease_ms",
                    s.at,
                    "acks-early",
                    &[("key", s.key.clone())],
                );
                continue;
            }
            Fact::Concurrency(n) => n.to_string(),
            Fact::RatePerSecMilli(m) => format!("{}/s", *m as f64 / 1000.0),
            Fact::MaxRetryDurationMs(ms) => human(*ms, b.lang),
            Fact::MaxDoublings(n) | Fact::MaxReceiveCount(n) | Fact::BatchSize(n) => n.to_string(),
            Fact::BatchWindowMs(ms) | Fact::StartingDeadlineMs(ms) => human(*ms, b.lang),
            _ => continue,
        };
        not_in_sheet(
            b,
            "retry",
            s.at,
            "other",
            &[("key", s.key.clone()), ("value", value)],
        );
    }
}

/// What the file states about keeping failed jobs (BullMQ `removeOnFail`): the dead
/// letter's words — removed at once (a finding: nobody can look at them), kept forever, or
/// the newest `count` / for `age` — and, for an age of whole days, the dead letter's
/// retention. `None` when the file does not say.
fn kept_failed(f: &Facts, b: &mut Build, sheet: &mut JobSheet) -> Option<String> {
    let ((count, age_ms), at) = f.get(|x| match x {
        Fact::KeepJobs {
            failed: true,
            count,
            age_ms,
        } => Some((*count, *age_ms)),
        _ => None,
    })?;
    b.at.push(("failure.dead_letter", at));
    let key = key_at(f, at);
    if count == Some(0) {
        not_in_sheet(b, "failure.dead_letter", at, "removed", &[("key", key)]);
        return Some(b.say("code.bullmq.removed"));
    }
    if let Some(d) = age_ms.and_then(whole_days) {
        if let Some(fs) = sheet.failure.as_mut() {
            fs.retention.dead = Keep::Days(d);
            b.at.push(("failure.retention.dead", at));
        }
    }
    let l = b.lang;
    let text = match (count, age_ms) {
        (None, None) => b.say("code.bullmq.kept-forever"),
        (Some(n), None) => b
            .say("code.bullmq.kept-count")
            .replace("%{count}", &n.to_string()),
        (None, Some(ms)) => b
            .say("code.bullmq.kept-age")
            .replace("%{age}", &human(ms, l)),
        (Some(n), Some(ms)) => b
            .say("code.bullmq.kept-count-age")
            .replace("%{count}", &n.to_string())
            .replace("%{age}", &human(ms, l)),
    };
    Some(text)
}

/// What the file states about keeping completed jobs (BullMQ `removeOnComplete`): an age
/// of whole days is the done jobs' retention; anything else (a count, removed at once, an
/// age in hours) the sheet cannot hold, said at its line.
fn kept_done(f: &Facts, b: &mut Build, sheet: &mut JobSheet) {
    let Some(((count, age_ms), at)) = f.get(|x| match x {
        Fact::KeepJobs {
            failed: false,
            count,
            age_ms,
        } => Some((*count, *age_ms)),
        _ => None,
    }) else {
        return;
    };
    match (count, age_ms.and_then(whole_days)) {
        (None, Some(d)) => {
            if let Some(fs) = sheet.failure.as_mut() {
                fs.retention.done = Keep::Days(d);
                b.at.push(("failure.retention.done", at));
            }
        }
        (None, None) if age_ms.is_none() => {
            if let Some(fs) = sheet.failure.as_mut() {
                fs.retention.done = Keep::UntilHandled;
                b.at.push(("failure.retention.done", at));
            }
        }
        _ => {
            let l = b.lang;
            let value = match (count, age_ms) {
                (Some(0), _) => b.say("code.bullmq.done-removed"),
                (Some(n), None) => format!("{{ count: {n} }}"),
                (None, Some(ms)) => format!("{{ age: {} }}", human(ms, l)),
                (Some(n), Some(ms)) => format!("{{ age: {}, count: {n} }}", human(ms, l)),
                (None, None) => String::new(),
            };
            let key = key_at(f, at);
            not_in_sheet(
                b,
                "failure.retention.done",
                at,
                "other",
                &[("key", key), ("value", value)],
            );
        }
    }
}

/// `ms` as whole days the sheet can keep (1 ..= 3650), if it is one.
fn whole_days(ms: u64) -> Option<u32> {
    ms.is_multiple_of(86_400_000)
        .then_some(ms / 86_400_000)
        .and_then(|d| u32::try_from(d).ok())
        .filter(|d| (1..=3650).contains(d))
}

/// The schedule `sys` runs for the sheet and the stated wait.
fn schedule(sys: TargetId, sheet: &JobSheet, w: &Wait, b: &Build) -> Schedule {
    if !w.attempts_stated && !w.wait_stated {
        return queues::defaults_version(sys, b.version, b.lang).schedule;
    }
    let n = w.attempts.map_or(LISTED, |n| n.clamp(1, 10_000));
    let delays: Vec<Delay> = match sys {
        TargetId::Temporal => {
            let p = temporal::RetryPolicy {
                initial_ms: w.base_ms.max(1),
                coefficient: if w.kind == BackoffKind::Fixed {
                    1.0
                } else {
                    w.coefficient.max(1.0)
                },
                maximum_ms: w.cap_ms.max(w.base_ms.max(1)),
                maximum_attempts: w.attempts.map_or(0, |n| n.clamp(1, 10_000)),
            };
            return p.schedule();
        }
        TargetId::PgBoss => {
            let backoff = w.kind == BackoffKind::Exponential;
            let o = pg_boss::RetryOptions {
                retry_limit: n - 1,
                retry_delay_s: if backoff {
                    w.base_ms / 2000
                } else {
                    w.base_ms / 1000
                },
                backoff,
                delay_max_s: w.cap_stated.then_some(w.cap_ms / 1000),
            };
            return o.schedule();
        }
        TargetId::Bullmq if !w.wait_stated => vec![Delay::fixed(0.0); (n - 1) as usize],
        TargetId::Oban if !w.wait_stated => (1..n)
            .map(|a| oban::default_delay(oban::default_base_s(a, n)))
            .collect(),
        TargetId::River if !w.wait_stated => (1..n).map(river::default_delay).collect(),
        TargetId::ActiveJob if !w.jitter_stated => {
            // `:polynomially_longer` is `n⁴ + rand · n⁴ · jitter + 2`: the 2 s take no jitter.
            let fixed = match sheet.retry.as_ref().map(|r| r.backoff.kind) {
                Some(BackoffKind::Polynomial(_)) => active_job::POLYNOMIAL_FIXED_S,
                _ => 0.0,
            };
            of_sheet(sheet)
                .delays
                .iter()
                .map(|d| active_job::with_default_jitter_over(d.expected_s, fixed))
                .collect()
        }
        _ => {
            let actual = queues::report_version(sheet, sys, None, b.version, b.lang)
                .map_or_else(|_| of_sheet(sheet), |r| r.built.actual);
            if w.attempts.is_some() {
                return actual;
            }
            actual.delays
        }
    };
    if w.attempts.is_some() {
        Schedule::bounded(delays)
    } else {
        Schedule::unlimited(delays)
    }
}

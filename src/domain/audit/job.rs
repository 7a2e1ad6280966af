//! One job read from a file → what `audit` reports about it ([`AuditJob`]): a sheet holding
//! what the file states and, for the rest, the system's own defaults (listed in
//! `not_stated`, so the schedule is the one the system really runs); that schedule, from the
//! targets' own formulas ([`crate::domain::queues`]); the sheet's findings, the target's and
//! the system's traps, each at the line of the setting it concerns; and the settings not
//! resolved.

use super::found::{Fact, Found, Value};
use super::job_version::{job_version, outside_finding, wait_finding, Asker, JobVersion};
use super::pins::{choose, Choice};
use super::record::{sheet_for, Build, Facts};
pub use super::record::{AuditFinding, NotStated};
use super::traps;
use crate::domain::bidi::{show, Shown};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::queues::{cloud_tasks, kubernetes, sqs, Delay, Schedule, TargetId};
use crate::domain::sheet::{BackoffKind, Jitter, JobSheet, MissedRun, Overlap};
use crate::text::t;
use serde::Serialize;

/// A setting the file names but the reader does not evaluate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unresolved {
    /// The key as written.
    pub key: String,
    /// The fact it would give (kebab-case).
    pub fact: &'static str,
    /// The expression as written.
    pub expression: String,
    /// Its line.
    pub line: u32,
    /// Its column.
    pub column: u32,
}

/// One job of an audited file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditJob {
    /// The file, as named.
    pub file: String,
    /// The job's name as the file writes it.
    pub name: String,
    /// Where the job starts.
    pub line: u32,
    /// The system (a name from `targets`).
    pub system: TargetId,
    /// The sheet: what the file states, the system's defaults for the rest.
    pub sheet: JobSheet,
    /// The sheet's fields the file does not state, with the default used.
    pub not_stated: Vec<NotStated>,
    /// The schedule the system runs.
    pub schedule: Schedule,
    /// Findings, in line order.
    pub findings: Vec<AuditFinding>,
    /// Settings not resolved.
    pub unresolved: Vec<Unresolved>,
    /// The release the job was audited for and where that came from.
    pub version: JobVersion,
}

fn fixed_delays(s: f64, n: usize) -> Vec<Delay> {
    vec![Delay::fixed(s); n]
}

/// SQS + Lambda: the visibility timeout is the lease and the wait, `maxReceiveCount` the
/// attempts (none: redelivered until the retention ends), the function's timeout the attempt's.
fn sqs_job(f: &Facts, b: &mut Build) -> (JobSheet, Schedule) {
    let l = b.lang;
    let mut sheet = sheet_for(&b.name, false, l);
    let lease = b
        .note(
            "retry.lease_ms",
            f.get(|x| match x {
                Fact::LeaseMs(v) => Some(*v),
                _ => None,
            }),
            b_default(TargetId::Sqs, sqs::VISIBILITY_DEFAULT_S * 1000, l),
        )
        .unwrap_or(sqs::VISIBILITY_DEFAULT_S * 1000);
    let timeout = b
        .note(
            "retry.attempt_timeout_ms",
            f.get(|x| match x {
                Fact::AttemptTimeoutMs(v) => Some(*v),
                _ => None,
            }),
            t!("audit.default.lambda-timeout", locale = l.code()).into_owned(),
        )
        .unwrap_or(3_000);
    // Not stated: `None` in the sheet, so the target's own default (4 days) applies, as for
    // an export.
    let stated_retention = b.note(
        "retry.queue_retention_ms",
        f.get(|x| match x {
            Fact::RetentionMs(v) => Some(*v),
            _ => None,
        }),
        b_default(TargetId::Sqs, sqs::RETENTION_DEFAULT_S * 1000, l),
    );
    let retention = stated_retention.unwrap_or(sqs::RETENTION_DEFAULT_S * 1000);
    let receives = f.get(|x| match x {
        Fact::MaxReceiveCount(v) => Some(*v),
        _ => None,
    });
    let dead = f.get(|x| match x {
        Fact::DeadLetter(v) => Some(v.clone()),
        _ => None,
    });
    let until = (retention / lease.max(1)).clamp(1, 100) as u32;
    let attempts = b.note(
        "retry.max_attempts",
        receives,
        t!(
            "audit.default.sqs-no-redrive",
            locale = l.code(),
            receives = until
        )
        .into_owned(),
    );
    let dead = b.note(
        "failure.dead_letter",
        dead,
        t!("audit.default.sqs-no-dlq", locale = l.code()).into_owned(),
    );
    if let Some(r) = sheet.retry.as_mut() {
        r.max_attempts = attempts.unwrap_or(until).clamp(1, 100);
        r.backoff.kind = BackoffKind::Fixed;
        r.backoff.base_ms = lease.max(1);
        r.backoff.cap_ms = lease.max(1);
        r.backoff.jitter = Jitter::None;
        r.attempt_timeout_ms = timeout;
        r.lease_ms = lease;
        r.queue_retention_ms = stated_retention;
    }
    if let (Some(fs), Some(d)) = (sheet.failure.as_mut(), dead) {
        fs.dead_letter = d;
    }
    // The visibility timeout is the wait (SQS has no backoff): where it is stated, so is it.
    if let Some(&(_, at)) = b.at.iter().find(|(p, _)| *p == "retry.lease_ms") {
        b.at.push(("retry.backoff", at));
    }
    let vis_s = (lease as f64 / 1000.0).ceil();
    let schedule = match attempts {
        Some(n) => Schedule::bounded(fixed_delays(vis_s, n.saturating_sub(1) as usize)),
        None => Schedule::unlimited(fixed_delays(vis_s, 10)),
    };
    (sheet, schedule)
}

fn b_default(system: TargetId, ms: u64, lang: Lang) -> String {
    t!(
        "audit.default-of",
        locale = lang.code(),
        value = exact(ms, lang),
        system = system.label()
    )
    .into_owned()
}

/// Cloud Tasks: `maxAttempts` (−1: unlimited), min/max backoff and doublings by the
/// queue.proto rule; no jitter, no lease, no dead-letter queue.
fn cloud_tasks_job(f: &Facts, b: &mut Build) -> (JobSheet, Schedule) {
    let l = b.lang;
    let sys = TargetId::CloudTasks;
    let mut sheet = sheet_for(&b.name, false, l);
    let attempts = b.note(
        "retry.max_attempts",
        f.get(|x| match x {
            Fact::Attempts(v) => Some(*v),
            _ => None,
        }),
        b.default_of(sys, &cloud_tasks::DEFAULT_MAX_ATTEMPTS.to_string()),
    );
    let attempts = attempts.unwrap_or(Some(cloud_tasks::DEFAULT_MAX_ATTEMPTS));
    let min = b
        .note(
            "retry.backoff.base_ms",
            f.get(|x| match x {
                Fact::BaseMs(v) => Some(*v),
                _ => None,
            }),
            b_default(sys, cloud_tasks::DEFAULT_MIN_BACKOFF_MS, l),
        )
        .unwrap_or(cloud_tasks::DEFAULT_MIN_BACKOFF_MS);
    let max = b
        .note(
            "retry.backoff.cap_ms",
            f.get(|x| match x {
                Fact::CapMs(v) => Some(*v),
                _ => None,
            }),
            b_default(sys, cloud_tasks::DEFAULT_MAX_BACKOFF_MS, l),
        )
        .unwrap_or(cloud_tasks::DEFAULT_MAX_BACKOFF_MS);
    let doublings = f
        .get(|x| match x {
            Fact::MaxDoublings(v) => Some(*v),
            _ => None,
        })
        .map_or(cloud_tasks::DEFAULT_MAX_DOUBLINGS, |(d, _)| d);
    b.not_stated.push(NotStated {
        path: "retry.attempt_timeout_ms",
        default: b.say("cloud-tasks-deadline"),
    });
    b.not_stated.push(NotStated {
        path: "failure.dead_letter",
        default: b.say("cloud-tasks-no-dlq"),
    });
    b.not_stated.push(NotStated {
        path: "retry.lease_ms",
        default: b.say("cloud-tasks-lease"),
    });
    b.not_stated.push(NotStated {
        path: "retry.queue_retention_ms",
        default: b_default(sys, cloud_tasks::MAX_TASK_AGE_MS, l),
    });
    let p = cloud_tasks::RetryParams {
        max_attempts: attempts.unwrap_or(u32::MAX).min(10_000),
        min_backoff_ms: min,
        max_backoff_ms: max.max(min),
        max_doublings: doublings.min(62),
    };
    if let Some(r) = sheet.retry.as_mut() {
        r.max_attempts = attempts.unwrap_or(100).clamp(1, 100);
        r.backoff.kind = BackoffKind::Exponential;
        r.backoff.base_ms = min.max(1);
        r.backoff.cap_ms = max.max(min).max(1);
        r.backoff.jitter = Jitter::None;
        r.attempt_timeout_ms = 600_000;
        r.lease_ms = cloud_tasks::MAX_DEADLINE_MS;
        // Not stated: the target's own default (31 days) applies, as for an export.
        r.queue_retention_ms = None;
    }
    let delays = |n: u32| {
        (1..n)
            .map(|k| Delay::fixed(cloud_tasks::delay_s(&p, k)))
            .collect::<Vec<_>>()
    };
    let schedule = match attempts {
        Some(n) => Schedule::bounded(delays(n.min(10_000))),
        None => Schedule::unlimited(delays(101)),
    };
    (sheet, schedule)
}

/// Kubernetes Job / CronJob: attempts = backoffLimit + 1 (default 7), the controller's pod
/// backoff, the pod's deadline as the attempt timeout; a CronJob's schedule, zone and
/// concurrency policy as the batch section.
fn kubernetes_job(f: &Facts, cron: bool, b: &mut Build) -> (JobSheet, Schedule) {
    let l = b.lang;
    let sys = TargetId::Kubernetes;
    let mut sheet = sheet_for(&b.name, cron, l);
    let attempts = f.get(|x| match x {
        Fact::Attempts(v) => Some(v.unwrap_or(1)),
        _ => None,
    });
    let default_attempts = kubernetes::DEFAULT_BACKOFF_LIMIT + 1;
    let attempts = if cron {
        attempts.map_or(default_attempts, |(a, _)| a)
    } else {
        b.note(
            "retry.max_attempts",
            attempts,
            b.default_of(sys, &default_attempts.to_string()),
        )
        .unwrap_or(default_attempts)
    };
    let timeout = f.get(|x| match x {
        Fact::AttemptTimeoutMs(v) => Some(*v),
        _ => None,
    });
    let deadline = f.get(|x| match x {
        Fact::MaxRetryDurationMs(v) => Some(*v),
        _ => None,
    });
    if let Some(r) = sheet.retry.as_mut() {
        let t = b.note(
            "retry.attempt_timeout_ms",
            timeout,
            t!("audit.default.no-limit", locale = l.code()).into_owned(),
        );
        r.max_attempts = attempts.clamp(1, 100);
        r.backoff.kind = BackoffKind::Exponential;
        r.backoff.base_ms = kubernetes::POD_BACKOFF_BASE_S * 1000;
        r.backoff.cap_ms = kubernetes::POD_BACKOFF_MAX_S * 1000;
        r.backoff.jitter = Jitter::None;
        if let Some(t) = t {
            r.attempt_timeout_ms = t.max(1);
            r.lease_ms = r.lease_ms.max(t.saturating_add(1));
        }
        b.not_stated.push(NotStated {
            path: "retry.lease_ms",
            default: b.say("kubernetes-lease"),
        });
    }
    if let Some(bs) = sheet.batch.as_mut() {
        let cronx = f.get(|x| match x {
            Fact::Cron(v) => Some(v.clone()),
            _ => None,
        });
        if let Some(c) = b.note("batch.schedule", cronx, String::new()) {
            bs.schedule = c;
        }
        let zone = f.get(|x| match x {
            Fact::TimeZone(v) => Some(v.clone()),
            _ => None,
        });
        if let Some(z) = b.note(
            "batch.time_zone",
            zone,
            t!("audit.default.kubernetes-zone", locale = l.code()).into_owned(),
        ) {
            bs.time_zone = z;
        }
        let policy = f.get(|x| match x {
            Fact::ConcurrencyPolicy(v) => Some(v.clone()),
            _ => None,
        });
        bs.overlap = match b
            .note("batch.overlap", policy, b.default_of(sys, "Allow"))
            .as_deref()
        {
            Some("Forbid") => Overlap::Forbid,
            Some("Replace") => Overlap::Replace,
            _ => Overlap::Allow,
        };
        let starting = f.get(|x| match x {
            Fact::StartingDeadlineMs(v) => Some(*v),
            _ => None,
        });
        bs.missed_run = match b.note("batch.missed_run", starting, b.say("kubernetes-missed")) {
            Some(_) => MissedRun::Skip,
            None => MissedRun::RunOnce,
        };
        if let Some(d) = b.note(
            "batch.run_timeout_ms",
            deadline,
            t!("audit.default.no-limit", locale = l.code()).into_owned(),
        ) {
            bs.run_timeout_ms = d.max(1);
        }
    }
    b.not_stated.push(NotStated {
        path: "failure.dead_letter",
        default: b.say("kubernetes-no-dlq"),
    });
    let schedule = Schedule::bounded(
        (1..attempts.min(10_000))
            .map(|n| Delay::fixed(kubernetes::pod_backoff_s(n) as f64))
            .collect(),
    );
    (sheet, schedule)
}

/// The report of one job `found` in `file`, texts in `lang`, for the newest release
/// followed (nothing pins one: [`audit_job_for`] with no pin).
pub fn audit_job(file: &str, found: &Found, lang: Lang) -> AuditJob {
    let choice = choose(found.system, None, &[]);
    audit_job_for(file, found, &choice, Asker::Cli, lang)
}

/// The report of one job `found` in `file` for the release `choice` names (its schedule
/// and findings follow that release's formulas), texts in `lang`; `asker` words how to
/// choose another.
pub fn audit_job_for(
    file: &str,
    found: &Found,
    choice: &Choice,
    asker: Asker,
    lang: Lang,
) -> AuditJob {
    let facts = Facts {
        settings: &found.settings,
    };
    let mut b = Build {
        not_stated: Vec::new(),
        at: Vec::new(),
        job_at: found.at,
        lang,
        // A name leaves the file into reports: a bidi control in it is shown, not kept.
        name: if found.name.is_empty() {
            "job".to_owned()
        } else {
            show(&found.name, Shown::Text).into_owned()
        },
        extra: Vec::new(),
        moot: Vec::new(),
        version: choice.version,
    };
    let (sheet, schedule) = match found.system {
        TargetId::Kubernetes => kubernetes_job(&facts, super::kubernetes::is_cron(found), &mut b),
        TargetId::CloudTasks => cloud_tasks_job(&facts, &mut b),
        TargetId::Celery
        | TargetId::Sidekiq
        | TargetId::ActiveJob
        | TargetId::Oban
        | TargetId::River
        | TargetId::Bullmq
        | TargetId::PgBoss
        | TargetId::Temporal => super::code_job::code_job(found.system, &facts, &mut b),
        _ => sqs_job(&facts, &mut b),
    };
    let mut findings = traps::findings(&sheet, found, &facts, &schedule, &b);
    let at = (found.at.line, found.at.column);
    let release = outside_finding(found.system, choice, at, lang)
        .into_iter()
        .chain(wait_finding(found, choice, lang));
    for f in release {
        let i = findings.partition_point(|x| (x.line, x.column) <= (f.line, f.column));
        findings.insert(i, f);
    }
    let unresolved = found
        .settings
        .iter()
        .filter_map(|s| match &s.value {
            Value::Unresolved { fact, expression } => Some(Unresolved {
                key: s.key.clone(),
                fact,
                expression: show(expression, Shown::Text).into_owned(),
                line: s.at.line,
                column: s.at.column,
            }),
            Value::Stated(_) => None,
        })
        .collect();
    AuditJob {
        file: file.to_owned(),
        name: b.name.clone(),
        line: found.at.line,
        system: found.system,
        sheet,
        not_stated: b.not_stated,
        schedule,
        findings,
        unresolved,
        version: job_version(found.system, choice, asker, lang),
    }
}

//! One job read from a file → what `audit` reports about it ([`AuditJob`]): a sheet holding
//! what the file states and, for the rest, the system's own defaults (listed in
//! `not_stated`, so the schedule is the one the system really runs); that schedule, from the
//! targets' own formulas ([`crate::domain::queues`]); the sheet's findings, the target's and
//! the system's traps, each at the line of the setting it concerns; and the settings not
//! resolved.

use super::found::{Fact, Found, Pos, Value};
use super::job_version::{job_version, outside_finding, wait_finding, Asker, JobVersion};
use super::pins::{choose, Choice};
use super::record::{sheet_for, Build, Facts};
pub use super::record::{AuditFinding, NotStated};
use super::traps;
use super::unchecked::{
    blank_schedule, evaluated, path_of, split, unknown_fields, Unchecked, UnknownField, UnknownPart,
};
use crate::domain::bidi::{show, Shown};
use crate::domain::duration::human;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::queues::schedule::MAX_LISTED;
use crate::domain::queues::{cloud_tasks, kubernetes, sqs, Delay, Schedule, TargetId};
use crate::domain::sheet::{BackoffKind, Jitter, JobSheet, MissedRun, Overlap};
use crate::domain::sim::setup::limits::POLICY_ATTEMPTS;
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
    /// The sheet field it stands for (JSON path), when it stands for one.
    pub path: Option<&'static str>,
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
    /// The sheet fields not resolved (and those that follow from them): the sheet holds the
    /// system's default there only because it must hold a value.
    pub unknown: Vec<UnknownField>,
    /// The parts of the schedule that depend on a value not resolved (then absent from
    /// `schedule`, which has no window).
    pub schedule_unknown: Vec<UnknownPart>,
    /// The rules that cannot be checked: an input is not resolved.
    pub unchecked: Vec<Unchecked>,
    /// The rule ids the audit evaluated for this job (a JUnit test case each).
    pub evaluated: Vec<String>,
    /// The release the job was audited for and where that came from.
    pub version: JobVersion,
    /// Codes of the sheet's rules the system answers itself, so the audit does not apply
    /// them (e.g. `exponential-without-jitter` where Sidekiq adds its own jitter): the
    /// sheet cannot hold that, so its own check still raises them. Not in the JSON report
    /// (`evaluated` leaves these rules out).
    #[serde(skip)]
    pub moot: Vec<&'static str>,
}

fn fixed_delays(s: f64, n: usize) -> Vec<Delay> {
    vec![Delay::fixed(s); n]
}

/// SQS + Lambda: the visibility timeout is the lease and the wait, `maxReceiveCount` the
/// attempts (none: redelivered until the retention ends), the function's timeout the attempt's.
fn sqs_job(f: &Facts, b: &mut Build) -> (JobSheet, Schedule) {
    let l = b.lang;
    let mut sheet = sheet_for(&b.name, false, l);
    // Lambda itself refuses a visibility timeout under the function's timeout (the deploy
    // fails): `visibility-under-function-timeout` says so in place of the sheet's rule.
    b.moot.push("lease-not-longer-than-timeout");
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
    past_sheet_attempts(f, b, receives);
    let dead = f.get(|x| match x {
        Fact::DeadLetter(v) => Some(v.clone()),
        _ => None,
    });
    // Without a redrive policy the queue delivers a message once per visibility timeout
    // until its retention ends: that many times, of which the sheet holds at most 100.
    let until = (retention / lease.max(1)).clamp(1, u64::from(u32::MAX)) as u32;
    let attempts = b.note(
        "retry.max_attempts",
        receives,
        t!(
            "audit.default.sqs-no-redrive",
            locale = l.code(),
            receives = group_thousands(u64::from(until)),
            most = POLICY_ATTEMPTS.1
        )
        .into_owned(),
    );
    let dead = b.note(
        "failure.dead_letter",
        dead,
        t!(
            "audit.default.sqs-no-dlq",
            locale = l.code(),
            retention = human(retention, l)
        )
        .into_owned(),
    );
    if let Some(r) = sheet.retry.as_mut() {
        r.max_attempts = attempts.unwrap_or(until).clamp(1, POLICY_ATTEMPTS.1 as u32);
        r.backoff.kind = BackoffKind::Fixed;
        r.backoff.base_ms = lease.max(1);
        r.backoff.cap_ms = lease.max(1);
        r.backoff.jitter = Jitter::None;
        r.attempt_timeout_ms = timeout;
        r.lease_ms = lease;
        r.queue_retention_ms = stated_retention;
    }
    if let Some(fs) = sheet.failure.as_mut() {
        // Not stated: the system's own default in words, never the prefilled sheet's.
        fs.dead_letter = dead.unwrap_or_else(|| {
            t!(
                "audit.default.sqs-no-dlq",
                locale = l.code(),
                retention = human(retention, l)
            )
            .into_owned()
        });
    }
    // The visibility timeout is the wait (SQS has no backoff): where it is stated, so is it.
    if let Some(&(_, at)) = b.at.iter().find(|(p, _)| *p == "retry.lease_ms") {
        b.at.push(("retry.backoff", at));
    }
    let vis_s = (lease as f64 / 1000.0).ceil();
    let n = attempts.unwrap_or(until).max(1);
    // Listed: the first waits only; the window counts them all.
    let listed = (n - 1).min(MAX_LISTED as u32 + 1) as usize;
    let mut schedule = Schedule::bounded(fixed_delays(vis_s, listed));
    let total = f64::from(n - 1) * vis_s;
    schedule.attempts = Some(n);
    schedule.window_s.min = Some(total);
    schedule.window_s.expected = Some(total);
    schedule.window_s.max = Some(total);
    (sheet, schedule)
}

/// SQS's `maxReceiveCount` past the sheet's 100 attempts: the sheet keeps 100 (its findings
/// count those) while the schedule counts the file's deliveries, said at the setting as for
/// a code job.
fn past_sheet_attempts(f: &Facts, b: &mut Build, receives: Option<(u32, Pos)>) {
    if let Some((n, at)) = receives.filter(|(n, _)| *n > POLICY_ATTEMPTS.1 as u32) {
        let key = f
            .settings
            .iter()
            .find(|s| s.at == at)
            .map_or_else(String::new, |s| s.key.clone());
        super::record::not_in_sheet(
            b,
            "retry.max_attempts",
            at,
            "clamped",
            &[
                ("key", key),
                ("value", group_thousands(u64::from(n))),
                ("allowed", format!("1 – {}", POLICY_ATTEMPTS.1)),
                ("kept", POLICY_ATTEMPTS.1.to_string()),
            ],
        );
    }
}

fn b_default(system: TargetId, ms: u64, lang: Lang) -> String {
    t!(
        "audit.default-of",
        locale = lang.code(),
        value = human(ms, lang),
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
    let dead = b.say("cloud-tasks-no-dlq");
    if let Some(fs) = sheet.failure.as_mut() {
        fs.dead_letter = dead.clone();
    }
    b.not_stated.push(NotStated {
        path: "failure.dead_letter",
        default: dead,
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
    // The waits are the system's, fixed: nothing to set, no jitter to add (so no finding
    // asks for one). `OnFailure`: the kubelet restarts the container in place.
    let in_place = f
        .get(|x| match x {
            Fact::RestartPolicy(p) => Some(p == "OnFailure"),
            _ => None,
        })
        .is_some_and(|(p, _)| p);
    b.moot.push("exponential-without-jitter");
    b.not_stated.push(NotStated {
        path: "retry.backoff",
        default: if in_place {
            t!(
                "audit.default.kubernetes-crash-loop",
                locale = l.code(),
                reset = human(kubernetes::CRASH_LOOP_RESET_S * 1000, l)
            )
            .into_owned()
        } else {
            b.say("kubernetes-pod-backoff")
        },
    });
    if let Some(r) = sheet.retry.as_mut() {
        let t = b.note(
            "retry.attempt_timeout_ms",
            timeout,
            t!("audit.default.no-limit", locale = l.code()).into_owned(),
        );
        r.max_attempts = attempts.clamp(1, 100);
        r.backoff.kind = BackoffKind::Exponential;
        let (base, cap) = if in_place {
            (kubernetes::CRASH_LOOP_BASE_S, kubernetes::CRASH_LOOP_MAX_S)
        } else {
            (
                kubernetes::POD_BACKOFF_BASE_S,
                kubernetes::POD_BACKOFF_MAX_S,
            )
        };
        r.backoff.base_ms = base * 1000;
        r.backoff.cap_ms = cap * 1000;
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
        cron_batch(f, deadline, bs, b);
    }
    let dead = b.say("kubernetes-no-dlq");
    if let Some(fs) = sheet.failure.as_mut() {
        fs.dead_letter = dead.clone();
    }
    b.not_stated.push(NotStated {
        path: "failure.dead_letter",
        default: dead,
    });
    let schedule = Schedule::bounded(
        (1..attempts.min(10_000))
            .map(|n| {
                Delay::fixed(if in_place {
                    kubernetes::crash_loop_s(n)
                } else {
                    kubernetes::pod_backoff_s(n)
                } as f64)
            })
            .collect(),
    );
    (sheet, schedule)
}

/// A CronJob's batch section: its schedule, zone, concurrency policy, missed runs and the
/// Job's deadline (`deadline`) as the run's timeout.
fn cron_batch(
    f: &Facts,
    deadline: Option<(u64, super::found::Pos)>,
    bs: &mut crate::domain::sheet::BatchSpec,
    b: &mut Build,
) {
    let l = b.lang;
    let sys = TargetId::Kubernetes;
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
    // Expressions as written leave the file into every report (the sheet's lines, the
    // schedule's unknown parts, what cannot be checked): a bidi control in one is shown, not
    // kept, once here for all of them.
    let shown;
    let found = if found.settings.iter().any(|s| {
        matches!(&s.value, Value::Unresolved { expression, .. }
            if show(expression, Shown::Text) != expression.as_str())
    }) {
        let mut f = found.clone();
        for s in &mut f.settings {
            if let Value::Unresolved { expression, .. } = &mut s.value {
                *expression = show(expression, Shown::Text).into_owned();
            }
        }
        shown = f;
        &shown
    } else {
        found
    };
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
    let (sheet, mut schedule) = match found.system {
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
    let j = judge(found, &facts, &sheet, &mut schedule, &mut b, choice);
    // One entry per setting as written (a reader may take one setting for two facts, as
    // Celery's `retry_kwargs` for the attempts and the wait); a literal out of range is a
    // finding (`value-out-of-range`), not a value "known only when deployed".
    let mut unresolved: Vec<Unresolved> = Vec::new();
    for s in &found.settings {
        let Value::Unresolved { fact, expression } = &s.value else {
            continue;
        };
        if super::code::out_of_range(fact, expression)
            || unresolved.iter().any(|u| {
                (u.key.as_str(), u.line, u.column) == (s.key.as_str(), s.at.line, s.at.column)
            })
        {
            continue;
        }
        unresolved.push(Unresolved {
            key: s.key.clone(),
            fact,
            expression: show(expression, Shown::Text).into_owned(),
            line: s.at.line,
            column: s.at.column,
            path: path_of(fact),
        });
    }
    AuditJob {
        file: file.to_owned(),
        name: b.name.clone(),
        line: found.at.line,
        system: found.system,
        sheet,
        not_stated: b.not_stated,
        schedule,
        findings: j.findings,
        unresolved,
        unknown: j.unknown,
        schedule_unknown: j.schedule_unknown,
        unchecked: j.unchecked,
        evaluated: j.evaluated,
        version: job_version(found.system, choice, asker, lang),
        moot: b.moot,
    }
}

/// What the audit can say about a job's findings and schedule once the values not resolved
/// are known.
struct Judged {
    findings: Vec<AuditFinding>,
    unknown: Vec<UnknownField>,
    schedule_unknown: Vec<UnknownPart>,
    unchecked: Vec<Unchecked>,
    evaluated: Vec<String>,
}

/// The findings of a job (the release's with them), those that cannot be checked because an
/// input is not resolved, and the schedule's unknown parts (removed from `schedule`); the
/// fields not resolved leave `b.not_stated`.
fn judge(
    found: &Found,
    facts: &Facts,
    sheet: &JobSheet,
    schedule: &mut Schedule,
    b: &mut Build,
    choice: &Choice,
) -> Judged {
    let lang = b.lang;
    let receives = facts
        .get(|x| matches!(x, Fact::MaxReceiveCount(_)).then_some(()))
        .is_some();
    let unknown = unknown_fields(found, receives);
    // A field the file sets to something not resolved is not "not stated".
    b.not_stated
        .retain(|n| super::unchecked::unknown_in(&unknown, n.path).is_empty());
    let findings = traps::findings(sheet, found, facts, schedule, b);
    let (mut findings, mut unchecked) = split(findings, &unknown);
    let duration = found.settings.iter().any(|s| match &s.value {
        Value::Stated(x) => matches!(x, Fact::MaxRetryDurationMs(_)),
        Value::Unresolved { fact, .. } => *fact == "max-retry-duration-ms",
    });
    let cron = found.system == TargetId::Kubernetes && super::kubernetes::is_cron(found);
    let evaluated = evaluated(
        (found.system, cron, duration),
        &b.moot,
        &findings,
        &unknown,
        &mut unchecked,
    );
    let schedule_unknown = blank_schedule(schedule, &unknown);
    let at = (found.at.line, found.at.column);
    let wait_unknown = wait_finding(found, choice, lang);
    if wait_unknown.is_some() {
        // The release raises at the first failure instead of waiting: one attempt, whatever
        // `attempts:` says (the finding explains it).
        *schedule = Schedule::bounded(Vec::new());
    }
    let release = outside_finding(found.system, choice, at, lang)
        .into_iter()
        .chain(wait_unknown);
    let mut evaluated = evaluated;
    // AWS's limits are checked on every value an SQS stack states: a passing case too.
    if found.system == TargetId::Sqs && !evaluated.iter().any(|e| e == "MA-value-out-of-range") {
        evaluated.push("MA-value-out-of-range".to_owned());
    }
    for f in release
        .chain(super::unchecked::out_of_range(found, lang))
        .chain(traps::over_aws_limits(found, lang))
    {
        if f.code == "value-out-of-range" && !evaluated.iter().any(|e| e == "MA-value-out-of-range")
        {
            evaluated.push("MA-value-out-of-range".to_owned());
        }
        let i = findings.partition_point(|x| (x.line, x.column) <= (f.line, f.column));
        findings.insert(i, f);
    }
    Judged {
        findings,
        unknown,
        schedule_unknown,
        unchecked,
        evaluated,
    }
}

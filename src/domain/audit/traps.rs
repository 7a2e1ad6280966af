//! The findings of an audited job: the sheet's own rules on what a queue configuration can
//! state (attempts, waits, timeouts, lease, retention, dead letter, a batch's schedule), the
//! target's findings ([`crate::domain::queues::findings`]) and each system's traps
//! (`brief/AUDIT.md`): Cloud Tasks retrying until BOTH `maxAttempts` and `maxRetryDuration`
//! are reached, an SQS queue without a dead-letter queue, and a value past AWS's own limits. Each is placed at the setting
//! it concerns, or at the job when the value is the system's default.

use super::found::{Fact, Found, Value};
use super::record::{AuditFinding, Build, Facts};
use super::unchecked::{ms_words, LEASE_FACT, RETENTION_FACT};
use crate::domain::duration::{exact, human};
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::queues::{findings as target, Schedule, TargetId};
use crate::domain::rules::json_path;
use crate::domain::sheet::check::{validate, Finding, Severity};
use crate::domain::sheet::JobSheet;
use crate::text::t;

/// The sheet fields a queue configuration can state; the sheet's findings about other
/// fields (the process's facts, the key, the error lists, who is told) are not the file's.
const CONFIGURABLE: [&str; 11] = [
    "retry.max_attempts",
    "retry.backoff",
    "retry.attempt_timeout_ms",
    "retry.lease_ms",
    "retry.queue_retention_ms",
    "failure.dead_letter",
    "batch.schedule",
    "batch.time_zone",
    "batch.overlap",
    "batch.missed_run",
    "batch.run_timeout_ms",
];

/// Whether the system has a lease the sheet's lease rules are about.
fn has_lease(system: TargetId) -> bool {
    !matches!(system, TargetId::CloudTasks | TargetId::Kubernetes)
}

fn place(f: Finding, path: &str, b: &Build) -> AuditFinding {
    let (at, stated) = b.place(path);
    AuditFinding {
        code: f.code,
        severity: f.severity,
        message: f.message,
        field: path.to_owned(),
        line: at.line,
        column: at.column,
        stated,
    }
}

/// Every finding of the job, in line order.
pub fn findings(
    sheet: &JobSheet,
    found: &Found,
    facts: &Facts,
    schedule: &Schedule,
    b: &Build,
) -> Vec<AuditFinding> {
    let lang = b.lang;
    let mut out = Vec::new();
    for f in validate(sheet, lang) {
        let Some(path) = json_path(&f) else { continue };
        let ours = CONFIGURABLE.iter().any(|c| path.starts_with(c));
        if !ours
            || b.moot.contains(&f.code)
            || (path == "retry.lease_ms" && !has_lease(found.system))
        {
            continue;
        }
        out.push(place(f, path, b));
    }
    if found.system == TargetId::Sqs {
        sqs_factor(sheet, facts, b, &mut out);
    } else {
        for f in target::target_findings(sheet, found.system, lang) {
            out.push(place(f, "retry.lease_ms", b));
        }
    }
    // The sheet's own rule says it already when the sheet's window outlasts the retention.
    // An SQS queue without a redrive policy receives a message until its retention ends, by
    // definition: its no-dead-letter-queue finding says so, not a window "over" the retention.
    let no_redrive = found.system == TargetId::Sqs
        && facts
            .get(|x| matches!(x, Fact::MaxReceiveCount(_)).then_some(()))
            .is_none();
    let said = no_redrive || out.iter().any(|f| f.code == "window-over-retention");
    for f in target::retention(sheet, found.system, schedule, lang) {
        if !said {
            out.push(place(f, "retry.queue_retention_ms", b));
        }
    }
    if found.system == TargetId::CloudTasks {
        both_limits(facts, schedule, b, &mut out);
    }
    if found.system == TargetId::Kubernetes && sheet.batch.is_none() {
        job_deadline(facts, schedule, b, &mut out);
    }
    if found.system == TargetId::Sqs {
        visibility_under_timeout(sheet, b, &mut out);
    }
    if found.system == TargetId::Sqs && facts.get(dead_letter).is_none() {
        let lease = sheet.retry.as_ref().map_or(0, |r| r.lease_ms);
        let keep = sheet
            .retry
            .as_ref()
            .and_then(|r| r.queue_retention_ms)
            .or_else(|| found.system.default_queue_retention_ms())
            .unwrap_or_default();
        let f = Finding {
            code: "no-dead-letter-queue",
            severity: Severity::Warning,
            field: crate::domain::sheet::FieldId::DeadLetter,
            message: t!(
                "audit.finding.no-dead-letter-queue",
                locale = lang.code(),
                queue = &b.name,
                visibility = ms_words(found, LEASE_FACT, lease, lang),
                retention = ms_words(found, RETENTION_FACT, keep, lang)
            )
            .into_owned(),
        };
        out.push(place(f, "failure.dead_letter", b));
    }
    out.extend(b.extra.iter().cloned());
    out.sort_by_key(|f| (f.line, f.column, f.code));
    out
}

/// Lambda refuses an event source mapping whose function's timeout exceeds the queue's
/// visibility timeout: "Your function's timeout must be less than or equal to the queue's
/// visibility timeout. Lambda validates this requirement when you create or update an event
/// source mapping and will return an error if the function timeout exceeds the queue's
/// visibility timeout" (AWS Lambda Developer Guide, *Creating and configuring an Amazon SQS
/// event source mapping*, <https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html>;
/// the error reads "Queue visibility timeout: 30 seconds is less than Function timeout: 300
/// seconds"). So the deploy fails: an error naming both values and their lines, in place of
/// the sheet's "lease not longer than the timeout" (equal is accepted by AWS; under 6 × is
/// [`sqs_factor`]'s warning).
fn visibility_under_timeout(sheet: &JobSheet, b: &Build, out: &mut Vec<AuditFinding>) {
    let Some(r) = &sheet.retry else { return };
    if r.lease_ms >= r.attempt_timeout_ms {
        return;
    }
    let lang = b.lang;
    let at = |path: &str| match b.place(path) {
        (p, true) => t!("audit.text.at-line", locale = lang.code(), line = p.line).into_owned(),
        (_, false) => t!("audit.text.at-default", locale = lang.code()).into_owned(),
    };
    let f = Finding {
        code: "visibility-under-function-timeout",
        severity: Severity::Error,
        field: crate::domain::sheet::FieldId::Timeout,
        message: t!(
            "audit.finding.visibility-under-function-timeout",
            locale = lang.code(),
            queue = &b.name,
            visibility = human(r.lease_ms, lang),
            visibility_at = at("retry.lease_ms"),
            timeout = human(r.attempt_timeout_ms, lang),
            timeout_at = at("retry.attempt_timeout_ms")
        )
        .into_owned(),
    };
    out.push(place(f, "retry.lease_ms", b));
}

/// AWS's advice for a queue consumed by Lambda: "set the source queue's visibility timeout to
/// at least six times the configuration timeout on your function", plus the mapping's
/// `MaximumBatchingWindowInSeconds` (Lambda holds the batch's messages while it gathers them;
/// AWS Lambda Developer Guide, *Creating and configuring an Amazon SQS event source mapping*,
/// <https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html>, and
/// `brief/QUEUES.md` §2). The window is the mapping's (CloudFormation
/// `MaximumBatchingWindowInSeconds`, Terraform `maximum_batching_window_in_seconds`), 0 when
/// the file sets none (Lambda's default for SQS); one not resolved leaves the rule unchecked
/// ([`super::unchecked`]), never guessed.
fn sqs_factor(sheet: &JobSheet, facts: &Facts, b: &Build, out: &mut Vec<AuditFinding>) {
    let (Some(r), Some(k)) = (&sheet.retry, TargetId::Sqs.lease_factor()) else {
        return;
    };
    let stated = facts.get(|f| match f {
        Fact::BatchWindowMs(v) => Some(*v),
        _ => None,
    });
    let window = stated.map_or(0, |(w, _)| w);
    let want = r
        .attempt_timeout_ms
        .saturating_mul(u64::from(k))
        .saturating_add(window);
    if r.lease_ms >= want {
        return;
    }
    let lang = b.lang;
    let f = Finding {
        code: "lease-under-target-factor",
        severity: Severity::Warning,
        field: crate::domain::sheet::FieldId::Timeout,
        message: t!(
            if stated.is_some() {
                "audit.finding.lease-under-lambda-factor"
            } else {
                "audit.finding.lease-under-lambda-factor-no-window"
            },
            locale = lang.code(),
            queue = &b.name,
            k = k,
            visibility = human(r.lease_ms, lang),
            timeout = human(r.attempt_timeout_ms, lang),
            window = human(window, lang),
            want = human(want, lang)
        )
        .into_owned(),
    };
    out.push(place(f, "retry.lease_ms", b));
}

fn dead_letter(f: &Fact) -> Option<()> {
    matches!(f, Fact::DeadLetter(_)).then_some(())
}

/// A Job's `activeDeadlineSeconds` bounds all its pods: "once a Job reaches
/// activeDeadlineSeconds, all of its running Pods are terminated and the Job status will become
/// type: Failed with reason: DeadlineExceeded" — it takes precedence over `backoffLimit`
/// (kubernetes.io, Job, "Job termination and cleanup"). A deadline shorter than the pods'
/// backoff waits plus their attempts' deadlines cuts the retries short.
fn job_deadline(facts: &Facts, schedule: &Schedule, b: &Build, out: &mut Vec<AuditFinding>) {
    let Some((deadline, at)) = facts.get(|f| match f {
        Fact::MaxRetryDurationMs(v) => Some(*v),
        _ => None,
    }) else {
        return;
    };
    let attempts = schedule.attempts.unwrap_or(1);
    let waits = schedule.window_s.max.map_or(0, |s| (s * 1000.0) as u64);
    let per = facts
        .get(|f| match f {
            Fact::AttemptTimeoutMs(v) => Some(*v),
            _ => None,
        })
        .map_or(0, |(t, _)| t);
    let need = waits.saturating_add(u64::from(attempts).saturating_mul(per));
    if deadline >= need || attempts < 2 {
        return;
    }
    let lang = b.lang;
    out.push(AuditFinding {
        code: "job-deadline-before-retries",
        severity: Severity::Warning,
        message: t!(
            "audit.finding.job-deadline-before-retries",
            locale = lang.code(),
            job = &b.name,
            deadline = human(deadline, lang),
            attempts = attempts,
            need = human(need, lang),
            waits = human(waits, lang)
        )
        .into_owned(),
        field: "retry.max_attempts".to_owned(),
        line: at.line,
        column: at.column,
        stated: true,
    });
}

/// Cloud Tasks deletes a task only when it has been attempted `maxAttempts` times AND
/// `maxRetryDuration` has passed (queue.proto): a duration longer than the attempts' window
/// keeps retrying past `maxAttempts`.
fn both_limits(facts: &Facts, schedule: &Schedule, b: &Build, out: &mut Vec<AuditFinding>) {
    let Some((duration, at)) = facts.get(|f| match f {
        Fact::MaxRetryDurationMs(v) if *v > 0 => Some(*v),
        _ => None,
    }) else {
        return;
    };
    let lang = b.lang;
    let attempts = schedule.attempts;
    let window_ms = schedule.window_s.max.map(|s| (s * 1000.0) as u64);
    let key = match (attempts, window_ms) {
        (Some(_), Some(w)) if duration > w => "audit.finding.cloud-tasks-both-limits-longer",
        _ => "audit.finding.cloud-tasks-both-limits",
    };
    out.push(AuditFinding {
        code: "cloud-tasks-both-limits",
        severity: Severity::Warning,
        message: t!(
            key,
            locale = lang.code(),
            queue = &b.name,
            attempts = attempts.map_or_else(|| "∞".to_owned(), |a| a.to_string()),
            duration = human(duration, lang),
            window = human(window_ms.unwrap_or_default(), lang)
        )
        .into_owned(),
        field: "retry.max_attempts".to_owned(),
        line: at.line,
        column: at.column,
        stated: true,
    });
}

/// A value an SQS stack states past AWS's own limit (a visibility timeout over 12 h, a
/// retention over 14 days, a Lambda timeout of 0): the deploy is refused, so an error at its
/// line naming the range AWS accepts (`value-out-of-range`). The sheet and the schedule keep
/// the file's value (brought into the sheet's range by `to_catalog` where it must be).
pub(super) fn over_aws_limits(found: &Found, lang: Lang) -> Vec<AuditFinding> {
    if found.system != TargetId::Sqs {
        return Vec::new();
    }
    let mut out = Vec::new();
    for s in found.settings.iter().chain(&found.elsewhere) {
        // AWS's own limits (brief/QUEUES.md §1: the SQS `SetQueueAttributes` and
        // `CreateQueue` references, the `RedrivePolicy`'s `maxReceiveCount`, Lambda's
        // function `Timeout`): the value, its range in its own unit (ms, or deliveries), the
        // sheet's field, and whether it is a count.
        let (value, low, high, field, count) = match &s.value {
            Value::Stated(Fact::LeaseMs(v)) => (*v, 0, 43_200_000, "retry.lease_ms", false),
            Value::Stated(Fact::RetentionMs(v)) => {
                (*v, 60_000, 1_209_600_000, "retry.queue_retention_ms", false)
            }
            Value::Stated(Fact::AttemptTimeoutMs(v)) => {
                (*v, 1_000, 900_000, "retry.attempt_timeout_ms", false)
            }
            Value::Stated(Fact::MaxReceiveCount(v)) => {
                (u64::from(*v), 1, 1_000, "retry.max_attempts", true)
            }
            _ => continue,
        };
        if (low..=high).contains(&value) {
            continue;
        }
        let (shown, allowed) = if count {
            (
                group_thousands(value),
                (group_thousands(low), group_thousands(high)),
            )
        } else {
            // As exact as the file states it (`2,000,000 s`, not `23 d 3 h 33 min`).
            let shown = if value == 0 {
                human(0, lang)
            } else {
                exact(value, lang)
            };
            (shown, (human(low, lang), human(high, lang)))
        };
        out.push(AuditFinding {
            code: "value-out-of-range",
            severity: Severity::Error,
            message: t!(
                "audit.finding.over-aws-limit",
                locale = lang.code(),
                key = &s.key,
                value = shown,
                allowed = t!(
                    "audit.range.between",
                    locale = lang.code(),
                    low = allowed.0,
                    high = allowed.1
                )
            )
            .into_owned(),
            field: field.to_owned(),
            line: s.at.line,
            column: s.at.column,
            stated: true,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::domain::audit::{audit, AuditJob};
    use crate::domain::lang::Lang;
    use crate::domain::sheet::check::Severity;

    /// A CloudFormation queue consumed by a function through a mapping.
    fn cfn(visibility: &str, timeout: &str, mapping: &str) -> String {
        format!(
            "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      {visibility}\n      \
             RedrivePolicy:\n        deadLetterTargetArn: dlq\n        maxReceiveCount: 3\n  \
             F:\n    Type: AWS::Lambda::Function\n    Properties:\n      Timeout: {timeout}\n  \
             M:\n    Type: AWS::Lambda::EventSourceMapping\n    Properties:\n      \
             EventSourceArn: !GetAtt Q.Arn\n      FunctionName: !Ref F\n{mapping}"
        )
    }

    fn job(text: &str, lang: Lang) -> AuditJob {
        let (_, jobs) = audit("t.cfn.yaml", text, lang).expect("reads");
        jobs.into_iter().next().expect("one job")
    }

    fn codes(j: &AuditJob) -> Vec<&'static str> {
        j.findings.iter().map(|f| f.code).collect()
    }

    #[test]
    fn a_visibility_timeout_under_the_functions_fails_the_deploy() {
        let j = job(&cfn("VisibilityTimeout: 30", "60", ""), Lang::En);
        let f = j
            .findings
            .iter()
            .find(|f| f.code == "visibility-under-function-timeout")
            .unwrap_or_else(|| panic!("{:?}", codes(&j)));
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(f.line, 5);
        for want in ["30 s, line 5", "1 min, line 12", "the deploy fails"] {
            assert!(f.message.contains(want), "{want}: {}", f.message);
        }
        // Not the sheet's "duplicate runs" rule; the 6 × warning stays.
        assert!(!codes(&j).contains(&"lease-not-longer-than-timeout"));
        assert!(codes(&j).contains(&"lease-under-target-factor"));
        let ja = job(&cfn("VisibilityTimeout: 30", "60", ""), Lang::Ja);
        let f = ja
            .findings
            .iter()
            .find(|f| f.code == "visibility-under-function-timeout")
            .expect("in Japanese too");
        assert!(f.message.contains("5 行目"), "{}", f.message);
        assert!(j
            .evaluated
            .contains(&"MA-visibility-under-function-timeout".to_owned()));
    }

    #[test]
    fn six_times_the_timeout_counts_the_batching_window() {
        let window = "      MaximumBatchingWindowInSeconds: 5\n";
        // 6 × 30 s = 180 s: enough without a window, 5 s short with one.
        let j = job(&cfn("VisibilityTimeout: 180", "30", ""), Lang::En);
        assert!(!codes(&j).contains(&"lease-under-target-factor"));
        let j = job(&cfn("VisibilityTimeout: 180", "30", window), Lang::En);
        let f = j
            .findings
            .iter()
            .find(|f| f.code == "lease-under-target-factor")
            .unwrap_or_else(|| panic!("{:?}", codes(&j)));
        for want in [
            "6 × the function's timeout (30 s)",
            "batching window (5 s)",
            "185 s",
        ] {
            assert!(f.message.contains(want), "{want}: {}", f.message);
        }
        let j = job(&cfn("VisibilityTimeout: 185", "30", window), Lang::En);
        assert!(!codes(&j).contains(&"lease-under-target-factor"));
        // A window not resolved: the rule says it cannot check, never a guess.
        let j = job(
            &cfn(
                "VisibilityTimeout: 60",
                "30",
                "      MaximumBatchingWindowInSeconds: !Ref Window\n",
            ),
            Lang::En,
        );
        assert!(!codes(&j).contains(&"lease-under-target-factor"));
        let u = j
            .unchecked
            .iter()
            .find(|u| u.rule == "MA-lease-under-target-factor")
            .unwrap_or_else(|| panic!("{:?}", j.unchecked));
        assert_eq!(u.needs, ["MaximumBatchingWindowInSeconds = !Ref Window"]);
        assert!(!j
            .evaluated
            .contains(&"MA-lease-under-target-factor".to_owned()));
    }

    #[test]
    fn the_target_retention_finding_reads_in_days_hours_and_minutes() {
        // 99 waits of 1 h + 100 attempts of Lambda's default 3 s = 356,700 s, over the 4 d
        // SQS keeps a message by default.
        let text = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      \
                    VisibilityTimeout: 3600\n      RedrivePolicy:\n        \
                    deadLetterTargetArn: dlq\n        maxReceiveCount: 100\n";
        for (lang, want) in [(Lang::En, "4 d 3 h 5 min"), (Lang::Ja, "4日3時間5分")] {
            let j = job(text, lang);
            let f = j
                .findings
                .iter()
                .find(|f| f.code == "window-over-target-retention")
                .unwrap_or_else(|| panic!("{:?}", codes(&j)));
            assert!(f.message.contains(want), "{}", f.message);
            assert!(!f.message.contains("356,700"), "{}", f.message);
        }
    }

    #[test]
    fn an_equal_visibility_timeout_deploys_and_is_only_under_six_times() {
        let j = job(&cfn("VisibilityTimeout: 60", "60", ""), Lang::En);
        assert!(!codes(&j).contains(&"visibility-under-function-timeout"));
        assert!(!codes(&j).contains(&"lease-not-longer-than-timeout"));
        assert!(codes(&j).contains(&"lease-under-target-factor"));
    }
}

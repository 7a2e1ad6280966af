//! What an audit cannot know (issue 27 item 2: a value computed at run time, a variable or a
//! reference to another resource is "not resolved", never guessed): which sheet fields a
//! setting not resolved stands for, which parts of the schedule then are unknown, and which
//! findings cannot be checked because one of their inputs is not resolved. Such a finding is
//! not raised; the job lists it under "cannot check" with the settings it needs.

use super::found::{Found, Value};
use super::record::AuditFinding;
use crate::domain::bidi::{show, Shown};
use crate::domain::duration::human;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::queues::{Schedule, TargetId};
use crate::domain::rules::rule_of;
use crate::text::t;
use serde::Serialize;

/// The reader's name of the lease fact (a visibility timeout).
pub const LEASE_FACT: &str = "lease-ms";
/// The reader's name of the retention fact.
pub const RETENTION_FACT: &str = "retention-ms";

/// The sheet field (JSON path) a fact of the reader (kebab-case, [`super::found::Fact`])
/// fills; `retry.max_retry_duration` and `retry.batch_window` (a Lambda mapping's batching
/// window) are no sheet fields, only inputs of the traps.
pub fn path_of(fact: &str) -> Option<&'static str> {
    Some(match fact {
        "attempts" | "max-receive-count" => "retry.max_attempts",
        "base-ms" | "cap-ms" | "max-doublings" | "backoff-kind" | "jitter" | "factor-milli" => {
            "retry.backoff"
        }
        "attempt-timeout-ms" => "retry.attempt_timeout_ms",
        "lease-ms" | "acks-late" => "retry.lease_ms",
        "retention-ms" => "retry.queue_retention_ms",
        "dead-letter" | "keep-dead" => "failure.dead_letter",
        "retryable" => "retry.retryable_errors",
        "non-retryable" => "retry.non_retryable_errors",
        "cron" => "batch.schedule",
        "time-zone" => "batch.time_zone",
        "concurrency-policy" => "batch.overlap",
        "starting-deadline-ms" => "batch.missed_run",
        "max-retry-duration-ms" => "retry.max_retry_duration",
        "batch-window-ms" => "retry.batch_window",
        "restart-policy" => "retry.backoff",
        _ => return None,
    })
}

/// A sheet field whose value the file sets to something the reader cannot evaluate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnknownField {
    /// The field's JSON path (`retry.lease_ms`).
    pub path: &'static str,
    /// The key as the file writes it (`visibility_timeout_seconds`).
    pub key: String,
    /// The expression as written (`var.visibility`).
    pub expression: String,
    /// Its line.
    pub line: u32,
}

/// The fields of `found` that are not resolved, with those that follow from them on its
/// system: an SQS queue waits its visibility timeout, and without a stated
/// `maxReceiveCount` receives a message retention ÷ visibility timeout times; a redrive
/// policy not resolved hides the receive count too; Cloud Tasks retries until both
/// `maxAttempts` and `maxRetryDuration` are reached.
pub fn unknown_fields(found: &Found, receives_stated: bool) -> Vec<UnknownField> {
    let mut out: Vec<UnknownField> = Vec::new();
    for s in &found.settings {
        let Value::Unresolved { fact, expression } = &s.value else {
            continue;
        };
        let Some(path) = path_of(fact) else { continue };
        let mut add = |path: &'static str| {
            out.push(UnknownField {
                path,
                key: s.key.clone(),
                expression: expression.clone(),
                line: s.at.line,
            })
        };
        add(path);
        match (found.system, path) {
            (TargetId::Sqs, "retry.lease_ms") => {
                add("retry.backoff");
                if !receives_stated {
                    add("retry.max_attempts");
                }
            }
            (TargetId::Sqs, "retry.queue_retention_ms") if !receives_stated => {
                add("retry.max_attempts")
            }
            (TargetId::Sqs, "failure.dead_letter") if !receives_stated => add("retry.max_attempts"),
            (TargetId::CloudTasks, "retry.max_retry_duration") => add("retry.max_attempts"),
            _ => {}
        }
    }
    out
}

/// Whether `a` is `b` or one of them a part of the other (`retry.backoff.cap_ms`).
fn overlaps(a: &str, b: &str) -> bool {
    let within = |x: &str, y: &str| x.strip_prefix(y).is_some_and(|r| r.starts_with('.'));
    a == b || within(a, b) || within(b, a)
}

/// The fields among `unknown` that `path` depends on.
pub fn unknown_in<'a>(unknown: &'a [UnknownField], path: &str) -> Vec<&'a UnknownField> {
    unknown.iter().filter(|u| overlaps(u.path, path)).collect()
}

/// The fields a finding of `code` reads besides its own field.
fn inputs(code: &str) -> &'static [&'static str] {
    const WINDOW: &[&str] = &[
        "retry.max_attempts",
        "retry.backoff",
        "retry.queue_retention_ms",
    ];
    match code {
        "window-over-30-days" => &["retry.max_attempts", "retry.backoff"],
        "window-over-retention" | "window-over-target-retention" | "retry-window-exceeds-wait" => {
            WINDOW
        }
        "lease-not-longer-than-timeout"
        | "visibility-under-function-timeout"
        | "lease-not-above-handler-tail" => &["retry.lease_ms", "retry.attempt_timeout_ms"],
        "lease-under-target-factor" => &[
            "retry.lease_ms",
            "retry.attempt_timeout_ms",
            "retry.batch_window",
        ],
        "retryable-but-one-attempt" => &["retry.max_attempts"],
        "exponential-without-jitter" => &["retry.backoff"],
        "cloud-tasks-both-limits" => &[
            "retry.max_attempts",
            "retry.backoff",
            "retry.max_retry_duration",
        ],
        "job-deadline-before-retries" => &[
            "retry.max_attempts",
            "retry.backoff",
            "retry.attempt_timeout_ms",
            "retry.max_retry_duration",
        ],
        _ => &[],
    }
}

/// A rule the audit could not check: an input is not resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unchecked {
    /// The rule id (`MA-lease-under-target-factor`).
    pub rule: String,
    /// The sheet field the rule is about.
    pub field: String,
    /// The settings not resolved it needs, as `key = expression` (the file's words).
    pub needs: Vec<String>,
}

/// Splits `findings` into those the file's resolved values decide and, for the others, the
/// rules that cannot be checked (one entry per rule, in finding order).
pub fn split(
    findings: Vec<AuditFinding>,
    unknown: &[UnknownField],
) -> (Vec<AuditFinding>, Vec<Unchecked>) {
    if unknown.is_empty() {
        return (findings, Vec::new());
    }
    let mut kept = Vec::new();
    let mut unchecked: Vec<Unchecked> = Vec::new();
    for f in findings {
        let mut needs: Vec<String> = Vec::new();
        for p in std::iter::once(f.field.as_str()).chain(inputs(f.code).iter().copied()) {
            for u in unknown_in(unknown, p) {
                let n = format!("{} = {}", u.key, u.expression);
                if !needs.contains(&n) {
                    needs.push(n);
                }
            }
        }
        if needs.is_empty() {
            kept.push(f);
            continue;
        }
        let rule = rule_of(f.code).map_or_else(|| f.code.to_owned(), |r| r.id());
        if !unchecked.iter().any(|u| u.rule == rule) {
            unchecked.push(Unchecked {
                rule,
                field: f.field.clone(),
                needs,
            });
        }
    }
    (kept, unchecked)
}

/// A part of the schedule the file leaves unknown: `attempts` or `waits`, and the setting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnknownPart {
    /// `attempts` or `waits`.
    pub part: &'static str,
    /// The setting not resolved, as `key = expression`.
    pub needs: String,
    /// Its line.
    pub line: u32,
}

/// The parts of `schedule` that depend on values not resolved; those parts are removed
/// from it (no waits listed when they are unknown, no window when anything is).
pub fn blank_schedule(schedule: &mut Schedule, unknown: &[UnknownField]) -> Vec<UnknownPart> {
    let mut parts = Vec::new();
    for (part, path) in [
        ("attempts", "retry.max_attempts"),
        ("waits", "retry.backoff"),
    ] {
        if let Some(u) = unknown.iter().find(|u| u.path == path) {
            parts.push(UnknownPart {
                part,
                needs: format!("{} = {}", u.key, u.expression),
                line: u.line,
            });
        }
    }
    if parts.iter().any(|p| p.part == "attempts") {
        schedule.attempts = None;
    }
    if parts.iter().any(|p| p.part == "waits") {
        schedule.delays.clear();
    }
    if !parts.is_empty() {
        schedule.window_s.min = None;
        schedule.window_s.expected = None;
        schedule.window_s.max = None;
    }
    parts
}

/// The rules the audit evaluates for a job of `system` (`cron`: a CronJob), with what each
/// reads: those whose inputs the file states or whose system default applies.
/// `stated_duration`: the file names a `maxRetryDuration` / `activeDeadlineSeconds` (the
/// rules about it apply only then).
fn applicable(system: TargetId, cron: bool, stated_duration: bool) -> Vec<&'static str> {
    let mut out = vec!["retryable-but-one-attempt", "window-over-30-days"];
    // SQS waits a fixed visibility timeout: nothing to jitter.
    if system != TargetId::Sqs {
        out.push("exponential-without-jitter");
    }
    if !matches!(system, TargetId::CloudTasks | TargetId::Kubernetes) {
        out.push("lease-not-longer-than-timeout");
    }
    if system.lease_factor().is_some() {
        out.push("lease-under-target-factor");
    }
    if system.default_queue_retention_ms().is_some() {
        out.extend(["window-over-retention", "window-over-target-retention"]);
    }
    match system {
        TargetId::Sqs => out.extend(["visibility-under-function-timeout", "no-dead-letter-queue"]),
        TargetId::CloudTasks if stated_duration => out.push("cloud-tasks-both-limits"),
        TargetId::Kubernetes if cron => out.extend([
            "batch-no-schedule",
            "batch-schedule-not-cron",
            "batch-time-zone-unknown",
            "batch-overlap-allowed",
        ]),
        TargetId::Kubernetes if stated_duration => out.push("job-deadline-before-retries"),
        TargetId::Bullmq => out.push("bullmq-no-retries"),
        _ => {}
    }
    out
}

/// The rule ids the audit evaluated for a job and those it could not check: the rules that
/// apply to its system and every rule that gave a finding; a rule reading
/// a value not resolved is not evaluated but listed under `unchecked`.
pub fn evaluated(
    (system, cron, stated_duration): (TargetId, bool, bool),
    moot: &[&str],
    findings: &[AuditFinding],
    unknown: &[UnknownField],
    unchecked: &mut Vec<Unchecked>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for code in applicable(system, cron, stated_duration) {
        if moot.contains(&code) {
            continue;
        }
        let Some(rule) = rule_of(code) else { continue };
        let id = rule.id();
        let own = rule.path.unwrap_or("retry");
        let mut needs: Vec<String> = Vec::new();
        for p in std::iter::once(own).chain(inputs(code).iter().copied()) {
            for u in unknown_in(unknown, p) {
                let n = format!("{} = {}", u.key, u.expression);
                if !needs.contains(&n) {
                    needs.push(n);
                }
            }
        }
        if needs.is_empty() {
            out.push(id);
        } else if !unchecked.iter().any(|u| u.rule == id) {
            unchecked.push(Unchecked {
                rule: id,
                field: own.to_owned(),
                needs,
            });
        }
    }
    for f in findings {
        let id = rule_of(f.code).map_or_else(|| f.code.to_owned(), |r| r.id());
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// A duration the file sets as `fact` in words: its value, or the expression the file sets
/// it to when that is not resolved (never the default in its place).
pub fn ms_words(found: &Found, fact: &str, ms: u64, lang: Lang) -> String {
    let unresolved = found.settings.iter().rev().find_map(|s| match &s.value {
        Value::Unresolved {
            fact: f,
            expression,
        } if *f == fact => Some(expression.clone()),
        _ => None,
    });
    match unresolved {
        Some(e) => t!(
            "audit.text.value-unresolved",
            locale = lang.code(),
            expression = e
        )
        .into_owned(),
        None => human(ms, lang),
    }
}

/// A number written out of its range (Celery `max_retries=-3`): known and wrong, so an error
/// naming the setting and the range allowed, once per setting. The field stays unknown to
/// the sheet and the schedule (what the system does with it is not the file's to say).
pub(super) fn out_of_range(found: &Found, lang: Lang) -> Vec<AuditFinding> {
    let mut out: Vec<AuditFinding> = Vec::new();
    for s in &found.settings {
        let Value::Unresolved { fact, expression } = &s.value else {
            continue;
        };
        if !super::code::out_of_range(fact, expression)
            || out
                .iter()
                .any(|f| (f.line, f.column) == (s.at.line, s.at.column))
        {
            continue;
        }
        let range = if fact.ends_with("-ms") {
            "audit.range.duration"
        } else {
            "audit.range.count"
        };
        out.push(AuditFinding {
            code: "value-out-of-range",
            severity: crate::domain::sheet::check::Severity::Error,
            message: t!(
                "audit.finding.value-out-of-range",
                locale = lang.code(),
                key = &s.key,
                value = show(expression, Shown::Text),
                allowed = t!(
                    range,
                    locale = lang.code(),
                    most = group_thousands(u64::from(u32::MAX))
                )
            )
            .into_owned(),
            field: path_of(fact).unwrap_or("retry").to_owned(),
            line: s.at.line,
            column: s.at.column,
            stated: true,
        });
    }
    out
}

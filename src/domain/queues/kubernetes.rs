//! Kubernetes `batch/v1`: a CronJob for a batch sheet, a Job for an asynchronous sheet
//! (`brief/QUEUES.md` §14; kubernetes/kubernetes `pkg/controller/job`).
//!
//! Facts used: `backoffLimit` counts failed pods allowed (retries): N_total = backoffLimit + 1
//! (default 6 → 7 pods) with `restartPolicy: Never`. The delay before the next pod after the
//! n-th failure is `min(10 min, 10 s·2^(n−1))` (`getRemainingTimeForFailuresCount`; the docs
//! say the cap is 6 min, the source says 10 min — the source wins), no jitter, and the sheet's
//! wait strategy cannot change it. `activeDeadlineSeconds` on the Job bounds all its pods, on
//! the pod template bounds one attempt. `ttlSecondsAfterFinished` deletes a finished Job
//! (complete or failed alike). CronJob: `concurrencyPolicy` Allow / Forbid / Replace,
//! `startingDeadlineSeconds` (unset: the most recent missed run is started), history limits
//! (counts, default 3 and 1). `podFailurePolicy` rules act on exit codes and pod conditions.

mod yaml;

use super::knobs::{self, Knobs};
use super::mapping::{self, row};
use super::TargetId;
use super::{Built, DefaultPolicy, Delay, Format, Gap, Instead, MappingRow, Schedule, TargetError};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::cron::check_cron;
use crate::domain::sheet::fields::join_list;
use crate::domain::sheet::zone::check_zone;
use crate::domain::sheet::{FieldId, JobSheet, Keep, MissedRun};
use crate::text::t;

/// Kubernetes' default `backoffLimit` (retries).
pub const DEFAULT_BACKOFF_LIMIT: u32 = 6;
/// The first pod-failure delay, seconds (`DefaultJobPodFailureBackOff`).
pub const POD_BACKOFF_BASE_S: u64 = 10;
/// The largest pod-failure delay, seconds (`MaxJobPodFailureBackOff`, 10 min in source).
pub const POD_BACKOFF_MAX_S: u64 = 600;
/// The kubelet's crash-loop back-off, for a pod whose `restartPolicy` is `OnFailure` (the
/// container restarts in place): the first delay, seconds. "After containers in a Pod exit,
/// the kubelet restarts them with an exponential backoff delay (10s, 20s, 40s, …), that is
/// capped at 300 seconds (5 minutes). Once a container has executed for 10 minutes without
/// any problems, the kubelet resets the restart backoff timer for that container"
/// (kubernetes.io, *Pod Lifecycle*, "Container restart policy",
/// <https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy>).
pub const CRASH_LOOP_BASE_S: u64 = 10;
/// The crash-loop back-off's cap, seconds (5 min).
pub const CRASH_LOOP_MAX_S: u64 = 300;
/// How long a container must run without failing for the kubelet to reset its back-off,
/// seconds (10 min).
pub const CRASH_LOOP_RESET_S: u64 = 600;

/// The kubelet's delay before the `n`-th restart in place (n = 1 first), seconds:
/// `min(300, 10 × 2^(n−1))` ([`CRASH_LOOP_BASE_S`], [`CRASH_LOOP_MAX_S`]).
pub fn crash_loop_s(n: u32) -> u64 {
    let shift = n.saturating_sub(1).min(16);
    (CRASH_LOOP_BASE_S << shift).min(CRASH_LOOP_MAX_S)
}

/// The exit code the export reserves for the sheet's non-retryable errors (`EX_DATAERR`): a
/// `podFailurePolicy` rule fails the Job at once on it.
pub const PERMANENT_EXIT_CODE: u32 = 65;
/// `startingDeadlineSeconds` written for "skip missed runs": a run not started within this
/// many seconds of its time is skipped (the controller checks about every 10 s, so smaller
/// values can skip runs that were not missed).
pub const SKIP_DEADLINE_S: u64 = 60;

/// The delay before the pod after the `n`-th failure (n = 1 first), seconds: the controller's
/// loop `d := 10s; for i := 1; i < n; i++ { d *= 2; if d >= max { d = max; break } }`.
pub fn pod_backoff_s(n: u32) -> u64 {
    let mut d = POD_BACKOFF_BASE_S;
    let mut i = 1;
    while i < n {
        d *= 2;
        if d >= POD_BACKOFF_MAX_S {
            d = POD_BACKOFF_MAX_S;
            break;
        }
        i += 1;
    }
    d
}

/// The schedule of `attempts` pods: one delay per failure but the last.
fn pod_schedule(attempts: u32) -> Schedule {
    Schedule::bounded(
        (1..attempts)
            .map(|n| Delay::fixed(pod_backoff_s(n) as f64))
            .collect(),
    )
}

/// The pods the export lets run: the sheet's attempts, or 1 for a batch sheet without a retry
/// section (a failed run waits for the next schedule or a re-run).
fn attempts_of(sheet: &JobSheet) -> u32 {
    sheet.retry.as_ref().map_or(1, |r| r.max_attempts.max(1))
}

/// Whole seconds, rounded up (Kubernetes' deadlines are integers).
pub(crate) fn ceil_s(ms: u64) -> u64 {
    ms.div_ceil(1000).max(1)
}

fn check(sheet: &JobSheet) -> Result<(), TargetError> {
    let not = || TargetError::NotApplicable {
        target: TargetId::Kubernetes,
        outcome: sheet.decision.outcome.id(),
    };
    if let Some(b) = &sheet.batch {
        let macro_ok = !b.schedule.trim().eq_ignore_ascii_case("@reboot");
        if check_cron(&b.schedule).is_err() || !macro_ok {
            return Err(TargetError::OutOfRange {
                target: TargetId::Kubernetes,
                field: FieldId::Schedule,
                value: b.schedule.clone(),
                allowed: "cron: 5 fields, or @yearly @monthly @weekly @daily @hourly".to_owned(),
            });
        }
        if check_zone(&b.time_zone).is_err() {
            return Err(TargetError::OutOfRange {
                target: TargetId::Kubernetes,
                field: FieldId::TimeZone,
                value: b.time_zone.clone(),
                allowed: "an IANA time zone name, e.g. UTC, Asia/Tokyo".to_owned(),
            });
        }
        return Ok(());
    }
    if sheet.retry.is_none() {
        return Err(not());
    }
    Ok(())
}

/// Builds the export: a CronJob for a batch sheet, a Job for a sheet with a retry section.
///
/// # Errors
/// [`TargetError::NotApplicable`] for a sync sheet; [`TargetError::OutOfRange`] for a batch
/// schedule Kubernetes does not read (not a 5-field cron expression, or `@reboot`) or a time
/// zone that is not an IANA name (the API server would refuse `spec.timeZone`).
pub fn build(sheet: &JobSheet, _format: Format, lang: Lang) -> Result<Built, TargetError> {
    check(sheet)?;
    let attempts = attempts_of(sheet);
    let actual = pod_schedule(attempts);
    let text = if sheet.batch.is_some() {
        yaml::cron_job(sheet, attempts, lang)
    } else {
        yaml::job(sheet, attempts, &actual, lang)
    };
    Ok(Built {
        text,
        mapping: mapping(sheet, attempts, &actual, lang),
        gaps: gaps(sheet, lang),
        actual,
    })
}

fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

fn keep_words(k: Keep, lang: Lang) -> String {
    match k {
        Keep::Days(d) => exact(u64::from(d) * 86_400_000, lang),
        Keep::UntilHandled => tr("target.kubernetes.until-handled", lang),
    }
}

/// The rows of a sheet's retry section.
fn retry_rows(
    r: &crate::domain::sheet::RetrySpec,
    spec: &str,
    attempts: u32,
    actual: &Schedule,
    rows: &mut Vec<MappingRow>,
    lang: Lang,
) {
    let l = lang.code();
    rows.push(row(
        FieldId::MaxAttempts,
        r.max_attempts.to_string(),
        &format!("{spec}backoffLimit"),
        (attempts - 1).to_string(),
        t!("target.kubernetes.note.attempts", locale = l).into_owned(),
    ));
    let delays: Vec<String> = actual
        .delays
        .iter()
        .take(8)
        .map(|d| format!("{}", d.max_s))
        .collect();
    rows.push(row(
        FieldId::WaitStrategy,
        super::sql::wait_words(r, lang),
        "",
        format!("{} s", delays.join(", ")),
        t!("target.kubernetes.note.wait", locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::Timeout,
        exact(r.attempt_timeout_ms, lang),
        "template.spec.activeDeadlineSeconds",
        ceil_s(r.attempt_timeout_ms).to_string(),
        t!("target.kubernetes.note.timeout", locale = l).into_owned(),
    ));
    rows.push(mapping::lease_row(
        exact(r.lease_ms, lang),
        "",
        String::new(),
        t!("target.kubernetes.note.lease", locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::IdempotencyKey,
        r.idempotency_key.clone(),
        "metadata.annotations",
        String::new(),
        t!("target.kubernetes.note.key", locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::NonRetryableErrors,
        join_list(&r.non_retryable_errors, lang),
        &format!("{spec}podFailurePolicy"),
        format!("FailJob on exit code {PERMANENT_EXIT_CODE}"),
        t!("target.kubernetes.note.non-retryable", locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::RetryableErrors,
        join_list(&r.retryable_errors, lang),
        "",
        String::new(),
        t!("target.kubernetes.note.retryable", locale = l).into_owned(),
    ));
}

fn mapping(sheet: &JobSheet, attempts: u32, actual: &Schedule, lang: Lang) -> Vec<MappingRow> {
    let l = lang.code();
    let mut rows = Vec::new();
    let spec = if sheet.batch.is_some() {
        "jobTemplate.spec."
    } else {
        "spec."
    };
    match &sheet.retry {
        Some(r) => retry_rows(r, spec, attempts, actual, &mut rows, lang),
        None => rows.push(row(
            FieldId::MaxAttempts,
            String::new(),
            "jobTemplate.spec.backoffLimit",
            "0".to_owned(),
            t!("target.kubernetes.note.batch-attempts", locale = l).into_owned(),
        )),
    }
    if sheet.batch.is_none() {
        rows.push(row(
            FieldId::RetryWindow,
            super::sql::window_words(sheet, lang),
            "spec.activeDeadlineSeconds",
            yaml::job_deadline_s(sheet, actual).to_string(),
            t!("target.kubernetes.note.job-deadline", locale = l).into_owned(),
        ));
    }
    if let Some(b) = &sheet.batch {
        batch_rows(b, &mut rows, lang);
    }
    if let Some(f) = &sheet.failure {
        rows.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "status.conditions: Failed",
            String::new(),
            t!("target.kubernetes.note.dead-letter", locale = l).into_owned(),
        ));
        let (key, value, note) = yaml::retention(sheet);
        rows.push(row(
            FieldId::Retention,
            format!(
                "done {}, dead {}",
                keep_words(f.retention.done, lang),
                keep_words(f.retention.dead, lang)
            ),
            key,
            value,
            t!(note, locale = l).into_owned(),
        ));
    }
    if let Some(r) = &sheet.retry {
        rows.extend(mapping::layers_row(
            r,
            |r| r.total_calls().to_string(),
            "",
            |calls| t!("target.kubernetes.note.layers", locale = l, calls = calls).into_owned(),
        ));
    }
    rows.extend(load_rows(sheet, lang));
    rows
}

/// The load section's rows: a CronJob's `parallelism` (worker pods at once), the
/// downstream's limits.
fn load_rows(sheet: &JobSheet, lang: Lang) -> Vec<MappingRow> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut m = Vec::new();
    if k.sized() && sheet.batch.is_some() {
        m.push(knobs::knob_row(
            FieldId::Workers,
            &k,
            "jobTemplate.spec.parallelism",
            k.workers().to_string(),
            ("kubernetes", "workers"),
            lang,
        ));
    }
    m.extend(knobs::downstream_row(sheet, lang));
    m
}

/// The load section's gaps: a Job per enqueued job has no knob for jobs at once; no rate
/// limit.
fn load_gaps(sheet: &JobSheet, lang: Lang) -> Vec<Gap> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut g = Vec::new();
    if k.sized() && sheet.batch.is_none() {
        g.push(knobs::knob_gap(
            FieldId::Workers,
            &k,
            ("kubernetes", "job-per-job"),
            Instead::Comment,
            lang,
        ));
    }
    g.extend(knobs::rate_gap("kubernetes", &k, lang));
    g
}

fn batch_rows(b: &crate::domain::sheet::BatchSpec, rows: &mut Vec<MappingRow>, lang: Lang) {
    let l = lang.code();
    rows.push(row(
        FieldId::Schedule,
        b.schedule.clone(),
        "spec.schedule",
        b.schedule.trim().to_owned(),
        t!("target.kubernetes.note.schedule", locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::TimeZone,
        b.time_zone.clone(),
        "spec.timeZone",
        b.time_zone.trim().to_owned(),
        t!("target.kubernetes.note.time-zone", locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::Overlap,
        t!(b.overlap.text_key(), locale = l).into_owned(),
        "spec.concurrencyPolicy",
        yaml::concurrency(b.overlap).to_owned(),
        t!("target.kubernetes.note.overlap", locale = l).into_owned(),
    ));
    let (value, note) = match b.missed_run {
        MissedRun::RunOnce => (String::new(), "target.kubernetes.note.missed-run-once"),
        MissedRun::Skip => (
            SKIP_DEADLINE_S.to_string(),
            "target.kubernetes.note.missed-skip",
        ),
    };
    rows.push(row(
        FieldId::MissedRun,
        t!(b.missed_run.text_key(), locale = l).into_owned(),
        "spec.startingDeadlineSeconds",
        value,
        t!(note, locale = l).into_owned(),
    ));
    rows.push(row(
        FieldId::RunTimeout,
        exact(b.run_timeout_ms, lang),
        "jobTemplate.spec.activeDeadlineSeconds",
        ceil_s(b.run_timeout_ms).to_string(),
        t!("target.kubernetes.note.run-timeout", locale = l).into_owned(),
    ));
}

fn gap(field: FieldId, what: &str, instead: Instead, lang: Lang) -> Gap {
    mapping::gap(
        field,
        tr(what, lang),
        instead,
        tr(&format!("{what}-detail"), lang),
    )
}

fn gaps(sheet: &JobSheet, lang: Lang) -> Vec<Gap> {
    let mut out = Vec::new();
    if let Some(r) = &sheet.retry {
        out.push(gap(
            FieldId::WaitStrategy,
            "target.kubernetes.gap.wait",
            Instead::Nothing,
            lang,
        ));
        if r.lease_ms > r.attempt_timeout_ms {
            let what = "target.kubernetes.gap.lease";
            out.push(mapping::lease_gap(
                tr(what, lang),
                Instead::Nothing,
                tr(&format!("{what}-detail"), lang),
            ));
        }
        out.push(gap(
            FieldId::NonRetryableErrors,
            "target.kubernetes.gap.errors",
            Instead::Comment,
            lang,
        ));
        if r.queue_retention_ms.is_some() {
            out.push(gap(
                FieldId::QueueRetention,
                "target.kubernetes.gap.queue-retention",
                Instead::Nothing,
                lang,
            ));
        }
    }
    if let Some(f) = &sheet.failure {
        if !f.notify.trim().is_empty() {
            out.push(gap(
                FieldId::Notify,
                "target.kubernetes.gap.notify",
                Instead::Comment,
                lang,
            ));
        }
        if let Some(key) = yaml::retention_gap(sheet) {
            out.push(gap(FieldId::Retention, key, Instead::Comment, lang));
        }
    }
    if let Some(b) = &sheet.batch {
        if !b.partial_failure.trim().is_empty() {
            out.push(gap(
                FieldId::PartialFailure,
                "target.kubernetes.gap.partial",
                Instead::Comment,
                lang,
            ));
        }
    }
    out.extend(load_gaps(sheet, lang));
    out
}

/// Kubernetes' defaults: `backoffLimit` 6 → 7 pods, delays `min(10 min, 10 s·2^(n−1))`:
/// 10, 20, 40, 80, 160, 320 s (window 630 s), no jitter.
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let attempts = DEFAULT_BACKOFF_LIMIT + 1;
    DefaultPolicy {
        summary: t!(
            "target.kubernetes.defaults",
            locale = lang.code(),
            limit = DEFAULT_BACKOFF_LIMIT,
            attempts = attempts
        )
        .into_owned(),
        attempts: Some(attempts),
        schedule: pod_schedule(attempts),
    }
}

/// One run of the delays the Job controller waits, seconds (no randomness: `u` is not
/// drawn), written as the controller's `getRemainingTimeForFailuresCount` computes it for
/// each failure count with zero time since the last failure.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, _u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    check(sheet)?;
    let mut out = Vec::new();
    for failures in 1..attempts_of(sheet) {
        // backoff := DefaultJobPodFailureBackOff; for i := 1; i < failures; i++ { … }
        let mut backoff = 10.0_f64;
        for _ in 1..failures {
            backoff *= 2.0;
            if backoff >= 600.0 {
                backoff = 600.0;
                break;
            }
        }
        out.push(backoff);
    }
    Ok(out)
}

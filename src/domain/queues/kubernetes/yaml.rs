//! The YAML of the Kubernetes export (see [`super`]), the retention's translation into a TTL
//! or history limits, and an estimate of a cron schedule's runs per day for the latter.

use super::super::knobs::{self, Knobs};
use super::super::{header, text, versions, Schedule, TargetId};
use super::{ceil_s, pod_backoff_s, PERMANENT_EXIT_CODE, SKIP_DEADLINE_S};
use crate::domain::lang::Lang;
use crate::domain::sheet::{JobSheet, Keep, MissedRun, Overlap};
use crate::text::t;
use std::fmt::Write as _;

/// The comment text `target.kubernetes.yaml.<key>` in `lang` (the export's comments follow
/// the page's language; the values in them are the sheet's, as typed).
fn say(key: &str, lang: Lang) -> String {
    t!(
        format!("target.kubernetes.yaml.{key}"),
        locale = lang.code()
    )
    .into_owned()
}

/// `concurrencyPolicy` for the sheet's overlap policy (the same three words).
pub(super) fn concurrency(o: Overlap) -> &'static str {
    match o {
        Overlap::Forbid => "Forbid",
        Overlap::Replace => "Replace",
        Overlap::Allow => "Allow",
    }
}

/// The Job's `activeDeadlineSeconds`: the longest the pods and the controller's delays take,
/// `Σ delays + attempts × ⌈attempt timeout⌉` seconds.
pub(super) fn job_deadline_s(sheet: &JobSheet, actual: &Schedule) -> u64 {
    let attempts = u64::from(actual.attempts.unwrap_or(1));
    let per = sheet
        .retry
        .as_ref()
        .map_or(0, |r| ceil_s(r.attempt_timeout_ms));
    let waits = actual.window_s.max.unwrap_or(0.0).ceil() as u64;
    waits.saturating_add(attempts.saturating_mul(per))
}

fn days(k: Keep) -> Option<u32> {
    match k {
        Keep::Days(d) => Some(d),
        Keep::UntilHandled => None,
    }
}

/// The count of values a cron field's text selects in `lo..=hi` (names as `names`, whose index
/// + `name_base` is the value; day of week 7 is 0). `None` when it cannot be read.
fn field_count(text: &str, lo: u32, hi: u32, names: &[&str], name_base: u32) -> Option<u32> {
    let value = |s: &str| -> Option<u32> {
        let lower = s.to_ascii_lowercase();
        match names.iter().position(|n| *n == lower) {
            Some(i) => Some(i as u32 + name_base),
            None => s.parse().ok(),
        }
    };
    let mut bits: u64 = 0;
    for item in text.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, s.parse::<u32>().ok().filter(|s| *s > 0)?),
            None => (item, 1),
        };
        let (a, b) = if range == "*" {
            (lo, hi)
        } else if let Some((a, b)) = range.split_once('-') {
            (value(a)?, value(b)?)
        } else {
            let a = value(range)?;
            (a, if item.contains('/') { hi } else { a })
        };
        let mut v = a;
        while v <= b && v < 64 {
            bits |= 1 << v;
            v += step;
        }
    }
    if hi == 7 && bits & (1 << 7) != 0 {
        bits = (bits & !(1 << 7)) | 1;
    }
    Some(bits.count_ones())
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// About how many times a day `schedule` runs, averaged over a year (cron's rule: day of
/// month and day of week restricted together run when either matches). `None`: unreadable.
pub(super) fn runs_per_day(schedule: &str) -> Option<f64> {
    let s = schedule.trim().to_ascii_lowercase();
    match s.as_str() {
        "@hourly" => return Some(24.0),
        "@daily" | "@midnight" => return Some(1.0),
        "@weekly" => return Some(1.0 / 7.0),
        "@monthly" => return Some(12.0 / 365.0),
        "@yearly" | "@annually" => return Some(1.0 / 365.0),
        _ => {}
    }
    let f: Vec<&str> = s.split_whitespace().collect();
    let [min, hour, dom, month, dow] = f[..] else {
        return None;
    };
    let per_day = f64::from(field_count(min, 0, 59, &[], 0)? * field_count(hour, 0, 23, &[], 0)?);
    let months = f64::from(field_count(month, 1, 12, &MONTHS, 1)?) / 12.0;
    let dom_share = f64::from(field_count(dom, 1, 31, &[], 0)?) / 30.44;
    let dow_share = f64::from(field_count(dow, 0, 7, &DAYS, 0)?) / 7.0;
    let day_share = match (dom == "*", dow == "*") {
        (true, true) => 1.0,
        (false, true) => dom_share.min(1.0),
        (true, false) => dow_share,
        (false, false) => (dom_share + dow_share).min(1.0),
    };
    Some(per_day * day_share * months)
}

/// History limits for a CronJob: the runs within each retention, about (`⌈days × runs per
/// day⌉`, at least 1). "Until handled" takes the other's count, or Kubernetes' default.
pub(super) fn history_limits(sheet: &JobSheet) -> (u64, u64) {
    let (Some(f), Some(b)) = (&sheet.failure, &sheet.batch) else {
        return (3, 1);
    };
    let per_day = runs_per_day(&b.schedule).unwrap_or(1.0);
    // Less a hair, so 479.999… and 480.000…1 both give 480.
    let count = |d: u32| ((f64::from(d) * per_day - 1e-9).ceil() as u64).max(1);
    let done = days(f.retention.done).map(count);
    let dead = days(f.retention.dead).map(count);
    (done.or(dead).unwrap_or(3), dead.or(done).unwrap_or(1))
}

/// The Job's `ttlSecondsAfterFinished`: the longer retention when both are in days (one TTL
/// serves complete and failed Jobs alike); `None` when either is "until handled".
pub(super) fn ttl_s(sheet: &JobSheet) -> Option<u64> {
    let f = sheet.failure.as_ref()?;
    let (done, dead) = (days(f.retention.done)?, days(f.retention.dead)?);
    Some(u64::from(done.max(dead)) * 86_400)
}

/// The mapping row's key, value and note key for the retention.
pub(super) fn retention(sheet: &JobSheet) -> (&'static str, String, &'static str) {
    if sheet.batch.is_some() {
        let (ok, failed) = history_limits(sheet);
        (
            "spec.successfulJobsHistoryLimit / failedJobsHistoryLimit",
            format!("{ok} / {failed}"),
            "target.kubernetes.note.history",
        )
    } else {
        match ttl_s(sheet) {
            Some(s) => (
                "spec.ttlSecondsAfterFinished",
                s.to_string(),
                "target.kubernetes.note.ttl",
            ),
            None => (
                "spec.ttlSecondsAfterFinished",
                String::new(),
                "target.kubernetes.note.ttl-none",
            ),
        }
    }
}

/// The gap's key for a retention Kubernetes cannot hold as written, if any.
pub(super) fn retention_gap(sheet: &JobSheet) -> Option<&'static str> {
    let f = sheet.failure.as_ref()?;
    let (done, dead) = (days(f.retention.done), days(f.retention.dead));
    if sheet.batch.is_some() {
        return dead
            .is_none()
            .then_some("target.kubernetes.gap.history-until-handled");
    }
    match (done, dead) {
        (Some(a), Some(b)) if a != b => Some("target.kubernetes.gap.ttl-shared"),
        (Some(_), None) | (None, Some(_)) => Some("target.kubernetes.gap.ttl-none"),
        _ => None,
    }
}

fn comment(out: &mut String, indent: &str, s: &str) {
    let _ = writeln!(out, "{indent}# {}", text::comment(s));
}

/// The header comment's lines (written by [`header::write`]): the `kind` for which process,
/// the errors by exit code, the key, the dead letter, who is told and how to rerun, the batch's
/// partial failure, the load.
fn header_lines(sheet: &JobSheet, kind: &str, lang: Lang) -> Vec<String> {
    let (p, l) = (&sheet.process, lang.code());
    let mut lines = Vec::new();
    let mut line = |s: String| lines.push(s);
    line(
        t!(
            "target.kubernetes.yaml.title",
            locale = l,
            kind = kind,
            name = super::super::text::named(&p.process_name, &p.code_name, lang == Lang::Ja)
        )
        .into_owned(),
    );
    line(t!("target.kubernetes.yaml.from-sheet", locale = l, kind = kind).into_owned());
    if let Some(r) = &sheet.retry {
        let sep = if lang == Lang::Ja { "、" } else { ", " };
        line(
            t!(
                "target.kubernetes.yaml.retryable",
                locale = l,
                code = PERMANENT_EXIT_CODE,
                list = r.retryable_errors.join(sep)
            )
            .into_owned(),
        );
        line(
            t!(
                "target.kubernetes.yaml.permanent",
                locale = l,
                code = PERMANENT_EXIT_CODE,
                list = r.non_retryable_errors.join(sep)
            )
            .into_owned(),
        );
        line(
            t!(
                "target.kit.header.key",
                locale = l,
                key = &r.idempotency_key
            )
            .into_owned(),
        );
    }
    if let Some(f) = &sheet.failure {
        line(
            t!(
                "target.kubernetes.yaml.dead",
                locale = l,
                dead = &f.dead_letter
            )
            .into_owned(),
        );
        if !f.notify.trim().is_empty() {
            line(
                t!(
                    "target.kubernetes.yaml.notify",
                    locale = l,
                    notify = &f.notify
                )
                .into_owned(),
            );
        }
        line(t!("target.kubernetes.yaml.rerun", locale = l, rerun = &f.rerun).into_owned());
    }
    if let Some(b) = &sheet.batch {
        if !b.partial_failure.trim().is_empty() {
            line(
                t!(
                    "target.kubernetes.yaml.partial",
                    locale = l,
                    text = &b.partial_failure
                )
                .into_owned(),
            );
        }
    }
    if let Some(knobs_line) = knobs::comment_line(sheet, lang) {
        line(knobs_line);
    }
    lines
}

fn metadata(sheet: &JobSheet, name_line: &str, out: &mut String) {
    let label = text::dns_label(&sheet.process.code_name);
    let _ = writeln!(
        out,
        "metadata:\n  {name_line}: {label}{}",
        if name_line == "generateName" { "-" } else { "" }
    );
    let _ = writeln!(out, "  labels:\n    app.kubernetes.io/name: {label}");
    let _ = writeln!(
        out,
        "  annotations:\n    modality-advisor/process-name: {}",
        text::dq(&sheet.process.process_name)
    );
    if let Some(r) = &sheet.retry {
        let _ = writeln!(
            out,
            "    modality-advisor/idempotency-key: {}",
            text::dq(&r.idempotency_key)
        );
    }
}

/// The pod template, indented by `pad`.
fn pod(sheet: &JobSheet, pad: &str, out: &mut String, lang: Lang) {
    let label = text::dns_label(&sheet.process.code_name);
    let _ = writeln!(out, "{pad}template:");
    let _ = writeln!(
        out,
        "{pad}  metadata:\n{pad}    labels:\n{pad}      app.kubernetes.io/name: {label}"
    );
    let _ = writeln!(out, "{pad}  spec:\n{pad}    restartPolicy: Never");
    if let Some(r) = &sheet.retry {
        let _ = writeln!(
            out,
            "{pad}    activeDeadlineSeconds: {}  # {}",
            ceil_s(r.attempt_timeout_ms),
            say("one-attempt", lang)
        );
    }
    let _ = writeln!(out, "{pad}    containers:");
    let _ = writeln!(out, "{pad}      - name: worker");
    let _ = writeln!(
        out,
        "{pad}        image: \"registry.example.invalid/{label}:latest\"  # {}",
        say("your-image", lang)
    );
}

fn failure_policy(pad: &str, out: &mut String, lang: Lang) {
    let _ = writeln!(out, "{pad}podFailurePolicy:\n{pad}  rules:");
    let _ = writeln!(
        out,
        "{pad}    - action: FailJob  # {}\n{pad}      onExitCodes:\n{pad}        containerName: worker\n{pad}        operator: In\n{pad}        values: [{PERMANENT_EXIT_CODE}]",
        say("fail-job", lang)
    );
    let _ = writeln!(
        out,
        "{pad}    - action: Ignore  # {}\n{pad}      onPodConditions:\n{pad}        - type: DisruptionTarget",
        say("ignore-disruption", lang)
    );
}

/// The Job for an asynchronous sheet (one Job per enqueued job: `kubectl create -f`).
pub(super) fn job(sheet: &JobSheet, attempts: u32, actual: &Schedule, lang: Lang) -> String {
    let mut out = header::write(
        "#",
        versions::header_line(TargetId::Kubernetes, None, lang),
        header_lines(sheet, "Job", lang),
    );
    let delays: Vec<String> = (1..attempts.min(9))
        .map(|n| pod_backoff_s(n).to_string())
        .collect();
    comment(
        &mut out,
        "",
        &t!(
            "target.kubernetes.yaml.attempts",
            locale = lang.code(),
            attempts = attempts,
            limit = attempts - 1,
            delays = if delays.is_empty() {
                t!("target.kit.none", locale = lang.code()).into_owned()
            } else {
                delays.join(", ")
            }
        ),
    );
    comment(&mut out, "", &say("one-job", lang));
    out.push_str("apiVersion: batch/v1\nkind: Job\n");
    metadata(sheet, "generateName", &mut out);
    out.push_str("spec:\n");
    let _ = writeln!(
        out,
        "  backoffLimit: {}  # {}",
        attempts - 1,
        say("retries", lang)
    );
    let _ = writeln!(
        out,
        "  activeDeadlineSeconds: {}  # {}",
        job_deadline_s(sheet, actual),
        say("all-attempts", lang)
    );
    if let Some(s) = ttl_s(sheet) {
        let _ = writeln!(out, "  ttlSecondsAfterFinished: {s}");
    }
    failure_policy("  ", &mut out, lang);
    pod(sheet, "  ", &mut out, lang);
    out
}

/// The CronJob for a batch sheet.
pub(super) fn cron_job(sheet: &JobSheet, attempts: u32, lang: Lang) -> String {
    let mut out = header::write(
        "#",
        versions::header_line(TargetId::Kubernetes, None, lang),
        header_lines(sheet, "CronJob", lang),
    );
    out.push_str("apiVersion: batch/v1\nkind: CronJob\n");
    metadata(sheet, "name", &mut out);
    out.push_str("spec:\n");
    if let Some(b) = &sheet.batch {
        let _ = writeln!(out, "  schedule: {}", text::dq(b.schedule.trim()));
        let _ = writeln!(out, "  timeZone: {}", text::dq(b.time_zone.trim()));
        let _ = writeln!(out, "  concurrencyPolicy: {}", concurrency(b.overlap));
        match b.missed_run {
            MissedRun::Skip => {
                let _ = writeln!(
                    out,
                    "  startingDeadlineSeconds: {SKIP_DEADLINE_S}  # {}",
                    say("skip-missed", lang)
                );
            }
            MissedRun::RunOnce => {
                let _ = writeln!(out, "  # {}", say("missed-once", lang));
            }
        }
    }
    let (ok, failed) = history_limits(sheet);
    let _ = writeln!(out, "  successfulJobsHistoryLimit: {ok}");
    let _ = writeln!(out, "  failedJobsHistoryLimit: {failed}");
    out.push_str("  jobTemplate:\n    spec:\n");
    let _ = writeln!(
        out,
        "      backoffLimit: {}  # {}",
        attempts - 1,
        say("retries", lang)
    );
    if let Some(k) = Knobs::of(sheet).filter(Knobs::sized) {
        let _ = writeln!(
            out,
            "      parallelism: {}  # {}",
            k.workers(),
            t!(
                "target.kubernetes.yaml.parallelism",
                locale = lang.code(),
                each = k.per_worker()
            )
        );
    }
    if let Some(b) = &sheet.batch {
        let _ = writeln!(
            out,
            "      activeDeadlineSeconds: {}  # {}",
            ceil_s(b.run_timeout_ms),
            say("one-run", lang)
        );
    }
    if sheet.retry.is_some() {
        failure_policy("      ", &mut out, lang);
    }
    pod(sheet, "      ", &mut out, lang);
    out
}

//! The findings that hold only when exporting to one target (the sheet's own findings are
//! [`validate`](crate::domain::sheet::check::validate)'s). Worker and CLI only: their texts are
//! in `locales/worker/targets.yml`, which the page does not carry.

use crate::domain::duration::human;
use crate::domain::lang::Lang;
use crate::domain::queues::{Schedule, TargetId};
use crate::domain::sheet::check::{Finding, Severity};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;

/// The findings that hold only when exporting `sheet` to `target`, messages in `lang`: the
/// lease shorter than the target's factor times the attempt timeout
/// ([`TargetId::lease_factor`]; SQS + Lambda: AWS advises a visibility timeout of at least
/// 6 × the function timeout, `brief/QUEUES.md` §2). Empty when none holds.
pub fn target_findings(sheet: &JobSheet, target: TargetId, lang: Lang) -> Vec<Finding> {
    let mut out = Vec::new();
    if let (Some(r), Some(k)) = (&sheet.retry, target.lease_factor()) {
        let want = r.attempt_timeout_ms.saturating_mul(u64::from(k));
        if r.lease_ms < want {
            out.push(Finding {
                code: "lease-under-target-factor",
                severity: Severity::Warning,
                field: FieldId::Timeout,
                message: t!(
                    "sheet.finding.lease-under-target-factor",
                    locale = lang.code(),
                    target = target.label_in(lang),
                    k = k,
                    lease = human(r.lease_ms, lang),
                    timeout = human(r.attempt_timeout_ms, lang),
                    want = human(want, lang)
                )
                .into_owned(),
            });
        }
    }
    out
}

/// The retry window the target will actually run (the longer of its own schedule's and the
/// sheet's longest total, plus one attempt timeout per attempt) against how long the queue keeps the message — the sheet's
/// `queue_retention_ms`, else the target's default
/// ([`TargetId::default_queue_retention_ms`]). Longer: an error, because the queue deletes
/// the message before its last retry, without a trace. Empty otherwise.
pub fn retention(
    sheet: &JobSheet,
    target: TargetId,
    actual: &Schedule,
    lang: Lang,
) -> Vec<Finding> {
    let Some(r) = &sheet.retry else {
        return Vec::new();
    };
    let Some(keep) = r
        .queue_retention_ms
        .or_else(|| target.default_queue_retention_ms())
    else {
        return Vec::new();
    };
    // The target's own schedule, or the sheet's where the export asks the consumer to follow
    // it (SQS: the ChangeMessageVisibility table), whichever lasts longer.
    let sheet_max = crate::domain::queues::schedule::of_sheet(sheet)
        .window_s
        .max;
    let longest = match (actual.window_s.max, sheet_max) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let Some(max_s) = longest else {
        return Vec::new();
    };
    let attempts = u64::from(actual.attempts.unwrap_or(r.max_attempts));
    let window = (max_s * 1000.0) as u64 + attempts.saturating_mul(r.attempt_timeout_ms);
    if window <= keep {
        return Vec::new();
    }
    let stated = r.queue_retention_ms.is_some();
    vec![Finding {
        code: "window-over-target-retention",
        severity: Severity::Error,
        field: FieldId::QueueRetention,
        message: t!(
            if stated {
                "sheet.finding.window-over-target-retention"
            } else {
                "sheet.finding.window-over-target-default-retention"
            },
            locale = lang.code(),
            target = target.label_in(lang),
            window = human(window, lang),
            keep = human(keep, lang)
        )
        .into_owned(),
    }]
}

//! The findings that hold only when exporting to one target (the sheet's own findings are
//! [`validate`](crate::domain::sheet::check::validate)'s). Worker and CLI only: their texts are
//! in `locales/worker/targets.yml`, which the page does not carry.

use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::check::{Finding, Severity};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::domain::target::TargetId;
use rust_i18n::t;

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
                    target = target.label(),
                    k = k,
                    lease = exact(r.lease_ms, lang),
                    timeout = exact(r.attempt_timeout_ms, lang),
                    want = exact(want, lang)
                )
                .into_owned(),
            });
        }
    }
    out
}

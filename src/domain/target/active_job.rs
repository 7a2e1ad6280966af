//! Placeholder: filled in by this target's implementation (see the module table in
//! [`super`]).

use super::{Built, DefaultPolicy, Format, Schedule, TargetError, TargetId};
use crate::domain::lang::Lang;
use crate::domain::sheet::JobSheet;

/// Builds the export.
///
/// # Errors
/// Always, until implemented.
pub fn build(sheet: &JobSheet, _format: Format, _lang: Lang) -> Result<Built, TargetError> {
    Err(TargetError::NotApplicable {
        target: TargetId::Sqs,
        outcome: sheet.decision.outcome.id(),
    })
}

/// The defaults.
pub fn defaults(_lang: Lang) -> DefaultPolicy {
    DefaultPolicy {
        summary: String::new(),
        attempts: None,
        schedule: Schedule::unlimited(Vec::new()),
    }
}

/// One sampled run of the actual delays, in seconds, drawing uniform numbers in `[0, 1)` from
/// `u` the way the target's own code draws its randomness.
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, _u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    Err(TargetError::NotApplicable {
        target: TargetId::Sqs,
        outcome: sheet.decision.outcome.id(),
    })
}

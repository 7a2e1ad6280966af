//! Placeholder: the source documents' table queue as SQL (see [`super`]).

use super::{Built, DefaultPolicy, Schedule, TargetError, TargetId};
use crate::domain::lang::Lang;
use crate::domain::sheet::JobSheet;

/// The SQL dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite 3.35+ (`UPDATE … RETURNING`).
    Sqlite,
    /// PostgreSQL (`FOR UPDATE SKIP LOCKED`).
    Postgres,
}

/// Builds the export.
///
/// # Errors
/// Always, until implemented.
pub fn build(sheet: &JobSheet, _dialect: Dialect, _lang: Lang) -> Result<Built, TargetError> {
    Err(TargetError::NotApplicable {
        target: TargetId::SqlSqlite,
        outcome: sheet.decision.outcome.id(),
    })
}

/// The defaults.
pub fn defaults(_dialect: Dialect, _lang: Lang) -> DefaultPolicy {
    DefaultPolicy {
        summary: String::new(),
        attempts: None,
        schedule: Schedule::unlimited(Vec::new()),
    }
}

/// One sampled run of the actual delays, in seconds (see [`super::sample`]).
///
/// # Errors
/// As [`build`].
pub fn sample(
    sheet: &JobSheet,
    _dialect: Dialect,
    _u: &mut dyn FnMut() -> f64,
) -> Result<Vec<f64>, TargetError> {
    Err(TargetError::NotApplicable {
        target: TargetId::SqlSqlite,
        outcome: sheet.decision.outcome.id(),
    })
}

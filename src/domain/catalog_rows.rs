//! The catalog screen's table as text: one [`Row`] per process, in catalog order, every cell
//! already worded in the page's language (the page only lays them out).
//!
//! The settings columns come from the process's job sheet, and only when that sheet was made
//! for the outcome its answers give now (a sheet left over from an earlier decision does not
//! describe the process any more): until then they read "—".

use crate::domain::app_state::AppState;
use crate::domain::catalog::{Catalog, Process, ProcessId, MAX_NAME_CHARS};
use crate::domain::duration::exact;
use crate::domain::flowchart::Outcome;
use crate::domain::sheet::check::{validate, Severity};
use crate::domain::sheet::{BackoffKind, JobSheet};
use crate::domain::Lang;
use crate::text::t;

/// What a cell shows when the process has no sheet for its outcome yet.
pub const NONE: &str = "—";

/// One process as the catalog table shows it. Every text is in the language asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The process's id.
    pub id: ProcessId,
    /// Its name.
    pub name: String,
    /// The outcome its answers give (`None`: undecided).
    pub outcome: Option<Outcome>,
    /// The outcome's title, or "undecided".
    pub outcome_text: String,
    /// Attempts in all (the sheet's `retry.max_attempts`), e.g. `"5"`; [`NONE`] without retries.
    pub attempts: String,
    /// The wait between attempts, e.g. `"exponential, 1 s → 5 min"`.
    pub wait: String,
    /// The time limits: `"30 s / 5 min"` (attempt timeout / lease) for queued jobs, the call
    /// timeout for synchronous outcomes, the run timeout for a batch.
    pub timeout: String,
    /// The idempotency key as written on the sheet ([`NONE`] when empty or absent).
    pub key: String,
    /// Errors the sheet's checks find (0 without a sheet).
    pub errors: usize,
    /// Warnings the sheet's checks find (0 without a sheet).
    pub warnings: usize,
    /// The findings in words, e.g. `"1 error, 2 warnings"`, `"none"`, or [`NONE`] without a sheet.
    pub findings: String,
    /// What the audit of the configuration the process was made from said, until marked as
    /// reviewed ([`Process::audit`]), e.g. `"From main.tf:6, to review: 1 warning"`; empty for
    /// a process with no audit record. The findings above are the sheet's own.
    pub audit: String,
    /// The load section's rate (sized for), workers (`4 × 5`), analytic bottleneck and burst
    /// drain time ([`catalog_cells`](crate::domain::sheet::load_text::catalog_cells)); [`NONE`]
    /// where the sheet gives none.
    pub capacity: [String; 4],
    /// When the process was last edited, in UTC ([`utc_minute`]).
    pub edited: String,
}

/// The catalog's processes as rows, in catalog order, worded in `lang`.
pub fn rows(catalog: &Catalog, lang: Lang) -> Vec<Row> {
    catalog.processes.iter().map(|p| row(p, lang)).collect()
}

/// One process as a row ([`rows`]).
pub fn row(p: &Process, lang: Lang) -> Row {
    let l = lang.code();
    let outcome_text = match p.outcome {
        Some(o) => o.title(lang),
        None => t!("catalog-screen.undecided", locale = l).into_owned(),
    };
    let sheet = p
        .sheet
        .as_ref()
        .filter(|s| Some(s.decision.outcome) == p.outcome);
    let none = || NONE.to_owned();
    let (errors, warnings, findings) = match sheet {
        Some(s) => findings(s, lang),
        None => (0, 0, none()),
    };
    let retry = sheet.and_then(|s| s.retry.as_ref());
    Row {
        id: p.id.clone(),
        name: p.name.clone(),
        outcome: p.outcome,
        outcome_text,
        attempts: retry.map_or_else(none, |r| r.max_attempts.to_string()),
        wait: retry.map_or_else(none, |r| {
            let base = exact(r.backoff.base_ms, lang);
            match r.backoff.kind {
                BackoffKind::Fixed => t!("catalog-screen.wait-fixed", locale = l, base = base),
                BackoffKind::Exponential => t!(
                    "catalog-screen.wait-exponential",
                    locale = l,
                    base = base,
                    cap = exact(r.backoff.cap_ms, lang)
                ),
                BackoffKind::Polynomial(_) => {
                    crate::domain::sheet::fields::describe_backoff(&r.backoff, lang).into()
                }
            }
            .into_owned()
        }),
        timeout: sheet.map_or_else(none, |s| limits(s, lang)),
        key: sheet
            .and_then(|s| s.idempotency_key())
            .filter(|k| !k.is_empty())
            .map_or_else(none, str::to_owned),
        errors,
        warnings,
        findings,
        audit: p
            .audit_record()
            .map_or_else(String::new, |a| audit_mark(a, lang)),
        capacity: crate::domain::sheet::load_text::catalog_cells(sheet, lang)
            .map(|c| c.unwrap_or_else(none)),
        edited: utc_minute(p.updated_ms),
    }
}

/// The catalog row's mark for a process made by the audit ([`Row::audit`]): the file and
/// line, and the audit's findings in the file; with none, how many notes are left to review
/// (not "none" beside the Findings column, which counts the sheet's own check of the values
/// now in the form, defaults included).
fn audit_mark(a: &crate::domain::catalog::origin::AuditOrigin, lang: Lang) -> String {
    let l = lang.code();
    let (file, line) = (a.file.as_str(), a.line);
    let notes = a.notes(lang == Lang::Ja).len();
    let key = match (a.errors, a.warnings, notes) {
        (0, 0, 0) => "catalog-screen.audit-clean",
        (0, 0, 1) => "catalog-screen.audit-notes-one",
        (0, 0, _) => "catalog-screen.audit-notes",
        _ => {
            let found = counted(a.errors as usize, a.warnings as usize, lang);
            return t!(
                "catalog-screen.audit",
                locale = l,
                file = file,
                line = line,
                found = found
            )
            .into_owned();
        }
    };
    t!(key, locale = l, file = file, line = line, n = notes).into_owned()
}

/// The sheet's time limits in words ([`Row::timeout`]).
fn limits(s: &JobSheet, lang: Lang) -> String {
    if let Some(r) = &s.retry {
        format!(
            "{} / {}",
            exact(r.attempt_timeout_ms, lang),
            exact(r.lease_ms, lang)
        )
    } else if let Some(sync) = &s.sync {
        exact(sync.call_timeout_ms, lang)
    } else if let Some(b) = &s.batch {
        exact(b.run_timeout_ms, lang)
    } else {
        NONE.to_owned()
    }
}

/// Errors, warnings, and the two in words ([`Row::findings`]).
fn findings(s: &JobSheet, lang: Lang) -> (usize, usize, String) {
    let found = validate(s, lang);
    let errors = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = found.len() - errors;
    (errors, warnings, counted(errors, warnings, lang))
}

/// `errors` errors and `warnings` warnings in words, e.g. `"1 error, 2 warnings"`, `"none"`.
fn counted(errors: usize, warnings: usize, lang: Lang) -> String {
    let l = lang.code();
    let count = |n: usize, one: &str, many: &str| {
        let key = if n == 1 { one } else { many };
        t!(key, locale = l, n = n).into_owned()
    };
    let e = count(errors, "catalog-screen.errors-one", "catalog-screen.errors");
    let w = count(
        warnings,
        "catalog-screen.warnings-one",
        "catalog-screen.warnings",
    );
    let text = match (errors, warnings) {
        (0, 0) => t!("catalog-screen.findings-none", locale = l).into_owned(),
        (_, 0) => e,
        (0, _) => w,
        _ => t!("catalog-screen.findings-both", locale = l, e = e, w = w).into_owned(),
    };
    text
}

/// A Unix time in milliseconds as a UTC date and minute, e.g. `1_796_160_600_000` →
/// `"2026-12-01 21:30 UTC"` (the proleptic Gregorian calendar; the same in both languages).
pub fn utc_minute(ms: u64) -> String {
    format!("{} UTC", crate::domain::catalog::export::utc(ms, true))
}

/// The open process's name as it is now (the sheet's process name once filled, as
/// [`AppState::catalog_now`] writes it back, else the catalog's), without copying the catalog;
/// `None` when no process is open.
pub fn open_name(s: &AppState) -> Option<String> {
    let p = s.catalog.get(s.open.as_ref()?)?;
    let typed = s
        .sheet
        .as_ref()
        .map(|sheet| sheet.process.process_name.trim())
        .filter(|n| !n.is_empty() && n.chars().count() <= MAX_NAME_CHARS);
    Some(typed.map_or_else(|| p.name.clone(), str::to_owned))
}

//! The whole catalog as one document: Markdown ([`to_markdown`]: a summary table, then a
//! section per process with its sheet and decision path), CSV ([`to_csv`]) and TSV
//! ([`to_tsv`]): one row per process with the key fields as columns. JSON is the catalog
//! file itself, [`Catalog::to_json`]. Texts in Japanese or English (`locales/page/catalog.yml`);
//! durations as the sheet's exports write them ([`exact`]: `30 s`, `10 min`).
//!
//! The key fields of a process ([`Key`]) come from its sheet; a process without a sheet has
//! only its outcome (or "undecided"), the other fields read `—`.

pub mod markdown;
pub mod table;

pub use markdown::to_markdown;
pub use table::{to_csv, to_tsv};

use crate::domain::catalog::Process;
use crate::domain::duration::exact;
use crate::domain::flowchart::Outcome;
use crate::domain::sheet::check::{validate, Severity};
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::BackoffPolicy;
use crate::domain::Lang;

#[cfg(doc)]
use crate::domain::catalog::Catalog;

/// One process's key fields, as the summary table and the CSV / TSV rows show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The outcome the answers give (`None`: undecided).
    pub outcome: Option<Outcome>,
    /// `retry.max_attempts` (asynchronous outcomes with a sheet).
    pub attempts: Option<u32>,
    /// `retry.backoff`.
    pub backoff: Option<BackoffPolicy>,
    /// `retry.attempt_timeout_ms`, ms.
    pub attempt_timeout_ms: Option<u64>,
    /// `retry.lease_ms`, ms.
    pub lease_ms: Option<u64>,
    /// The idempotency key ([`JobSheet::idempotency_key`](crate::domain::sheet::JobSheet::idempotency_key):
    /// the job's, or a synchronous call's that changes something; trimmed).
    pub idempotency_key: Option<String>,
    /// `process.business_key` (trimmed; `None` without a sheet or when blank).
    pub business_key: Option<String>,
    /// `failure.dead_letter` (trimmed).
    pub dead_letter: Option<String>,
    /// `failure.notify` (trimmed).
    pub notify: Option<String>,
    /// `batch.schedule` (trimmed).
    pub schedule: Option<String>,
    /// `batch.time_zone` (trimmed), the zone the schedule is read in.
    pub time_zone: Option<String>,
    /// `sync.call_timeout_ms`, ms.
    pub call_timeout_ms: Option<u64>,
    /// `batch.run_timeout_ms`, ms.
    pub run_timeout_ms: Option<u64>,
    /// Errors among the sheet's findings ([`validate`]); 0 without a sheet.
    pub errors: usize,
    /// Warnings among the sheet's findings; 0 without a sheet.
    pub warnings: usize,
    /// The load section's rate, workers, analytic bottleneck and burst drain time, in the
    /// language asked for ([`catalog_cells`](crate::domain::sheet::load_text::catalog_cells)).
    pub capacity: [Option<String>; 4],
}

/// The key fields of `p` (findings counted with messages in `lang`, which does not change
/// the counts).
pub fn key(p: &Process, lang: Lang) -> Key {
    let sheet = p.sheet.as_ref();
    let retry = sheet.and_then(|s| s.retry.as_ref());
    let failure = sheet.and_then(|s| s.failure.as_ref());
    let findings = sheet.map(|s| validate(s, lang)).unwrap_or_default();
    let count = |sev: Severity| findings.iter().filter(|f| f.severity == sev).count();
    let trimmed = |s: &str| s.trim().to_owned();
    Key {
        outcome: p.outcome,
        attempts: retry.map(|r| r.max_attempts),
        backoff: retry.map(|r| r.backoff),
        attempt_timeout_ms: retry.map(|r| r.attempt_timeout_ms),
        lease_ms: retry.map(|r| r.lease_ms),
        idempotency_key: sheet.and_then(|s| s.idempotency_key()).map(str::to_owned),
        business_key: sheet
            .map(|s| trimmed(&s.process.business_key))
            .filter(|k| !k.is_empty()),
        dead_letter: failure.map(|f| trimmed(&f.dead_letter)),
        notify: failure.map(|f| trimmed(&f.notify)),
        schedule: sheet
            .and_then(|s| s.batch.as_ref())
            .map(|b| trimmed(&b.schedule)),
        time_zone: sheet
            .and_then(|s| s.batch.as_ref())
            .map(|b| trimmed(&b.time_zone)),
        call_timeout_ms: sheet
            .and_then(|s| s.sync.as_ref())
            .map(|s| s.call_timeout_ms),
        run_timeout_ms: sheet
            .and_then(|s| s.batch.as_ref())
            .map(|b| b.run_timeout_ms),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        capacity: crate::domain::sheet::load_text::catalog_cells(sheet, lang),
    }
}

fn tr(key: &str, lang: Lang) -> String {
    crate::text::t!(key, locale = lang.code()).into_owned()
}

/// The outcome's title in `lang`, or "undecided" / "未決定".
pub fn outcome_text(o: Option<Outcome>, lang: Lang) -> String {
    match o {
        Some(o) => o.title(lang),
        None => tr("catalog.export.undecided", lang),
    }
}

/// A duration for a cell: [`exact`], or `—` when absent.
fn ms_text(ms: Option<u64>, lang: Lang) -> String {
    ms.map(|m| exact(m, lang))
        .unwrap_or_else(|| tr("catalog.export.none", lang))
}

/// A text for a cell, or `—` when absent.
fn or_none(s: Option<&str>, lang: Lang) -> String {
    s.map(str::to_owned)
        .unwrap_or_else(|| tr("catalog.export.none", lang))
}

/// The column keys of the catalog's summary table (`catalog.export.col.<key>`), in order:
/// process, outcome, attempts, wait strategy, timeout / lease, idempotency key, findings
/// (errors / warnings), last edited.
pub const SUMMARY_COLUMNS: [&str; 12] = [
    "process",
    "outcome",
    "attempts",
    "wait",
    "timeout-lease",
    "key",
    "rate",
    "workers",
    "bottleneck",
    "drain",
    "findings",
    "updated",
];

/// The display name of a process: its name (trimmed), or its id when the name is blank.
pub fn display_name(p: &Process) -> String {
    let n = p.name.trim();
    if n.is_empty() {
        p.id.to_string()
    } else {
        n.to_owned()
    }
}

/// One process's cells of the summary table ([`SUMMARY_COLUMNS`]) as plain text in `lang`,
/// `k` being [`key`]`(p, lang)`: the display name, the outcome (or "undecided"), attempts,
/// the wait strategy, `attempt timeout / lease` (or the sync call timeout, or a batch's
/// per-run timeout: the value the sheet shows), the idempotency
/// key, the rate, workers, analytic bottleneck and burst drain time of the load section,
/// `errors / warnings`, the last edit date (UTC); `—` for what the process lacks.
/// Each format escapes the cells its own way (the Markdown export, the share card).
pub fn summary_cells(p: &Process, k: &Key, lang: Lang) -> [String; 12] {
    let none = || tr("catalog.export.none", lang);
    let labelled = |key: &str, ms: u64| {
        crate::text::t!(key, locale = lang.code(), ms = ms_text(Some(ms), lang)).into_owned()
    };
    let timeout = match (k.attempt_timeout_ms, k.lease_ms, k.call_timeout_ms) {
        (Some(t), Some(l), _) => format!("{} / {}", ms_text(Some(t), lang), ms_text(Some(l), lang)),
        (_, _, Some(c)) => labelled("catalog.export.call-timeout", c),
        _ => match k.run_timeout_ms {
            Some(r) => labelled("catalog.export.run-timeout", r),
            None => none(),
        },
    };
    let findings = if p.sheet.is_some() {
        format!("{} / {}", k.errors, k.warnings)
    } else {
        none()
    };
    [
        display_name(p),
        outcome_text(k.outcome, lang),
        k.attempts.map_or_else(none, |a| a.to_string()),
        k.backoff.map_or_else(none, |b| describe_backoff(&b, lang)),
        timeout,
        or_none(k.idempotency_key.as_deref(), lang),
        or_none(k.capacity[0].as_deref(), lang),
        or_none(k.capacity[1].as_deref(), lang),
        or_none(k.capacity[2].as_deref(), lang),
        or_none(k.capacity[3].as_deref(), lang),
        findings,
        utc(p.updated_ms, false),
    ]
}

/// Unix milliseconds as the UTC calendar date and time, `2026-12-01 21:29`; with
/// `time = false` the date only, `2026-12-01`. (Howard Hinnant's days-to-civil algorithm;
/// valid for every `u64`.)
pub fn utc(ms: u64, time: bool) -> String {
    let secs = ms / 1000;
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Days since 0000-03-01 in the proleptic Gregorian calendar.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    if time {
        format!(
            "{year:04}-{month:02}-{day:02} {:02}:{:02}",
            rem / 3600,
            rem % 3600 / 60
        )
    } else {
        format!("{year:04}-{month:02}-{day:02}")
    }
}

//! The source documents' own table queue (source document `000`'s `miniqueue.py`;
//! `docs/DOMAIN.md` §2) as SQL for SQLite 3.35+ and PostgreSQL, with the sheet's lease,
//! attempts and wait written into the statements: the schema, `enqueue`, the atomic `claim`
//! (SQLite `UPDATE … RETURNING` under `BEGIN IMMEDIATE`; PostgreSQL `UPDATE … WHERE id =
//! (SELECT … FOR UPDATE SKIP LOCKED) RETURNING`), `complete` and `release` with an owner check,
//! `fail` (a non-retryable error: dead at once), `record_key` (the idempotency key in the
//! business write's transaction), `purge` (retention) and `rerun`.
//!
//! Each statement follows a `-- name: <statement>` line (the yesql / sqlc convention; see
//! [`statements`]) and its parameters are listed above it: SQLite named (`:now`, `:id`, …),
//! PostgreSQL positional (`$1`, `$2`, …). Times are parameters, never the database's clock,
//! so a program (and `tests/it/target_sql.rs`) decides what "now" is: SQLite seconds since
//! the Unix epoch (`REAL`, as the documents), PostgreSQL `timestamptz`.
//!
//! The wait is the sheet's own formula (`docs/DOMAIN.md` §5) computed in SQL from `attempts`:
//! the actual schedule is the sheet's schedule. Jitter draws `random()` (SQLite: a 64-bit
//! integer mapped to `[0, 1)`; PostgreSQL: `[0, 1)`).

use super::knobs::{self, Knobs};
use super::mapping::{self, row};
use super::schedule::of_sheet;
use super::TargetId;
use super::{Built, DefaultPolicy, Delay, Gap, Instead, MappingRow, Schedule, TargetError};
use crate::domain::duration::approx;
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::join_list;
use crate::domain::sheet::retry_window::ceiling_ms;
use crate::domain::sheet::{
    BackoffKind, FieldId, Jitter, JobSheet, Keep, LastErrorOnDone, RetrySpec,
};
use crate::text::t;

mod stmt;

/// The SQL dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite 3.35+ (`UPDATE … RETURNING`).
    Sqlite,
    /// PostgreSQL (`FOR UPDATE SKIP LOCKED`).
    Postgres,
}

impl Dialect {
    /// The target this dialect exports for.
    pub fn target(self) -> TargetId {
        match self {
            Dialect::Sqlite => TargetId::SqlSqlite,
            Dialect::Postgres => TargetId::SqlPostgres,
        }
    }
}

/// The names of the exported statements, in the order they appear (`purge` only when some
/// finished rows have a retention in days).
pub const STATEMENTS: [&str; 10] = [
    "schema",
    "enqueue",
    "claim",
    "reap",
    "complete",
    "release",
    "fail",
    "record_key",
    "purge",
    "rerun",
];

/// The source documents' defaults (`miniqueue.py`): `max_attempts` 3 (the column's default), a
/// fixed wait of 0.2 s (`work_once(wait_sec=0.2)`), a lease of 30 s (`timeout_sec=30`).
const DOC_ATTEMPTS: u32 = 3;
/// See [`DOC_ATTEMPTS`], ms.
const DOC_WAIT_MS: u64 = 200;
/// See [`DOC_ATTEMPTS`], ms.
const DOC_LEASE_MS: u64 = 30_000;

/// Splits an export into its statements: `(name, sql)` for every `-- name: <name>` line, the
/// SQL being the lines after it up to the next such line (comments included; both databases
/// ignore them). The schema's text holds several statements (`execute_batch` / a script).
pub fn statements(export: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in export.lines() {
        if let Some(name) = line.strip_prefix("-- name: ") {
            out.push((name.trim().to_owned(), String::new()));
        } else if let Some((_, sql)) = out.last_mut() {
            sql.push_str(line);
            sql.push('\n');
        }
    }
    out
}

fn not_applicable(sheet: &JobSheet, dialect: Dialect) -> TargetError {
    TargetError::NotApplicable {
        target: dialect.target(),
        outcome: sheet.decision.outcome.id(),
    }
}

/// Builds the export: the SQL, the mapping, the gaps and the actual schedule (the sheet's).
///
/// # Errors
/// [`TargetError::NotApplicable`] for a sheet without a retry section (sync and batch
/// outcomes). Every value of a retry section is representable.
pub fn build(sheet: &JobSheet, dialect: Dialect, lang: Lang) -> Result<Built, TargetError> {
    let r = sheet
        .retry
        .as_ref()
        .ok_or_else(|| not_applicable(sheet, dialect))?;
    Ok(Built {
        text: stmt::export(sheet, r, dialect, lang),
        mapping: mapping(sheet, r, dialect, lang),
        gaps: gaps(sheet, r, lang),
        actual: of_sheet(sheet),
    })
}

/// The sheet's wait in words, e.g. "exponential from 10 s, cap 10 min, full jitter" (shared by
/// the targets' mapping rows).
pub(crate) fn wait_words(r: &RetrySpec, lang: Lang) -> String {
    let b = &r.backoff;
    let l = lang.code();
    let kind = match b.kind {
        BackoffKind::Fixed => t!(
            "target.sql.wait.fixed",
            locale = l,
            base = exact(b.base_ms, lang)
        ),
        BackoffKind::Exponential => t!(
            "target.sql.wait.exponential",
            locale = l,
            base = exact(b.base_ms, lang),
            cap = exact(b.cap_ms, lang)
        ),
        BackoffKind::Polynomial(p) => t!(
            "target.sql.wait.polynomial",
            locale = l,
            base = exact(b.base_ms, lang),
            k = p.exponent,
            first = p.first_n,
            cap = exact(b.cap_ms, lang)
        ),
    };
    let jitter = match b.jitter {
        Jitter::None => t!("target.sql.jitter.none", locale = l),
        Jitter::Full => t!("target.sql.jitter.full", locale = l),
        Jitter::Equal => t!("target.sql.jitter.equal", locale = l),
        Jitter::Decorrelated => t!("target.sql.jitter.decorrelated", locale = l),
    };
    let sep = match lang {
        Lang::En => ", ",
        Lang::Ja => "、",
    };
    format!("{kind}{sep}{jitter}")
}

/// The sheet's retry window in words, e.g. "0 s – 150 s (expected 75 s)" (waits only, zero
/// processing time).
pub(crate) fn window_words(sheet: &JobSheet, lang: Lang) -> String {
    let w = of_sheet(sheet).window_s;
    let f = |s: Option<f64>| approx(s.unwrap_or(0.0) * 1000.0, lang);
    t!(
        "target.sql.window",
        locale = lang.code(),
        min = f(w.min),
        max = f(w.max),
        expected = f(w.expected)
    )
    .into_owned()
}

fn keep_words(k: Keep, lang: Lang) -> String {
    match k {
        Keep::Days(d) => exact(u64::from(d) * 86_400_000, lang),
        Keep::UntilHandled => {
            t!("target.sql.keep.until-handled", locale = lang.code()).into_owned()
        }
    }
}

fn mapping(sheet: &JobSheet, r: &RetrySpec, dialect: Dialect, lang: Lang) -> Vec<MappingRow> {
    let l = lang.code();
    let lease = exact(r.lease_ms, lang);
    let claim_key = match dialect {
        Dialect::Sqlite => "claim: UPDATE … RETURNING",
        Dialect::Postgres => "claim: FOR UPDATE SKIP LOCKED",
    };
    let mut rows = vec![
        row(
            FieldId::MaxAttempts,
            r.max_attempts.to_string(),
            "jobs.max_attempts",
            r.max_attempts.to_string(),
            t!("target.sql.note.attempts", locale = l).into_owned(),
        ),
        row(
            FieldId::WaitStrategy,
            wait_words(r, lang),
            "release: run_after",
            stmt::wait_expr(r, dialect),
            t!("target.sql.note.wait", locale = l).into_owned(),
        ),
        mapping::lease_row(
            lease.clone(),
            claim_key,
            format!("locked_until = now + {lease}"),
            t!("target.sql.note.lease", locale = l).into_owned(),
        ),
        row(
            FieldId::Timeout,
            exact(r.attempt_timeout_ms, lang),
            "",
            String::new(),
            t!("target.sql.note.timeout", locale = l).into_owned(),
        ),
        row(
            FieldId::IdempotencyKey,
            r.idempotency_key.clone(),
            "jobs.idempotency_key UNIQUE, processed_keys",
            String::new(),
            t!("target.sql.note.key", locale = l).into_owned(),
        ),
        row(
            FieldId::RetryableErrors,
            join_list(&r.retryable_errors, lang),
            "release",
            String::new(),
            t!("target.sql.note.retryable", locale = l).into_owned(),
        ),
        row(
            FieldId::NonRetryableErrors,
            join_list(&r.non_retryable_errors, lang),
            "fail",
            String::new(),
            t!("target.sql.note.non-retryable", locale = l).into_owned(),
        ),
    ];
    if let Some(f) = &sheet.failure {
        rows.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "jobs.status",
            "'dead'".to_owned(),
            t!("target.sql.note.dead-letter", locale = l).into_owned(),
        ));
        rows.push(row(
            FieldId::Retention,
            format!(
                "done {}, dead {}",
                keep_words(f.retention.done, lang),
                keep_words(f.retention.dead, lang)
            ),
            "purge",
            stmt::purge_days(f.retention).map_or_else(String::new, |_| "DELETE".to_owned()),
            t!("target.sql.note.retention", locale = l).into_owned(),
        ));
        rows.push(row(
            FieldId::Rerun,
            f.rerun.clone(),
            "rerun",
            "status = 'queued', attempts = 0".to_owned(),
            t!("target.sql.note.rerun", locale = l).into_owned(),
        ));
        let on_done = match f.last_error_on_done {
            LastErrorOnDone::Keep => "last_error kept",
            LastErrorOnDone::Clear => "last_error = NULL",
        };
        rows.push(row(
            FieldId::DeadLetter,
            on_done.to_owned(),
            "complete",
            on_done.to_owned(),
            t!("target.sql.note.last-error", locale = l).into_owned(),
        ));
    }
    rows.push(row(
        FieldId::RetryWindow,
        window_words(sheet, lang),
        "",
        window_words(sheet, lang),
        t!("target.sql.note.window", locale = l).into_owned(),
    ));
    rows.extend(mapping::layers_row(
        r,
        |r| r.total_calls().to_string(),
        "",
        |calls| t!("target.sql.note.layers", locale = l, calls = calls).into_owned(),
    ));
    rows.extend(load_rows(sheet, lang));
    rows
}

/// The load section's rows: the workers (the worker program's, no SQL setting), the
/// downstream's limits.
fn load_rows(sheet: &JobSheet, lang: Lang) -> Vec<MappingRow> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    if k.sized() {
        rows.push(knobs::knob_row(
            FieldId::Workers,
            &k,
            "claim",
            String::new(),
            ("sql", "workers"),
            lang,
        ));
    }
    rows.extend(knobs::downstream_row(sheet, lang));
    rows
}

fn gap(field: FieldId, what: &str, instead: Instead, detail: &str, lang: Lang) -> Gap {
    let l = lang.code();
    let detail = if detail.is_empty() {
        String::new()
    } else {
        t!(detail, locale = l).into_owned()
    };
    mapping::gap(field, t!(what, locale = l).into_owned(), instead, detail)
}

fn gaps(sheet: &JobSheet, r: &RetrySpec, lang: Lang) -> Vec<Gap> {
    let mut out = vec![
        gap(
            FieldId::Timeout,
            "target.sql.gap.timeout",
            Instead::Comment,
            "target.sql.gap.timeout-detail",
            lang,
        ),
        gap(
            FieldId::NonRetryableErrors,
            "target.sql.gap.errors",
            Instead::Comment,
            "target.sql.gap.errors-detail",
            lang,
        ),
    ];
    if sheet
        .failure
        .as_ref()
        .is_some_and(|f| !f.notify.trim().is_empty())
    {
        out.push(gap(
            FieldId::Notify,
            "target.sql.gap.notify",
            Instead::Comment,
            "target.sql.gap.notify-detail",
            lang,
        ));
    }
    if r.queue_retention_ms.is_some() {
        out.push(gap(
            FieldId::QueueRetention,
            "target.sql.gap.queue-retention",
            Instead::Nothing,
            "",
            lang,
        ));
    }
    if let Some(k) = Knobs::of(sheet) {
        out.extend(knobs::rate_gap("sql", &k, lang));
    }
    out
}

/// The source documents' defaults (`miniqueue.py`): 3 attempts, a fixed wait of 0.2 s, a lease
/// of 30 s; the window computed from them (2 waits of 0.2 s = 0.4 s).
pub fn defaults(_dialect: Dialect, lang: Lang) -> DefaultPolicy {
    let retries = DOC_ATTEMPTS - 1;
    let delays = (0..retries)
        .map(|_| Delay::fixed(DOC_WAIT_MS as f64 / 1000.0))
        .collect();
    DefaultPolicy {
        summary: t!(
            "target.sql.defaults",
            locale = lang.code(),
            attempts = DOC_ATTEMPTS,
            wait = exact(DOC_WAIT_MS, lang),
            lease = exact(DOC_LEASE_MS, lang)
        )
        .into_owned(),
        attempts: Some(DOC_ATTEMPTS),
        schedule: Schedule::bounded(delays),
    }
}

/// One sampled run of the delays `release` computes, in seconds: the SQL expression of
/// `stmt::wait_expr` evaluated line by line with `u` in place of `random()`, `n = attempts −
/// 1` for the retry after attempt `attempts`, `last_wait_s` starting NULL (→ the base).
///
/// # Errors
/// As [`build`].
pub fn sample(
    sheet: &JobSheet,
    dialect: Dialect,
    u: &mut dyn FnMut() -> f64,
) -> Result<Vec<f64>, TargetError> {
    let r = sheet
        .retry
        .as_ref()
        .ok_or_else(|| not_applicable(sheet, dialect))?;
    let b = &r.backoff;
    let base = b.base_ms as f64 / 1000.0;
    let cap = b.cap_ms.max(b.base_ms) as f64 / 1000.0;
    let mut last_wait: Option<f64> = None;
    let mut out = Vec::new();
    for attempts in 1..r.max_attempts {
        // t = the capped growth (ceiling_ms is the same min(cap, …) the SQL writes).
        let t = ceiling_ms(b, attempts - 1) as f64 / 1000.0;
        let w = match b.jitter {
            Jitter::None => t,
            Jitter::Full => t * u(),
            Jitter::Equal => t / 2.0 + t / 2.0 * u(),
            Jitter::Decorrelated => {
                let prev = last_wait.unwrap_or(base);
                (base + u() * (3.0 * prev - base)).min(cap)
            }
        };
        last_wait = Some(w);
        out.push(w);
    }
    Ok(out)
}

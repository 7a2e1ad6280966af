//! The catalog as rows, one per process, for spreadsheets: CSV ([`to_csv`], RFC 4180 via the
//! `csv` crate, CRLF line ends, optional UTF-8 BOM for Excel) and TSV ([`to_tsv`], `\n` line
//! ends, quoted as the sheet's TSV export quotes, [`cell`]). Both start with a header line;
//! a cell starting with `=`, `+`, `-` or `@` gets a leading `'` ([`spreadsheet_text`]) so
//! spreadsheets do not run it as a formula.
//!
//! Columns ([`COLUMNS`]): id, name, outcome, attempts, backoff, first wait, wait cap,
//! jitter, attempt timeout, lease, idempotency key, business key, dead letter, notify, schedule, its
//! time zone and per-run timeout (batch), call timeout (sync), the load section's rate, workers (processes × jobs at once each),
//! analytic bottleneck and burst drain time, errors, warnings, last edited (UTC, `YYYY-MM-DD HH:MM`). A field the
//! process does not have (no sheet, or a section its outcome does not use) reads `—`. Bidi
//! control characters are shown as `<U+202E>` ([`bidi::show`]).

use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::export::{key, ms_text, or_none, outcome_text, tr, utc};
use crate::domain::catalog::{Catalog, Process};
use crate::domain::export::spreadsheet_text;
use crate::domain::export::tsv::cell;
use crate::domain::sheet::BackoffKind;
use crate::domain::sim::core::backoff::Jitter;
use crate::domain::Lang;

/// The column keys, in order (`catalog.export.col.<key>` in `locales/page/catalog.yml`).
pub const COLUMNS: [&str; 25] = [
    "id",
    "process",
    "outcome",
    "attempts",
    "backoff",
    "base",
    "cap",
    "jitter",
    "attempt-timeout",
    "lease",
    "key",
    "business-key",
    "dead-letter",
    "notify",
    "schedule",
    "time-zone",
    "run-timeout",
    "call-timeout",
    "rate",
    "workers",
    "bottleneck",
    "drain",
    "errors",
    "warnings",
    "updated",
];

/// The header cells in `lang`.
pub fn header(lang: Lang) -> Vec<String> {
    COLUMNS
        .iter()
        .map(|k| tr(&format!("catalog.export.col.{k}"), lang))
        .collect()
}

/// One process's cells in `lang` (before spreadsheet guarding and quoting).
pub fn row(p: &Process, lang: Lang) -> Vec<String> {
    let k = key(p, lang);
    let none = || tr("catalog.export.none", lang);
    let b = k.backoff;
    let kind = b.map(|b| match b.kind {
        BackoffKind::Fixed => "fixed",
        BackoffKind::Exponential => "exponential",
        BackoffKind::Polynomial(_) => "polynomial",
    });
    let jitter = b.map(|b| match b.jitter {
        Jitter::None => "none",
        Jitter::Full => "full",
        Jitter::Equal => "equal",
        Jitter::Decorrelated => "decorrelated",
    });
    let word = |group: &str, w: Option<&str>| {
        w.map_or_else(none, |w| tr(&format!("catalog.export.{group}.{w}"), lang))
    };
    let counts = |n: usize| {
        if p.sheet.is_some() {
            n.to_string()
        } else {
            none()
        }
    };
    vec![
        p.id.to_string(),
        p.name.clone(),
        outcome_text(k.outcome, lang),
        k.attempts.map_or_else(none, |a| a.to_string()),
        word("backoff", kind),
        ms_text(b.map(|b| b.base_ms), lang),
        ms_text(b.map(|b| b.cap_ms), lang),
        word("jitter", jitter),
        ms_text(k.attempt_timeout_ms, lang),
        ms_text(k.lease_ms, lang),
        or_none(k.idempotency_key.as_deref(), lang),
        or_none(k.business_key.as_deref(), lang),
        or_none(k.dead_letter.as_deref(), lang),
        or_none(k.notify.as_deref(), lang),
        or_none(k.schedule.as_deref(), lang),
        or_none(k.time_zone.as_deref(), lang),
        ms_text(k.run_timeout_ms, lang),
        ms_text(k.call_timeout_ms, lang),
        or_none(k.capacity[0].as_deref(), lang),
        or_none(k.capacity[1].as_deref(), lang),
        or_none(k.capacity[2].as_deref(), lang),
        or_none(k.capacity[3].as_deref(), lang),
        counts(k.errors),
        counts(k.warnings),
        utc(p.updated_ms, true),
    ]
}

/// The catalog as CSV in `lang`; `bom`: start with a UTF-8 byte order mark (for Excel).
pub fn to_csv(c: &Catalog, lang: Lang, bom: bool) -> String {
    let mut w = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::CRLF)
        .from_writer(Vec::new());
    // Writing to a Vec cannot fail, and every record has the same number of fields.
    let _ = w.write_record(
        header(lang)
            .iter()
            .map(|h| spreadsheet_text(h).into_owned()),
    );
    for p in &c.processes {
        let _ = w.write_record(
            row(p, lang)
                .iter()
                .map(|h| spreadsheet_text(h).into_owned()),
        );
    }
    let body = String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default();
    let body = bidi::show(&body, Shown::Text).into_owned();
    if bom {
        format!("\u{FEFF}{body}")
    } else {
        body
    }
}

/// The catalog as TSV in `lang` (cells quoted by [`cell`] when they hold a tab, a line break
/// or `"`).
pub fn to_tsv(c: &Catalog, lang: Lang) -> String {
    let mut out = String::new();
    let mut line = |cells: Vec<String>| {
        let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    };
    line(header(lang));
    for p in &c.processes {
        line(row(p, lang));
    }
    bidi::show(&out, Shown::Text).into_owned()
}

//! Exports of the job definition sheet, one pure function per format, all built from the
//! same rows ([`fields::rows`]: the source documents' three columns item / what to write / this job's
//! value) and, for Markdown, the live checks ([`check::validate`]).
//!
//! | format | function | shape |
//! |---|---|---|
//! | Markdown | [`to_markdown`] | title, outcome and reasons, table, decision path (list and ```` ```mermaid ````), findings (GitHub / GitLab) |
//! | TSV | [`to_tsv`] | header + one line per row and per [`decision_rows`], `\n` line ends, pastes into Google Sheets / Excel |
//! | CSV | [`to_csv`] | the same lines, RFC 4180, CRLF line ends, optional UTF-8 BOM for Excel |
//! | JSON | [`to_json`] | the versioned [`JobSheet`] model, pretty-printed |
//!
//! The sheet's configuration for a real queue system ([`crate::domain::queues`]) is rendered
//! for the page with everything shown beside it by [`target_panel`].
//!
//! In the browser these run only in the export worker, reached through [`protocol`]: the page's
//! first load does not carry them.
//!
//! User text can hold anything (`|`, tabs, newlines, quotes, backticks, `<script>`); each
//! format keeps it intact to the eye and harmless, as documented per module. Bidi control
//! characters are shown as `<U+202E>` (`\u202E` in JSON): [`crate::domain::bidi`].
//!
//! [`fields::rows`]: crate::domain::sheet::fields::rows
//! [`check::validate`]: crate::domain::sheet::check::validate
//! [`JobSheet`]: crate::domain::sheet::JobSheet

pub mod csv;
pub mod doc_worker;
pub mod json;
pub mod markdown;
pub mod not_read;
pub mod protocol;
pub mod read;
pub mod target_panel;
pub mod target_worker;
pub mod tsv;

pub use self::csv::to_csv;
pub use self::json::to_json;
pub use self::markdown::to_markdown;
pub use self::tsv::{headers, to_tsv};

use crate::domain::lang::Lang;
use crate::domain::sheet::fields::decision_text;
use crate::domain::sheet::JobSheet;
use crate::text::t;

/// The decision as three more rows of the tables (TSV, CSV), after the sheet's rows: item,
/// what to write, value — the outcome (`title (id)`), the reasons and the path's questions
/// and answers (one per line).
pub fn decision_rows(sheet: &JobSheet, lang: Lang) -> [[String; 3]; 3] {
    let d = decision_text(sheet, lang);
    let l = lang.code();
    let row = |key: &str, value: String| {
        [
            t!(format!("export.decision.{key}.item"), locale = l).into_owned(),
            t!(format!("export.decision.{key}.what"), locale = l).into_owned(),
            value,
        ]
    };
    [
        row(
            "outcome",
            format!("{} ({})", d.outcome, sheet.decision.outcome.id()),
        ),
        row("reasons", d.reasons.join("\n")),
        row("path", d.path.join("\n")),
    ]
}

/// Guards a spreadsheet cell against formula injection (OWASP "CSV Injection"): a cell that
/// starts with `=`, `+`, `-` or `@` would be evaluated as a formula by Excel and Google
/// Sheets, so it gets a leading `'` (which both show as plain text). Other cells are returned
/// unchanged. Used by the TSV and CSV exports.
pub fn spreadsheet_text(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@']) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

/// The longest file-name stem [`file_stem`] gives, in characters (names stay well under the
/// 255-byte limit of common file systems, with room for a suffix and an extension).
pub const MAX_STEM_CHARS: usize = 60;

/// The longest file-name stem [`file_stem`] gives, in UTF-8 bytes (60 Japanese letters take
/// 180; a name of 4-byte letters stops at 45).
pub const MAX_STEM_BYTES: usize = 180;

/// `name` made safe as the start of a file name: letters, digits, `-` and `_` kept, anything
/// else (spaces, slashes, dots, quotes, control and bidi control characters) a `-`; at most
/// [`MAX_STEM_CHARS`] characters and [`MAX_STEM_BYTES`] bytes. Empty when nothing but such
/// characters remains.
pub fn file_stem(name: &str) -> String {
    let mut safe = String::new();
    for c in name.trim().chars().take(MAX_STEM_CHARS) {
        let c = if c.is_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '-'
        };
        if safe.len() + c.len_utf8() > MAX_STEM_BYTES {
            break;
        }
        safe.push(c);
    }
    if safe.trim_matches('-').is_empty() {
        String::new()
    } else {
        safe
    }
}

/// A download's file name: [`file_stem`] of `name` (`fallback` when that is empty) followed
/// by `suffix`, which keeps the extension whatever the name's length — e.g.
/// `file_name(code_name, "job-sheet", ".sheet.md")`.
pub fn file_name(name: &str, fallback: &str, suffix: &str) -> String {
    let stem = file_stem(name);
    let stem = if stem.is_empty() { fallback } else { &stem };
    format!("{stem}{suffix}")
}

//! Exports of the job definition sheet, one pure function per format, all built from the
//! same rows ([`fields::rows`]: the source documents' three columns item / what to write / this job's
//! value) and, for Markdown, the live checks ([`check::validate`]).
//!
//! | format | function | shape |
//! |---|---|---|
//! | Markdown | [`to_markdown`] | title, table, ```` ```mermaid ```` decision path, findings (GitHub / GitLab) |
//! | TSV | [`to_tsv`] | header + one line per row, `\n` line ends, pastes into Google Sheets / Excel |
//! | CSV | [`to_csv`] | RFC 4180, CRLF line ends, optional UTF-8 BOM for Excel |
//! | JSON | [`to_json`] | the versioned [`JobSheet`] model, pretty-printed |
//!
//! The sheet's configuration for a real queue system ([`crate::domain::target`]) is rendered
//! for the page with everything shown beside it by [`target_panel`].
//!
//! In the browser these run only in the export worker, reached through [`protocol`]: the page's
//! first load does not carry them.
//!
//! User text can hold anything (`|`, tabs, newlines, quotes, backticks, `<script>`); each
//! format keeps it intact to the eye and harmless, as documented per module.
//!
//! [`fields::rows`]: crate::domain::sheet::fields::rows
//! [`check::validate`]: crate::domain::sheet::check::validate
//! [`JobSheet`]: crate::domain::sheet::JobSheet

pub mod csv;
pub mod json;
pub mod markdown;
pub mod protocol;
pub mod read;
pub mod target_panel;
pub mod target_worker;
pub mod tsv;

pub use self::csv::to_csv;
pub use self::json::to_json;
pub use self::markdown::to_markdown;
pub use self::tsv::{headers, to_tsv};

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

/// `name` made safe as the start of a file name: letters, digits, `-` and `_` kept, anything
/// else (spaces, slashes, dots, quotes) a `-`; at most [`MAX_STEM_CHARS`] characters. Empty
/// when nothing but such characters remains.
pub fn file_stem(name: &str) -> String {
    let safe: String = name
        .trim()
        .chars()
        .take(MAX_STEM_CHARS)
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if safe.trim_matches('-').is_empty() {
        String::new()
    } else {
        safe
    }
}

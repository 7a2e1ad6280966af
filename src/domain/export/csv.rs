//! The sheet as CSV (RFC 4180, written by the `csv` crate): a header line and one line per
//! row of [`rows`], three columns (item, what to write, this job's value), CRLF line ends.
//! Cells with commas, quotes or line breaks are quoted by the writer; a cell starting with
//! `=`, `+`, `-` or `@` gets a leading `'` ([`spreadsheet_text`]) so spreadsheets do not run
//! it as a formula. With `bom` the text starts with a UTF-8 byte order mark
//! (U+FEFF), which Excel needs to read UTF-8 (Japanese) correctly.
//!
//! [`rows`]: crate::domain::sheet::fields::rows

use crate::domain::export::{headers, spreadsheet_text};
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::rows;
use crate::domain::sheet::JobSheet;

/// The sheet as CSV in `lang`; `bom`: start with a UTF-8 byte order mark (for Excel).
pub fn to_csv(sheet: &JobSheet, lang: Lang, bom: bool) -> String {
    let mut w = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let header = headers(lang);
    // Writing to a Vec cannot fail, and every record has three fields.
    let _ = w.write_record(&header);
    for r in rows(sheet, lang) {
        let _ = w.write_record(
            [
                spreadsheet_text(&r.item),
                spreadsheet_text(&r.what),
                spreadsheet_text(&r.value),
            ]
            .iter()
            .map(|c| c.as_bytes()),
        );
    }
    let bytes = w.into_inner().unwrap_or_default();
    let body = String::from_utf8(bytes).unwrap_or_default();
    if bom {
        format!("\u{FEFF}{body}")
    } else {
        body
    }
}

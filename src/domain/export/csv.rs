//! The sheet as CSV (RFC 4180, written by the `csv` crate): a header line, one line per
//! row of [`rows`] and one per row of the decision ([`decision_rows`]: outcome, reasons,
//! path), three columns (item, what to write, this job's value), CRLF line ends. Bidi
//! control characters are shown as `<U+202E>` ([`bidi::show`]).
//! Cells with commas, quotes or line breaks are quoted by the writer; a cell starting with
//! `=`, `+`, `-` or `@` gets a leading `'` ([`spreadsheet_text`]) so spreadsheets do not run
//! it as a formula. With `bom` the text starts with a UTF-8 byte order mark
//! (U+FEFF), which Excel needs to read UTF-8 (Japanese) correctly.
//!
//! [`rows`]: crate::domain::sheet::fields::rows

use crate::domain::bidi::{self, Shown};
use crate::domain::export::{decision_rows, headers, spreadsheet_text};
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
    let decision = decision_rows(sheet, lang);
    let lines = rows(sheet, lang)
        .into_iter()
        .map(|r| [r.item, r.what, r.value])
        .chain(decision);
    for cells in lines {
        let _ = w.write_record(cells.iter().map(|c| spreadsheet_text(c).into_owned()));
    }
    let bytes = w.into_inner().unwrap_or_default();
    let body = bidi::show(&String::from_utf8(bytes).unwrap_or_default(), Shown::Text).into_owned();
    if bom {
        format!("\u{FEFF}{body}")
    } else {
        body
    }
}

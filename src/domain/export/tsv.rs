//! The sheet as tab-separated text with the source documents' three columns (item, what to write, this
//! job's value), to paste into Google Sheets or Excel as cells.
//!
//! Shape: a header line, then one line per row of [`rows`], then the decision's three
//! ([`decision_rows`]: outcome, reasons, path); lines end in `\n`. Bidi control characters
//! are shown as `<U+202E>` ([`bidi::show`]).
//!
//! Cells are written the way both spreadsheets read pasted text (and the way they copy
//! multi-line cells themselves): a cell containing a tab, `\n`, `\r` or `"` is wrapped in
//! `"` with inner `"` doubled, so tabs and newlines stay inside the cell. A cell starting
//! with `=`, `+`, `-` or `@` gets a leading `'` ([`spreadsheet_text`]) so it is not run as a
//! formula. Read back with the `csv` crate (delimiter `\t`, quoting on), every cell is the
//! row's text, with that `'` as the only change.
//!
//! [`rows`]: crate::domain::sheet::fields::rows

use crate::domain::bidi::{self, Shown};
use crate::domain::export::{decision_rows, spreadsheet_text};
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::rows;
use crate::domain::sheet::JobSheet;
use crate::text::t;

/// The three column headers in `lang`: item, what to write, this job's value
/// (`項目` / `記入内容` / `このジョブの値`). Its texts are in `locales/worker/` (the page never
/// writes a table with headers).
pub fn headers(lang: Lang) -> [String; 3] {
    ["item", "what", "value"]
        .map(|k| t!(format!("export.header.{k}"), locale = lang.code()).into_owned())
}

/// Quotes one TSV cell when it holds a tab, newline, carriage return or double quote.
pub fn cell(text: &str) -> String {
    let text = spreadsheet_text(text);
    if text.contains(['\t', '\n', '\r', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into_owned()
    }
}

/// The sheet as TSV in `lang` (see the module docs for the quoting rules).
pub fn to_tsv(sheet: &JobSheet, lang: Lang) -> String {
    let mut out = String::new();
    let mut line = |cells: [&str; 3]| {
        let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    };
    let [item, what, value] = headers(lang);
    line([&item, &what, &value]);
    for r in rows(sheet, lang) {
        line([&r.item, &r.what, &r.value]);
    }
    for [item, what, value] in decision_rows(sheet, lang) {
        line([&item, &what, &value]);
    }
    bidi::show(&out, Shown::Text).into_owned()
}

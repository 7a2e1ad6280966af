//! The source documents' worked example (備品予約システムの予約確定メール), as the sheet
//! screen's "load the example" loads it: the saved-sheet form of
//! `static/examples/reservation-mail.json` and `reservation-mail.en.json` (what importing those
//! short files gives, every section filled), read with the plain model reader. The page reads
//! it at once, without the importer ([`import_json`], which lives in the export worker); the
//! test `tests/it/sheet_example.rs` keeps the saved files equal to the imported short ones.
//!
//! [`import_json`]: crate::domain::sheet::import::import_json

use crate::domain::lang::Lang;
use crate::domain::sheet::import::{check_sheet, ImportError};
use crate::domain::sheet::JobSheet;

/// The Japanese example, saved form (`static/examples/reservation-mail.saved.json`).
pub const EXAMPLE_JSON: &str = include_str!("../../../static/examples/reservation-mail.saved.json");

/// The English example, saved form (`static/examples/reservation-mail.saved.en.json`).
pub const EXAMPLE_JSON_EN: &str =
    include_str!("../../../static/examples/reservation-mail.saved.en.json");

/// The example in `lang` (Japanese for [`Lang::Ja`], else English), read and checked
/// ([`check_sheet`]).
///
/// # Errors
/// [`ImportError::InvalidJson`] when the text is not a saved sheet, or the checks' first
/// problem (neither for the shipped files: the test reads both).
pub fn example(lang: Lang) -> Result<JobSheet, ImportError> {
    let text = if lang == Lang::Ja {
        EXAMPLE_JSON
    } else {
        EXAMPLE_JSON_EN
    };
    let sheet: JobSheet = serde_json::from_str(text).map_err(|e| ImportError::InvalidJson {
        line: e.line(),
        column: e.column().max(1),
        message: e.to_string(),
    })?;
    check_sheet(&sheet)?;
    Ok(sheet)
}

//! The sheet as JSON: the versioned [`JobSheet`] model (`schema_version` first), pretty-printed
//! with a final newline. [`import_json`] reads it back to an equal sheet.
//!
//! [`import_json`]: crate::domain::sheet::import::import_json

use crate::domain::sheet::JobSheet;

/// The sheet as pretty-printed JSON ending in `\n`.
pub fn to_json(sheet: &JobSheet) -> String {
    // The model has only strings, numbers, bools, lists and structs: serialising cannot fail.
    let mut s = serde_json::to_string_pretty(sheet).unwrap_or_default();
    s.push('\n');
    s
}

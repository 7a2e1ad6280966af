//! The sheet as JSON: the versioned [`JobSheet`] model (`schema_version` first), pretty-printed
//! with a final newline. [`import_json`] reads it back to an equal sheet.
//!
//! [`import_json`]: crate::domain::sheet::import::import_json

use crate::domain::bidi::{self, Shown};
use crate::domain::sheet::JobSheet;

/// The sheet as pretty-printed JSON ending in `\n`; bidi controls in its strings written as
/// `\u202E` escapes ([`bidi::show`]), which read back as the same characters.
pub fn to_json(sheet: &JobSheet) -> String {
    // The model has only strings, numbers, bools, lists and structs: serialising cannot fail.
    let mut s = crate::domain::json::pretty(sheet);
    s.push('\n');
    bidi::show(&s, Shown::Json).into_owned()
}

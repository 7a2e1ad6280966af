//! Shared inputs of the sheet tests: the shipped example files.

use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::Lang;

/// `static/examples/reservation-mail.json` (the source documents' worked example, Japanese).
pub const EXAMPLE_JA: &str = include_str!("../../static/examples/reservation-mail.json");

/// `static/examples/reservation-mail.en.json` (the same in English).
pub const EXAMPLE_EN: &str = include_str!("../../static/examples/reservation-mail.en.json");

/// The example file of `lang`, imported (and so pre-filled) in `lang`.
pub fn example(lang: Lang) -> JobSheet {
    let text = match lang {
        Lang::Ja => EXAMPLE_JA,
        Lang::En => EXAMPLE_EN,
    };
    match import_json(text, lang) {
        Ok(sheet) => sheet,
        Err(e) => panic!("the {lang:?} example imports: {e}"),
    }
}

/// The example as a JSON value, to mutate in error cases.
pub fn example_value() -> serde_json::Value {
    serde_json::from_str(EXAMPLE_JA).expect("the example is JSON")
}

/// `text` imported in `lang`.
pub fn example_in(text: &str, lang: Lang) -> JobSheet {
    match import_json(text, lang) {
        Ok(sheet) => sheet,
        Err(e) => panic!("imports in {lang:?}: {e}"),
    }
}

//! Property: no file makes the sheet import panic (the page's "Import sheet" and a sheet file
//! brought into the catalog, both read by the export worker: [`ReadRequest::run`]), a refused
//! file is an error in both languages naming the field a known edit broke, the reply crosses
//! to the page unchanged, and whatever is read survives the sheet's own export again. Four
//! families, 10 600 files by default:
//!
//! - any text (JSON's characters mostly) — 2 000;
//! - the committed example sheets with characters changed, inserted, deleted or cut, and with
//!   bytes changed (invalid UTF-8 read as the browser reads it) — 3 000;
//! - valid sheets (the examples, and generated ones in either language) with one structural
//!   edit: a value of another type or at an edge (huge, negative, float, 12 000 characters,
//!   400 levels deep), a field removed, added, written twice, a list item repeated — 5 000;
//! - generated sheets, which must read back identical — 600.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::fuzz_support::{
    apply_bytes, apply_edits, byte_edits, cases, edit_from, json_ish_text, lossy, mutate, mutation,
    names, Mutated, Mutation, JSON_CHARS,
};
use crate::sheet_roundtrip::sheet;
use modality_advisor::domain::catalog::ProcessId;
use modality_advisor::domain::export::read::{
    result_to_json, ReadAs, ReadDone, ReadRequest, ReadResult,
};
use modality_advisor::domain::export::to_json;
use modality_advisor::domain::sheet::import::{import_json, ImportError};
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use serde_json::Value;
use std::sync::LazyLock;

/// The committed example sheets (the README's, the page's examples, saved and short forms).
pub static EXAMPLES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let root = env!("CARGO_MANIFEST_DIR");
    [
        "examples/sheets/nightly-report.sheet.json",
        "static/examples/reservation-mail.json",
        "static/examples/reservation-mail.en.json",
        "static/examples/reservation-mail.saved.json",
        "static/examples/reservation-mail.saved.en.json",
    ]
    .iter()
    .map(|p| std::fs::read_to_string(format!("{root}/{p}")).expect("example sheet"))
    .collect()
});

/// The path an error names (`schema_version` for a version error; `None`: a syntax error,
/// which names its line and column instead, or a text that is no sheet at all).
pub fn import_path(e: &ImportError) -> Option<&str> {
    match e {
        ImportError::InvalidJson { .. } | ImportError::NotASheet { .. } => None,
        ImportError::SchemaVersion { .. } => Some("schema_version"),
        ImportError::Field { path, .. }
        | ImportError::OutOfRange { path, .. }
        | ImportError::Inconsistent { path, .. } => Some(path),
    }
}

/// A refusal is worded in both languages, names a field (or a line and column), and, when the
/// edit made one field wrong, names that field.
pub fn refused_well(e: &ImportError, edit: Option<&Mutated>) -> Result<(), TestCaseError> {
    let (en, ja) = (e.message(Lang::En), e.message(Lang::Ja));
    prop_assert!(!en.trim().is_empty() && !ja.trim().is_empty(), "{:?}", e);
    if let Some(path) = import_path(e) {
        prop_assert!(!path.is_empty() && path != ".", "no field named: {:?}", e);
        prop_assert!(en.contains(path) && ja.contains(path), "{} / {}", en, ja);
    }
    let Some(edit) = edit else { return Ok(()) };
    if let Some(wrong) = &edit.wrong_type_at {
        if let Some(path) = import_path(e) {
            prop_assert!(names(path, wrong), "{} made wrong, {:?} told", wrong, e);
        }
    }
    if let Some(unknown) = &edit.unknown_at {
        if let Some(path) = import_path(e) {
            // (A tagged value such as `{"days": 30}` is named as a whole: it takes one key.)
            prop_assert!(names(path, unknown), "{} added, {:?} told", unknown, e);
        }
    }
    Ok(())
}

/// The reply the worker sends reads back on the page as the same result.
pub fn crosses(result: &ReadResult) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        ReadDone::from_reply(&result_to_json(result)),
        Ok(result.clone())
    );
    Ok(())
}

/// The text read as a sheet ("Import sheet") and as a file brought into the catalog: each is
/// read or refused well, and a sheet read survives its export.
fn read_or_refused(text: &str, lang: Lang, edit: Option<&Mutated>) -> Result<(), TestCaseError> {
    let ask = |read| ReadRequest {
        id: 0,
        lang,
        text: text.to_owned(),
        read,
    };
    let as_sheet = ask(ReadAs::Sheet).run();
    crosses(&as_sheet)?;
    match &as_sheet {
        Ok(ReadDone::Sheet(s)) => {
            let again = import_json(&to_json(s), lang);
            prop_assert_eq!(again.as_ref(), Ok(&**s));
        }
        Ok(other) => prop_assert!(false, "a sheet request read {:?}", other),
        Err(e) => refused_well(e, edit)?,
    }
    let into_catalog = ask(ReadAs::CatalogOrSheet {
        catalog_name: "System".into(),
        id: ProcessId("imported".into()),
        now_ms: 1_700_000_000_000,
    })
    .run();
    crosses(&into_catalog)?;
    if let Err(e) = &into_catalog {
        refused_well(e, None)?;
    }
    Ok(())
}

/// Valid sheet documents to edit: the examples, and a generated sheet.
fn valid_doc() -> impl Strategy<Value = (Value, Lang)> {
    let example = any::<prop::sample::Index>().prop_map(|i| {
        let text = &EXAMPLES[i.index(EXAMPLES.len())];
        (serde_json::from_str(text).expect("example JSON"), Lang::En)
    });
    let generated = (sheet(), any::<bool>()).prop_map(|(s, ja): (JobSheet, bool)| {
        let lang = if ja { Lang::Ja } else { Lang::En };
        (
            serde_json::from_str(&to_json(&s)).expect("sheet JSON"),
            lang,
        )
    });
    prop_oneof![1 => example, 2 => generated]
}

proptest! {
    #![proptest_config(cases(2_000))]

    #[test]
    fn fuzz_sheet_any_text_is_read_or_refused(text in json_ish_text(), ja in any::<bool>()) {
        read_or_refused(&text, if ja { Lang::Ja } else { Lang::En }, None)?;
    }
}

proptest! {
    #![proptest_config(cases(1_500))]

    #[test]
    fn fuzz_sheet_an_edited_example_is_read_or_refused(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from(JSON_CHARS), 1..4),
    ) {
        let text = apply_edits(&EXAMPLES[which.index(EXAMPLES.len())], &edits);
        read_or_refused(&text, Lang::Ja, None)?;
    }

    #[test]
    fn fuzz_sheet_an_example_with_edited_bytes_is_read_or_refused(
        which in any::<prop::sample::Index>(),
        edits in byte_edits(),
    ) {
        let mut bytes = EXAMPLES[which.index(EXAMPLES.len())].clone().into_bytes();
        apply_bytes(&mut bytes, &edits);
        read_or_refused(&lossy(&bytes), Lang::En, None)?;
    }
}

proptest! {
    #![proptest_config(cases(5_000))]

    #[test]
    fn fuzz_sheet_a_structurally_edited_sheet_is_read_or_refused_naming_the_field(
        (doc, lang) in valid_doc(),
        m in mutation(),
    ) {
        let edited = mutate(&doc, &m);
        read_or_refused(&edited.text, lang, Some(&edited))?;
        if let Mutation::Replace(..) = m {
            // A value of another type is never taken as the field's value.
            if edited.wrong_type_at.is_some() {
                prop_assert!(import_json(&edited.text, lang).is_err(), "{}", edited.text);
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(600))]

    #[test]
    fn fuzz_sheet_a_generated_sheet_reads_back_identical(s in sheet(), ja in any::<bool>()) {
        let lang = if ja { Lang::Ja } else { Lang::En };
        let text = to_json(&s);
        prop_assert_eq!(import_json(&text, lang), Ok(s.clone()));
        read_or_refused(&text, lang, None)?;
    }
}

/// Found by fuzzing: a field with an empty name (`{"": 1}`) was refused with an empty path.
#[test]
fn a_field_with_an_empty_name_is_named_as_written() {
    let example: Value = serde_json::from_str(&EXAMPLES[0]).expect("example JSON");
    for (at, named) in [(None, "\"\""), (Some("process"), "process.\"\"")] {
        let mut v = example.clone();
        match at {
            Some(k) => v[k][""] = Value::from(1),
            None => v[""] = Value::from(1),
        }
        let e = import_json(&v.to_string(), Lang::En).expect_err("unknown field");
        assert_eq!(import_path(&e), Some(named), "{e:?}");
        for lang in [Lang::En, Lang::Ja] {
            assert!(e.message(lang).contains(named), "{}", e.message(lang));
        }
    }
}

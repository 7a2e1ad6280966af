//! Property: nothing local storage may hold makes the page's readers panic — the catalog as
//! stored ([`Stored::from_json`]), the single-process session of older builds
//! ([`Session::from_json`], upgraded by [`from_saved_session`]) and the remembered language
//! ([`Lang::parse`]). These readers refuse by design without a message (storage the build
//! cannot read is set aside whole, never half-applied, and the page starts fresh), so the
//! properties are: no panic, what is read writes back identical, and a valid document with one
//! edit is either read as a document that checks out or refused whole. Four families per
//! reader, 10 400 documents each by default:
//!
//! - any text (JSON's characters mostly) — 2 000;
//! - real documents with characters and bytes changed — 3 000;
//! - real documents with one structural edit ([`crate::fuzz_support::mutation`]) — 5 000;
//! - generated documents, which must read back identical — 400.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::catalog_roundtrip::{catalog, process};
use crate::catalog_support::example_catalog;
use crate::fuzz_support::{
    apply_bytes, apply_edits, byte_edits, cases, edit_from, json_ish_text, lossy, mutate, mutation,
    JSON_CHARS,
};
use modality_advisor::domain::catalog::check::check_catalog;
use modality_advisor::domain::catalog::migrate::from_saved_session;
use modality_advisor::domain::catalog::sync::Stored;
use modality_advisor::domain::catalog::{Process, ProcessId};
use modality_advisor::domain::session::Session;
use modality_advisor::domain::sheet::import::check_sheet;
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use serde_json::Value;
use std::sync::LazyLock;

/// A process as the session of a build before the catalog saved it.
fn session_of(p: &Process, on_sheet: bool) -> Session {
    let mut s = Session::new(&p.answers(), p.sheet.as_ref(), on_sheet);
    s.sim = p.sim.clone();
    s
}

/// Real stored documents: the example catalog as stored, and each of its processes as a saved
/// session.
static STORED: LazyLock<Vec<String>> = LazyLock::new(|| {
    let c = example_catalog();
    let mut docs = vec![Stored::initial(c.clone()).to_json()];
    docs.extend(c.processes.iter().map(|p| session_of(p, true).to_json()));
    docs
});

/// Whatever storage holds: read as the catalog, as a saved session (and upgraded), as the
/// language. What is read checks out and writes back identical.
fn read_or_dropped(text: &str) -> Result<(), TestCaseError> {
    if let Some(stored) = Stored::from_json(text) {
        prop_assert!(check_catalog(&stored.catalog).is_ok());
        let back = Stored::from_json(&stored.to_json());
        prop_assert_eq!(back.as_ref(), Some(&stored));
    }
    match Session::from_json(text) {
        Some(s) => {
            if let Some(sheet) = &s.sheet {
                prop_assert!(check_sheet(sheet).is_ok());
            }
            let back = Session::from_json(&s.to_json());
            prop_assert_eq!(back.as_ref(), Some(&s));
            let _ = s.answers();
            if let Some(c) = from_saved_session(text, ProcessId("p1".into()), "Process", 1) {
                prop_assert!(check_catalog(&c).is_ok());
            }
        }
        None => {
            let upgraded = from_saved_session(text, ProcessId("p1".into()), "Process", 1);
            prop_assert!(upgraded.is_none());
        }
    }
    if let Err(e) = Lang::parse(text) {
        prop_assert!(!e.to_string().is_empty());
    }
    Ok(())
}

fn valid_doc() -> impl Strategy<Value = Value> {
    let real = any::<prop::sample::Index>()
        .prop_map(|i| serde_json::from_str(&STORED[i.index(STORED.len())]).expect("JSON"));
    let stored = catalog().prop_map(|c| serde_json::from_str(&Stored::initial(c).to_json()));
    let session = (process(), any::<bool>())
        .prop_map(|(p, on)| serde_json::from_str(&session_of(&p, on).to_json()));
    prop_oneof![
        1 => real,
        1 => stored.prop_map(|v| v.expect("JSON")),
        1 => session.prop_map(|v| v.expect("JSON")),
    ]
}

proptest! {
    #![proptest_config(cases(2_000))]

    #[test]
    fn fuzz_storage_any_text_is_read_or_dropped(text in json_ish_text()) {
        read_or_dropped(&text)?;
    }
}

proptest! {
    #![proptest_config(cases(1_500))]

    #[test]
    fn fuzz_storage_an_edited_document_is_read_or_dropped(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from(JSON_CHARS), 1..4),
    ) {
        read_or_dropped(&apply_edits(&STORED[which.index(STORED.len())], &edits))?;
    }

    #[test]
    fn fuzz_storage_a_document_with_edited_bytes_is_read_or_dropped(
        which in any::<prop::sample::Index>(),
        edits in byte_edits(),
    ) {
        let mut bytes = STORED[which.index(STORED.len())].clone().into_bytes();
        apply_bytes(&mut bytes, &edits);
        read_or_dropped(&lossy(&bytes))?;
    }
}

proptest! {
    #![proptest_config(cases(5_000))]

    #[test]
    fn fuzz_storage_a_structurally_edited_document_is_read_or_dropped(
        doc in valid_doc(),
        m in mutation(),
    ) {
        let edited = mutate(&doc, &m);
        read_or_dropped(&edited.text)?;
        // A value of another type never passes as the field's value.
        // (The simulator's choices are lenient: a bad part takes its default.)
        let lenient = |p: &str| p.split(['.', '[']).any(|s| s == "sim");
        if edited.wrong_type_at.as_deref().is_some_and(|p| !lenient(p)) {
            prop_assert!(Stored::from_json(&edited.text).is_none());
            prop_assert!(Session::from_json(&edited.text).is_none(), "{}", edited.text);
        }
    }
}

proptest! {
    #![proptest_config(cases(200))]

    #[test]
    fn fuzz_storage_a_stored_catalog_reads_back_identical(c in catalog()) {
        let stored = Stored::initial(c);
        prop_assert_eq!(Stored::from_json(&stored.to_json()), Some(stored.clone()));
        read_or_dropped(&stored.to_json())?;
    }

    #[test]
    fn fuzz_storage_a_saved_session_reads_back_identical(p in process(), on in any::<bool>()) {
        let s = session_of(&p, on);
        prop_assert_eq!(Session::from_json(&s.to_json()), Some(s.clone()));
        read_or_dropped(&s.to_json())?;
    }
}

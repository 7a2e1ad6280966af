//! Property: no file makes the catalog import panic (the catalog screen's "Import", read by
//! the export worker: [`ReadRequest::run`] with [`ReadAs::CatalogOrSheet`]), a refused file is
//! an error in both languages naming the field a known edit broke, the reply crosses to the
//! page unchanged, and a catalog read survives its export again. Four families, 10 400 files
//! by default:
//!
//! - any text (JSON's characters mostly, behind a catalog's opening) — 2 000;
//! - the committed example catalog and the README's with characters and bytes changed — 3 000;
//! - valid catalogs (the examples, generated ones) with one structural edit (see
//!   [`crate::fuzz_support::mutation`]) — 5 000;
//! - generated catalogs, which must read back identical — 400.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::catalog_roundtrip::catalog;
use crate::catalog_support::example_catalog;
use crate::fuzz_sheet::{crosses, refused_well};
use crate::fuzz_support::{
    apply_bytes, apply_edits, byte_edits, cases, edge_numbers, edit_from, every_replacement,
    json_ish_text, lossy, mutate, mutation, Mutated, JSON_CHARS,
};
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::ProcessId;
use modality_advisor::domain::export::read::{ReadAs, ReadDone, ReadRequest};
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::Value;
use std::sync::LazyLock;

/// The committed example catalog and the example the tests build (as its export writes it).
static EXAMPLES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let root = env!("CARGO_MANIFEST_DIR");
    let file = format!("{root}/static/examples/reservation-system.catalog.json");
    vec![
        std::fs::read_to_string(file).expect("example catalog"),
        example_catalog().to_json(),
    ]
});

/// The text brought into the catalog: read or refused well; a catalog read survives its
/// export.
fn read_or_refused(text: &str, edit: Option<&Mutated>) -> Result<(), TestCaseError> {
    let read = ReadRequest {
        id: 0,
        lang: Lang::Ja,
        text: text.to_owned(),
        read: ReadAs::CatalogOrSheet {
            catalog_name: "System".into(),
            id: ProcessId("imported".into()),
            now_ms: 1_700_000_000_000,
        },
    }
    .run();
    crosses(&read)?;
    match &read {
        Ok(ReadDone::Catalog {
            catalog,
            sheet: false,
        }) => {
            let again = read_catalog(&catalog.to_json());
            prop_assert_eq!(again.as_ref(), Ok(catalog));
        }
        Ok(ReadDone::Catalog { sheet: true, .. }) => {}
        Ok(other) => prop_assert!(false, "a catalog request read {:?}", other),
        Err(e) => refused_well(e, edit)?,
    }
    Ok(())
}

fn valid_doc() -> impl Strategy<Value = Value> {
    let example = any::<prop::sample::Index>().prop_map(|i| {
        serde_json::from_str(&EXAMPLES[i.index(EXAMPLES.len())]).expect("example JSON")
    });
    let generated =
        catalog().prop_map(|c| serde_json::from_str(&c.to_json()).expect("catalog JSON"));
    prop_oneof![2 => example, 1 => generated]
}

proptest! {
    #![proptest_config(cases(2_000))]

    #[test]
    fn fuzz_catalog_any_text_is_read_or_refused(text in json_ish_text(), head in any::<bool>()) {
        let text = if head { format!("{{\"catalog_version\":1,{text}") } else { text };
        read_or_refused(&text, None)?;
    }
}

proptest! {
    #![proptest_config(cases(1_500))]

    #[test]
    fn fuzz_catalog_an_edited_example_is_read_or_refused(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from(JSON_CHARS), 1..4),
    ) {
        read_or_refused(&apply_edits(&EXAMPLES[which.index(EXAMPLES.len())], &edits), None)?;
    }

    #[test]
    fn fuzz_catalog_an_example_with_edited_bytes_is_read_or_refused(
        which in any::<prop::sample::Index>(),
        edits in byte_edits(),
    ) {
        let mut bytes = EXAMPLES[which.index(EXAMPLES.len())].clone().into_bytes();
        apply_bytes(&mut bytes, &edits);
        read_or_refused(&lossy(&bytes), None)?;
    }
}

proptest! {
    #![proptest_config(cases(5_000))]

    #[test]
    fn fuzz_catalog_a_structurally_edited_catalog_is_read_or_refused_naming_the_field(
        doc in valid_doc(),
        m in mutation(),
    ) {
        let edited = mutate(&doc, &m);
        read_or_refused(&edited.text, Some(&edited))?;
    }
}

proptest! {
    #![proptest_config(cases(400))]

    #[test]
    fn fuzz_catalog_a_generated_catalog_reads_back_identical(c in catalog()) {
        let text = c.to_json();
        prop_assert_eq!(read_catalog(&text), Ok(c));
        read_or_refused(&text, None)?;
    }
}

/// Every number of the example catalogs (and of a few generated ones) at each edge value —
/// 0, −1, 1.5, 2⁶⁴ − 1, 2⁶⁴, 10³⁰⁰ … — is read or refused well: no arithmetic overflows.
#[test]
fn fuzz_catalog_every_number_at_every_edge_value_is_read_or_refused() {
    let values = edge_numbers();
    let mut runs = 0;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let generated: Vec<String> = (0..generated_count())
        .filter_map(|_| catalog().new_tree(&mut runner).ok())
        .map(|t| t.current().to_json())
        .collect();
    for text in EXAMPLES.iter().chain(&generated) {
        let doc: Value = serde_json::from_str(text).expect("example JSON");
        for edited in every_replacement(&doc, &values) {
            runs += 1;
            if let Err(e) = read_or_refused(&edited.text, Some(&edited)) {
                panic!("{e}\n{}", edited.text);
            }
        }
    }
    assert!(runs > 1_000, "{runs} edits");
}

fn generated_count() -> usize {
    std::env::var("SWEEP_GENERATED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

/// Found by the structural family (a CI run, 2026-12-03): a `timing` replaced by a list
/// `[1, 1]` was read as a timing (serde's derive takes a struct as a list too) and the file
/// refused for the answer it then contradicted, naming the answer. A timing is read from an
/// object only, and the error names it.
#[test]
fn fuzz_catalog_a_timing_written_as_a_list_is_refused_naming_it() {
    let mut doc: Value = serde_json::from_str(&EXAMPLES[0]).expect("example JSON");
    let (i, j) = doc["processes"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .find_map(|(i, p)| {
            p["sheet"]["decision"]["answers"]
                .as_array()?
                .iter()
                .position(|a| a.get("timing").is_some())
                .map(|j| (i, j))
        })
        .expect("an example answer with a timing");
    doc["processes"][i]["sheet"]["decision"]["answers"][j]["timing"] = serde_json::json!([1, 1]);
    let err = read_catalog(&doc.to_string()).expect_err("a list is not a timing");
    let path = format!("processes[{i}].sheet.decision.answers[{j}].timing");
    for lang in [Lang::En, Lang::Ja] {
        assert!(err.message(lang).contains(&path), "{}", err.message(lang));
    }
}

//! Property: no file makes the simulator's config reader panic (`simulate --config FILE.json`,
//! and what "Download config JSON" saves: [`parse_file`], then the ranges, [`load_config`]),
//! every refusal is a list of errors in both languages each naming a field, a value of another
//! type is refused naming the field it was put in, and a file read survives being written
//! again. Four families, 10 400 files by default:
//!
//! - any text (JSON's characters mostly) — 2 000;
//! - the committed example configs with characters and bytes changed — 3 000;
//! - valid configs (the examples, and "Your settings" of generated sheets with knobs moved,
//!   as the page downloads them) with one structural edit — 5 000;
//! - "Your settings" of generated sheets, which must read back identical — 400.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::fuzz_support::{
    apply_bytes, apply_edits, byte_edits, cases, edit_from, json_ish_text, lossy, mutate, mutation,
    names, Mutated, JSON_CHARS,
};
use crate::sheet_roundtrip::sheet;
use modality_advisor::domain::sim::setup::error::ConfigError;
use modality_advisor::domain::sim::setup::knobs::{CustomRun, Knob};
use modality_advisor::domain::sim::{load_config, parse_file, SimConfigFile};
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use serde_json::Value;
use std::sync::LazyLock;

/// The committed example configs.
static EXAMPLES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let root = env!("CARGO_MANIFEST_DIR");
    [
        "examples/sim-config.json",
        "static/examples/flaky-handler.config.json",
        "static/examples/queue-retry.config.json",
    ]
    .iter()
    .map(|p| std::fs::read_to_string(format!("{root}/{p}")).expect("example config"))
    .collect()
});

/// Each error is worded in both languages and names a field; when the edit made one field of
/// another type, the parse error names it.
fn refused_well(errors: &[ConfigError], edit: Option<&Mutated>) -> Result<(), TestCaseError> {
    prop_assert!(!errors.is_empty());
    for e in errors {
        let (en, ja) = (e.message(Lang::En), e.message(Lang::Ja));
        prop_assert!(!en.trim().is_empty() && !ja.trim().is_empty(), "{:?}", e);
        prop_assert!(!e.field().is_empty() && e.field() != ".", "{:?}", e);
    }
    let wrong = edit.and_then(|m| m.wrong_type_at.as_deref());
    if let (Some(wrong), [ConfigError::Parse { field, .. }]) = (wrong, errors) {
        // A syntax error (deep nesting) names the whole document.
        if !field.starts_with("config") {
            prop_assert!(
                names(field, wrong),
                "{} made wrong, {:?} told",
                wrong,
                errors
            );
        }
    }
    Ok(())
}

/// The text read: a file read writes out and reads back identical; a refusal is well told.
fn read_or_refused(text: &str, edit: Option<&Mutated>) -> Result<(), TestCaseError> {
    match parse_file(text) {
        Ok(file) => {
            let again = serde_json::to_string_pretty(&file).unwrap_or_default();
            let back = parse_file(&again);
            prop_assert_eq!(back.as_ref(), Ok(&file));
            if let Err(errors) = load_config(text) {
                refused_well(&errors, None)?;
            }
        }
        Err(errors) => {
            prop_assert!(load_config(text).is_err());
            refused_well(&errors, edit)?;
        }
    }
    Ok(())
}

/// "Your settings" of a generated sheet with up to three knobs moved inside their ranges, as
/// the page downloads it.
fn settings() -> impl Strategy<Value = SimConfigFile> {
    (
        sheet(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u64>()), 0..3),
        any::<u64>(),
    )
        .prop_map(|(s, moves, seed)| {
            let mut run = CustomRun::from_sheet(&s);
            for (k, v) in moves {
                let knob = Knob::ALL[k.index(Knob::ALL.len())];
                if let Some((_, min, max)) = knob.range() {
                    run = run.with(knob, min + v % (max - min + 1).max(1));
                }
            }
            run.to_file(seed)
        })
}

fn valid_doc() -> impl Strategy<Value = Value> {
    let example = any::<prop::sample::Index>().prop_map(|i| {
        serde_json::from_str(&EXAMPLES[i.index(EXAMPLES.len())]).expect("example JSON")
    });
    let generated = settings().prop_map(|f| serde_json::to_value(f).expect("config JSON"));
    prop_oneof![2 => example, 1 => generated]
}

proptest! {
    #![proptest_config(cases(2_000))]

    #[test]
    fn fuzz_sim_config_any_text_is_read_or_refused(text in json_ish_text()) {
        read_or_refused(&text, None)?;
    }
}

proptest! {
    #![proptest_config(cases(1_500))]

    #[test]
    fn fuzz_sim_config_an_edited_example_is_read_or_refused(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from(JSON_CHARS), 1..4),
    ) {
        read_or_refused(&apply_edits(&EXAMPLES[which.index(EXAMPLES.len())], &edits), None)?;
    }

    #[test]
    fn fuzz_sim_config_an_example_with_edited_bytes_is_read_or_refused(
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
    fn fuzz_sim_config_a_structurally_edited_config_is_read_or_refused_naming_the_field(
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
    fn fuzz_sim_config_your_settings_read_back_identical(file in settings()) {
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        prop_assert_eq!(parse_file(&text), Ok(file));
        read_or_refused(&text, None)?;
    }
}

/// Found by fuzzing: a field with an empty name (`{"": 1}`) was refused with an empty path.
#[test]
fn a_field_with_an_empty_name_is_named_as_written() {
    for (text, named) in [
        (r#"{"": 1}"#, "\"\""),
        (r#"{"workers": {"": 1}}"#, "workers.\"\""),
    ] {
        let errors = parse_file(text).expect_err("unknown field");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field(), named, "{errors:?}");
        for lang in [Lang::En, Lang::Ja] {
            assert!(
                errors[0].message(lang).contains(named),
                "{}",
                errors[0].message(lang)
            );
        }
    }
}

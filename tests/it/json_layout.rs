//! `domain::json::to_text` (one writer per model type for both layouts) writes the same bytes
//! as serde_json's `to_string` and `to_string_pretty`: on the example catalog, on a share of
//! it, and on generated JSON values with every kind of node, empty containers, escapes and
//! nesting included.

use crate::catalog_support::example_catalog;
use crate::fuzz_support::cases;
use modality_advisor::domain::json::{compact, pretty, to_text, Layout};
use proptest::prelude::*;
use serde_json::Value;

#[test]
fn the_example_catalog_is_written_as_serde_json_writes_it() {
    let catalog = example_catalog();
    assert_eq!(compact(&catalog), serde_json::to_string(&catalog).unwrap());
    assert_eq!(
        pretty(&catalog),
        serde_json::to_string_pretty(&catalog).unwrap()
    );
    for p in &catalog.processes {
        assert_eq!(
            to_text(p, Layout::Compact),
            serde_json::to_string(p).unwrap()
        );
        assert_eq!(
            to_text(p, Layout::Pretty),
            serde_json::to_string_pretty(p).unwrap()
        );
        if let Some(sheet) = &p.sheet {
            assert_eq!(pretty(sheet), serde_json::to_string_pretty(sheet).unwrap());
        }
    }
    // The pretty text has the indents a person reads: not the compact one.
    assert!(pretty(&catalog).contains("\n  \"processes\": [\n    {"));
    assert!(!compact(&catalog).contains('\n'));
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-z\"\\\\\u{0}-\u{1f}長\u{202e}]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\"]{0,4}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(cases(2_000))]

    #[test]
    fn every_value_is_written_as_serde_json_writes_it(v in value()) {
        prop_assert_eq!(compact(&v), serde_json::to_string(&v).unwrap());
        prop_assert_eq!(pretty(&v), serde_json::to_string_pretty(&v).unwrap());
    }
}

//! Bad catalog files: each is refused with a message naming the field and what is allowed
//! (in English and Japanese), nothing is built, nothing panics. The files are the example
//! catalog with one thing broken.

use crate::catalog_support::example_text;
use modality_advisor::domain::catalog::check::{check_catalog, read_catalog};
use modality_advisor::domain::catalog::{MAX_FILE_BYTES, MAX_PROCESSES};
use modality_advisor::domain::number::group_thousands;
use modality_advisor::domain::sheet::import::ImportError;
use modality_advisor::domain::Lang;
use serde_json::{json, Value};

fn example() -> Value {
    serde_json::from_str(&example_text()).expect("the example is JSON")
}

/// `text` is refused, the English message holding every one of `needles`.
fn refused(text: &str, needles: &[&str]) {
    let e = match read_catalog(text) {
        Ok(_) => panic!("accepted a bad file; expected {needles:?}"),
        Err(e) => e,
    };
    let en = e.message(Lang::En);
    for n in needles {
        assert!(en.contains(n), "{en:?} lacks {n:?}");
    }
    // The Japanese message names the same field.
    let ja = e.message(Lang::Ja);
    assert!(ja.contains(needles[0]), "{ja:?} lacks {:?}", needles[0]);
}

/// The example with `edit` applied, refused naming `needles`.
fn broken(edit: impl FnOnce(&mut Value), needles: &[&str]) {
    let mut v = example();
    edit(&mut v);
    refused(&v.to_string(), needles);
}

#[test]
fn the_example_itself_is_accepted_with_or_without_a_bom() {
    assert!(read_catalog(&example_text()).is_ok());
    assert!(read_catalog(&format!("\u{feff}{}", example_text())).is_ok());
}

#[test]
fn unknown_or_missing_version() {
    broken(
        |v| v["catalog_version"] = json!(2),
        &["catalog_version", "2", "allowed: 1"],
    );
    broken(
        |v| v["catalog_version"] = json!("1"),
        &["catalog_version", "\"1\"", "allowed: 1"],
    );
    broken(
        |v| {
            v.as_object_mut().map(|o| o.remove("catalog_version"));
        },
        &["catalog_version", "missing", "allowed: 1"],
    );
    // Not an object at all: said as what it is (it was "catalog_version: missing").
    let e = read_catalog("[]").expect_err("a list is no catalog");
    assert!(
        e.message(Lang::En)
            .starts_with("the file is not a JSON object but a list"),
        "{e:?}"
    );
    assert!(
        e.message(Lang::Ja).contains("JSONオブジェクトではなく"),
        "{e:?}"
    );
}

#[test]
fn duplicate_and_malformed_ids() {
    broken(
        |v| v["processes"][3]["id"] = v["processes"][1]["id"].clone(),
        &["processes[3].id", "charge-card is used twice"],
    );
    broken(
        |v| v["processes"][0]["id"] = json!("Check Availability"),
        &["processes[0].id", "a-z, 0-9 and -"],
    );
    broken(
        |v| v["processes"][0]["id"] = json!(""),
        &["processes[0].id", "1 to 40"],
    );
}

#[test]
fn ten_thousand_processes() {
    let mut v = example();
    // The undecided process (no sheet): 10 000 of them stay under the file size limit.
    let one = v["processes"][6].clone();
    v["processes"] = Value::Array(vec![one; 10_000]);
    assert!(v.to_string().len() < MAX_FILE_BYTES);
    refused(
        &v.to_string(),
        &[
            "processes",
            "10,000 items",
            &format!("at most {MAX_PROCESSES}"),
        ],
    );
}

#[test]
fn a_five_megabyte_string() {
    let big = "x".repeat(5 * 1024 * 1024);
    let mut v = example();
    v["processes"][0]["name"] = json!(big);
    let text = v.to_string();
    refused(
        &text,
        &[
            "file",
            &format!("{} bytes", group_thousands(text.len() as u64)),
            &format!("at most {} bytes", group_thousands(MAX_FILE_BYTES as u64)),
        ],
    );
    // Under the file limit, the name's own limit.
    broken(
        |v| v["processes"][0]["name"] = json!("予".repeat(1_000_000)),
        &[
            "processes[0].name",
            "1,000,000 characters",
            "at most 200 characters",
        ],
    );
    broken(
        |v| v["name"] = json!("n".repeat(201)),
        &["name", "at most 200 characters"],
    );
}

#[test]
fn wrong_types_and_unknown_fields() {
    broken(
        |v| v["processes"][1]["created_ms"] = json!("yesterday"),
        &["processes[1].created_ms", "invalid type"],
    );
    broken(
        |v| v["processes"] = json!({}),
        &["processes", "invalid type"],
    );
    broken(
        |v| v["processes"][2]["sheet"]["retry"]["max_attempts"] = json!("many"),
        &["processes[2].sheet.retry.max_attempts", "1 to 100"],
    );
    broken(
        |v| v["processes"][2]["sheet"]["retry"]["max_attempts"] = json!(0),
        &["processes[2].sheet.retry.max_attempts", "0", "1 to 100"],
    );
    broken(
        |v| {
            v["processes"][2]["sheet"]["retry"]
                .as_object_mut()
                .map(|o| o.remove("lease_ms"));
        },
        &["processes[2].sheet.retry.lease_ms", "missing"],
    );
    broken(
        |v| v["processes"][0]["colour"] = json!("red"),
        &["colour", "unknown field"],
    );
    broken(
        |v| v["processes"][2]["sim"]["colour"] = json!("red"),
        &["processes[2].sim.colour", "unknown field"],
    );
    match read_catalog("{\"catalog_version\": 1,\n  \"name\": }") {
        Err(ImportError::InvalidJson {
            line: 2,
            column: 11,
            ..
        }) => {}
        other => panic!("expected invalid JSON at line 2, column 11: {other:?}"),
    }
}

#[test]
fn an_outcome_that_contradicts_the_answers() {
    broken(
        |v| v["processes"][0]["outcome"] = json!("batch"),
        &[
            "processes[0].outcome",
            "batch does not follow",
            "they give sync",
        ],
    );
    broken(
        |v| v["processes"][6]["outcome"] = json!("sync"),
        &["processes[6].outcome", "they give null (undecided)"],
    );
    broken(
        |v| v["processes"][0]["sheet"]["decision"]["outcome"] = json!("batch"),
        &["processes[0].sheet.decision.outcome", "they give sync"],
    );
    broken(
        |v| v["processes"][0]["sheet"]["batch"] = v["processes"][5]["sheet"]["batch"].clone(),
        &["processes[0].sheet.batch", "does not apply to outcome sync"],
    );
    broken(
        |v| v["processes"][5]["sheet"]["batch"] = Value::Null,
        &["processes[5].sheet.batch", "required by outcome batch"],
    );
}

#[test]
fn answers_times_and_simulator_choices() {
    broken(
        |v| {
            let a = v["processes"][0]["answers"][0].clone();
            if let Some(l) = v["processes"][0]["answers"].as_array_mut() {
                l.push(a);
            }
        },
        &["processes[0].answers[4]", "answered twice"],
    );
    broken(
        |v| v["processes"][0]["answers"][0]["timing"] = json!({"target_ms": 1000, "p95_ms": 10}),
        &["processes[0].answers[0].timing", "within-seconds only"],
    );
    broken(
        |v| v["processes"][1]["answers"][2]["answer"] = json!(false),
        &["processes[1].answers[2].answer"],
    );
    broken(
        |v| v["processes"][0]["updated_ms"] = json!(5),
        &["processes[0].updated_ms", "before created_ms"],
    );
    broken(
        |v| v["processes"][2]["sim"]["preset"] = json!("no-such-preset"),
        &["processes[2].sim.preset", "one of"],
    );
    broken(
        |v| v["processes"][2]["sim"]["jobs"] = json!(0),
        &["processes[2].sim.jobs", "1 to"],
    );
}

#[test]
fn storage_applies_the_same_checks() {
    let mut c = read_catalog(&example_text()).expect("the example reads");
    assert_eq!(check_catalog(&c), Ok(()));
    c.processes[0].outcome = None;
    let e = check_catalog(&c).expect_err("a contradicting outcome is refused");
    assert!(e.to_string().contains("processes[0].outcome"), "{e}");
}

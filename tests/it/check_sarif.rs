//! `check --format sarif` against the SARIF 2.1.0 JSON schema, and the properties code
//! scanning relies on: rule metadata with help and `helpUri`, `%SRCROOT%`-relative locations,
//! and fingerprints that do not move with the lines.
//!
//! The schema, `tests/fixtures/sarif-schema-2.1.0-rtm.5.json`, is the SARIF 2.1.0 schema as
//! Microsoft's SARIF SDK ships it in the npm package `@microsoft/jest-sarif` 1.0.0-beta.0
//! (`lib/schemas/sarif-2.1.0-rtm.5.json`; its `id`:
//! https://raw.githubusercontent.com/schemastore/schemastore/master/src/schemas/json/sarif-2.1.0-rtm.5.json),
//! the copy the package registries here serve.

use crate::check_cli::{check, check_in, fixtures, tempdir};
use std::path::Path;

fn schema() -> jsonschema::Validator {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sarif-schema-2.1.0-rtm.5.json");
    let text = std::fs::read_to_string(path).expect("the schema");
    // rtm.5's language pattern has an unescaped `]` (a literal in ECMA 262, which Rust's
    // regex refuses): escaped here, with the same meaning.
    let text = text.replace(
        r#"[a-zA-Z]{2}-[a-zA-Z]{2}]?$"#,
        r#"[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$"#,
    );
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema JSON");
    jsonschema::validator_for(&schema).expect("a valid schema")
}

pub fn assert_valid(sarif: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(sarif).expect("SARIF is JSON");
    let errors: Vec<String> = schema()
        .iter_errors(&v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    v
}

#[test]
fn the_log_is_valid_with_and_without_findings_and_with_unreadable_files() {
    for args in [
        vec!["sheets", "system.catalog.json", "--format", "sarif"],
        vec![
            "sheets",
            "--format",
            "sarif",
            "--lang",
            "ja",
            "--docs-url",
            "https://example.org/FINDINGS.md",
        ],
        vec!["broken", "sheets", "--format", "sarif"],
    ] {
        let (out, _, _) = check(&args);
        assert_valid(&out);
    }
    // A schema that could not fail would prove nothing: a result without a message is refused.
    let (out, _, _) = check(&["sheets", "--format", "sarif"]);
    let mut v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    v["runs"][0]["results"][0]
        .as_object_mut()
        .expect("a result")
        .remove("message");
    assert!(!schema().is_valid(&v));
}

#[test]
fn rules_results_and_unreadable_files() {
    let (out, _, _) = check(&[
        "broken",
        "sheets",
        "--format",
        "sarif",
        "--docs-url",
        "https://example.org/docs/FINDINGS.md",
    ]);
    let v = assert_valid(&out);
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), modality_advisor::domain::rules::RULES.len());
    let lease = rules
        .iter()
        .find(|r| r["id"] == "MA-lease-not-longer-than-timeout")
        .expect("the lease rule");
    assert_eq!(
        lease["helpUri"],
        "https://example.org/docs/FINDINGS.md#ma-lease-not-longer-than-timeout"
    );
    assert_eq!(lease["defaultConfiguration"]["level"], "error");
    assert!(lease["help"]["text"]
        .as_str()
        .is_some_and(|t| t.contains("Fix: ")));
    let result = run["results"]
        .as_array()
        .and_then(|r| {
            r.iter()
                .find(|r| r["ruleId"] == "MA-lease-not-longer-than-timeout")
        })
        .expect("a lease result");
    let loc = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "sheets/receipt-mail.sheet.json"
    );
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(loc["region"]["startLine"], 41);
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    assert_eq!(
        run["invocations"][0]["toolExecutionNotifications"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
}

/// (ruleId, fingerprint, startLine) of every result of `sarif`.
fn fingerprints(sarif: &str) -> Vec<(String, String, u64)> {
    let v: serde_json::Value = serde_json::from_str(sarif).expect("JSON");
    v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or_default().to_owned(),
                r["partialFingerprints"]["modalityAdvisorRuleFileField/v1"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn fingerprints_stay_when_lines_move() {
    let tmp = tempdir("check-sarif");
    let dir = tmp.path();
    let src = std::fs::read_to_string(fixtures().join("sheets/receipt-mail.sheet.json"))
        .expect("fixture");
    let file = dir.join("receipt-mail.sheet.json");
    let file_arg = file.to_str().expect("UTF-8 path");
    std::fs::write(&file, &src).expect("write");
    let before = check_in(&[file_arg, "--format", "sarif"], None);
    // The same sheet with three blank lines on top: the lines move, the findings do not.
    std::fs::write(&file, format!("\n\n\n{src}")).expect("write");
    let after = check_in(&[file_arg, "--format", "sarif"], None);
    let (a, b) = (
        fingerprints(&String::from_utf8_lossy(&before.stdout)),
        fingerprints(&String::from_utf8_lossy(&after.stdout)),
    );
    assert_eq!(a.len(), 4);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((&x.0, &x.1), (&y.0, &y.1));
        assert_eq!(x.2 + 3, y.2);
    }
    let mut unique: Vec<_> = a.iter().map(|x| &x.1).collect();
    unique.dedup();
    assert_eq!(unique.len(), a.len(), "one fingerprint per finding");
}

//! The rule catalogue (`domain::rules`): every finding code the checks can produce has a rule;
//! every rule has its texts in English and Japanese; docs/FINDINGS.md is generated from it
//! (regenerate: `UPDATE_FINDINGS=1 cargo test --test it check_rules`).

use modality_advisor::domain::rules::{
    findings_markdown, rule_of, AUDIT_RULES, RULES, RULE_PREFIX,
};
use modality_advisor::domain::Lang;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn findings_md_is_generated_from_the_code() {
    let path = Path::new(ROOT).join("docs/FINDINGS.md");
    let want = findings_markdown();
    if std::env::var_os("UPDATE_FINDINGS").is_some() {
        std::fs::write(&path, &want).expect("write docs/FINDINGS.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/FINDINGS.md differs from the rule catalogue; regenerate it with \
         UPDATE_FINDINGS=1 cargo test --test it check_rules"
    );
    for r in RULES.iter().chain(AUDIT_RULES.iter()) {
        assert!(have.contains(&format!("\n## {}\n", r.id())), "{}", r.id());
    }
}

#[test]
fn every_rule_has_its_texts_in_both_languages() {
    let all: Vec<_> = RULES.iter().chain(AUDIT_RULES.iter()).collect();
    let mut ids: Vec<String> = all.iter().map(|r| r.id()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "rule ids are unique");
    for r in all {
        assert_eq!(r.id(), format!("{RULE_PREFIX}{}", r.code));
        for (part, en, ja) in [
            ("title", r.title(Lang::En), r.title(Lang::Ja)),
            ("why", r.why(Lang::En), r.why(Lang::Ja)),
            ("fix", r.fix(Lang::En), r.fix(Lang::Ja)),
        ] {
            let key = format!("rule.{}.{part}", r.code);
            assert!(en != key && ja != key && en != ja, "{key}: {en} / {ja}");
        }
        if let Some(path) = r.path {
            let top = path.split('.').next().unwrap_or_default();
            assert!(
                ["process", "retry", "failure", "ticket", "batch", "sync", "load"].contains(&top),
                "{}: {path}",
                r.code
            );
        }
    }
}

/// The string literals of `text` that look like finding codes (lower case words joined by
/// `-`; locale keys have dots and are left out).
fn code_literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in text.split('"').skip(1).step_by(2) {
        if part.contains('-')
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            out.push(part.to_owned());
        }
    }
    out
}

#[test]
fn every_finding_code_in_the_checks_has_a_rule() {
    let files = [
        "src/domain/sheet/check.rs",
        "src/domain/sheet/check/key_findings.rs",
        "src/domain/sheet/check/load_findings.rs",
        "src/domain/sheet/check/bidi_fields.rs",
        "src/domain/sheet/dst.rs",
        "src/domain/queues/findings.rs",
        "src/domain/audit/traps.rs",
    ];
    let mut seen = 0;
    for f in files {
        let text = std::fs::read_to_string(Path::new(ROOT).join(f)).expect(f);
        for code in code_literals(&text) {
            seen += 1;
            assert!(
                rule_of(&code).is_some(),
                "{f}: finding code {code} has no rule"
            );
        }
    }
    assert!(seen >= 50, "only {seen} codes found: the scan is broken");
    for code in ["link-to-missing-process", "link-cycle"] {
        assert!(rule_of(code).is_some());
    }
}

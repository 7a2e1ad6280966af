//! `check --format sarif`: SARIF 2.1.0 (OASIS), the format GitHub code scanning, GitLab and
//! Azure DevOps read. One run; the driver lists every rule of the catalogue (title, why, how
//! to fix, source, default level, and `helpUri` into docs/FINDINGS.md when its address is
//! known); each result names its rule, its level, the file relative to `%SRCROOT%` (the
//! checkout's root, which the uploader supplies) with the line and column of the field, and
//! a `partialFingerprints` entry computed from the rule, the file and the field's JSON path —
//! not the line, so a finding keeps its identity when lines move. Files that could not be read
//! are tool execution notifications, and the invocation is then not successful.
//! Valid against the official schema (tests/it/check_sarif.rs).

use super::text::{absent_note, severity_id};
use super::{Item, Options, Report};
use crate::domain::rules::{Rule, AUDIT_RULES, RULES};
use crate::domain::Lang;
use serde_json::{json, Value};

/// The `partialFingerprints` key (versioned: a change of what it hashes changes the key).
pub const FINGERPRINT_KEY: &str = "modalityAdvisorRuleFileField/v1";

/// 64-bit FNV-1a of `text`, as 16 hex digits: stable across runs, builds and platforms.
fn fnv1a(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A path as a URI reference: `/` between segments, every byte outside RFC 3986's unreserved
/// set percent-encoded.
fn uri_path(path: &str) -> String {
    let mut s = String::new();
    for (i, seg) in path.split(['/', '\\']).enumerate() {
        if i > 0 {
            s.push('/');
        }
        for b in seg.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                s.push(char::from(b));
            } else {
                s.push_str(&format!("%{b:02X}"));
            }
        }
    }
    s
}

/// The artifact location of `file`: relative to `%SRCROOT%` when the path is relative (or
/// under the working directory), else an absolute `file:` URI.
pub fn artifact(file: &str) -> Value {
    let path = std::path::Path::new(file);
    let relative = if path.is_absolute() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(cwd).ok().map(|p| p.display().to_string()))
    } else {
        Some(file.trim_start_matches("./").to_owned())
    };
    match relative {
        Some(rel) => json!({"uri": uri_path(&rel), "uriBaseId": "%SRCROOT%"}),
        None => json!({"uri": format!("file://{}", uri_path(file))}),
    }
}

fn rule_json(r: &Rule, o: &Options) -> Value {
    let lang = o.lang;
    let source = if r.source.doc.contains("://") {
        r.source.doc.to_owned()
    } else {
        format!("{}#{}", r.source.doc, r.source.anchor)
    };
    let source_word = if lang == Lang::Ja { "出典" } else { "Source" };
    let fix_word = if lang == Lang::Ja { "直し方" } else { "Fix" };
    let help = format!(
        "{}\n\n{fix_word}: {}\n\n{source_word}: {} ({source})",
        r.why(lang),
        r.fix(lang),
        r.source.label
    );
    let markdown = format!(
        "{}\n\n**{fix_word}:** {}\n\n{source_word}: {} (`{source}`)",
        r.why(lang),
        r.fix(lang),
        r.source.label
    );
    let mut v = json!({
        "id": r.id(),
        "name": r.code,
        "shortDescription": {"text": r.title(lang)},
        "fullDescription": {"text": r.why(lang)},
        "help": {"text": help, "markdown": markdown},
        "defaultConfiguration": {"level": severity_id(r.severity)},
        "properties": {"tags": ["modality-advisor", r.code.split('-').next().unwrap_or("")]},
    });
    if let Some(base) = &o.docs_url {
        v["helpUri"] = json!(format!("{base}#{}", r.anchor()));
    }
    v
}

fn result_json(i: &Item, rule_index: usize, o: &Options) -> Value {
    let mut message = i.message.clone();
    if let Some(note) = absent_note(i, o.lang) {
        message = format!("{message} ({note})");
    }
    let fingerprint = fnv1a(&format!("{}\u{0}{}\u{0}{}", i.rule.id(), i.file, i.field));
    json!({
        "ruleId": i.rule.id(),
        "ruleIndex": rule_index,
        "level": severity_id(i.severity),
        "message": {"text": message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": artifact(&i.file),
                "region": {"startLine": i.at.line, "startColumn": i.at.column},
            },
            "logicalLocations": [{"fullyQualifiedName": i.field, "kind": "member"}],
        }],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        "properties": {"field": i.field, "fieldInFile": i.at.exact},
    })
}

/// The SARIF log of `report`, pretty-printed, ending in a newline.
pub fn sarif(report: &Report, o: &Options) -> String {
    let extra: &[Rule] = if o.command == "audit" {
        &AUDIT_RULES
    } else {
        &[]
    };
    let all: Vec<&Rule> = RULES.iter().chain(extra.iter()).collect();
    let rules: Vec<Value> = all.iter().map(|r| rule_json(r, o)).collect();
    let results: Vec<Value> = report
        .items()
        .map(|i| {
            let index = all.iter().position(|r| *r == i.rule).unwrap_or_default();
            result_json(i, index, o)
        })
        .collect();
    let mut notifications: Vec<Value> = report
        .problems
        .iter()
        .map(|p| {
            let mut loc = json!({"physicalLocation": {"artifactLocation": artifact(&p.file)}});
            if let (Some(line), Some(column)) = (p.line, p.column) {
                loc["physicalLocation"]["region"] =
                    json!({"startLine": line, "startColumn": column});
            }
            json!({"level": "error", "message": {"text": p.message}, "locations": [loc]})
        })
        .collect();
    // `audit`'s rules it could not check (an input not resolved): notes, not results.
    for c in &report.checked {
        for (rule, line, message) in c.audit.iter().flat_map(|a| &a.unchecked) {
            let loc = json!({"physicalLocation": {
                "artifactLocation": artifact(&c.file),
                "region": {"startLine": line},
            }});
            notifications.push(json!({
                "level": "note",
                "message": {"text": message},
                "locations": [loc],
                "associatedRule": {"id": rule},
            }));
        }
    }
    let mut driver = json!({
        "name": "modality-advisor",
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if let Some(base) = &o.docs_url {
        driver["informationUri"] = json!(base);
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "language": if o.lang == Lang::Ja { "ja-JP" } else { "en-US" },
            "columnKind": "unicodeCodePoints",
            "invocations": [{
                "executionSuccessful": report.problems.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded_and_fingerprints_stable() {
        assert_eq!(uri_path("docs/a b/予.json"), "docs/a%20b/%E4%BA%88.json");
        assert_eq!(fnv1a(""), "cbf29ce484222325");
        assert_eq!(fnv1a("a"), "af63dc4c8601ec8c");
    }
}

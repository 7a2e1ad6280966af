//! Every Japanese text uses the glossary's terms (`docs/GLOSSARY.md`, issue 26 item 9): no
//! `ja:` value of `locales/**/*.yml`, no Japanese in `src/**/*.rs` (the `Lang::Ja` strings and
//! pre-filled defaults) and no line of the Japanese flowchart holds a forbidden variant, except
//! where the occurrence is part of one of the glossary's own Japanese terms (`ジッタ` inside
//! `ジッター`). The rule and why the variants are compounds is in the glossary.

use std::path::{Path, PathBuf};

/// One row of the glossary's table.
struct Term {
    en: String,
    ja: Vec<String>,
    forbidden: Vec<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The rows of the table under `## Terms`: English, Japanese (`,` or `/` between several),
/// forbidden variants as code spans.
fn terms() -> Vec<Term> {
    let text = std::fs::read_to_string(root().join("docs/GLOSSARY.md")).expect("the glossary");
    let table = text.split("## Terms").nth(1).expect("a ## Terms section");
    table
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("| ---") && !l.starts_with("| English"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            assert!(cells.len() >= 3, "a row of 4 cells: {l}");
            Term {
                en: cells[0].to_owned(),
                ja: cells[1]
                    .split([',', '/'])
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
                forbidden: cells[2]
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_owned)
                    .collect(),
            }
        })
        .collect()
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reads").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Every Japanese text, each with where it is: the `ja:` lines of the locale files, the lines
/// of the Rust sources that hold Japanese, the Japanese flowchart.
fn japanese_texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut yml = Vec::new();
    files(&root().join("locales"), "yml", &mut yml);
    for f in yml {
        let text = std::fs::read_to_string(&f).expect("reads");
        for (i, line) in text.lines().enumerate() {
            // `key: { en: "…", ja: "…" }` or an indented `ja: "…"` line.
            if let Some((_, ja)) = line.split_once("ja: ") {
                out.push((format!("{}:{}", f.display(), i + 1), ja.to_owned()));
            }
        }
    }
    let mut rs = Vec::new();
    files(&root().join("src"), "rs", &mut rs);
    rs.push(root().join("diagrams/flowchart.ja.mmd"));
    for f in rs {
        let text = std::fs::read_to_string(&f).expect("reads");
        for (i, line) in text.lines().enumerate() {
            // A line that matches what users type (not a text shown) says so.
            if line.contains("glossary-allow") {
                continue;
            }
            if line.chars().any(|c| {
                ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c)
            }) {
                out.push((format!("{}:{}", f.display(), i + 1), line.to_owned()));
            }
        }
    }
    out
}

/// Whether the occurrence of `variant` at byte `at` of `text` lies inside one of `terms`.
fn inside_a_term(text: &str, at: usize, variant: &str, terms: &[&str]) -> bool {
    terms.iter().any(|t| {
        t.match_indices(variant)
            .any(|(k, _)| at >= k && text.get(at - k..).is_some_and(|rest| rest.starts_with(t)))
    })
}

#[test]
fn the_glossary_is_read_and_lists_the_brief_terms() {
    let terms = terms();
    for en in [
        "process",
        "job",
        "queue",
        "worker",
        "lease",
        "visibility timeout",
        "attempt",
        "retry",
        "backoff",
        "jitter",
        "full jitter",
        "equal jitter",
        "decorrelated jitter",
        "dead-letter queue",
        "idempotency key",
        "heartbeat",
        "owner check",
        "at-least-once",
        "ticket",
        "batch",
        "sync",
        "async",
        "burst",
        "rate limit",
        "throughput",
        "utilisation",
        "time zone",
    ] {
        assert!(
            terms
                .iter()
                .any(|t| t.en.split([' ', '/', '(']).next().is_some()
                    && (t.en == en
                        || t.en.starts_with(&format!("{en} "))
                        || t.en.split(" / ").any(|p| p == en))),
            "the glossary has no row for {en}"
        );
    }
    let process = terms
        .iter()
        .find(|t| t.en.starts_with("process ("))
        .expect("process");
    assert_eq!(process.ja, ["プロセス"]);
    assert!(process.forbidden.iter().any(|v| v == "処理名"));
}

#[test]
fn every_japanese_text_uses_the_glossarys_terms() {
    let terms = terms();
    let all_ja: Vec<&str> = terms
        .iter()
        .flat_map(|t| t.ja.iter().map(String::as_str))
        .collect();
    let texts = japanese_texts();
    assert!(
        texts.len() > 500,
        "only {} Japanese texts found",
        texts.len()
    );
    let mut problems = Vec::new();
    for (place, text) in &texts {
        for t in &terms {
            for v in &t.forbidden {
                for (at, _) in text.match_indices(v.as_str()) {
                    if !inside_a_term(text, at, v, &all_ja) {
                        problems.push(format!(
                            "{place}: “{v}” for “{}” — write {}",
                            t.en,
                            t.ja.join(" / ")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "Japanese texts off the glossary (docs/GLOSSARY.md):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_exception_is_only_for_the_glossarys_own_terms() {
    let terms = ["ジッター", "ワーカー"];
    let text = "ジッターとジッタ、ワーカとワーカー";
    let hits: Vec<bool> = text
        .match_indices("ジッタ")
        .map(|(at, _)| inside_a_term(text, at, "ジッタ", &terms))
        .collect();
    assert_eq!(hits, [true, false]);
    let hits: Vec<bool> = text
        .match_indices("ワーカ")
        .map(|(at, _)| inside_a_term(text, at, "ワーカ", &terms))
        .collect();
    assert_eq!(hits, [false, true]);
}

//! Every text key the code names exists in the locale files, in English and Japanese
//! (rust-i18n renders a missing key as the key itself, which no other test would notice).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The keys of every `locales/*.yml` (rust-i18n's v2 format: `key: { en: …, ja: … }` on one
/// line, or `key:` followed by indented `en:` / `ja:` lines), each with the languages it has.
fn locale_keys() -> BTreeMap<String, BTreeSet<String>> {
    let mut keys: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => panic!("cannot read {}: {e}", dir.display()),
    };
    for entry in entries.flatten() {
        let text = match std::fs::read_to_string(entry.path()) {
            Ok(t) => t,
            Err(e) => panic!("cannot read {}: {e}", entry.path().display()),
        };
        let mut current: Option<String> = None;
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if !line.starts_with(' ') {
                let Some((key, rest)) = line.split_once(':') else {
                    continue;
                };
                if key == "_version" {
                    current = None;
                    continue;
                }
                let langs = keys.entry(key.to_owned()).or_default();
                for lang in ["en", "ja"] {
                    if rest.contains(&format!("{lang}: ")) {
                        langs.insert(lang.to_owned());
                    }
                }
                current = Some(key.to_owned());
            } else if let Some(key) = &current {
                let t = line.trim_start();
                for lang in ["en", "ja"] {
                    if t.starts_with(&format!("{lang}:")) {
                        keys.entry(key.clone()).or_default().insert(lang.to_owned());
                    }
                }
            }
        }
    }
    keys
}

/// String literals in `src/` that look like keys of the locale files: a known key's first
/// segment, a dot, then lowercase words (`"sim.ui.run"`).
fn keys_in_source(prefixes: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (i, literal) in text.split('"').enumerate() {
                // Odd pieces are inside quotes (good enough for key-shaped literals).
                if i % 2 == 0 {
                    continue;
                }
                let Some((first, rest)) = literal.split_once('.') else {
                    continue;
                };
                let key_shaped = !rest.is_empty()
                    && !rest.ends_with('.')
                    && literal.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'
                    });
                if key_shaped && prefixes.contains(first) {
                    found
                        .entry(literal.to_owned())
                        .or_insert_with(|| path.display().to_string());
                }
            }
        }
    }
    found
}

#[test]
fn every_key_the_code_names_exists_in_both_languages() {
    let keys = locale_keys();
    assert!(keys.len() > 300, "only {} keys read", keys.len());
    for (key, langs) in &keys {
        assert!(
            langs.contains("en") && langs.contains("ja"),
            "locale key {key} has only {langs:?}"
        );
    }
    let prefixes: BTreeSet<String> = keys
        .keys()
        .filter_map(|k| k.split_once('.').map(|(p, _)| p.to_owned()))
        .collect();
    let used = keys_in_source(&prefixes);
    assert!(used.len() > 200, "only {} keys found in src/", used.len());
    let missing: Vec<String> = used
        .iter()
        .filter(|(k, _)| !keys.contains_key(*k))
        .map(|(k, file)| format!("{k} ({file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "keys missing from locales/: {missing:#?}"
    );
}

#[test]
fn keys_built_from_ids_exist_too() {
    use modality_advisor::domain::sheet::cron::CronField;
    use modality_advisor::domain::sim::setup::knobs::Change;
    let keys = locale_keys();
    let built = Change::ALL
        .iter()
        .map(|c| format!("sim.compare.same-why.{}", c.id()))
        .chain(
            CronField::ALL
                .iter()
                .map(|f| format!("sheet.cron.field.{}", f.id())),
        );
    for key in built {
        let langs = keys.get(&key);
        assert!(
            langs.is_some_and(|l| l.contains("en") && l.contains("ja")),
            "{key}: {langs:?}"
        );
    }
}

#[test]
fn no_key_is_defined_twice() {
    // rust-i18n merges every file into one table: a key defined in two files silently takes
    // one of the texts, so one screen shows the other's words.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut twice = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("locales/").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(entry.path()).expect("reads");
        for line in text.lines() {
            if line.starts_with([' ', '#']) || line.trim().is_empty() {
                continue;
            }
            let Some((key, _)) = line.split_once(':') else {
                continue;
            };
            if key == "_version" {
                continue;
            }
            if let Some(first) = seen.insert(key.to_owned(), name.clone()) {
                twice.push(format!("{key} ({first}, {name})"));
            }
        }
    }
    assert!(twice.is_empty(), "keys defined twice: {twice:#?}");
}

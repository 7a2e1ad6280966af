//! Every text key the code names exists in the locale files, in English and Japanese
//! (rust-i18n renders a missing key as the key itself, which no other test would notice).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `*.yml` under `locales/<sub>` (`""`: all of them, as rust-i18n loads them).
fn locale_files(sub: &str) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("locales")
        .join(sub)];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => panic!("cannot read {}: {e}", dir.display()),
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The keys of every `locales/**/*.yml` (rust-i18n's v2 format: `key: { en: …, ja: … }` on
/// one line, or `key:` followed by indented `en:` / `ja:` lines), each with the languages it
/// has.
fn locale_keys() -> BTreeMap<String, BTreeSet<String>> {
    keys_of(&locale_files(""))
}

/// The keys of `files`, each with the languages it has.
fn keys_of(files: &[std::path::PathBuf]) -> BTreeMap<String, BTreeSet<String>> {
    let mut keys: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => panic!("cannot read {}: {e}", path.display()),
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
                // File names (`embed.html`) are not keys.
                let file_name = [".html", ".css", ".js", ".json", ".svg", ".md"]
                    .iter()
                    .any(|ext| literal.ends_with(ext));
                let key_shaped = !rest.is_empty()
                    && !file_name
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
    let changes = Change::all_for(&Default::default());
    let built = changes
        .iter()
        .map(|c| format!("compare.same-why.{}", c.id()))
        .chain(
            CronField::ALL
                .iter()
                .map(|f| format!("sheet.cron.field.{}", f.id())),
        )
        .chain(
            modality_advisor::domain::sim::runner::LEASE_FACTS
                .iter()
                .map(|id| format!("run-result.lease.{id}")),
        )
        .chain(
            [
                modality_advisor::domain::sim::StopReason::NoWorkers,
                modality_advisor::domain::sim::StopReason::MaxEvents,
                modality_advisor::domain::sim::StopReason::MaxTime,
            ]
            .map(|s| format!("run-result.stop.{}", s.id())),
        )
        .chain(
            modality_advisor::domain::sim::engine::LEASE_IDS
                .iter()
                .map(|id| format!("cli.sim.lease.{id}")),
        )
        .chain(
            [
                modality_advisor::domain::sim::StopReason::Drained,
                modality_advisor::domain::sim::StopReason::NoWorkers,
                modality_advisor::domain::sim::StopReason::MaxEvents,
                modality_advisor::domain::sim::StopReason::MaxTime,
            ]
            .map(|s| format!("cli.sim.stop.{}", s.id())),
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
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut twice = Vec::new();
    for path in locale_files("") {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("reads");
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

#[test]
fn the_page_never_names_a_text_it_does_not_carry() {
    // The page is built with only `locales/page/` (the `page` feature): a key of
    // `locales/worker/` named by code the page runs would show as the bare key. Those keys may
    // be named only by the modules that render in the document worker, the embed page or the CLI,
    // and the page's own code (src/ui) reaches none of those modules' text functions.
    let worker = keys_of(&locale_files("worker"));
    let page = keys_of(&locale_files("page"));
    assert!(
        worker.len() > 50 && page.len() > 300,
        "{} / {}",
        worker.len(),
        page.len()
    );
    let allowed = [
        "src/cli.rs",
        "src/cli/",
        "src/bin/embed.rs",
        "src/domain/share/svg.rs",
        "src/domain/share/adr.rs",
        "src/domain/share/markdown.rs",
        "src/domain/share/card.rs",
        "src/domain/share/card/",
        "src/domain/share/panel.rs",
        "src/domain/share/link.rs",
        "src/domain/share/embed.rs",
        "src/domain/catalog/export/markdown.rs",
        "src/domain/catalog/export/table.rs",
        // The system picture: drawn in the document worker, the page inserts the HTML.
        "src/domain/catalog/system/draw.rs",
        "src/domain/catalog/system/findings.rs",
        "src/domain/catalog/system/editor.rs",
        "src/domain/catalog/system/words.rs",
        // The sheet's exports (the page asks the document worker for them).
        "src/domain/export/markdown.rs",
        "src/domain/export/tsv.rs",
        // Daylight-saving findings (the time zone database): workers and the CLI only.
        "src/domain/sheet/dst.rs",
        // Why a value read from queue code is unresolved: the audit's reader, in the CLI
        // and the workers, never the page's first load.
        "src/domain/audit/code.rs",
        // Existing configurations read back (`audit`): the CLI, and the target worker later.
        "src/domain/audit.rs",
        "src/domain/audit/",
        // Exports to real queue systems: the document worker and the CLI only.
        "src/domain/queues.rs",
        "src/domain/queues/",
        // The configuration panel for a real queue system, rendered in the document worker.
        "src/domain/export/target_panel.rs",
        "src/domain/export/target_worker.rs",
        // What the document worker says of a file it will not read (from `ReadRequest::run`).
        "src/domain/export/not_read.rs",
        // Drawn in the simulation worker; the page inserts the finished HTML.
        "src/domain/sim/results/charts.rs",
        "src/domain/sim/results/chart_tables.rs",
        "src/domain/sim/results/drawn.rs",
        "src/domain/sim/results/compare_html.rs",
        "src/domain/sim/results/run_html.rs",
        "src/domain/sim/results/timeline.rs",
        // The sizing answer, drawn in the simulation worker like the simulator's charts.
        "src/domain/capacity/drawn.rs",
    ];
    let prefixes: BTreeSet<String> = worker
        .keys()
        .filter_map(|k| k.split_once('.').map(|(p, _)| p.to_owned()))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let misplaced: Vec<String> = keys_in_source(&prefixes)
        .into_iter()
        .filter(|(k, file)| {
            worker.contains_key(k)
                && !page.contains_key(k)
                && !allowed.iter().any(|a| {
                    let rel = Path::new(file)
                        .strip_prefix(root)
                        .unwrap_or(Path::new(file));
                    rel.to_string_lossy().starts_with(a)
                })
        })
        .map(|(k, file)| format!("{k} ({file})"))
        .collect();
    assert!(
        misplaced.is_empty(),
        "worker texts named outside the worker's modules: {misplaced:#?}"
    );
    for f in crate::tidy::rust_files_under("src/ui") {
        let code = std::fs::read_to_string(&f).expect("reads");
        for banned in [
            "LinkError",
            "share::card",
            "share::svg",
            "share::adr",
            "share::markdown",
            "share::embed",
            "panel::panel",
            "cli::",
            "export::headers",
            "export::markdown",
            "export::tsv",
            "export::csv",
            "export::to_",
        ] {
            assert!(!code.contains(banned), "{} names {banned}", f.display());
        }
    }
}

/// The files a module embeds, as `locales/modules.txt` lists them for its feature (`export`,
/// `sim` …) and build.rs reads them: paths under `locales/`, e.g.
/// `worker/targets.yml`, a folder (`page/`) standing for every file directly in it.
pub fn module_texts(feature: &str) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let list = std::fs::read_to_string(root.join("modules.txt")).expect("locales/modules.txt");
    let mut section = None;
    let mut files = BTreeSet::new();
    for line in list.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = Some(name.to_owned());
        } else if section.as_deref() == Some(feature) {
            match line.strip_suffix('/') {
                Some(dir) => files.extend(
                    locale_files(dir)
                        .iter()
                        .filter(|p| p.parent() == Some(root.join(dir).as_path()))
                        .map(|p| {
                            p.strip_prefix(&root)
                                .unwrap()
                                .to_string_lossy()
                                .into_owned()
                        }),
                ),
                None => {
                    assert!(
                        root.join(line).is_file(),
                        "modules.txt [{feature}]: no locales/{line}"
                    );
                    files.insert(line.to_owned());
                }
            }
        }
    }
    assert!(!files.is_empty(), "modules.txt has no [{feature}] texts");
    files
}

/// The locale files the simulator module (`[simui]`: the simulator screen, the sheet's capacity
/// panel, the simulation worker and the document worker) leaves out: the catalog's "Check an
/// existing configuration" form, which only the page's catalog screen shows; the page's own
/// screens and messages (the catalog screen, its import and export messages, the keep-both
/// merge, the target chooser's words, the system editor's, the page's frame, the wizard's
/// controls, the sheet's reasons and its screen-only words), whose code the module does not
/// link; and the CLI's own words (its audit's text report among them) (the rule catalogue's why and how to fix, `simulate`'s text report and usage errors,
/// the reasons the CLI's audit gives for unresolved settings). `tests/e2e/size.test.mjs` ("the
/// simulator module names none of the texts it does not carry") holds on the built wasm that
/// none of their keys is named there.
const NOT_IN_THE_SIMULATOR_MODULE: [&str; 15] = [
    "page/catalog-io.yml",
    "page/catalog-screen.yml",
    "page/check-config.yml",
    "page/frame.yml",
    "page/keep.yml",
    "page/sheet-page.yml",
    "page/sheet-reasons.yml",
    "page/sheet-targets.yml",
    "page/system.yml",
    "page/wizard.yml",
    "worker/audit-code.yml",
    "worker/audit-text.yml",
    "worker/cli-simulate.yml",
    "worker/cli.yml",
    "worker/rules.yml",
];

/// The simulator module carries every text but those above: a locale file added without its
/// line in `locales/modules.txt` would leave a screen or a document showing keys. The check
/// form's keys are named only by its own screen, so a page text added later reaches the module
/// unless it is that form's.
#[test]
fn the_simulator_module_carries_every_text_but_the_clis_and_the_checks_form() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let all: BTreeSet<String> = locale_files("")
        .iter()
        .filter_map(|p| p.strip_prefix(&root).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|f| !NOT_IN_THE_SIMULATOR_MODULE.contains(&f.as_str()))
        .collect();
    assert!(all.len() > 50, "{}", all.len());
    assert_eq!(module_texts("simui"), all, "modules.txt [simui]");
    let form = keys_of(&[root.join("page/check-config.yml")]);
    assert!(form.len() > 10);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (path, text) in sources(&src) {
        if path.ends_with("ui/catalog/check_config.rs") {
            assert!(
                text.contains("\"check-config.title\""),
                "the check finds what it looks for"
            );
            continue;
        }
        for key in form.keys() {
            assert!(
                !text.contains(&format!("\"{key}\"")) && !text.contains("\"check-config.{"),
                "{key} named in {}",
                path.display()
            );
        }
    }
}

/// The audit's notes, written in the document worker, name a rule by its title
/// (`Rule::title`, "Cannot check “…” (MA-…)"): the worker carries every rule's title in both
/// languages, though not the rest of the rule catalogue (why, how to fix: the CLI's).
#[test]
fn the_document_worker_carries_every_rules_title() {
    use modality_advisor::domain::rules::{AUDIT_RULES, RULES};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let files: Vec<std::path::PathBuf> =
        module_texts("simui").iter().map(|f| root.join(f)).collect();
    let keys = keys_of(&files);
    for r in RULES.iter().chain(AUDIT_RULES.iter()) {
        let key = format!("rule.{}.title", r.code);
        let langs = keys
            .get(&key)
            .unwrap_or_else(|| panic!("{key} not in [simui]"));
        assert!(
            langs.contains("en") && langs.contains("ja"),
            "{key}: {langs:?}"
        );
    }
    // The rest of the catalogue (why, how to fix) stays the CLI's.
    assert!(!module_texts("simui").contains("worker/rules.yml"));
    let cli = keys_of(&[root.join("worker/rules.yml")]);
    assert!(
        cli.keys().all(|k| !k.ends_with(".title")),
        "titles live in rule-titles.yml"
    );
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push((path, text));
            }
        }
    }
    out
}

//! The house rules that hold the code's shape, checked on the source tree itself (as
//! rust-analyzer's `tidy` tests do): `domain` knows nothing of the browser, the worker does not
//! reach into the page's UI, files stay a size one can read (or say why not at their top), file
//! names name features rather than work rounds, the modules import each other without
//! circles, and the checkout holds no symbolic link. See docs/ARCHITECTURE.md.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under the project's `dir` (e.g. `"src/ui"`), sorted.
pub fn rust_files_under(dir: &str) -> Vec<PathBuf> {
    rust_files(&root().join(dir))
}

/// The source without `//` comments (doc links are not imports).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the files under `dir` (but `except`) use one of `banned`, as "file uses name".
fn uses(dir: &str, banned: &[&str], except: Option<&str>) -> Vec<String> {
    let mut found = Vec::new();
    for f in rust_files(&root().join(dir)) {
        // A module's own files: `browser.rs` and `browser/…`.
        let inside = |e: &str| {
            f.ends_with(e)
                || f.parent()
                    .is_some_and(|p| p.ends_with(e.trim_end_matches(".rs")))
        };
        if except.is_some_and(inside) {
            continue;
        }
        let code = code_of(&fs::read_to_string(&f).unwrap());
        for b in banned {
            if code.contains(b) {
                found.push(format!("{} uses {b}", f.display()));
            }
        }
    }
    found
}

#[test]
fn the_domain_knows_nothing_of_the_browser() {
    let banned = ["yew::", "web_sys::", "gloo", "js_sys::", "wasm_bindgen"];
    let found = uses("src/domain", &banned, None);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_embed_page_and_the_cli_do_not_import_the_page() {
    for bin in [
        "src/bin/embed.rs",
        "src/bin/modality-advisor.rs",
        "src/cli.rs",
    ] {
        let code = code_of(&fs::read_to_string(root().join(bin)).unwrap());
        assert!(!code.contains("::ui::"), "{bin} imports from ui");
    }
    // The workers the simulator module serves (its `mod workers`) run the domain only.
    let sim_ui = code_of(&fs::read_to_string(root().join("src/bin/sim-ui.rs")).unwrap());
    let workers = sim_ui
        .split_once("mod workers {")
        .and_then(|(_, rest)| rest.split_once("\n}\n"))
        .map(|(inside, _)| inside)
        .expect("src/bin/sim-ui.rs has its `mod workers`");
    assert!(workers.contains("doc_worker::handle"), "{workers}");
    assert!(!workers.contains("::ui::"), "the workers import from ui");
}

#[test]
fn only_the_browser_module_reaches_for_the_window() {
    // Event handlers read their own event's target; the window (storage, timers, the
    // document, the URL, workers, the clipboard) is ui/browser.rs's (and its submodules')
    // alone.
    let banned = [
        "web_sys::window",
        "js_sys::global",
        "local_storage",
        "set_timeout",
        "set_interval",
    ];
    let found = uses("src/ui", &banned, Some("browser.rs"));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn long_files_say_why_at_their_top() {
    let mut long = Vec::new();
    for f in rust_files(&root().join("src")) {
        let text = fs::read_to_string(&f).unwrap();
        let lines = text.lines().count();
        let head: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
        if lines > 700 && !head.contains("Why this file is long") {
            long.push(format!("{}: {lines} lines", f.display()));
        }
    }
    assert!(
        long.is_empty(),
        "over 700 lines without a reason: {long:#?}"
    );
}

/// Functions longer than this many lines are too long to hold in the head.
const MAX_FN_LINES: usize = 120;

#[test]
fn functions_fit_in_the_head() {
    let mut long = Vec::new();
    for f in rust_files(&root().join("src")) {
        let text = fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let head = trimmed
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("const ")
                .trim_start_matches("async ");
            if !head.starts_with("fn ") || line.trim_end().ends_with(';') {
                continue;
            }
            // A function ends at the first `}` at its own indentation.
            let close = format!("{indent}}}");
            if let Some(n) = lines[i + 1..].iter().position(|l| *l == close) {
                if n + 2 > MAX_FN_LINES {
                    long.push(format!("{}:{}: {} lines", f.display(), i + 1, n + 2));
                }
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines: {long:#?}"
    );
}

#[test]
fn files_are_named_for_features_not_work_rounds() {
    let mut bad = Vec::new();
    for dir in ["locales", "tests/e2e", "tests/it", "src"] {
        let mut stack = vec![root().join(dir)];
        while let Some(d) = stack.pop() {
            for entry in fs::read_dir(&d).unwrap() {
                let p = entry.unwrap().path();
                let name = p.file_name().unwrap().to_string_lossy().to_lowercase();
                if name == "node_modules" || name == "snapshots" {
                    continue;
                }
                if p.is_dir() {
                    stack.push(p.clone());
                }
                if ["fix", "polish", "review"].iter().any(|w| name.contains(w)) {
                    bad.push(p.display().to_string());
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The symbolic links under `dir`, skipping what the build and the tools write (`.git`,
/// `target`, `dist`, `node_modules`), as paths.
fn symbolic_links(dir: &Path) -> Vec<String> {
    let mut links = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy();
            if [".git", "target", "dist", "node_modules"].contains(&name.as_ref()) {
                continue;
            }
            let meta = fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                links.push(p.display().to_string());
            } else if meta.is_dir() {
                stack.push(p);
            }
        }
    }
    links.sort();
    links
}

/// A checkout without symbolic links (Windows without them enabled, some archives) must build:
/// what a module embeds is listed in `locales/modules.txt`, not linked.
#[test]
fn the_repository_holds_no_symbolic_link() {
    let links = symbolic_links(&root());
    assert!(links.is_empty(), "{links:#?}");
}

#[cfg(unix)]
#[test]
fn the_link_finder_finds_a_link() {
    let dir = std::env::temp_dir().join(format!("tidy-links-{}", std::process::id()));
    fs::create_dir_all(dir.join("texts")).unwrap();
    fs::write(dir.join("app.yml"), "").unwrap();
    let link = dir.join("texts/app.yml");
    let _ = fs::remove_file(&link);
    std::os::unix::fs::symlink("../app.yml", &link).unwrap();
    let found = symbolic_links(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, [link.display().to_string()]);
}

/// The one header writer and the one mapping-row helper of the queue targets.
const HEADER_WRITER: &str = "src/domain/queues/header.rs";
const MAPPING_HELPER: &str = "src/domain/queues/mapping.rs";

/// The modules that write the thirteen targets' exports (the two SQL dialects share one).
const TARGET_WRITERS: [&str; 12] = [
    "src/domain/queues/sqs.rs",
    "src/domain/queues/celery.rs",
    "src/domain/queues/sidekiq.rs",
    "src/domain/queues/bullmq.rs",
    "src/domain/queues/oban.rs",
    "src/domain/queues/river.rs",
    "src/domain/queues/pg_boss.rs",
    "src/domain/queues/active_job.rs",
    "src/domain/queues/temporal.rs",
    "src/domain/queues/cloud_tasks.rs",
    "src/domain/queues/kubernetes/yaml.rs",
    "src/domain/queues/sql/stmt.rs",
];

/// Where `files` (path under the project, source) write a target's header comment or build a
/// mapping row or gap other than through the one writer and the one helper: a function named
/// `header` or `…_header` outside [`HEADER_WRITER`], a `MappingRow { … }` or `Gap { … }`
/// built outside [`MAPPING_HELPER`], or a target module of [`TARGET_WRITERS`] that never
/// calls `header::write`.
fn second_writers(files: &[(String, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in files {
        let code = code_of(text);
        if path != HEADER_WRITER {
            for line in code.lines() {
                let Some(rest) = line.trim_start().split("fn ").nth(1) else {
                    continue;
                };
                let name = rest.split(['(', '<']).next().unwrap_or("").trim();
                if name == "header" || name.ends_with("_header") {
                    found.push(format!("{path}: fn {name} writes a header"));
                }
            }
        }
        if path != MAPPING_HELPER {
            for built in ["MappingRow {", "Gap {"] {
                for line in code.lines().filter(|l| l.contains(built)) {
                    // A declaration or a return type, not a value built.
                    if !line.contains("struct ") && !line.contains(&format!("-> {built}")) {
                        found.push(format!("{path}: builds {built} … }}: {}", line.trim()));
                    }
                }
            }
        }
        if TARGET_WRITERS.contains(&path.as_str()) && !code.contains("header::write(") {
            found.push(format!("{path}: never calls header::write"));
        }
    }
    found
}

#[test]
fn the_targets_share_one_header_writer_and_one_mapping_row_helper() {
    // The queue targets' modules; other documents (the catalog's tables) have headers of
    // their own kind.
    let files: Vec<(String, String)> = rust_files(&root().join("src/domain/queues"))
        .iter()
        .map(|f| {
            let path = f
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (path, fs::read_to_string(f).unwrap())
        })
        .collect();
    for t in TARGET_WRITERS {
        assert!(
            files.iter().any(|(p, _)| p == t),
            "{t} is gone: update TARGET_WRITERS"
        );
    }
    let found = second_writers(&files);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_second_writer_finder_finds_one() {
    let file = |path: &str, text: &str| (path.to_owned(), text.to_owned());
    let found = second_writers(&[
        file(
            HEADER_WRITER,
            "pub(crate) fn write(prefix: &str) -> String {}",
        ),
        file(
            "src/domain/queues/sqs.rs",
            "fn yaml_header(sheet: &JobSheet) -> String {}\nlet h = header::write(\"#\", l);",
        ),
        file(
            "src/domain/queues/oban.rs",
            "let r = MappingRow { field, sheet };",
        ),
        file("src/domain/queues/river.rs", "let h = kit::header(s);"),
    ]);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found[0].contains("fn yaml_header"), "{found:#?}");
    assert!(found[1].contains("MappingRow"), "{found:#?}");
    assert!(found[2].contains("oban.rs: never calls"), "{found:#?}");
    assert!(found[3].contains("river.rs: never calls"), "{found:#?}");
}

/// Where the page's code calls `needle` outside `home` (a file under `src/ui`), as "file: n".
fn calls_outside(needle: &str, home: &str) -> Vec<String> {
    rust_files(&root().join("src/ui"))
        .iter()
        .filter(|f| !f.ends_with(home))
        .filter_map(|f| {
            let n = code_of(&fs::read_to_string(f).unwrap())
                .matches(needle)
                .count();
            (n > 0).then(|| format!("{}: {n}", f.display()))
        })
        .collect()
}

#[test]
fn the_page_starts_workers_and_window_listeners_one_way() {
    // Every Web Worker through the one port (ready, held requests, terminate on drop).
    let workers = calls_outside("Worker::new(", "browser/workers.rs");
    assert!(workers.is_empty(), "{workers:#?}");
    // Every window listener through WindowListener, which removes itself when dropped.
    let removals = calls_outside("remove_event_listener_with_callback(", "browser.rs");
    assert!(removals.is_empty(), "{removals:#?}");
    let window_listeners = calls_outside("w.add_event_listener_with_callback(", "browser.rs");
    assert!(window_listeners.is_empty(), "{window_listeners:#?}");
}

/// The module path of a source file: `src/domain/sim/engine.rs` → `domain::sim::engine`.
fn module_of(file: &Path, src: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts == ["lib"] {
        Vec::new()
    } else {
        parts
    }
}

/// The file that holds the longest prefix of `path` that is a module of the crate.
fn file_of(path: &[String], modules: &BTreeMap<Vec<String>, PathBuf>) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains_key(p))
}

/// Each file's imports of other files of the crate (`crate::…` and `super::…` paths).
fn import_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = root().join("src");
    let files: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|f| !f.starts_with(src.join("bin")))
        .collect();
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(f, &src), f.clone()))
        .collect();
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&fs::read_to_string(file).unwrap());
        let mut deps = BTreeSet::new();
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < code.len() {
            let rest = &code[i..];
            let start = if rest.starts_with("crate::") {
                Some((Vec::new(), "crate::".len()))
            } else if rest.starts_with("super::") {
                let mut base = module.clone();
                let mut n = 0;
                while code[i + n..].starts_with("super::") {
                    base.pop();
                    n += "super::".len();
                }
                Some((base, n))
            } else {
                None
            };
            let word_before =
                i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            match start {
                Some((mut path, n)) if !word_before => {
                    let mut j = i + n;
                    loop {
                        let seg: String = code[j..]
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if seg.is_empty() || !seg.starts_with(|c: char| c.is_ascii_lowercase()) {
                            break;
                        }
                        path.push(seg.clone());
                        j += seg.len();
                        if code[j..].starts_with("::") {
                            j += 2;
                        } else {
                            break;
                        }
                    }
                    if let Some(target) = file_of(&path, &modules) {
                        deps.insert(target);
                    }
                    i = j.max(i + 1);
                }
                _ => i += rest.chars().next().map_or(1, char::len_utf8),
            }
        }
        // A module and its ancestors (the `mod` declarations, re-exports) are one line of
        // descent, not a circle.
        deps.retain(|d| !module.starts_with(d) && !d.starts_with(module));
        graph.insert(module.clone(), deps);
    }
    graph
}

/// The strongly connected components with more than one module (Tarjan).
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Vec<String>) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let Some((w, _)) = self.graph.get_key_value(w) else {
                    continue;
                };
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.join("::"));
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn modules_import_each_other_without_circles() {
    let graph = import_graph();
    // The reader sees imports at all: the sheet screen uses the domain's sheet.
    let sheet_ui = vec!["ui".to_string(), "sheet".to_string()];
    assert!(graph[&sheet_ui].contains(&vec!["domain".to_string(), "sheet".to_string()]));
    assert_eq!(circles(&graph), Vec::<Vec<String>>::new());
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let m = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    let mut g = BTreeMap::new();
    g.insert(m("a::x"), BTreeSet::from([m("a::y")]));
    g.insert(m("a::y"), BTreeSet::from([m("b")]));
    g.insert(m("b"), BTreeSet::from([m("a::x")]));
    g.insert(m("c"), BTreeSet::from([m("b")]));
    assert_eq!(circles(&g), vec![vec!["a::x", "a::y", "b"]]);
}

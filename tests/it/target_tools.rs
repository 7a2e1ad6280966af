//! Every export of every target, read back by the target's own tool (issue 16, "valid output,
//! checked by the real tools"): for the worked example, the files in `examples/sheets`,
//! variants of the wait strategy, load numbers, a batch, a ticket, retry layers with the queue's retention,
//! and sheets whose every text is hostile, `queues::report` runs for every target × format ×
//! language; each text it gives is written to a file and read by
//!
//! | file | tool |
//! |---|---|
//! | `.py` | python3 `ast.parse` + `compile` (nothing runs) |
//! | `.rb` | Ruby's parser (`RubyVM::AbstractSyntaxTree`, also for the string literals); `ruby -c` for a few sheets |
//! | `.mjs` | V8's module parser (`vm.SourceTextModule`, what `node --check` runs; `node --check` itself for a few sheets) and TypeScript's parser |
//! | `.ts` | the TypeScript compiler's syntactic diagnostics (the target libraries are not installed, so no type check) |
//! | `.go` | `gofmt -e`, and Go's parser (`go run tests/tools/check_go.go`) for the string literals |
//! | `.exs` | elixir `Code.string_to_quoted!` |
//! | `.yaml` | PyYAML `safe_load_all`; CloudFormation also cfn-lint (rules `E*` fail) for a few sheets |
//! | `.tf` | python-hcl2, plus the HCL string rules it lets through |
//! | `.sql` | SQLite prepares every statement (running the schema); the SQL target's own test runs them on SQLite and PostgreSQL |
//!
//! The tools come from `scripts/install-tools.sh`; a missing one fails the test. One run of
//! the tools (one process per tool; `ruby -c` and `node --check` per file) serves the four tests below; the
//! helper scripts are in `tests/tools/`.

mod sheets;
mod tools;

use modality_advisor::domain::queues::{report, text, Format, TargetError, TargetId};
use modality_advisor::domain::Lang;
use sheets::{Case, MARK};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tools::{checkers, Said};

/// One export written to a file.
struct Export {
    /// The case, target, format and language, for messages.
    label: String,
    /// The index of its [`Case`].
    case: usize,
    target: TargetId,
    path: PathBuf,
}

/// The outcomes of `report` for one target and format.
#[derive(Debug, Default)]
struct Tally {
    ok: u32,
    not_applicable: u32,
    out_of_range: u32,
}

/// Everything the tests look at, built once.
struct Run {
    cases: Vec<Case>,
    exports: Vec<Export>,
    /// Per (target, format name).
    tally: BTreeMap<(TargetId, &'static str), Tally>,
    /// `report` errors that should not happen (an unknown format).
    unexpected: Vec<String>,
    /// The harness's own samples, each (path, must the tools accept it).
    samples: Vec<(PathBuf, bool)>,
    said: Said,
}

/// A file name suffix per format, choosing the tools (see [`tools::checkers`]). The tools that
/// take one file per process (`ruby -c`, `node --check`) and cfn-lint (about a second a
/// template) read the thorough sheets in English; the in-process parsers read everything.
fn suffix(target: TargetId, format: Format, thorough: bool, lang: Lang) -> &'static str {
    let thorough = thorough && lang == Lang::En;
    match (format, target) {
        (Format::CloudFormation, _) if thorough => "cfnlint.yaml",
        (Format::CloudFormation, _) => "cfn.yaml",
        (Format::JavaScript, _) if thorough => "check.mjs",
        (Format::Ruby, _) if thorough => "check.rb",
        (Format::Sql, TargetId::SqlSqlite) => "sqlite.sql",
        (Format::Sql, _) => "pg.sql",
        (f, _) => f.extension(),
    }
}

/// The harness's own samples: for every tool, a file it must accept and one it must refuse
/// (so a tool that reads nothing, or a check that cannot fail, shows).
const SAMPLES: [(&str, &str, bool); 24] = [
    ("good.py", "x = 1\n", true),
    ("bad.py", "def f(:\n", false),
    ("good.yaml", "a: 1\n", true),
    ("bad.yaml", "a: [1\n", false),
    ("good.tf", "a = \"x\"\n", true),
    ("bad.tf", "a = \"x\ny\"\n", false),
    (
        "good.cfnlint.yaml",
        "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 30\n",
        true,
    ),
    (
        "bad.cfnlint.yaml",
        "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 50000\n",
        false,
    ),
    ("good.check.rb", "x = 'a'\n", true),
    ("bad.check.rb", "def f(\n", false),
    ("bad.rb", "x = 'a\n", false),
    ("good.ts", "const x: number = 1;\n", true),
    ("bad.ts", "const x: = 1;\n", false),
    ("good.check.mjs", "export const x = 1;\n", true),
    ("bad.mjs", "export const x = 1 +;\n", false),
    ("bad.check.mjs", "export const x = ;\n", false),
    ("good.go", "package p\n", true),
    ("bad.go", "package p\nfunc {\n", false),
    ("good.exs", "x = 1\n", true),
    ("bad.exs", "x = \"\n", false),
    ("good.sqlite.sql", "CREATE TABLE t (x);\n", true),
    ("bad.sqlite.sql", "CREATE TABLE (;\n", false),
    ("good.cfn.yaml", "Resources: !Ref X\n", true),
    ("bad.cfn.yaml", "Resources: [\n", false),
];

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn build() -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("target-tools");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("samples")).expect("the scratch directory");
    let mut samples = Vec::new();
    for (name, body, good) in SAMPLES {
        let path = dir.join("samples").join(name);
        write(&path, body);
        samples.push((path, good));
    }
    let cases = sheets::cases();
    let mut exports = Vec::new();
    let mut tally: BTreeMap<(TargetId, &'static str), Tally> = BTreeMap::new();
    let mut unexpected = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        for target in TargetId::ALL {
            for &format in target.formats() {
                for lang in [Lang::En, Lang::Ja] {
                    let label = format!(
                        "{} → {} {} ({lang:?})",
                        case.name,
                        target.name(),
                        format.name()
                    );
                    let t = tally.entry((target, format.name())).or_default();
                    match report(&case.sheet, target, Some(format), lang) {
                        Ok(r) => {
                            t.ok += 1;
                            let n = exports.len();
                            let ext = suffix(target, format, case.thorough, lang);
                            let path = dir.join(format!("{n:04}.{}.{ext}", target.name()));
                            write(&path, &r.built.text);
                            exports.push(Export {
                                label,
                                case: i,
                                target,
                                path,
                            });
                        }
                        Err(TargetError::NotApplicable { .. }) => t.not_applicable += 1,
                        Err(TargetError::OutOfRange { .. }) => t.out_of_range += 1,
                        Err(e) => unexpected.push(format!("{label}: {}", e.message(Lang::En))),
                    }
                }
            }
        }
    }
    let mut files: Vec<PathBuf> = samples.iter().map(|(p, _)| p.clone()).collect();
    files.extend(exports.iter().map(|e| e.path.clone()));
    let said = tools::run_all(&files, MARK);
    Run {
        cases,
        exports,
        tally,
        unexpected,
        samples,
        said,
    }
}

fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(build)
}

/// At most `n` characters of `s`, for messages (hostile texts run to 2 000 characters).
fn short(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    format!("{out:?}")
}

/// How a string literal holding a field's marker holds the field's text.
enum Reading {
    /// The whole text, or the text without its leading and trailing spaces.
    Whole,
    /// As a comment shows it ([`text::comment`]: line breaks and controls as spaces), or cut
    /// to a length limit at the literal's end (at least [`MIN_KEPT`] characters kept, `…` may
    /// follow).
    Allowed,
    /// Anything else: where it departs from the sheet's text.
    Changed(String),
}

/// The fewest characters a text cut to a target's length limit keeps: an escaping fault
/// cuts at the first troublesome character, within the first few.
const MIN_KEPT: usize = 100;

fn reading(literal: &str, whole: &str, tag: &str) -> Reading {
    if literal.contains(whole) || literal.contains(whole.trim()) {
        return Reading::Whole;
    }
    let shown = text::comment(whole);
    if literal.contains(&shown) || literal.contains(shown.trim()) {
        return Reading::Allowed;
    }
    let marker = format!("⟪{tag}⟫");
    let whole = whole.trim();
    if let (Some(l), Some(w)) = (literal.find(&marker), whole.find(&marker)) {
        let tail = literal[l..].trim_end_matches('…').trim_end_matches("...");
        let head = &whole[..w];
        if literal[..l].ends_with(head)
            && whole[w..].starts_with(tail)
            && (head.chars().count() + tail.chars().count()) >= MIN_KEPT
        {
            return Reading::Allowed;
        }
    }
    Reading::Changed(first_difference(literal, whole, &marker))
}

/// Where `literal` first departs from the sheet's text `whole`, aligned on their `marker`:
/// the character index in the sheet's text and a few characters of each around it.
fn first_difference(literal: &str, whole: &str, marker: &str) -> String {
    let (Some(l), Some(w)) = (literal.find(marker), whole.find(marker)) else {
        return format!("{} (the sheet's: {})", short(literal, 80), short(whole, 80));
    };
    let lit: Vec<char> = literal[..l].chars().rev().collect();
    let sheet: Vec<char> = whole[..w].chars().rev().collect();
    // Before the marker, compared backwards; after it, forwards.
    let before = lit.iter().zip(&sheet).take_while(|(a, b)| a == b).count();
    if before < sheet.len() {
        let at = sheet.len() - before;
        let got: String = lit[before.saturating_sub(0)..]
            .iter()
            .take(12)
            .rev()
            .collect();
        let want: String = sheet[before..].iter().take(12).rev().collect();
        return format!(
            "before the marker, sheet character {at}: …{got:?} where the sheet has …{want:?}"
        );
    }
    let lit: Vec<char> = literal[l..].chars().collect();
    let sheet: Vec<char> = whole[w..].chars().collect();
    let same = lit.iter().zip(&sheet).take_while(|(a, b)| a == b).count();
    let at = whole[..w].chars().count() + same;
    let got: String = lit[same..].iter().take(24).collect();
    let want: String = sheet[same..].iter().take(24).collect();
    format!(
        "from sheet character {at} of {}: {got:?}… where the sheet has {want:?}…",
        whole.chars().count()
    )
}

fn fail_if_any(what: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{what}: {} problem(s)\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_export_reads_back_with_its_targets_own_tool() {
    let run = run();
    let said = &run.said;
    let mut problems: Vec<String> = said.broken.clone();
    problems.dedup();
    problems.extend(run.unexpected.iter().cloned());
    let errors_of = |p: &Path| -> Vec<&String> {
        said.errors
            .iter()
            .filter(|(q, _)| q == p)
            .map(|(_, e)| e)
            .collect()
    };
    for (path, good) in &run.samples {
        let errors = errors_of(path);
        let ok = said.ok.get(path).copied().unwrap_or(0);
        let expected = checkers(&path.to_string_lossy()).len();
        if *good && (!errors.is_empty() || ok < expected) {
            problems.push(format!(
                "the harness's good sample {} was refused: {errors:?}",
                path.display()
            ));
        }
        if !good && errors.is_empty() {
            problems.push(format!(
                "the harness's broken sample {} was accepted: the tool does not check",
                path.display()
            ));
        }
    }
    for e in &run.exports {
        let errors = errors_of(&e.path);
        for err in errors.iter().take(2) {
            problems.push(format!(
                "{} [{}]: {}",
                e.label,
                e.path.display(),
                short(err, 600)
            ));
        }
        if errors.len() > 2 {
            problems.push(format!("{}: and {} more errors", e.label, errors.len() - 2));
        }
        let ok = said.ok.get(&e.path).copied().unwrap_or(0);
        let expected = checkers(&e.path.to_string_lossy()).len();
        if errors.is_empty() && ok < expected {
            problems.push(format!(
                "{} [{}]: read by {ok} of its {expected} tools",
                e.label,
                e.path.display()
            ));
        }
    }
    for (path, w) in &said.warnings {
        if let Some(e) = run.exports.iter().find(|e| &e.path == path) {
            eprintln!("warning: {}: {}", e.label, short(w, 300));
        }
    }
    eprintln!(
        "{} exports read by their tools ({} files in {})",
        run.exports.len(),
        run.exports.len() + run.samples.len(),
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("target-tools")
            .display()
    );
    fail_if_any("exports the target's own tool refuses", &problems);
}

/// The file types whose tools read string literals back (SQL: syntax only).
const LITERAL_SUFFIXES: [&str; 8] = [".py", ".yaml", ".tf", ".rb", ".ts", ".mjs", ".exs", ".go"];

#[test]
fn hostile_text_survives_in_string_literals() {
    let run = run();
    let by_path: HashMap<&Path, &Export> =
        run.exports.iter().map(|e| (e.path.as_path(), e)).collect();
    let mut problems = Vec::new();
    // Per export: the fields whose whole text a string literal holds.
    let mut kept: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (path, literal) in &run.said.literals {
        let Some(e) = by_path.get(path.as_path()) else {
            continue;
        };
        for (tag, whole) in &run.cases[e.case].hostile {
            if !literal.contains(&format!("⟪{tag}⟫")) {
                continue;
            }
            match reading(literal, whole, tag) {
                Reading::Whole => kept.entry(&e.label).or_default().push(tag),
                Reading::Allowed => {}
                Reading::Changed(how) => problems.push(format!(
                    "{} [{}]: the {tag} text is changed in a string literal: {how}",
                    e.label,
                    path.display(),
                )),
            }
        }
    }
    let hostile: Vec<&Export> = run
        .exports
        .iter()
        .filter(|e| !run.cases[e.case].hostile.is_empty())
        .filter(|e| {
            let name = e.path.to_string_lossy();
            LITERAL_SUFFIXES.iter().any(|s| name.ends_with(s))
        })
        .collect();
    for target in TargetId::ALL {
        let mine: Vec<&&Export> = hostile.iter().filter(|e| e.target == target).collect();
        let fields: BTreeMap<&str, usize> = mine
            .iter()
            .flat_map(|e| kept.get(e.label.as_str()).into_iter().flatten())
            .fold(BTreeMap::new(), |mut m, tag| {
                *m.entry(*tag).or_default() += 1;
                m
            });
        eprintln!(
            "{}: {} hostile exports; texts kept whole in literals: {fields:?}",
            target.name(),
            mine.len()
        );
    }
    let process_name_kept = kept.values().any(|tags| tags.contains(&"process-name"));
    if !hostile.is_empty() && !process_name_kept {
        problems.push(format!(
            "no export of the {} hostile sheets' exports holds the process name whole in a \
             string literal: escaping drops or changes it",
            hostile.len()
        ));
    }
    fail_if_any("hostile text changed by an export", &problems);
}

#[test]
fn every_target_and_format_exports_some_sheet() {
    let run = run();
    let mut problems = Vec::new();
    eprintln!(
        "target / format: ok, not applicable, out of range (of {} sheets × 2 languages)",
        run.cases.len()
    );
    for target in TargetId::ALL {
        for format in target.formats() {
            let t = run.tally.get(&(target, format.name()));
            let (ok, na, oor) = t.map_or((0, 0, 0), |t| (t.ok, t.not_applicable, t.out_of_range));
            eprintln!("{} / {}: {ok}, {na}, {oor}", target.name(), format.name());
            if ok == 0 {
                problems.push(format!(
                    "{} ({}) exported none of the {} sheets as {} (in either language): {na} \
                     reports not applicable, {oor} out of range, so no tool read its output",
                    target.name(),
                    target.label(),
                    run.cases.len(),
                    format.name(),
                ));
            }
        }
    }
    fail_if_any("targets that exported nothing", &problems);
}

/// The sheets with load numbers reach the tools with the knobs in them: every target and
/// format exports each of them (none refused), and every such export carries the load line
/// of its header comment (`Load:` / `負荷:`), so the tools above read the knobs' code too.
#[test]
fn the_load_sheets_reach_every_target_with_their_knobs() {
    let run = run();
    let mut problems = Vec::new();
    let load: Vec<&Export> = run
        .exports
        .iter()
        .filter(|e| run.cases[e.case].name.starts_with("load"))
        .collect();
    for e in &load {
        let text = std::fs::read_to_string(&e.path).expect("the export was written");
        if !text.contains("Load: ") && !text.contains("負荷: ") {
            problems.push(format!("{}: no load line", e.label));
        }
    }
    for target in TargetId::ALL {
        for format in target.formats() {
            let wanted = format!("→ {} {} (", target.name(), format.name());
            if !load.iter().any(|e| e.label.contains(&wanted)) {
                problems.push(format!("{wanted}: no load sheet exported"));
            }
        }
    }
    fail_if_any("load sheets without their knobs", &problems);
}

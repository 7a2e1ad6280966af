//! `modality-advisor check PATH…`: the sheets gate for CI. Reads sheet files (schema 1 to 3)
//! and catalog files, and directories of them, and reports every finding of the sheet checks
//! ([`validate`], the daylight-saving findings) and of the catalog's links, each under its
//! stable rule id ([`crate::domain::rules`]) with the file, line and column of the field it is
//! about, as text, JSON, SARIF 2.1.0, GitHub workflow commands or JUnit XML.
//!
//! ```text
//! modality-advisor check sheets/ system.catalog.json
//! modality-advisor check sheets/ --format sarif --fail-level none > check.sarif
//! modality-advisor check sheets/ --format github --fail-level warning
//! ```
//!
//! Exit codes: 0 nothing at or above `--fail-level`; 1 a finding at or above it; 2 an input
//! that cannot be read (missing, not UTF-8, too large, not JSON, not a sheet or catalog when
//! named, or a sheet the importer refuses: the message names the file, line and column) or bad
//! usage.

pub(crate) mod github;
pub(crate) mod junit;
pub(crate) mod position;
pub(crate) mod sarif;
pub(crate) mod text;

use super::{lang_of, LangArg};
use crate::domain::catalog::check::read_catalog;
use crate::domain::rules::{json_path, rule_of, Rule};
use crate::domain::sheet::check::{validate, Finding, Severity};
use crate::domain::sheet::dst::dst_findings;
use crate::domain::sheet::import::{import_json, ImportError};
use crate::domain::Lang;
use clap::{Args, ValueEnum};
use position::PositionIndex;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Output format of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// One line per finding, `FILE:LINE:COLUMN: severity [rule] message`, then a summary.
    Text,
    /// `check`: `{"findings": [{"rule", "severity", "message", "file", "line", "column"}, …]}`;
    /// `audit`: `{"jobs": [{"file", "line", "system", "sheet", "schedule", "findings",
    /// "unresolved", …}]}` (schemas: docs/schemas/).
    Json,
    /// SARIF 2.1.0 (GitHub code scanning, GitLab, Azure DevOps).
    Sarif,
    /// GitHub Actions workflow commands (annotations) and a step summary.
    Github,
    /// JUnit XML: a test suite per file, a test case per rule checked.
    Junit,
}

/// From which severity findings fail the run (exit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailLevel {
    /// Errors fail the run; warnings are reported only.
    Error,
    /// Errors and warnings fail the run.
    Warning,
    /// Nothing fails the run (exit 0 unless an input cannot be read).
    None,
}

impl FailLevel {
    /// True when a finding of `severity` fails the run.
    pub fn fails(self, severity: Severity) -> bool {
        match self {
            FailLevel::Error => severity == Severity::Error,
            FailLevel::Warning => true,
            FailLevel::None => false,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FailLevel::Error => "error",
            FailLevel::Warning => "warning",
            FailLevel::None => "none",
        }
    }
}

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Sheet files, catalog files, or directories (walked for *.json files that are sheets
    /// or catalogs; hidden directories, node_modules and target are left out).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    /// Exit 1 when a finding at or above this severity is found.
    #[arg(long, value_enum, default_value = "error")]
    fail_level: FailLevel,
    /// Language of the messages, titles and help texts.
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    /// Where docs/FINDINGS.md is published (SARIF's helpUri points at each rule's anchor in
    /// it); default: the repository this build names, if any.
    #[arg(long, value_name = "URL")]
    docs_url: Option<String>,
}

/// The largest file `check` reads (a catalog of 200 whole sheets is well under 2 MB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One finding, placed in its file.
#[derive(Debug, Clone)]
pub struct Item {
    /// The rule.
    pub rule: &'static Rule,
    /// The finding's own severity (some rules report a warning in milder cases).
    pub severity: Severity,
    /// The message with the numbers that triggered it, in the language asked for.
    pub message: String,
    /// The file, as named on the command line or found in a directory.
    pub file: String,
    /// The JSON path of the field (`processes[1].sheet.retry.lease_ms`).
    pub field: String,
    /// Where the field (or the nearest part of it the file has) is.
    pub at: position::Position,
}

/// A file that could not be read or checked (exit 2).
#[derive(Debug, Clone)]
pub struct Problem {
    /// The file.
    pub file: String,
    /// Where in it, when known.
    pub line: Option<usize>,
    /// The column, when known.
    pub column: Option<usize>,
    /// Why, in the language asked for.
    pub message: String,
}

/// A checked file: its name and its findings.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The file.
    pub file: String,
    /// Whether it was a catalog (its rules include the links').
    pub catalog: bool,
    /// Its findings, in the file's order.
    pub items: Vec<Item>,
    /// For `audit`: the rules it evaluated for the file's jobs and those it could not
    /// check (`None`: `check`, every rule of the file's kind).
    pub audit: Option<AuditScope>,
}

/// What `audit` checked in one file: only these rules are JUnit test cases.
#[derive(Debug, Clone, Default)]
pub struct AuditScope {
    /// The rule ids evaluated for at least one of the file's jobs.
    pub evaluated: Vec<String>,
    /// The rules not checked, with where and why: (rule id, line, message).
    pub unchecked: Vec<(String, usize, String)>,
    /// Each job's own outcomes (JUnit: one test case per rule × job).
    pub jobs: Vec<JobScope>,
}

/// What `audit` checked for one job of a file.
#[derive(Debug, Clone, Default)]
pub struct JobScope {
    /// The job's name, as the file writes it.
    pub name: String,
    /// Where the job starts.
    pub line: usize,
    /// The rule ids evaluated for it.
    pub evaluated: Vec<String>,
    /// The rules not checked for it: (rule id, message).
    pub unchecked: Vec<(String, String)>,
    /// Its findings.
    pub items: Vec<Item>,
}

/// Everything one run found.
#[derive(Debug, Default)]
pub struct Report {
    /// The files checked, in the order found.
    pub checked: Vec<Checked>,
    /// The files that could not be read.
    pub problems: Vec<Problem>,
    /// Files and directories left out, with why.
    pub skipped: Vec<(String, String)>,
}

impl Report {
    /// Every finding, file by file.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.checked.iter().flat_map(|c| c.items.iter())
    }

    /// How many findings of `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.items().filter(|i| i.severity == severity).count()
    }
}

/// What an output needs besides the report.
pub struct Options {
    /// The language of the texts.
    pub lang: Lang,
    /// The fail level.
    pub fail_level: FailLevel,
    /// The published docs/FINDINGS.md, if known.
    pub docs_url: Option<String>,
    /// The command reporting (`check` or `audit`): the annotations' title, JUnit's suites
    /// name, and, for `audit`, its own rules ([`crate::domain::rules::AUDIT_RULES`]) in
    /// SARIF's and JUnit's rule lists.
    pub command: &'static str,
}

/// `check`: read every path, check, print in the format asked, and exit 0, 1 or 2.
pub fn run(args: &CheckArgs) -> ExitCode {
    let lang = lang_of(args.lang);
    let report = gather(&args.paths, lang);
    let options = Options {
        lang,
        fail_level: args.fail_level,
        docs_url: args.docs_url.clone().or_else(default_docs_url),
        command: "check",
    };
    if report.checked.is_empty() && report.problems.is_empty() {
        let shown: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "error: {}",
            crate::text::t!(
                "cli.check.nothing",
                locale = lang.code(),
                paths = shown.join(", ")
            )
        );
        return ExitCode::from(2);
    }
    let out = match args.format {
        CheckFormat::Text => text::text(&report, &options),
        CheckFormat::Json => text::json(&report, &options),
        CheckFormat::Sarif => sarif::sarif(&report, &options),
        CheckFormat::Github => github::github(&report, &options),
        CheckFormat::Junit => junit::junit(&report, &options),
    };
    if args.format != CheckFormat::Text && args.format != CheckFormat::Github {
        // The document goes to a file; say on the terminal why the run exits 2.
        for p in &report.problems {
            eprintln!("error: {}", text::problem_line(p));
        }
    }
    if let Err(msg) = super::write_output(None, &out) {
        eprintln!("error: {msg}");
        return ExitCode::from(2);
    }
    ExitCode::from(exit_code(&report, args.fail_level))
}

/// The run's one-line summary (files, errors, warnings, unreadable, the fail level and the exit
/// code) in the run's language, as the text report and GitHub's step summary end.
pub fn summary_line(report: &Report, o: &Options) -> String {
    crate::text::t!(
        "cli.check.summary",
        locale = o.lang.code(),
        files = report.checked.len(),
        errors = report.count(Severity::Error),
        warnings = report.count(Severity::Warning),
        unreadable = report.problems.len(),
        level = o.fail_level.name(),
        code = exit_code(report, o.fail_level)
    )
    .into_owned()
}

/// 2 when an input could not be read, else 1 when a finding is at or above `level`, else 0.
pub fn exit_code(report: &Report, level: FailLevel) -> u8 {
    if !report.problems.is_empty() {
        2
    } else if report.items().any(|i| level.fails(i.severity)) {
        1
    } else {
        0
    }
}

/// The published findings page of the repository this build names (Cargo.toml's
/// `repository`), at this version's tag; `None` when the build names none.
pub(crate) fn default_docs_url() -> Option<String> {
    let repo = option_env!("CARGO_PKG_REPOSITORY").filter(|r| !r.is_empty())?;
    Some(format!(
        "{}/blob/v{}/docs/FINDINGS.md",
        repo.trim_end_matches('/'),
        env!("CARGO_PKG_VERSION")
    ))
}

/// Directories a walk leaves out: hidden ones (`.git`), dependencies and build output.
fn left_out_dir(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules" || name == "target"
}

/// Reads and checks every path: files as named, directories walked (sorted by name).
fn gather(paths: &[PathBuf], lang: Lang) -> Report {
    let mut report = Report::default();
    for path in paths {
        if path.is_dir() {
            walk(path, lang, &mut report);
        } else {
            check_file(path, true, lang, &mut report);
        }
    }
    report
}

fn walk(dir: &Path, lang: Lang, report: &mut Report) {
    let l = lang.code();
    let mut it = walkdir::WalkDir::new(dir).sort_by_file_name().into_iter();
    while let Some(entry) = it.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let file = e
                    .path()
                    .map_or_else(|| dir.display().to_string(), |p| p.display().to_string());
                report.problems.push(Problem {
                    file,
                    line: None,
                    column: None,
                    message: crate::text::t!("cli.check.unreadable", locale = l, reason = e)
                        .into_owned(),
                });
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy();
        if entry.file_type().is_dir() {
            if entry.depth() > 0 && left_out_dir(&name) {
                report.skipped.push((
                    format!("{}/", entry.path().display()),
                    crate::text::t!("cli.check.skip-dir", locale = l).into_owned(),
                ));
                it.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_file() && name.ends_with(".json") {
            check_file(entry.path(), false, lang, report);
        }
    }
}

/// What a JSON file is, by its version field.
enum Kind {
    Sheet,
    Catalog,
}

/// Reads one file and checks it. A file named on the command line, or named `*.sheet.json` /
/// `*.catalog.json`, must be a sheet or catalog (else exit 2); another `*.json` found in a
/// directory that is not one is skipped, with why.
fn check_file(path: &Path, named: bool, lang: Lang, report: &mut Report) {
    let l = lang.code();
    let file = path.display().to_string();
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let must = named
        || file_name
            .as_deref()
            .is_some_and(|n| n.ends_with(".sheet.json") || n.ends_with(".catalog.json"));
    let problem = |message: String, line: Option<usize>, column: Option<usize>| Problem {
        file: file.clone(),
        line,
        column,
        message,
    };
    let raw = match read_limited(path) {
        Ok(text) => text,
        Err(reason) => {
            let message = crate::text::t!("cli.check.unreadable", locale = l, reason = reason);
            report
                .problems
                .push(problem(message.into_owned(), None, None));
            return;
        }
    };
    let text = raw.strip_prefix('\u{feff}').unwrap_or(&raw);
    let kind = match crate::domain::sheet::import::file_value(text) {
        Ok(v) if v.get("catalog_version").is_some() => Some(Kind::Catalog),
        Ok(v) if v.get("schema_version").is_some() => Some(Kind::Sheet),
        Ok(_) => None,
        // The position once, from the reader (1-based; serde_json's own "at line … column 0"
        // for an error at a line's end is left out of the message).
        Err(err @ ImportError::InvalidJson { line, column, .. }) if must => {
            report
                .problems
                .push(problem(err.message(lang), Some(line), Some(column)));
            return;
        }
        Err(ImportError::InvalidJson { line, column, .. }) => {
            let reason = crate::text::t!(
                "cli.check.skip-not-json",
                locale = l,
                line = line,
                column = column
            );
            report.skipped.push((file, reason.into_owned()));
            return;
        }
        // An empty file in a folder checked is no sheet: passed over, as other JSON is.
        Err(ImportError::NotASheet { .. }) if !must => {
            let reason = crate::text::t!("cli.check.skip-not-sheet", locale = l).into_owned();
            report.skipped.push((file, reason));
            return;
        }
        Err(err) => {
            report
                .problems
                .push(problem(err.message(lang), Some(1), Some(1)));
            return;
        }
    };
    let index = PositionIndex::new(text);
    let checked = match kind {
        Some(Kind::Sheet) => check_sheet(text, &file, &index, lang),
        Some(Kind::Catalog) => check_catalog(text, &file, &index, lang),
        None => {
            let reason = crate::text::t!("cli.check.skip-not-sheet", locale = l).into_owned();
            if must {
                report.problems.push(problem(reason, Some(1), Some(1)));
            } else {
                report.skipped.push((file, reason));
            }
            return;
        }
    };
    match checked {
        Ok(c) => report.checked.push(c),
        Err(p) => report.problems.push(p),
    }
}

/// The file's text, refused when larger than [`MAX_FILE_BYTES`] or not UTF-8.
fn read_limited(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{} bytes; allowed: at most {MAX_FILE_BYTES}",
            meta.len()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// An importer's refusal as a problem at the field's place.
fn import_problem(e: &ImportError, file: &str, index: &PositionIndex, lang: Lang) -> Problem {
    let (line, column) = match e {
        ImportError::InvalidJson { line, column, .. } => (*line, *column),
        ImportError::NotASheet { .. } => (1, 1),
        ImportError::SchemaVersion { .. } => {
            let p = index.locate("schema_version");
            (p.line, p.column)
        }
        ImportError::Field { path, .. }
        | ImportError::OutOfRange { path, .. }
        | ImportError::Inconsistent { path, .. } => {
            let p = index.locate(path);
            (p.line, p.column)
        }
    };
    Problem {
        file: file.to_owned(),
        line: Some(line),
        column: Some(column),
        message: e.message(lang),
    }
}

/// The findings of one sheet, its fields' paths under `prefix` (`""`, or
/// `processes[2].sheet.` in a catalog).
fn sheet_items(
    findings: Vec<Finding>,
    prefix: &str,
    file: &str,
    index: &PositionIndex,
) -> Vec<Item> {
    findings
        .into_iter()
        .filter_map(|f| {
            let rule = rule_of(f.code)?;
            let field = format!("{prefix}{}", json_path(&f).unwrap_or_default());
            Some(Item {
                rule,
                severity: f.severity,
                message: f.message,
                file: file.to_owned(),
                at: index.locate(&field),
                field,
            })
        })
        .collect()
}

fn check_sheet(
    text: &str,
    file: &str,
    index: &PositionIndex,
    lang: Lang,
) -> Result<Checked, Problem> {
    let sheet = import_json(text, lang).map_err(|e| import_problem(&e, file, index, lang))?;
    let mut findings = validate(&sheet, lang);
    findings.extend(dst_findings(&sheet, lang, super::targets::now_ms()));
    let mut items = sheet_items(findings, "", file, index);
    items.sort_by_key(|i| (i.at.line, i.at.column));
    Ok(Checked {
        file: file.to_owned(),
        catalog: false,
        items,
        audit: None,
    })
}

fn check_catalog(
    text: &str,
    file: &str,
    index: &PositionIndex,
    lang: Lang,
) -> Result<Checked, Problem> {
    let catalog = read_catalog(text).map_err(|e| import_problem(&e, file, index, lang))?;
    let now = super::targets::now_ms();
    let mut items = Vec::new();
    for (i, p) in catalog.processes.iter().enumerate() {
        if let Some(sheet) = &p.sheet {
            let mut findings = validate(sheet, lang);
            findings.extend(dst_findings(sheet, lang, now));
            items.extend(sheet_items(
                findings,
                &format!("processes[{i}].sheet."),
                file,
                index,
            ));
        }
    }
    for f in crate::domain::catalog::system::findings(&catalog, lang) {
        let Some(rule) = rule_of(f.code) else {
            continue;
        };
        let i = catalog
            .processes
            .iter()
            .position(|p| p.id == f.process)
            .unwrap_or_default();
        let field = format!("processes[{i}].links[{}]", f.link);
        items.push(Item {
            rule,
            severity: rule.severity,
            message: f.message,
            file: file.to_owned(),
            at: index.locate(&field),
            field,
        });
    }
    items.sort_by_key(|i| (i.at.line, i.at.column));
    Ok(Checked {
        file: file.to_owned(),
        catalog: true,
        items,
        audit: None,
    })
}

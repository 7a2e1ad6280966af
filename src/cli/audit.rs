//! `modality-advisor audit FILE…`: existing queue configurations read back
//! ([`crate::domain::audit`]). Per job found: the sheet (what the file states; the rest "not
//! stated" with the system's default), the schedule the system really runs, the findings at
//! the file's lines and the settings not resolved. Text and JSON are audit's own; SARIF,
//! GitHub annotations and JUnit are `check`'s writers, with audit's rules added.
//!
//! ```text
//! modality-advisor audit infra/queues.tf k8s/nightly.yaml
//! modality-advisor audit template.yaml --format sarif --fail-level none > audit.sarif
//! ```
//!
//! Each job is audited for the release of its system the project pins (issue 27 item 3,
//! [`crate::domain::audit::pins`]): a lock or requirement file given on the command line
//! (context, not a configuration), else the nearest one next to the configuration or in a
//! folder above it, up to the repository's root (a folder holding `.git`). `--target-version
//! TARGET=VERSION` wins over a pin; with neither, the newest release followed is assumed and
//! the job says how to choose.
//!
//! Exit codes as `check`: 0 nothing at or above `--fail-level`; 1 a finding at or above it;
//! 2 a file that cannot be read (missing, over 5 MiB, binary, a syntax error, a YAML bomb,
//! not a configuration the audit can read, or no queue or job in it) or bad usage.

use super::check::position::Position;
use super::check::text::{problem_line, severity_id, severity_word};
use super::check::{
    self, AuditScope, CheckFormat, Checked, FailLevel, Item, JobScope, Options, Problem, Report,
};
use super::{lang_of, LangArg};
use crate::domain::audit::found::{ReadError, MAX_FILE_BYTES};
use crate::domain::audit::job_version::Asker;
use crate::domain::audit::pins::{self, Pin};
use crate::domain::audit::unchecked::unknown_in;
use crate::domain::audit::{audit_job_for, read_bytes, AuditJob, FileKind};
use crate::domain::duration::human;
use crate::domain::queues::TargetVersion;
use crate::domain::rules::rule_of;
use crate::domain::sheet::check::Severity;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::Lang;
use crate::text::t;
use clap::Args;
use serde_json::json;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Configuration files: Terraform (*.tf), CloudFormation templates (YAML or JSON),
    /// Kubernetes manifests, Cloud Tasks queues (YAML or JSON), queue code. Lock and
    /// requirement files (Gemfile.lock, requirements*.txt, package.json, package-lock.json,
    /// mix.lock, go.mod, poetry.lock, uv.lock, Pipfile.lock) given here pin the systems'
    /// releases for every configuration. At most 5 MiB each.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The release to audit a system for, as TARGET=VERSION (sidekiq=8, sidekiq=6.2.2-7, sidekiq=7.2.1,
    /// active-job=7.1, active-job=6.1-7.0); repeatable; wins over a lock file's pin.
    #[arg(long, value_name = "TARGET=VERSION", value_parser = super::targets::parse_target_version)]
    target_version: Vec<TargetVersion>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    /// Exit 1 when a finding at or above this severity is found.
    #[arg(long, value_enum, default_value = "error")]
    fail_level: FailLevel,
    /// Language of the messages.
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    /// Where docs/FINDINGS.md is published (SARIF's helpUri).
    #[arg(long, value_name = "URL")]
    docs_url: Option<String>,
}

/// What one run read.
#[derive(Default)]
pub struct Audited {
    /// Every job, file by file.
    pub jobs: Vec<AuditJob>,
    /// The findings in `check`'s shape, for the shared writers.
    pub report: Report,
}

fn kind_name(k: FileKind) -> &'static str {
    match k {
        FileKind::Terraform => "Terraform",
        FileKind::CloudFormation => "CloudFormation",
        FileKind::Kubernetes => "Kubernetes",
        FileKind::CloudTasks => "Cloud Tasks",
        FileKind::Code => "queue code",
    }
}

fn problem(file: &str, e: &ReadError, lang: Lang) -> Problem {
    let at = e.at();
    Problem {
        file: file.to_owned(),
        line: Some(at.map_or(1, |p| p.line as usize)),
        column: Some(at.map_or(1, |p| p.column as usize)),
        message: e.message(lang),
    }
}

/// The job's findings as `check`'s items; a finding about a value the file does not state
/// says so in its message.
fn items(job: &AuditJob, lang: Lang) -> Vec<Item> {
    job.findings
        .iter()
        .filter_map(|f| {
            let rule = rule_of(f.code)?;
            let mut message = f.message.clone();
            if !f.stated {
                let note = t!("audit.text.finding-default", locale = lang.code());
                message = match lang {
                    Lang::En => format!("{message} ({note})"),
                    // Japanese sentences take full-width parentheses, without a space.
                    Lang::Ja => format!("{message}（{note}）"),
                };
            }
            Some(Item {
                rule,
                severity: f.severity,
                message,
                file: job.file.clone(),
                field: f.field.clone(),
                at: Position {
                    line: f.line as usize,
                    column: f.column as usize,
                    found: f.field.clone(),
                    exact: true,
                },
            })
        })
        .collect()
}

/// A file's bytes, refused past [`MAX_FILE_BYTES`] before reading.
fn load(path: &Path) -> Result<Vec<u8>, ReadError> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_FILE_BYTES => Err(ReadError::TooLarge { bytes: m.len() }),
        _ => std::fs::read(path).map_err(|_| ReadError::Unrecognised),
    }
}

/// The pins of the lock or requirement file at `path`, named `file` in the reports.
fn pins_of(path: &Path, file: &str) -> Result<Vec<Pin>, ReadError> {
    let bytes = load(path)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| ReadError::Binary)?;
    pins::read(file, text)
}

/// The deepest folder [`nearby`] climbs from a configuration.
const MAX_CLIMB: usize = 64;

/// The pins of the lock and requirement files next to `config` and in the folders above it,
/// the nearest first, up to the folder holding `.git` or the filesystem's root; each folder
/// read once per run (`seen`). A file there that cannot be read is passed over: it was not
/// asked for.
fn nearby(config: &Path, seen: &mut HashMap<PathBuf, Vec<Pin>>) -> Vec<Pin> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let start = match config.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(mut dir) = start.canonicalize() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for _ in 0..MAX_CLIMB {
        let here = seen.entry(dir.clone()).or_insert_with(|| {
            let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && pins::is_pin_file(&p.to_string_lossy()))
                .collect();
            names.sort();
            names
                .iter()
                .flat_map(|p| {
                    let shown = p.strip_prefix(&cwd).unwrap_or(p).display().to_string();
                    pins_of(p, &shown).unwrap_or_default()
                })
                .collect()
        });
        out.extend(here.iter().cloned());
        if dir.join(".git").exists() {
            break;
        }
        match dir.parent() {
            Some(up) => dir = up.to_path_buf(),
            None => break,
        }
    }
    out
}

/// Reads and audits every file: lock and requirement files as pins for all, the others as
/// configurations, each job for the release `flags` or the pins name.
pub fn gather(files: &[PathBuf], flags: &[TargetVersion], lang: Lang) -> Audited {
    let mut out = Audited::default();
    let mut given: Vec<Pin> = Vec::new();
    for path in files
        .iter()
        .filter(|p| pins::is_pin_file(&p.to_string_lossy()))
    {
        let file = path.display().to_string();
        match pins_of(path, &file) {
            Ok(p) => given.extend(p),
            Err(ReadError::Unrecognised) if !path.is_file() => {
                out.report.problems.push(unreadable(&file, path, lang))
            }
            Err(e) => out.report.problems.push(problem(&file, &e, lang)),
        }
    }
    let mut seen = HashMap::new();
    for path in files
        .iter()
        .filter(|p| !pins::is_pin_file(&p.to_string_lossy()))
    {
        let file = path.display().to_string();
        let bytes = match std::fs::metadata(path) {
            Ok(m) if m.len() > MAX_FILE_BYTES => {
                let e = ReadError::TooLarge { bytes: m.len() };
                out.report.problems.push(problem(&file, &e, lang));
                continue;
            }
            Ok(_) => std::fs::read(path),
            Err(e) => Err(e),
        };
        let Ok(bytes) = bytes else {
            out.report.problems.push(unreadable(&file, path, lang));
            continue;
        };
        match read_bytes(&file, &bytes) {
            Err(e) => out.report.problems.push(problem(&file, &e, lang)),
            Ok((kind, found)) if found.is_empty() => out.report.problems.push(Problem {
                file,
                line: Some(1),
                column: Some(1),
                message: t!(
                    "audit.none-found",
                    locale = lang.code(),
                    kind = kind_name(kind)
                )
                .into_owned(),
            }),
            Ok((_, found)) => {
                let mut pins = given.clone();
                pins.extend(nearby(path, &mut seen));
                let jobs: Vec<AuditJob> = found
                    .iter()
                    .map(|f| {
                        let flag = flags.iter().rev().find(|v| v.target() == f.system);
                        let choice = pins::choose(f.system, flag.copied(), &pins);
                        audit_job_for(&file, f, &choice, Asker::Cli, lang)
                    })
                    .collect();
                let mut checked = Checked {
                    file: file.clone(),
                    catalog: false,
                    items: jobs.iter().flat_map(|j| items(j, lang)).collect(),
                    audit: Some(scope(&jobs, lang)),
                };
                checked.items.sort_by_key(|i| (i.at.line, i.at.column));
                // One setting shared by two jobs (a Worker's limiter, a function consuming two
                // queues) is one finding of the file: said once in SARIF, GitHub's annotations
                // and JUnit's counts; each job's own list keeps it.
                let mut seen: Vec<(usize, usize, &str, String)> = Vec::new();
                checked.items.retain(|i| {
                    let key = (i.at.line, i.at.column, i.rule.code, i.message.clone());
                    let new = !seen.contains(&key);
                    if new {
                        seen.push(key);
                    }
                    new
                });
                out.report.checked.push(checked);
                out.jobs.extend(jobs);
            }
        }
    }
    out
}

/// The rules `audit` evaluated for the jobs of one file, and those it could not check.
fn scope(jobs: &[AuditJob], lang: Lang) -> AuditScope {
    let mut out = AuditScope::default();
    for j in jobs {
        for id in &j.evaluated {
            if !out.evaluated.contains(id) {
                out.evaluated.push(id.clone());
            }
        }
        let mut own = JobScope {
            name: j.name.clone(),
            line: j.line as usize,
            evaluated: j.evaluated.clone(),
            unchecked: Vec::new(),
            items: items(j, lang),
        };
        for u in &j.unchecked {
            let message = t!(
                "audit.text.unchecked",
                locale = lang.code(),
                rule = &u.rule,
                needs = u.needs.join(", ")
            )
            .into_owned();
            out.unchecked
                .push((u.rule.clone(), j.line as usize, message.clone()));
            own.unchecked.push((u.rule.clone(), message));
        }
        out.jobs.push(own);
    }
    out
}

/// "cannot read FILE: why" for a file that is missing or not readable.
fn unreadable(file: &str, path: &Path, lang: Lang) -> Problem {
    let reason = match std::fs::File::open(path) {
        Err(e) => e.to_string(),
        Ok(_) if path.is_dir() => t!("audit.error.folder", locale = lang.code()).into_owned(),
        Ok(_) => t!("audit.error.not-a-file", locale = lang.code()).into_owned(),
    };
    Problem {
        file: file.to_owned(),
        line: None,
        column: None,
        message: t!(
            "audit.error.unreadable",
            locale = lang.code(),
            reason = reason
        )
        .into_owned(),
    }
}

/// `audit`: read, audit, print in the format asked, exit 0, 1 or 2.
pub fn run(args: &AuditArgs) -> ExitCode {
    let lang = lang_of(args.lang);
    let audited = gather(&args.files, &args.target_version, lang);
    let options = Options {
        lang,
        fail_level: args.fail_level,
        docs_url: args.docs_url.clone().or_else(check::default_docs_url),
        command: "audit",
    };
    let report = &audited.report;
    let out = match args.format {
        CheckFormat::Text => text(&audited, &options),
        CheckFormat::Json => json(&audited, &options),
        CheckFormat::Sarif => check::sarif::sarif(report, &options),
        CheckFormat::Github => check::github::github(report, &options),
        CheckFormat::Junit => check::junit::junit(report, &options),
    };
    if !matches!(args.format, CheckFormat::Text | CheckFormat::Github) {
        for p in &report.problems {
            eprintln!("error: {}", problem_line(p));
        }
    }
    if let Err(msg) = super::write_output(None, &out) {
        eprintln!("error: {msg}");
        return ExitCode::from(2);
    }
    ExitCode::from(check::exit_code(report, args.fail_level))
}

/// The sheet's retry and batch facts in the sheet's own words, each with "not stated
/// (default: …)" where so; a field the file sets to a value not resolved shows that, not
/// the default the sheet holds in its place.
fn sheet_lines(job: &AuditJob, lang: Lang, out: &mut String) {
    let l = lang.code();
    let _ = writeln!(out, "  {}", t!("audit.text.sheet", locale = l));
    let mut line = |path: &str, value: String| {
        let unknown = unknown_in(&job.unknown, path);
        if let Some(u) = unknown.first() {
            let needs = format!("{} = {}", u.key, u.expression);
            let said = t!(
                "audit.text.field-unresolved",
                locale = l,
                needs = needs,
                line = u.line
            );
            let _ = writeln!(out, "    {path} = {said}");
            return;
        }
        // The field's own default, then its parts' (`retry.backoff.cap_ms` …).
        let note: String = job
            .not_stated
            .iter()
            .filter(|n| {
                n.path == path
                    || n.path
                        .strip_prefix(path)
                        .is_some_and(|p| p.starts_with('.'))
            })
            .map(|n| {
                let part = n
                    .path
                    .strip_prefix(path)
                    .map_or("", |p| p.trim_start_matches('.'));
                // The value is the default's own words: said once.
                let said = if part.is_empty() && n.default == value {
                    t!("audit.text.not-stated-same", locale = l)
                } else {
                    t!("audit.text.not-stated", locale = l, default = &n.default)
                };
                format!(
                    "  — {part}{}{said}",
                    if part.is_empty() { "" } else { ": " },
                )
            })
            .collect();
        let _ = writeln!(out, "    {path} = {value}{note}");
    };
    if let Some(r) = &job.sheet.retry {
        line("retry.max_attempts", r.max_attempts.to_string());
        line("retry.backoff", describe_backoff(&r.backoff, lang));
        line(
            "retry.attempt_timeout_ms",
            human(r.attempt_timeout_ms, lang),
        );
        line("retry.lease_ms", human(r.lease_ms, lang));
        let keep = r
            .queue_retention_ms
            .or_else(|| job.system.default_queue_retention_ms());
        if let Some(k) = keep {
            line("retry.queue_retention_ms", human(k, lang));
        }
    }
    if let Some(b) = &job.sheet.batch {
        let overlap = b.overlap.text_key();
        let missed = b.missed_run.text_key();
        line("batch.schedule", b.schedule.clone());
        line("batch.time_zone", b.time_zone.clone());
        line("batch.overlap", t!(overlap, locale = l).into_owned());
        line("batch.missed_run", t!(missed, locale = l).into_owned());
        line("batch.run_timeout_ms", human(b.run_timeout_ms, lang));
    }
    if let Some(f) = &job.sheet.failure {
        line("failure.dead_letter", f.dead_letter.clone());
    }
}

/// The text report: per job its header, sheet, schedule, settings not resolved and
/// findings (`FILE:LINE:COLUMN: severity [rule] message`); the unreadable files; a summary.
pub fn text(a: &Audited, o: &Options) -> String {
    let (lang, l) = (o.lang, o.lang.code());
    let mut s = String::new();
    for job in &a.jobs {
        let _ = writeln!(
            s,
            "{}",
            t!(
                "audit.text.job",
                locale = l,
                file = &job.file,
                line = job.line,
                system = job.system.label(),
                name = &job.name
            )
        );
        if !job.version.note.is_empty() {
            let _ = writeln!(s, "  {}", job.version.note);
        }
        sheet_lines(job, lang, &mut s);
        let _ = writeln!(
            s,
            "  {}",
            crate::domain::audit::schedule_line::schedule_line(job, lang)
        );
        for u in &job.unresolved {
            let _ = writeln!(
                s,
                "  {}",
                t!(
                    "audit.text.unresolved",
                    locale = l,
                    key = &u.key,
                    expression = &u.expression,
                    line = u.line
                )
            );
        }
        for u in &job.unchecked {
            let _ = writeln!(
                s,
                "  {}",
                t!(
                    "audit.text.unchecked",
                    locale = l,
                    rule = &u.rule,
                    needs = u.needs.join(", ")
                )
            );
        }
        for i in items(job, lang) {
            let _ = writeln!(
                s,
                "  {}:{}:{}: {} [{}] {}",
                i.file,
                i.at.line,
                i.at.column,
                severity_word(i.severity, lang),
                i.rule.id(),
                i.message
            );
        }
        s.push('\n');
    }
    for p in &a.report.problems {
        let _ = writeln!(
            s,
            "{}",
            t!("audit.text.problem", locale = l, line = problem_line(p))
        );
    }
    let _ = writeln!(s, "{}", summary(a, o));
    s
}

fn summary(a: &Audited, o: &Options) -> String {
    let r = &a.report;
    t!(
        "audit.text.summary",
        locale = o.lang.code(),
        files = r.checked.len(),
        jobs = a.jobs.len(),
        errors = r.count(Severity::Error),
        warnings = r.count(Severity::Warning),
        unreadable = r.problems.len(),
        level = format!("{:?}", o.fail_level).to_lowercase(),
        code = check::exit_code(r, o.fail_level)
    )
    .into_owned()
}

/// The JSON report: `{"jobs": [{"file", "name", "line", "system", "sheet", "not_stated":
/// [{"path", "default"}], "schedule", "findings": [{"rule", "severity", "message", "field",
/// "line", "column", "stated"}], "unresolved": [{"key", "fact", "expression", "line",
/// "column", "path"}], "schedule_unknown": [{"part", "needs", "line"}], "unchecked":
/// [{"rule", "field", "needs"}], "version": {"release", "followed", "from", "pinned", "range", "note"}}],
/// "errors": [{"file", "line", "column", "message"}], "summary": {"files",
/// "jobs", "errors", "warnings", "unreadable", "fail_level", "exit_code"}}` (schema:
/// `docs/schemas/audit.schema.json`).
pub fn json(a: &Audited, o: &Options) -> String {
    let jobs: Vec<_> = a
        .jobs
        .iter()
        .map(|j| {
            let findings: Vec<_> = j
                .findings
                .iter()
                .map(|f| {
                    json!({
                        "rule": rule_of(f.code).map_or_else(|| f.code.to_owned(), |r| r.id()),
                        "severity": severity_id(f.severity),
                        "message": f.message,
                        "field": f.field,
                        "line": f.line,
                        "column": f.column,
                        "stated": f.stated,
                    })
                })
                .collect();
            json!({
                "file": j.file,
                "name": j.name,
                "line": j.line,
                "system": j.system,
                "sheet": j.sheet,
                "not_stated": j.not_stated,
                "schedule": j.schedule,
                "findings": findings,
                "unresolved": j.unresolved,
                "schedule_unknown": j.schedule_unknown,
                "unchecked": j.unchecked,
                "version": j.version,
            })
        })
        .collect();
    let r = &a.report;
    let errors: Vec<_> = r
        .problems
        .iter()
        .map(|p| json!({"file": p.file, "line": p.line, "column": p.column, "message": p.message}))
        .collect();
    let value = json!({
        "jobs": jobs,
        "errors": errors,
        "summary": {
            "files": r.checked.len(),
            "jobs": a.jobs.len(),
            "errors": r.count(Severity::Error),
            "warnings": r.count(Severity::Warning),
            "unreadable": r.problems.len(),
            "fail_level": format!("{:?}", o.fail_level).to_lowercase(),
            "exit_code": check::exit_code(r, o.fail_level),
        },
    });
    let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
    s.push('\n');
    s
}

//! `check --format text` (for people: one line per finding, the files skipped and a summary)
//! and `--format json` (for scripts).

use super::{Item, Options, Problem, Report};
use crate::domain::sheet::check::Severity;
use crate::domain::Lang;
use crate::text::t;
use serde_json::json;
use std::fmt::Write;

/// `error` / `warning` in `lang` (the words `sheet` prints on stderr).
pub fn severity_word(severity: Severity, lang: Lang) -> String {
    let key = match severity {
        Severity::Error => "cli.finding-error",
        Severity::Warning => "cli.finding-warning",
    };
    t!(key, locale = lang.code()).into_owned()
}

/// `error` / `warning`, as JSON, SARIF and the annotations name them.
pub fn severity_id(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The note for a finding whose field is not in the file (`None` when it is): the field was
/// pre-filled for the outcome or left out, and the position is its parent's or the top's.
pub fn absent_note(item: &Item, lang: Lang) -> Option<String> {
    if item.at.exact {
        return None;
    }
    let l = lang.code();
    Some(if item.at.found.is_empty() {
        t!("cli.check.absent-top", locale = l, field = item.field).into_owned()
    } else {
        t!(
            "cli.check.absent",
            locale = l,
            field = item.field,
            at = item.at.found
        )
        .into_owned()
    })
}

/// `FILE:LINE:COLUMN: message` (or `FILE: message` when the place is not known).
pub fn problem_line(p: &Problem) -> String {
    match (p.line, p.column) {
        (Some(line), Some(column)) => format!("{}:{line}:{column}: {}", p.file, p.message),
        _ => format!("{}: {}", p.file, p.message),
    }
}

/// The text report: each finding as `FILE:LINE:COLUMN: severity [rule] message` (with a
/// note line when the field is not in the file), then the files that could not be read, the
/// files skipped and why, and a summary naming the fail level.
pub fn text(report: &Report, o: &Options) -> String {
    let (lang, l) = (o.lang, o.lang.code());
    let mut s = String::new();
    for i in report.items() {
        let _ = writeln!(
            s,
            "{}:{}:{}: {} [{}] {}",
            i.file,
            i.at.line,
            i.at.column,
            severity_word(i.severity, lang),
            i.rule.id(),
            i.message
        );
        if let Some(note) = absent_note(i, lang) {
            let _ = writeln!(s, "    {note}");
        }
    }
    for p in &report.problems {
        let _ = writeln!(
            s,
            "{}",
            t!("cli.check.problem", locale = l, line = problem_line(p))
        );
    }
    for (file, why) in &report.skipped {
        let _ = writeln!(
            s,
            "{}",
            t!("cli.check.skipped", locale = l, file = file, why = why)
        );
    }
    let _ = writeln!(s, "{}", super::summary_line(report, o));
    s
}

/// The JSON report: `{"findings": [{"rule", "severity", "message", "file", "line", "column",
/// "field", "field_in_file", "title"}] (title in `--lang`), "errors": [{"file", "line", "column", "message"}],
/// "skipped": [{"file", "reason"}], "checked": [FILE…], "summary": {"files", "errors",
/// "warnings", "unreadable", "skipped", "fail_level", "exit_code"}}` (every count written, 0
/// when there is none; the schema is `docs/schemas/check.schema.json`); line and column are 1-based, the
/// column in Unicode code points; `field` is the JSON path, and when `field_in_file` is false
/// the position is that of the nearest part of it the file has.
pub fn json(report: &Report, o: &Options) -> String {
    let findings: Vec<_> = report
        .items()
        .map(|i| {
            json!({
                "rule": i.rule.id(),
                "severity": severity_id(i.severity),
                "message": i.message,
                "file": i.file,
                "line": i.at.line,
                "column": i.at.column,
                "field": i.field,
                "field_in_file": i.at.exact,
                "title": i.rule.title(o.lang),
            })
        })
        .collect();
    let errors: Vec<_> = report
        .problems
        .iter()
        .map(|p| json!({"file": p.file, "line": p.line, "column": p.column, "message": p.message}))
        .collect();
    let skipped: Vec<_> = report
        .skipped
        .iter()
        .map(|(file, reason)| json!({"file": file, "reason": reason}))
        .collect();
    let checked: Vec<_> = report.checked.iter().map(|c| c.file.clone()).collect();
    // Every count written, 0 when nothing was found, so "none" is never a missing field.
    let summary = json!({
        "files": report.checked.len(),
        "errors": report.count(Severity::Error),
        "warnings": report.count(Severity::Warning),
        "unreadable": report.problems.len(),
        "skipped": report.skipped.len(),
        "fail_level": o.fail_level.name(),
        "exit_code": super::exit_code(report, o.fail_level),
    });
    let value = json!({
        "findings": findings,
        "errors": errors,
        "skipped": skipped,
        "checked": checked,
        "summary": summary,
    });
    let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
    s.push('\n');
    s
}

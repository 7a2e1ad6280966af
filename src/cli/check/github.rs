//! `check --format github`: GitHub Actions workflow commands. Each finding becomes an
//! annotation (`::error file=F,line=L,col=C,title=T::message`) shown on the pull request's
//! lines, up to GitHub's limit of 10 errors and 10 warnings per step (the rest are counted in
//! a notice); when `$GITHUB_STEP_SUMMARY` names a file (as it does on GitHub's runners), a
//! Markdown summary with all of them is appended to it. Nothing else is written: no text
//! report after the commands.
//! Values are escaped as the Actions toolkit does: `%`, `\r`, `\n` in the message, and also
//! `:` and `,` in the properties.

use super::text::{absent_note, problem_line, severity_word};
use super::{Options, Report};
use crate::domain::sheet::check::Severity;
use crate::text::t;
use std::fmt::Write;

/// The most annotations of one kind GitHub shows per step.
pub const ANNOTATIONS_PER_KIND: usize = 10;

/// A workflow command's message, escaped.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value, escaped.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation line.
fn annotation(kind: &str, file: &str, line: usize, col: usize, title: &str, msg: &str) -> String {
    format!(
        "::{kind} file={},line={line},col={col},title={}::{}\n",
        escape_property(file),
        escape_property(title),
        escape_data(msg)
    )
}

/// The workflow commands (annotations and notices) for `report`, nothing else; appends the step summary when
/// `$GITHUB_STEP_SUMMARY` is set (an unwritable summary file is said on stderr, and the
/// annotations still print).
pub fn github(report: &Report, o: &Options) -> String {
    let (lang, l) = (o.lang, o.lang.code());
    let mut s = String::new();
    let (mut errors, mut warnings) = (0usize, 0usize);
    let (mut errors_out, mut warnings_out) = (0usize, 0usize);
    for p in &report.problems {
        errors += 1;
        if errors > ANNOTATIONS_PER_KIND {
            errors_out += 1;
            continue;
        }
        s.push_str(&annotation(
            "error",
            &p.file,
            p.line.unwrap_or(1),
            p.column.unwrap_or(1),
            &format!("modality-advisor {}", o.command),
            &p.message,
        ));
    }
    for i in report.items() {
        let (count, out, kind) = match i.severity {
            Severity::Error => (&mut errors, &mut errors_out, "error"),
            Severity::Warning => (&mut warnings, &mut warnings_out, "warning"),
        };
        *count += 1;
        if *count > ANNOTATIONS_PER_KIND {
            *out += 1;
            continue;
        }
        let mut msg = i.message.clone();
        if let Some(note) = absent_note(i, lang) {
            msg = format!("{msg}\n{note}");
        }
        let title = format!("{}: {}", i.rule.id(), i.rule.title(lang));
        s.push_str(&annotation(
            kind,
            &i.file,
            i.at.line,
            i.at.column,
            &title,
            &msg,
        ));
    }
    // `audit`'s rules it could not check (an input not resolved): notices.
    let unchecked = report.checked.iter().flat_map(|c| {
        c.audit
            .iter()
            .flat_map(move |a| a.unchecked.iter().map(move |u| (c, u)))
    });
    for (c, (rule, line, message)) in unchecked.take(ANNOTATIONS_PER_KIND) {
        let title = format!("modality-advisor {}: {rule}", o.command);
        s.push_str(&annotation("notice", &c.file, *line, 1, &title, message));
    }
    if errors_out + warnings_out > 0 {
        let note = t!(
            "cli.check.left-out",
            locale = l,
            errors = errors_out,
            warnings = warnings_out,
            max = ANNOTATIONS_PER_KIND
        );
        let _ = writeln!(
            s,
            "::notice title=modality-advisor {}::{}",
            o.command,
            escape_data(&note)
        );
    }
    // Annotations only: the whole list (past the limit too) is the step summary's, never a
    // text report after the commands.
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let summary = step_summary(report, o);
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, summary.as_bytes()));
        if let Err(e) = written {
            eprintln!(
                "error: cannot write {}: {e}",
                std::path::Path::new(&path).display()
            );
        }
    }
    s
}

/// A Markdown table cell: `|` escaped, line breaks as `<br>`.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace(['\n', '\r'], "<br>")
}

/// The step summary: a heading, the counts, a table of every finding and the unreadable
/// files.
pub fn step_summary(report: &Report, o: &Options) -> String {
    let (lang, l) = (o.lang, o.lang.code());
    let mut s = format!("## modality-advisor {}\n\n", o.command);
    let _ = writeln!(s, "{}\n", super::summary_line(report, o));
    if report.items().next().is_some() {
        let head = t!("cli.check.table-head", locale = l);
        let _ = writeln!(s, "{head}\n| --- | --- | --- | --- |");
        for i in report.items() {
            let mut msg = i.message.clone();
            if let Some(note) = absent_note(i, lang) {
                msg = format!("{msg} ({note})");
            }
            let _ = writeln!(
                s,
                "| {} | `{}` | {}:{}:{} | {} |",
                severity_word(i.severity, lang),
                i.rule.id(),
                cell(&i.file),
                i.at.line,
                i.at.column,
                cell(&msg)
            );
        }
        s.push('\n');
    }
    for p in &report.problems {
        let _ = writeln!(
            s,
            "- {}",
            cell(&t!("cli.check.problem", locale = l, line = problem_line(p)))
        );
    }
    s.push('\n');
    s
}

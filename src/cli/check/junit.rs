//! `check --format junit`: JUnit XML for CI systems that read only test reports. One
//! `<testsuite>` per file; in it one `<testcase>` per rule checked (the sheet rules, and for a
//! catalog its links' rules too), named by the rule id. A rule with findings at or above
//! `--fail-level` is a `<failure>` listing them (`FILE:LINE:COLUMN: message`); findings below
//! the level are listed in the test case's `<system-out>`. A file that could not be read is a
//! suite with one `<error>` test case.

use super::text::{absent_note, problem_line};
use super::{Checked, Options, Report};
use crate::domain::rules::{Scope, RULES};
use std::fmt::Write;

/// `s` as XML text or attribute value: `& < > " '` escaped, and the characters XML 1.0
/// forbids (C0 controls other than tab and line breaks, U+FFFE, U+FFFF) as `<U+0007>`.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {
                let _ = write!(out, "&lt;U+{:04X}&gt;", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// One file's suite: (XML, tests, failures).
fn suite(c: &Checked, o: &Options) -> (String, usize, usize) {
    let mut cases = String::new();
    let (mut tests, mut failures) = (0, 0);
    for rule in RULES
        .iter()
        .filter(|r| r.scope == Scope::Sheet || c.catalog)
    {
        tests += 1;
        let found: Vec<_> = c.items.iter().filter(|i| i.rule == rule).collect();
        let line = |i: &&super::Item| {
            let mut s = format!("{}:{}:{}: {}", i.file, i.at.line, i.at.column, i.message);
            if let Some(note) = absent_note(i, o.lang) {
                s = format!("{s} ({note})");
            }
            s
        };
        let (failing, reported): (Vec<_>, Vec<_>) =
            found.iter().partition(|i| o.fail_level.fails(i.severity));
        let _ = write!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\"",
            xml(&c.file),
            xml(&rule.id()),
            xml(&c.file)
        );
        if failing.is_empty() && reported.is_empty() {
            cases.push_str("/>\n");
            continue;
        }
        cases.push_str(">\n");
        if !failing.is_empty() {
            failures += 1;
            let body: Vec<String> = failing.iter().map(line).collect();
            let severity = if failing
                .iter()
                .any(|i| i.severity == crate::domain::sheet::check::Severity::Error)
            {
                "error"
            } else {
                "warning"
            };
            let _ = writeln!(
                cases,
                "      <failure message=\"{}\" type=\"{severity}\">{}</failure>",
                xml(&rule.title(o.lang)),
                xml(&body.join("\n"))
            );
        }
        if !reported.is_empty() {
            let body: Vec<String> = reported.iter().map(line).collect();
            let _ = writeln!(
                cases,
                "      <system-out>{}</system-out>",
                xml(&body.join("\n"))
            );
        }
        cases.push_str("    </testcase>\n");
    }
    let xml_suite = format!(
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n{cases}  </testsuite>\n",
        xml(&c.file)
    );
    (xml_suite, tests, failures)
}

/// The JUnit XML of `report`.
pub fn junit(report: &Report, o: &Options) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures) = (0, 0);
    for c in &report.checked {
        let (s, t, f) = suite(c, o);
        suites.push_str(&s);
        tests += t;
        failures += f;
    }
    for p in &report.problems {
        tests += 1;
        let _ = write!(
            suites,
            "  <testsuite name=\"{f}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n    \
             <testcase classname=\"{f}\" name=\"read\" file=\"{f}\">\n      \
             <error message=\"{m}\" type=\"unreadable\">{body}</error>\n    </testcase>\n  \
             </testsuite>\n",
            f = xml(&p.file),
            m = xml(&p.message),
            body = xml(&problem_line(p)),
        );
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"modality-advisor check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{}\">\n{suites}</testsuites>\n",
        report.problems.len()
    )
}

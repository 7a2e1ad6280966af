//! `check --format junit`: JUnit XML for CI systems that read only test reports. One
//! `<testsuite>` per file; in it one `<testcase>` per rule checked (the sheet rules, and for a
//! catalog its links' rules too), named by the rule id. A rule with findings at or above
//! `--fail-level` is a `<failure>` listing them (`FILE:LINE:COLUMN: message`); findings below
//! the level are listed in the test case's `<system-out>`. A file that could not be read is a
//! suite with one `<error>` test case.

use super::text::{absent_note, problem_line};
use super::{Checked, Options, Report};
use crate::domain::plot::escape;
use crate::domain::rules::{Scope, AUDIT_RULES, RULES};
use std::fmt::Write;

/// One file's suite: (XML, tests, failures).
fn suite(c: &Checked, o: &Options) -> (String, usize, usize) {
    let mut cases = String::new();
    let (mut tests, mut failures) = (0, 0);
    let audit = o.command == "audit";
    for rule in RULES
        .iter()
        .chain(AUDIT_RULES.iter())
        .filter(|r| match r.scope {
            Scope::Sheet => true,
            Scope::Catalog => c.catalog,
            Scope::Audit => audit,
        })
        // `audit` lists only the rules it evaluated, so that a pass means something.
        .filter(|r| {
            c.audit
                .as_ref()
                .is_none_or(|a| a.evaluated.contains(&r.id()))
        })
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
            escape(&c.file),
            escape(&rule.id()),
            escape(&c.file)
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
                escape(&rule.title(o.lang)),
                escape(&body.join("\n"))
            );
        }
        if !reported.is_empty() {
            let body: Vec<String> = reported.iter().map(line).collect();
            let _ = writeln!(
                cases,
                "      <system-out>{}</system-out>",
                escape(&body.join("\n"))
            );
        }
        cases.push_str("    </testcase>\n");
    }
    // The rules `audit` could not check (an input not resolved): skipped test cases.
    let mut skipped = 0;
    for (rule, line, message) in c.audit.iter().flat_map(|a| &a.unchecked) {
        tests += 1;
        skipped += 1;
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{f}\" name=\"{}\" file=\"{f}\">\n      <skipped message=\"{}\"/>\n    </testcase>",
            escape(rule),
            escape(&format!("{}:{line}: {message}", c.file)),
            f = escape(&c.file),
        );
    }
    let xml_suite = format!(
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n{cases}  </testsuite>\n",
        escape(&c.file)
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
            f = escape(&p.file),
            m = escape(&p.message),
            body = escape(&problem_line(p)),
        );
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"modality-advisor {}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{}\">\n{suites}</testsuites>\n",
        o.command,
        report.problems.len()
    )
}

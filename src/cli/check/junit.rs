//! `check --format junit`: JUnit XML for CI systems that read only test reports. One
//! `<testsuite>` per file; in it one `<testcase>` per rule checked (the sheet rules, and for a
//! catalog its links' rules too), named by the rule id; for `audit`, one per rule × job (the
//! class names the job), so that each has the one outcome that job had. A rule with findings at or above
//! `--fail-level` is a `<failure>` listing them (`FILE:LINE:COLUMN: message`); findings below
//! the level are listed in the test case's `<system-out>`. A file that could not be read is a
//! suite with one `<error>` test case.

use super::text::{absent_note, problem_line};
use super::{Checked, Options, Report};
use crate::domain::plot::escape;
use crate::domain::rules::{Rule, Scope, AUDIT_RULES, RULES};
use std::fmt::Write;

/// One test case `name` of `classname` in `file`, from the findings `found` of its rule
/// (`title`): a `<failure>` for those at or above the fail level, `<system-out>` for the
/// others. Returns whether it failed.
fn case(
    cases: &mut String,
    (file, classname, name, title): (&str, &str, &str, String),
    found: &[&super::Item],
    o: &Options,
) -> bool {
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
        escape(classname),
        escape(name),
        escape(file)
    );
    if failing.is_empty() && reported.is_empty() {
        cases.push_str("/>\n");
        return false;
    }
    cases.push_str(">\n");
    if !failing.is_empty() {
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
            escape(&title),
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
    !failing.is_empty()
}

/// The rules a file of `c`'s kind is checked against, in the catalogue's order.
fn rules_of(c: &Checked, audit: bool) -> impl Iterator<Item = &'static Rule> + '_ {
    RULES
        .iter()
        .chain(AUDIT_RULES.iter())
        .filter(move |r| match r.scope {
            Scope::Sheet => true,
            Scope::Catalog => c.catalog,
            Scope::Audit => audit,
        })
}

/// One file's suite: (XML, tests, failures).
fn suite(c: &Checked, o: &Options) -> (String, usize, usize) {
    let mut cases = String::new();
    let (mut tests, mut failures, mut skipped) = (0, 0, 0);
    match &c.audit {
        None => {
            for rule in rules_of(c, false) {
                tests += 1;
                let found: Vec<_> = c.items.iter().filter(|i| i.rule == rule).collect();
                let id = rule.id();
                let names = (
                    c.file.as_str(),
                    c.file.as_str(),
                    id.as_str(),
                    rule.title(o.lang),
                );
                failures += usize::from(case(&mut cases, names, &found, o));
            }
        }
        // `audit`: one test case per rule × job, each with the one outcome that job had
        // (passed, failed, or skipped because an input is not resolved). A consumer keys a
        // test case by classname and name, so the job is the class: a rule checked for one
        // job and not resolved for another is two cases, never one name twice in a class.
        // Only the rules evaluated are listed, so that a pass means something.
        Some(scope) => {
            for job in &scope.jobs {
                let class = format!("{}:{} {}", c.file, job.line, job.name);
                for rule in rules_of(c, true).filter(|r| job.evaluated.contains(&r.id())) {
                    tests += 1;
                    let found: Vec<_> = job.items.iter().filter(|i| i.rule == rule).collect();
                    let id = rule.id();
                    let names = (
                        c.file.as_str(),
                        class.as_str(),
                        id.as_str(),
                        rule.title(o.lang),
                    );
                    failures += usize::from(case(&mut cases, names, &found, o));
                }
                for (rule, message) in &job.unchecked {
                    if job.evaluated.contains(rule) {
                        continue;
                    }
                    tests += 1;
                    skipped += 1;
                    let _ = writeln!(
                        cases,
                        "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\">\n      <skipped message=\"{}\"/>\n    </testcase>",
                        escape(&class),
                        escape(rule),
                        escape(&c.file),
                        escape(&format!("{}:{}: {message}", c.file, job.line)),
                    );
                }
            }
        }
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

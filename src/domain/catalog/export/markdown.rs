//! The catalog as one Markdown document for GitHub / GitLab wikis:
//!
//! ```text
//! # <catalog name>                       (or "Processes" / "プロセス一覧" when unnamed)
//! ## Summary
//! | Process | Outcome | Attempts | Wait strategy | Timeout / lease | Idempotency key | Rate | Workers | Bottleneck | Burst drain | Findings | Last edited |
//! ## System diagram                     only when a process has a link: ```mermaid, the
//!                                        diagram as a list, its findings
//! <a name="process-<id>"></a>
//! ## <process name>                      one per process, in catalog order
//! **Outcome:** … / "No decision yet" … / "No job definition sheet yet."
//! ### <sheet table, "Decision path" (```mermaid), "Findings">   the sheet's own export
//! ```
//!
//! **Anchors.** Each process section starts with `<a name="process-<id>"></a>` and the table
//! links to `#process-<id>`: the process id is ASCII (`a-z 0-9 -`), unique and kept across
//! renames, so links stay stable whatever the name (Japanese, emoji, two processes with the
//! same name). Both GitHub and GitLab keep `name` on an anchor (GitHub serves it as
//! `user-content-process-<id>` and resolves `#process-<id>` to it; GitLab drops `id` but keeps
//! `name`). The headings themselves hold the names, so the wikis' own table of contents reads
//! as the names (their automatic slugs keep Japanese letters).
//!
//! **Outline.** The sheet's Markdown ([`sheet_markdown`]) is reused, its `#` title dropped (the
//! process heading replaces it) and its `##` headings demoted to `###`, so the document's
//! outline is title → summary / processes → the sheet's parts.
//!
//! User text goes through [`inline`] (no HTML, no breaking of the table); the mermaid blocks
//! hold only the fixed diagram source and fixed class lines, or (the system diagram) user
//! text in quoted labels with mermaid's entity codes. Bidi control characters are
//! shown as `<U+202E>` ([`bidi::show`]).

use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::export::{display_name, key, summary_cells, tr, Key, SUMMARY_COLUMNS};
use crate::domain::catalog::origin::AuditOrigin;
use crate::domain::catalog::system::draw::markdown_section;
use crate::domain::catalog::{Catalog, Process};
use crate::domain::diagram::mermaid_source;
use crate::domain::export::markdown::{inline, mermaid_node_id, ON_PATH_CLASS, ON_PATH_STYLE};
use crate::domain::export::to_markdown as sheet_markdown;
use crate::domain::flowchart::evaluate;
use crate::domain::Lang;
use std::fmt::Write;

/// The anchor name of a process's section: `process-<id>`.
pub fn anchor(p: &Process) -> String {
    format!("process-{}", p.id)
}

/// The catalog as one Markdown document in `lang` (see the module docs for the layout).
pub fn to_markdown(c: &Catalog, lang: Lang) -> String {
    let mut s = String::new();
    let title = if c.name.trim().is_empty() {
        tr("catalog.export.untitled", lang)
    } else {
        c.name.trim().to_owned()
    };
    let _ = writeln!(s, "# {}\n", inline(&title));
    let _ = writeln!(s, "## {}\n", tr("catalog.export.summary", lang));
    let cols = SUMMARY_COLUMNS.map(|k| inline(&tr(&format!("catalog.export.col.{k}"), lang)));
    let _ = writeln!(s, "| {} |", cols.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(cols.len()));
    let keys: Vec<Key> = c.processes.iter().map(|p| key(p, lang)).collect();
    for (p, k) in c.processes.iter().zip(&keys) {
        let _ = writeln!(s, "| {} |", summary_row(p, k, lang).join(" | "));
    }
    let system = markdown_section(c, lang, 2);
    if !system.is_empty() {
        s.push('\n');
        s.push_str(system.trim_end());
        s.push('\n');
    }
    for p in &c.processes {
        s.push('\n');
        section(&mut s, p, lang);
    }
    bidi::show(&s, Shown::Text).into_owned()
}

fn summary_row(p: &Process, k: &Key, lang: Lang) -> [String; 12] {
    let mut cells = summary_cells(p, k, lang).map(|c| inline(&c));
    cells[0] = format!("[{}](#{})", cells[0], anchor(p));
    cells
}

/// One process's section: anchor, heading, then its sheet (demoted), or its decision path
/// when it has no sheet, or a line saying it is undecided.
fn section(s: &mut String, p: &Process, lang: Lang) {
    let _ = writeln!(s, "<a name=\"{}\"></a>\n", anchor(p));
    let _ = writeln!(s, "## {}\n", inline(&display_name(p)));
    if let Some(a) = p.audit_record() {
        audit_origin(s, a, lang);
    }
    let Some(outcome) = p.outcome else {
        let _ = writeln!(
            s,
            "{}\n",
            crate::text::t!(
                "catalog.export.undecided-section",
                locale = lang.code(),
                count = p.answers.len()
            )
        );
        return;
    };
    let Some(sheet) = &p.sheet else {
        let _ = writeln!(
            s,
            "{} **{}** (`{}`)\n",
            tr("export.outcome", lang),
            inline(&outcome.title(lang)),
            outcome.id()
        );
        let _ = writeln!(s, "### {}\n", tr("export.path", lang));
        let _ = writeln!(s, "```mermaid\n{}```\n", path_mermaid(p, lang));
        let _ = writeln!(s, "{}\n", tr("catalog.export.no-sheet", lang));
        return;
    };
    if sheet.decision.outcome != outcome {
        let _ = writeln!(
            s,
            "{}\n",
            inline(&crate::text::t!(
                "catalog.export.stale-sheet",
                locale = lang.code(),
                sheet = sheet.decision.outcome.title(lang),
                now = outcome.title(lang)
            ))
        );
    }
    s.push_str(&demoted(&sheet_markdown(sheet, lang)));
}

/// What the audit of the configuration the process was made from said, until reviewed
/// ([`AuditOrigin`]): a quote with the file, the line and the system, why the sheet's
/// defaults are not the file's values, and every note.
fn audit_origin(s: &mut String, a: &AuditOrigin, lang: Lang) {
    let l = lang.code();
    let system = a.target().map_or(a.system.as_str(), |t| t.label());
    let title = crate::text::t!(
        "catalog.export.audit-title",
        locale = l,
        file = a.file.as_str(),
        line = a.line,
        system = system
    );
    let intro = crate::text::t!("catalog.export.audit-intro", locale = l);
    let _ = writeln!(s, "> **{}** {}\n>", inline(&title), inline(&intro));
    for n in a.notes(lang == Lang::Ja) {
        let _ = writeln!(s, "> - {}", inline(n));
    }
    s.push('\n');
}

/// The sheet's Markdown one level down: the `#` title line (and the blank line after it)
/// dropped, every other heading given one more `#`; fenced blocks are left as they are.
/// User text cannot start a line with `#` (it is escaped and its line breaks are `<br>`).
pub fn demoted(md: &str) -> String {
    let mut out = String::with_capacity(md.len() + 64);
    let mut fenced = false;
    let mut lines = md.lines().peekable();
    if lines.peek().is_some_and(|l| l.starts_with("# ")) {
        lines.next();
        if lines.peek().is_some_and(|l| l.is_empty()) {
            lines.next();
        }
    }
    for line in lines {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The flowchart with the process's decision path styled (as the sheet's export does it,
/// [`crate::domain::export::markdown::mermaid`], but from the process's answers).
fn path_mermaid(p: &Process, lang: Lang) -> String {
    let eval = evaluate(&p.answers());
    let ids: Vec<String> = eval.node_ids().into_iter().map(mermaid_node_id).collect();
    let mut m = mermaid_source(lang).trim_end().to_owned();
    let _ = write!(
        m,
        "\n    {ON_PATH_STYLE}\n    class {} {ON_PATH_CLASS}\n",
        ids.join(",")
    );
    m
}

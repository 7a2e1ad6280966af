//! The shared process or catalog as Markdown for a wiki page, with the permalink line under
//! the title: the sheet's own export ([`sheet_markdown`]) or the catalog's
//! ([`catalog_markdown`]); a process without a sheet gets its decision (outcome, reasons, the
//! decision path as a flowchart), an undecided one says how far it got.
//!
//! **Flavours.** [`Flavour::GitHub`] (also GitLab, Gitea, MkDocs Material, Docusaurus): the
//! flowchart in a ```` ```mermaid ```` fenced block. [`Flavour::Azure`] for Azure DevOps
//! wikis, which render Mermaid only between `::: mermaid` and `:::` lines (a fenced block
//! shows as code) with a Mermaid that refused the `flowchart` keyword for years ("graph"
//! always worked). The Azure blocks are therefore adapted, line by line:
//! * ```` ```mermaid ```` … ```` ``` ```` → `::: mermaid` … `:::`;
//! * `flowchart TD` → `graph TD` (the same diagram under its older keyword);
//! * the stadium node `start([…])` → the rounded node `start(…)` (stadiums came later in
//!   Mermaid than Azure's oldest supported renderer);
//! * `classDef` / `class` lines are kept: they are part of the `graph` syntax from Mermaid's
//!   first versions and only colour the decision path (no `linkStyle`, `click` or
//!   `subgraph` is ever written).
//!
//! The permalink goes into a link destination percent-encoded where Markdown would misread
//! it ([`md_url`]); every user text is escaped by the exports' [`inline`].

use super::{Share, Shared};
use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::export::display_name;
use crate::domain::catalog::export::markdown::to_markdown as catalog_markdown;
use crate::domain::catalog::Process;
use crate::domain::diagram::mermaid_source;
use crate::domain::export::markdown::{
    inline, mermaid_node_id, to_markdown as sheet_markdown, ON_PATH_CLASS, ON_PATH_STYLE,
};
use crate::domain::flowchart::evaluate;
use crate::domain::Lang;
use std::fmt::Write;

/// Which wiki the Markdown is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// GitHub / GitLab: ```` ```mermaid ```` fenced blocks.
    GitHub,
    /// Azure DevOps wikis: `::: mermaid` … `:::` blocks in the `graph` syntax.
    Azure,
}

fn tr(key: &str, lang: Lang) -> String {
    crate::text::t!(key, locale = lang.code()).into_owned()
}

/// `share` as Markdown in `lang` for `flavour`, with `link` (the permalink) under the title;
/// bidi control characters shown as `<U+202E>` ([`bidi::show`]).
pub fn markdown(share: &Share, lang: Lang, link: &str, flavour: Flavour) -> String {
    let doc = match &share.content {
        Shared::Catalog(c) => catalog_markdown(c, lang),
        Shared::Process(p) => match &p.sheet {
            Some(sheet) => sheet_markdown(sheet, lang),
            None => decision_only(p, lang),
        },
    };
    let open = format!("[{}]({})", inline(&tr("share.md.open", lang)), md_url(link));
    let doc = with_link(&bidi::show(&doc, Shown::Text), &open);
    match flavour {
        Flavour::GitHub => doc,
        Flavour::Azure => azure(&doc),
    }
}

/// `doc` with `line` after its first `# ` heading (and its blank line), or first.
fn with_link(doc: &str, line: &str) -> String {
    match doc.split_once('\n') {
        Some((first, rest)) if first.starts_with("# ") => {
            let rest = rest.strip_prefix('\n').unwrap_or(rest);
            format!("{first}\n\n{line}\n\n{rest}")
        }
        _ => format!("{line}\n\n{doc}"),
    }
}

/// A process with no sheet: title, outcome (or how far the walk got), reasons, the path.
fn decision_only(p: &Process, lang: Lang) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", inline(&display_name(p)));
    let eval = evaluate(&p.answers());
    match p.outcome {
        Some(o) => {
            let _ = writeln!(
                s,
                "{} **{}** (`{}`)\n",
                tr("export.outcome", lang),
                inline(&o.title(lang)),
                o.id()
            );
            let _ = writeln!(s, "{}\n", inline(&o.summary(lang)));
        }
        None => {
            let text = crate::text::t!(
                "catalog.export.undecided-section",
                locale = lang.code(),
                count = p.answers.len()
            );
            let _ = writeln!(s, "{}\n", inline(&text));
        }
    }
    let reasons = eval.reasons(lang);
    if !reasons.is_empty() {
        let _ = writeln!(s, "## {}\n", tr("share.md.reasons", lang));
        for r in reasons {
            let _ = writeln!(s, "- {}", inline(&r));
        }
        s.push('\n');
    }
    let ids: Vec<String> = eval.node_ids().into_iter().map(mermaid_node_id).collect();
    let mut m = mermaid_source(lang).trim_end().to_owned();
    let _ = write!(
        m,
        "\n    {ON_PATH_STYLE}\n    class {} {ON_PATH_CLASS}\n",
        ids.join(",")
    );
    let _ = writeln!(s, "## {}\n", tr("export.path", lang));
    let _ = writeln!(s, "```mermaid\n{m}```\n");
    if p.outcome.is_some() {
        let _ = writeln!(s, "{}", tr("catalog.export.no-sheet", lang));
    }
    s
}

/// Every ```` ```mermaid ```` block of `doc` as an Azure DevOps `::: mermaid` block (see the
/// module docs for what is adapted); everything else unchanged.
fn azure(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len());
    let mut in_mermaid = false;
    let mut in_other = false;
    for line in doc.lines() {
        let converted = if in_mermaid {
            if line.trim_end() == "```" {
                in_mermaid = false;
                ":::".to_owned()
            } else {
                azure_line(line)
            }
        } else if in_other {
            in_other = line.trim_end() != "```";
            line.to_owned()
        } else if line.trim_end() == "```mermaid" {
            in_mermaid = true;
            "::: mermaid".to_owned()
        } else {
            in_other = line.starts_with("```");
            line.to_owned()
        };
        out.push_str(&converted);
        out.push('\n');
    }
    out
}

fn azure_line(line: &str) -> String {
    if line.trim() == "flowchart TD" {
        return line.replace("flowchart", "graph");
    }
    line.replace("([", "(").replace("])", ")")
}

/// A URL for a Markdown autolink `<…>` or link destination: spaces, controls, `<` `>` `(`
/// `)` `` ` `` `"` `'` `\` and non-ASCII percent-encoded (the permalink itself is ASCII; the
/// base URL comes from the user).
pub fn md_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        if c.is_ascii_graphic() && !matches!(c, '<' | '>' | '(' | ')' | '`' | '"' | '\'' | '\\') {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

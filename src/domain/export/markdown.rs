//! The sheet as Markdown for GitHub / GitLab: a `#` title (the job name), the outcome and
//! its reasons, a table of the rows (item / what to write / this job's value), the decision
//! path as a numbered list of the questions and answers and as a ```` ```mermaid ````
//! flowchart with the path's nodes styled, and the findings as a list.
//!
//! User text goes only into the title and the table, escaped by [`inline`]: it renders as
//! typed and cannot break the table or inject HTML. The mermaid block holds only the fixed
//! diagram source ([`mermaid_source`]) and fixed `classDef` / `class` lines — never user
//! text, because Mermaid writes style values into the SVG unescaped. Bidi control characters
//! are shown as `&lt;U+202E&gt;` ([`bidi::show`]), which reads `<U+202E>`.
//!
//! [`mermaid_source`]: crate::domain::diagram::mermaid_source

use crate::domain::bidi::{self, Shown};
use crate::domain::diagram::mermaid_source;
use crate::domain::export::headers;
use crate::domain::flowchart::evaluate;
use crate::domain::lang::Lang;
use crate::domain::sheet::check::{validate, Severity};
use crate::domain::sheet::fields::{decision_text, left_out, rows};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;
use std::fmt::Write;

/// The Mermaid class given to the nodes on the decision path.
pub const ON_PATH_CLASS: &str = "onPath";

/// The `classDef` line that styles [`ON_PATH_CLASS`] (fixed text: no user input).
pub const ON_PATH_STYLE: &str = "classDef onPath fill:#fde68a,stroke:#b45309,stroke-width:3px";

/// Escapes text for one line of Markdown inline content (a table cell or a heading):
/// `\` `` ` `` `*` `_` `[` `]` `~` `|` `#` `$` are backslash-escaped (so `|` cannot split a
/// cell, a title cannot lose a trailing ` #`, and nothing turns into code, emphasis, links or
/// GitHub math); `&` `<` `>` become `&amp;` `&lt;` `&gt;` (no
/// HTML, e.g. `<script>`, survives); a line break (`\r\n`, `\n` or `\r`) becomes `<br>`.
/// Tabs are kept (they render as spaces).
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '|' | '#' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            '\n' => out.push_str("<br>"),
            _ => out.push(c),
        }
    }
    out
}

/// A kebab-case diagram id as the Mermaid node id: `needs-result-now` → `needsResultNow`.
pub fn mermaid_node_id(kebab: &str) -> String {
    let mut out = String::with_capacity(kebab.len());
    let mut upper = false;
    for c in kebab.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The Mermaid flowchart of `lang` with the nodes of `sheet`'s decision path in
/// [`ON_PATH_CLASS`]: the fixed source, then the `classDef` and `class` lines.
pub fn mermaid(sheet: &JobSheet, lang: Lang) -> String {
    let eval = evaluate(&sheet.decision.to_answers());
    let ids: Vec<String> = eval.node_ids().into_iter().map(mermaid_node_id).collect();
    let mut s = mermaid_source(lang).trim_end().to_owned();
    let _ = write!(
        s,
        "\n    {ON_PATH_STYLE}\n    class {} {ON_PATH_CLASS}\n",
        ids.join(",")
    );
    s
}

fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

/// The sheet as Markdown in `lang` (see the module docs for the layout and escaping), its
/// findings the sheet's own ([`validate`]).
pub fn to_markdown(sheet: &JobSheet, lang: Lang) -> String {
    to_markdown_at(sheet, lang, None)
}

/// [`to_markdown`] written at `now_ms` (Unix milliseconds, the caller's clock): the findings
/// also say on which days of the coming year daylight saving skips or repeats a batch run
/// ([`dst_findings`](crate::domain::sheet::dst::dst_findings)). `None`: as [`to_markdown`].
///
/// The CLI's documents and the page's (the export bar sends the page's clock to the document
/// worker) carry that finding; the configuration panel shows it too, beside the CronJob that
/// carries the zone. The zones' rules are a few KB ([`zone_rules`](crate::domain::sheet::zone_rules)).
pub fn to_markdown_at(sheet: &JobSheet, lang: Lang, now_ms: Option<i64>) -> String {
    let rows = rows(sheet, lang);
    let mut s = String::new();
    let title = rows
        .iter()
        .find(|r| r.field == FieldId::JobName)
        .map(|r| r.value.as_str())
        .unwrap_or_default();
    let _ = writeln!(s, "# {}\n", inline(title));
    let outcome = sheet.decision.outcome;
    let decision = decision_text(sheet, lang);
    let _ = writeln!(
        s,
        "{} **{}** (`{}`)\n",
        tr("export.outcome", lang),
        inline(&decision.outcome),
        outcome.id()
    );
    let _ = writeln!(s, "{}\n", tr("export.reasons", lang));
    for r in &decision.reasons {
        let _ = writeln!(s, "- {}", inline(r));
    }
    s.push('\n');
    let [item, what, value] = headers(lang);
    let _ = writeln!(s, "| {item} | {what} | {value} |");
    s.push_str("|---|---|---|\n");
    for r in &rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            inline(&r.item),
            inline(&r.what),
            inline(&r.value)
        );
    }
    if let Some(line) = left_out(sheet, lang) {
        let _ = writeln!(s, "\n{}", inline(&line));
    }
    let _ = writeln!(s, "\n## {}\n", tr("export.path", lang));
    for (i, step) in decision.path.iter().enumerate() {
        let _ = writeln!(s, "{}. {}", i + 1, inline(step));
    }
    let _ = writeln!(s, "\n```mermaid\n{}```\n", mermaid(sheet, lang));
    let _ = writeln!(s, "## {}\n", tr("export.findings", lang));
    let mut findings = validate(sheet, lang);
    if let Some(now) = now_ms {
        findings.extend(crate::domain::sheet::dst::dst_findings(sheet, lang, now));
    }
    if findings.is_empty() {
        let _ = writeln!(s, "{}", tr("export.no-findings", lang));
    }
    for f in findings {
        let severity = match f.severity {
            Severity::Error => tr("export.severity.error", lang),
            Severity::Warning => tr("export.severity.warning", lang),
        };
        let item = tr(&format!("sheet.field.{}.item", f.field.id()), lang);
        let _ = writeln!(
            s,
            "- **{}** {}: {}",
            inline(&severity),
            inline(&item),
            inline(&f.message)
        );
    }
    // `&lt;U+202E&gt;`: user text stands outside code spans with `<` escaped, and a lenient
    // renderer could take a bare `<U+202E>` for a tag and hide it.
    bidi::show(&s, Shown::Markup).into_owned()
}

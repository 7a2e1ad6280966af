//! The share as HTML for pasting into rich-text editors (Confluence, SharePoint, Google
//! Docs, Word): what the clipboard carries as `text/html`. Editors keep headings, paragraphs,
//! lists, links and plain tables, and drop classes, styles and SVG, so this uses nothing
//! else:
//!
//! ```text
//! process:  <h2>name</h2> <p>Recommendation: <strong>outcome</strong> — summary</p>
//!           <h3>Why</h3> <ol>reasons</ol> <h3>Trade-offs</h3> <ul>…</ul>
//!           <h3>Job definition sheet</h3> <table> item (th) / what to write / value </table>
//!           <h3>Findings</h3> <ul>…</ul> (or the "no sheet yet" line)
//!           <p>Permalink: <a href=link>…</a></p>
//! catalog:  <h2>name</h2> <table> the summary (th per column, the name as the row header)
//!           <p>Permalink: …</p>
//! ```
//!
//! Every text is escaped ([`escape`]); user text sits in a `<bdi>`.

use super::{catalog_title, field_item, lines, path_text, safe_href, tr, user};
use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::export::{display_name, key, summary_cells, SUMMARY_COLUMNS};
use crate::domain::catalog::{Catalog, Process};
use crate::domain::export::headers;
use crate::domain::flowchart::evaluate;
use crate::domain::plot::escape;
use crate::domain::sheet::check::{validate, Severity};
use crate::domain::sheet::fields::{left_out, rows};
use crate::domain::Lang;
use std::fmt::Write;

use super::super::{Share, Shared};

/// `share` as rich-text HTML in `lang` (see the module docs), ending with `link` (the
/// permalink; a link that is not `http:` / `https:` or relative becomes `#`, its text is
/// still shown). Never fails.
pub fn rich_text(share: &Share, lang: Lang, link: &str) -> String {
    let mut s = String::with_capacity(8 * 1024);
    match &share.content {
        Shared::Process(p) => process(&mut s, p, lang),
        Shared::Catalog(c) => catalog(&mut s, c, lang),
    }
    let a = format!(
        "<a href=\"{}\">{}</a>",
        escape(safe_href(link)),
        escape(link)
    );
    let _ = write!(s, "<p>{} {a}</p>", lines(&tr("share.card.link", lang)));
    // Pasted into editors that may drop `<bdi>`: a bidi control is shown, not kept.
    bidi::show(&s, Shown::Markup).into_owned()
}

fn process(s: &mut String, p: &Process, lang: Lang) {
    let _ = write!(s, "<h2>{}</h2>", user(&display_name(p)));
    let eval = evaluate(&p.answers());
    match eval.outcome() {
        Some(o) => {
            let _ = write!(
                s,
                "<p>{}: <strong>{}</strong> — {}</p>",
                lines(&tr("share.card.recommendation", lang)),
                lines(&o.title(lang)),
                lines(&o.summary(lang))
            );
        }
        None => {
            let _ = write!(
                s,
                "<p><strong>{}</strong></p>",
                lines(&tr("share.card.undecided", lang))
            );
        }
    }
    let _ = write!(s, "<p>{}</p>", lines(&path_text(&eval, lang)));
    let reasons = eval.reasons(lang);
    if !reasons.is_empty() {
        let _ = write!(s, "<h3>{}</h3><ol>", lines(&tr("share.card.reasons", lang)));
        for r in reasons {
            let _ = write!(s, "<li>{}</li>", lines(&r));
        }
        s.push_str("</ol>");
    }
    let tradeoffs = eval.tradeoffs(lang);
    if !tradeoffs.is_empty() {
        let _ = write!(
            s,
            "<h3>{}</h3><ul>",
            lines(&tr("share.card.tradeoffs", lang))
        );
        for t in tradeoffs {
            let _ = write!(s, "<li>{}</li>", lines(&t));
        }
        s.push_str("</ul>");
    }
    let Some(sheet) = &p.sheet else {
        let _ = write!(s, "<p>{}</p>", lines(&tr("share.card.no-sheet", lang)));
        return;
    };
    let [item, what, value] = headers(lang).map(|h| lines(&h));
    let _ = write!(
        s,
        "<h3>{}</h3><table><thead><tr><th>{item}</th><th>{what}</th><th>{value}</th></tr>\
         </thead><tbody>",
        lines(&tr("share.card.sheet", lang))
    );
    for r in rows(sheet, lang) {
        let _ = write!(
            s,
            "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
            lines(&r.item),
            lines(&r.what),
            user(&r.value)
        );
    }
    s.push_str("</tbody></table>");
    if let Some(line) = left_out(sheet, lang) {
        let _ = write!(s, "<p>{}</p>", lines(&line));
    }
    let findings = validate(sheet, lang);
    let _ = write!(s, "<h3>{}</h3>", lines(&tr("share.card.findings", lang)));
    if findings.is_empty() {
        let _ = write!(s, "<p>{}</p>", lines(&tr("share.card.no-findings", lang)));
        return;
    }
    s.push_str("<ul>");
    for f in findings {
        let label = match f.severity {
            Severity::Error => tr("share.card.error", lang),
            Severity::Warning => tr("share.card.warning", lang),
        };
        let _ = write!(
            s,
            "<li><strong>{}</strong> {}: {}</li>",
            lines(&label),
            lines(&field_item(f.field, lang)),
            user(&f.message)
        );
    }
    s.push_str("</ul>");
}

fn catalog(s: &mut String, c: &Catalog, lang: Lang) {
    let _ = write!(s, "<h2>{}</h2><table><thead><tr>", catalog_title(c, lang));
    for col in SUMMARY_COLUMNS {
        let _ = write!(
            s,
            "<th>{}</th>",
            lines(&tr(&format!("catalog.export.col.{col}"), lang))
        );
    }
    s.push_str("</tr></thead><tbody>");
    for p in &c.processes {
        let cells = summary_cells(p, &key(p, lang), lang);
        let _ = write!(s, "<tr><th>{}</th>", user(&cells[0]));
        for cell in &cells[1..] {
            let _ = write!(s, "<td>{}</td>", user(cell));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
}

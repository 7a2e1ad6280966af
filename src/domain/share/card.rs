//! The read-only card of a [`Share`] as HTML: one renderer for the embed page
//! (`embed.html`), the app's shared view, the clipboard's `text/html` for rich-text wikis
//! ([`rich_text`]) and `modality-advisor share --format html`.
//!
//! [`html`] writes a *fragment* (no `html` / `head` / `body`), well-formed as XML (void
//! elements written `<br/>`), made for pages under a strict Content Security Policy
//! (`style-src 'self'`, no inline script): no `style` attribute, no `<script>`, no `on…`
//! attribute; every element the card styles carries a class starting with `sc-`, styled by
//! `static/share-card.css`, and the flowchart's own classes (`fc-*`, `on-path`,
//! `is-current`) are styled by `static/flowchart.css`. Layout:
//!
//! ```text
//! <article class="sc-card" lang="en|ja">
//!   <p class="sc-bar"><a class="sc-open" href=… target="_blank" rel="noopener">Open in the app</a></p>
//!   process:  <section class="sc-process" id="sc-<id>"> <h2>name</h2>
//!               recommendation (outcome title + summary) or "not decided yet"; <h3>Why</h3> reasons;
//!               <h3>Trade-offs</h3>; <figure> lit flowchart SVG + <figcaption> the path in words;
//!               <h3>Job definition sheet</h3> <table> of the sheet's rows; <h3>Findings</h3>
//!   catalog:  <h2>name</h2>, <h3>Summary</h3> <table> (names link to #sc-<id>),
//!             then each process's section one heading level down (h3, h4)
//! ```
//!
//! Every user text (names, sheet values, finding messages built from them) goes through
//! [`escape`] and sits in a `<bdi>`, so a right-to-left override (U+202E) in one name cannot
//! reorder the text around it; line breaks become `<br/>`. Each inlined flowchart gets ids
//! prefixed `sc-<process id>-`, so a catalog's seven charts do not share ids. The rows are the
//! sheet exports' ([`rows`]), the summary cells the catalog export's ([`summary_cells`]).

use super::{Share, Shared};
use crate::domain::catalog::export::{display_name, key, summary_cells, SUMMARY_COLUMNS};
use crate::domain::catalog::{Catalog, Process};
use crate::domain::diagram::highlighted_svg;
use crate::domain::export::headers;
use crate::domain::flowchart::{evaluate, Evaluation, Status};
use crate::domain::plot::escape;
use crate::domain::sheet::check::{validate, Severity};
use crate::domain::sheet::fields::{left_out, rows};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::domain::Lang;
use std::fmt::Write;

mod rich;

pub use rich::rich_text;

/// The card of `share` in `lang` as an HTML fragment (see the module docs for the layout);
/// `open_url` is the "Open in the app" link (usually [`super::link::app_url`]), opened in a
/// new tab. A link that is not `http:` / `https:` or relative is replaced by `#` (no
/// `javascript:` link can come through). Never fails; an empty catalog shows its title and
/// an empty summary. An empty `open_url` leaves the link out (the app's own shared view).
pub fn html(share: &Share, lang: Lang, open_url: &str) -> String {
    let mut s = String::with_capacity(32 * 1024);
    let _ = write!(s, "<article class=\"sc-card\" lang=\"{}\">", lang.code());
    // The app's own read-only view passes no link: it is the app already.
    if !open_url.is_empty() {
        let _ = write!(
            s,
            "<p class=\"sc-bar\"><a class=\"sc-open\" href=\"{}\" target=\"_blank\" \
             rel=\"noopener\">{}<span class=\"sc-vh\"> {}</span></a></p>",
            escape(safe_href(open_url)),
            tr("share.card.open", lang),
            tr("share.card.open-hint", lang)
        );
    }
    match &share.content {
        Shared::Process(p) => process(&mut s, p, lang, 2),
        Shared::Catalog(c) => catalog(&mut s, c, lang),
    }
    s.push_str("</article>");
    s
}

/// `url` when it is `http:` / `https:` or has no scheme (relative, `#…`), else `#`.
pub(crate) fn safe_href(url: &str) -> &str {
    let url = url.trim();
    let scheme_end = url.find(':');
    let path_start = url.find(['/', '?', '#']);
    let has_scheme = match (scheme_end, path_start) {
        (Some(c), Some(p)) => c < p,
        (Some(_), None) => true,
        (None, _) => false,
    };
    let lower = url.to_ascii_lowercase();
    if !has_scheme || lower.starts_with("http://") || lower.starts_with("https://") {
        url
    } else {
        "#"
    }
}

/// A text in `lang` from `locales/worker/share-card.yml` (or another locale file).
pub(crate) fn tr(key: &str, lang: Lang) -> String {
    crate::text::t!(key, locale = lang.code()).into_owned()
}

/// User text for HTML: escaped, line breaks as `<br/>`, isolated in a `<bdi>`.
pub(crate) fn user(text: &str) -> String {
    format!("<bdi>{}</bdi>", lines(text))
}

/// Fixed or user text escaped, each line break (`\r\n`, `\n`, `\r`) as `<br/>`.
pub(crate) fn lines(text: &str) -> String {
    escape(&text.replace("\r\n", "\n").replace('\r', "\n")).replace('\n', "<br/>")
}

/// One process's section; `h` is the level of its heading (2 alone, 3 in a catalog).
fn process(s: &mut String, p: &Process, lang: Lang, h: u8) {
    let id = escape(p.id.as_str());
    let _ = write!(
        s,
        "<section class=\"sc-process\" id=\"sc-{id}\" aria-labelledby=\"sc-{id}-name\">\
         <h{h} class=\"sc-name\" id=\"sc-{id}-name\">{}</h{h}>",
        user(&display_name(p))
    );
    let eval = evaluate(&p.answers());
    decision(s, p, &eval, lang, h + 1);
    chart(s, p, &eval, lang);
    match &p.sheet {
        Some(sheet) => sheet_part(s, p, sheet, &eval, lang, h + 1),
        None => {
            let _ = write!(
                s,
                "<p class=\"sc-no-sheet\">{}</p>",
                lines(&tr("share.card.no-sheet", lang))
            );
        }
    }
    s.push_str("</section>");
}

/// The recommendation (or "not decided yet"), the reasons and the trade-offs.
fn decision(s: &mut String, p: &Process, eval: &Evaluation, lang: Lang, h: u8) {
    match eval.status {
        Status::Decided(o) => {
            let _ = write!(
                s,
                "<div class=\"sc-outcome sc-outcome-{}\"><h{h} class=\"sc-label\">{}</h{h}>\
                 <p class=\"sc-outcome-title\"><strong>{}</strong></p>\
                 <p class=\"sc-summary\">{}</p></div>",
                o.id(),
                lines(&tr("share.card.recommendation", lang)),
                lines(&o.title(lang)),
                lines(&o.summary(lang))
            );
        }
        Status::Ask(q) => {
            let detail = crate::text::t!(
                "share.card.undecided-detail",
                locale = lang.code(),
                count = p.answers.len(),
                question = q.text(lang)
            );
            let _ = write!(
                s,
                "<div class=\"sc-outcome sc-undecided\"><h{h} class=\"sc-label\">{}</h{h}>\
                 <p class=\"sc-summary\">{}</p></div>",
                lines(&tr("share.card.undecided", lang)),
                lines(&detail)
            );
        }
    }
    let _ = write!(s, "<h{h}>{}</h{h}>", lines(&tr("share.card.reasons", lang)));
    let reasons = eval.reasons(lang);
    if reasons.is_empty() {
        let _ = write!(
            s,
            "<p class=\"sc-reasons\">{}</p>",
            lines(&tr("share.card.no-reasons", lang))
        );
    } else {
        list(s, "ol", "sc-reasons", &reasons);
    }
    let tradeoffs = eval.tradeoffs(lang);
    if !tradeoffs.is_empty() {
        let _ = write!(
            s,
            "<h{h}>{}</h{h}>",
            lines(&tr("share.card.tradeoffs", lang))
        );
        list(s, "ul", "sc-tradeoffs", &tradeoffs);
    }
}

/// A list of fixed texts.
fn list(s: &mut String, tag: &str, class: &str, items: &[String]) {
    let _ = write!(s, "<{tag} class=\"{class}\">");
    for i in items {
        let _ = write!(s, "<li>{}</li>", lines(i));
    }
    let _ = write!(s, "</{tag}>");
}

/// The walked path in words ([`diagram::path_text`](crate::domain::diagram::path_text)): the
/// flowchart's own text alternative, shown in the card's caption.
pub use crate::domain::diagram::path_text;

/// The lit flowchart in a `<figure>`, its ids made unique to the process; the caption states
/// the path in words, as the SVG's own `<desc>` does for a screen reader.
fn chart(s: &mut String, p: &Process, eval: &Evaluation, lang: Lang) {
    let id = escape(p.id.as_str());
    let code = lang.code();
    let svg = highlighted_svg(lang, eval, None)
        .replace(&format!("\"fc-{code}-"), &format!("\"sc-{id}-fc-{code}-"))
        .replace(&format!("#fc-{code}-"), &format!("#sc-{id}-fc-{code}-"));
    let _ = write!(
        s,
        "<figure class=\"sc-chart\">{svg}<figcaption class=\"sc-path\">{}\
         </figcaption></figure>",
        lines(&path_text(eval, lang))
    );
}

/// The sheet's rows as a table (item as the row header, what to write, this job's value),
/// then its findings with their severity.
fn sheet_part(s: &mut String, p: &Process, sheet: &JobSheet, eval: &Evaluation, lang: Lang, h: u8) {
    let _ = write!(s, "<h{h}>{}</h{h}>", lines(&tr("share.card.sheet", lang)));
    if let Some(now) = eval.outcome().filter(|o| *o != sheet.decision.outcome) {
        let note = crate::text::t!(
            "catalog.export.stale-sheet",
            locale = lang.code(),
            sheet = sheet.decision.outcome.title(lang),
            now = now.title(lang)
        );
        let _ = write!(s, "<p class=\"sc-note\">{}</p>", lines(&note));
    }
    let [item, what, value] = headers(lang).map(|h| lines(&h));
    let _ = write!(
        s,
        "<div class=\"sc-scroll\"><table class=\"sc-sheet\" aria-labelledby=\"sc-{}-name\">\
         <thead><tr><th scope=\"col\">{item}</th><th scope=\"col\">{what}</th>\
         <th scope=\"col\">{value}</th></tr></thead><tbody>",
        escape(p.id.as_str())
    );
    // An untouched load section is its capacity row alone ("not sized yet: needs …"): nine
    // rows of "not stated" would double the card's height for nothing.
    let stated = crate::domain::sheet::load_text::load_stated(sheet);
    let shown = rows(sheet, lang).into_iter().filter(|r| {
        stated
            || r.field == FieldId::Capacity
            || !crate::domain::sheet::load_text::is_load_row(r.field)
    });
    for r in shown {
        let _ = write!(
            s,
            "<tr><th scope=\"row\">{}</th><td class=\"sc-what\">{}</td>\
             <td class=\"sc-value\">{}</td></tr>",
            lines(&r.item),
            lines(&r.what),
            user(&r.value)
        );
    }
    s.push_str("</tbody></table></div>");
    if let Some(line) = left_out(sheet, lang) {
        let _ = write!(s, "<p class=\"sc-left-out\">{}</p>", lines(&line));
    }
    let _ = write!(
        s,
        "<h{h}>{}</h{h}>",
        lines(&tr("share.card.findings", lang))
    );
    let findings = validate(sheet, lang);
    if findings.is_empty() {
        let _ = write!(
            s,
            "<p class=\"sc-findings\">{}</p>",
            lines(&tr("share.card.no-findings", lang))
        );
        return;
    }
    s.push_str("<ul class=\"sc-findings\">");
    for f in findings {
        let (class, label) = match f.severity {
            Severity::Error => ("sc-error", tr("share.card.error", lang)),
            Severity::Warning => ("sc-warning", tr("share.card.warning", lang)),
        };
        let _ = write!(
            s,
            "<li class=\"sc-finding {class}\"><strong class=\"sc-severity\">{}</strong> \
             <span class=\"sc-field\">{}</span>: {}</li>",
            lines(&label),
            lines(&field_item(f.field, lang)),
            user(&f.message)
        );
    }
    s.push_str("</ul>");
}

/// The item name of a sheet field in `lang`.
pub(crate) fn field_item(field: crate::domain::sheet::FieldId, lang: Lang) -> String {
    crate::text::t!(
        format!("sheet.field.{}.item", field.id()),
        locale = lang.code()
    )
    .into_owned()
}

/// A catalog: its name, how many processes, the summary table, then each process's section.
fn catalog(s: &mut String, c: &Catalog, lang: Lang) {
    let _ = write!(
        s,
        "<header class=\"sc-head\"><h2 class=\"sc-title\">{}</h2><p class=\"sc-count\">{}</p>\
         </header><h3>{}</h3>",
        catalog_title(c, lang),
        lines(&crate::text::t!(
            "share.card.count",
            locale = lang.code(),
            count = c.processes.len()
        )),
        lines(&tr("share.card.summary", lang))
    );
    s.push_str("<div class=\"sc-scroll\"><table class=\"sc-index\"><thead><tr>");
    let labels = SUMMARY_COLUMNS.map(|col| lines(&tr(&format!("catalog.export.col.{col}"), lang)));
    for label in &labels {
        let _ = write!(s, "<th scope=\"col\">{label}</th>");
    }
    s.push_str("</tr></thead><tbody>");
    for p in &c.processes {
        let cells = summary_cells(p, &key(p, lang), lang);
        let _ = write!(
            s,
            "<tr><th scope=\"row\"><a href=\"#sc-{}\">{}</a></th>",
            escape(p.id.as_str()),
            user(&cells[0])
        );
        // Each cell carries its column's name, shown when a narrow frame stacks the table
        // (share-card.css); screen readers have the header already.
        for (cell, label) in cells[1..].iter().zip(&labels[1..]) {
            let _ = write!(
                s,
                "<td><span class=\"sc-cell-label\" aria-hidden=\"true\">{label}</span>{}</td>",
                user(cell)
            );
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    for p in &c.processes {
        process(s, p, lang, 3);
    }
}

/// The catalog's name (escaped, in a `<bdi>`), or a neutral title when it is blank.
pub(crate) fn catalog_title(c: &Catalog, lang: Lang) -> String {
    if c.name.trim().is_empty() {
        lines(&tr("share.card.untitled", lang))
    } else {
        user(c.name.trim())
    }
}

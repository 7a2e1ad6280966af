//! The system picture as the reader gets it: an SVG drawn by our own layout ([`svg`], with
//! the diagram as text and the findings: [`html`], what the export worker sends the page),
//! and a mermaid flowchart for the documents ([`mermaid`], [`markdown_section`]).
//!
//! Each process is a box styled by its outcome (fill and border per outcome, its outcome
//! written under the name, so colour is never the only sign); an outside actor a rounded
//! "stadium" with its kind; a link to a deleted process a dashed red box with the missing
//! id. Edges are labelled sync / enqueue / schedule ([`Via`]). User text is escaped for XML
//! (or for mermaid's quoted labels) and bidi controls are shown ([`bidi::show`]).

use super::layout::{layout, Layout, Rect, NODE_W};
use super::words::{actor_kind, tr, via_name};
use super::{findings, Graph, Node, Via};
use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::Catalog;
use crate::domain::export::markdown::inline;
use crate::domain::flowchart::Outcome;
use crate::domain::plot::escape;
use crate::domain::Lang;
use crate::text::t;
use std::fmt::Write;

/// The most width units a line of a box's name holds (a Latin letter 1, a CJK character
/// 2); a name goes on two lines ([`two_lines`]), a longer one ends in `…` (the whole name is the box's tooltip and in the text list).
pub const NAME_UNITS: usize = 22;

/// The style of a node: its class (the outcome id, `actor`, `missing`, `undecided`), fill,
/// border, corner radius and dash pattern.
fn style(
    g: &Graph,
    c: &Catalog,
    node: usize,
) -> (&'static str, &'static str, &'static str, i32, &'static str) {
    match &g.nodes[node] {
        Node::Process(i) => match c.processes[*i].outcome {
            Some(Outcome::Sync) => ("sync", "#dbeafe", "#1d4ed8", 4, ""),
            Some(Outcome::SyncTimeout) => ("sync-timeout", "#e0e7ff", "#4338ca", 4, ""),
            Some(Outcome::AsyncEnqueue) => ("async-enqueue", "#dcfce7", "#15803d", 14, ""),
            Some(Outcome::AsyncTicket) => ("async-ticket", "#ccfbf1", "#0f766e", 14, ""),
            Some(Outcome::Batch) => ("batch", "#fef3c7", "#b45309", 4, "6 3"),
            None => ("undecided", "#f8fafc", "#64748b", 4, "3 3"),
        },
        Node::Actor(_) => ("actor", "#ffffff", "#475569", 26, ""),
        Node::Missing(_) => ("missing", "#fef2f2", "#b91c1c", 4, "5 3"),
    }
}

/// The second line of a node: the process's outcome (short), the actor's kind ("outside" when
/// the kind is already its name: an unnamed actor), or "missing process".
fn kind_line(g: &Graph, c: &Catalog, node: usize, lang: Lang) -> String {
    match &g.nodes[node] {
        Node::Process(i) => {
            let id = c.processes[*i].outcome.map_or("undecided", Outcome::id);
            tr(&format!("system.short.{id}"), lang)
        }
        Node::Actor(a) if a.name.is_empty() => tr("system.outside", lang),
        Node::Actor(a) => actor_kind(a.kind, lang),
        Node::Missing(_) => tr("system.missing", lang),
    }
}

fn units(c: char) -> usize {
    if (c as u32) < 0x1100 {
        1
    } else {
        2
    }
}

/// `s` cut to [`NAME_UNITS`] width units, with `…` when cut.
pub fn fit(s: &str) -> String {
    let total: usize = s.chars().map(units).sum();
    if total <= NAME_UNITS {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        if used + units(c) > NAME_UNITS - 1 {
            break;
        }
        used += units(c);
        out.push(c);
    }
    out.push('…');
    out
}

/// `s` on at most two lines of [`NAME_UNITS`] width units: broken at the last space that
/// fits (or between any two characters when none does, as Japanese is), the second line
/// cut with `…` ([`fit`]).
pub fn two_lines(s: &str) -> Vec<String> {
    let total: usize = s.chars().map(units).sum();
    if total <= NAME_UNITS {
        return vec![s.to_owned()];
    }
    let mut used = 0;
    let mut cut = 0;
    let mut space = None;
    for (i, c) in s.char_indices() {
        if used + units(c) > NAME_UNITS {
            break;
        }
        used += units(c);
        cut = i + c.len_utf8();
        if c == ' ' {
            space = Some(i);
        }
    }
    let (first, rest) = match space {
        Some(at) if at > 0 => (&s[..at], &s[at + 1..]),
        _ => s.split_at(cut),
    };
    vec![first.trim_end().to_owned(), fit(rest.trim_start())]
}

/// The edge's label, or "" when the target is undecided or missing.
fn via_text(via: Option<Via>, lang: Lang) -> String {
    via.map(|v| via_name(v, lang)).unwrap_or_default()
}

/// The catalog's system as an SVG image (`role="img"`, titled; its text alternative is
/// the list [`html`] puts under it). Every node a `g.sys-node` (`data-node`: `process`,
/// `actor`, `missing`; `data-outcome` for a process), every edge a `polyline.sys-edge`
/// (`data-from` / `data-to`: node indices, `data-via`) and its label a `text.sys-via`.
pub fn svg(c: &Catalog, lang: Lang) -> String {
    let g = Graph::of(c);
    let pairs: Vec<(usize, usize)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
    let Layout {
        boxes,
        routes,
        width,
        height,
    } = layout(g.nodes.len(), &pairs);
    let mut s = String::new();
    let title = t!(
        "system.svg-title",
        locale = lang.code(),
        processes = c.processes.len(),
        links = g.edges.len()
    );
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sys-svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-labelledby=\"sys-svg-title\" \
         aria-describedby=\"sys-text\" font-family=\"system-ui, -apple-system, 'Segoe UI', 'Hiragino Sans', 'Noto Sans JP', Meiryo, sans-serif\">\
         <title id=\"sys-svg-title\">{}</title>\
         <defs><marker id=\"sys-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#334155\"/></marker></defs>",
        escape(&title)
    );
    s.push_str("<g class=\"sys-edges\">");
    for (e, r) in g.edges.iter().zip(&routes) {
        let points: Vec<String> = r.points.iter().map(|(x, y)| format!("{x},{y}")).collect();
        let _ = write!(
            s,
            "<polyline class=\"sys-edge\" data-from=\"{}\" data-to=\"{}\" data-via=\"{}\" points=\"{}\" \
             fill=\"none\" stroke=\"#334155\" stroke-width=\"1.5\" marker-end=\"url(#sys-arrow)\"/>",
            e.from,
            e.to,
            e.via.map_or("", Via::id),
            points.join(" ")
        );
    }
    for (e, r) in g.edges.iter().zip(&routes) {
        let label = via_text(e.via, lang);
        if label.is_empty() {
            continue;
        }
        let w = label
            .chars()
            .map(|c| if (c as u32) < 0x1100 { 7 } else { 12 })
            .sum::<i32>()
            + 8;
        let (x, y) = r.label;
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"16\" rx=\"3\" fill=\"#ffffff\" fill-opacity=\"0.9\"/>\
             <text class=\"sys-via\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#1e293b\">{}</text>",
            x - w / 2,
            y - 8,
            y + 4,
            escape(&label)
        );
    }
    s.push_str("</g><g class=\"sys-nodes\">");
    for (i, b) in boxes.iter().enumerate() {
        node(&mut s, &g, c, i, b, lang);
    }
    s.push_str("</g></svg>");
    bidi::show(&s, Shown::Markup).into_owned()
}

/// One node: its box (styled by outcome, kind or missing), its name on one or two lines, its
/// outcome or kind under it, the whole name as its tooltip.
fn node(s: &mut String, g: &Graph, c: &Catalog, i: usize, b: &Rect, lang: Lang) {
    let (class, fill, stroke, rx, dash) = style(g, c, i);
    let name = g.label(c, i, lang);
    let kind = kind_line(g, c, i, lang);
    let (node, extra) = match &g.nodes[i] {
        Node::Process(p) => (
            "process",
            format!(
                " data-process=\"{}\" data-outcome=\"{class}\"",
                escape(c.processes[*p].id.as_str())
            ),
        ),
        Node::Actor(a) => ("actor", format!(" data-kind=\"{}\"", a.kind.id())),
        Node::Missing(id) => (
            "missing",
            format!(" data-process=\"{}\"", escape(id.as_str())),
        ),
    };
    let shown = if matches!(g.nodes[i], Node::Missing(_)) {
        vec![format!("⚠ {}", fit(&name))]
    } else {
        two_lines(&name)
    };
    let (first_y, kind_y) = if shown.len() > 1 { (20, 56) } else { (28, 48) };
    let name_lines: String = shown
        .iter()
        .enumerate()
        .map(|(k, line)| {
            format!(
                "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
                b.x + NODE_W / 2,
                b.y + first_y + 16 * k as i32,
                escape(line)
            )
        })
        .collect();
    let dash = if dash.is_empty() {
        String::new()
    } else {
        format!(" stroke-dasharray=\"{dash}\"")
    };
    let cx = b.x + NODE_W / 2;
    let _ = write!(
        s,
        "<g class=\"sys-node\" data-node=\"{node}\"{extra}><title>{} — {}</title>\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{rx}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"{dash}/>\
         <text class=\"sys-name\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"600\" fill=\"#0f172a\">{name_lines}</text>\
         <text class=\"sys-kind\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#334155\">{}</text></g>",
        escape(&name),
        escape(&kind),
        b.x,
        b.y,
        b.w,
        b.h,
        b.y + kind_y,
        escape(&kind)
    );
}

/// The diagram as text, one line per edge ("A → B (enqueue)") and one per process no edge
/// touches, in `lang`: the SVG's text alternative and the documents' list.
pub fn text_lines(c: &Catalog, lang: Lang) -> Vec<String> {
    let g = Graph::of(c);
    let mut lines: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            let (from, to) = (g.label(c, e.from, lang), g.label(c, e.to, lang));
            let how = e
                .via
                .map_or_else(|| tr("system.via-unknown", lang), |v| via_name(v, lang));
            let mut line = format!("{from} → {to} ({how})");
            if matches!(g.nodes[e.to], Node::Missing(_))
                || matches!(g.nodes[e.from], Node::Missing(_))
            {
                line.push_str(&format!(" — {}", tr("system.missing", lang)));
            }
            line
        })
        .collect();
    for (i, p) in c.processes.iter().enumerate() {
        if !g.edges.iter().any(|e| e.from == i || e.to == i) {
            lines.push(
                t!(
                    "system.unlinked",
                    locale = lang.code(),
                    name = crate::domain::catalog::export::display_name(p)
                )
                .into_owned(),
            );
        }
    }
    lines
}

/// What the page shows for the system (the export worker's answer): the intro; once a
/// process has a link, the SVG in a labelled region that scrolls sideways on a narrow screen,
/// the diagram as text (the SVG's description, `#sys-text`) and the findings
/// (`li.sys-finding` with `data-process` and `data-field`); then the form adding a link and
/// the list of links ([`editor`](super::editor)).
pub fn html(c: &Catalog, lang: Lang) -> String {
    let mut s = format!(
        "<p class=\"help\">{}</p>",
        escape(&tr("system.ui.intro", lang))
    );
    if !c.has_links() {
        let _ = write!(
            s,
            "<p class=\"hint\">{}</p>",
            escape(&tr("system.ui.empty", lang))
        );
    } else {
        picture(&mut s, c, lang);
    }
    s.push_str(&super::editor::form(c, lang));
    s.push_str(&super::editor::list(c, lang));
    bidi::show(&s, Shown::Markup).into_owned()
}

/// The drawing, its text and its findings.
fn picture(s: &mut String, c: &Catalog, lang: Lang) {
    let _ = write!(
        s,
        "<div class=\"sys-scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{}\">{}</div>",
        escape(&tr("system.region", lang)),
        svg(c, lang)
    );
    let _ = write!(
        s,
        "<details class=\"sys-text\"><summary>{}</summary><ul id=\"sys-text\">",
        escape(&tr("system.as-text", lang))
    );
    for line in text_lines(c, lang) {
        let _ = write!(s, "<li>{}</li>", escape(&line));
    }
    s.push_str("</ul></details>");
    let found = findings(c, lang);
    if !found.is_empty() {
        let _ = write!(
            s,
            "<div class=\"sys-findings\" role=\"status\"><h4>{}</h4><ul>",
            escape(&tr("system.findings", lang))
        );
        for f in &found {
            let _ = write!(
                s,
                "<li class=\"sys-finding\" data-process=\"{}\" data-field=\"{}\">{}</li>",
                escape(f.process.as_str()),
                f.field.id(),
                escape(&f.message)
            );
        }
        s.push_str("</ul></div>");
    }
}

/// `s` as the text of a quoted mermaid label: `"` `#` `<` `>` `&` and `` ` `` as mermaid's
/// entity codes, line breaks and tabs as spaces.
fn mermaid_label(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '`' => out.push_str("#96;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The system as a mermaid flowchart (`flowchart TD`, without the fence): a process
/// `p<i>["name<br>outcome"]`, an actor `a<i>(["name<br>kind"])`, a missing process
/// `m<i>["⚠ id<br>missing process"]`; edges `-->|via|`; one `classDef` per style used and a
/// `class` line each (the outcome's colours of [`svg`]).
pub fn mermaid(c: &Catalog, lang: Lang) -> String {
    let g = Graph::of(c);
    let ids: Vec<String> = g
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| match n {
            Node::Process(p) => format!("p{p}"),
            Node::Actor(_) => format!("a{i}"),
            Node::Missing(_) => format!("m{i}"),
        })
        .collect();
    let mut s = String::from("flowchart TD\n");
    for (i, n) in g.nodes.iter().enumerate() {
        let name = mermaid_label(&g.label(c, i, lang));
        let kind = mermaid_label(&kind_line(&g, c, i, lang));
        let _ = match n {
            Node::Process(_) => writeln!(s, "    {}[\"{name}<br>{kind}\"]", ids[i]),
            Node::Actor(_) => writeln!(s, "    {}([\"{name}<br>{kind}\"])", ids[i]),
            Node::Missing(_) => writeln!(s, "    {}[\"⚠ {name}<br>{kind}\"]", ids[i]),
        };
    }
    for e in &g.edges {
        let label = mermaid_label(&via_text(e.via, lang));
        let arrow = if label.is_empty() {
            "-->".to_owned()
        } else {
            format!("-->|{label}|")
        };
        let _ = writeln!(s, "    {} {arrow} {}", ids[e.from], ids[e.to]);
    }
    let mut classes: Vec<(&str, Vec<&str>, String)> = Vec::new();
    for (i, node_id) in ids.iter().enumerate() {
        let (class, fill, stroke, _, dash) = style(&g, c, i);
        match classes.iter_mut().find(|(k, _, _)| *k == class) {
            Some((_, members, _)) => members.push(node_id),
            None => {
                let dash = if dash.is_empty() {
                    String::new()
                } else {
                    format!(",stroke-dasharray:{dash}")
                };
                classes.push((
                    class,
                    vec![node_id],
                    format!("fill:{fill},stroke:{stroke}{dash}"),
                ));
            }
        }
    }
    for (class, members, def) in &classes {
        let name = crate::domain::export::markdown::mermaid_node_id(class);
        let _ = writeln!(s, "    classDef {name} {def}");
        let _ = writeln!(s, "    class {} {name}", members.join(","));
    }
    s
}

/// The documents' section (Markdown; empty when no process has a link): a heading, the
/// mermaid block, the diagram as a list for wikis that do not draw mermaid, and the
/// findings. `level` is the heading's `#` count.
pub fn markdown_section(c: &Catalog, lang: Lang, level: usize) -> String {
    if !c.has_links() {
        return String::new();
    }
    let hashes = "#".repeat(level);
    let mut s = String::new();
    let _ = writeln!(s, "{hashes} {}\n", tr("system.heading", lang));
    let _ = writeln!(s, "```mermaid\n{}```\n", mermaid(c, lang));
    for line in text_lines(c, lang) {
        let _ = writeln!(s, "- {}", inline(&line));
    }
    s.push('\n');
    let found = findings(c, lang);
    if !found.is_empty() {
        let _ = writeln!(s, "**{}**\n", tr("system.findings", lang));
        for f in &found {
            let _ = writeln!(s, "- ⚠ {}", inline(&f.message));
        }
        s.push('\n');
    }
    s
}

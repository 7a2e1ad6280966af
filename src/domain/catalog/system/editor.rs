//! The system section's form and list, as HTML the export worker writes and the page inserts
//! (so the page's first load carries neither the words nor the markup): the form that adds
//! a link (`form[data-sys-form]`, its fields named `process`, `relation`, `other`, `name`,
//! `via`, read back by [`Link::from_form`](super::Link::from_form)) and every link with its
//! Remove button (`data-unlink` = the holder's id, `data-index` = the link's place). The
//! page handles both with one submit and one click listener.

use super::words::{actor_kind, field_name, tr, via_name};
use super::{ActorKind, Direction, Other, Via};
use crate::domain::catalog::export::display_name;
use crate::domain::catalog::{Catalog, MAX_NAME_CHARS};
use crate::domain::plot::escape;
use crate::domain::Lang;
use crate::text::t;
use std::fmt::Write;

/// `<option value="…">label</option>`.
fn option(s: &mut String, value: &str, label: &str) {
    let _ = write!(
        s,
        "<option value=\"{}\">{}</option>",
        escape(value),
        escape(label)
    );
}

/// One labelled field of the form: the control's `id`, the label's text, the control.
fn field(s: &mut String, id: &str, label: &str, control: &str) {
    let _ = write!(
        s,
        "<div class=\"sfield\"><label for=\"{id}\">{}</label>{control}</div>",
        escape(label)
    );
}

/// The form adding one link: the process, the relation, the other end (a process, or an
/// outside actor of a kind, with its name), and how (from the started process's outcome
/// unless chosen).
pub fn form(c: &Catalog, lang: Lang) -> String {
    let mut s = String::from("<form class=\"system-form\" id=\"system-form\" data-sys-form=\"\">");
    let mut select = |id: &str, name: &str, label: &str, options: String| {
        let control = format!("<select id=\"{id}\" name=\"{name}\">{options}</select>");
        field(&mut s, id, &tr(label, lang), &control);
    };
    let mut holders = String::new();
    for p in &c.processes {
        option(&mut holders, p.id.as_str(), &display_name(p));
    }
    select("link-process", "process", "system.ui.process", holders);
    let mut relations = String::new();
    for d in Direction::ALL {
        option(&mut relations, d.id(), &field_name(d, lang));
    }
    select("link-relation", "relation", "system.ui.relation", relations);
    let mut others = String::new();
    for p in &c.processes {
        option(&mut others, &format!("p:{}", p.id), &display_name(p));
    }
    for k in ActorKind::ALL {
        let label = t!(
            "system.ui.outside",
            locale = lang.code(),
            kind = actor_kind(k, lang)
        );
        option(&mut others, &format!("a:{}", k.id()), &label);
    }
    select("link-other", "other", "system.ui.other", others);
    let mut vias = String::new();
    option(&mut vias, "", &tr("system.ui.via-auto", lang));
    for v in Via::ALL {
        option(&mut vias, v.id(), &via_name(v, lang));
    }
    let name = format!(
        "<input type=\"text\" id=\"link-actor-name\" name=\"name\" maxlength=\"{MAX_NAME_CHARS}\" placeholder=\"{}\">",
        escape(&tr("system.ui.actor-placeholder", lang))
    );
    field(
        &mut s,
        "link-actor-name",
        &tr("system.ui.actor-name", lang),
        &name,
    );
    let control = format!("<select id=\"link-via\" name=\"via\">{vias}</select>");
    field(&mut s, "link-via", &tr("system.ui.via", lang), &control);
    let _ = write!(
        s,
        "<button type=\"submit\" class=\"secondary\" id=\"link-add\">{}</button></form>",
        escape(&tr("system.ui.add", lang))
    );
    s
}

/// Every link, by process, each with its Remove button; a link to a process the catalog no
/// longer has reads "missing process `<id>`" (`li.broken`).
pub fn list(c: &Catalog, lang: Lang) -> String {
    let mut s = format!(
        "<div class=\"system-links\"><h4>{}</h4>",
        escape(&tr("system.ui.links", lang))
    );
    let mut items = String::new();
    for p in &c.processes {
        for (i, l) in p.links.iter().enumerate() {
            let (other, broken) = match &l.other {
                Other::Process(id) => match c.get(id) {
                    Some(q) => (display_name(q), false),
                    None => (
                        t!("system.ui.missing", locale = lang.code(), id = id.as_str())
                            .into_owned(),
                        true,
                    ),
                },
                Other::Actor(a) if a.name.is_empty() => (actor_kind(a.kind, lang), false),
                Other::Actor(a) => (format!("{} ({})", a.name, actor_kind(a.kind, lang)), false),
            };
            let how = l
                .via
                .map(|v| format!(" · {}", via_name(v, lang)))
                .unwrap_or_default();
            let text = format!(
                "{} — {}: {other}{how}",
                display_name(p),
                field_name(l.direction, lang)
            );
            let label = t!("system.ui.remove-label", locale = lang.code(), link = &text);
            let _ = write!(
                items,
                "<li class=\"system-link{}\" data-process=\"{}\"><span>{}</span> \
                 <button type=\"button\" class=\"link\" data-unlink=\"{}\" data-index=\"{i}\" aria-label=\"{}\">{}</button></li>",
                if broken { " broken" } else { "" },
                escape(p.id.as_str()),
                escape(&text),
                escape(p.id.as_str()),
                escape(&label),
                escape(&tr("system.ui.remove", lang))
            );
        }
    }
    if items.is_empty() {
        let _ = write!(
            s,
            "<p class=\"hint\">{}</p>",
            escape(&tr("system.ui.none", lang))
        );
    } else {
        let _ = write!(s, "<ul id=\"system-links\">{items}</ul>");
    }
    s.push_str("</div>");
    s
}

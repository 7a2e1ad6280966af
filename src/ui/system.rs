//! The system picture on the catalog screen: the diagram of what triggers what (drawn by the
//! export worker — SVG, its text, its findings — and inserted as it comes), the form that
//! links a process to another process or to an outside actor, and the list of links with
//! Remove. The page carries only the form and the list; the layout, the drawing and the
//! findings are the worker's (`domain::catalog::system::draw`).

use crate::domain::app_state::CatalogAction;
use crate::domain::catalog::export::display_name;
use crate::domain::catalog::system::{Actor, ActorKind, Direction, Link, Other, Via};
use crate::domain::catalog::{Catalog, ProcessId, MAX_NAME_CHARS};
use crate::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
use crate::domain::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

/// The diagram as the worker drew it for `catalog` in `lang` (`None` while drawing; not
/// asked while no process has a link).
#[hook]
fn use_drawn(catalog: &Catalog, lang: Lang) -> Option<Result<String, String>> {
    let out = use_state(|| None);
    {
        let out = out.clone();
        let wanted = catalog.has_links().then(|| catalog.clone());
        use_effect_with((wanted, lang), move |(wanted, lang)| {
            if let Some(c) = wanted.clone() {
                let request = ExportRequest {
                    id: 0,
                    lang: *lang,
                    format: ExportFormat::Markdown,
                    subject: ExportSubject::System(c),
                };
                wasm_bindgen_futures::spawn_local(async move {
                    out.set(Some(browser::export(request).await));
                });
            }
        });
    }
    (*out).clone()
}

/// The system section of the catalog screen.
#[component]
pub fn SystemPicture() -> Html {
    let ctx = use_context::<AppContext>();
    let lang = ctx.as_ref().map(|c| c.lang).unwrap_or_default();
    let catalog = ctx.as_ref().map(|c| c.catalog_now()).unwrap_or_default();
    let drawn = use_drawn(&catalog, lang);
    use_effect_with((), |_| browser::load_stylesheet("./system.css"));
    let Some(ctx) = ctx else {
        return Html::default();
    };
    if catalog.processes.is_empty() {
        return Html::default();
    }
    let picture = match (catalog.has_links(), drawn) {
        (false, _) => html! { <p class="hint">{ tr("system.ui.empty", lang) }</p> },
        (true, None) => {
            html! { <p class="hint" role="status">{ tr("system.ui.drawing", lang) }</p> }
        }
        (true, Some(Err(message))) => {
            html! { <p class="notice error-notice" role="alert">{ message }</p> }
        }
        (true, Some(Ok(html))) => Html::from_html_unchecked(AttrValue::from(html)),
    };
    html! {
        <section class="system" id="system" aria-labelledby="system-title">
            <h3 id="system-title">{ tr("system.ui.title", lang) }</h3>
            <p class="help">{ tr("system.ui.intro", lang) }</p>
            <div class="system-picture" id="system-picture">{ picture }</div>
            { add_form(&ctx, &catalog, lang) }
            { link_list(&ctx, &catalog, lang) }
        </section>
    }
}

/// The form adding one link: the process, the relation, the other end (a process or an
/// outside actor of a kind, with its name), and how (from the outcome unless chosen).
fn add_form(ctx: &AppContext, c: &Catalog, lang: Lang) -> Html {
    let (holder, relation, other, name, via) = (
        NodeRef::default(),
        NodeRef::default(),
        NodeRef::default(),
        NodeRef::default(),
        NodeRef::default(),
    );
    let onsubmit = {
        let ctx = ctx.clone();
        let refs = (
            holder.clone(),
            relation.clone(),
            other.clone(),
            name.clone(),
            via.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let value = |r: &NodeRef| {
                r.cast::<HtmlSelectElement>()
                    .map(|s| s.value())
                    .unwrap_or_default()
            };
            let typed = refs
                .3
                .cast::<HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            if let Some((id, link)) = read_link(
                &value(&refs.0),
                &value(&refs.1),
                &value(&refs.2),
                &typed,
                &value(&refs.4),
            ) {
                ctx.dispatch(Action::Catalog(CatalogAction::Link(id, link)));
                if let Some(input) = refs.3.cast::<HtmlInputElement>() {
                    input.set_value("");
                }
            }
        })
    };
    let processes = || {
        c.processes.iter().map(|p| {
            html! { <option value={p.id.as_str().to_owned()}>{ display_name(p) }</option> }
        })
    };
    html! {
        <form class="system-form" id="system-form" {onsubmit}>
            <div class="sfield">
                <label for="link-process">{ tr("system.ui.process", lang) }</label>
                <select id="link-process" ref={holder}>{ for processes() }</select>
            </div>
            <div class="sfield">
                <label for="link-relation">{ tr("system.ui.relation", lang) }</label>
                <select id="link-relation" ref={relation}>
                    { for Direction::ALL.iter().map(|d| html! { <option value={d.id()}>{ d.field(lang) }</option> }) }
                </select>
            </div>
            <div class="sfield">
                <label for="link-other">{ tr("system.ui.other", lang) }</label>
                <select id="link-other" ref={other}>
                    { for c.processes.iter().map(|p| html! {
                        <option value={format!("p:{}", p.id)}>{ display_name(p) }</option>
                    }) }
                    { for ActorKind::ALL.iter().map(|k| html! {
                        <option value={format!("a:{}", k.id())}>{ t!("system.ui.outside", locale = lang.code(), kind = k.title(lang)) }</option>
                    }) }
                </select>
            </div>
            <div class="sfield">
                <label for="link-actor-name">{ tr("system.ui.actor-name", lang) }</label>
                <input type="text" id="link-actor-name" ref={name} maxlength={MAX_NAME_CHARS.to_string()}
                    placeholder={tr("system.ui.actor-placeholder", lang)} />
            </div>
            <div class="sfield">
                <label for="link-via">{ tr("system.ui.via", lang) }</label>
                <select id="link-via" ref={via}>
                    <option value="">{ tr("system.ui.via-auto", lang) }</option>
                    { for Via::ALL.iter().map(|v| html! { <option value={v.id()}>{ v.title(lang) }</option> }) }
                </select>
            </div>
            <button type="submit" class="secondary" id="link-add">{ tr("system.ui.add", lang) }</button>
        </form>
    }
}

/// The link the form's values describe: the holder's id and the link (`None` for values no
/// option gives).
fn read_link(
    holder: &str,
    relation: &str,
    other: &str,
    name: &str,
    via: &str,
) -> Option<(ProcessId, Link)> {
    let direction = Direction::ALL.into_iter().find(|d| d.id() == relation)?;
    let other = match other.split_once(':')? {
        ("p", id) => Other::Process(ProcessId(id.to_owned())),
        ("a", kind) => Other::Actor(Actor {
            kind: ActorKind::ALL.into_iter().find(|k| k.id() == kind)?,
            name: name.trim().to_owned(),
        }),
        _ => return None,
    };
    let via = Via::ALL.into_iter().find(|v| v.id() == via);
    Some((
        ProcessId(holder.to_owned()),
        Link {
            direction,
            other,
            via,
        },
    ))
}

/// Every link, by process, with Remove; a link to a process the catalog no longer has reads
/// "missing process <id>".
fn link_list(ctx: &AppContext, c: &Catalog, lang: Lang) -> Html {
    let items: Vec<Html> = c
        .processes
        .iter()
        .flat_map(|p| p.links.iter().enumerate().map(move |(i, l)| (p, i, l)))
        .map(|(p, i, l)| {
            let other = match &l.other {
                Other::Process(id) => match c.get(id) {
                    Some(q) => display_name(q),
                    None => t!("system.ui.missing", locale = lang.code(), id = id.as_str()).into_owned(),
                },
                Other::Actor(a) if a.name.is_empty() => a.kind.title(lang),
                Other::Actor(a) => format!("{} ({})", a.name, a.kind.title(lang)),
            };
            let how = l.via.map(|v| format!(" · {}", v.title(lang))).unwrap_or_default();
            let text = format!("{} — {}: {}{}", display_name(p), l.direction.field(lang), other, how);
            let broken = matches!(&l.other, Other::Process(id) if c.get(id).is_none());
            let onclick = {
                let (ctx, id) = (ctx.clone(), p.id.clone());
                Callback::from(move |_| ctx.dispatch(Action::Catalog(CatalogAction::Unlink(id.clone(), i))))
            };
            let label = t!("system.ui.remove-label", locale = lang.code(), link = text.clone()).into_owned();
            html! {
                <li class={classes!("system-link", broken.then_some("broken"))} data-process={p.id.as_str().to_owned()}>
                    <span>{ text }</span>
                    <button type="button" class="link" aria-label={label} {onclick}>{ tr("system.ui.remove", lang) }</button>
                </li>
            }
        })
        .collect();
    html! {
        <div class="system-links">
            <h4>{ tr("system.ui.links", lang) }</h4>
            if items.is_empty() {
                <p class="hint">{ tr("system.ui.none", lang) }</p>
            } else {
                <ul id="system-links">{ for items }</ul>
            }
        </div>
    }
}

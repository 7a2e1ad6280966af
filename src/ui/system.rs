//! The system picture on the catalog screen. The export worker writes the whole section's
//! body — the intro, the diagram (SVG, its text, its findings), the form adding a link and
//! the list of links (`domain::catalog::system::{draw, editor}`) — and this component
//! inserts it and serves it with one submit and one click listener, so the page's first
//! load carries neither the layout nor the form's words. The worker is asked once the
//! catalog has a link, or when the user opens the section.

use crate::domain::app_state::CatalogAction;
use crate::domain::catalog::system::Link;
use crate::domain::catalog::{Catalog, ProcessId};
use crate::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
use crate::domain::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The section as the worker wrote it for `wanted` in `lang` (`None` while drawing or not
/// asked).
#[hook]
fn use_drawn(wanted: Option<Catalog>, lang: Lang) -> Option<Result<String, String>> {
    let out = use_state(|| None);
    {
        let out = out.clone();
        use_effect_with((wanted, lang), move |(wanted, lang)| {
            if let Some(c) = wanted.clone() {
                let request = ExportRequest {
                    id: 0,
                    lang: *lang,
                    format: ExportFormat::Markdown,
                    subject: ExportSubject::System(c),
                    now_ms: None,
                };
                wasm_bindgen_futures::spawn_local(async move {
                    out.set(Some(browser::export(request).await));
                    browser::load_stylesheet("./system.css");
                });
            }
        });
    }
    (*out).clone()
}

/// The value of the form control named `name` in `form` (empty when there is none).
fn value(form: &Element, name: &str) -> String {
    let Ok(Some(el)) = form.query_selector(&format!("[name=\"{name}\"]")) else {
        return String::new();
    };
    match el.dyn_into::<HtmlSelectElement>() {
        Ok(select) => select.value(),
        Err(el) => el
            .dyn_into::<HtmlInputElement>()
            .map(|i| i.value())
            .unwrap_or_default(),
    }
}

/// The system section of the catalog screen.
#[component]
pub fn SystemPicture() -> Html {
    let ctx = use_context::<AppContext>();
    let opened = use_state(|| false);
    let lang = ctx.as_ref().map(|c| c.lang).unwrap_or_default();
    let catalog = ctx.as_ref().map(|c| c.catalog_now()).unwrap_or_default();
    let shown = !catalog.processes.is_empty() && (*opened || catalog.has_links());
    let drawn = use_drawn(shown.then(|| catalog.clone()), lang);
    // A link added or removed redraws the section: keyboard focus goes back to "Add link".
    let refocus = use_mut_ref(|| false);
    {
        let refocus = refocus.clone();
        use_effect_with(drawn.clone(), move |_| {
            if std::mem::take(&mut *refocus.borrow_mut()) {
                browser::focus_by_id("link-add");
            }
        });
    }
    let Some(ctx) = ctx else {
        return Html::default();
    };
    if catalog.processes.is_empty() {
        return Html::default();
    }
    let l = lang.code();
    let body = match (shown, drawn) {
        (false, _) => {
            let onclick = Callback::from(move |_| opened.set(true));
            html! { <button type="button" class="secondary" id="system-open" {onclick}>{ t!("system.ui.open", locale = l) }</button> }
        }
        (true, None) => {
            html! { <p class="hint" role="status">{ t!("system.ui.drawing", locale = l) }</p> }
        }
        (true, Some(Err(message))) => {
            html! { <p class="notice error-notice" role="alert">{ message }</p> }
        }
        (true, Some(Ok(html))) => Html::from_html_unchecked(AttrValue::from(html)),
    };
    let onsubmit = {
        let (ctx, refocus) = (ctx.clone(), refocus.clone());
        Callback::from(move |e: SubmitEvent| {
            let Some(form) = e.target_dyn_into::<Element>() else {
                return;
            };
            e.prevent_default();
            let v = |name: &str| value(&form, name);
            if let Some((id, link)) = Link::from_form(
                &v("process"),
                &v("relation"),
                &v("other"),
                &v("name"),
                &v("via"),
            ) {
                *refocus.borrow_mut() = true;
                ctx.dispatch(Action::Catalog(CatalogAction::Link(id, link)));
            }
        })
    };
    let onclick = Callback::from(move |e: MouseEvent| {
        let button = e
            .target_dyn_into::<Element>()
            .and_then(|t| t.closest("[data-unlink]").ok().flatten());
        let Some(button) = button else { return };
        let id = button.get_attribute("data-unlink").unwrap_or_default();
        let index = button
            .get_attribute("data-index")
            .and_then(|i| i.parse().ok());
        if let Some(index) = index {
            *refocus.borrow_mut() = true;
            ctx.dispatch(Action::Catalog(CatalogAction::Unlink(ProcessId(id), index)));
        }
    });
    html! {
        <section class="system" id="system" aria-labelledby="system-title">
            <h3 id="system-title">{ t!("system.ui.title", locale = l) }</h3>
            <div class="system-picture" id="system-picture" {onsubmit} {onclick}>{ body }</div>
        </section>
    }
}

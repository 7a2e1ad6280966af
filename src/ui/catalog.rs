//! The catalog screen: the system's name, adding a process, the notice about the catalog
//! (with Undo after a delete or an import), the filter by outcome and the table of processes
//! (`table`); and the bar naming the open process ([`open_bar`]).
//!
//! Keyboard focus is never left on a removed element: each action that removes or moves the
//! focused control names where focus goes next (`Pending`); the next render puts the one
//! shared [`NodeRef`] on that element and an effect focuses it.

mod check_config;
pub mod open_bar;
mod table;

pub use open_bar::open_process_bar;

use crate::domain::app_state::{CatalogAction, CatalogUndo};
use crate::domain::catalog::{ProcessId, MAX_NAME_CHARS};
use crate::domain::catalog_rows::rows;
use crate::domain::flowchart::Outcome;
use crate::domain::lang::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Where keyboard focus goes after the next render.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pending {
    /// A row's control.
    Row(ProcessId, Control),
    /// The notice's Undo button (after a delete).
    Undo,
    /// The screen's heading (after an undo that brought no row back).
    Heading,
}

/// A control in a row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Control {
    /// The name (the button that opens the process).
    Name,
    /// "Move up" (falls back to "Move down" in the first row).
    Up,
    /// "Move down" (falls back to "Move up" in the last row).
    Down,
}

/// What the screen's parts share: the state, the screen's own state, and the focus plumbing.
#[derive(Clone)]
pub(crate) struct Screen {
    pub ctx: AppContext,
    pub lang: Lang,
    /// The process whose name is being edited in place.
    pub renaming: UseStateHandle<Option<ProcessId>>,
    /// Set once an in-place rename is committed or cancelled, so the blur that follows does
    /// not commit it again.
    pub settled: Rc<RefCell<bool>>,
    pub pending: Rc<RefCell<Option<Pending>>>,
    pub focus_ref: NodeRef,
}

impl Screen {
    /// `key` in the page's language.
    pub fn tr(&self, key: &str) -> String {
        t!(key, locale = self.lang.code()).into_owned()
    }

    /// `key` with the process's name filled in.
    pub fn tr_name(&self, key: &str, name: &str) -> String {
        t!(key, locale = self.lang.code(), name = name).into_owned()
    }

    /// Focus goes to `p` after the next render.
    pub fn focus_next(&self, p: Pending) {
        *self.pending.borrow_mut() = Some(p);
    }

    /// The shared ref when `p` is where focus goes next, else a fresh one.
    pub fn ref_if(&self, p: &Pending) -> NodeRef {
        if self.pending.borrow().as_ref() == Some(p) {
            self.focus_ref.clone()
        } else {
            NodeRef::default()
        }
    }

    /// Dispatches a catalog action.
    pub fn send(&self, a: CatalogAction) {
        self.ctx.dispatch(Action::Catalog(a));
    }
}

/// The catalog screen.
#[component]
pub fn CatalogScreen() -> Html {
    let ctx = use_context::<AppContext>();
    let filter = use_state(|| String::from("all"));
    let renaming = use_state(|| None::<ProcessId>);
    let settled = use_mut_ref(|| false);
    let pending = use_mut_ref(|| None::<Pending>);
    let focus_ref = use_node_ref();
    {
        let (pending, focus_ref) = (pending.clone(), focus_ref.clone());
        use_effect(move || {
            if pending.borrow().is_some() {
                if let Some(el) = focus_ref.cast::<HtmlElement>() {
                    let _ = el.focus();
                }
                *pending.borrow_mut() = None;
            }
        });
    }
    {
        // A notice answers something done anywhere on the screen (an import at the bottom, a
        // delete in the table): brought into view when it is not, so it is never missed.
        let notice = ctx.as_ref().and_then(|c| c.catalog_notice.clone());
        use_effect_with(notice, |n| {
            if n.is_some() {
                crate::ui::browser::show_if_hidden("catalog-notice");
            }
        });
    }
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let lang = ctx.lang;
    let screen = Screen {
        ctx: ctx.clone(),
        lang,
        renaming,
        settled,
        pending,
        focus_ref,
    };
    let catalog = ctx.catalog_now();
    let all = rows(&catalog, lang);
    let shown: Vec<_> = all
        .iter()
        .filter(|r| match filter.as_str() {
            "all" => true,
            "undecided" => r.outcome.is_none(),
            id => r.outcome.is_some_and(|o| o.id() == id),
        })
        .cloned()
        .collect();
    let heading_ref = screen.ref_if(&Pending::Heading);
    html! {
        <section class="catalog" aria-labelledby="catalog-title">
            <div class="catalog-head">
                <p class="step">{ screen.tr("catalog-screen.kicker") }</p>
                <h2 id="catalog-title" tabindex="-1" ref={heading_ref}>{ screen.tr("catalog-screen.title") }</h2>
                <p class="help">{ screen.tr("catalog-screen.intro") }</p>
            </div>
            <div class="catalog-top">
                { system_name(&screen, &catalog.name) }
                { add_form(&screen) }
            </div>
            <div class="slot">{ notice(&screen) }</div>
            if all.is_empty() {
                <div class="na catalog-empty"><p>{ screen.tr("catalog-screen.empty") }</p></div>
            } else {
                { filter_bar(&screen, &filter, shown.len(), all.len()) }
                if shown.is_empty() {
                    { filtered_out(&screen, &filter) }
                } else {
                    { table::table(&screen, &catalog.name, &shown, &all) }
                }
            }
            <crate::ui::system::SystemPicture />
            <crate::ui::catalog_io::CatalogIo />
            <check_config::CheckConfiguration />
        </section>
    }
}

/// The system's name, edited in place (saved on change: Enter or leaving the field).
fn system_name(screen: &Screen, name: &str) -> Html {
    let onchange = {
        let screen = screen.clone();
        let old = name.to_owned();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            if value.trim() != old {
                screen.send(CatalogAction::RenameCatalog(value));
            }
        })
    };
    html! {
        <div class="sfield catalog-name">
            <label for="catalog-name">{ screen.tr("catalog-screen.system-name") }</label>
            <input type="text" id="catalog-name" value={name.to_owned()} maxlength={MAX_NAME_CHARS.to_string()}
                placeholder={screen.tr("catalog-screen.system-placeholder")} {onchange} />
        </div>
    }
}

/// "Add a process": a name and a button; the new process opens on its first question.
fn add_form(screen: &Screen) -> Html {
    let input = NodeRef::default();
    let onsubmit = {
        let (screen, input) = (screen.clone(), input.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let name = input
                .cast::<HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            screen.send(CatalogAction::Add {
                seed: browser::random_seed(),
                now_ms: browser::now_ms(),
                name,
            });
        })
    };
    html! {
        <form class="catalog-add" {onsubmit}>
            <div class="sfield">
                <label for="add-name">{ screen.tr("catalog-screen.add-legend") }</label>
                <div class="with-button">
                    <input type="text" id="add-name" ref={input} maxlength={MAX_NAME_CHARS.to_string()}
                        placeholder={screen.tr("catalog-screen.add-placeholder")} />
                    <button type="submit" class="primary" id="add-process">{ screen.tr("catalog-screen.add") }</button>
                </div>
            </div>
        </form>
    }
}

/// The notice about the catalog, with Undo after a delete or an import.
fn notice(screen: &Screen) -> Html {
    let Some(n) = screen.ctx.catalog_notice.clone() else {
        return Html::default();
    };
    let undo = {
        let screen = screen.clone();
        Callback::from(move |_| {
            let back = match screen.ctx.undo_catalog.as_deref() {
                Some(CatalogUndo::Deleted { process, .. }) => {
                    Pending::Row(process.id.clone(), Control::Name)
                }
                _ => Pending::Heading,
            };
            screen.focus_next(back);
            screen.send(CatalogAction::Undo);
        })
    };
    let dismiss = {
        let screen = screen.clone();
        Callback::from(move |_| {
            screen.focus_next(Pending::Heading);
            screen.send(CatalogAction::Dismiss);
        })
    };
    let undo_ref = screen.ref_if(&Pending::Undo);
    html! {
        <div class={classes!("notice", "catalog-notice", n.is_error().then_some("error-notice"))} id="catalog-notice">
            <p role={if n.is_error() { "alert" } else { "status" }}>{ n.text(screen.lang) }</p>
            <div class="notice-actions">
                if n.can_undo() {
                    <button type="button" class="secondary" id="catalog-undo" ref={undo_ref} onclick={undo}>{ screen.tr("catalog-screen.undo") }</button>
                }
                <button type="button" class="link" onclick={dismiss}>{ screen.tr("catalog-screen.dismiss") }</button>
            </div>
        </div>
    }
}

/// The filter by outcome and how many rows it shows.
fn filter_bar(
    screen: &Screen,
    filter: &UseStateHandle<String>,
    shown: usize,
    total: usize,
) -> Html {
    let onchange = {
        let filter = filter.clone();
        Callback::from(move |e: Event| {
            filter.set(e.target_unchecked_into::<HtmlSelectElement>().value());
        })
    };
    let option = |value: &str, label: String| {
        html! { <option value={value.to_owned()} selected={**filter == value}>{ label }</option> }
    };
    let count = t!(
        "catalog-screen.count",
        locale = screen.lang.code(),
        shown = shown,
        total = total
    );
    html! {
        <div class="catalog-filter">
            <label for="catalog-filter">{ screen.tr("catalog-screen.filter") }</label>
            <select id="catalog-filter" {onchange}>
                { option("all", screen.tr("catalog-screen.filter-all")) }
                { for Outcome::ALL.iter().map(|o| option(o.id(), o.title(screen.lang))) }
                { option("undecided", screen.tr("catalog-screen.undecided")) }
            </select>
            <span class="help" id="catalog-count" aria-live="polite">{ count }</span>
        </div>
    }
}

/// What shows when the filter hides every process.
fn filtered_out(screen: &Screen, filter: &UseStateHandle<String>) -> Html {
    let all = {
        let filter = filter.clone();
        Callback::from(move |_| filter.set(String::from("all")))
    };
    html! {
        <div class="na catalog-filtered-out">
            <p>{ screen.tr("catalog-screen.filtered-out") }{ " " }
                <button type="button" class="link" onclick={all}>{ screen.tr("catalog-screen.show-all") }</button>
            </p>
        </div>
    }
}

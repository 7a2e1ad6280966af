//! The root component: state, top bar, the wizard or the result, and the flowchart.

use crate::domain::app_state::LinkStatus;
use crate::domain::place::Place;
use crate::domain::share::link;
use crate::domain::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::catalog::{open_process_bar, CatalogScreen};
use crate::ui::decide::flowchart::chart;
use crate::ui::decide::result::ResultCard;
use crate::ui::decide::wizard::{answers_list, dropped_notice, progress, QuestionCard};
use crate::ui::keeper;
use crate::ui::share::{self, ShareSurface};
use crate::ui::sheet::sheet_screen;
use crate::ui::simulator::SimulatorHost;
use crate::ui::state::{Action, AppContext, Screen};
use yew::prelude::*;

/// The whole app.
#[component]
pub fn App() -> Html {
    // Where the page starts (the stored catalog, an older build's session, or a new process),
    // saved after every change, merged with other tabs' work.
    let (state, base) = keeper::use_kept_state();
    let lang = state.lang;
    // The sheet's capacity panel: kept here, so its answer outlives a visit to another screen.
    let capacity = use_mut_ref(crate::ui::simulator::CapacityKeep::default)
        .borrow()
        .clone();
    use_effect_with(lang, |lang| browser::remember_lang(*lang));
    use_url(&state);
    // A new screen starts at its top (not the first one: a reload keeps its place); the
    // sheet's heading takes keyboard focus when the sheet opens.
    {
        let first = use_mut_ref(|| true);
        use_effect_with(state.screen, move |screen| {
            // The sheet's stylesheet (`static/sheet.css`) is fetched when it is first shown.
            if *screen == Screen::Sheet {
                browser::load_stylesheet("./sheet.css");
            }
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                browser::scroll_to_top();
                if *screen == Screen::Sheet {
                    browser::focus_by_id("sheet-title");
                }
            }
        });
    }
    let l = lang.code();
    let current = state.current_question();
    let main = match current {
        Some(q) => {
            html! { <QuestionCard key={q.id()} question={q} autofocus={state.interacted} /> }
        }
        None => html! { <ResultCard /> },
    };
    let shared = state.shared.is_some();
    let body = if shared {
        html! { <ShareSurface shared=true /> }
    } else if state.screen == Screen::Catalog {
        html! { <main class="main sheet-main" id="main"><CatalogScreen /></main> }
    } else if state.screen == Screen::Sheet && state.sheet.is_some() {
        html! { <main class="main sheet-main" id="main">{ sheet_screen(&state, &capacity) }</main> }
    } else if state.screen == Screen::Simulate {
        // The simulator itself stays mounted below (hidden on other screens), so a run, its
        // worker and the chosen preset survive a visit to another screen.
        Html::default()
    } else {
        html! {
            <div class="layout">
                <main class="main" id="main">
                    <p class="tagline">{ t!("ui.tagline", locale = l) }</p>
                    { progress(&state) }
                    { dropped_notice(&state) }
                    { main }
                    { answers_list(&state) }
                </main>
                <aside class="aside" aria-label={t!("ui.flowchart", locale = l).into_owned()}>
                    { chart(&state) }
                </aside>
            </div>
        }
    };
    html! {
        <ContextProvider<AppContext> context={state.clone()}>
            <header class="topbar">
                <div class="brand">
                    <span class="logo" aria-hidden="true">{"⇄"}</span>
                    <h1>{ t!("ui.title", locale = l) }</h1>
                </div>
                { lang_switch(&state) }
            </header>
            { share::link_notice(&state) }
            if !shared {
                { open_process_bar(&state) }
                <ShareSurface shared=false />
            }
            { keeper::keep_notices(&state, &base) }
            // The catalog screen is no process's: the process steps show once one is open.
            if !shared && state.screen != Screen::Catalog {
                { nav(&state) }
            }
            <div class="slot">{ body }</div>
            <main class="main sheet-main" id="sim-main" hidden={shared || state.screen != Screen::Simulate}>
                <SimulatorHost />
            </main>
            <footer class="footer">{ t!("ui.footer", locale = l) }</footer>
        </ContextProvider<AppContext>>
    }
}

/// The URL fragment and the app's place kept in step: a share link read (at start and on a
/// history move), Back / Forward followed, each place the user reaches a history entry.
#[hook]
fn use_url(state: &AppContext) {
    // A share link the page was opened with is read once (before the place below replaces
    // the fragment); the shared view keeps the link in the address bar while it is open.
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let fragment = browser::location_fragment();
            if link::is_share_fragment(&fragment) {
                share::open_link(&state, fragment);
            }
        });
    }
    // Back / Forward move between questions and screens: each place is a history entry.
    // `moved` is set while the reducer follows the history, so following it adds no entry.
    // The first check corrects the fragment in place. `pops` is bumped on every history move,
    // so the fragment is checked again even when the move changed nothing (a place that does
    // not exist yet, or an unknown fragment).
    let moved = use_mut_ref(|| true);
    let pops = use_state(|| 0u32);
    let pops_seen = use_mut_ref(|| 0u32);
    {
        let (dispatch, moved) = (state.clone(), moved.clone());
        let (pops, pops_seen) = (pops.clone(), pops_seen.clone());
        use_effect_with((), move |_| {
            let listener =
                browser::HistoryListener::new(Callback::from(move |fragment: String| {
                    *moved.borrow_mut() = true;
                    if link::is_share_fragment(&fragment) {
                        share::open_link(&dispatch, fragment);
                    } else if let Some((place, id)) = Place::parse_with_process(&fragment) {
                        dispatch.dispatch(Action::GoTo(place, id));
                    }
                    let n = pops_seen.borrow().wrapping_add(1);
                    *pops_seen.borrow_mut() = n;
                    pops.set(n);
                }));
            move || drop(listener)
        });
    }
    {
        let moved = moved.clone();
        // While a link is read or its content shown, the link stays in the address bar — from
        // the start (the read begins after this effect's first run) until it is resolved.
        let unresolved = use_mut_ref(|| link::is_share_fragment(&browser::location_fragment()));
        let sharing = state.shared.is_some() || state.link == LinkStatus::Opening;
        let resolved = state.shared.is_some() || matches!(state.link, LinkStatus::Failed { .. });
        use_effect_with(
            (state.place(), state.open.clone(), *pops, sharing, resolved),
            move |(place, open, _, sharing, resolved)| {
                if *resolved {
                    *unresolved.borrow_mut() = false;
                }
                let fragment = place.fragment_of(open.as_ref());
                let now = browser::location_fragment();
                if !*sharing && !*unresolved.borrow() && now != fragment {
                    // A fresh page, or a history entry the app could not follow exactly, is
                    // corrected in place; anything the user did gets its own entry.
                    let push = !now.is_empty() && !*moved.borrow();
                    browser::set_fragment(&fragment, push);
                }
                *moved.borrow_mut() = false;
            },
        );
    }
}

/// The ja / en switch: a group of two toggle buttons.
fn lang_switch(ctx: &AppContext) -> Html {
    let ctx = ctx.clone();
    let label = t!("ui.language", locale = ctx.lang.code()).into_owned();
    html! {
        <div class="lang" role="group" aria-label={label}>
            { for Lang::ALL.iter().map(|&lang| {
                let ctx = ctx.clone();
                let pressed = ctx.lang == lang;
                let onclick = Callback::from(move |_| ctx.dispatch(Action::SetLang(lang)));
                let name = match lang { Lang::En => "English", Lang::Ja => "日本語" };
                html! {
                    <button type="button" lang={lang.code()} data-lang={lang.code()}
                        aria-pressed={pressed.to_string()} {onclick}>{ name }</button>
                }
            }) }
        </div>
    }
}

/// The way back to any earlier screen: Decide, and Sheet once a decision exists.
fn nav(ctx: &AppContext) -> Html {
    let ctx = ctx.clone();
    let l = ctx.lang.code();
    let decided = ctx.evaluation().outcome().is_some();
    let tab = |screen: Screen, label: String, enabled: bool, action: Action| {
        let current = ctx.screen == screen;
        let ctx = ctx.clone();
        let onclick = Callback::from(move |_| ctx.dispatch(action.clone()));
        html! {
            <button type="button" class="tab" disabled={!enabled}
                aria-current={current.then_some("page")} {onclick}>{ label }</button>
        }
    };
    html! {
        <nav class="tabs" aria-label={t!("ui.screens", locale = l).into_owned()}>
            { tab(Screen::Decide, t!("ui.tab-decide", locale = l).into_owned(), true, Action::ShowDecide) }
            { tab(Screen::Sheet, t!("ui.tab-sheet", locale = l).into_owned(), decided, Action::OpenSheet) }
            { tab(Screen::Simulate, t!("ui.tab-simulate", locale = l).into_owned(), true, Action::ShowSimulate) }
        </nav>
    }
}

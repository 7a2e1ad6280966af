//! The slim bar under the top bar: "← Catalog › the open process", the way back to the catalog
//! from the questions, the sheet and the simulator; on the catalog screen, the catalog alone.

use crate::domain::app_state::{CatalogAction, Screen};
use crate::domain::bidi::isolate;
use crate::domain::catalog_rows::open_name;
use crate::text::t;
use crate::ui::state::{Action, AppContext};
use yew::prelude::*;

/// The bar naming the catalog (its name, or "Catalog" when unnamed) as a button back to it,
/// and the open process (none when no process is open). A plain function of the state (drawn
/// with the app's shell), not a component: one less component in the first load.
pub fn open_process_bar(ctx: &AppContext) -> Html {
    let l = ctx.lang.code();
    let system = ctx.catalog.name.trim();
    let catalog = if system.is_empty() {
        t!("catalog-screen.bar-catalog", locale = l).into_owned()
    } else {
        t!(
            "catalog-screen.bar-named",
            locale = l,
            name = isolate(system)
        )
        .into_owned()
    };
    let on_catalog = ctx.screen == Screen::Catalog;
    let onclick = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Catalog(CatalogAction::Show)))
    };
    html! {
        <nav class="open-bar" aria-label={t!("catalog-screen.bar-label", locale = l).into_owned()}>
            <ol>
                <li>
                    <button type="button" class="link" id="bar-catalog" {onclick}
                        aria-current={on_catalog.then_some("page")}>
                        if !on_catalog {
                            <span aria-hidden="true" class="bar-back">{ "← " }</span>
                        }
                        { catalog }
                    </button>
                </li>
                // On the catalog screen no process is open as far as the user can tell: the
                // bar names the catalog alone.
                if let (false, Some(name)) = (on_catalog, open_name(ctx)) {
                    <li class="bar-process" aria-current="page">
                        <span aria-hidden="true" class="bar-sep">{ "›" }</span>
                        <span id="bar-process" class="user-text" title={name.clone()}>{ name }</span>
                    </li>
                }
            </ol>
            { crate::ui::share::share_button(ctx) }
        </nav>
    }
}

//! The result card: outcome, reasons, trade-offs, what to do next.

use crate::domain::Outcome;
use crate::text::t;
use crate::ui::state::{Action, AppContext};
use yew::prelude::*;

/// Shows the recommendation once the walk is complete.
#[component]
pub fn ResultCard() -> Html {
    let heading = use_node_ref();
    {
        let heading = heading.clone();
        use_effect_with((), move |_| {
            if let Some(h) = heading.cast::<web_sys::HtmlElement>() {
                let _ = h.focus();
            }
        });
    }
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let eval = ctx.evaluation();
    let Some(outcome) = eval.outcome() else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let back = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Back))
    };
    let open_sheet = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::OpenSheet))
    };
    let simulate = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::SimulateSheet))
    };
    let queued = matches!(outcome, Outcome::AsyncEnqueue | Outcome::AsyncTicket);
    let restart = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Restart))
    };
    let list = |title: String, class: &'static str, items: Vec<String>| {
        html! {
            <section class={classes!("block", class)}>
                <h3>{ title }</h3>
                <ul>{ for items.into_iter().map(|i| html! { <li>{ i }</li> }) }</ul>
            </section>
        }
    };
    html! {
        <article class="card result" data-outcome={outcome.id()} aria-labelledby="result-title">
            <p class="step">{ t!("ui.result", locale = l) }</p>
            <h2 id="result-title" ref={heading} tabindex="-1" class="outcome">{ outcome.title(lang) }</h2>
            <p class="summary">{ outcome.summary(lang) }</p>
            { list(t!("ui.reasons", locale = l).into_owned(), "reasons", eval.reasons(lang)) }
            { list(t!("ui.tradeoffs", locale = l).into_owned(), "tradeoffs", eval.tradeoffs(lang)) }
            { list(t!("ui.next-steps", locale = l).into_owned(), "next", outcome.next_steps(lang)) }
            <div class="actions">
                <button type="button" class="secondary" onclick={back}>{ t!("ui.back", locale = l) }</button>
                <button type="button" class="secondary" onclick={restart}>{ t!("ui.restart", locale = l) }</button>
                if queued {
                    <button type="button" class="secondary" id="simulate-sheet" onclick={simulate}>{ t!("ui.simulate-sheet", locale = l) }</button>
                }
                <button type="button" class="primary" id="open-sheet" onclick={open_sheet}>{ t!("ui.open-sheet", locale = l) }</button>
            </div>
        </article>
    }
}

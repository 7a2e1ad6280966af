//! The flowchart beside the wizard, with the path so far highlighted.

use crate::domain::diagram::highlighted_svg;
use crate::ui::state::AppContext;
use rust_i18n::t;
use yew::prelude::*;

/// The build-time SVG of the current language with the path marked by CSS classes.
#[component]
pub fn Chart() -> Html {
    let ctx = use_context::<AppContext>();
    let key = ctx.as_ref().map(|c| (c.lang, c.answers, c.editing));
    let svg = use_memo(key, |key| {
        key.map(|(lang, answers, editing)| {
            let eval = crate::domain::evaluate(&answers);
            AttrValue::from(highlighted_svg(lang, &eval, editing))
        })
    });
    let (Some(ctx), Some(svg)) = (ctx, (*svg).clone()) else {
        return Html::default();
    };
    let l = ctx.lang.code();
    html! {
        <figure class="chart" data-lang={l}>
            <figcaption>
                <h2>{ t!("ui.flowchart", locale = l) }</h2>
                <span>{ t!("ui.flowchart-path", locale = l) }</span>
            </figcaption>
            { Html::from_html_unchecked(svg) }
        </figure>
    }
}

//! The flowchart beside the wizard, with the path so far highlighted.

use crate::domain::diagram::highlighted_svg;
use crate::text::t;
use crate::ui::state::AppContext;
use yew::prelude::*;

/// The build-time SVG of the current language with the path marked by CSS classes. A plain
/// function of the state drawn with the Decide screen (marking the path is a few string
/// replacements; the DOM is touched only when the marked SVG differs).
pub fn chart(ctx: &AppContext) -> Html {
    let eval = crate::domain::evaluate(&ctx.answers);
    let svg = AttrValue::from(highlighted_svg(ctx.lang, &eval, ctx.editing));
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

//! The charts of a finished run — queue depth over time, attempts per job, latency
//! percentiles, downstream calls per second — and the worker timeline, as the simulation
//! worker drew them ([`RunView::drawn`], see `domain::sim::results::drawn`): finished HTML in
//! both languages, with captions and the lines saying why a chart is left out. This component
//! only inserts the reader's language; the chart code and its words stay in the worker.
//! (The markup uses classes only, no inline style, so the page's CSP holds.)

use crate::domain::sim::results::drawn::pick;
use crate::domain::sim::runner::RunView;
use crate::ui::state::AppContext;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`SimCharts`].
#[derive(Properties, PartialEq)]
pub struct SimChartsProps {
    /// The finished run whose drawn charts are shown.
    pub view: Rc<RunView>,
}

/// The charts section of `view`, or nothing when the run has none (the jitter study).
#[component]
pub fn SimCharts(props: &SimChartsProps) -> Html {
    let Some(lang) = use_context::<AppContext>().map(|c| c.lang) else {
        return Html::default();
    };
    raw(pick(&props.view.drawn.charts, lang))
}

/// The worker timeline of `view` (or the line saying why it is not drawn); nothing when the
/// run has no workers. The stepper moves its "now" cursor
/// ([`move_timeline_cursor`](crate::ui::browser::move_timeline_cursor)).
#[component]
pub fn SimTimeline(props: &SimChartsProps) -> Html {
    let Some(lang) = use_context::<AppContext>().map(|c| c.lang) else {
        return Html::default();
    };
    raw(pick(&props.view.drawn.timeline, lang))
}

/// `html` as nodes (nothing when empty).
pub fn raw(html: &str) -> Html {
    if html.is_empty() {
        return Html::default();
    }
    Html::from_html_unchecked(AttrValue::from(html.to_owned()))
}

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
/// run has no workers. The stepper moves its "now" cursor ([`move_cursor`]).
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

/// Moves the worker timeline's "now" cursor to virtual time `t_us` (µs): sets the
/// `transform` of its `g.plot-now` from the drawing's `data-t0/t1` (µs) and `data-x0/x1`
/// (tenths of a unit) — one attribute, nothing redrawn. Does nothing without a timeline.
pub fn move_cursor(t_us: u64) {
    let Some(svg) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(".sim-result svg.plot-lanes")
            .ok()
            .flatten()
    }) else {
        return;
    };
    let num = |k: &str| -> i64 {
        svg.get_attribute(k)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let (t0, t1, x0, x1) = (
        num("data-t0"),
        num("data-t1"),
        num("data-x0"),
        num("data-x1"),
    );
    let t = (t_us as i64).clamp(t0, t1.max(t0));
    let x = x0 + (x1 - x0) * (t - t0) / (t1 - t0).max(1);
    if let Ok(Some(g)) = svg.query_selector("g.plot-now") {
        let _ = g.set_attribute("transform", &format!("translate({}.{} 0)", x / 10, x % 10));
    }
}

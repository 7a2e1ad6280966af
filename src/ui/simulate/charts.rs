//! The four charts of a finished run — queue depth over time, attempts per job, latency
//! percentiles, downstream calls per second (ok / busy / failed) — each with a caption saying
//! what to look for. The SVG comes from [`crate::domain::sim::results::charts::render`] (classes only,
//! no inline style, so the page's CSP holds); this component only places it.
//!
//! Reusable for a side-by-side comparison: give each side its own `view`, `compact` and the
//! same `scale` ([`ChartScale::shared`] of both runs), so equal bars mean equal values.

use crate::domain::sim::results::charts::{render_scaled, text, ChartScale};
use crate::domain::sim::runner::RunView;
use crate::ui::state::AppContext;
use rust_i18n::t;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`SimCharts`].
#[derive(Properties, PartialEq)]
pub struct SimChartsProps {
    /// The finished run whose [`RunView::charts`] are drawn.
    pub view: Rc<RunView>,
    /// Smaller viewBoxes and one chart per row, for half-width columns.
    #[prop_or_default]
    pub compact: bool,
    /// Axis ends shared with another run (`None`: the run's own, [`ChartScale::of`]).
    #[prop_or_default]
    pub scale: Option<ChartScale>,
}

/// The four charts of `view`, or nothing when the run has none (the jitter study). A run
/// without downstream calls gets a one-line explanation in place of the calls chart.
#[component]
pub fn SimCharts(props: &SimChartsProps) -> Html {
    let lang = use_context::<AppContext>().map(|c| c.lang);
    let v = props.view.clone();
    // Equal keys mean equal runs (the trace hash fingerprints the run), so equal charts.
    let key = (
        v.trace_hash.clone(),
        v.scenario.clone(),
        v.variant.clone(),
        v.seed,
        lang,
        props.compact,
        props.scale,
    );
    let svgs = {
        let v = v.clone();
        use_memo(key, move |(.., lang, compact, scale)| {
            lang.map(|lang| {
                let scale = scale.unwrap_or_else(|| ChartScale::of(&v.charts));
                render_scaled(&v.charts, *compact, &scale, &text(lang))
                    .into_iter()
                    .map(|(id, svg)| (id, AttrValue::from(svg)))
                    .collect::<Vec<_>>()
            })
        })
    };
    let (Some(lang), Some(svgs)) = (lang, (*svgs).clone()) else {
        return Html::default();
    };
    if v.charts.is_empty() {
        return Html::default();
    }
    let l = lang.code();
    // A run without downstream calls gets one line saying so, not an empty chart box.
    let no_calls = v.charts.calls.buckets.is_empty();
    let figures = svgs.into_iter().map(|(id, svg)| {
        if id == "calls" && no_calls {
            return html! {
                <figure class="sim-chart chart-none" data-chart={id} data-empty="true">
                    <figcaption><strong>{ t!("charts.calls.title", locale = l) }</strong></figcaption>
                    <p class="chart-none-why">{ t!("charts.calls.none-why", locale = l) }</p>
                </figure>
            };
        }
        html! {
            <figure class="sim-chart" data-chart={id}>
                <figcaption>
                    <strong>{ t!(format!("charts.{id}.title"), locale = l) }</strong>
                    { t!(format!("charts.{id}.caption"), locale = l) }
                </figcaption>
                { Html::from_html_unchecked(svg) }
            </figure>
        }
    });
    html! {
        <section class={classes!("sim-charts", props.compact.then_some("compact"))}>
            <h4>{ t!("charts.heading", locale = l) }</h4>
            <p class="scroll-hint" data-scroll-hint="charts">{ t!("ui.scroll-hint.charts", locale = l) }</p>
            <div class="charts-grid">{ for figures }</div>
        </section>
    }
}

//! A finished run: its key facts, stepping and the state machine, the charts, the jobs table
//! and the event log. The key facts and the jobs table arrive drawn by the simulation worker
//! in both languages ([`RunView::drawn`], see `domain::sim::results::run_html`); this
//! component inserts the reader's language, so a language switch needs no new run.

use crate::domain::number::group_thousands;
use crate::domain::sim::results::drawn::pick;
use crate::domain::sim::runner::{LogRequest, RunView};
use crate::text::t;
use crate::ui::simulate::charts::raw;
use crate::ui::simulate::event_log::{EventLog, LogAnswer};
use crate::ui::simulate::labels::run_title;
use crate::ui::simulate::stepper::StepView;
use crate::ui::state::AppContext;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`RunResult`].
#[derive(Properties, PartialEq)]
pub struct RunResultProps {
    /// The finished run.
    pub view: Rc<RunView>,
    /// The latest answer from the worker about a run's log.
    #[prop_or_default]
    pub log_answer: Option<LogAnswer>,
    /// Asks the worker for log lines (`false`: no worker to ask).
    #[prop_or_default]
    pub log_request: Option<Callback<LogRequest, bool>>,
    /// A log line (0-based) to scroll to and mark as the current one.
    #[prop_or_default]
    pub highlight: Option<u64>,
    /// The worker holding this run's log was stopped: only the lines sent with the result
    /// can be read.
    #[prop_or_default]
    pub log_lost: bool,
}

/// Key facts, the jobs table and the event log of a finished run.
#[component]
pub fn RunResult(props: &RunResultProps) -> Html {
    let step_line = use_state_eq(|| None::<u64>);
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let v = &props.view;
    // "Your settings" runs as the CLI's `--config` run (`config` / `file`).
    let title = if v.scenario == "config" {
        t!("knobs.ui.preset-title", locale = l).into_owned()
    } else {
        run_title(&v.scenario, &v.variant, lang)
    };
    html! {
        <section class="sim-result" data-scenario={v.scenario.clone()} data-variant={v.variant.clone()} aria-labelledby="sim-result-title">
            <h3 id="sim-result-title" tabindex="-1">{ t!("sim.ui.result", locale = l) }{ t!("ui.colon", locale = l) }{ title }{ t!("sim.ui.seed-n", locale = l, seed = v.seed.to_string()) }</h3>
            { raw(pick(&v.drawn.facts, lang)) }
            <div class="slot"><StepView key={Rc::as_ptr(v) as usize} view={v.clone()} on_line={{ let s = step_line.clone(); Callback::from(move |l| s.set(l)) }} /></div>
            <div class="slot"><crate::ui::simulate::charts::SimTimeline view={props.view.clone()} /></div>
            <div class="slot"><crate::ui::simulate::charts::SimCharts view={props.view.clone()} /></div>
            { raw(pick(&v.drawn.jobs, lang)) }
            if v.log_total > 0 {
                <h4>{ t!("sim.ui.log", locale = l) }</h4>
                <EventLog view={v.clone()} answer={props.log_answer.clone()} request={props.log_request.clone()} highlight={props.highlight.or(*step_line)} lost={props.log_lost} />
            } else if let Some(max) = v.log_bound {
                <p class="hint" data-log-off="true">{ t!("sim-log.ui.off", locale = l, max = group_thousands(max)) }</p>
            }
        </section>
    }
}

//! A finished run: its key facts, stepping and the state machine, the charts, the jobs table
//! and the event log.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sim::runner::{LogRequest, RunView, LEASE_FACTS};
use crate::ui::simulate::event_log::{EventLog, LogAnswer};
use crate::ui::simulate::labels::run_title;
use crate::ui::simulate::stepper::StepView;
use crate::ui::state::AppContext;
use rust_i18n::t;
use std::rc::Rc;
use yew::prelude::*;

/// Rows of the jobs table shown at most.
const SHOW_LINES: usize = 1_000;

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
            <h3 id="sim-result-title">{ t!("sim.ui.result", locale = l) }{ t!("ui.colon", locale = l) }{ title }{ t!("sim.ui.seed-n", locale = l, seed = v.seed.to_string()) }</h3>
            <dl class="facts">{ for facts(v, l) }</dl>
            <div class="slot"><StepView key={Rc::as_ptr(v) as usize} view={v.clone()} on_line={{ let s = step_line.clone(); Callback::from(move |l| s.set(l)) }} /></div>
            <div class="slot"><crate::ui::simulate::charts::SimTimeline view={props.view.clone()} /></div>
            <div class="slot"><crate::ui::simulate::charts::SimCharts view={props.view.clone()} /></div>
            if !v.jobs.is_empty() {
                { jobs_table(v, lang) }
            }
            if v.log_total > 0 {
                <h4>{ t!("sim.ui.log", locale = l) }</h4>
                <EventLog view={v.clone()} answer={props.log_answer.clone()} request={props.log_request.clone()} highlight={props.highlight.or(*step_line)} lost={props.log_lost} />
            } else if let Some(max) = v.log_bound {
                <p class="hint" data-log-off="true">{ t!("sim-log.ui.off", locale = l, max = group_thousands(max)) }</p>
            }
        </section>
    }
}

/// The key facts of run `v` (trace hash, then those the run has), as `dl` items in `l`.
fn facts(v: &RunView, l: &str) -> Vec<Html> {
    let fact = |key: &'static str, label: String, value: String| {
        html! { <div class="fact" data-fact={key}><dt>{ label }</dt><dd>{ value }</dd></div> }
    };
    let mut facts = vec![fact(
        "trace-hash",
        t!("sim.ui.trace-hash", locale = l).into_owned(),
        v.trace_hash.clone(),
    )];
    // The jitter study is computed without the event engine: no events to count.
    if v.events > 0 {
        facts.push(fact(
            "events",
            t!("sim.ui.events", locale = l).into_owned(),
            group_thousands(v.events),
        ));
    }
    if v.key.queue {
        // Virtual time, and (in the browser) the worker's wall-clock time, each named.
        let tenths = (v.key.end_s * 10.0).round() as u64;
        let s = format!("{}.{}", group_thousands(tenths / 10), tenths % 10);
        let mut took = t!("sim.ui.took-sim", locale = l, s = s).into_owned();
        if let Some(ms) = v.wall_ms {
            took.push_str(&t!(
                "sim.ui.took-wall",
                locale = l,
                ms = group_thousands(ms)
            ));
        }
        facts.push(fact(
            "elapsed",
            t!("sim.ui.took", locale = l).into_owned(),
            took,
        ));
    }
    if !v.jobs.is_empty() {
        let [d, x, q, r] = v.counts;
        facts.push(fact(
            "rows",
            t!("sim.ui.rows", locale = l).into_owned(),
            [d, x, q, r].map(group_thousands).join(" / "),
        ));
    }
    if let Some(b) = v.balance {
        facts.push(fact(
            "balance",
            t!("sim.ui.balance", locale = l).into_owned(),
            crate::domain::number::group_thousands_signed(b),
        ));
        facts.push(fact(
            "duplicates",
            t!("sim.ui.duplicates", locale = l).into_owned(),
            format!(
                "{} / {}",
                group_thousands(v.duplicates.0),
                group_thousands(v.duplicates.1)
            ),
        ));
    }
    if !v.claims.is_empty() {
        let text = v
            .claims
            .iter()
            .map(|(w, j)| format!("{w} → job#{j}"))
            .collect::<Vec<_>>()
            .join(", ");
        facts.push(fact(
            "claims",
            t!("sim.ui.claims", locale = l).into_owned(),
            text,
        ));
    }
    if !v.errors.is_empty() {
        let text = v
            .errors
            .iter()
            .map(|(w, e)| format!("{w}: {e}"))
            .collect::<Vec<_>>()
            .join("; ");
        facts.push(fact(
            "errors",
            t!("sim.ui.errors", locale = l).into_owned(),
            text,
        ));
    }
    if v.scenario == "burst-leveling" {
        let (a, f, ok, busy) = v.intake;
        facts.push(fact(
            "intake",
            t!("sim.ui.intake", locale = l).into_owned(),
            format!("{a} / {f} / {ok} / {busy}"),
        ));
    }
    // A run the limits cut short says so: its figures describe an unfinished run.
    if let Some(why) = &v.cut_short {
        facts.push(fact(
            "cut-short",
            t!("sim.ui.cut-short", locale = l).into_owned(),
            t!(format!("sim.ui.stop.{why}"), locale = l).into_owned(),
        ));
    }
    // What the engine let happen around leases, each said when it happened at all.
    for (id, n) in LEASE_FACTS.iter().zip(v.lease_counts) {
        if n > 0 {
            facts.push(fact(
                id,
                t!(format!("sim.ui.lease.{id}"), locale = l).into_owned(),
                group_thousands(n),
            ));
        }
    }
    if let Some((calls, ms)) = v.contention {
        facts.push(fact(
            "contention",
            t!("sim.ui.contention", locale = l).into_owned(),
            format!("{calls:.0} / {ms:.0} ms"),
        ));
    }
    facts
}

/// The jobs table (at most [`SHOW_LINES`] rows) under its heading, and a note when rows were
/// cut.
fn jobs_table(v: &RunView, lang: Lang) -> Html {
    let l = lang.code();
    let rows_total: u64 = v.counts.iter().sum();
    let col = |key: &str| t!(format!("sim.ui.col-{key}"), locale = l).into_owned();
    html! {
        <>
            <h4>{ t!("sim.ui.jobs", locale = l) }</h4>
            <div class="table-wrap">
                <table class="jobs">
                    <thead><tr>
                        <th>{ col("id") }</th><th>{ col("name") }</th><th>{ col("status") }</th><th>{ col("attempts") }</th><th>{ col("last-error") }</th>
                    </tr></thead>
                    <tbody>
                        { for v.jobs.iter().take(SHOW_LINES).map(|j| html! {
                            <tr data-job={j.id.to_string()} data-status={j.status.clone()}>
                                <td>{ j.id }</td><td>{ j.name.clone() }</td><td class={classes!("st", j.status.clone())}>{ j.status.clone() }</td>
                                <td>{ format!("{}/{}", j.attempts, j.max_attempts) }</td><td>{ j.last_error_in(lang) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if rows_total > v.jobs.len() as u64 {
                <p class="hint" data-rows-cut="true">{ t!("sim.ui.rows-cut", locale = l, shown = group_thousands(v.jobs.len() as u64), total = group_thousands(rows_total)) }</p>
            }
        </>
    }
}

//! The simulator screen: the six presets with their lessons, "your settings", variant and
//! seed, a run in the simulation Web Worker (progress, cancel), the result
//! ([`RunResult`]) and Compare. The engine never runs on the
//! main thread.

pub mod charts;
pub mod compare;
pub mod event_log;
pub mod job_states;
pub mod knobs;
pub mod run_result;
pub mod stepper;

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use crate::domain::session::{sim_presets, sim_variants, SimEdit, CUSTOM_PRESET};
use crate::domain::sim::results::compare::default_alternative;
use crate::domain::sim::runner::{
    LogRequest, RunMessage, RunRequest, LOAD_SCENARIO, MAX_LOAD_JOBS,
};
use crate::domain::sim::setup::knobs::{Change, CustomRun, Knob, KnobError};
use crate::domain::sim::Scenario;
use crate::ui::browser::SimWorker;
use crate::ui::simulate::compare::{RunLabel, SimCompare};
use crate::ui::simulate::event_log::LogAnswer;
use crate::ui::simulate::knobs::SimKnobs;
use crate::ui::simulate::run_result::RunResult;
use crate::ui::state::{Action, AppContext};
use rust_i18n::t;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Why a run was not started (or the worker refused it), kept as a value and worded when
/// shown, so switching the language rewords it.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The seed field does not hold a whole number 0 ..= `u64::MAX`.
    Seed,
    /// The load preset's job count is not 1 ..= [`MAX_LOAD_JOBS`].
    Jobs,
    /// A knob field shows a value it refused (the settings hold its last good value).
    Refused(Knob),
    /// A knob's finding from [`CustomRun::validate`].
    Knob(KnobError),
    /// The browser would not start the worker (its own words).
    WorkerStart(String),
    /// The browser or the worker refused the request (their own words: field paths of the
    /// config, in English like the CLI's).
    Other(String),
}

impl Problem {
    /// The problem worded in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            Problem::Seed => seed_error(lang),
            Problem::Jobs => t!(
                "sim.ui.jobs-error",
                locale = l,
                max = group_thousands(MAX_LOAD_JOBS)
            )
            .into_owned(),
            Problem::Refused(knob) => {
                t!("knobs.ui.refused-knob", locale = l, knob = knob.label(lang)).into_owned()
            }
            Problem::Knob(e) => e.message(lang),
            Problem::WorkerStart(e) => {
                t!("sim.ui.worker-failed", locale = l, error = e.as_str()).into_owned()
            }
            Problem::Other(e) => e.clone(),
        }
    }
}

/// The seed field's message: one rule for every preset and for config files (0 ..= u64::MAX).
fn seed_error(lang: Lang) -> String {
    t!(
        "sim.ui.seed-error",
        locale = lang.code(),
        max = group_thousands(u64::MAX)
    )
    .into_owned()
}

/// A variant's label in `lang` (the id stays visible next to it: the CLI takes the id).
pub(crate) fn variant_label(id: &str, lang: Lang) -> String {
    t!(format!("sim.variant.{id}"), locale = lang.code()).into_owned()
}

/// A preset run's title in `lang`: the preset's title and the variant's label, e.g.
/// "Duplicate execution / No key" (the result heading and Compare's labels).
pub(crate) fn run_title(scenario: &str, variant: &str, lang: Lang) -> String {
    format!(
        "{} / {}",
        t!(format!("sim.preset.{scenario}.title"), locale = lang.code()),
        variant_label(variant, lang)
    )
}

#[derive(Debug, Clone, PartialEq)]
enum RunStatus {
    Idle,
    Running(u64),
    Cancelled,
    Failed(Vec<Problem>),
}

/// The simulator screen.
#[component]
pub fn SimulateScreen() -> Html {
    let ctx = use_context::<AppContext>();
    let saved = ctx.as_ref().map(|c| c.sim.clone()).unwrap_or_default();
    let seed_raw = use_state(|| saved.seed.to_string());
    let jobs_raw = use_state(|| saved.jobs.to_string());
    let status = use_state(|| RunStatus::Idle);
    let worker: Rc<RefCell<Option<SimWorker>>> = use_mut_ref(|| None);
    let run_id = use_mut_ref(|| 0u64);
    // The latest answer about a run's log (the event log box keeps what concerns its run).
    let log_answer = use_state(|| None::<LogAnswer>);
    // Whether the worker holding the shown result's log was stopped (Cancel).
    let log_lost = use_state(|| false);
    // Bumped by "Reset to the sheet" so every knob field starts afresh (drops refused text).
    let resets = use_state(|| 0u32);
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let choice = &ctx.sim;
    let edit = {
        let ctx = ctx.clone();
        move |e: SimEdit| ctx.dispatch(Action::SetSim(e))
    };
    let scenario: &'static str = sim_presets()
        .into_iter()
        .find(|p| *p == choice.preset)
        .unwrap_or(Scenario::RetryDeadLetter.id());
    let variant: &'static str = sim_variants(scenario)
        .iter()
        .copied()
        .find(|v| *v == choice.variant)
        .unwrap_or(sim_variants(scenario)[0]);
    let seed = parse_whole(&seed_raw);
    let is_load = scenario == LOAD_SCENARIO;
    let is_custom = scenario == CUSTOM_PRESET;
    let sheet_run = ctx
        .sheet
        .as_ref()
        .map_or_else(CustomRun::default, CustomRun::from_sheet);
    let settings = choice.custom.clone().unwrap_or_else(|| sheet_run.clone());
    let current_config = is_custom.then(|| custom_file(&settings));
    let jobs = parse_whole(&jobs_raw).filter(|n| (1..=MAX_LOAD_JOBS).contains(n));

    let on_message = {
        let (status, run_id, log_answer) = (status.clone(), run_id.clone(), log_answer.clone());
        let log_lost = log_lost.clone();
        let app = ctx.clone();
        Callback::from(move |text: String| {
            let Ok(msg) = serde_json::from_str::<RunMessage>(&text) else {
                return;
            };
            let current = *run_id.borrow();
            match msg {
                RunMessage::Progress { id, events } if id == current => {
                    status.set(RunStatus::Running(events))
                }
                RunMessage::Done { id, view } if id == current => {
                    app.dispatch(Action::SimResult(Rc::new(*view)));
                    log_lost.set(false);
                    status.set(RunStatus::Idle);
                }
                RunMessage::Failed { id, errors } if id == current => status.set(
                    RunStatus::Failed(errors.into_iter().map(Problem::Other).collect()),
                ),
                RunMessage::LogSlice {
                    id, from, entries, ..
                } => log_answer.set(Some(LogAnswer::Slice {
                    id,
                    from,
                    entries: Rc::new(entries),
                })),
                RunMessage::LogError { id, .. } => log_answer.set(Some(LogAnswer::Gone { id })),
                _ => {}
            }
        })
    };
    let run = {
        let (status, worker, run_id) = (status.clone(), worker.clone(), run_id.clone());
        let current_config = current_config.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let fail = |p: Problem| status.set(RunStatus::Failed(vec![p]));
            // Every field showing a refused value is named at once: the seed, and the knobs
            // (a refused knob holds its last good value; do not run that).
            let mut problems = Vec::new();
            if seed.is_none() {
                problems.push(Problem::Seed);
            }
            if is_custom {
                problems.extend(
                    crate::ui::simulate::knobs::refused_knobs()
                        .into_iter()
                        .map(Problem::Refused),
                );
            }
            let (Some(seed), true) = (seed, problems.is_empty()) else {
                status.set(RunStatus::Failed(problems));
                return;
            };
            let custom = match current_config.clone() {
                Some(Err(errors)) => {
                    status.set(RunStatus::Failed(errors));
                    return;
                }
                Some(Ok(c)) => Some(c),
                None => None,
            };
            if is_load && jobs.is_none() {
                return fail(Problem::Jobs);
            }
            if let Err(e) = start_worker(&worker, &on_message) {
                return fail(Problem::WorkerStart(e));
            }
            let w = worker.borrow();
            let id = *run_id.borrow() + 1;
            *run_id.borrow_mut() = id;
            let req = RunRequest {
                id,
                scenario: scenario.to_owned(),
                variant: Some(variant.to_owned()),
                seed,
                jobs: if is_load { jobs } else { None },
                custom,
            };
            let sent = serde_json::to_string(&req)
                .map_err(|e| e.to_string())
                .and_then(|json| w.as_ref().map_or(Ok(()), |sw| sw.send(&json)));
            match sent {
                Ok(()) => status.set(RunStatus::Running(0)),
                Err(err) => fail(Problem::Other(err)),
            }
        })
    };
    let cancel = {
        let (status, worker, run_id) = (status.clone(), worker.clone(), run_id.clone());
        let log_lost = log_lost.clone();
        Callback::from(move |_| {
            // Terminating the worker is the only way to stop a run in progress; the log of
            // the result on show (held by that worker) goes with it.
            worker.borrow_mut().take();
            *run_id.borrow_mut() += 1;
            log_lost.set(true);
            status.set(RunStatus::Cancelled);
        })
    };
    let running = matches!(*status, RunStatus::Running(_));
    // Log lines come from the worker that ran the result shown; none when it was stopped.
    let log_request = {
        let worker = worker.clone();
        Callback::from(move |req: LogRequest| -> bool {
            let Ok(json) = serde_json::to_string(&req) else {
                return false;
            };
            worker
                .borrow()
                .as_ref()
                .is_some_and(|w| w.is_ready() && w.send(&json).is_ok())
        })
    };

    let presets = sim_presets().into_iter().map(|sc| {
        let pressed = scenario == sc;
        let onclick = {
            let edit = edit.clone();
            Callback::from(move |_| edit(SimEdit::Preset(sc.to_owned())))
        };
        html! {
            <li>
                <button type="button" class="preset" data-scenario={sc} aria-pressed={pressed.to_string()} {onclick}>
                    <strong>{ t!(format!("sim.preset.{sc}.title"), locale = l) }</strong>
                    <span>{ t!(format!("sim.preset.{sc}.lesson"), locale = l) }</span>
                </button>
            </li>
        }
    });
    let on_jobs = {
        let (jobs_raw, edit) = (jobs_raw.clone(), edit.clone());
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Some(n) = parse_whole(&text).filter(|n| (1..=MAX_LOAD_JOBS).contains(n)) {
                edit(SimEdit::Jobs(n));
            }
            jobs_raw.set(text)
        })
    };
    let jobs_error = (is_load && jobs.is_none()).then(|| Problem::Jobs.text(lang));
    let jobs_field = is_load.then(|| html! {
        <div class="sfield" data-field="jobs">
            <label for="jobs">{ t!("sim.ui.jobs-count", locale = l) }</label>
            <input id="jobs" type="text" inputmode="numeric" autocomplete="off" value={(*jobs_raw).clone()}
                oninput={on_jobs} aria-invalid={jobs_error.is_some().to_string()} />
            <div class="slot">{ jobs_error.map(|e| html! { <p class="error" role="alert">{ e }</p> }) }</div>
        </div>
    });
    let variants = sim_variants(scenario).iter().map(|&v| {
        let checked = variant == v;
        let onchange = {
            let edit = edit.clone();
            Callback::from(move |_| edit(SimEdit::Variant(v.to_owned())))
        };
        let id = format!("variant-{v}");
        html! {
            <label class="mode" for={id.clone()}>
                <input type="radio" id={id} name="variant" value={v} {checked} {onchange} />
                <span>{ variant_label(v, lang) }{ " " }<code class="variant-id">{ v }</code></span>
            </label>
        }
    });
    let on_seed = {
        let (seed_raw, edit) = (seed_raw.clone(), edit.clone());
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Some(n) = parse_whole(&text) {
                edit(SimEdit::Seed(n));
            }
            seed_raw.set(text)
        })
    };
    let seed_error = seed.is_none().then(|| seed_error(lang));

    // Compare: A = what Run would run now; B = another variant, or the settings with one change.
    let compare = {
        let base = |variant: &str, custom: Option<CustomRun>| RunRequest {
            id: 0,
            scenario: scenario.to_owned(),
            variant: Some(variant.to_owned()),
            seed: seed.unwrap_or(0),
            jobs: None,
            custom,
        };
        let (a, a_label, alternatives) = if is_load {
            // No Compare for the load preset (no alternatives: the section shows nothing).
            (Err(Vec::new()), RunLabel::Settings, Vec::new())
        } else if is_custom {
            let a = match (seed, custom_file(&settings)) {
                (None, _) => Err(vec![Problem::Seed]),
                (_, Err(e)) => Err(e),
                (Some(_), Ok(file)) => Ok(base("your-settings", Some(file))),
            };
            let from = Rc::new(settings.clone());
            let alternatives = Change::ALL
                .into_iter()
                .map(|c| {
                    // Unchecked here: A is checked when Compare is pressed, and B differs from
                    // A only by a switch (or twice the workers, capped at the knob's maximum).
                    (
                        RunLabel::Changed(from.clone(), c),
                        base("your-settings", Some(settings.changed(c))),
                    )
                })
                .collect();
            (a, RunLabel::Settings, alternatives)
        } else {
            let all = sim_variants(scenario);
            let first = default_alternative(scenario, variant, all);
            let label = |v: &str| RunLabel::Preset {
                scenario: AttrValue::from(scenario.to_owned()),
                variant: AttrValue::from(v.to_owned()),
            };
            let alternatives = first
                .into_iter()
                .chain(
                    all.iter()
                        .copied()
                        .filter(|v| *v != variant && Some(*v) != first),
                )
                .map(|v| (label(v), base(v, None)))
                .collect();
            (
                seed.map(|_| base(variant, None))
                    .ok_or_else(|| vec![Problem::Seed]),
                label(variant),
                alternatives,
            )
        };
        html! { <SimCompare key={scenario} {a} {a_label} {alternatives} /> }
    };

    let status_line = match &*status {
        RunStatus::Idle => Html::default(),
        RunStatus::Running(0) => {
            html! { <p class="sim-status" role="status" data-status="running">{ t!("sim.ui.starting", locale = l) }</p> }
        }
        RunStatus::Running(n) => html! {
            <p class="sim-status" role="status" data-status="running">{ t!("sim.ui.running", locale = l, events = group_thousands(*n)) }</p>
        },
        RunStatus::Cancelled => {
            html! { <p class="sim-status" role="status" data-status="cancelled">{ t!("sim.ui.cancelled", locale = l) }</p> }
        }
        RunStatus::Failed(errors) => html! {
            <div class="notice error-notice" role="alert" data-status="failed">
                <p>{ if ctx.sim_result.is_some() { t!("sim.ui.failed", locale = l) } else { t!("sim.ui.failed-first", locale = l) } }</p>
                <ul>{ for errors.iter().map(|e| html! { <li>{ e.text(lang) }</li> }) }</ul>
            </div>
        },
    };

    html! {
        <section class="simulate" aria-labelledby="sim-title">
            <h2 id="sim-title">{ t!("sim.ui.title", locale = l) }</h2>
            <p class="tagline">{ t!("sim.ui.intro", locale = l) }</p>
            <form class="sim-controls" onsubmit={run}>
                <fieldset class="section">
                    <legend>{ t!("sim.ui.presets", locale = l) }</legend>
                    <ul class="presets">{ for presets }</ul>
                </fieldset>
                <div class="slot">{ is_custom.then(|| html! {
                    <SimKnobs key={resets.to_string()} value={settings.clone()} sheet={sheet_run.clone()} has_sheet={ctx.sheet.is_some()} {seed}
                        onchange={{ let edit = edit.clone(); Callback::from(move |c| edit(SimEdit::Custom(Some(c)))) }}
                        onreset={{ let (edit, resets) = (edit.clone(), resets.clone()); Callback::from(move |()| { edit(SimEdit::Custom(None)); resets.set(*resets + 1); }) }} />
                }) }</div>
                <div class="sim-row">
                    <fieldset class="variants" hidden={is_custom}>
                        <legend>{ t!("sim.ui.variant", locale = l) }</legend>
                        { for variants }
                    </fieldset>
                    <div class="sfield" data-field="seed">
                        <label for="seed">{ t!("sim.ui.seed", locale = l) }</label>
                        <input id="seed" type="text" inputmode="numeric" autocomplete="off" value={(*seed_raw).clone()}
                            oninput={on_seed} aria-invalid={seed_error.is_some().to_string()} />
                        <div class="slot">{ seed_error.map(|e| html! { <p class="error" role="alert">{ e }</p> }) }</div>
                    </div>
                    <div class="slot">{ jobs_field }</div>
                    <div class="actions">
                        <button type="submit" class="primary" id="sim-run" disabled={running}>{ t!("sim.ui.run", locale = l) }</button>
                        <button type="button" class="secondary" id="sim-cancel" disabled={!running} onclick={cancel}>{ t!("sim.ui.cancel", locale = l) }</button>
                    </div>
                </div>
            </form>
            <div class="slot">{ status_line }</div>
            <div class="slot">{ ctx.sim_result.clone().map(|v| {
                // The last result stays until the next run; say so when it is not the choice above.
                let current = match v.scenario.as_str() {
                    "config" => is_custom,
                    s => s == scenario && (is_load || v.variant == variant),
                };
                html! {
                    <>
                        <div class="slot">{ (!current).then(|| html! { <p class="hint" data-other-result="true">{ t!("sim.ui.result-of-last", locale = l) }</p> }) }</div>
                        <RunResult view={v} log_answer={(*log_answer).clone()} log_request={log_request.clone()} log_lost={*log_lost} />
                    </>
                }
            }) }</div>
            <div class="slot">{ compare }</div>
        </section>
    }
}

/// "Your settings" ready to run, or the findings that refuse them (each naming the knob and
/// the allowed range). Every seed is allowed: a config file takes the full `u64` range.
fn custom_file(c: &CustomRun) -> Result<CustomRun, Vec<Problem>> {
    let errors = c.validate();
    if errors.is_empty() {
        Ok(c.clone())
    } else {
        Err(errors.into_iter().map(Problem::Knob).collect())
    }
}

/// Starts the simulation worker into `slot` unless one is there (workers start lazily, so
/// the page does not fetch the engine until the first run).
///
/// # Errors
/// The browser refused the worker: its own words (the caller words them as
/// [`Problem::WorkerStart`]).
pub(crate) fn start_worker(
    slot: &RefCell<Option<SimWorker>>,
    on_message: &Callback<String>,
) -> Result<(), String> {
    if slot.borrow().is_some() {
        return Ok(());
    }
    let worker = SimWorker::spawn(on_message.clone())?;
    *slot.borrow_mut() = Some(worker);
    Ok(())
}

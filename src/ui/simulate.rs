//! The simulator screen: the six presets with their lessons, variant and seed, a run in the
//! simulation Web Worker (progress, cancel), and the result: key facts, trace hash, the jobs
//! table and the event log. The engine never runs on the main thread.

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use crate::domain::sim::compare::default_alternative;
use crate::domain::sim::custom::{Change, CustomRun};
use crate::domain::sim::run::{
    LogRequest, RunMessage, RunRequest, RunView, LOAD_SCENARIO, MAX_LOAD_JOBS,
};
use crate::domain::sim::Scenario;
use crate::ui::event_log::{EventLog, LogAnswer};
use crate::ui::glue::SimWorker;
use crate::ui::sim_compare::SimCompare;
use crate::ui::sim_knobs::SimKnobs;
use crate::ui::state::AppContext;
use crate::ui::stepper::StepView;
use rust_i18n::t;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Rows of the jobs table shown at most.
const SHOW_LINES: usize = 1_000;

/// The preset id of "Your settings" (a config built from the sheet and the knobs).
const CUSTOM: &str = "custom";

/// The presets: the six named scenarios, "Your settings", then the load preset.
fn presets() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = Scenario::ALL.iter().map(|s| s.id()).collect();
    ids.push(CUSTOM);
    ids.push(LOAD_SCENARIO);
    ids
}

fn variants_of(preset: &str) -> &'static [&'static str] {
    if preset == CUSTOM {
        return &["your-settings"];
    }
    Scenario::parse(preset)
        .map(|s| s.variants())
        .unwrap_or(&["bench"])
}

#[derive(Debug, Clone, PartialEq)]
enum RunStatus {
    Idle,
    Running(u64),
    Cancelled,
    Failed(Vec<String>),
}

/// The simulator screen.
#[component]
pub fn SimulateScreen() -> Html {
    let ctx = use_context::<AppContext>();
    let scenario = use_state(|| Scenario::RetryDeadLetter.id());
    let variant = use_state(|| Scenario::RetryDeadLetter.variants()[0]);
    let seed_raw = use_state(|| "1".to_owned());
    let jobs_raw = use_state(|| "100000".to_owned());
    let status = use_state(|| RunStatus::Idle);
    let worker: Rc<RefCell<Option<SimWorker>>> = use_mut_ref(|| None);
    let run_id = use_mut_ref(|| 0u64);
    // The latest answer about a run's log (the event log box keeps what concerns its run).
    let log_answer = use_state(|| None::<LogAnswer>);
    // "Your settings" once edited (`None`: follow the sheet).
    let custom = use_state(|| None::<CustomRun>);
    // Bumped by "Reset to the sheet" so every knob field starts afresh (drops refused text).
    let resets = use_state(|| 0u32);
    // "Simulate these settings" (result card, sheet) selects "your settings". Knob edits
    // made earlier stay (they are marked against the sheet and can be reset).
    {
        let scenario = scenario.clone();
        let asked = ctx.as_ref().map_or(0, |c| c.sim_sheet_requests);
        use_effect_with(asked, move |&asked| {
            if asked > 0 {
                scenario.set(CUSTOM);
            }
        });
    }
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let seed = parse_whole(&seed_raw);
    let is_load = *scenario == LOAD_SCENARIO;
    let is_custom = *scenario == CUSTOM;
    let sheet_run = ctx
        .sheet
        .as_ref()
        .map_or_else(CustomRun::default, CustomRun::from_sheet);
    let settings = (*custom).clone().unwrap_or_else(|| sheet_run.clone());
    let settings_file = |c: &CustomRun| custom_file(c, seed, lang);
    let current_config = is_custom.then(|| settings_file(&settings));
    let jobs = parse_whole(&jobs_raw).filter(|n| (1..=MAX_LOAD_JOBS).contains(n));

    let on_message = {
        let (status, run_id, log_answer) = (status.clone(), run_id.clone(), log_answer.clone());
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
                    app.dispatch(crate::ui::state::Action::SimResult(Rc::new(*view)));
                    status.set(RunStatus::Idle);
                }
                RunMessage::Failed { id, errors } if id == current => {
                    status.set(RunStatus::Failed(errors))
                }
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
        let (scenario, variant) = (*scenario, *variant);
        let current_config = current_config.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(seed) = seed else {
                status.set(RunStatus::Failed(vec![t!(
                    "sim.ui.seed-error",
                    locale = lang.code(),
                    max = group_thousands(u64::MAX)
                )
                .into_owned()]));
                return;
            };
            // A knob showing a refused value holds its last good value; do not run that.
            if is_custom && crate::ui::sim_knobs::knob_refused() {
                status.set(RunStatus::Failed(vec![t!(
                    "knobs.ui.refused-field",
                    locale = lang.code()
                )
                .into_owned()]));
                return;
            }
            let custom = match current_config.clone() {
                Some(Err(errors)) => {
                    status.set(RunStatus::Failed(errors));
                    return;
                }
                Some(Ok(c)) => Some(c),
                None => None,
            };
            if is_load && jobs.is_none() {
                status.set(RunStatus::Failed(vec![t!(
                    "sim.ui.jobs-error",
                    locale = lang.code(),
                    max = group_thousands(MAX_LOAD_JOBS)
                )
                .into_owned()]));
                return;
            }
            if let Err(e) = ensure_worker(&worker, &on_message, lang) {
                status.set(RunStatus::Failed(vec![e]));
                return;
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
                Err(err) => status.set(RunStatus::Failed(vec![err])),
            }
        })
    };
    let cancel = {
        let (status, worker, run_id) = (status.clone(), worker.clone(), run_id.clone());
        Callback::from(move |_| {
            // Terminating the worker is the only way to stop a run in progress.
            worker.borrow_mut().take();
            *run_id.borrow_mut() += 1;
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

    let presets = presets().into_iter().map(|sc| {
        let pressed = *scenario == sc;
        let onclick = {
            let (scenario, variant) = (scenario.clone(), variant.clone());
            Callback::from(move |_| {
                scenario.set(sc);
                variant.set(variants_of(sc)[0]);
            })
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
        let jobs_raw = jobs_raw.clone();
        Callback::from(move |e: InputEvent| {
            jobs_raw.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let jobs_error = (is_load && jobs.is_none()).then(|| {
        t!(
            "sim.ui.jobs-error",
            locale = l,
            max = group_thousands(MAX_LOAD_JOBS)
        )
        .into_owned()
    });
    let jobs_field = is_load.then(|| html! {
        <div class="sfield" data-field="jobs">
            <label for="jobs">{ t!("sim.ui.jobs-count", locale = l) }</label>
            <input id="jobs" type="text" inputmode="numeric" autocomplete="off" value={(*jobs_raw).clone()}
                oninput={on_jobs} aria-invalid={jobs_error.is_some().to_string()} />
            <div class="slot">{ jobs_error.map(|e| html! { <p class="error" role="alert">{ e }</p> }) }</div>
        </div>
    });
    let variants = variants_of(&scenario).iter().map(|&v| {
        let checked = *variant == v;
        let onchange = {
            let variant = variant.clone();
            Callback::from(move |_| variant.set(v))
        };
        let id = format!("variant-{v}");
        html! {
            <label class="mode" for={id.clone()}>
                <input type="radio" id={id} name="variant" value={v} {checked} {onchange} />
                <span>{ v }</span>
            </label>
        }
    });
    let on_seed = {
        let seed_raw = seed_raw.clone();
        Callback::from(move |e: InputEvent| {
            seed_raw.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let seed_error = seed.is_none().then(|| {
        t!(
            "sim.ui.seed-error",
            locale = l,
            max = group_thousands(u64::MAX)
        )
        .into_owned()
    });

    // Compare: A = what Run would run now; B = another variant, or the settings with one change.
    let compare = {
        let base = |variant: &str, custom: Option<CustomRun>| RunRequest {
            id: 0,
            scenario: (*scenario).to_owned(),
            variant: Some(variant.to_owned()),
            seed: seed.unwrap_or(0),
            jobs: None,
            custom,
        };
        let seed_error = || {
            vec![t!(
                "sim.ui.seed-error",
                locale = l,
                max = group_thousands(u64::MAX)
            )
            .into_owned()]
        };
        let (a, a_label, alternatives) = if is_load {
            (Err(Vec::new()), AttrValue::default(), Vec::new())
        } else if is_custom {
            let a = match (seed, settings_file(&settings)) {
                (None, _) => Err(seed_error()),
                (_, Err(e)) => Err(e),
                (Some(_), Ok(file)) => Ok(base("your-settings", Some(file))),
            };
            let alternatives = Change::ALL
                .into_iter()
                .map(|c| {
                    // Unchecked here: A is checked when Compare is pressed, and B differs from
                    // A only by a switch (or twice the workers, capped at the knob's maximum).
                    (
                        AttrValue::from(settings.change_label(c, lang)),
                        base("your-settings", Some(settings.changed(c))),
                    )
                })
                .collect();
            (
                a,
                AttrValue::from(t!("knobs.ui.preset-title", locale = l).into_owned()),
                alternatives,
            )
        } else {
            let all = variants_of(&scenario);
            let first = default_alternative(&scenario, &variant, all);
            let alternatives = first
                .into_iter()
                .chain(
                    all.iter()
                        .copied()
                        .filter(|v| *v != *variant && Some(*v) != first),
                )
                .map(|v| {
                    (
                        AttrValue::from(format!("{} / {v}", *scenario)),
                        base(v, None),
                    )
                })
                .collect();
            (
                seed.map(|_| base(&variant, None)).ok_or_else(seed_error),
                AttrValue::from(format!("{} / {}", *scenario, *variant)),
                alternatives,
            )
        };
        html! { <SimCompare key={format!("{}", *scenario)} {a} {a_label} {alternatives} /> }
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
                <p>{ t!("sim.ui.failed", locale = l) }</p>
                <ul>{ for errors.iter().map(|e| html! { <li>{ e.clone() }</li> }) }</ul>
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
                        onchange={{ let custom = custom.clone(); Callback::from(move |c| custom.set(Some(c))) }}
                        onreset={{ let (custom, resets) = (custom.clone(), resets.clone()); Callback::from(move |()| { custom.set(None); resets.set(*resets + 1); }) }} />
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
            <div class="slot">{ ctx.sim_result.clone().map(|v| html! {
                <RunResult view={v} log_answer={(*log_answer).clone()} log_request={log_request.clone()} />
            }) }</div>
            <div class="slot">{ compare }</div>
        </section>
    }
}

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
}

/// Key facts, the jobs table and the event log of a finished run.
#[component]
pub fn RunResult(props: &RunResultProps) -> Html {
    let step_line = use_state_eq(|| None::<u64>);
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let l = ctx.lang.code();
    let v = &props.view;
    let fact = |key: &'static str, label: String, value: String| {
        html! { <div class="fact" data-fact={key}><dt>{ label }</dt><dd>{ value }</dd></div> }
    };
    let mut facts = vec![
        fact(
            "trace-hash",
            t!("sim.ui.trace-hash", locale = l).into_owned(),
            v.trace_hash.clone(),
        ),
        fact(
            "events",
            t!("sim.ui.events", locale = l).into_owned(),
            group_thousands(v.events),
        ),
    ];
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
            b.to_string(),
        ));
        facts.push(fact(
            "duplicates",
            t!("sim.ui.duplicates", locale = l).into_owned(),
            format!("{} / {}", v.duplicates.0, v.duplicates.1),
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
    if let Some((calls, ms)) = v.contention {
        facts.push(fact(
            "contention",
            t!("sim.ui.contention", locale = l).into_owned(),
            format!("{calls:.0} / {ms:.0} ms"),
        ));
    }
    let rows_total: u64 = v.counts.iter().sum();
    html! {
        <section class="sim-result" data-scenario={v.scenario.clone()} data-variant={v.variant.clone()} aria-labelledby="sim-result-title">
            <h3 id="sim-result-title">{ t!("sim.ui.result", locale = l) }{ t!("ui.colon", locale = l) }{ format!("{} / {} (seed {})", v.scenario, v.variant, v.seed) }</h3>
            <dl class="facts">{ for facts }</dl>
            <div class="slot"><StepView key={Rc::as_ptr(v) as usize} view={v.clone()} on_line={{ let s = step_line.clone(); Callback::from(move |l| s.set(l)) }} /></div>
            <div class="slot"><crate::ui::sim_charts::SimCharts view={props.view.clone()} /></div>
            if !v.jobs.is_empty() {
                <h4>{ t!("sim.ui.jobs", locale = l) }</h4>
                <div class="table-wrap">
                    <table class="jobs">
                        <thead><tr>
                            <th>{ "id" }</th><th>{ "name" }</th><th>{ "status" }</th><th>{ "attempts" }</th><th>{ "last_error" }</th>
                        </tr></thead>
                        <tbody>
                            { for v.jobs.iter().take(SHOW_LINES).map(|j| html! {
                                <tr data-job={j.id.to_string()} data-status={j.status.clone()}>
                                    <td>{ j.id }</td><td>{ j.name.clone() }</td><td class={classes!("st", j.status.clone())}>{ j.status.clone() }</td>
                                    <td>{ format!("{}/{}", j.attempts, j.max_attempts) }</td><td>{ j.last_error.clone().unwrap_or_default() }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </div>
                if rows_total > v.jobs.len() as u64 {
                    <p class="hint" data-rows-cut="true">{ t!("sim.ui.rows-cut", locale = l, shown = group_thousands(v.jobs.len() as u64), total = group_thousands(rows_total)) }</p>
                }
            }
            if v.log_total > 0 {
                <h4>{ t!("sim.ui.log", locale = l) }</h4>
                <EventLog view={v.clone()} answer={props.log_answer.clone()} request={props.log_request.clone()} highlight={props.highlight.or(*step_line)} />
            } else if let Some(max) = v.log_bound {
                <p class="hint" data-log-off="true">{ t!("sim-log.ui.off", locale = l, max = group_thousands(max)) }</p>
            }
        </section>
    }
}

/// "Your settings" ready to run with the seed, or the findings that refuse them (each naming
/// the knob and the allowed range), in `lang`. Seeds above `i64::MAX` are refused: a config
/// file (the download) cannot carry them.
fn custom_file(c: &CustomRun, seed: Option<u64>, lang: Lang) -> Result<CustomRun, Vec<String>> {
    let mut errors: Vec<String> = c.validate().iter().map(|e| e.message(lang)).collect();
    let seed = seed.and_then(|s| i64::try_from(s).ok());
    if seed.is_none() {
        errors.push(
            t!(
                "knobs.ui.seed-too-large",
                locale = lang.code(),
                max = group_thousands(i64::MAX as u64)
            )
            .into_owned(),
        );
    }
    match seed {
        Some(_) if errors.is_empty() => Ok(c.clone()),
        _ => Err(errors),
    }
}

/// Starts the simulation worker into `slot` unless one is there (workers start lazily, so
/// the page does not fetch the engine until the first run).
///
/// # Errors
/// The browser refused the worker: the message to show, in `lang`.
pub(crate) fn ensure_worker(
    slot: &RefCell<Option<SimWorker>>,
    on_message: &Callback<String>,
    lang: Lang,
) -> Result<(), String> {
    if slot.borrow().is_some() {
        return Ok(());
    }
    let worker = SimWorker::spawn(on_message.clone()).map_err(|err| {
        t!("sim.ui.worker-failed", locale = lang.code(), error = err).into_owned()
    })?;
    *slot.borrow_mut() = Some(worker);
    Ok(())
}

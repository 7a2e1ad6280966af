//! The simulator screen: the six presets with their lessons, "your settings", variant and
//! seed, a run in the simulation Web Worker (progress, cancel: [`worker::use_sim_run`]), the
//! result ([`RunResult`]) and Compare. The engine never runs on the main thread. What a run
//! is, is a [`RunSpec`] built here from the choices and run by the domain's one run path.

pub mod charts;
pub mod compare;
pub mod event_log;
pub mod job_states;
pub mod knobs;
pub mod labels;
pub mod run_result;
pub mod stepper;
pub mod worker;

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use crate::domain::session::{sim_presets, sim_variants, SimEdit, CAPACITY_PRESET, CUSTOM_PRESET};
use crate::domain::sim::runner::{Preset, RunSpec, LOAD_SCENARIO, MAX_LOAD_JOBS};
use crate::domain::sim::setup::knobs::{our_limit_reason, CustomRun, Knob};
use crate::domain::sim::Scenario;
use crate::domain::Outcome;
use crate::text::t;
use crate::ui::simulate::compare::{RunLabel, SimCompare};
use crate::ui::simulate::event_log::LogAnswer;
use crate::ui::simulate::knobs::SimKnobs;
use crate::ui::simulate::labels::seed_error;
use crate::ui::simulate::labels::{live_region, variant_label, Problem, Said};
use crate::ui::simulate::run_result::RunResult;
use crate::ui::simulate::worker::{use_sim_run, RunEvent, SimRun};
use crate::ui::state::{Action, AppContext};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Debug, Clone, PartialEq)]
enum RunStatus {
    Idle,
    Running(u64),
    Cancelled,
    Failed(Vec<Problem>),
}

/// What the screen's choices run: the preset and variant, the load preset's job count, or
/// "Your settings"; `seed` as given (the seed field is checked on its own).
fn spec_of(scenario: &str, variant: &str, seed: u64, jobs: u64, settings: &CustomRun) -> RunSpec {
    let preset = match scenario {
        CUSTOM_PRESET => Preset::YourSettings(settings.clone()),
        LOAD_SCENARIO => Preset::Load { jobs },
        _ => Preset::Scenario {
            name: scenario.to_owned(),
            variant: Some(variant.to_owned()),
        },
    };
    RunSpec {
        preset,
        seed: Some(seed),
    }
}

/// Why the current choices cannot run: the seed, the load preset's jobs, knob fields showing
/// refused text, and the settings' own findings (each naming the knob and the range).
fn problems_of(
    seed: Option<u64>,
    jobs: Option<u64>,
    scenario: &str,
    settings: &CustomRun,
    refused: &[Knob],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    if seed.is_none() {
        problems.push(Problem::Seed);
    }
    if scenario == CUSTOM_PRESET {
        if !refused.is_empty() {
            problems.extend(refused.iter().copied().map(Problem::Refused));
        }
        if problems.is_empty() {
            problems.extend(settings.validate().into_iter().map(Problem::Knob));
        }
    }
    if scenario == LOAD_SCENARIO && problems.is_empty() && jobs.is_none() {
        problems.push(Problem::Jobs);
    }
    problems
}

/// The screen's state kept between renders.
#[derive(Clone)]
struct Screen {
    seed_raw: UseStateHandle<String>,
    jobs_raw: UseStateHandle<String>,
    status: UseStateHandle<RunStatus>,
    // The latest answer about a run's log (the event log box keeps what concerns its run).
    log_answer: UseStateHandle<Option<LogAnswer>>,
    // Whether the worker holding the shown result's log was stopped (Cancel).
    log_lost: UseStateHandle<bool>,
    // Bumped by "Reset to the sheet" so every knob field starts afresh (drops refused text).
    resets: UseStateHandle<u32>,
    // What the live region last said: the run started, finished or was cancelled.
    said: UseStateHandle<Said>,
    // The finished run whose heading takes keyboard focus once it is shown.
    focus_run: std::rc::Rc<std::cell::RefCell<Option<u64>>>,
    session: SimRun,
}

/// Hands the session's events to the screen's state and the app (the result).
fn listen(screen: &Screen, app: &AppContext) {
    let (status, log_answer, log_lost) = (
        screen.status.clone(),
        screen.log_answer.clone(),
        screen.log_lost.clone(),
    );
    let (said, focus_run) = (screen.said.clone(), screen.focus_run.clone());
    let app = app.clone();
    screen
        .session
        .listen(Callback::from(move |event: RunEvent| match event {
            RunEvent::Progress(n) => status.set(RunStatus::Running(n)),
            RunEvent::Done(view) => {
                *focus_run.borrow_mut() = Some(view.run_id);
                said.set(Some(("sim.ui.finished", app.lang)));
                app.dispatch(Action::SimResult(view));
                log_lost.set(false);
                status.set(RunStatus::Idle);
            }
            RunEvent::Failed(problems) => status.set(RunStatus::Failed(problems)),
            RunEvent::Log(answer) => log_answer.set(Some(answer)),
            RunEvent::Size(_) => {}
        }));
}

/// The chosen preset and variant (the first preset or variant when the choice names none).
fn chosen(choice: &crate::domain::session::SimChoice) -> (&'static str, &'static str) {
    let scenario: &'static str = sim_presets()
        .into_iter()
        .find(|p| *p == choice.preset)
        .unwrap_or(Scenario::RetryDeadLetter.id());
    let variant: &'static str = sim_variants(scenario)
        .iter()
        .copied()
        .find(|v| *v == choice.variant)
        .unwrap_or(sim_variants(scenario)[0]);
    (scenario, variant)
}

/// "Run": checks the fields, then starts `spec` in the screen's worker session.
fn run_callback(
    screen: &Screen,
    spec: RunSpec,
    seed: Option<u64>,
    jobs: Option<u64>,
    settings: &CustomRun,
    refused: Vec<Knob>,
    lang: Lang,
) -> Callback<SubmitEvent> {
    let (status, session, said) = (
        screen.status.clone(),
        screen.session.clone(),
        screen.said.clone(),
    );
    let settings = settings.clone();
    let scenario = match &spec.preset {
        Preset::YourSettings(_) => CUSTOM_PRESET,
        Preset::Load { .. } => LOAD_SCENARIO,
        _ => "",
    };
    Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        // Every field showing a refused value is named at once: the seed, and the knobs
        // (a refused knob holds its last good value; do not run that).
        let problems = problems_of(seed, jobs, scenario, &settings, &refused);
        if !problems.is_empty() {
            return status.set(RunStatus::Failed(problems));
        }
        match session.start(&spec) {
            Ok(_) => {
                said.set(Some(("sim.ui.starting", lang)));
                status.set(RunStatus::Running(0));
            }
            Err(p) => status.set(RunStatus::Failed(vec![p])),
        }
    })
}

/// The screen's state (the fields as typed start from the saved choice), and the effect that
/// gives a finished run's heading keyboard focus once it is on screen.
#[hook]
fn use_screen(ctx: Option<&AppContext>) -> Screen {
    let saved = ctx.map(|c| c.sim.clone()).unwrap_or_default();
    let screen = Screen {
        seed_raw: use_state(|| saved.seed.to_string()),
        jobs_raw: use_state(|| saved.jobs.to_string()),
        status: use_state(|| RunStatus::Idle),
        log_answer: use_state(|| None::<LogAnswer>),
        log_lost: use_state(|| false),
        resets: use_state(|| 0u32),
        said: use_state(|| None),
        focus_run: use_mut_ref(|| None),
        session: use_sim_run(),
    };
    let shown = ctx.and_then(|c| c.sim_result.as_ref().map(|v| v.run_id));
    let focus_run = screen.focus_run.clone();
    use_effect_with(shown, move |shown| {
        if shown.is_some() && *focus_run.borrow() == *shown {
            focus_run.borrow_mut().take();
            crate::ui::browser::focus_by_id("sim-result-title");
        }
    });
    screen
}

/// What the open sheet gives "Your settings", and why "Our limiter" holds the sheet's limiter
/// (only when the settings come from a sheet that states one).
fn sheet_settings(ctx: &AppContext) -> (CustomRun, Option<AttrValue>) {
    let sheet = ctx.sheet.as_ref();
    let run = sheet.map_or_else(CustomRun::default, CustomRun::from_sheet);
    let reason = sheet
        .filter(|_| run.from_sheet)
        .and_then(|s| our_limit_reason(s.load.as_ref(), ctx.lang))
        .map(AttrValue::from);
    (run, reason)
}

/// Where the screen's answers for the page go (the simulator module's `tell`, as
/// [`SimulatorSays`](crate::domain::session::simulator::SimulatorSays) JSON), provided by the
/// module's root: the Capacity view's "Set Worker processes" reaches the page's sheet through
/// it, as the sheet's own panel does.
#[derive(Clone, PartialEq)]
pub struct SimTell(pub Callback<String>);

/// The open process's decision as the page last told the simulator module (`None`: not
/// decided yet), provided by the module's root: the Capacity view words the case of a
/// process without a sheet by it.
#[derive(Clone, Copy, PartialEq)]
pub struct OpenOutcome(pub Option<crate::domain::Outcome>);

/// The simulator screen. Its stylesheet (`static/sim.css`) is fetched when it is first shown.
#[component]
pub fn SimulateScreen() -> Html {
    let ctx = use_context::<AppContext>();
    let tell = use_context::<SimTell>();
    let outcome = use_context::<OpenOutcome>().and_then(|o| o.0);
    let screen = use_screen(ctx.as_ref());
    let capacity =
        crate::ui::sheet::capacity::use_capacity(ctx.as_ref().map_or(Lang::En, |c| c.lang));
    use_effect_with((), |_| crate::ui::browser::load_stylesheet("./sim.css"));
    let Some(ctx) = ctx else {
        return Html::default();
    };
    listen(&screen, &ctx);
    let lang = ctx.lang;
    let l = lang.code();
    let choice = &ctx.sim;
    let edit = {
        let ctx = ctx.clone();
        Callback::from(move |e: SimEdit| ctx.dispatch(Action::SetSim(e)))
    };
    let (scenario, variant) = chosen(choice);
    if scenario == CAPACITY_PRESET {
        return capacity_view(&ctx, &capacity, scenario, (&edit, tell.as_ref(), outcome));
    }
    let seed = parse_whole(&screen.seed_raw);
    let is_custom = scenario == CUSTOM_PRESET;
    let (sheet_run, our_limit_reason) = sheet_settings(&ctx);
    let settings = choice.custom.clone().unwrap_or_else(|| sheet_run.clone());
    let jobs = parse_whole(&screen.jobs_raw).filter(|n| (1..=MAX_LOAD_JOBS).contains(n));
    let spec = spec_of(
        scenario,
        variant,
        seed.unwrap_or(0),
        jobs.unwrap_or(1),
        &settings,
    );

    let run = run_callback(
        &screen,
        spec.clone(),
        seed,
        jobs,
        &settings,
        ctx.knobs_refused(),
        lang,
    );
    let cancel = {
        let (status, session) = (screen.status.clone(), screen.session.clone());
        let (log_lost, said) = (screen.log_lost.clone(), screen.said.clone());
        Callback::from(move |_| {
            // The log of the result on show (held by that worker) goes with it.
            session.cancel();
            said.set(Some(("sim.ui.cancelled", lang)));
            log_lost.set(true);
            status.set(RunStatus::Cancelled);
        })
    };
    let running = matches!(*screen.status, RunStatus::Running(_));
    // Log lines come from the worker that ran the result shown; none when it was stopped.
    let log_request = {
        let session = screen.session.clone();
        Callback::from(move |req| session.request_log(&req))
    };

    // Compare: A = what Run would run now; B = one of its alternatives (chosen in the domain).
    let compare = (scenario != LOAD_SCENARIO).then(|| {
        let a_problems = problems_of(seed, jobs, scenario, &settings, &[]);
        compare_section(scenario, variant, spec.clone(), a_problems)
    });
    let controls = html! {
        <form class="sim-controls" onsubmit={run}>
            <fieldset class="section">
                <legend>{ t!("sim.ui.presets", locale = l) }</legend>
                <ul class="presets">{ preset_buttons(scenario, &edit, lang) }</ul>
            </fieldset>
            <div class="slot">{ is_custom.then(|| html! {
                <SimKnobs key={screen.resets.to_string()} value={settings.clone()} sheet={sheet_run.clone()} has_sheet={ctx.sheet.is_some()} {seed} {our_limit_reason}
                    onchange={{ let edit = edit.clone(); Callback::from(move |c| edit.emit(SimEdit::Custom(Some(Box::new(c))))) }}
                    onreset={{ let (edit, resets) = (edit.clone(), screen.resets.clone()); Callback::from(move |()| { edit.emit(SimEdit::Custom(None)); resets.set(*resets + 1); }) }} />
            }) }</div>
            <div class="sim-row">
                { variant_field(scenario, variant, &edit, lang) }
                { seed_field(&screen.seed_raw, seed.is_none(), &edit, lang) }
                <div class="slot">{ (scenario == LOAD_SCENARIO).then(|| jobs_field(&screen.jobs_raw, jobs.is_none(), &edit, lang)) }</div>
                <div class="actions">
                    <button type="submit" class="primary" id="sim-run" disabled={running}>{ t!("sim.ui.run", locale = l) }</button>
                    <button type="button" class="secondary" id="sim-cancel" disabled={!running} onclick={cancel}>{ t!("sim.ui.cancel", locale = l) }</button>
                </div>
            </div>
        </form>
    };
    let result = ctx.sim_result.clone().map(|v| {
        // The last result stays until the next run; say so when it is not the choice above.
        let current = match v.scenario.as_str() {
            "config" => is_custom,
            s => s == scenario && (scenario == LOAD_SCENARIO || v.variant == variant),
        };
        let answer = (*screen.log_answer).clone();
        result_section(
            v,
            current,
            answer,
            log_request.clone(),
            *screen.log_lost,
            lang,
        )
    });
    html! {
        <section class="simulate" aria-labelledby="sim-title">
            <h2 id="sim-title">{ t!("sim.ui.title", locale = l) }</h2>
            <p class="tagline">{ t!("sim.ui.intro", locale = l) }</p>
            { controls }
            { live_region("sim-live", *screen.said) }
            <div class="slot">{ status_line(&screen.status, ctx.sim_result.is_some(), lang) }</div>
            <div class="slot">{ result }</div>
            <div class="slot">{ compare }</div>
        </section>
    }
}

/// The "Capacity" view: the presets, then the capacity panel of the open process's sheet
/// (sized from the simulator's seed, its count usable in the sheet through `tell`); a sheet
/// with no queue to size (a call, a batch) says so.
fn capacity_view(
    ctx: &AppContext,
    capacity: &crate::ui::sheet::capacity::Capacity,
    scenario: &str,
    (edit, tell, outcome): (&Callback<SimEdit>, Option<&SimTell>, Option<Outcome>),
) -> Html {
    let lang = ctx.lang;
    let l = lang.code();
    let panel = match &ctx.sheet {
        Some(sheet) if crate::domain::sheet::load_text::load_of(sheet).is_none() => {
            html! { <p class="hint" data-capacity="no-queue">{ t!("capacity.no-queue", locale = l) }</p> }
        }
        Some(sheet) => crate::ui::sheet::capacity::capacity_panel(
            capacity,
            sheet,
            (
                lang,
                ctx.sim.seed,
                crate::ui::sheet::capacity::Place::Simulate,
            ),
            // No refused field to wait for here: leaving the sheet puts each field back to the
            // value the sheet holds, which is what this panel sizes.
            (tell.map(|t| &t.0), &[]),
        ),
        // No sheet: a queued job whose sheet was never opened is asked to open it; a call or a
        // batch has no queue to size; an undecided process is asked to decide first.
        None => match outcome {
            Some(Outcome::AsyncEnqueue | Outcome::AsyncTicket) => {
                html! { <p class="hint" data-capacity="no-sheet">{ t!("capacity.no-sheet", locale = l) }</p> }
            }
            Some(Outcome::Sync | Outcome::SyncTimeout | Outcome::Batch) => {
                html! { <p class="hint" data-capacity="no-queue">{ t!("capacity.no-queue", locale = l) }</p> }
            }
            None => {
                html! { <p class="hint" data-capacity="undecided">{ t!("capacity.undecided", locale = l) }</p> }
            }
        },
    };
    html! {
        <section class="simulate" aria-labelledby="sim-title">
            <h2 id="sim-title">{ t!("sim.ui.title", locale = l) }</h2>
            <p class="tagline">{ t!("sim.ui.intro", locale = l) }</p>
            <div class="sim-controls">
                <fieldset class="section">
                    <legend>{ t!("sim.ui.presets", locale = l) }</legend>
                    <ul class="presets">{ preset_buttons(scenario, edit, lang) }</ul>
                </fieldset>
            </div>
            { panel }
        </section>
    }
}

/// Compare, with A the run the screen would run now.
fn compare_section(
    scenario: &'static str,
    variant: &str,
    a: RunSpec,
    a_problems: Vec<Problem>,
) -> Html {
    let a_label = if scenario == CUSTOM_PRESET {
        RunLabel::Settings
    } else {
        RunLabel::Preset {
            scenario: AttrValue::from(scenario),
            variant: AttrValue::from(variant.to_owned()),
        }
    };
    html! { <SimCompare key={scenario} {a} {a_problems} {a_label} /> }
}

/// The last result, with a note when it is not of the choice above (`current` false).
fn result_section(
    view: std::rc::Rc<crate::domain::sim::runner::RunView>,
    current: bool,
    log_answer: Option<LogAnswer>,
    log_request: Callback<crate::domain::sim::runner::LogRequest, bool>,
    log_lost: bool,
    lang: Lang,
) -> Html {
    html! {
        <>
            <div class="slot">{ (!current).then(|| html! { <p class="hint" data-other-result="true">{ t!("sim.ui.result-of-last", locale = lang.code()) }</p> }) }</div>
            <RunResult {view} {log_answer} {log_request} {log_lost} />
        </>
    }
}

/// The presets as buttons, the chosen one pressed.
fn preset_buttons(scenario: &str, edit: &Callback<SimEdit>, lang: Lang) -> Html {
    let l = lang.code();
    sim_presets()
        .into_iter()
        .map(|sc| {
            let pressed = scenario == sc;
            let onclick = edit.reform(move |_| SimEdit::Preset(sc.to_owned()));
            html! {
                <li>
                    <button type="button" class="preset" data-scenario={sc} aria-pressed={pressed.to_string()} {onclick}>
                        <strong>{ t!(format!("sim.preset.{sc}.title"), locale = l) }</strong>
                        <span>{ t!(format!("sim.preset.{sc}.lesson"), locale = l) }</span>
                    </button>
                </li>
            }
        })
        .collect()
}

/// The scenario's variants as radio buttons (hidden for "Your settings").
fn variant_field(scenario: &str, variant: &str, edit: &Callback<SimEdit>, lang: Lang) -> Html {
    let variants = sim_variants(scenario).iter().map(|&v| {
        let checked = variant == v;
        let onchange = edit.reform(move |_| SimEdit::Variant(v.to_owned()));
        let id = format!("variant-{v}");
        html! {
            <label class="mode" for={id.clone()}>
                <input type="radio" id={id} name="variant" value={v} {checked} {onchange} />
                <span>{ variant_label(v, lang) }{ " " }<code class="variant-id">{ v }</code></span>
            </label>
        }
    });
    html! {
        <fieldset class="variants" hidden={scenario == CUSTOM_PRESET}>
            <legend>{ t!("sim.ui.variant", locale = lang.code()) }</legend>
            { for variants }
        </fieldset>
    }
}

/// The seed field: its text as typed, refused text named below it.
fn seed_field(
    raw: &UseStateHandle<String>,
    refused: bool,
    edit: &Callback<SimEdit>,
    lang: Lang,
) -> Html {
    let label = t!("sim.ui.seed", locale = lang.code()).into_owned();
    let error = refused.then(|| seed_error(lang));
    whole_field("seed", label, raw, error, edit, |n| Some(SimEdit::Seed(n)))
}

/// The load preset's job count field.
fn jobs_field(
    raw: &UseStateHandle<String>,
    refused: bool,
    edit: &Callback<SimEdit>,
    lang: Lang,
) -> Html {
    let label = t!("sim.ui.jobs-count", locale = lang.code()).into_owned();
    let error = refused.then(|| Problem::Jobs.text(lang));
    whole_field("jobs", label, raw, error, edit, |n| {
        (1..=MAX_LOAD_JOBS).contains(&n).then_some(SimEdit::Jobs(n))
    })
}

/// A whole-number field with DOM id `id`: keeps the text as typed in `raw`, emits the edit
/// `accept` makes of a number it takes (read by the domain's `parse_whole`), and shows
/// `error` below it.
fn whole_field(
    id: &'static str,
    label: String,
    raw: &UseStateHandle<String>,
    error: Option<String>,
    edit: &Callback<SimEdit>,
    accept: impl Fn(u64) -> Option<SimEdit> + 'static,
) -> Html {
    let oninput = {
        let (raw, edit) = (raw.clone(), edit.clone());
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Some(change) = parse_whole(&text).and_then(&accept) {
                edit.emit(change);
            }
            raw.set(text)
        })
    };
    html! {
        <div class="sfield" data-field={id}>
            <label for={id}>{ label }</label>
            <input {id} type="text" inputmode="numeric" autocomplete="off" value={(**raw).clone()}
                {oninput} aria-invalid={error.is_some().to_string()} />
            <div class="slot">{ error.map(|e| html! { <p class="error" role="alert">{ e }</p> }) }</div>
        </div>
    }
}

/// The run's status: starting, running with its events, cancelled, or why it failed. Not a
/// live region (its event count changes all the time): the screen's live region says when a
/// run starts, finishes or is cancelled; a failure is an alert.
fn status_line(status: &RunStatus, has_result: bool, lang: Lang) -> Html {
    let l = lang.code();
    match status {
        RunStatus::Idle => Html::default(),
        RunStatus::Running(0) => {
            html! { <p class="sim-status" data-status="running">{ t!("sim.ui.starting", locale = l) }</p> }
        }
        RunStatus::Running(n) => html! {
            <p class="sim-status" data-status="running">{ t!("sim.ui.running", locale = l, events = group_thousands(*n)) }</p>
        },
        RunStatus::Cancelled => {
            html! { <p class="sim-status" data-status="cancelled">{ t!("sim.ui.cancelled", locale = l) }</p> }
        }
        RunStatus::Failed(errors) => html! {
            <div class="notice error-notice" role="alert" data-status="failed">
                <p>{ if has_result { t!("sim.ui.failed", locale = l) } else { t!("sim.ui.failed-first", locale = l) } }</p>
                <ul>{ for errors.iter().map(|e| html! { <li>{ e.text(lang) }</li> }) }</ul>
            </div>
        },
    }
}

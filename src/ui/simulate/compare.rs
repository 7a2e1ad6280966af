//! Compare: two configurations on the same seed side by side. A is what the screen would run
//! now; B is a chosen alternative (another variant of the preset, or "your settings" with one
//! change: [`alternatives`], chosen in the domain). Both run in this component's own
//! simulation worker session ([`use_sim_run`]), A then B. B's run names A's, and the worker
//! draws the comparison as HTML this component only inserts: the key numbers that differ and
//! both event logs aligned by time (`domain::sim::results::compare_html`), then each column's
//! charts on scales shared by both columns (`domain::sim::results::drawn::compared`); charts
//! both runs drew the same are named once. Everything kept from
//! the moment Compare was pressed (the runs' labels, why it could not run) is data, worded
//! when shown: switching the language rewords a finished comparison.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::number::parse_whole;
use crate::domain::sim::results::drawn::{pick, Both, Compared};
use crate::domain::sim::runner::{alternatives, Alternative, Preset, RunSpec, RunView};
use crate::domain::sim::setup::knobs::{Change, CustomRun, Knob, KnobError};
use crate::domain::sim::setup::limits::KNOB_WORKERS;
use crate::text::t;
use crate::ui::simulate::labels::{live_region, run_title, Problem, Said};
use crate::ui::simulate::worker::{use_sim_run, RunEvent, SimRun};
use crate::ui::state::AppContext;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// What a compared run is, kept as ids and worded in the language of the moment
/// ([`RunLabel::text`]).
#[derive(Debug, Clone, PartialEq)]
pub enum RunLabel {
    /// A preset's variant, by ids: "Duplicate execution / No key".
    Preset {
        /// Scenario id, e.g. `duplicate-execution`.
        scenario: AttrValue,
        /// Variant id, e.g. `plain`.
        variant: AttrValue,
    },
    /// "Your settings".
    Settings,
    /// These settings with one change: "Idempotency key: on → off".
    Changed(Rc<CustomRun>, Change),
}

impl RunLabel {
    /// The label in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            RunLabel::Preset { scenario, variant } => run_title(scenario, variant, lang),
            RunLabel::Settings => t!("knobs.ui.preset-title", locale = lang.code()).into_owned(),
            RunLabel::Changed(from, change) => from.change_label(*change, lang),
        }
    }
}

/// B's one change when B is these settings with one change (the worker then says why the
/// runs can come out the same).
fn same_why(b: &RunLabel) -> Option<String> {
    match b {
        RunLabel::Changed(_, change) => Some(change.id().to_owned()),
        _ => None,
    }
}

/// Properties of [`SimCompare`].
#[derive(Properties, PartialEq)]
pub struct SimCompareProps {
    /// What A runs (B is one of its [`alternatives`]).
    pub a: RunSpec,
    /// Why A cannot run now (shown when Compare is pressed); empty when it can.
    pub a_problems: Vec<Problem>,
    /// What A is, e.g. "Duplicate execution / No key" (the ids are also on `data-variant`).
    pub a_label: RunLabel,
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Idle,
    RunningA(u64),
    RunningB(u64),
    Cancelled,
    /// Why the comparison did not run (worded when shown, so a language switch follows).
    Failed(Vec<Problem>),
}

/// A comparison in progress: A's view once it is done, B's run, both labels.
struct Job {
    a: Option<Rc<RunView>>,
    b: RunSpec,
    labels: (RunLabel, RunLabel),
}

/// Both finished runs and their labels.
#[derive(PartialEq)]
struct Pair {
    a: Rc<RunView>,
    b: Rc<RunView>,
    labels: (RunLabel, RunLabel),
}

/// The charts of one column as the worker drew them (compact, on the scales both columns
/// share, without the charts both runs drew the same): `side` 0 is A, 1 is B.
fn charts(b: &RunView, side: usize, lang: Lang) -> Html {
    b.drawn.compared.as_ref().map_or_else(Html::default, |c| {
        crate::ui::simulate::charts::raw(pick(if side == 0 { &c.a } else { &c.b }, lang))
    })
}

/// B's label for `alt` of A = `a`.
fn label_of(a: &RunSpec, alt: Alternative) -> RunLabel {
    match (alt, &a.preset) {
        (Alternative::Variant(v), Preset::Scenario { name, .. }) => RunLabel::Preset {
            scenario: AttrValue::from(name.clone()),
            variant: AttrValue::from(v),
        },
        (Alternative::Change(c), Preset::YourSettings(s)) => {
            RunLabel::Changed(Rc::new(s.clone()), c)
        }
        _ => RunLabel::Settings,
    }
}

/// The change's id on its option's `data-change` (none for a variant).
fn change_id(alt: Alternative) -> Option<&'static str> {
    match alt {
        Alternative::Change(c) => Some(c.id()),
        Alternative::Variant(_) => None,
    }
}

/// The variant id a run shows on `data-variant` (`your-settings` for settings).
fn variant_id(spec: &RunSpec) -> Option<String> {
    match &spec.preset {
        Preset::Scenario { variant, .. } => variant.clone(),
        Preset::YourSettings(_) => Some("your-settings".into()),
        _ => None,
    }
}

/// Hands the session's events to the comparison: A done starts B on the same seed; B done
/// makes the pair.
fn listen(
    session: &SimRun,
    phase: &UseStateHandle<Phase>,
    results: &UseStateHandle<Option<Rc<Pair>>>,
    job: &Rc<RefCell<Option<Job>>>,
    (said, lang): (&UseStateHandle<Said>, Lang),
) {
    let (phase, results, job, next) =
        (phase.clone(), results.clone(), job.clone(), session.clone());
    let said = said.clone();
    session.listen(Callback::from(move |event: RunEvent| {
        let a_done = job.borrow().as_ref().is_some_and(|j| j.a.is_some());
        match event {
            RunEvent::Progress(n) if a_done => phase.set(Phase::RunningB(n)),
            RunEvent::Progress(n) => phase.set(Phase::RunningA(n)),
            RunEvent::Done(view) if a_done => {
                if let Some(Job {
                    a: Some(a), labels, ..
                }) = job.borrow_mut().take()
                {
                    results.set(Some(Rc::new(Pair { a, b: view, labels })));
                }
                said.set(Some(("sim.compare.finished", lang)));
                phase.set(Phase::Idle);
            }
            RunEvent::Done(view) => {
                let a_id = view.run_id;
                let b = job.borrow_mut().as_mut().map(|j| {
                    j.a = Some(view);
                    (j.b.clone(), same_why(&j.labels.1))
                });
                match b.map_or(Ok(0), |(b, why)| next.start_compared(&b, Some((a_id, why)))) {
                    Ok(_) => phase.set(Phase::RunningB(0)),
                    Err(p) => phase.set(Phase::Failed(vec![p])),
                }
            }
            RunEvent::Failed(problems) => {
                job.borrow_mut().take();
                phase.set(Phase::Failed(problems));
            }
            RunEvent::Log(_) | RunEvent::Size(_) => {}
        }
    }));
}

/// The compare section. Shows nothing when there is no alternative.
#[component]
pub fn SimCompare(props: &SimCompareProps) -> Html {
    let ctx = use_context::<AppContext>();
    let choice = use_state(|| 0usize);
    // B's worker count as typed (the workers change): `None` until the field is edited.
    let b_workers = use_state(|| None::<String>);
    let phase = use_state(|| Phase::Idle);
    let results = use_state(|| None::<Rc<Pair>>);
    let said = use_state(|| None);
    // This component's own worker (the page's own runs use another).
    let session = use_sim_run();
    let job = use_mut_ref(|| None::<Job>);
    let alts = alternatives(&props.a);
    let Some(ctx) = ctx else {
        return Html::default();
    };
    if alts.is_empty() {
        return Html::default();
    }
    let lang = ctx.lang;
    listen(&session, &phase, &results, &job, (&said, lang));
    let l = lang.code();
    let chosen_index = (*choice).min(alts.len() - 1);
    let (chosen, typed_error) = with_typed_workers(alts[chosen_index], (*b_workers).as_deref());

    let start = {
        let (phase, job, session, said) =
            (phase.clone(), job.clone(), session.clone(), said.clone());
        let (a, problems) = (props.a.clone(), props.a_problems.clone());
        let labels = (props.a_label.clone(), label_of(&props.a, chosen));
        let refused = ctx.knobs_refused();
        let typed_error = typed_error.clone();
        Callback::from(move |_: MouseEvent| {
            let refused = refused.clone();
            if let Some(e) = &typed_error {
                phase.set(Phase::Failed(vec![Problem::Knob(e.clone())]));
                return;
            }
            if !refused.is_empty() {
                phase.set(Phase::Failed(
                    refused.into_iter().map(Problem::Refused).collect(),
                ));
                return;
            }
            if !problems.is_empty() {
                phase.set(Phase::Failed(problems.clone()));
                return;
            }
            *job.borrow_mut() = Some(Job {
                a: None,
                b: chosen.apply(&a),
                labels: labels.clone(),
            });
            match session.start(&a) {
                Ok(_) => {
                    said.set(Some(("sim.compare.running-a", lang)));
                    phase.set(Phase::RunningA(0));
                }
                Err(p) => {
                    job.borrow_mut().take();
                    phase.set(Phase::Failed(vec![p]));
                }
            }
        })
    };
    let cancel = {
        let (phase, job, session, said) =
            (phase.clone(), job.clone(), session.clone(), said.clone());
        Callback::from(move |_: MouseEvent| {
            session.cancel();
            said.set(Some(("sim.ui.cancelled", lang)));
            job.borrow_mut().take();
            phase.set(Phase::Cancelled);
        })
    };
    let on_choice = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            choice.set(v.parse().unwrap_or(0));
        })
    };
    let workers_field = workers_field(chosen, &b_workers, typed_error, lang);
    let running = matches!(*phase, Phase::RunningA(_) | Phase::RunningB(_));
    let options = alts.iter().enumerate().map(|(i, alt)| {
        let selected = i == chosen_index;
        // The chosen workers change is labelled with the count typed.
        let alt = if selected { chosen } else { *alt };
        let b = alt.apply(&props.a);
        html! {
            <option value={i.to_string()} {selected} data-variant={variant_id(&b)} data-change={change_id(alt)}>{ label_of(&props.a, alt).text(lang) }</option>
        }
    });
    html! {
        <section class="sim-compare" aria-labelledby="sim-compare-title">
            <h3 id="sim-compare-title">{ t!("sim.compare.title", locale = l) }</h3>
            <div class="sim-row compare-controls">
                <p class="compare-a" data-variant={variant_id(&props.a)}><strong>{ t!("sim.compare.a", locale = l) }</strong>{ t!("ui.colon", locale = l) }{ props.a_label.text(lang) }</p>
                <div class="sfield" data-field="compare-with">
                    <label for="compare-with">{ t!("sim.compare.with", locale = l) }</label>
                    <select id="compare-with" onchange={on_choice}>{ for options }</select>
                </div>
                { workers_field }
                <div class="actions">
                    <button type="button" class="primary" id="compare-run" disabled={running} onclick={start}>{ t!("sim.compare.run", locale = l) }</button>
                    <button type="button" class="secondary" id="compare-cancel" disabled={!running} onclick={cancel}>{ t!("sim.ui.cancel", locale = l) }</button>
                </div>
            </div>
            { live_region("compare-live", *said) }
            <div class="slot">{ phase_status(&phase, lang) }</div>
            <div class="slot">{ (*results).clone().map(|pair| compare_result(&pair, lang)) }</div>
        </section>
    }
}

/// `chosen` with the worker count typed in B's workers field when it is the workers change
/// (one more than A's until the field is edited), and why a typed count is refused (naming
/// the field and the range 1 ..= [`KNOB_WORKERS`]; the change keeps its last count then).
fn with_typed_workers(
    chosen: Alternative,
    typed: Option<&str>,
) -> (Alternative, Option<KnobError>) {
    let (Alternative::Change(Change::Workers(_)), Some(text)) = (chosen, typed) else {
        return (chosen, None);
    };
    let v = parse_whole(text);
    match v.and_then(|v| u32::try_from(v).ok()) {
        Some(n) if (1..=KNOB_WORKERS).contains(&u64::from(n)) => {
            (Alternative::Change(Change::Workers(n)), None)
        }
        _ => (
            chosen,
            Some(KnobError::OutOfRange {
                knob: Knob::Workers,
                value: v.unwrap_or(0),
                min: 1,
                max: KNOB_WORKERS,
            }),
        ),
    }
}

/// B's worker count (`#compare-workers`) when the chosen change is the workers change, with
/// why a typed count is refused.
fn workers_field(
    chosen: Alternative,
    typed: &UseStateHandle<Option<String>>,
    error: Option<KnobError>,
    lang: Lang,
) -> Html {
    let Alternative::Change(Change::Workers(n)) = chosen else {
        return Html::default();
    };
    let l = lang.code();
    let value = (**typed).clone().unwrap_or_else(|| n.to_string());
    let oninput = {
        let typed = typed.clone();
        Callback::from(move |e: InputEvent| {
            typed.set(Some(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            ));
        })
    };
    html! {
        <div class="sfield" data-field="compare-workers">
            <label for="compare-workers">{ t!("sim.compare.b-workers", locale = l) }</label>
            <span class="with-unit">
                <input id="compare-workers" type="text" inputmode="numeric" autocomplete="off"
                    {value} {oninput} aria-invalid={error.is_some().to_string()} />
                <span class="unit">{ t!("knobs.unit-word.workers", locale = l) }</span>
            </span>
            <div class="slot">{ error.map(|e| html! { <p class="error" role="alert" data-finding="compare-workers">{ e.message(lang) }</p> }) }</div>
        </div>
    }
}

/// The comparison's status: running A or B with its events, cancelled, or why it failed. Not
/// a live region (the counts change all the time): the section's live region says when the
/// comparison starts, finishes or is cancelled; a failure is an alert.
fn phase_status(phase: &Phase, lang: Lang) -> Html {
    let l = lang.code();
    match phase {
        Phase::Idle => Html::default(),
        Phase::RunningA(n) | Phase::RunningB(n) => {
            let key = if matches!(phase, Phase::RunningA(_)) {
                "sim.compare.running-a"
            } else {
                "sim.compare.running-b"
            };
            html! { <p class="sim-status" data-compare-status="running">{ t!(key, locale = l) }{ " " }{ group_thousands(*n) }</p> }
        }
        Phase::Cancelled => {
            html! { <p class="sim-status" data-compare-status="cancelled">{ t!("sim.ui.cancelled", locale = l) }</p> }
        }
        Phase::Failed(errors) => html! {
            <div class="notice error-notice" role="alert" data-compare-status="failed">
                <p>{ t!("sim.compare.failed", locale = l) }</p>
                <ul>{ for errors.iter().map(|e| html! { <li>{ e.text(lang) }</li> }) }</ul>
            </div>
        },
    }
}

/// Both runs as the worker drew them: the key numbers that differ and the event logs, then
/// each column's charts on shared scales under its label, trace hash and seed.
fn compare_result(pair: &Pair, lang: Lang) -> Html {
    let l = lang.code();
    let col = |side: &'static str, name: String, label: &RunLabel, v: &Rc<RunView>| {
        html! {
            <div class="compare-col" data-side={side}>
                <h4>{ name }{ t!("ui.colon", locale = l) }{ label.text(lang) }</h4>
                <p class="hint">{ t!("sim.ui.trace-hash", locale = l) }{ t!("ui.colon", locale = l) }<code data-hash={side}>{ v.trace_hash.clone() }</code>
                    { t!("sim.ui.seed-n", locale = l, seed = v.seed) }</p>
                <div class="slot charts-slot">{ charts(&pair.b, usize::from(side == "b"), lang) }</div>
            </div>
        }
    };
    let drawn = pair.b.drawn.compared.as_ref();
    let raw = |f: fn(&Compared) -> &Both| {
        drawn.map(|c| crate::ui::simulate::charts::raw(pick(f(c), lang)))
    };
    html! {
        <div class="compare-result">
            <div class="slot">{ raw(|c| &c.table) }</div>
            <div class="slot">{ raw(|c| &c.same) }</div>
            <div class="compare-cols">
                { col("a", "A".into(), &pair.labels.0, &pair.a) }
                { col("b", "B".into(), &pair.labels.1, &pair.b) }
            </div>
        </div>
    }
}

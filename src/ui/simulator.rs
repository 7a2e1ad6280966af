//! The Simulate screen's place in the page. The simulator itself ([`crate::ui::simulate`]) is
//! a wasm module of its own (`src/bin/sim-ui.rs`, [`root`]), fetched the first time the screen
//! is shown, so the first question's load does not carry it; [`SimulatorHost`] fetches it,
//! mounts it into its element and keeps it in step with the page ([`SimulatorView`]), and the
//! page keeps the choices the user makes there ([`SimulatorSays`]). Once mounted it stays (the
//! screen is hidden, not removed, on other screens), so a run and its worker survive a visit
//! elsewhere.

pub mod root;

use crate::domain::lang::Lang;
use crate::domain::session::simulator::{SimulatorSays, SimulatorView};
use crate::domain::session::{SimChoice, SimEdit};
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::JobSheet;
use crate::text::t;
use crate::ui::browser;
use crate::ui::browser::simulator::{Module, Part};
use crate::ui::state::{Action, AppContext, Screen};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Where what the module says goes: the simulator's choices to the session, a capacity
/// answer used in the sheet to the open sheet (an edit, checked as one typed in the form).
fn told(ctx: &AppContext) -> Callback<String> {
    let ctx = ctx.clone();
    Callback::from(move |text: String| match SimulatorSays::from_json(&text) {
        Some(SimulatorSays::Chose(choice)) => {
            ctx.dispatch(Action::SetSim(SimEdit::All(Box::new(choice))));
        }
        Some(SimulatorSays::Load(load)) => {
            ctx.dispatch(Action::EditSheet(SheetEdit::Load(load)));
        }
        None => {}
    })
}

/// The sheet's inputs showing a value they refused (DOM ids): "Size it" waits for them.
fn refused_ids(ctx: &AppContext) -> Vec<String> {
    ctx.sheet_refused().into_iter().map(|(id, _)| id).collect()
}

/// How far fetching the module got.
#[derive(Debug, Clone, PartialEq)]
enum Fetch {
    NotYet,
    Started,
    Ready,
    Failed(String),
}

/// The element the simulator module draws into, with "Loading the simulator…" while it is
/// fetched and the reason when it could not be.
#[component]
pub fn SimulatorHost() -> Html {
    let ctx = use_context::<AppContext>();
    let host = use_node_ref();
    let module = use_mut_ref(|| None::<Module>);
    let loading = use_state(|| Fetch::NotYet);
    let view = ctx.as_ref().map(|c| {
        SimulatorView {
            lang: c.lang,
            sheet: c.sheet.clone(),
            sim: c.sim.clone(),
            outcome: crate::domain::evaluate(&c.answers).outcome(),
            // The sheet's form is not on screen here, so none of its fields shows a value.
            refused: Vec::new(),
        }
        .to_json()
    });
    // The view at this render, read when the module has started (it may have changed while
    // the module was fetched).
    let latest = use_mut_ref(String::new);
    *latest.borrow_mut() = view.clone().unwrap_or_default();
    let shown = ctx
        .as_ref()
        .is_some_and(|c| c.screen == Screen::Simulate && c.shared.is_none());
    {
        let (host, module, loading, latest) = (
            host.clone(),
            module.clone(),
            loading.clone(),
            latest.clone(),
        );
        let ctx = ctx.clone();
        use_effect_with(shown, move |shown| {
            if let (true, Fetch::NotYet, Some(ctx)) = (*shown, &*loading, ctx) {
                browser::load_stylesheet("./sim.css");
                loading.set(Fetch::Started);
                let tell = told(&ctx);
                wasm_bindgen_futures::spawn_local(async move {
                    let Some(el) = host.cast::<web_sys::Element>() else {
                        return;
                    };
                    let view = latest.borrow().clone();
                    match browser::simulator::load(Part::Simulator, &el, &view, tell).await {
                        Ok(m) => {
                            m.update(&latest.borrow());
                            *module.borrow_mut() = Some(m);
                            loading.set(Fetch::Ready);
                        }
                        Err(e) => loading.set(Fetch::Failed(e)),
                    }
                });
            }
        });
    }
    {
        let module = module.clone();
        use_effect_with(view, move |view| {
            if let (Some(m), Some(view)) = (module.borrow().as_ref(), view) {
                m.update(view);
            }
        });
    }
    let l = ctx.as_ref().map_or("en", |c| c.lang.code());
    let status = match &*loading {
        Fetch::Started => html! {
            <p class="boot-loading" role="status">{ t!("ui.simulator-loading", locale = l) }</p>
        },
        Fetch::Failed(e) => html! {
            <div class="notice" role="alert" id="simulator-failed">
                <p>{ t!("ui.simulator-failed", locale = l, error = e) }</p>
            </div>
        },
        Fetch::NotYet | Fetch::Ready => Html::default(),
    };
    html! {
        <>
            <div class="slot">{ status }</div>
            <div class="sim-host" ref={host}></div>
        </>
    }
}

/// Where one process's capacity panel lives between visits: its element (outside the
/// document while another screen or process shows, so its answer and a run in progress stay)
/// and the module's drawing in it.
#[derive(Default)]
struct CapacityPlace {
    element: Option<web_sys::Element>,
    module: Option<Module>,
    loading: bool,
}

/// The app's places for the sheet's capacity panel, one per process (by id; `""` for a sheet
/// outside the catalog), so an answer is only ever shown on its own process's sheet. Shared
/// with the sheet screen (equal only to itself).
#[derive(Clone, Default)]
pub struct CapacityKeep(Rc<RefCell<std::collections::HashMap<String, CapacityPlace>>>);

impl PartialEq for CapacityKeep {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// What the sheet hands its capacity panel.
#[derive(Properties, PartialEq)]
pub struct CapacityHostProps {
    /// The app's places for the panel.
    pub keep: CapacityKeep,
    /// The open process's id (`""` when none): each process has its own panel.
    pub process: AttrValue,
    /// The page's language.
    pub lang: Lang,
    /// The open sheet (its "Load and capacity" section is what the panel sizes).
    pub sheet: Rc<JobSheet>,
}

/// Puts `process`'s panel element in `slot` (made on its first visit), and starts the module
/// drawing in it unless it is already drawn or being fetched; `started` is told when a fetch
/// begins and `done` when it ends (`Err`: why the module could not be had).
fn show_capacity(
    slot: &web_sys::Element,
    keep: &CapacityKeep,
    (process, tell): (&str, Callback<String>),
    latest: Rc<RefCell<String>>,
    started: Callback<()>,
    done: Callback<Result<(), String>>,
) {
    let mut places = keep.0.borrow_mut();
    let place = places.entry(process.to_owned()).or_default();
    if place.element.is_none() {
        place.element = browser::simulator::detached_div("capacity-host");
    }
    let Some(element) = place.element.clone() else {
        return;
    };
    browser::simulator::place_only(slot, &element);
    if place.module.is_some() || place.loading {
        return;
    }
    place.loading = true;
    started.emit(());
    let (keep, process) = (keep.clone(), process.to_owned());
    wasm_bindgen_futures::spawn_local(async move {
        let view = latest.borrow().clone();
        let result = browser::simulator::load(Part::Capacity, &element, &view, tell).await;
        let mut places = keep.0.borrow_mut();
        let Some(place) = places.get_mut(&process) else {
            return;
        };
        place.loading = false;
        match result {
            Ok(m) => {
                m.update(&latest.borrow());
                place.module = Some(m);
                done.emit(Ok(()));
            }
            Err(e) => done.emit(Err(e)),
        }
    });
}

/// The sheet's capacity panel, drawn by the simulator module (fetched when a sheet is first
/// shown): "Loading…" until it is, the reason if it cannot be.
#[component]
pub fn CapacityHost(props: &CapacityHostProps) -> Html {
    let slot = use_node_ref();
    let failed = use_state(|| None::<String>);
    let loading = use_state(|| false);
    let ctx = use_context::<AppContext>();
    let view = SimulatorView {
        lang: props.lang,
        sheet: Some((*props.sheet).clone()),
        sim: SimChoice::default(),
        // The panel sizes the sheet it is given; the decision is the sheet's own.
        outcome: Some(props.sheet.decision.outcome),
        refused: ctx.as_ref().map(refused_ids).unwrap_or_default(),
    }
    .to_json();
    let latest = use_mut_ref(String::new);
    *latest.borrow_mut() = view.clone();
    {
        let (slot, keep, latest) = (slot.clone(), props.keep.clone(), latest.clone());
        let (failed, loading) = (failed.clone(), loading.clone());
        let tell = ctx.as_ref().map_or_else(Callback::noop, told);
        use_effect_with(props.process.clone(), move |process| {
            if let Some(slot) = slot.cast::<web_sys::Element>() {
                let started = {
                    let (failed, loading) = (failed.clone(), loading.clone());
                    Callback::from(move |()| {
                        failed.set(None);
                        loading.set(true);
                    })
                };
                let done = Callback::from(move |r: Result<(), String>| {
                    loading.set(false);
                    failed.set(r.err());
                });
                show_capacity(&slot, &keep, (process, tell), latest, started, done);
            }
        });
    }
    {
        let (keep, process) = (props.keep.clone(), props.process.clone());
        use_effect_with(view, move |view| {
            if let Some(m) = keep
                .0
                .borrow()
                .get(process.as_str())
                .and_then(|p| p.module.as_ref())
            {
                m.update(view);
            }
        });
    }
    let l = props.lang.code();
    let status = if let Some(e) = &*failed {
        html! {
            <div class="notice" role="alert" id="capacity-failed">
                <p>{ t!("ui.simulator-failed", locale = l, error = e) }</p>
            </div>
        }
    } else if *loading {
        html! { <p class="boot-loading" role="status">{ t!("ui.simulator-loading", locale = l) }</p> }
    } else {
        Html::default()
    };
    html! {
        <>
            <div class="slot">{ status }</div>
            <div ref={slot}></div>
        </>
    }
}

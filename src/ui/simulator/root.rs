//! The simulator module's root (`src/bin/sim-ui.rs` mounts it; the page never runs it): the
//! simulator screen over the module's own copy of the app state, which follows the page's
//! [`SimulatorView`] and reports the user's choices back ([`SimulatorSays`]).

use crate::domain::lang::Lang;
use crate::domain::session::simulator::{SimulatorSays, SimulatorView};
use crate::ui::simulate::{OpenOutcome, SimTell, SimulateScreen};
use crate::ui::state::{Action, AppContext, AppState, Screen};
use yew::prelude::*;

/// What the page hands the module: its view as JSON, and where the module's answers go.
#[derive(Properties, PartialEq, Clone)]
pub struct RootProps {
    /// The page's [`SimulatorView`], as [`SimulatorView::to_json`] writes it.
    pub view: AttrValue,
    /// Receives [`SimulatorSays`] as JSON.
    pub tell: Callback<String>,
}

/// The module's state at its start: the page's language, sheet and choices.
fn first_state(view: Option<&SimulatorView>) -> AppState {
    let mut s = AppState::new(view.map_or(Lang::En, |v| v.lang));
    if let Some(v) = view {
        s.sheet = v.sheet.clone();
        s.sim = v.sim.clone();
    }
    s.screen = Screen::Simulate;
    s
}

/// The simulator screen, in step with the page.
#[component]
pub fn Root(props: &RootProps) -> Html {
    let first = SimulatorView::from_json(&props.view).ok();
    let state = use_reducer(|| first_state(first.as_ref()));
    let outcome = use_state(|| OpenOutcome(first.as_ref().and_then(|v| v.outcome)));
    // The choices the page holds as far as the module knows: the page's own change (e.g.
    // "Simulate this sheet") replaces the module's; an echo of the module's does not.
    let known = use_mut_ref(|| first.map(|v| v.sim));
    {
        let (state, known, outcome) = (state.clone(), known.clone(), outcome.clone());
        use_effect_with(props.view.clone(), move |text| {
            if let Ok(view) = SimulatorView::from_json(text) {
                outcome.set(OpenOutcome(view.outcome));
                let page_changed = known.borrow().as_ref() != Some(&view.sim);
                *known.borrow_mut() = Some(view.sim.clone());
                state.dispatch(Action::Mirror(Box::new(view), page_changed));
            }
        });
    }
    {
        let (tell, known) = (props.tell.clone(), known.clone());
        use_effect_with(state.sim.clone(), move |sim| {
            if known.borrow().as_ref() != Some(sim) {
                *known.borrow_mut() = Some(sim.clone());
                tell.emit(SimulatorSays::Chose(sim.clone()).to_json());
            }
        });
    }
    html! {
        <ContextProvider<AppContext> context={state}>
            <ContextProvider<SimTell> context={SimTell(props.tell.clone())}>
                <ContextProvider<OpenOutcome> context={*outcome}>
                    <SimulateScreen />
                </ContextProvider<OpenOutcome>>
            </ContextProvider<SimTell>>
        </ContextProvider<AppContext>>
    }
}

/// The sheet's capacity panel in the module: the page's language and sheet
/// ([`SimulatorView`]; its simulator choices are not read), sized in the simulation worker.
#[component]
pub fn CapacityRoot(props: &RootProps) -> Html {
    let capacity_lang = SimulatorView::from_json(&props.view).map_or(Lang::En, |v| v.lang);
    let capacity = crate::ui::sheet::capacity::use_capacity(capacity_lang);
    match SimulatorView::from_json(&props.view) {
        Ok(SimulatorView {
            lang,
            sheet: Some(sheet),
            refused,
            ..
        }) => crate::ui::sheet::capacity::capacity_panel(
            &capacity,
            &sheet,
            (lang, 1, crate::ui::sheet::capacity::Place::Sheet),
            (Some(&props.tell), &refused),
        ),
        _ => Html::default(),
    }
}

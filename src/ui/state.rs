//! The app state in yew: the pure state machine ([`crate::domain::app_state`]) behind yew's
//! [`Reducible`], and the context every component reads it from. Nothing else lives here.

pub use crate::domain::app_state::{reduce, Action, AppState, Output, Screen, SheetNotice};
use crate::ui::rescue;
use std::rc::Rc;
use yew::prelude::*;

impl Reducible for AppState {
    type Action = Action;

    /// [`reduce`]; the same `Rc` when nothing changes, so nothing is drawn again. The result
    /// is remembered for the panic page ([`rescue::remember`]); a test-only panic may follow
    /// ([`rescue::test_panic`]).
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match reduce(&self, action) {
            Some(next) => Rc::new(next),
            None => self,
        };
        rescue::remember(next.clone());
        rescue::test_panic(rescue::TestPanic::Action);
        next
    }
}

/// The app state shared with every component through a context.
pub type AppContext = UseReducerHandle<AppState>;

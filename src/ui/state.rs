//! The app state in yew: the pure state machine ([`crate::domain::app_state`]) behind yew's
//! [`Reducible`], and the context every component reads it from. Nothing else lives here.

pub use crate::domain::app_state::{reduce, Action, AppState, Output, Screen, SheetNotice};
use std::rc::Rc;
use yew::prelude::*;

impl Reducible for AppState {
    type Action = Action;

    /// [`reduce`]; the same `Rc` when nothing changes, so nothing is drawn again.
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match reduce(&self, action) {
            Some(next) => Rc::new(next),
            None => self,
        }
    }
}

/// The app state shared with every component through a context.
pub type AppContext = UseReducerHandle<AppState>;

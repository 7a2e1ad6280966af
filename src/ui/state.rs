//! The app state and its pure reducer (no storage, timers or randomness in here).

use crate::domain::flowchart::Answer;
use crate::domain::{evaluate, Answers, Evaluation, Lang, QuestionId};
use std::rc::Rc;
use yew::prelude::*;

/// Everything the wizard shows is derived from this.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// Language of every text.
    pub lang: Lang,
    /// The answers given so far (only answers on the current path are kept).
    pub answers: Answers,
    /// The earlier question the user went back to, if any; otherwise the next unanswered
    /// question (or the result) is shown.
    pub editing: Option<QuestionId>,
    /// Answers dropped by the last change because they no longer lie on the path, with the
    /// value they had; shown until dismissed.
    pub dropped: Vec<(QuestionId, bool)>,
    /// Whether the user has answered or navigated yet; focus moves to each new question
    /// only after that, so the first page load does not grab focus.
    pub interacted: bool,
}

/// What the user can do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Switch language.
    SetLang(Lang),
    /// Answer a question (directly or from timing numbers).
    Answer(QuestionId, Answer),
    /// Go to the previous question on the path.
    Back,
    /// Go back to an earlier question to change its answer.
    Edit(QuestionId),
    /// Forget all answers.
    Restart,
    /// Hide the notice about dropped answers.
    DismissDropped,
}

impl AppState {
    /// A fresh state in `lang`.
    pub fn new(lang: Lang) -> AppState {
        AppState {
            lang,
            answers: Answers::new(),
            editing: None,
            dropped: Vec::new(),
            interacted: false,
        }
    }

    /// The evaluation of the current answers.
    pub fn evaluation(&self) -> Evaluation {
        evaluate(&self.answers)
    }

    /// The question on screen, if any (None: the result is on screen).
    pub fn current_question(&self) -> Option<QuestionId> {
        self.editing.or(self.evaluation().next_question())
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        if !matches!(action, Action::SetLang(_)) {
            s.interacted = true;
        }
        match action {
            Action::SetLang(lang) => s.lang = lang,
            Action::Answer(q, answer) => {
                s.dropped = s
                    .answers
                    .answer(q, answer)
                    .into_iter()
                    .map(|(d, a)| (d, a.value()))
                    .collect();
                s.editing = None;
            }
            Action::Back => {
                let here = s.current_question();
                s.editing = s.evaluation().back_from(here);
            }
            Action::Edit(q) => s.editing = Some(q),
            Action::Restart => {
                s = AppState::new(s.lang);
                s.interacted = true;
            }
            Action::DismissDropped => s.dropped.clear(),
        }
        Rc::new(s)
    }
}

/// The app state shared with every component through a context.
pub type AppContext = UseReducerHandle<AppState>;

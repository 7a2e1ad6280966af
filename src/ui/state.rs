//! The app state and its pure reducer (no storage, timers or randomness in here).

use crate::domain::flowchart::Answer;
use crate::domain::place::Place;
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::import::ImportError;
use crate::domain::sheet::prefill::{for_decision, relocalize};
use crate::domain::sheet::{Decision, JobSheet};
use crate::domain::{evaluate, Answers, Evaluation, Lang, QuestionId};
use std::rc::Rc;
use yew::prelude::*;

/// The screen on show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The questions and the result.
    Decide,
    /// The job definition sheet of the current decision.
    Sheet,
    /// The queue simulator.
    Simulate,
}

/// A message about the sheet as a whole (import, copy, download, print). Kept as a value and
/// worded at display time ([`SheetNotice::text`]), so it follows a language switch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SheetNotice {
    /// The sheet was copied to the clipboard in this format (its label, e.g. "CSV").
    Copied(&'static str),
    /// The example sheet was loaded over the previous one (which can be put back).
    ExampleLoaded,
    /// A file was imported over the previous sheet (which can be put back).
    Imported,
    /// A file was not imported; the sheet is unchanged.
    ImportFailed(ImportError),
    /// The example or an edit was refused; the sheet is unchanged.
    Refused(ImportError),
    /// The browser refused (reading a file, the clipboard, a download): its own words.
    Browser(String),
    /// Copy / download / print refused because these sheet fields (DOM ids) show a value they
    /// refused: the output would carry the last accepted values instead of what is on screen.
    FieldsRefused(Output, Vec<String>),
}

/// What the user asked to produce from the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Copy to the clipboard.
    Copy,
    /// Download a file.
    Download,
    /// Print the page.
    Print,
    /// Open the simulator on the sheet's settings.
    Simulate,
}

impl SheetNotice {
    /// Whether the notice reports success (and a load that can be undone).
    pub fn is_info(&self) -> bool {
        matches!(
            self,
            SheetNotice::Copied(_) | SheetNotice::ExampleLoaded | SheetNotice::Imported
        )
    }

    /// The notice in `lang`; `label` names a sheet field by its DOM id, in `lang`.
    pub fn text(&self, lang: Lang, label: impl Fn(&str, Lang) -> String) -> String {
        use rust_i18n::t;
        let l = lang.code();
        match self {
            SheetNotice::Copied(f) => t!("sheet.ui.copied", locale = l, format = *f).into_owned(),
            SheetNotice::ExampleLoaded => t!("sheet.ui.example-loaded", locale = l).into_owned(),
            SheetNotice::Imported => t!("sheet.ui.imported", locale = l).into_owned(),
            SheetNotice::ImportFailed(e) => t!(
                "sheet.ui.import-failed",
                locale = l,
                error = e.message(lang)
            )
            .into_owned(),
            SheetNotice::Refused(e) => e.message(lang),
            SheetNotice::Browser(m) => m.clone(),
            SheetNotice::FieldsRefused(out, ids) => {
                let sep = if lang == Lang::Ja { "、" } else { ", " };
                let fields = ids
                    .iter()
                    .map(|id| label(id, lang))
                    .collect::<Vec<_>>()
                    .join(sep);
                let head = match out {
                    Output::Copy => t!("sheet.refused.not-copied", locale = l),
                    Output::Download => t!("sheet.refused.not-downloaded", locale = l),
                    Output::Print => t!("sheet.refused.not-printed", locale = l),
                    Output::Simulate => t!("sheet.refused.not-simulated", locale = l),
                };
                let key = if ids.len() > 1 {
                    "sheet.refused.fields"
                } else {
                    "sheet.refused.field"
                };
                format!("{head}{}", t!(key, locale = l, fields = fields))
            }
        }
    }
}

/// Everything the app shows is derived from this.
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
    /// The screen on show.
    pub screen: Screen,
    /// The job definition sheet, once opened (kept while the user goes back to the questions).
    pub sheet: Option<JobSheet>,
    /// The last message about the sheet as a whole.
    pub notice: Option<SheetNotice>,
    /// What a load or import replaced (sheet and answers), so it can be undone.
    pub before_load: Option<Box<(Option<JobSheet>, Answers)>>,
    /// The last finished simulation run (kept while the user visits other screens).
    pub sim_result: Option<std::rc::Rc<crate::domain::sim::runner::RunView>>,
    /// How many times "simulate these settings" was pressed: the simulator selects "your
    /// settings" (from the sheet) each time this changes.
    pub sim_sheet_requests: u32,
    /// The simulator's preset, variant, seed, load jobs and edited knobs (saved in the session).
    pub sim: crate::domain::session::SimChoice,
    /// Form fields showing a value they refused, as they report it ([`Action::FieldRefused`]):
    /// (DOM id, the message under the field), in the order reported. The sheet's checks panel
    /// lists those of the sheet.
    pub refused: Vec<(String, String)>,
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
    /// Show the decision screen.
    ShowDecide,
    /// Show the simulator.
    ShowSimulate,
    /// Go to a place the browser's history holds (Back / Forward). A place that no longer
    /// exists (a question off the current path, the sheet before a decision) goes to the
    /// nearest one that does.
    GoTo(Place),
    /// Open the simulator on "your settings", pre-filled from the sheet (made from the
    /// decision first if it does not exist yet).
    SimulateSheet,
    /// Open the sheet for the current decision (pre-filled when new or when the outcome
    /// changed; the process facts are kept).
    OpenSheet,
    /// Change one field of the sheet (already checked by the form; refused edits are
    /// ignored here so the sheet can never hold a bad value).
    EditSheet(SheetEdit),
    /// Replace the sheet and the answers with an imported sheet.
    LoadSheet(Box<JobSheet>),
    /// Show a message about the sheet (`None` hides it).
    Notice(Option<SheetNotice>),
    /// Put back the sheet and answers a load or import replaced.
    UndoLoad,
    /// A simulation run finished.
    SimResult(std::rc::Rc<crate::domain::sim::runner::RunView>),
    /// The simulator's choices changed (a preset, variant, valid seed or jobs, a knob).
    SetSim(crate::domain::session::SimEdit),
    /// A form field (DOM id) shows a value it refused, with this message (in the page's
    /// language); `None`: it no longer does (accepted, or gone).
    FieldRefused(String, Option<String>),
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
            screen: Screen::Decide,
            sheet: None,
            notice: None,
            sim_result: None,
            sim_sheet_requests: 0,
            sim: crate::domain::session::SimChoice::default(),
            before_load: None,
            refused: Vec::new(),
        }
    }

    /// A state in `lang` continuing a saved session (answers, sheet, screen).
    pub fn restored(lang: Lang, session: Option<crate::domain::session::Session>) -> AppState {
        let mut s = AppState::new(lang);
        if let Some(saved) = session {
            s.answers = saved.answers();
            let decided = s.evaluation().outcome().is_some();
            s.sheet = saved.sheet;
            s.sim = saved.sim.unwrap_or_default();
            if saved.on_sheet && decided && s.sheet.is_some() {
                s.screen = Screen::Sheet;
            } else if saved.on_simulate {
                s.screen = Screen::Simulate;
            }
        }
        s
    }

    /// What is saved between visits.
    pub fn session(&self) -> crate::domain::session::Session {
        let mut session = crate::domain::session::Session::new(
            &self.answers,
            self.sheet.as_ref(),
            self.screen == Screen::Sheet,
        );
        session.on_simulate = self.screen == Screen::Simulate;
        session.sim = Some(self.sim.clone());
        session
    }

    /// The evaluation of the current answers.
    pub fn evaluation(&self) -> Evaluation {
        evaluate(&self.answers)
    }

    /// The question on screen, if any (None: the result is on screen).
    pub fn current_question(&self) -> Option<QuestionId> {
        self.editing.or(self.evaluation().next_question())
    }

    /// Where the user is (kept in the browser's history as the URL fragment).
    pub fn place(&self) -> Place {
        match self.screen {
            Screen::Sheet if self.sheet.is_some() => Place::Sheet,
            Screen::Simulate => Place::Simulate,
            _ => self
                .current_question()
                .map_or(Place::Result, Place::Question),
        }
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // Not the user's doing by itself, and often no change: no new state then.
        if let Action::FieldRefused(id, message) = action {
            let mut list: Vec<(String, String)> = self
                .refused
                .iter()
                .filter(|(i, _)| *i != id)
                .cloned()
                .collect();
            if let Some(m) = message {
                list.push((id, m));
            }
            if list == self.refused {
                return self;
            }
            let mut s = (*self).clone();
            s.refused = list;
            return Rc::new(s);
        }
        let mut s = (*self).clone();
        if !matches!(action, Action::SetLang(_) | Action::SetSim(_)) {
            s.interacted = true;
        }
        match action {
            Action::SetLang(lang) => {
                s.lang = lang;
                // Defaults nobody changed follow the language; the user's own words stay.
                s.sheet = s.sheet.as_ref().map(|sheet| relocalize(sheet, lang));
            }
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
                // The sheet stays: its process facts are reused for the next decision.
                let sheet = s.sheet.take();
                s = AppState::new(s.lang);
                s.sheet = sheet;
                s.interacted = true;
            }
            Action::DismissDropped => s.dropped.clear(),
            Action::ShowDecide => s.screen = Screen::Decide,
            Action::ShowSimulate => s.screen = Screen::Simulate,
            Action::SimulateSheet => {
                if s.sheet.is_none() {
                    if let Some(decision) = Decision::from_answers(&s.answers) {
                        s.sheet = Some(for_decision(None, decision, s.lang));
                    }
                }
                s.sim_sheet_requests = s.sim_sheet_requests.wrapping_add(1);
                s.sim.preset = crate::domain::session::CUSTOM_PRESET.to_owned();
                s.sim.variant = "your-settings".to_owned();
                s.screen = Screen::Simulate;
                s.editing = None;
            }
            Action::GoTo(Place::Sheet) => return self.reduce(Action::OpenSheet),
            Action::GoTo(Place::Simulate) => return self.reduce(Action::ShowSimulate),
            Action::GoTo(Place::Result) => {
                s.screen = Screen::Decide;
                s.editing = None;
            }
            Action::GoTo(Place::Question(q)) => {
                s.screen = Screen::Decide;
                let on_path = s.evaluation().path.iter().any(|step| step.question == q);
                // An answered question opens for a change; the pending one is just shown.
                s.editing = on_path.then_some(q);
            }
            Action::OpenSheet => {
                if let Some(decision) = Decision::from_answers(&s.answers) {
                    s.sheet = Some(for_decision(s.sheet.as_ref(), decision, s.lang));
                    s.screen = Screen::Sheet;
                    s.editing = None;
                }
            }
            Action::EditSheet(edit) => {
                if let Some(sheet) = &s.sheet {
                    // A refused edit leaves the sheet as it was, and says why (the form's
                    // own checks catch almost everything before it gets here).
                    match edit.apply(sheet) {
                        Ok(next) => {
                            s.sheet = Some(next);
                            // After an edit, "undo the load" would throw the edit away.
                            s.before_load = None;
                            if matches!(
                                s.notice,
                                Some(SheetNotice::ExampleLoaded | SheetNotice::Imported)
                            ) {
                                s.notice = None;
                            }
                        }
                        Err(e) => s.notice = Some(SheetNotice::Refused(e)),
                    }
                }
            }
            Action::LoadSheet(sheet) => {
                s.before_load = Some(Box::new((s.sheet.take(), s.answers)));
                s.answers = sheet.decision.to_answers();
                s.sheet = Some(*sheet);
                s.screen = Screen::Sheet;
                s.editing = None;
                s.dropped.clear();
            }
            Action::Notice(n) => s.notice = n,
            Action::UndoLoad => {
                if let Some(before) = s.before_load.take() {
                    let (sheet, answers) = *before;
                    s.answers = answers;
                    s.sheet = sheet;
                    s.notice = None;
                    if s.sheet.is_none() || Decision::from_answers(&s.answers).is_none() {
                        s.screen = Screen::Decide;
                    }
                }
            }
            Action::SimResult(v) => s.sim_result = Some(v),
            Action::SetSim(edit) => s.sim = s.sim.apply(edit),
            Action::FieldRefused(..) => {}
        }
        Rc::new(s)
    }
}

/// The app state shared with every component through a context.
pub type AppContext = UseReducerHandle<AppState>;

//! The app's state machine: what the user has done and what the app shows ([`AppState`]),
//! what the user can do ([`Action`]), and the pure step between the two ([`reduce`]).
//!
//! It lives in the domain, beside the session it is saved as ([`crate::domain::session`]) and
//! the places the browser's history keeps ([`crate::domain::place`]), because it holds the
//! app's rules (which answers a change drops, that a refused sheet edit leaves the sheet as it
//! was, what "undo the load" puts back, where a stale place leads) and must be tested natively
//! like the rest of them (`tests/it/app_state.rs`). It knows nothing of yew or the browser:
//! no storage, timers, clock or randomness. The browser app wraps it in yew's `Reducible`
//! (`ui::state`, a thin adapter) and does the effects around it (saving the session, the
//! URL fragment, focus).

mod catalog;
mod share;

pub use catalog::{CatalogAction, CatalogNotice, CatalogUndo, Keeping, UNDO_DEPTH};
pub use share::{LinkStatus, PanelScope, ShareAction};

use crate::domain::catalog::sync::Held;
use crate::domain::catalog::{Catalog, ProcessId};
use crate::domain::flowchart::Answer;
use crate::domain::place::Place;
use crate::domain::session::{SimChoice, SimEdit, CUSTOM_PRESET};
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::import::ImportError;
use crate::domain::sheet::inputs;
use crate::domain::sheet::prefill::{for_decision, relocalize};
use crate::domain::sheet::{Decision, JobSheet};
use crate::domain::sim::runner::RunView;
use crate::domain::sim::setup::knobs::Knob;
use crate::domain::{evaluate, Answers, Evaluation, Lang, QuestionId};
use std::rc::Rc;

/// The screen on show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The questions and the result.
    Decide,
    /// The job definition sheet of the current decision.
    Sheet,
    /// The queue simulator.
    Simulate,
    /// The catalog: every process of the system.
    Catalog,
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
    /// Copy / download / print / simulate refused because these sheet inputs (DOM ids, page
    /// order) show a value they refused: the output would carry the last accepted values
    /// instead of what is on screen ([`AppState::check_output`]).
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

    /// The notice in `lang` (sheet inputs named by their labels, [`inputs::label_of`]).
    pub fn text(&self, lang: Lang) -> String {
        use crate::text::t;
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
                let head = match out {
                    Output::Copy => t!("sheet.refused.not-copied", locale = l),
                    Output::Download => t!("sheet.refused.not-downloaded", locale = l),
                    Output::Print => t!("sheet.refused.not-printed", locale = l),
                    Output::Simulate => t!("sheet.refused.not-simulated", locale = l),
                };
                format!("{head}{}", inputs::refused_text(ids, lang))
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
    pub sim_result: Option<Rc<RunView>>,
    /// How many times "simulate these settings" was pressed: the simulator selects "your
    /// settings" (from the sheet) each time this changes.
    pub sim_sheet_requests: u32,
    /// The simulator's preset, variant, seed, load jobs and edited knobs (saved in the session).
    pub sim: SimChoice,
    /// Form fields showing a value they refused, as they report it ([`Action::FieldRefused`]):
    /// (DOM id, the message under the field), in the order first reported. The one record of them:
    /// the sheet's checks panel lists those of the sheet ([`AppState::sheet_refused`]) and
    /// outputs are refused while there are any ([`AppState::check_output`]).
    pub refused: Vec<(String, String)>,
    /// Every process of the system. The open one's entry is brought up to date from the
    /// fields above by [`AppState::catalog_now`].
    pub catalog: Catalog,
    /// The process the questions, the sheet and "Your settings" work on (`None`: none open).
    pub open: Option<ProcessId>,
    /// Processes held back from storage, with their fields changed here and in another tab
    /// ([`crate::domain::catalog::sync`]); the user resolves each.
    pub held: Vec<Held>,
    /// Whether storage keeps the catalog, or it lives in memory only.
    pub keeping: Keeping,
    /// Whether the user hid the "nothing will be kept" notice.
    pub keeping_dismissed: bool,
    /// The last message about the catalog.
    pub catalog_notice: Option<CatalogNotice>,
    /// What the last delete or import can put back.
    pub undo_catalog: Option<Box<CatalogUndo>>,
    /// Earlier deletes and imports that can still be undone after the last one, oldest first
    /// (at most [`UNDO_DEPTH`]), each with its notice.
    pub older_undos: Vec<(Box<CatalogUndo>, CatalogNotice)>,
    /// A share link's process or catalog, shown read-only until saved or closed (never
    /// mixed into [`AppState::catalog`] unless saved).
    pub shared: Option<Box<crate::domain::share::Share>>,
    /// Whether a share link is being opened, or why it could not be.
    pub link: LinkStatus,
    /// The share panel on show, and what it shares.
    pub share_panel: Option<PanelScope>,
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
    /// Go to a place the browser's history holds (Back / Forward, a reload), of the process it
    /// names (opened when it is not open and still exists; `None`: the open one). Nothing is
    /// made or changed on the way: a place that does not exist (a question off the current
    /// path, the sheet of a process that has none) goes to the nearest one that does.
    GoTo(Place, Option<ProcessId>),
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
    SimResult(Rc<RunView>),
    /// The simulator's choices changed (a preset, variant, valid seed or jobs, a knob).
    SetSim(SimEdit),
    /// The simulator module's copy of the state takes what the page holds: the language, the
    /// sheet and (when the page changed them) the simulator's choices.
    Mirror(Box<crate::domain::session::simulator::SimulatorView>, bool),
    /// A form field (DOM id) shows a value it refused, with this message (in the page's
    /// language); `None`: it no longer does (accepted, or gone).
    FieldRefused(String, Option<String>),
    /// Something done to the catalog of processes.
    Catalog(CatalogAction),
    /// Something done with a share link.
    Share(ShareAction),
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
            sim: SimChoice::default(),
            before_load: None,
            refused: Vec::new(),
            catalog: Catalog::default(),
            open: None,
            held: Vec::new(),
            keeping: Keeping::default(),
            keeping_dismissed: false,
            catalog_notice: None,
            undo_catalog: None,
            older_undos: Vec::new(),
            shared: None,
            link: LinkStatus::Idle,
            share_panel: None,
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

    /// The sheet form's inputs that show a value they refused, (DOM id, message) in page order
    /// ([`inputs::in_page_order`]); other forms' reports (the simulator's knobs) are left out.
    pub fn sheet_refused(&self) -> Vec<(String, String)> {
        inputs::in_page_order(&self.refused)
    }

    /// The "Your settings" knobs whose fields show a value they refused (DOM id `knob-{id}`,
    /// reported like the sheet's fields), in [`Knob::ALL`] order: their settings hold the last
    /// good value, which must not run or download as if the user had typed it.
    pub fn knobs_refused(&self) -> Vec<Knob> {
        Knob::ALL
            .into_iter()
            .filter(|k| {
                let id = format!("knob-{}", k.id());
                self.refused.iter().any(|(r, _)| *r == id)
            })
            .collect()
    }

    /// Whether `out` may be produced from the sheet now: not while a sheet input shows a value
    /// it refused (the sheet holds the last accepted value, so the output would differ from
    /// the screen).
    ///
    /// # Errors
    /// [`SheetNotice::FieldsRefused`] naming every such input (DOM ids, page order): the
    /// notice to show.
    pub fn check_output(&self, out: Output) -> Result<(), SheetNotice> {
        let ids: Vec<String> = self.sheet_refused().into_iter().map(|(id, _)| id).collect();
        if ids.is_empty() {
            Ok(())
        } else {
            Err(SheetNotice::FieldsRefused(out, ids))
        }
    }

    /// This state after `action` ([`reduce`]; the same state when nothing changes).
    pub fn after(self, action: Action) -> AppState {
        reduce(&self, action).unwrap_or(self)
    }

    /// Where the user is (kept in the browser's history as the URL fragment).
    pub fn place(&self) -> Place {
        match self.screen {
            Screen::Sheet if self.sheet.is_some() => Place::Sheet,
            Screen::Simulate => Place::Simulate,
            Screen::Catalog => Place::Catalog,
            _ => self
                .current_question()
                .map_or(Place::Result, Place::Question),
        }
    }
}

/// The state after `action`, or `None` when the action changes nothing (a field repeating a
/// refusal already known): the app then keeps the state it has and draws nothing again.
/// Pure: the same state and action always give the same result.
pub fn reduce(state: &AppState, action: Action) -> Option<AppState> {
    let mut s = match action {
        Action::FieldRefused(id, message) => return field_refused(state, id, message),
        Action::GoTo(Place::Catalog, _) => {
            return reduce(state, Action::Catalog(CatalogAction::Show))
        }
        _ => state.clone(),
    };
    // Language and simulator choices are not the user's doing on the questions (a restored
    // session sets them too): focus stays put.
    let from_elsewhere = matches!(
        action,
        Action::Catalog(
            CatalogAction::Synced(..)
                | CatalogAction::StorageRefused(_)
                | CatalogAction::DismissKeeping
        )
    );
    if !matches!(
        action,
        Action::SetLang(_) | Action::SetSim(_) | Action::Mirror(..)
    ) && !from_elsewhere
    {
        s.interacted = true;
    }
    match action {
        Action::SetLang(lang) => {
            s.lang = lang;
            // Notices are worded at display time and follow the language; those that hold a
            // message already worded (a failure's, the browser's own) cannot, and go.
            if matches!(s.catalog_notice, Some(CatalogNotice::Failed(_))) {
                s.catalog_notice = None;
            }
            if matches!(s.notice, Some(SheetNotice::Browser(_))) {
                s.notice = None;
            }
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
        Action::Restart => s = restart(s),
        Action::DismissDropped => s.dropped.clear(),
        Action::ShowDecide => s.screen = Screen::Decide,
        Action::ShowSimulate => s.screen = Screen::Simulate,
        Action::SimulateSheet => simulate_sheet(&mut s),
        Action::GoTo(place, id) => go_to(&mut s, place, id),
        Action::OpenSheet => {
            if let Some(decision) = Decision::from_answers(&s.answers) {
                let mut sheet = for_decision(s.sheet.as_ref(), decision, s.lang);
                if sheet.process.process_name.trim().is_empty() {
                    // A new sheet takes the process's name from the catalog, unless it is the
                    // numbered name the catalog gave it (the sheet then asks for a real one).
                    if let Some(p) = s.open.as_ref().and_then(|id| s.catalog.get(id)) {
                        if !catalog::is_numbered_name(&p.name) {
                            sheet.process.process_name = p.name.clone();
                        }
                    }
                }
                s.sheet = Some(sheet);
                s.screen = Screen::Sheet;
                s.editing = None;
            }
        }
        Action::EditSheet(edit) => edit_sheet(&mut s, edit),
        Action::LoadSheet(sheet) => {
            s.before_load = Some(Box::new((s.sheet.take(), s.answers)));
            s.answers = sheet.decision.to_answers();
            s.sheet = Some(*sheet);
            s.screen = Screen::Sheet;
            s.editing = None;
            s.dropped.clear();
        }
        Action::Notice(n) => s.notice = n,
        Action::UndoLoad => undo_load(&mut s),
        Action::SimResult(v) => s.sim_result = Some(v),
        Action::SetSim(edit) => s.sim = s.sim.apply(edit),
        Action::Mirror(view, with_choices) => {
            if s.lang == view.lang && s.sheet == view.sheet && (!with_choices || s.sim == view.sim)
            {
                return None;
            }
            s.lang = view.lang;
            s.sheet = view.sheet;
            if with_choices {
                s.sim = view.sim;
            }
        }
        Action::FieldRefused(..) => {}
        Action::Catalog(a) => catalog::reduce_catalog(&mut s, a),
        Action::Share(a) => share::reduce_share(&mut s, a),
    }
    // The share panel is about what it was opened for: another process, or the catalog
    // screen in place of a process (and back), closes it.
    if s.open != state.open || s.share_scope() != state.share_scope() {
        s.share_panel = None;
    }
    Some(s)
}

/// A field's report ([`Action::FieldRefused`]): `None` when it changes nothing.
fn field_refused(state: &AppState, id: String, message: Option<String>) -> Option<AppState> {
    let at = state.refused.iter().position(|(i, _)| *i == id);
    let mut list = state.refused.clone();
    match (at, message) {
        (Some(at), Some(m)) if list[at].1 == m => return None,
        (Some(at), Some(m)) => list[at].1 = m,
        (Some(at), None) => {
            list.remove(at);
        }
        (None, Some(m)) => list.push((id, m)),
        (None, None) => return None,
    }
    let mut s = state.clone();
    s.refused = list;
    Some(s)
}

/// Forgets every answer of the open process and shows its first question. Everything else
/// stays: the sheet (its process facts are reused for the next decision), the fields' reports
/// of refused values (they are the fields' to clear), the catalog with the open process (it
/// was once rebuilt empty here, so "Start over" dropped every process from the page),
/// the simulator's choices and what keeps the catalog.
fn restart(mut s: AppState) -> AppState {
    s.answers = Answers::new();
    s.editing = None;
    s.dropped = Vec::new();
    s.screen = Screen::Decide;
    s.notice = None;
    s.before_load = None;
    s.interacted = true;
    s
}

/// Opens the simulator on "your settings", making the sheet from the decision first if there
/// is none yet.
fn simulate_sheet(s: &mut AppState) {
    if s.sheet.is_none() {
        if let Some(decision) = Decision::from_answers(&s.answers) {
            s.sheet = Some(for_decision(None, decision, s.lang));
        }
    }
    s.sim_sheet_requests = s.sim_sheet_requests.wrapping_add(1);
    s.sim.preset = CUSTOM_PRESET.to_owned();
    s.sim.variant = "your-settings".to_owned();
    s.screen = Screen::Simulate;
    s.editing = None;
}

/// A place on the Decide screen from the browser's history (the sheet and the simulator are
/// opened by their own actions).
fn go_to(s: &mut AppState, place: Place, id: Option<ProcessId>) {
    if let Some(id) = id.filter(|id| s.open.as_ref() != Some(id) && s.catalog.get(id).is_some()) {
        catalog::flush(s);
        catalog::load(s, &id);
    }
    let decided = s.evaluation().outcome().is_some();
    s.screen = match place {
        Place::Sheet if decided && s.sheet.is_some() => Screen::Sheet,
        Place::Simulate => Screen::Simulate,
        _ => Screen::Decide,
    };
    match place {
        Place::Question(q) => {
            let on_path = s.evaluation().path.iter().any(|step| step.question == q);
            // An answered question opens for a change; the pending one is just shown.
            s.editing = on_path.then_some(q);
        }
        Place::Result | Place::Sheet | Place::Simulate | Place::Catalog => s.editing = None,
    }
}

/// One edit of the sheet. A refused edit leaves the sheet as it was, and says why (the form's
/// own checks catch almost everything before it gets here).
fn edit_sheet(s: &mut AppState, edit: SheetEdit) {
    let Some(sheet) = &s.sheet else {
        return;
    };
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

/// Puts back the sheet and answers a load or import replaced; back to the questions when they
/// no longer lead to a sheet.
fn undo_load(s: &mut AppState) {
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

//! What the page and the simulator tell each other. The simulator screen is its own wasm
//! module (`src/bin/sim-ui.rs`, fetched when the Simulate screen is first shown, so the first
//! question's load does not carry it); it keeps its own copy of the app state and the page
//! hands it what the simulator reads ([`SimulatorView`], as JSON) whenever that changes. The
//! simulator answers with the choices the user made there ([`SimulatorSays`], as JSON), which
//! the page keeps with the session (a reload restores them).

use crate::domain::flowchart::Outcome;
use crate::domain::lang::Lang;
use crate::domain::session::SimChoice;
use crate::domain::sheet::load::LoadSpec;
use crate::domain::sheet::JobSheet;
use serde::{Deserialize, Serialize};

/// The part of the page's state the simulator screen reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulatorView {
    /// The page's language.
    pub lang: Lang,
    /// The open process's sheet ("Your settings" follow it), if it has one.
    pub sheet: Option<JobSheet>,
    /// The simulator's choices as the page keeps them.
    pub sim: SimChoice,
    /// The open process's decision (`None`: not decided yet), so the Capacity view can tell
    /// a queued job whose sheet was never opened from an undecided process, a call or a batch.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// The sheet's inputs (DOM ids, page order) that show a value they refused
    /// ([`AppState::sheet_refused`](crate::domain::app_state::AppState::sheet_refused)): the
    /// sheet holds the last accepted value there, so "Size it" refuses, naming them, as Copy
    /// and Simulate do.
    #[serde(default)]
    pub refused: Vec<String>,
}

impl SimulatorView {
    /// The view as the JSON text the module reads.
    pub fn to_json(&self) -> String {
        // Plain data (strings, numbers, options): serde_json cannot fail on it.
        crate::domain::json::compact(self)
    }

    /// Reads what [`SimulatorView::to_json`] wrote; the decoder's message when the text is
    /// not such a view (a page and a module from different builds).
    pub fn from_json(text: &str) -> Result<SimulatorView, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// What the simulator tells the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SimulatorSays {
    /// The user changed the simulator's choices (a preset, a variant, a seed, jobs, a knob).
    Chose(SimChoice),
    /// The user chose to use a capacity answer in the sheet: its "Load and capacity" section
    /// as it should become ([`LoadSpec::with_slots`]). The page applies it as an edit of the
    /// open sheet, checked as one typed in the form.
    Load(LoadSpec),
}

impl SimulatorSays {
    /// As the JSON text the page reads.
    pub fn to_json(&self) -> String {
        crate::domain::json::compact(self)
    }

    /// Reads what [`SimulatorSays::to_json`] wrote. The choices are read part by part as a
    /// stored session's are ([`SimChoice::from_value`]): a part out of range takes its default.
    /// A load section that is not one is `None` (the page's edit checks its ranges).
    pub fn from_json(text: &str) -> Option<SimulatorSays> {
        /// `{"Load": …}`, read from the text as a stored sheet is (the page's one deserializer
        /// of the section: read from a `Value`, the page would carry a second copy).
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Load {
            #[serde(rename = "Load")]
            load: LoadSpec,
        }
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        if value.get("Load").is_some() {
            return serde_json::from_str::<Load>(text)
                .ok()
                .map(|l| SimulatorSays::Load(l.load));
        }
        let chose = value.get("Chose")?;
        Some(SimulatorSays::Chose(SimChoice::from_value(chose)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_and_an_answer_read_back_as_written() {
        let sim = SimChoice {
            seed: 42,
            ..SimChoice::default()
        };
        let view = SimulatorView {
            lang: Lang::Ja,
            sheet: None,
            sim: sim.clone(),
            outcome: Some(Outcome::Batch),
            refused: vec!["arrival".into(), "handler-p95".into()],
        };
        assert_eq!(SimulatorView::from_json(&view.to_json()), Ok(view.clone()));
        // Not decided yet: the decision reads back as none.
        let undecided = SimulatorView {
            outcome: None,
            ..view
        };
        assert_eq!(
            SimulatorView::from_json(&undecided.to_json()),
            Ok(undecided)
        );
        let says = SimulatorSays::Chose(sim);
        assert_eq!(SimulatorSays::from_json(&says.to_json()), Some(says));
        assert!(SimulatorView::from_json("{}").is_err());
        assert_eq!(SimulatorSays::from_json("[]"), None);
        let load = LoadSpec {
            workers: Some(3),
            ..LoadSpec::default()
        };
        let says = SimulatorSays::Load(load);
        assert_eq!(SimulatorSays::from_json(&says.to_json()), Some(says));
        assert_eq!(
            SimulatorSays::from_json(r#"{"Load":{"workers":"many"}}"#),
            None
        );
        assert_eq!(SimulatorSays::from_json(r#"{"Load":{"lanes":2}}"#), None);
    }
}

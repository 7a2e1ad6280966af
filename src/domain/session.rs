//! What a user has done so far — answers, the sheet, the screen — as versioned JSON, so a
//! reload (or a crash of the tab) loses nothing. Reading is forgiving in one way only: a
//! saved session that does not check out is dropped whole, never half-applied.

use crate::domain::flowchart::{Answer, Answers, QuestionId};
use crate::domain::sheet::import::check_sheet;
use crate::domain::sheet::{DecisionAnswer, JobSheet};
use serde::{Deserialize, Serialize};

/// The version written by this build; others are ignored on load.
pub const SESSION_VERSION: u32 = 1;

/// A saved session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// Always [`SESSION_VERSION`].
    pub version: u32,
    /// Every answer given (possibly an incomplete walk), in flowchart order.
    pub answers: Vec<DecisionAnswer>,
    /// The job sheet, once opened.
    pub sheet: Option<JobSheet>,
    /// Whether the sheet was on screen.
    pub on_sheet: bool,
    /// Whether the simulator was on screen.
    #[serde(default)]
    pub on_simulate: bool,
}

impl Session {
    /// A session from the app's state.
    pub fn new(answers: &Answers, sheet: Option<&JobSheet>, on_sheet: bool) -> Session {
        let answers = answers
            .answered()
            .map(|(question, a)| DecisionAnswer {
                question,
                answer: a.value(),
                timing: match a {
                    Answer::Derived(t) => Some(t),
                    Answer::Given(_) => None,
                },
            })
            .collect();
        Session {
            version: SESSION_VERSION,
            answers,
            sheet: sheet.cloned(),
            on_sheet,
            on_simulate: false,
        }
    }

    /// The session as JSON (plain strings and numbers: serialising cannot fail).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a saved session; `None` when it is not JSON, of another version, or does not
    /// hold together (an answer twice, a timing off `within-seconds` or out of range, a
    /// sheet out of range).
    pub fn from_json(json: &str) -> Option<Session> {
        let s: Session = serde_json::from_str(json).ok()?;
        if s.version != SESSION_VERSION {
            return None;
        }
        let mut seen = Vec::new();
        for a in &s.answers {
            if seen.contains(&a.question) {
                return None;
            }
            seen.push(a.question);
            if let Some(t) = a.timing {
                let ok = a.question == QuestionId::WithinSeconds
                    && crate::domain::Timing::new(t.target_ms, t.p95_ms).is_ok()
                    && t.within() == a.answer;
                if !ok {
                    return None;
                }
            }
        }
        if let Some(sheet) = &s.sheet {
            check_sheet(sheet).ok()?;
        }
        Some(s)
    }

    /// The saved answers as the engine's [`Answers`].
    pub fn answers(&self) -> Answers {
        let mut a = Answers::new();
        for d in &self.answers {
            match d.timing {
                Some(t) => a.set_timing(t),
                None => a.set(d.question, d.answer),
            };
        }
        a
    }
}

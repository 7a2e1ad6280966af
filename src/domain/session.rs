//! What a user has done so far — answers, the sheet, the screen — as versioned JSON, so a
//! reload (or a crash of the tab) loses nothing. Reading is forgiving in one way only: a
//! saved session that does not check out is dropped whole, never half-applied — except the
//! simulator's choices ([`SimChoice`]), a convenience whose bad parts are quietly replaced by
//! their defaults.

use crate::domain::flowchart::{Answer, Answers, QuestionId};
use crate::domain::sheet::import::check_sheet;
use crate::domain::sheet::{DecisionAnswer, JobSheet};
use crate::domain::sim::runner::{LOAD_SCENARIO, MAX_LOAD_JOBS};
use crate::domain::sim::setup::knobs::{CustomRun, KnobError};
use crate::domain::sim::Scenario;
use serde::{Deserialize, Serialize};

pub mod simulator;

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
    /// The simulator's choices (preset, variant, seed, jobs, edited knobs). Absent in
    /// sessions saved by older builds; parts that no longer check out are replaced by their
    /// defaults one by one ([`SimChoice::from_value`]), never dropping the rest of the session.
    #[serde(
        default,
        deserialize_with = "lenient_sim",
        skip_serializing_if = "Option::is_none"
    )]
    pub sim: Option<SimChoice>,
}

/// Reads saved simulator choices leniently ([`SimChoice::from_value`]): never fails on their
/// content, so bad parts never drop what they are saved with.
pub(crate) fn lenient_sim<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<SimChoice>, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    Ok((!v.is_null()).then(|| SimChoice::from_value(&v)))
}

/// Skips saved simulator choices (the embed page's build: its card shows none of them, and
/// its "Open in the app" link passes the share on as it was given, choices included): the
/// value is read over, whatever it is, and none kept. Spares that page the choices' lenient
/// reader (a JSON value, written again and read as the choices).
#[cfg(feature = "embed")]
pub(crate) fn skipped_sim<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<SimChoice>, D::Error> {
    serde::de::IgnoredAny::deserialize(d)?;
    Ok(None)
}

/// The preset id of "Your settings" (a config built from the sheet and the knobs).
pub const CUSTOM_PRESET: &str = "custom";

/// The "Capacity" view's preset id: the open process's sheet sized (not a run of its own).
pub const CAPACITY_PRESET: &str = "capacity";

/// The simulator's presets in screen order: the six named scenarios, "Your settings"
/// ([`CUSTOM_PRESET`]), the load preset ([`LOAD_SCENARIO`]), then the capacity view
/// ([`CAPACITY_PRESET`]).
pub fn sim_presets() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = Scenario::ALL.iter().map(|s| s.id()).collect();
    ids.push(CUSTOM_PRESET);
    ids.push(LOAD_SCENARIO);
    ids.push(CAPACITY_PRESET);
    ids
}

/// The variants of a preset (`your-settings` for [`CUSTOM_PRESET`], `sheet` for
/// [`CAPACITY_PRESET`], `bench` for the load
/// preset and unknown ids).
pub fn sim_variants(preset: &str) -> &'static [&'static str] {
    if preset == CUSTOM_PRESET {
        return &["your-settings"];
    }
    if preset == CAPACITY_PRESET {
        return &["sheet"];
    }
    Scenario::parse(preset)
        .map(|s| s.variants())
        .unwrap_or(&["bench"])
}

/// What the simulator screen had chosen: kept in the session so a reload keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimChoice {
    /// One of [`sim_presets`].
    pub preset: String,
    /// One of [`sim_variants`] of the preset.
    pub variant: String,
    /// The seed (any `u64`).
    pub seed: u64,
    /// Jobs of the load preset, 1 ..= [`MAX_LOAD_JOBS`].
    pub jobs: u64,
    /// "Your settings" as edited (`None`: follow the sheet).
    pub custom: Option<CustomRun>,
}

impl Default for SimChoice {
    /// The first preset and variant, seed 1, 100 000 jobs, the knobs following the sheet.
    fn default() -> Self {
        SimChoice {
            preset: Scenario::RetryDeadLetter.id().to_owned(),
            variant: Scenario::RetryDeadLetter.variants()[0].to_owned(),
            seed: 1,
            jobs: 100_000,
            custom: None,
        }
    }
}

/// One change to the simulator's choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimEdit {
    /// Another preset (its first variant is selected; unknown ids change nothing).
    Preset(String),
    /// Another variant of the current preset (others change nothing).
    Variant(String),
    /// A seed that parsed.
    Seed(u64),
    /// Jobs of the load preset (outside 1 ..= [`MAX_LOAD_JOBS`] changes nothing).
    Jobs(u64),
    /// Edited knobs (`None`: follow the sheet again); boxed, as the settings are large.
    Custom(Option<Box<CustomRun>>),
    /// All the choices at once, as the simulator module reports them
    /// ([`simulator::SimulatorSays`]).
    All(Box<SimChoice>),
}

impl SimChoice {
    /// The choices after `edit`.
    pub fn apply(&self, edit: SimEdit) -> SimChoice {
        let mut c = self.clone();
        match edit {
            SimEdit::Preset(p) => {
                if let Some(p) = sim_presets().into_iter().find(|x| *x == p) {
                    c.preset = p.to_owned();
                    c.variant = sim_variants(p)[0].to_owned();
                }
            }
            SimEdit::Variant(v) => {
                if sim_variants(&c.preset).contains(&v.as_str()) {
                    c.variant = v;
                }
            }
            SimEdit::Seed(s) => c.seed = s,
            SimEdit::Jobs(n) => {
                if (1..=MAX_LOAD_JOBS).contains(&n) {
                    c.jobs = n;
                }
            }
            SimEdit::Custom(k) => c.custom = k.map(|k| *k),
            SimEdit::All(all) => c = *all,
        }
        c
    }

    /// Reads saved choices part by part: a part that is missing, of the wrong type or out of
    /// range (an unknown preset, a variant the preset does not have, a seed that is not a
    /// `u64`, jobs outside 1 ..= [`MAX_LOAD_JOBS`], knobs that no longer parse or hold a
    /// value outside their knob's range) takes its default. Never fails.
    pub fn from_value(v: &serde_json::Value) -> SimChoice {
        let d = SimChoice::default();
        let preset = v
            .get("preset")
            .and_then(|p| p.as_str())
            .and_then(|p| sim_presets().into_iter().find(|x| *x == p));
        let Some(preset) = preset else {
            return SimChoice {
                preset: d.preset,
                variant: d.variant,
                ..SimChoice::from_numbers(v)
            };
        };
        let variants = sim_variants(preset);
        let variant = v
            .get("variant")
            .and_then(|x| x.as_str())
            .and_then(|x| variants.iter().find(|y| **y == x))
            .unwrap_or(&variants[0]);
        SimChoice {
            preset: preset.to_owned(),
            variant: (*variant).to_owned(),
            ..SimChoice::from_numbers(v)
        }
    }

    fn from_numbers(v: &serde_json::Value) -> SimChoice {
        let d = SimChoice::default();
        let custom = v
            .get("custom")
            // Through the text decoder (the page has it already) rather than a second decoder
            // for `Value`: the same result, a smaller first load.
            .and_then(|c| serde_json::from_str::<CustomRun>(&c.to_string()).ok())
            .filter(|c| {
                !c.validate()
                    .iter()
                    .any(|e| matches!(e, KnobError::OutOfRange { .. }))
            });
        SimChoice {
            seed: v.get("seed").and_then(|s| s.as_u64()).unwrap_or(d.seed),
            jobs: v
                .get("jobs")
                .and_then(|s| s.as_u64())
                .filter(|n| (1..=MAX_LOAD_JOBS).contains(n))
                .unwrap_or(d.jobs),
            custom,
            ..d
        }
    }
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
            sim: None,
        }
    }

    /// The session as JSON (plain strings and numbers: serialising cannot fail).
    pub fn to_json(&self) -> String {
        crate::domain::json::compact(self)
    }

    /// Reads a saved session; `None` when it is not JSON, of another version, or does not
    /// hold together (an answer twice, a timing off `within-seconds` or out of range, a
    /// sheet out of range).
    pub fn from_json(json: &str) -> Option<Session> {
        let s: Session = serde_json::from_str(json).ok()?;
        // A load section written as an array would read as an empty one (serde takes a struct
        // from a sequence): dropped like any other value of the wrong type.
        if s.sheet.as_ref().is_some_and(|x| x.load.is_some()) {
            let v: serde_json::Value = serde_json::from_str(json).ok()?;
            crate::domain::sheet::load::check_shape(&v["sheet"], "").ok()?;
        }
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

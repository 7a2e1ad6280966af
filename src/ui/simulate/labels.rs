//! Words the simulator's screens share: run titles, variant labels and [`Problem`], why a run
//! was not started (or was refused). Kept as values and worded when shown, so switching the
//! language rewords them. Below the screens in the import graph (`simulate`, `compare`,
//! `run_result` and `worker` all read it; it reads none of them).

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sim::setup::knobs::{Knob, KnobError};
use crate::domain::sim::setup::limits::MAX_LOAD_JOBS;
use crate::domain::sim::ConfigError;
use crate::text::t;

/// Why a run was not started (or the worker refused it).
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The seed field does not hold a whole number 0 ..= `u64::MAX`.
    Seed,
    /// The load preset's job count is not 1 ..= [`MAX_LOAD_JOBS`].
    Jobs,
    /// A knob field shows a value it refused (the settings hold its last good value).
    Refused(Knob),
    /// A knob's finding from [`CustomRun::validate`](crate::domain::sim::setup::knobs::CustomRun::validate).
    Knob(KnobError),
    /// The worker refused the config: typed, worded in the page's language.
    Config(ConfigError),
    /// The browser would not start the worker (its own words).
    WorkerStart(String),
    /// The browser refused to pass the request on (its own words).
    Other(String),
}

impl Problem {
    /// The problem worded in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            Problem::Seed => seed_error(lang),
            Problem::Jobs => t!(
                "sim.ui.jobs-error",
                locale = l,
                max = group_thousands(MAX_LOAD_JOBS)
            )
            .into_owned(),
            Problem::Refused(knob) => {
                t!("knobs.ui.refused-knob", locale = l, knob = knob.label(lang)).into_owned()
            }
            Problem::Knob(e) => e.message(lang),
            Problem::Config(e) => e.message(lang),
            Problem::WorkerStart(e) => {
                t!("sim.ui.worker-failed", locale = l, error = e.as_str()).into_owned()
            }
            Problem::Other(e) => e.clone(),
        }
    }
}

/// The seed field's message: one rule for every preset and for config files (0 ..= u64::MAX).
pub fn seed_error(lang: Lang) -> String {
    t!(
        "sim.ui.seed-error",
        locale = lang.code(),
        max = group_thousands(u64::MAX)
    )
    .into_owned()
}

/// A variant's label in `lang` (the id stays visible next to it: the CLI takes the id).
pub fn variant_label(id: &str, lang: Lang) -> String {
    t!(format!("sim.variant.{id}"), locale = lang.code()).into_owned()
}

/// A preset run's title in `lang`: the preset's title and the variant's label, e.g.
/// "Duplicate execution / No key" (the result heading and Compare's labels).
pub fn run_title(scenario: &str, variant: &str, lang: Lang) -> String {
    format!(
        "{} / {}",
        t!(format!("sim.preset.{scenario}.title"), locale = lang.code()),
        variant_label(variant, lang)
    )
}

/// What a screen last announced to screen readers: a text key (`sim.ui.*` or
/// `sim.compare.*`) and the language it was said in; `None` before the first announcement.
/// Kept with its language so that a language switch does not say it again.
pub type Said = Option<(&'static str, Lang)>;

/// A visually hidden polite live region (`p.visually-hidden[aria-live="polite"]`, DOM id `id`)
/// holding `said`: its text changes only when something new is said (a run starts, finishes
/// or is cancelled), so each is read once and progress is never read out.
pub fn live_region(id: &'static str, said: Said) -> yew::Html {
    let (text, lang) = said.map_or((String::new(), None), |(key, lang)| {
        (
            t!(key, locale = lang.code()).into_owned(),
            Some(lang.code()),
        )
    });
    yew::html! { <p {id} class="visually-hidden" aria-live="polite" {lang}>{ text }</p> }
}

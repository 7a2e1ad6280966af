//! Compare's choices: what B can be for a given A. A preset's variant is compared with its
//! other variants (the default first: [`default_alternative`]); "Your settings" with the same
//! settings and one change ([`Change`]); the load preset and config files with nothing.

use super::path::{Preset, RunSpec};
use crate::domain::sim::results::compare::default_alternative;
use crate::domain::sim::setup::knobs::Change;
use crate::domain::sim::setup::scenario::Scenario;

/// One choice of B.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternative {
    /// Another variant of A's scenario, by id.
    Variant(&'static str),
    /// A's settings with one change.
    Change(Change),
}

impl Alternative {
    /// B's run: `a` with this alternative applied, on `a`'s seed. A change of a preset run,
    /// or a variant of settings, leaves `a` as it is.
    pub fn apply(self, a: &RunSpec) -> RunSpec {
        let preset = match (self, &a.preset) {
            (Alternative::Variant(v), Preset::Scenario { name, .. }) => Preset::Scenario {
                name: name.clone(),
                variant: Some(v.to_owned()),
            },
            (Alternative::Change(c), Preset::YourSettings(s)) => {
                // Unchecked here: B differs from A (checked when Compare is pressed) only by
                // a switch, or a worker count brought into the knob's range.
                Preset::YourSettings(s.changed(c))
            }
            (_, other) => other.clone(),
        };
        RunSpec {
            preset,
            seed: a.seed,
        }
    }
}

/// The choices of B for A = `a`, the default first: for a scenario's variant, the default
/// alternative then its other variants in order; for "Your settings", each of
/// [`Change::all_for`] the settings (the worker count one more than A's, which Compare lets
/// the user set to any count);
/// none for the load preset or a config file (or an unknown scenario).
pub fn alternatives(a: &RunSpec) -> Vec<Alternative> {
    match &a.preset {
        Preset::Scenario { name, variant } => {
            let Ok(sc) = Scenario::parse(name) else {
                return Vec::new();
            };
            let all = sc.variants();
            let Ok(current) = sc.variant(variant.as_deref()) else {
                return Vec::new();
            };
            let first = default_alternative(sc.id(), current, all);
            first
                .into_iter()
                .chain(
                    all.iter()
                        .copied()
                        .filter(|v| *v != current && Some(*v) != first),
                )
                .map(Alternative::Variant)
                .collect()
        }
        Preset::YourSettings(s) => Change::all_for(s)
            .into_iter()
            .map(Alternative::Change)
            .collect(),
        Preset::Load { .. } => Vec::new(),
        #[cfg(not(target_arch = "wasm32"))]
        Preset::File(_) => Vec::new(),
    }
}

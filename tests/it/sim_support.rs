//! Shared helpers for the simulator tests.

use modality_advisor::domain::sim::runner::{run, RunRequest, RunView};

/// The page's view of `scenario` / `variant` at seed 1 (the load preset at 2 000 jobs), as
/// the worker produces it. Panics (failing the test) when the run is refused.
pub fn preset_view(scenario: &str, variant: &str) -> RunView {
    let req = RunRequest {
        id: 1,
        scenario: scenario.into(),
        variant: Some(variant.into()),
        seed: 1,
        jobs: Some(2_000),
        custom: None,
    };
    run(&req, 1_000, |_| {}).unwrap_or_else(|e| panic!("{scenario}/{variant}: {e:?}"))
}

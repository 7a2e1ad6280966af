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

/// Issue 25's user: a burst of 500 updates to a partner allowing 10 requests a second, on 3
/// workers (each run is one call of 300 ms; the handler time as the defaults have it).
pub fn partner() -> modality_advisor::domain::sim::setup::knobs::CustomRun {
    modality_advisor::domain::sim::setup::knobs::CustomRun {
        jobs: 500,
        workers: 3,
        downstream: true,
        capacity: 0,
        rate_limit_per_s: 10,
        ..Default::default()
    }
}

/// The page's view of "Your settings" `c` at `seed`, as the worker produces it.
pub fn settings_view(
    c: &modality_advisor::domain::sim::setup::knobs::CustomRun,
    seed: u64,
) -> RunView {
    let req = RunRequest {
        id: 1,
        scenario: String::new(),
        variant: None,
        seed,
        jobs: None,
        custom: Some(c.clone()),
    };
    run(&req, 1_000, |_| {}).unwrap_or_else(|e| panic!("{c:?}: {e:?}"))
}

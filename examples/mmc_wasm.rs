//! The benchmark model as a bare wasm export (no wasm-bindgen): build with
//! `cargo build --profile bench --target wasm32-unknown-unknown --example mmc_wasm`, run with
//! `node bench/wasm_node.mjs`.

use modality_advisor::domain::sim::reference::erlang::MmcModel;
use modality_advisor::domain::sim::Simulation;

/// Runs the M/M/c-with-retries model with `jobs` jobs; returns the number of events
/// (0 if the config were invalid).
#[no_mangle]
pub extern "C" fn run_mmc(jobs: u32, seed: u32) -> f64 {
    match Simulation::new(MmcModel::bench(u64::from(jobs), u64::from(seed)).config()) {
        Ok(mut sim) => {
            sim.run();
            sim.events() as f64
        }
        Err(_) => 0.0,
    }
}

/// [`trace_digest`](modality_advisor::domain::sim::trace_digest) for `seed`: every scenario's
/// report hashed, to compare with the native digest.
#[no_mangle]
pub extern "C" fn trace_digest(seed: u32) -> u64 {
    modality_advisor::domain::sim::trace_digest(u64::from(seed))
}

/// The capacity sweep of the README's benchmark (8 worker counts × `seeds` runs × `jobs`
/// jobs; [`bench_input`](modality_advisor::domain::capacity::sweep::bench_input)); returns
/// the recommended count (0: none).
#[no_mangle]
pub extern "C" fn size_sweep(seeds: u32, jobs: u32) -> u32 {
    use modality_advisor::domain::capacity::sweep::{bench_input, size, SweepOptions};
    let opts = SweepOptions {
        seeds,
        seed: 1,
        jobs: u64::from(jobs),
        counts: 8,
    };
    match size(&bench_input(), opts, |_, _| {}) {
        Ok(a) => a.recommendation.workers.unwrap_or(0),
        Err(_) => u32::MAX,
    }
}

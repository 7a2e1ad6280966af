//! The benchmark model once, natively, timed: `cargo run --profile bench --example mmc_native
//! -- 1000000`. Prints `jobs events seconds events_per_s` (compare with bench/wasm_node.mjs).

use modality_advisor::domain::sim::erlang::MmcModel;
use modality_advisor::domain::sim::Simulation;
use std::time::Instant;

fn main() {
    let jobs: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let reps: u32 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let mut best = f64::MAX;
    let mut events = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let Ok(mut sim) = Simulation::new(MmcModel::bench(jobs, 1).config()) else {
            eprintln!("invalid config");
            return;
        };
        sim.run();
        events = sim.events();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "native jobs={jobs} events={events} best_s={best:.3} events_per_s={:.0}",
        events as f64 / best
    );
    println!(
        "native trace_digest(1)={:016x}",
        modality_advisor::domain::sim::trace_digest(1)
    );
}

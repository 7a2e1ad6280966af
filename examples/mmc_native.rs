//! The benchmark model, natively, timed: `cargo run --profile bench --example mmc_native
//! -- [JOBS] [REPS] [digest]`. Prints jobs, events, the best time of REPS runs and events/s;
//! with `digest`, also `trace_digest(1)` (compared with wasm by bench/wasm_node.mjs).

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
    // The trace digest only on request, so that CPU-time measurements cover the model alone.
    if std::env::args().nth(3).as_deref() == Some("digest") {
        println!(
            "native trace_digest(1)={:016x}",
            modality_advisor::domain::sim::trace_digest(1)
        );
    }
}

//! The benchmark model, natively, timed: `cargo run --profile bench --example mmc_native
//! -- [JOBS] [REPS] [digest]`. Prints jobs, events, the best wall time and the best CPU time of
//! REPS runs (each from `Simulation::new` to the end of `run`, measured inside the process, as
//! bench/simpy_mmc.py measures SimPy's `env.run()`) and events/s; with `digest`, also
//! `trace_digest(1)` (compared with wasm by bench/wasm_node.mjs).

use modality_advisor::domain::sim::reference::erlang::MmcModel;
use modality_advisor::domain::sim::Simulation;
use std::time::Instant;

/// CPU time consumed by this process so far, in seconds (`CLOCK_PROCESS_CPUTIME_ID`: user and
/// system time of all its threads).
fn process_cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the kernel knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

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
    let mut best_cpu = f64::MAX;
    let mut events = 0;
    for _ in 0..reps {
        let (t, c) = (Instant::now(), process_cpu_s());
        let Ok(mut sim) = Simulation::new(MmcModel::bench(jobs, 1).config()) else {
            eprintln!("invalid config");
            return;
        };
        sim.run();
        events = sim.events();
        best_cpu = best_cpu.min(process_cpu_s() - c);
        best = best.min(t.elapsed().as_secs_f64());
        drop(sim);
    }
    println!(
        "native jobs={jobs} events={events} best_s={best:.3} best_cpu_s={best_cpu:.3} events_per_s={:.0}",
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

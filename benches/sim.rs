//! M/M/c with retries at 10⁶ jobs: events per second of the discrete-event engine.
//! Run: `cargo bench --bench sim`. See bench/README.md for the SimPy and wasm comparisons.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use modality_advisor::domain::sim::reference::erlang::MmcModel;
use modality_advisor::domain::sim::Simulation;
use std::hint::black_box;

fn run(jobs: u64) -> u64 {
    let mut sim = match Simulation::new(MmcModel::bench(jobs, 1).config()) {
        Ok(sim) => sim,
        Err(e) => panic!("bench config invalid: {e:?}"),
    };
    sim.run();
    sim.events()
}

fn mmc(c: &mut Criterion) {
    let jobs = 1_000_000;
    let events = run(jobs);
    let mut g = c.benchmark_group("mmc_retries");
    g.sample_size(10);
    g.throughput(Throughput::Elements(events));
    g.bench_function("1e6_jobs", |b| b.iter(|| black_box(run(black_box(jobs)))));
    g.finish();
}

/// The capacity sweep (issue 25's benchmark): 8 worker counts × 20 seeds × 10⁴ jobs.
fn capacity(c: &mut Criterion) {
    use modality_advisor::domain::capacity::sweep::{bench_input, size, SweepOptions};
    let mut g = c.benchmark_group("capacity_sweep");
    g.sample_size(10);
    g.bench_function("8_counts_x_20_seeds_x_1e4_jobs", |b| {
        b.iter(|| {
            black_box(
                size(&bench_input(), SweepOptions::default(), |_, _| {}).map(|a| a.recommendation),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, mmc, capacity);
criterion_main!(benches);

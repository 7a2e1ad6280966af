//! A reference point, not part of the product: the benchmark's M/M/c-with-retries model as a
//! bare, single-purpose loop (std `BinaryHeap` of events, a `VecDeque` of ready jobs, per-job
//! wait and latency), with the same generator and distributions as the engine. It has none of
//! the engine's jobs-table work (rows, leases, attempts, `last_error`, counts per state,
//! transitions, queue-depth series, worker tokens, claim strategies), so it bounds from below
//! what any engine of this model can cost; bench/RESULTS.md compares.
//!
//! `cargo run --profile bench --example mmc_bare -- [JOBS]` prints events, done, dead and the
//! time of the run.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Instant;

#[path = "support/mmc_model.rs"]
mod model;
use model::{
    exp_us, jobs_arg, BASE_US, CAP_US, FAIL_P, MAX_ATTEMPTS, MEAN_GAP_US, MEAN_RUN_US, WORKERS,
};

/// Event kinds.
const ARRIVE: u8 = 0;
const RUN_END: u8 = 1;

fn main() {
    let jobs = jobs_arg();
    let start = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    // (time µs, seq, kind, worker)
    let mut events: BinaryHeap<Reverse<(u64, u64, u8, usize)>> = BinaryHeap::new();
    let mut seq = 0;
    // (id, enqueued at, attempts so far)
    let mut ready: VecDeque<(u64, u64, u32)> = VecDeque::new();
    // (claimable at, id, enqueued at, attempts so far)
    let mut later: BinaryHeap<Reverse<(u64, u64, u64, u32)>> = BinaryHeap::new();
    let mut running = [(0u64, 0u64, 0u32); WORKERS];
    let mut free: Vec<usize> = (0..WORKERS).collect();
    let mut waits = Vec::with_capacity(jobs as usize);
    let mut latencies = Vec::with_capacity(jobs as usize);
    let (mut produced, mut done, mut dead, mut processed) = (0u64, 0u64, 0u64, 0u64);
    events.push(Reverse((exp_us(&mut rng, MEAN_GAP_US), seq, ARRIVE, 0)));
    seq += 1;
    while let Some(Reverse((now, _, kind, w))) = events.pop() {
        processed += 1;
        while let Some(&Reverse((at, id, enqueued, attempts))) = later.peek() {
            if at > now {
                break;
            }
            later.pop();
            ready.push_back((id, enqueued, attempts));
        }
        if kind == ARRIVE {
            produced += 1;
            waits.push(u32::MAX);
            latencies.push(u32::MAX);
            ready.push_back((produced, now, 0));
            if produced < jobs {
                events.push(Reverse((
                    now + exp_us(&mut rng, MEAN_GAP_US),
                    seq,
                    ARRIVE,
                    0,
                )));
                seq += 1;
            }
        } else {
            let (id, enqueued, attempts) = running[w];
            if rng.random::<f64>() < FAIL_P {
                if attempts >= MAX_ATTEMPTS {
                    dead += 1;
                } else {
                    let cap = (BASE_US << (attempts - 1)).min(CAP_US);
                    let wait = rng.random_range(0..=cap);
                    later.push(Reverse((now + wait, id, enqueued, attempts)));
                }
            } else {
                done += 1;
                latencies[(id - 1) as usize] = (now - enqueued) as u32;
            }
            free.push(w);
        }
        while let Some(&w) = free.last() {
            let Some((id, enqueued, attempts)) = ready.pop_front() else {
                break;
            };
            free.pop();
            if attempts == 0 {
                waits[(id - 1) as usize] = (now - enqueued) as u32;
            }
            running[w] = (id, enqueued, attempts + 1);
            events.push(Reverse((
                now + exp_us(&mut rng, MEAN_RUN_US),
                seq,
                RUN_END,
                w,
            )));
            seq += 1;
        }
    }
    println!(
        "bare   jobs={jobs} events={processed} done={done} dead={dead} s={:.3} (samples: {})",
        start.elapsed().as_secs_f64(),
        waits.len() + latencies.len()
    );
}

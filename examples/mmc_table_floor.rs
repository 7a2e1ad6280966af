//! A reference point for bench/RESULTS.md, not the product: the benchmark model as a
//! single-purpose loop like `mmc_bare.rs`, but with the engine's real jobs table (enqueue,
//! atomic claim, complete, release with backoff, every row kept) and event queue instead of
//! a `VecDeque` and a heap. What it leaves out is what the engine adds on top of those two
//! (statistics, depth series, retention sweeps, worker states, limits, the event log), so the
//! gap between its instruction count and the engine's is the cost of that. Run:
//! `cargo run --profile bench --example mmc_table_floor -- [JOBS]`.

use modality_advisor::domain::sim::core::time::{SimDuration, SimTime};
use modality_advisor::domain::sim::{
    ErrorId, EventQueue, JobId, JobsTable, KindId, Released, Retention,
};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

#[path = "support/mmc_model.rs"]
mod model;
use model::{
    exp_us, jobs_arg, BASE_US, CAP_US, FAIL_P, MAX_ATTEMPTS, MEAN_GAP_US, MEAN_RUN_US, WORKERS,
};

/// What happened: an arrival, the end of worker `w`'s run, or a retried row coming due.
#[derive(Clone, Copy)]
enum Ev {
    Arrive,
    RunEnd(usize),
    Due,
}

fn main() {
    let jobs = jobs_arg();
    let start = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut table = JobsTable::with_retention(jobs, Retention::All);
    let mut queue: EventQueue<Ev> = EventQueue::new();
    // Per worker: the job it runs, its attempt number and when the job was enqueued (µs).
    let mut running = [(JobId(0), 0u32, 0u64); WORKERS];
    let mut free: Vec<usize> = (0..WORKERS).collect();
    let mut enqueued_at: Vec<u64> = Vec::with_capacity(jobs as usize);
    let mut waits = vec![u32::MAX; jobs as usize];
    let mut latencies = vec![u32::MAX; jobs as usize];
    let never = SimDuration(u64::MAX);
    let (mut produced, mut done, mut dead, mut events) = (0u64, 0u64, 0u64, 0u64);
    queue.schedule(SimTime(exp_us(&mut rng, MEAN_GAP_US)), Ev::Arrive);
    while let Some((now, ev)) = queue.pop() {
        events += 1;
        match ev {
            Ev::Arrive => {
                produced += 1;
                table.refresh(now);
                table.enqueue(KindId(0), MAX_ATTEMPTS, now);
                enqueued_at.push(now.0);
                if produced < jobs {
                    let next = SimTime(now.0 + exp_us(&mut rng, MEAN_GAP_US));
                    queue.schedule(next, Ev::Arrive);
                }
            }
            Ev::RunEnd(w) => {
                let (id, attempt, at) = running[w];
                if rng.random::<f64>() < FAIL_P {
                    let cap = (BASE_US << (attempt - 1)).min(CAP_US);
                    let wait = SimDuration(rng.random_range(0..=cap));
                    match table.release(id, attempt, ErrorId(0), now, wait) {
                        Some(Released::Dead) => dead += 1,
                        Some(Released::Queued { run_after }) => queue.schedule(run_after, Ev::Due),
                        None => {}
                    }
                } else {
                    table.complete(id);
                    done += 1;
                    latencies[(id.0 - 1) as usize] = (now.0 - at) as u32;
                }
                free.push(w);
            }
            Ev::Due => {}
        }
        while let Some(&w) = free.last() {
            if table.claimable_count(now) == 0 {
                break;
            }
            let Some(job) = table.claim(now, never) else {
                break;
            };
            free.pop();
            let i = (job.id.0 - 1) as usize;
            if job.attempts == 1 {
                waits[i] = (now.0 - enqueued_at[i]) as u32;
            }
            running[w] = (job.id, job.attempts, enqueued_at[i]);
            queue.schedule(
                SimTime(now.0 + exp_us(&mut rng, MEAN_RUN_US)),
                Ev::RunEnd(w),
            );
        }
    }
    let sampled = waits.iter().filter(|&&w| w != u32::MAX).count()
        + latencies.iter().filter(|&&l| l != u32::MAX).count();
    println!(
        "table-floor jobs={jobs} events={events} done={done} dead={dead} s={:.3} (samples: {sampled})",
        start.elapsed().as_secs_f64()
    );
}

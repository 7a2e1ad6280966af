//! The AWS jitter study's contention model: `N` clients, one row guarded by a version number,
//! each client needs one successful conditional write.
//!
//! Source: AWS Architecture Blog, "Exponential Backoff And Jitter" (Marc Brooker, 2015), and
//! the study's own simulator, aws-samples/aws-arch-backoff-simulator,
//! `src/backoff_simulator.py` (commit `66cb169`), whose rules this model follows (written
//! anew, not translated line by line); restated in `docs/DOMAIN.md` §5. Its means at 100
//! clients, measured by running that file under Python 3, are in
//! `bench/aws-backoff-reference.md`.
//!
//! * **Messages.** A client reads the row's version, then writes conditionally on it. Every
//!   message (the read, its answer, the write, its answer) takes `|N(10 ms, 2 ms)|`.
//! * **A call** is one write reaching the server (the simulator's `Stats.calls`); every read
//!   leads to exactly one write, so it is also one read-modify-write.
//! * **The server** accepts a write whose version is still the row's (the version then goes
//!   up by one) and refuses it when another write landed in between.
//! * **Retries.** A refused client counts its attempt up first, then waits the strategy's
//!   wait for that number: attempts are numbered from 1, so with base 5 ms the first retry's
//!   exponential wait is `min(cap, 5·2¹) = 10 ms` (full jitter: `U(0, 10 ms)`). "No backoff"
//!   (`none`) waits nothing: the retry's read leaves as soon as the refusal arrives.
//!   Decorrelated jitter keeps each client's previous wait, starting at the base.
//! * **Time.** All clients start at 0; a run ends with the last event, which is the last
//!   client learning of its success. Outputs: calls and that end time, averaged over `runs`
//!   runs.

use crate::domain::sim::core::backoff::{BackoffPolicy, Strategy};
use crate::domain::sim::core::event_queue::EventQueue;
use crate::domain::sim::core::rng::{round_us, SimRng};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use serde::Serialize;

/// Runs the `jitter-contention` scenario averages (CLI and page alike): at 100 clients the
/// standard error of the mean is then at most 0.3 % for calls and 1.6 % for the completion
/// time (per-run spreads in `bench/aws-backoff-reference.md`). About 0.1 s per strategy in
/// the size-tuned build.
pub const STUDY_RUNS: u32 = 100;

/// Parameters of the contention model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ContentionConfig {
    /// Contending clients (1 to 10 000).
    pub clients: u32,
    /// Retry strategy.
    pub strategy: Strategy,
    /// Backoff base (the study: 5 ms).
    pub base: SimDuration,
    /// Backoff cap (the study: 2000 ms).
    pub cap: SimDuration,
    /// Mean one-way network delay, ms (the study: 10).
    pub net_mean_ms: f64,
    /// Its standard deviation, ms (the study: 2).
    pub net_sd_ms: f64,
    /// Independent runs to average (1 to 1000; the scenario uses [`STUDY_RUNS`]).
    pub runs: u32,
    /// Seed of the first run; the runs share one RNG stream.
    pub seed: u64,
}

impl ContentionConfig {
    /// The study's setup: base 5 ms, cap 2000 ms, delay |N(10, 2)| ms.
    pub fn study(clients: u32, strategy: Strategy, runs: u32, seed: u64) -> ContentionConfig {
        ContentionConfig {
            clients,
            strategy,
            base: SimDuration::from_ms(5),
            cap: SimDuration::from_ms(2_000),
            net_mean_ms: 10.0,
            net_sd_ms: 2.0,
            runs,
            seed,
        }
    }
}

/// Averages over the runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ContentionResult {
    /// Strategy name.
    pub strategy: Strategy,
    /// Clients.
    pub clients: u32,
    /// Runs averaged.
    pub runs: u32,
    /// Mean calls (writes reaching the server) per run.
    pub calls_mean: f64,
    /// Mean time until the last client learned of its success (the run's last event), ms.
    pub completion_ms_mean: f64,
}

#[derive(Debug, Clone, Copy)]
enum Msg {
    /// A read reaches the server.
    Read { client: u32 },
    /// A write reaches the server.
    Write { client: u32, version: u64 },
    /// The server's answer to a write reaches the client.
    Answer { client: u32, ok: bool },
}

/// Runs the model (clients and runs are clamped to their ranges, so any input terminates).
pub fn run_contention(cfg: &ContentionConfig) -> ContentionResult {
    let clients = cfg.clients.clamp(1, 10_000);
    let runs = cfg.runs.clamp(1, 1_000);
    let policy = BackoffPolicy::named(cfg.strategy, cfg.base, cfg.cap.max(cfg.base));
    let mut rng = SimRng::new(cfg.seed);
    let (mut calls_sum, mut time_sum) = (0u64, 0u64);
    for _ in 0..runs {
        let (calls, end) = one_run(clients, &policy, cfg, &mut rng);
        calls_sum += calls;
        time_sum += end.as_micros();
    }
    ContentionResult {
        strategy: cfg.strategy,
        clients,
        runs,
        calls_mean: calls_sum as f64 / f64::from(runs),
        completion_ms_mean: time_sum as f64 / f64::from(runs) / 1e3,
    }
}

fn delay(rng: &mut SimRng, cfg: &ContentionConfig) -> SimDuration {
    SimDuration(round_us(
        (rng.normal(cfg.net_mean_ms, cfg.net_sd_ms) * 1e3).abs(),
    ))
}

fn one_run(
    clients: u32,
    policy: &BackoffPolicy,
    cfg: &ContentionConfig,
    rng: &mut SimRng,
) -> (u64, SimTime) {
    let mut q = EventQueue::new();
    let mut row_version = 0u64;
    // Attempts refused so far, per client (the simulator's `OccClient.attempt`).
    let mut attempts = vec![0u32; clients as usize];
    let mut prev: Vec<Option<SimDuration>> = vec![None; clients as usize];
    let mut calls = 0u64;
    let mut end = SimTime::ZERO;
    for c in 0..clients {
        let d = delay(rng, cfg);
        q.schedule(SimTime::ZERO.plus(d), Msg::Read { client: c });
    }
    // Each client sends at most one write per answer, so this loop ends: bound it anyway.
    let bound = 50_000_000u64;
    let mut steps = 0u64;
    while let Some((now, msg)) = q.pop() {
        steps += 1;
        if steps > bound {
            break;
        }
        match msg {
            Msg::Read { client } => {
                // The answer travels back, then the write travels to the server.
                let d = delay(rng, cfg).0.saturating_add(delay(rng, cfg).0);
                q.schedule(
                    now.plus(SimDuration(d)),
                    Msg::Write {
                        client,
                        version: row_version,
                    },
                );
            }
            Msg::Write { client, version } => {
                calls += 1;
                let ok = version == row_version;
                if ok {
                    row_version += 1;
                }
                let d = delay(rng, cfg);
                q.schedule(now.plus(d), Msg::Answer { client, ok });
            }
            Msg::Answer { client, ok } => {
                let i = client as usize;
                if ok {
                    end = end.max(now);
                    continue;
                }
                attempts[i] += 1;
                let d = delay(rng, cfg);
                let wait = retry_wait(cfg.strategy, policy, attempts[i], prev[i], rng);
                prev[i] = Some(wait);
                q.schedule(now.plus(d).plus(wait), Msg::Read { client });
            }
        }
    }
    (calls, end)
}

/// The wait after a client's `attempt`-th refusal (1-based, as the study's simulator counts):
/// nothing for `none`, else the policy's wait with `n = attempt`, i.e. un-jittered
/// `min(cap, base·2^attempt)`. `previous` is the client's last wait (decorrelated jitter).
fn retry_wait(
    strategy: Strategy,
    policy: &BackoffPolicy,
    attempt: u32,
    previous: Option<SimDuration>,
    rng: &mut SimRng,
) -> SimDuration {
    match strategy {
        Strategy::None => SimDuration::ZERO,
        _ => policy.wait(attempt, previous, rng),
    }
}

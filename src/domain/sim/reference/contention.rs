//! The AWS jitter study's contention model: `N` clients, one row guarded by a version number,
//! each client needs one successful conditional write.
//!
//! Source: AWS Architecture Blog, "Exponential Backoff And Jitter" (2015), restated in
//! `docs/DOMAIN.md` §5. One call is an optimistic read-modify-write: read the row's version, then
//! write conditionally on it. Every message (read, its answer, write, its answer) takes
//! `|N(10 ms, 2 ms)|`. The server accepts a write whose version is still the row's (the
//! version then goes up by one) and refuses it when another write landed in between. A
//! refused client waits the [`BackoffPolicy`] wait for its retry number, then calls again.
//! All clients make their first call at time 0. Outputs: total calls (one per
//! read-modify-write) and the time the last client learned of its success, averaged over
//! `runs` runs.

use crate::domain::sim::core::backoff::{BackoffPolicy, Strategy};
use crate::domain::sim::core::event_queue::EventQueue;
use crate::domain::sim::core::rng::{round_us, SimRng};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use serde::Serialize;

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
    /// Independent runs to average (1 to 1000).
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
    /// Mean total calls (writes sent) per run.
    pub calls_mean: f64,
    /// Mean time until the last client succeeded, ms.
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
    let mut retries = vec![0u32; clients as usize];
    let mut prev: Vec<Option<SimDuration>> = vec![None; clients as usize];
    let mut calls = 0u64;
    let mut end = SimTime::ZERO;
    for c in 0..clients {
        calls += 1;
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
                let wait = policy.wait(retries[i], prev[i], rng);
                retries[i] += 1;
                prev[i] = Some(wait);
                calls += 1;
                let d = delay(rng, cfg);
                q.schedule(now.plus(wait).plus(d), Msg::Read { client });
            }
        }
    }
    (calls, end)
}

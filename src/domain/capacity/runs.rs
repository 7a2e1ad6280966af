//! The engine runs of the capacity answer: the model's [`SimConfig`] ([`config`]), one
//! steady run (waits, Little's law, duplicate runs, jobs lost) and one burst run (the drain
//! time), as [`super::sweep`] repeats them over worker counts and seeds.

use super::analytic;
use super::CapacityInput;
use crate::domain::sheet::load::Burst;
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::{Retention, Status};
use crate::domain::sim::results::report::Percentiles;
use crate::domain::sim::setup::config::{
    Arrivals, Downstream, ErrorClass, FailureModel, JobKind, Limits, Pacing, Pattern, SimConfig,
    TokenBucket, WorkerSpec,
};
use crate::domain::sim::Simulation;

/// The SimConfig of one run: `workers` at once, the arrivals, the lease.
pub fn config(
    input: &CapacityInput,
    workers: u32,
    arrivals: Vec<Arrivals>,
    seed: u64,
    lease_ms: u64,
) -> SimConfig {
    let downstream = input.downstream_rate.is_some()
        || input.downstream_concurrency.is_some()
        || input.lock
        || input.our_limit_per_s.is_some();
    let mut cfg = SimConfig::empty(seed);
    let handler = input.handler.dist();
    cfg.kinds = vec![JobKind {
        name: "work".into(),
        max_attempts: input.max_attempts.max(1),
        // With a downstream, a run is its call: the handler's time is the call's latency.
        duration: if downstream {
            crate::domain::sim::setup::config::DurationDist::Fixed { ms: 0 }
        } else {
            handler
        },
        failure: if !downstream && input.failure_p > 0.0 {
            FailureModel::Probability { p: input.failure_p }
        } else {
            FailureModel::Never
        },
        error: "transient error".into(),
        error_class: ErrorClass::Retryable,
        effect: None,
        calls_downstream: downstream,
    }];
    cfg.downstream = downstream.then(|| Downstream {
        capacity: if input.lock {
            1
        } else {
            input.downstream_concurrency.unwrap_or(0)
        },
        latency: handler,
        refusal: SimDuration::from_ms(10),
        rate_limit: input.downstream_rate.map(|(r, b)| TokenBucket {
            rate_per_s: r,
            burst: b.max(1),
        }),
        outage: None,
        failure_p: input.failure_p,
    });
    cfg.pacing = input.our_limit_per_s.map(|r| Pacing { rate_per_s: r });
    cfg.arrivals = arrivals;
    cfg.workers = (0..workers as usize)
        .map(|i| WorkerSpec::new(WorkerSpec::default_name(i), 0))
        .collect();
    cfg.lease = SimDuration::from_ms(lease_ms.max(1));
    cfg.retry = input.backoff.policy();
    cfg.limits = Limits {
        max_events: crate::domain::sim::setup::config::MAX_EVENTS,
        max_time: SimTime::from_ms(crate::domain::sim::setup::limits::MAX_MS),
    };
    cfg.log = false;
    cfg.series_bucket = SimDuration::from_secs(1);
    cfg.retention = Retention::FirstRows(200);
    cfg
}

/// The lease the runs use: the sheet's, else one above every run (so none is reclaimed).
pub(super) fn run_lease_ms(input: &CapacityInput) -> u64 {
    input
        .lease_ms
        .unwrap_or_else(|| (input.handler.quantile_ms(0.9999) * 10.0).ceil() as u64 + 60_000)
}

/// One steady run: wait percentiles (ms), the arrivals' measured rate and Little's law's
/// two sides, duplicate runs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Steady {
    pub(super) wait: Percentiles,
    /// Enqueue → done, p95 (ms): what the user waits for the effect.
    pub(super) latency_p95: Option<f64>,
    /// `L`: time-average rows queued.
    pub(super) l: f64,
    /// `λ·W`: measured arrival rate × mean wait (s).
    pub(super) lw: f64,
    pub(super) overlapping: u64,
    pub(super) dead: u64,
    pub(super) refused: u64,
}

pub(super) fn steady_run(
    input: &CapacityInput,
    workers: u32,
    seed: u64,
    jobs: u64,
    lease_ms: u64,
) -> Option<Steady> {
    let arrivals = vec![Arrivals {
        kind: 0,
        pattern: Pattern::Poisson {
            rate_per_s: input.arrival_per_s,
            count: jobs,
        },
    }];
    let cfg = config(input, workers, arrivals, seed, lease_ms);
    let mut sim = Simulation::new(cfg).ok()?;
    sim.run();
    let waits: Vec<u64> = sim.waits().into_iter().flatten().map(|d| d.0).collect();
    let n = waits.len() as f64;
    let mean_wait_s = waits.iter().map(|&w| w as f64).sum::<f64>() / n.max(1.0) / 1e6;
    let end = sim.now().0 as f64 / 1e6;
    let wait = Percentiles::of_micros(waits)?;
    let latencies: Vec<u64> = sim.latencies().into_iter().flatten().map(|d| d.0).collect();
    Some(Steady {
        wait,
        latency_p95: Percentiles::of_micros(latencies).map(|p| p.p95),
        l: sim.queued_area_s() / end.max(1e-9),
        lw: (jobs as f64 / end.max(1e-9)) * mean_wait_s,
        overlapping: sim.counters().overlapping_runs,
        dead: sim.table().count(Status::Dead),
        refused: refused(&sim),
    })
}

/// Calls the downstream refused ("busy" or rate limited).
fn refused(sim: &Simulation) -> u64 {
    let c = sim.counters();
    c.calls_busy + c.calls_rate_limited
}

/// One burst run's result.
#[derive(Debug, Clone, Copy)]
pub(super) struct BurstRun {
    /// ms from the burst's start until no row waits (`None`: not within the time limit).
    pub(super) drained_ms: Option<f64>,
    pub(super) dead: u64,
    pub(super) refused: u64,
}

/// The arrivals of a burst run with `workers` at once: the burst at time 0 and, with steady
/// arrivals, Poisson arrivals well past the fluid drain time (the run stops once drained);
/// and when the burst's last job arrives, ms.
pub(super) fn burst_arrivals(
    input: &CapacityInput,
    workers: u32,
    burst: Burst,
) -> (Vec<Arrivals>, u64) {
    let n = burst.jobs();
    let span = burst.span_ms();
    let last_ms = match burst {
        Burst::AtOnce { .. } => 0,
        Burst::Rate { .. } => span.saturating_sub(span / n.max(1)),
    };
    let pattern = match burst {
        Burst::AtOnce { count } => Pattern::Burst { count, at_ms: 0 },
        Burst::Rate { .. } => Pattern::Times {
            at_ms: (0..n).map(|i| i * span / n.max(1)).collect(),
        },
    };
    let mut arrivals = vec![Arrivals { kind: 0, pattern }];
    if input.arrival_per_s > 0.0 {
        let (_, ceiling) = input.bottleneck(workers);
        let horizon_s =
            analytic::fluid_drain_s(n as f64, span as f64 / 1e3, input.arrival_per_s, ceiling)
                .map_or(3_600.0, |s| (s * 4.0).max(span as f64 / 1e3 + 60.0))
                .min(86_400.0);
        let count = ((input.arrival_per_s * horizon_s).ceil() as u64).clamp(1, 2 * n + 100_000);
        arrivals.push(Arrivals {
            kind: 0,
            pattern: Pattern::Poisson {
                rate_per_s: input.arrival_per_s,
                count,
            },
        });
    }
    (arrivals, last_ms)
}

/// One burst run: ms from the burst's start until no row waits in the queue after its last
/// arrival (`None`: not drained within the simulator's time limit), and the jobs
/// dead-lettered and calls refused until then.
pub(super) fn burst_run(
    input: &CapacityInput,
    workers: u32,
    seed: u64,
    burst: Burst,
    lease_ms: u64,
) -> Option<BurstRun> {
    let (arrivals, last_ms) = burst_arrivals(input, workers, burst);
    let cfg = config(input, workers, arrivals, seed, lease_ms);
    let mut sim = Simulation::new(cfg).ok()?;
    sim.step_until(SimTime::from_ms(last_ms));
    loop {
        if sim.now() >= SimTime::from_ms(last_ms) && sim.table().count(Status::Queued) == 0 {
            return Some(BurstRun {
                drained_ms: Some(sim.now().0 as f64 / 1e3),
                dead: sim.table().count(Status::Dead),
                refused: refused(&sim),
            });
        }
        if !sim.step() {
            return Some(BurstRun {
                drained_ms: None,
                dead: sim.table().count(Status::Dead),
                refused: refused(&sim),
            });
        }
    }
}

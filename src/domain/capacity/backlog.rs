//! The backlog over time at one worker count, from the engine's queue-depth series: what the
//! capacity answer's second chart draws. Two runs: the burst on top of the steady arrivals
//! until it drains (the deadline marked), or — when the arrivals exceed the throughput
//! ceiling (ρ ≥ 1) — the steady arrivals alone, the queue growing while they come.

use super::sweep::{burst_arrivals, config, run_lease_ms};
use super::CapacityInput;
use crate::domain::sim::core::time::SimTime;
use crate::domain::sim::jobs::Status;
use crate::domain::sim::setup::config::{Arrivals, Pattern};
use crate::domain::sim::Simulation;
use serde::{Deserialize, Serialize};

/// Which run a [`Backlog`] is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BacklogRun {
    /// The burst on top of the steady arrivals, until no row waits after its last arrival.
    Burst,
    /// The steady arrivals alone while they come: the queue grows when ρ ≥ 1.
    Growing,
}

/// Rows waiting in the queue over time at one worker count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Backlog {
    /// The run.
    pub run: BacklogRun,
    /// Jobs at once.
    pub workers: u32,
    /// `(s, rows queued)` as a step line (the engine's depth series: every change, or a
    /// peak-keeping envelope in long runs).
    pub points: Vec<(f64, u64)>,
    /// The burst drained at, s (`None`: not drained, or a growing run).
    pub drained_s: Option<f64>,
    /// The drain deadline, s.
    pub deadline_s: Option<f64>,
}

/// Most steady jobs a growing run simulates.
pub const GROWING_JOBS: u64 = 5_000;

/// The burst's backlog with `workers` at once (seed `seed`): the run goes on until no row
/// waits after the burst's last arrival, then a tenth longer (so the line is seen at zero).
/// `None` without a burst, or when the configuration is refused.
pub fn burst_backlog(input: &CapacityInput, workers: u32, seed: u64) -> Option<Backlog> {
    let burst = input.burst?;
    let (arrivals, last_ms) = burst_arrivals(input, workers, burst);
    let cfg = config(input, workers, arrivals, seed, run_lease_ms(input));
    let mut sim = Simulation::new(cfg).ok()?;
    let last = SimTime::from_ms(last_ms);
    sim.step_until(last);
    let mut drained = None;
    loop {
        if sim.now() >= last && sim.table().count(Status::Queued) == 0 {
            drained = Some(sim.now());
            break;
        }
        if !sim.step() {
            break;
        }
    }
    if let Some(t) = drained {
        sim.step_until(SimTime(t.0 + t.0 / 10));
    }
    Some(Backlog {
        run: BacklogRun::Burst,
        workers,
        points: points(&sim),
        drained_s: drained.map(|t| t.0 as f64 / 1e6),
        deadline_s: input.drain_within_ms.map(|ms| ms as f64 / 1e3),
    })
}

/// The steady arrivals' backlog with `workers` at once, while [`GROWING_JOBS`] of them arrive
/// (seed `seed`). `None` without steady arrivals, or when the configuration is refused.
pub fn growing_backlog(input: &CapacityInput, workers: u32, seed: u64) -> Option<Backlog> {
    if input.arrival_per_s <= 0.0 {
        return None;
    }
    let arrivals = vec![Arrivals {
        kind: 0,
        pattern: Pattern::Poisson {
            rate_per_s: input.arrival_per_s,
            count: GROWING_JOBS,
        },
    }];
    let cfg = config(input, workers, arrivals, seed, run_lease_ms(input));
    let mut sim = Simulation::new(cfg).ok()?;
    let span_s = GROWING_JOBS as f64 / input.arrival_per_s;
    sim.step_until(SimTime::from_ms((span_s * 1e3).ceil() as u64));
    Some(Backlog {
        run: BacklogRun::Growing,
        workers,
        points: points(&sim),
        drained_s: None,
        deadline_s: None,
    })
}

/// The depth series in seconds, ending at the run's time now.
fn points(sim: &Simulation) -> Vec<(f64, u64)> {
    let mut p: Vec<(f64, u64)> = sim
        .depth_series()
        .into_iter()
        .map(|(t, d)| (t.0 as f64 / 1e6, d))
        .collect();
    let now = sim.now().0 as f64 / 1e6;
    if let Some(&(t, d)) = p.last() {
        if now > t {
            p.push((now, d));
        }
    }
    p
}

//! What a run shows: the event log, the final jobs table, metrics and per-scenario key facts.
//! Serialised as the CLI's JSON (`simulate --format json`, completed by `cli::simulate`, which
//! also writes the text report in the run's language).

use crate::domain::sim::engine::{Counters, Simulation, StopReason};
use crate::domain::sim::jobs::Status;
use crate::domain::sim::reference::contention::ContentionResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// One row of the final jobs table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobRow {
    /// Row id.
    pub id: u64,
    /// Handler name.
    pub name: String,
    /// `queued`, `running`, `done` or `dead`.
    pub status: Status,
    /// Times claimed.
    pub attempts: u32,
    /// Claims allowed.
    pub max_attempts: u32,
    /// Error of the latest failed attempt (kept on `done`, as in the source documents).
    pub last_error: Option<String>,
}

/// Percentiles of a set of durations, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct Percentiles {
    /// Values.
    pub count: u64,
    /// Mean.
    pub mean: f64,
    /// Median (nearest rank).
    pub p50: f64,
    /// 95th percentile (nearest rank).
    pub p95: f64,
    /// 99th percentile (nearest rank).
    pub p99: f64,
    /// Largest.
    pub max: f64,
}

impl Percentiles {
    /// Nearest-rank percentiles of `us` (microseconds); `None` when empty.
    ///
    /// `O(n)`: each rank is found by selection (`select_nth_unstable`) in the part of the
    /// list above the previous one, instead of sorting it all (10⁶ samples per chart in the
    /// browser's load run); the values are those of the sorted list.
    pub fn of_micros(mut us: Vec<u64>) -> Option<Percentiles> {
        let n = us.len();
        if n == 0 {
            return None;
        }
        let sum: u128 = us.iter().map(|&x| u128::from(x)).sum();
        let index = |q: f64| ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
        // Ascending ranks: each selection leaves everything above its rank to its right.
        let mut from = 0;
        let mut at = |k: usize| {
            let (_, v, _) = us[from..].select_nth_unstable(k - from);
            let v = *v;
            from = k;
            v as f64 / 1e3
        };
        let (p50, p95, p99, max) = (at(index(0.50)), at(index(0.95)), at(index(0.99)), at(n - 1));
        Some(Percentiles {
            count: n as u64,
            mean: sum as f64 / n as f64 / 1e3,
            p50,
            p95,
            p99,
            max,
        })
    }
}

/// Figures of a queue run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    /// Why the run stopped.
    pub stop: StopReason,
    /// Events processed.
    pub events: u64,
    /// Virtual time at the end, seconds.
    pub end_time_s: f64,
    /// Jobs enqueued (rows in the table, deleted ones included).
    pub jobs: u64,
    /// Finished rows deleted under
    /// [`Retention::FirstRows`](crate::domain::sim::Retention::FirstRows) (not in [`Report::jobs`];
    /// counted in `done` / `dead`). Absent when every row is kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub deleted_rows: u64,
    /// Rows `done`.
    pub done: u64,
    /// Rows `dead`.
    pub dead: u64,
    /// Rows `queued`.
    pub queued: u64,
    /// Rows `running`.
    pub running: u64,
    /// Counters: runs, failures, duplicates, downstream calls and results, submissions.
    #[serde(flatten)]
    pub counters: Counters,
    /// Enqueue → done, ms.
    pub latency_ms: Option<Percentiles>,
    /// Enqueue → first claim, ms.
    pub wait_ms: Option<Percentiles>,
    /// Queue depth (`queued` rows) over time: `[seconds, depth]` pairs of a step line, the
    /// depth holding until the next pair; every change for small runs, a peak-keeping
    /// envelope past 4 096 changes (see [`crate::domain::sim::results::depth`]).
    pub queue_depth: Vec<(f64, u64)>,
}

/// Everything the CLI prints for one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Scenario name (`config` for a file).
    pub scenario: String,
    /// Variant name.
    pub variant: String,
    /// Seed used.
    pub seed: u64,
    /// Final jobs table.
    pub jobs: Vec<JobRow>,
    /// Figures.
    pub metrics: Option<Metrics>,
    /// The store's balance, when a kind has a side effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<i64>,
    /// Worker name → id of the first job it claimed.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub claims: BTreeMap<String, u64>,
    /// Worker name → last claim error (lock timeout, `NOWAIT`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, String>,
    /// The `jitter-contention` result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionResult>,
    /// The event log, one line per event.
    pub events: Vec<String>,
}

impl Report {
    /// Reads a finished (or stopped) simulation.
    pub fn from_sim(sim: &Simulation, scenario: &str, variant: &str) -> Report {
        let t = sim.table();
        let jobs = t
            .iter()
            .map(|r| JobRow {
                id: r.id.0,
                name: sim.kind_name(r.kind).to_owned(),
                status: r.status,
                attempts: r.attempts,
                max_attempts: r.max_attempts,
                last_error: r.last_error.map(|e| sim.error_text(e).to_owned()),
            })
            .collect();
        let micros = |v: Vec<Option<crate::domain::sim::core::time::SimDuration>>| {
            Percentiles::of_micros(v.into_iter().flatten().map(|d| d.as_micros()).collect())
        };
        let metrics = Metrics {
            stop: sim.stopped().unwrap_or(StopReason::Drained),
            events: sim.events(),
            end_time_s: sim.now().as_secs_f64(),
            jobs: t.len() as u64,
            deleted_rows: t.deleted(),
            done: t.count(Status::Done),
            dead: t.count(Status::Dead),
            queued: t.count(Status::Queued),
            running: t.count(Status::Running),
            counters: sim.counters().clone(),
            latency_ms: micros(sim.latencies()),
            wait_ms: micros(sim.waits()),
            queue_depth: sim
                .depth_series()
                .iter()
                .map(|&(t, d)| (t.as_secs_f64(), d))
                .collect(),
        };
        let has_effect = sim.config().kinds.iter().any(|k| k.effect.is_some());
        Report {
            scenario: scenario.to_owned(),
            variant: variant.to_owned(),
            seed: sim.config().seed,
            jobs,
            metrics: Some(metrics),
            balance: has_effect.then(|| sim.balance()),
            claims: sim
                .first_claims()
                .into_iter()
                .filter_map(|(w, j)| Some((w, j?.0)))
                .collect(),
            errors: sim
                .worker_errors()
                .into_iter()
                .filter_map(|(w, e)| Some((w, e?)))
                .collect(),
            contention: None,
            events: sim.log().iter().map(|l| l.to_string()).collect(),
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

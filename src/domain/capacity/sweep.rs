//! The capacity answer: the analytic band for every worker count, then the real engine run
//! over a sweep of worker counts around the analytic guess, several seeds each, and the
//! recommendation (the smallest count whose simulated upper bound meets every target).
//!
//! Each simulated point is two kinds of run of the engine ([`crate::domain::sim::Simulation`]):
//! a steady run (Poisson arrivals at the sizing rate, `jobs` jobs; the wait is enqueue → first
//! claim) and, with a burst, a burst run (the burst at time 0 on top of the steady arrivals;
//! drained when, after the burst's last arrival, no row is left waiting in the queue,
//! retries included). Same seed ⇒ same answer.

use super::analytic::{self, mean_ci95, MmcWait};
use super::report::{
    AnalyticPoint, Band, Lease, Reason, Recommendation, SimPoint, SizeAnswer, WaitMs,
};
pub use super::runs::config;
pub(super) use super::runs::{burst_arrivals, run_lease_ms};
use super::runs::{burst_run, steady_run};
use super::{Bottleneck, CapacityInput};
use serde::{Deserialize, Serialize};

/// How the sweep runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepOptions {
    /// Runs per worker count (1 ..= 50).
    pub seeds: u32,
    /// The first seed (seed `s + i` for run `i`).
    pub seed: u64,
    /// Jobs per steady run (100 ..= 100 000).
    pub jobs: u64,
    /// Worker counts swept (2 ..= 16).
    pub counts: u32,
}

impl Default for SweepOptions {
    /// 20 seeds from seed 1, 10 000 jobs, 8 counts (the benchmark's sweep).
    fn default() -> Self {
        SweepOptions {
            seeds: 20,
            seed: 1,
            jobs: 10_000,
            counts: 8,
        }
    }
}

/// The most jobs a whole sweep may simulate (its time budget: about 2 s in the browser's
/// worker per 2·10⁶ plain jobs on the reference machine, docs/PERFORMANCE.md).
pub const MAX_SWEEP_JOBS: u64 = 20_000_000;

/// Why a sweep cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepError {
    /// The option or field, e.g. `seeds`.
    pub field: String,
    /// What is allowed.
    pub allowed: String,
    /// What is allowed, in Japanese (empty: [`super::allowed_ja`] of `allowed`).
    #[serde(default)]
    pub allowed_ja: String,
}

impl SweepError {
    /// The message in `lang`, naming the field and the allowed range.
    pub fn message(&self, lang: crate::domain::lang::Lang) -> String {
        match lang {
            crate::domain::lang::Lang::En => {
                format!("{}: out of range; allowed: {}", self.field, self.allowed)
            }
            crate::domain::lang::Lang::Ja => format!(
                "{}：範囲外です。指定できるのは {}",
                self.field,
                self.allowed_in(lang)
            ),
        }
    }

    /// What is allowed, in `lang`: "1 to 50" / 「1〜50」; the page puts it after the field's
    /// own label.
    pub fn allowed_in(&self, lang: crate::domain::lang::Lang) -> String {
        match lang {
            crate::domain::lang::Lang::En => self.allowed.clone(),
            crate::domain::lang::Lang::Ja if self.allowed_ja.is_empty() => {
                super::allowed_ja(&self.allowed)
            }
            crate::domain::lang::Lang::Ja => self.allowed_ja.clone(),
        }
    }
}

fn check_options(input: &CapacityInput, o: &SweepOptions) -> Result<(), SweepError> {
    let err = |field: &str, allowed: String| {
        Err(SweepError {
            field: field.into(),
            allowed,
            allowed_ja: String::new(),
        })
    };
    if !(1..=50).contains(&o.seeds) {
        return err("seeds", "1 to 50".into());
    }
    if !(100..=100_000).contains(&o.jobs) {
        return err("jobs", "100 to 100,000".into());
    }
    if !(2..=16).contains(&o.counts) {
        return err("counts", "2 to 16".into());
    }
    let burst = input.burst.map_or(0, |b| b.jobs() * 3);
    let steady = if input.arrival_per_s > 0.0 { o.jobs } else { 0 };
    let per_run = steady + burst;
    let total = per_run
        .saturating_mul(u64::from(o.seeds))
        .saturating_mul(u64::from(o.counts));
    if total > MAX_SWEEP_JOBS {
        let most = (MAX_SWEEP_JOBS / (per_run.max(1) * u64::from(o.counts))).max(1);
        let g = crate::domain::number::group_thousands;
        let burst_part = input.burst.map(|b| g(b.jobs()));
        return Err(SweepError {
            field: "seeds".into(),
            allowed: format!(
                "1 to {} with these numbers (the sweep's budget is {} simulated jobs{}; or a smaller burst, or with the CLI fewer jobs per run: --jobs)",
                g(most.min(50)),
                g(MAX_SWEEP_JOBS),
                burst_part.as_ref().map_or(String::new(), |b| format!(", and a burst of {b} is run with its background arrivals in every run"))
            ),
            allowed_ja: format!(
                "1〜{}（この数値の場合。シミュレーションの上限は{}件のジョブ{}。バーストを小さくするか、CLIなら1回あたりのジョブ数（--jobs）を減らしても構いません）",
                g(most.min(50)),
                g(MAX_SWEEP_JOBS),
                burst_part.as_ref().map_or(String::new(), |b| format!("。{b}件のバーストは実行ごとに背景の到着と一緒に走ります"))
            ),
        });
    }
    Ok(())
}

/// The analytic point of `workers` (see [`analytic`]): utilisation, stability, the ceiling
/// and its bottleneck, the wait p95 band (the workers' M/G/c model; `None` when unstable or
/// when another limit is the bottleneck) and the fluid burst drain.
pub fn analytic_point(input: &CapacityInput, workers: u32) -> AnalyticPoint {
    let (bottleneck, ceiling) = input.bottleneck(workers);
    let lambda_att = input.arrival_per_s * input.expected_attempts();
    let a = lambda_att * input.mean_s();
    let stable = input.arrival_per_s < ceiling;
    // The queue in front of the binding limit: the workers (M/G/c), a concurrency limit or a
    // lock (M/G/k of the calls), our own pacing (one server handing out evenly spaced slots:
    // M/D/1, C_s² = 0). A downstream that refuses above its rate has no queue of its own
    // (refused attempts go back with their backoff): no band.
    let queue = match bottleneck {
        Bottleneck::Workers => Some((workers, input.mean_s(), input.handler.cs2())),
        Bottleneck::DownstreamConcurrency => input
            .downstream_concurrency
            .map(|k| (k, input.mean_s(), input.handler.cs2())),
        Bottleneck::Lock => Some((1, input.mean_s(), input.handler.cs2())),
        Bottleneck::OurLimit => input.our_limit_per_s.map(|r| (1, 1.0 / r, 0.0)),
        Bottleneck::DownstreamRate => None,
    };
    let band = queue
        .filter(|_| input.arrival_per_s > 0.0)
        .and_then(|(servers, mean_s, cs2)| {
            MmcWait::new(servers, lambda_att, mean_s).map(|w| (w, cs2))
        })
        .map(|(w, cs2)| {
            let (lo, hi) = analytic::wait_band_s(&w, cs2, 0.95);
            Band {
                low: lo * 1e3,
                high: hi * 1e3,
            }
        });
    let drain_ms = input.burst.and_then(|b| {
        analytic::fluid_drain_s(
            b.jobs() as f64,
            b.span_ms() as f64 / 1e3,
            input.arrival_per_s,
            ceiling,
        )
        .map(|s| s * 1e3)
    });
    AnalyticPoint {
        workers,
        utilisation: a / f64::from(workers.max(1)),
        stable,
        ceiling_per_s: ceiling,
        bottleneck,
        wait_p95_ms: band,
        drain_ms,
    }
}

/// Whether an analytic point meets the targets (its band's high end, the fluid drain).
fn analytic_meets(input: &CapacityInput, p: &AnalyticPoint) -> bool {
    if !p.stable && input.arrival_per_s > 0.0 {
        return false;
    }
    let wait_ok = match (input.target_wait_p95_ms, input.arrival_per_s > 0.0) {
        (Some(t), true) => p.wait_p95_ms.is_some_and(|b| b.high <= t as f64),
        _ => true,
    };
    let drain_ok = match (input.drain_within_ms, input.burst) {
        (Some(d), Some(_)) => p.drain_ms.is_some_and(|ms| ms <= d as f64),
        _ => true,
    };
    wait_ok && drain_ok
}

/// The benchmark's input (docs/PERFORMANCE.md, bench/README.md): Poisson arrivals at 20/s, exponential
/// handler of mean 100 ms (a = 2 Erlangs), 10 % transient failures retried up to 5 attempts
/// with full jitter from 50 ms, a wait target of p95 ≤ 100 ms.
pub fn bench_input() -> CapacityInput {
    CapacityInput {
        failure_p: 0.1,
        max_attempts: 5,
        backoff: super::RetryWaits {
            growth: crate::domain::sim::core::backoff::Growth::Exponential,
            base_ms: 50,
            cap_ms: 1_500,
            jitter: crate::domain::sim::core::backoff::Jitter::Full,
        },
        target_wait_p95_ms: Some(100),
        ..CapacityInput::new(
            20.0,
            crate::domain::sheet::load::HandlerTime::Exponential { mean_ms: 100 },
        )
    }
}

/// The worker counts to simulate: `counts` consecutive counts around `guess` (three below it
/// when possible), within `1 ..= workers_max`.
pub fn sweep_counts(guess: u32, counts: u32, workers_max: u32) -> Vec<u32> {
    let top = workers_max.max(1);
    let n = counts.min(top);
    let start = guess.saturating_sub(3).max(1).min(top + 1 - n);
    (start..start + n).collect()
}

/// The whole answer for `input`. Progress goes to `progress(done, total)` runs.
///
/// # Errors
/// [`SweepError`] when an option is out of range or the sweep would exceed its budget
/// ([`MAX_SWEEP_JOBS`]), naming the option and what is allowed.
pub fn size(
    input: &CapacityInput,
    opts: SweepOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<SizeAnswer, SweepError> {
    if let Some(e) = input.validate().first() {
        return Err(SweepError {
            field: e.field.into(),
            allowed: e.allowed.into(),
            allowed_ja: String::new(),
        });
    }
    check_options(input, &opts)?;
    let a = input.offered_load();
    let first_guess = analytic::square_root_staffing(a, 1.0);
    let max = input.workers_max;
    let analytic_all: Vec<AnalyticPoint> = (1..=max).map(|c| analytic_point(input, c)).collect();
    let analytic_rec = analytic_all
        .iter()
        .find(|p| analytic_meets(input, p))
        .map(|p| p.workers);
    let guess = analytic_rec.unwrap_or(first_guess).min(max);
    let counts = sweep_counts(guess, opts.counts, max);
    let lease_ms = run_lease_ms(input);
    let total = u64::from(opts.seeds) * counts.len() as u64;
    let mut done = 0;
    let mut points = Vec::with_capacity(counts.len());
    for &c in &counts {
        points.push(simulate_point(input, c, &opts, lease_ms, &mut || {
            done += 1;
            progress(done, total);
        }));
    }
    let recommendation = recommend(input, &points, &counts);
    // Where the answer's load line is read: the recommended count, else the largest allowed
    // when no count keeps up or meets, else the largest simulated.
    let rec_count = recommendation
        .workers
        .unwrap_or(match recommendation.reason {
            Reason::Unstable | Reason::OverMax | Reason::LimitedElsewhere => max,
            _ => *counts.last().unwrap_or(&1),
        });
    let (bottleneck, ceiling) = input.bottleneck(rec_count);
    // Duplicate runs need a second worker to take the job: at least 2, and the sheet's own
    // count when it says more.
    let lease_workers = rec_count
        .max(2)
        .max(input.chosen.unwrap_or(0))
        .min(max.max(2));
    let lease = lease_answer(input, lease_workers, opts.seed);
    Ok(SizeAnswer {
        input: *input,
        recommendation,
        bottleneck,
        throughput_ceiling_per_s: ceiling,
        offered_load: a,
        expected_attempts: input.expected_attempts(),
        utilisation: a / f64::from(rec_count.max(1)),
        first_guess,
        analytic_recommendation: analytic_rec,
        points,
        analytic: analytic_all
            .into_iter()
            .filter(|p| counts.contains(&p.workers) || Some(p.workers) == input.chosen)
            .collect(),
        drain_floor_ms: drain_floor_ms(input),
        lease,
        seeds: opts.seeds,
        seed: opts.seed,
        jobs_per_run: opts.jobs,
        run_lease_ms: lease_ms,
    })
}

/// The simulated point of `c` workers: `opts.seeds` steady runs (with steady arrivals) and
/// burst runs (with a burst), summed up with their 95 % intervals; `ran()` after each seed.
fn simulate_point(
    input: &CapacityInput,
    c: u32,
    opts: &SweepOptions,
    lease_ms: u64,
    ran: &mut impl FnMut(),
) -> SimPoint {
    let mut p95s = Vec::new();
    let (mut p50s, mut p99s, mut drains) = (Vec::new(), Vec::new(), Vec::new());
    let mut latencies = Vec::new();
    let (mut l, mut lw, mut undrained, mut overlapping) = (0.0, 0.0, 0u32, 0u64);
    let (mut dead, mut refused_calls, mut burst_dead) = (0u64, 0u64, 0u64);
    for i in 0..opts.seeds {
        let seed = opts.seed.wrapping_add(u64::from(i));
        if input.arrival_per_s > 0.0 {
            if let Some(s) = steady_run(input, c, seed, opts.jobs, lease_ms) {
                p50s.push(s.wait.p50);
                p95s.push(s.wait.p95);
                p99s.push(s.wait.p99);
                latencies.extend(s.latency_p95);
                l += s.l;
                lw += s.lw;
                overlapping += s.overlapping;
                dead += s.dead;
                refused_calls += s.refused;
            }
        }
        if let Some(b) = input.burst {
            match burst_run(input, c, seed ^ 0x9E37_79B9_7F4A_7C15, b, lease_ms) {
                Some(r) => {
                    match r.drained_ms {
                        Some(ms) => drains.push(ms),
                        None => undrained += 1,
                    }
                    burst_dead += r.dead;
                    refused_calls += r.refused;
                }
                None => undrained += 1,
            }
        }
        ran();
    }
    let runs = p95s.len().max(drains.len()) as u32;
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    let wait_ci = mean_ci95(&p95s);
    let drain_ci = mean_ci95(&drains);
    SimPoint {
        workers: c,
        stable: analytic_point(input, c).stable,
        runs,
        wait_ms: wait_ci.map(|(m, _, _)| WaitMs {
            p50: mean(&p50s).unwrap_or(0.0),
            p95: m,
            p99: mean(&p99s).unwrap_or(0.0),
        }),
        wait_p95_ci_ms: wait_ci.map(|(_, lo, hi)| [lo.max(0.0), hi]),
        latency_p95_ms: mean(&latencies),
        drain_ms: drain_ci.map(|(m, _, _)| m),
        drain_ci_ms: drain_ci.map(|(_, lo, hi)| [lo.max(0.0), hi]),
        undrained_runs: undrained,
        little_l: (!p95s.is_empty()).then(|| l / p95s.len() as f64),
        little_lambda_w: (!p95s.is_empty()).then(|| lw / p95s.len() as f64),
        overlapping_runs: overlapping,
        dead_jobs: dead,
        burst_dead_jobs: burst_dead,
        refused_calls,
    }
}

/// The shortest drain any worker count can give: the burst over the fixed ceiling (a rate
/// limit, a lock) less the steady arrivals — "500 updates at 10/s need ≥ 50 s whatever the
/// workers". `None` without a burst or without a fixed ceiling.
pub fn drain_floor_ms(input: &CapacityInput) -> Option<f64> {
    let b = input.burst?;
    let (_, ceiling) = input.fixed_ceiling()?;
    analytic::fluid_drain_s(
        b.jobs() as f64,
        b.span_ms() as f64 / 1e3,
        input.arrival_per_s,
        ceiling,
    )
    .map(|s| s * 1e3)
}

/// The smallest simulated count whose upper 95 % bound meets every target; else why none.
fn recommend(input: &CapacityInput, points: &[SimPoint], counts: &[u32]) -> Recommendation {
    let meets = |p: &SimPoint| {
        // A count the arrivals exceed never meets a target: a finite run's figure only says
        // how long the run was.
        if input.arrival_per_s > 0.0 && !p.stable {
            return false;
        }
        let wait_ok = match (input.target_wait_p95_ms, p.wait_p95_ci_ms) {
            (Some(t), Some([_, hi])) => hi <= t as f64,
            (Some(_), None) => input.arrival_per_s <= 0.0,
            (None, _) => true,
        };
        let drain_ok = match (input.drain_within_ms, input.burst) {
            (Some(d), Some(_)) => {
                p.undrained_runs == 0
                    && p.burst_dead_jobs == 0
                    && p.drain_ci_ms.is_some_and(|[_, hi]| hi <= d as f64)
            }
            _ => true,
        };
        // Jobs dead-lettered while the downstream refused calls: the count loses work.
        let loses = p.refused_calls > 0 && p.dead_jobs + p.burst_dead_jobs > 0;
        wait_ok && drain_ok && !loses
    };
    let no_target = input.target_wait_p95_ms.is_none() && input.drain_within_ms.is_none();
    if no_target {
        // Without a target: the smallest stable count simulated (the queue does not grow).
        let c = points
            .iter()
            .find(|p| analytic_point(input, p.workers).stable)
            .map(|p| p.workers);
        return Recommendation {
            workers: c,
            reason: if c.is_some() {
                Reason::NoTargetStable
            } else {
                Reason::Unstable
            },
        };
    }
    if let Some(p) = points.iter().find(|p| meets(p)) {
        return Recommendation {
            workers: Some(p.workers),
            reason: Reason::Meets,
        };
    }
    // None meets: does any count keep up at all, and is the bottleneck somewhere no worker
    // count changes?
    let top = counts.last().copied().unwrap_or(1);
    let (b, _) = input.bottleneck(top);
    let max_point = analytic_point(input, input.workers_max);
    if input.arrival_per_s > 0.0 && !max_point.stable {
        return Recommendation {
            workers: None,
            reason: if max_point.bottleneck == Bottleneck::Workers {
                Reason::Unstable
            } else {
                Reason::LimitedElsewhere
            },
        };
    }
    let floor = drain_floor_ms(input);
    let drain_impossible =
        matches!((floor, input.drain_within_ms), (Some(f), Some(d)) if f > d as f64);
    let loses = points
        .iter()
        .any(|p| p.refused_calls > 0 && p.dead_jobs + p.burst_dead_jobs > 0);
    let reason = if drain_impossible {
        Reason::LimitedElsewhere
    } else if loses {
        Reason::LosesJobs
    } else if b != Bottleneck::Workers {
        Reason::LimitedElsewhere
    } else if top >= input.workers_max {
        Reason::OverMax
    } else {
        Reason::BeyondSweep
    };
    Recommendation {
        workers: None,
        reason,
    }
}

/// The lease: above the handler's p99.9 and the attempt timeout, with the duplicate runs a
/// lease of the handler's p95 would cause (simulated at `workers`, `seed`).
fn lease_answer(input: &CapacityInput, workers: u32, seed: u64) -> Lease {
    let p999 = input.handler.quantile_ms(0.999);
    let timeout = input.attempt_timeout_ms.map_or(0.0, |t| t as f64);
    let recommended = nice_up((p999 * 1.5).max(timeout * 1.5).max(1_000.0));
    let short = input.handler.quantile_ms(0.95).ceil().max(1.0) as u64;
    let jobs = 2_000;
    let duplicates = if input.arrival_per_s > 0.0 {
        steady_run(input, workers, seed, jobs, short).map(|s| s.overlapping)
    } else {
        None
    };
    Lease {
        recommended_ms: recommended,
        handler_p999_ms: p999,
        sqs_lambda_ms: input.attempt_timeout_ms.map(|t| t.saturating_mul(6)),
        short_lease_ms: short,
        short_lease_jobs: jobs,
        short_lease_workers: workers,
        short_lease_overlapping_runs: duplicates,
    }
}

/// `ms` rounded up to a readable value: 1, 2 or 5 × a power of ten below a minute, else whole
/// minutes of 1, 2, 5, 10, 15, 30, else whole hours.
pub fn nice_up(ms: f64) -> u64 {
    let ms = ms.max(1.0).ceil() as u64;
    if ms <= 60_000 {
        let mut step = 1u64;
        loop {
            for m in [1, 2, 5] {
                if step * m >= ms {
                    return (step * m).min(60_000);
                }
            }
            step *= 10;
        }
    }
    for min in [1u64, 2, 5, 10, 15, 30, 60] {
        if min * 60_000 >= ms {
            return min * 60_000;
        }
    }
    ms.div_ceil(3_600_000) * 3_600_000
}

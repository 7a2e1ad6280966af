//! Erlang C: the mean wait in queue of an M/M/c system, to check the engine against theory.
//!
//! With arrival rate `λ`, service rate `μ` per server, `c` servers, offered load `a = λ/μ` and
//! utilisation `ρ = a/c < 1`:
//! `C(c, a) = (aᶜ/c!)·(1/(1−ρ)) / (Σₖ₌₀^{c−1} aᵏ/k! + (aᶜ/c!)·(1/(1−ρ)))` is the probability
//! that an arrival waits, and the mean wait is `Wq = C(c, a) / (cμ − λ)`.

/// Probability that an arrival has to wait; `None` unless `0 < λ`, `0 < μ`, `c ≥ 1` and
/// `λ < cμ`.
pub fn erlang_c(c: u32, lambda: f64, mu: f64) -> Option<f64> {
    if c == 0 || !(lambda > 0.0 && mu > 0.0) || lambda >= f64::from(c) * mu {
        return None;
    }
    let a = lambda / mu;
    let rho = a / f64::from(c);
    // Terms aᵏ/k! built iteratively to avoid overflow of the factorial.
    let mut term = 1.0;
    let mut sum = 0.0;
    for k in 0..c {
        sum += term;
        term *= a / f64::from(k + 1);
    }
    let top = term / (1.0 - rho);
    Some(top / (sum + top))
}

/// Mean wait in queue `Wq`, in the time unit of `λ` and `μ`; `None` for an unstable or invalid
/// system.
pub fn mean_wait(c: u32, lambda: f64, mu: f64) -> Option<f64> {
    Some(erlang_c(c, lambda, mu)? / (f64::from(c) * mu - lambda))
}

use crate::domain::sim::core::backoff::{BackoffPolicy, Strategy};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::setup::config::{
    Arrivals, DurationDist, ErrorClass, FailureModel, JobKind, Limits, Pattern, SimConfig,
    WorkerSpec,
};

/// An M/M/c queue as a [`SimConfig`]: Poisson arrivals at `lambda_per_s`, `servers` workers
/// woken on work (no polling delay), exponential service at `mu_per_s` per worker, leases
/// longer than any run. With `failure_p > 0` a run fails with that probability and the job is
/// retried after a full-jitter wait (base `retry_base_ms`, cap 30× base), up to 5 attempts:
/// the "M/M/c with retries" model of the benchmarks. No event log; the jobs table keeps its
/// first 200 rows and deletes later finished ones ([`Retention::FirstRows`]), as a queue's
/// pruner would: counts, waits and latencies still cover every job.
///
/// [`Retention::FirstRows`]: crate::domain::sim::jobs::Retention::FirstRows
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MmcModel {
    /// Workers (`c`).
    pub servers: u32,
    /// Arrival rate `λ`, per second.
    pub lambda_per_s: f64,
    /// Service rate `μ` of one worker, per second.
    pub mu_per_s: f64,
    /// Jobs to generate.
    pub jobs: u64,
    /// Probability that a run fails (0: plain M/M/c).
    pub failure_p: f64,
    /// Retry base wait, ms.
    pub retry_base_ms: u64,
    /// Seed.
    pub seed: u64,
}

impl MmcModel {
    /// The benchmark model: c = 3, λ = 20/s, μ = 10/s (ρ = 2/3), 10 % of runs fail and retry
    /// with full jitter from 50 ms.
    pub fn bench(jobs: u64, seed: u64) -> MmcModel {
        MmcModel {
            servers: 3,
            lambda_per_s: 20.0,
            mu_per_s: 10.0,
            jobs,
            failure_p: 0.1,
            retry_base_ms: 50,
            seed,
        }
    }

    /// The config of this model.
    pub fn config(&self) -> SimConfig {
        let mut cfg = SimConfig::empty(self.seed);
        let failure = if self.failure_p > 0.0 {
            FailureModel::Probability { p: self.failure_p }
        } else {
            FailureModel::Never
        };
        cfg.kinds = vec![JobKind {
            name: "work".into(),
            max_attempts: 5,
            duration: DurationDist::Exponential {
                mean_ms: 1e3 / self.mu_per_s,
            },
            failure,
            error: "TimeoutError".into(),
            error_class: ErrorClass::Retryable,
            effect: None,
            calls_downstream: false,
        }];
        cfg.arrivals = vec![Arrivals {
            kind: 0,
            pattern: Pattern::Poisson {
                rate_per_s: self.lambda_per_s,
                count: self.jobs,
            },
        }];
        cfg.workers = (0..self.servers as usize)
            .map(|i| WorkerSpec::new(WorkerSpec::default_name(i), 0))
            .collect();
        // A lease that never expires: no run is ever reclaimed.
        cfg.lease = SimDuration(u64::MAX);
        let base = SimDuration::from_ms(self.retry_base_ms);
        cfg.retry =
            BackoffPolicy::named(Strategy::Full, base, SimDuration(base.0.saturating_mul(30)));
        cfg.limits = Limits {
            max_events: crate::domain::sim::setup::config::MAX_EVENTS,
            max_time: SimTime::MAX,
        };
        cfg.log = false;
        cfg.series_bucket = SimDuration::from_secs(60);
        cfg.retention = crate::domain::sim::jobs::Retention::FirstRows(200);
        cfg
    }
}

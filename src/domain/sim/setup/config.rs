//! The typed description of a simulation run: job kinds, arrivals, workers, claim strategy,
//! retry policy, downstream, intake, limits.
//!
//! Built in code by the named scenarios, or from a JSON file by
//! [`SimConfigFile`](super::config_file::SimConfigFile). [`SimConfig::validate`] returns every finding, not
//! only the first; [`Simulation::new`](crate::domain::sim::Simulation::new) refuses an invalid config.

use crate::domain::sim::core::backoff::BackoffPolicy;
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::Retention;
use crate::domain::sim::setup::error::{ConfigError, Reason};
use serde::Serialize;

pub use crate::domain::sim::setup::options::{Ack, CrashPoint, DuplicateSubmissions, ExpiryRule};

pub use crate::domain::sim::setup::limits::{
    MAX_ATTEMPTS, MAX_EFFECT_AMOUNT, MAX_EVENTS, MAX_JOBS, MAX_MS, MAX_WORKERS, MIN_DIST_MS,
    RATE_RANGE,
};

/// The distribution of a handler's (or a downstream call's) duration. Milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum DurationDist {
    /// Always `ms`.
    Fixed {
        /// Duration, ms.
        ms: u64,
    },
    /// Uniform in `min_ms..=max_ms`.
    Uniform {
        /// Shortest, ms.
        min_ms: u64,
        /// Longest, ms.
        max_ms: u64,
    },
    /// Exponential with mean `mean_ms` (the service time of M/M/c).
    Exponential {
        /// Mean, ms.
        mean_ms: f64,
    },
    /// Lognormal with the given median and 95th percentile:
    /// `mu = ln p50`, `sigma = (ln p95 − ln p50) / 1.6449`.
    LogNormal {
        /// Median, ms.
        p50_ms: f64,
        /// 95th percentile, ms (`>= p50_ms`).
        p95_ms: f64,
    },
}

/// When a handler fails (for handlers that do not call the downstream).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FailureModel {
    /// Never fails.
    Never,
    /// Fails on the job's first `k` runs, then succeeds (the source documents' mail server).
    FirstRuns {
        /// Runs that fail.
        k: u32,
    },
    /// Fails each run with probability `p`.
    Probability {
        /// In `[0, 1]`.
        p: f64,
    },
    /// Always fails (the source documents' "not an image").
    Always,
}

/// Whether retrying can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorClass {
    /// Transient: a timeout, "busy", a connection error.
    Retryable,
    /// Retrying cannot help: bad input.
    Permanent,
}

/// A side effect on the simulated store: `balance += amount`, optionally guarded by an
/// idempotency key recorded in the same transaction (a second run with the same key rolls the
/// whole write back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// Added to the balance by each applied run; within ±[`MAX_EFFECT_AMOUNT`]
    /// ([`SimConfig::validate`] refuses others).
    pub amount: i64,
    /// Key template; `{n}` is replaced by the job's arrival number (1-based), which stands for
    /// the real-world event. `None`: no guard.
    pub idempotency_key: Option<String>,
}

/// A job kind: one handler and its behaviour.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobKind {
    /// Handler name, e.g. `send_mail`.
    pub name: String,
    /// Claims allowed, the first included (the source documents' default is 3).
    pub max_attempts: u32,
    /// How long a run takes (for kinds that call the downstream: local work before the call).
    pub duration: DurationDist,
    /// When a run fails (ignored for kinds that call the downstream).
    pub failure: FailureModel,
    /// The error a failing run raises, e.g. `TimeoutError: mail server did not respond`.
    pub error: String,
    /// Whether that error is retryable.
    pub error_class: ErrorClass,
    /// Side effect of a successful run.
    pub effect: Option<Effect>,
    /// Whether a run is one call to the downstream (success and failure then come from it).
    pub calls_downstream: bool,
}

/// When jobs of one kind arrive.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Pattern {
    /// `count` jobs at the same instant.
    Burst {
        /// Number of jobs.
        count: u64,
        /// Instant, ms.
        at_ms: u64,
    },
    /// A Poisson process of `rate_per_s` from time 0 until `count` jobs have arrived.
    Poisson {
        /// Mean arrivals per second.
        rate_per_s: f64,
        /// Number of jobs.
        count: u64,
    },
    /// One job at each listed instant (ms).
    Times {
        /// Instants, ms.
        at_ms: Vec<u64>,
    },
}

/// Arrivals of one kind (index into [`SimConfig::kinds`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Arrivals {
    /// Index of the kind.
    pub kind: usize,
    /// When they arrive.
    pub pattern: Pattern,
}

/// One worker process.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkerSpec {
    /// Shown in the event log, e.g. `A`.
    pub name: String,
    /// When it starts polling.
    pub start: SimTime,
    /// Idle poll interval; `None`: woken when a job becomes claimable (LISTEN/NOTIFY-like, or
    /// a managed queue pushing messages). Either way a worker that finishes a run claims its
    /// next job at once, as the source documents' `work_once` loop does.
    pub poll: Option<SimDuration>,
    /// Probability of dying after the side effect and before `complete`.
    pub crash_probability: f64,
    /// After a crash, restart after this long; `None`: stays down.
    pub restart_after: Option<SimDuration>,
    /// Stop after this many claims; `None`: no limit.
    pub max_claims: Option<u32>,
    /// Claim once, report what was obtained, and roll back (the source documents' PostgreSQL worker B).
    pub probe: bool,
}

impl WorkerSpec {
    /// A plain worker named `name`, starting at 0, polling every `poll_ms` (0: notified).
    pub fn new(name: impl Into<String>, poll_ms: u64) -> WorkerSpec {
        WorkerSpec {
            name: name.into(),
            start: SimTime::ZERO,
            poll: (poll_ms > 0).then(|| SimDuration::from_ms(poll_ms)),
            crash_probability: 0.0,
            restart_after: None,
            max_claims: None,
            probe: false,
        }
    }

    /// Default names: `A`…`Z`, then `w27`, `w28`, ….
    pub fn default_name(index: usize) -> String {
        if index < 26 {
            char::from(b'A' + index as u8).to_string()
        } else {
            format!("w{}", index + 1)
        }
    }
}

/// How a worker takes a job. Source: source document `000` (SQLite and PostgreSQL demos).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ClaimStrategy {
    /// One `UPDATE … RETURNING` under a write lock: never two workers on one row.
    Atomic,
    /// `SELECT` the first claimable id, then `UPDATE` it `gap` later: two workers can select
    /// the same row and both run it.
    TwoStatement {
        /// Time between the two statements.
        gap: SimDuration,
    },
    /// PostgreSQL `SELECT … FOR UPDATE` inside the handler's transaction: waits for a row
    /// locked by another transaction, up to `lock_timeout` (`None`: forever). When the holder
    /// commits or rolls back, the waiter runs its statement again (with a fresh timeout).
    ForUpdate {
        /// `lock_timeout`.
        lock_timeout: Option<SimDuration>,
    },
    /// `FOR UPDATE NOWAIT`: fails at once when the first row is locked.
    Nowait,
    /// `FOR UPDATE SKIP LOCKED`: takes the first row not locked by another transaction.
    SkipLocked,
}

impl ClaimStrategy {
    /// PostgreSQL strategies hold a row lock for the whole run (the source documents' demo) instead of a
    /// lease; other workers see the committed row until the transaction ends.
    pub fn holds_row_lock(self) -> bool {
        matches!(
            self,
            ClaimStrategy::ForUpdate { .. } | ClaimStrategy::Nowait | ClaimStrategy::SkipLocked
        )
    }
}

/// Short retries inside one worker run before giving the message back to the queue (the first
/// tier of two-tier retry, `docs/DOMAIN.md` §4). Applies to downstream calls that fail retryably.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InWorkerRetry {
    /// Extra calls after the first.
    pub max_retries: u32,
    /// Waits between them.
    pub backoff: BackoffPolicy,
}

/// A token bucket: `burst` tokens, refilled at `rate_per_s`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TokenBucket {
    /// Refill rate, tokens per second.
    pub rate_per_s: f64,
    /// Bucket size.
    pub burst: u32,
}

/// The external system the handlers call.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Downstream {
    /// Calls served at once; more overlapping calls are answered "busy" (1: the spreadsheet
    /// script that locks itself while writing). 0: unlimited.
    pub capacity: u32,
    /// How long a served call takes.
    pub latency: DurationDist,
    /// How long a refusal ("busy", rate limited, unavailable) takes to come back.
    pub refusal: SimDuration,
    /// Optional rate limit.
    pub rate_limit: Option<TokenBucket>,
    /// Optional outage `[from, until)`: every call is answered "unavailable".
    pub outage: Option<(SimTime, SimTime)>,
    /// Probability that a call the downstream would serve fails with a transient error
    /// (answered "unavailable"), in `[0, 1]`: the per-attempt failure rate of the capacity
    /// model (`domain::capacity`). 0 draws no random number, so runs without it keep their
    /// traces.
    pub failure_p: f64,
}

/// A limiter on our side: the workers pace their downstream calls to at most `rate_per_s`
/// calls per second across all workers, evenly spaced (a leaky bucket without burst: a call
/// waits, holding its worker, until its slot). How BullMQ's `limiter`, Celery's `rate_limit`,
/// Cloud Tasks' `maxDispatchesPerSecond` and Temporal's task-queue rate pace work
/// (`brief/CAPACITY.md`): the downstream then never refuses for rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pacing {
    /// Calls per second across all workers ([`RATE_RANGE`]).
    pub rate_per_s: f64,
}

/// Where submissions go.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Intake {
    /// Publish to the queue (enqueue) and answer "accepted" at once. A publish fails with
    /// probability `publish_failure`; the API then calls the downstream directly, at most
    /// `fallback_calls` times, through the same call-and-classify code as the worker.
    Queue {
        /// Probability that a publish fails.
        publish_failure: f64,
        /// Direct calls allowed after a failed publish.
        fallback_calls: u32,
    },
    /// No queue: the API calls the downstream and the user waits (up to `calls` calls).
    Direct {
        /// Calls allowed per submission.
        calls: u32,
    },
}

/// Bounds that make every run finite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Events processed at most.
    pub max_events: u64,
    /// Virtual time never passes this.
    pub max_time: SimTime,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_events: 10_000_000,
            max_time: SimTime::from_ms(MAX_MS),
        }
    }
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimConfig {
    /// Seed of the run's RNG.
    pub seed: u64,
    /// Job kinds.
    pub kinds: Vec<JobKind>,
    /// Arrivals.
    pub arrivals: Vec<Arrivals>,
    /// Workers.
    pub workers: Vec<WorkerSpec>,
    /// Claim strategy (all workers).
    pub claim: ClaimStrategy,
    /// Lease length set by a claim (`locked_until = now + lease`).
    pub lease: SimDuration,
    /// Wait before a released job can be claimed again (queue redelivery).
    pub retry: BackoffPolicy,
    /// Permanent errors go to `dead` on their first attempt.
    pub classify_errors: bool,
    /// First-tier retries inside a run.
    pub in_worker_retry: Option<InWorkerRetry>,
    /// The downstream, if kinds call one.
    pub downstream: Option<Downstream>,
    /// Where submissions go.
    pub intake: Intake,
    /// Run bounds.
    pub limits: Limits,
    /// Record the event log (off for benchmarks).
    pub log: bool,
    /// Width of a bucket of the queue-depth series.
    pub series_bucket: SimDuration,
    /// Which finished rows the jobs table keeps ([`Retention::All`]: every row, as in the source documents).
    pub retention: Retention,
    /// What a lease that expires on the last attempt does (default: claimed again, as the
    /// source documents' claim has no attempts check).
    pub expired_on_last_attempt: ExpiryRule,
    /// `complete` / `release` apply only while the worker's claim still holds the row (same
    /// attempt number, still `running`); a stale result is refused (default off: the source
    /// documents' SQL updates by id alone).
    pub owner_check: bool,
    /// A running worker extends its lease to `now + lease` every this many ms (1 ..= the lease
    /// less 1 ms); a crashed or finished one stops. `None`: no heartbeats.
    pub heartbeat_ms: Option<u64>,
    /// When the row is acknowledged: after the handler (default) or at the claim.
    pub ack: Ack,
    /// Where a crash strikes: after the side effect (default) or before it.
    pub crash_point: CrashPoint,
    /// Every submission enqueued a second time, later, with the same request number.
    pub duplicate_submissions: Option<DuplicateSubmissions>,
    /// Our own limiter in front of the downstream calls (`None`: calls go out at once).
    pub pacing: Option<Pacing>,
}

impl SimConfig {
    /// A config with no kinds, arrivals or workers: atomic claims, 30 s lease, fixed 0.2 s
    /// retry wait, queue intake, default limits, log on.
    pub fn empty(seed: u64) -> SimConfig {
        SimConfig {
            seed,
            kinds: Vec::new(),
            arrivals: Vec::new(),
            workers: Vec::new(),
            claim: ClaimStrategy::Atomic,
            lease: SimDuration::from_secs(30),
            retry: BackoffPolicy::fixed(SimDuration::from_ms(200)),
            classify_errors: false,
            in_worker_retry: None,
            downstream: None,
            intake: Intake::Queue {
                publish_failure: 0.0,
                fallback_calls: 0,
            },
            limits: Limits::default(),
            log: true,
            series_bucket: SimDuration::from_secs(1),
            retention: Retention::All,
            expired_on_last_attempt: ExpiryRule::Reclaim,
            owner_check: false,
            heartbeat_ms: None,
            ack: Ack::After,
            crash_point: CrashPoint::AfterEffect,
            duplicate_submissions: None,
            pacing: None,
        }
    }

    /// Total jobs the arrivals will create (saturating).
    pub fn job_count(&self) -> u64 {
        self.arrivals
            .iter()
            .map(|a| match &a.pattern {
                Pattern::Burst { count, .. } | Pattern::Poisson { count, .. } => *count,
                Pattern::Times { at_ms } => at_ms.len() as u64,
            })
            .fold(0u64, u64::saturating_add)
    }

    /// Every cross-field problem: cap below base, zero workers with jobs, a kind index out of
    /// range, downstream kinds without a downstream, sizes over the limits, probabilities
    /// outside `[0, 1]`, effect amounts outside ±[`MAX_EFFECT_AMOUNT`]. Empty when the config can run.
    pub fn validate(&self) -> Vec<ConfigError> {
        let mut errs = Vec::new();
        self.check_sizes(&mut errs);
        self.check_retries(&mut errs);
        self.check_kinds(&mut errs);
        self.check_arrivals(&mut errs);
        self.check_workers(&mut errs);
        self.check_downstream(&mut errs);
        self.check_intake_and_limits(&mut errs);
        self.check_lease_options(&mut errs);
        errs
    }

    /// Jobs and workers over the limits; jobs with no worker to take them from a queue.
    fn check_sizes(&self, errs: &mut Vec<ConfigError>) {
        let jobs = self.job_count();
        if jobs > MAX_JOBS {
            errs.push(ConfigError::int_range(
                "arrivals",
                i64::try_from(jobs).unwrap_or(i64::MAX),
                0,
                MAX_JOBS as i64,
            ));
        }
        if self.workers.len() as u64 > MAX_WORKERS {
            errs.push(ConfigError::int_range(
                "workers",
                i64::try_from(self.workers.len()).unwrap_or(i64::MAX),
                0,
                MAX_WORKERS as i64,
            ));
        }
        let queued = matches!(self.intake, Intake::Queue { .. });
        if queued && jobs > 0 && self.workers.is_empty() {
            errs.push(ConfigError::NoWorkers { jobs });
        }
    }

    /// Cap below base in the retry waits (between attempts and inside a worker).
    fn check_retries(&self, errs: &mut Vec<ConfigError>) {
        check_backoff("retry", &self.retry, errs);
        if let Some(r) = &self.in_worker_retry {
            check_backoff("in_worker_retry.backoff", &r.backoff, errs);
        }
    }

    /// Each kind's attempts, duration, effect amount, failure probability and downstream use;
    /// arrivals with no kind.
    fn check_kinds(&self, errs: &mut Vec<ConfigError>) {
        for (i, k) in self.kinds.iter().enumerate() {
            let f = |name: &str| format!("kinds[{i}].{name}");
            if k.max_attempts == 0 || u64::from(k.max_attempts) > MAX_ATTEMPTS {
                errs.push(ConfigError::int_range(
                    &f("max_attempts"),
                    i64::from(k.max_attempts),
                    1,
                    MAX_ATTEMPTS as i64,
                ));
            }
            check_dist(&f("duration"), &k.duration, errs);
            if let Some(e) = &k.effect {
                if e.amount.unsigned_abs() > MAX_EFFECT_AMOUNT {
                    errs.push(effect_amount_range(&f("effect.amount"), e.amount));
                }
            }
            if let FailureModel::Probability { p } = k.failure {
                check_prob(&f("failure.p"), p, errs);
            }
            if k.calls_downstream && self.downstream.is_none() {
                errs.push(ConfigError::Invalid {
                    field: f("calls_downstream"),
                    reason: Reason::NoDownstream,
                });
            }
        }
        if self.kinds.is_empty() && !self.arrivals.is_empty() {
            errs.push(ConfigError::Invalid {
                field: "kinds".into(),
                reason: Reason::NoKind,
            });
        }
    }

    /// Each arrival's kind index and Poisson rate.
    fn check_arrivals(&self, errs: &mut Vec<ConfigError>) {
        for (i, a) in self.arrivals.iter().enumerate() {
            if a.kind >= self.kinds.len() && !self.kinds.is_empty() {
                errs.push(ConfigError::int_range(
                    &format!("arrivals[{i}].kind"),
                    i64::try_from(a.kind).unwrap_or(i64::MAX),
                    0,
                    i64::try_from(self.kinds.len() - 1).unwrap_or(i64::MAX),
                ));
            }
            if let Pattern::Poisson { rate_per_s, .. } = a.pattern {
                check_rate(
                    &format!("arrivals[{i}].pattern.rate_per_s"),
                    rate_per_s,
                    errs,
                );
            }
        }
    }

    /// Each worker's crash probability.
    fn check_workers(&self, errs: &mut Vec<ConfigError>) {
        for (i, w) in self.workers.iter().enumerate() {
            check_prob(
                &format!("workers[{i}].crash_probability"),
                w.crash_probability,
                errs,
            );
        }
    }

    /// The downstream's latency, outage window and rate limit.
    fn check_downstream(&self, errs: &mut Vec<ConfigError>) {
        if let Some(d) = &self.downstream {
            check_dist("downstream.latency", &d.latency, errs);
            if let Some((from, until)) = d.outage {
                if until < from {
                    errs.push(ConfigError::Invalid {
                        field: "downstream.outage".into(),
                        reason: Reason::OutageBackwards {
                            from_ms: from.0 / 1_000,
                            until_ms: until.0 / 1_000,
                        },
                    });
                }
            }
            if let Some(tb) = d.rate_limit {
                check_rate("downstream.rate_limit.rate_per_s", tb.rate_per_s, errs);
            }
            check_prob("downstream.failure_p", d.failure_p, errs);
        }
        if let Some(p) = self.pacing {
            check_rate("pacing.rate_per_s", p.rate_per_s, errs);
        }
    }
    /// The intake's publish-failure probability, the event limit and the series bucket.
    fn check_intake_and_limits(&self, errs: &mut Vec<ConfigError>) {
        if let Intake::Queue {
            publish_failure, ..
        } = self.intake
        {
            check_prob("intake.publish_failure", publish_failure, errs);
        }
        if self.limits.max_events > MAX_EVENTS {
            errs.push(ConfigError::int_range(
                "limits.max_events",
                i64::try_from(self.limits.max_events).unwrap_or(i64::MAX),
                0,
                MAX_EVENTS as i64,
            ));
        }
        if self.series_bucket.0 == 0 {
            errs.push(ConfigError::int_range(
                "series_bucket_ms",
                0,
                1,
                MAX_MS as i64,
            ));
        }
    }
}

/// The range error of an `effect.amount` outside ±[`MAX_EFFECT_AMOUNT`].
pub(crate) fn effect_amount_range(field: &str, amount: i64) -> ConfigError {
    let max = MAX_EFFECT_AMOUNT as i64;
    ConfigError::int_range(field, amount, -max, max)
}

fn check_backoff(field: &str, b: &BackoffPolicy, errs: &mut Vec<ConfigError>) {
    if b.cap < b.base {
        errs.push(ConfigError::CapBelowBase {
            field: field.to_owned(),
            base_ms: b.base.as_ms_f64(),
            cap_ms: b.cap.as_ms_f64(),
        });
    }
}

fn check_rate(field: &str, rate: f64, errs: &mut Vec<ConfigError>) {
    let (min, max) = RATE_RANGE;
    if !(min..=max).contains(&rate) {
        errs.push(ConfigError::range(field, rate, min, max));
    }
}

fn check_prob(field: &str, p: f64, errs: &mut Vec<ConfigError>) {
    if !(0.0..=1.0).contains(&p) {
        errs.push(ConfigError::range(field, p, 0.0, 1.0));
    }
}

fn check_dist(field: &str, d: &DurationDist, errs: &mut Vec<ConfigError>) {
    let max = MAX_MS as f64;
    match *d {
        DurationDist::Fixed { .. } => {}
        DurationDist::Uniform { min_ms, max_ms } => {
            if max_ms < min_ms {
                errs.push(ConfigError::Invalid {
                    field: format!("{field}.max_ms"),
                    reason: Reason::MaxBelowMin { min_ms, max_ms },
                });
            }
        }
        DurationDist::Exponential { mean_ms } => {
            if !(MIN_DIST_MS..=max).contains(&mean_ms) {
                errs.push(ConfigError::range(
                    &format!("{field}.mean_ms"),
                    mean_ms,
                    MIN_DIST_MS,
                    max,
                ));
            }
        }
        DurationDist::LogNormal { p50_ms, p95_ms } => {
            if !(MIN_DIST_MS..=max).contains(&p50_ms) {
                errs.push(ConfigError::range(
                    &format!("{field}.p50_ms"),
                    p50_ms,
                    MIN_DIST_MS,
                    max,
                ));
            } else if !(p95_ms.is_finite() && p95_ms >= p50_ms && p95_ms <= max) {
                errs.push(ConfigError::range(
                    &format!("{field}.p95_ms"),
                    p95_ms,
                    p50_ms,
                    max,
                ));
            }
        }
    }
}

impl SimConfig {
    /// `true` when any option of this module is on (not its default): such a config takes the
    /// general path ([`SimConfig::is_plain`]).
    pub fn uses_lease_options(&self) -> bool {
        self.expired_on_last_attempt != ExpiryRule::Reclaim
            || self.owner_check
            || self.heartbeat_ms.is_some()
            || self.ack != Ack::After
            || self.crash_point != CrashPoint::AfterEffect
            || self.duplicate_submissions.is_some()
    }

    /// The heartbeat interval (1 ms ..= the lease less 1 ms, at most [`MAX_MS`]) and the duplicate
    /// submissions' delay (0 ..= [`MAX_MS`]).
    pub(super) fn check_lease_options(&self, errs: &mut Vec<ConfigError>) {
        if let Some(hb) = self.heartbeat_ms {
            // A heartbeat must come before the lease it renews runs out: the range's top is
            // the lease less 1 ms (and at most MAX_MS).
            let top = (self.lease.0 / 1_000).saturating_sub(1).min(MAX_MS);
            if hb == 0 || hb > top {
                errs.push(ConfigError::int_range(
                    "heartbeat_ms",
                    i64::try_from(hb).unwrap_or(i64::MAX),
                    1,
                    top as i64,
                ));
            }
        }
        if let Some(d) = self.duplicate_submissions {
            if d.after_ms > MAX_MS {
                errs.push(ConfigError::int_range(
                    "duplicate_submissions.after_ms",
                    i64::try_from(d.after_ms).unwrap_or(i64::MAX),
                    0,
                    MAX_MS as i64,
                ));
            }
        }
    }
}

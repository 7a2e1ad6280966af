//! From the file's typed form ([`SimConfigFile`]) to the engine's [`SimConfig`]: every number
//! checked against its range ([`limits`](crate::domain::sim::setup::limits)), section by
//! section in the file's order, then [`SimConfig::validate`]'s cross-field checks.

use super::{
    ArrivalsFile, BackoffFile, ClaimFile, DistFile, DownstreamFile, FailureFile, IntakeFile,
    KindFile, PatternFile, SimConfigFile, WorkersFile,
};
use crate::domain::sim::core::backoff::{BackoffPolicy, Growth, Jitter};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::Retention;
use crate::domain::sim::setup::config::{
    Arrivals, ClaimStrategy, Downstream, DuplicateSubmissions, DurationDist, Effect, ErrorClass,
    FailureModel, InWorkerRetry, Intake, JobKind, Pacing, Pattern, SimConfig, TokenBucket,
    WorkerSpec,
};
use crate::domain::sim::setup::error::ConfigError;
use crate::domain::sim::setup::limits::{
    MAX_ATTEMPTS, MAX_BURST, MAX_EFFECT_AMOUNT, MAX_EVENTS, MAX_JOBS, MAX_MS, MAX_WORKERS,
};

/// The findings so far; each check returns a stand-in value for a refused number.
struct Check(Vec<ConfigError>);

impl Check {
    fn int(&mut self, field: &str, v: i64, min: u64, max: u64) -> u64 {
        if v < 0 || (v as u64) < min || (v as u64) > max {
            self.0
                .push(ConfigError::int_range(field, v, min as i64, max as i64));
            min
        } else {
            v as u64
        }
    }

    /// A side effect's amount: within ±[`MAX_EFFECT_AMOUNT`] (0 stands in for a refused one).
    fn amount(&mut self, field: &str, v: i64) -> i64 {
        if v.unsigned_abs() > MAX_EFFECT_AMOUNT {
            self.0
                .push(crate::domain::sim::setup::config::effect_amount_range(
                    field, v,
                ));
            0
        } else {
            v
        }
    }

    fn ms(&mut self, field: &str, v: i64) -> u64 {
        self.int(field, v, 0, MAX_MS)
    }

    fn dist(&mut self, field: &str, d: &DistFile) -> DurationDist {
        match *d {
            DistFile::Fixed { ms } => DurationDist::Fixed {
                ms: self.ms(&format!("{field}.ms"), ms),
            },
            DistFile::Uniform { min_ms, max_ms } => DurationDist::Uniform {
                min_ms: self.ms(&format!("{field}.min_ms"), min_ms),
                max_ms: self.ms(&format!("{field}.max_ms"), max_ms),
            },
            DistFile::Exponential { mean_ms } => DurationDist::Exponential {
                mean_ms: self.int(&format!("{field}.mean_ms"), mean_ms, 1, MAX_MS) as f64,
            },
            DistFile::Lognormal { p50_ms, p95_ms } => DurationDist::LogNormal {
                p50_ms: self.int(&format!("{field}.p50_ms"), p50_ms, 1, MAX_MS) as f64,
                p95_ms: self.int(&format!("{field}.p95_ms"), p95_ms, 1, MAX_MS) as f64,
            },
        }
    }

    fn backoff(&mut self, field: &str, b: &BackoffFile) -> BackoffPolicy {
        BackoffPolicy {
            base: SimDuration::from_ms(self.ms(&format!("{field}.base_ms"), b.base_ms)),
            cap: SimDuration::from_ms(self.ms(&format!("{field}.cap_ms"), b.cap_ms)),
            growth: b.growth.unwrap_or(Growth::Fixed),
            jitter: b.jitter.unwrap_or(Jitter::None),
        }
    }
}

impl Check {
    /// Kind `i` of the file.
    fn kind(&mut self, i: usize, k: &KindFile) -> JobKind {
        let f = |n: &str| format!("kinds[{i}].{n}");
        let failure = match k.failure.clone().unwrap_or(FailureFile::Never) {
            FailureFile::Never => FailureModel::Never,
            FailureFile::FirstRuns { k: n } => FailureModel::FirstRuns {
                k: self.int(&f("failure.k"), n, 0, MAX_ATTEMPTS) as u32,
            },
            FailureFile::Probability { p } => FailureModel::Probability { p },
            FailureFile::Always => FailureModel::Always,
        };
        JobKind {
            name: k.name.clone(),
            max_attempts: self.int(&f("max_attempts"), k.max_attempts, 1, MAX_ATTEMPTS) as u32,
            duration: k
                .duration
                .as_ref()
                .map_or(DurationDist::Fixed { ms: 0 }, |d| {
                    self.dist(&f("duration"), d)
                }),
            failure,
            error: k.error.clone().unwrap_or_else(|| "error".into()),
            error_class: k.error_class.unwrap_or(ErrorClass::Retryable),
            effect: k.effect.as_ref().map(|e| Effect {
                amount: self.amount(&f("effect.amount"), e.amount),
                idempotency_key: e.idempotency_key.clone(),
            }),
            calls_downstream: k.calls_downstream,
        }
    }

    /// Arrivals `i` of the file, of one of `kinds` kinds.
    fn arrivals(&mut self, i: usize, a: &ArrivalsFile, kinds: usize) -> Arrivals {
        let f = |n: &str| format!("arrivals[{i}].{n}");
        let pattern = match &a.pattern {
            PatternFile::Burst { count, at_ms } => Pattern::Burst {
                count: self.int(&f("pattern.count"), *count, 0, MAX_JOBS),
                at_ms: self.ms(&f("pattern.at_ms"), *at_ms),
            },
            PatternFile::Poisson { rate_per_s, count } => Pattern::Poisson {
                rate_per_s: *rate_per_s,
                count: self.int(&f("pattern.count"), *count, 0, MAX_JOBS),
            },
            PatternFile::Times { at_ms } => {
                if at_ms.len() as u64 > MAX_JOBS {
                    self.0.push(ConfigError::int_range(
                        &f("pattern.at_ms"),
                        i64::try_from(at_ms.len()).unwrap_or(i64::MAX),
                        0,
                        MAX_JOBS as i64,
                    ));
                }
                Pattern::Times {
                    at_ms: at_ms
                        .iter()
                        .take(MAX_JOBS as usize)
                        .enumerate()
                        .map(|(j, &t)| self.ms(&f(&format!("pattern.at_ms[{j}]")), t))
                        .collect(),
                }
            }
        };
        // The kinds defined are the range; with none, `validate` says that instead.
        let kind = match kinds {
            0 => 0,
            n => self.int(&f("kind"), a.kind, 0, n as u64 - 1) as usize,
        };
        Arrivals { kind, pattern }
    }

    /// The workers: `count` alike workers.
    fn workers(&mut self, w: &WorkersFile) -> Vec<WorkerSpec> {
        let count = self.int("workers.count", w.count, 0, MAX_WORKERS);
        let poll = self.ms("workers.poll_ms", w.poll_ms.unwrap_or(50));
        let restart = w
            .restart_after_ms
            .map(|r| self.ms("workers.restart_after_ms", r));
        if !(0.0..=1.0).contains(&w.crash_probability) {
            self.0.push(ConfigError::range(
                "workers.crash_probability",
                w.crash_probability,
                0.0,
                1.0,
            ));
        }
        (0..count as usize)
            .map(|i| WorkerSpec {
                crash_probability: w.crash_probability.clamp(0.0, 1.0),
                restart_after: restart.map(SimDuration::from_ms),
                ..WorkerSpec::new(WorkerSpec::default_name(i), poll)
            })
            .collect()
    }

    /// The claim strategy (left out: atomic).
    fn claim(&mut self, claim: Option<ClaimFile>) -> ClaimStrategy {
        match claim.unwrap_or(ClaimFile::Atomic) {
            ClaimFile::Atomic => ClaimStrategy::Atomic,
            ClaimFile::TwoStatement { gap_ms } => ClaimStrategy::TwoStatement {
                gap: SimDuration::from_ms(self.ms("claim.gap_ms", gap_ms.unwrap_or(1))),
            },
            ClaimFile::ForUpdate { lock_timeout_ms } => ClaimStrategy::ForUpdate {
                lock_timeout: lock_timeout_ms
                    .map(|t| SimDuration::from_ms(self.ms("claim.lock_timeout_ms", t))),
            },
            ClaimFile::Nowait => ClaimStrategy::Nowait,
            ClaimFile::SkipLocked => ClaimStrategy::SkipLocked,
        }
    }

    /// The downstream system.
    fn downstream(&mut self, d: &DownstreamFile) -> Downstream {
        Downstream {
            capacity: self.int("downstream.capacity", d.capacity, 0, MAX_WORKERS) as u32,
            latency: self.dist("downstream.latency", &d.latency),
            refusal: SimDuration::from_ms(self.ms("downstream.refusal_ms", d.refusal_ms)),
            rate_limit: d.rate_limit.as_ref().map(|r| TokenBucket {
                rate_per_s: r.rate_per_s,
                burst: self.int("downstream.rate_limit.burst", r.burst, 1, MAX_BURST) as u32,
            }),
            outage: d.outage.as_ref().map(|o| {
                (
                    SimTime::from_ms(self.ms("downstream.outage.from_ms", o.from_ms)),
                    SimTime::from_ms(self.ms("downstream.outage.until_ms", o.until_ms)),
                )
            }),
            failure_p: 0.0,
        }
    }

    /// How submissions enter.
    fn intake(&mut self, i: &IntakeFile) -> Intake {
        match *i {
            IntakeFile::Queue {
                publish_failure,
                fallback_calls,
            } => Intake::Queue {
                publish_failure,
                fallback_calls: self.int("intake.fallback_calls", fallback_calls, 0, MAX_ATTEMPTS)
                    as u32,
            },
            IntakeFile::Direct { calls } => Intake::Direct {
                calls: self.int("intake.calls", calls, 1, MAX_ATTEMPTS) as u32,
            },
        }
    }

    /// The range findings, then the cross-field ones: `cfg` when there are none.
    fn finish(self, cfg: SimConfig) -> Result<SimConfig, Vec<ConfigError>> {
        let mut errs = self.0;
        if errs.is_empty() {
            errs = cfg.validate();
        } else {
            // Cross-field checks still run so that every finding is reported at once, except
            // those about a field already refused (its stand-in value would mislead: a refused
            // worker count must not also read as "no workers", nor a refused cap_ms as a
            // cap below its base).
            let refused: Vec<String> = errs.iter().map(|e| e.field().to_owned()).collect();
            errs.extend(cfg.validate().into_iter().filter(|e| {
                let about = |f: &String| {
                    f.strip_prefix(e.field())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                };
                !matches!(e, ConfigError::OutOfRange { .. }) && !refused.iter().any(about)
            }));
        }
        if errs.is_empty() {
            Ok(cfg)
        } else {
            Err(errs)
        }
    }
}

impl SimConfigFile {
    /// Converts to a [`SimConfig`], checking every field.
    ///
    /// # Errors
    /// Every finding (ranges first, then [`SimConfig::validate`]'s cross-field checks).
    pub fn into_config(self) -> Result<SimConfig, Vec<ConfigError>> {
        let mut c = Check(Vec::new());
        let mut cfg = SimConfig::empty(self.seed);
        cfg.kinds = (self.kinds.iter().enumerate())
            .map(|(i, k)| c.kind(i, k))
            .collect();
        let kinds = self.kinds.len();
        cfg.arrivals = (self.arrivals.iter().enumerate())
            .map(|(i, a)| c.arrivals(i, a, kinds))
            .collect();
        cfg.workers = c.workers(&self.workers);
        cfg.claim = c.claim(self.claim.clone());
        if let Some(l) = self.lease_ms {
            cfg.lease = SimDuration::from_ms(c.int("lease_ms", l, 1, MAX_MS));
        }
        if let Some(r) = &self.retry {
            cfg.retry = c.backoff("retry", r);
        }
        cfg.classify_errors = self.classify_errors;
        if let Some(r) = &self.in_worker_retry {
            cfg.in_worker_retry = Some(InWorkerRetry {
                max_retries: c.int(
                    "in_worker_retry.max_retries",
                    r.max_retries,
                    0,
                    MAX_ATTEMPTS,
                ) as u32,
                backoff: c.backoff("in_worker_retry.backoff", &r.backoff),
            });
        }
        if let Some(d) = &self.downstream {
            cfg.downstream = Some(c.downstream(d));
        }
        if let Some(i) = &self.intake {
            cfg.intake = c.intake(i);
        }
        self.run_limits(&mut c, &mut cfg);
        c.finish(cfg)
    }

    /// The run's limits, its log, its series bucket and its row retention.
    fn run_limits(&self, c: &mut Check, cfg: &mut SimConfig) {
        if let Some(l) = &self.limits {
            if let Some(e) = l.max_events {
                cfg.limits.max_events = c.int("limits.max_events", e, 1, MAX_EVENTS);
            }
            if let Some(t) = l.max_time_ms {
                cfg.limits.max_time = SimTime::from_ms(c.int("limits.max_time_ms", t, 1, MAX_MS));
            }
        }
        cfg.log = self.log;
        if let Some(b) = self.series_bucket_ms {
            cfg.series_bucket = SimDuration::from_ms(c.int("series_bucket_ms", b, 1, MAX_MS));
        }
        if let Some(n) = self.keep_rows {
            cfg.retention = Retention::FirstRows(c.int("keep_rows", n, 0, MAX_JOBS));
        }
        self.lease_options(c, cfg);
    }

    /// The lease and delivery options (`heartbeat_ms`'s bound by the lease is checked by
    /// [`SimConfig::validate`]).
    fn lease_options(&self, c: &mut Check, cfg: &mut SimConfig) {
        if let Some(r) = self.expired_on_last_attempt {
            cfg.expired_on_last_attempt = r;
        }
        cfg.owner_check = self.owner_check;
        if let Some(hb) = self.heartbeat_ms {
            cfg.heartbeat_ms = Some(c.int("heartbeat_ms", hb, 1, MAX_MS));
        }
        if let Some(a) = self.ack {
            cfg.ack = a;
        }
        if let Some(p) = self.crash_point {
            cfg.crash_point = p;
        }
        if let Some(d) = &self.duplicate_submissions {
            cfg.duplicate_submissions = Some(DuplicateSubmissions {
                after_ms: c.ms("duplicate_submissions.after_ms", d.after_ms),
            });
        }
        // Its rate is checked with the other rates by `SimConfig::validate`.
        cfg.pacing = self.pacing.as_ref().map(|p| Pacing {
            rate_per_s: p.rate_per_s,
        });
    }
}

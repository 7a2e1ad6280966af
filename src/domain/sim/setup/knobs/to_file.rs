//! "Your settings" as a config file ([`CustomRun::to_file`]): what the worker runs and what
//! "Download config JSON" saves, so the CLI runs the same thing.

use super::*;
use crate::domain::sim::setup::config_file::{
    ArrivalsFile, BackoffFile, DistFile, DownstreamFile, DuplicatesFile, EffectFile, FailureFile,
    KindFile, OutageFile, PacingFile, PatternFile, RateLimitFile, SimConfigFile, WorkersFile,
};

impl CustomRun {
    /// The config file of this run with `seed`: what the browser runs and what
    /// "Download config JSON" saves. Call [`CustomRun::validate`] first; values it would refuse
    /// are passed through and refused again by [`SimConfigFile::into_config`].
    pub fn to_file(&self, seed: u64) -> SimConfigFile {
        let ms = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        let (a, b) = (ms(self.duration_ms), ms(self.duration_hi_ms));
        let duration = match self.duration {
            DurationMode::None => DistFile::Fixed { ms: 0 },
            DurationMode::Fixed => DistFile::Fixed { ms: a },
            DurationMode::Uniform => DistFile::Uniform {
                min_ms: a,
                max_ms: b,
            },
            DurationMode::Exponential => DistFile::Exponential { mean_ms: a },
            DurationMode::Lognormal => DistFile::Lognormal {
                p50_ms: a,
                p95_ms: b,
            },
        };
        let failure = match self.failure {
            FailureMode::Probability if self.failure_percent == 0 => FailureFile::Never,
            FailureMode::Probability => FailureFile::Probability {
                p: self.failure_percent as f64 / 100.0,
            },
            FailureMode::FirstRuns => FailureFile::FirstRuns {
                k: ms(self.fail_first),
            },
        };
        let error = match self.error_class {
            ErrorClass::Retryable => self.retryable_error.clone(),
            ErrorClass::Permanent => self.permanent_error.clone(),
        };
        let pattern = match self.arrivals {
            ArrivalMode::Burst => PatternFile::Burst {
                count: ms(self.jobs),
                at_ms: ms(self.burst_at_ms),
            },
            ArrivalMode::Poisson => PatternFile::Poisson {
                rate_per_s: self.rate_per_s as f64,
                count: ms(self.jobs),
            },
        };
        let downstream = self.downstream.then(|| DownstreamFile {
            capacity: ms(self.capacity),
            latency: DistFile::Fixed {
                ms: ms(self.call_ms),
            },
            refusal_ms: 20,
            rate_limit: (self.rate_limit_per_s > 0).then(|| RateLimitFile {
                rate_per_s: self.rate_limit_per_s as f64,
                burst: ms(self.burst()),
            }),
            outage: (self.outage_for_ms > 0).then(|| OutageFile {
                from_ms: ms(self.outage_from_ms),
                until_ms: ms(self.outage_from_ms.saturating_add(self.outage_for_ms)),
            }),
        });
        SimConfigFile {
            seed,
            kinds: vec![KindFile {
                name: "job".into(),
                max_attempts: i64::from(self.max_attempts),
                duration: Some(duration),
                failure: Some(failure),
                error: Some(if self.downstream {
                    "busy".into()
                } else {
                    error
                }),
                error_class: Some(self.error_class),
                effect: Some(EffectFile {
                    amount: EFFECT_AMOUNT,
                    idempotency_key: self
                        .idempotency_key
                        .then(|| self.key_from.template().into()),
                }),
                calls_downstream: self.downstream,
            }],
            arrivals: vec![ArrivalsFile { kind: 0, pattern }],
            workers: WorkersFile {
                count: i64::from(self.workers),
                poll_ms: Some(0),
                crash_probability: self.crash_percent as f64 / 100.0,
                restart_after_ms: (self.crash_percent > 0).then_some(RESTART_MS as i64),
            },
            claim: None,
            lease_ms: Some(ms(self.lease_ms)),
            retry: Some(BackoffFile {
                base_ms: ms(self.base_ms),
                cap_ms: ms(self.cap_ms),
                growth: Some(self.growth),
                jitter: Some(self.jitter),
            }),
            classify_errors: self.classify_errors,
            in_worker_retry: None,
            downstream,
            intake: None,
            limits: None,
            log: self.jobs <= LOG_JOBS,
            series_bucket_ms: None,
            keep_rows: None,
            expired_on_last_attempt: None,
            owner_check: self.owner_check,
            heartbeat_ms: (self.heartbeat_ms > 0).then_some(ms(self.heartbeat_ms)),
            ack: (self.ack != Ack::After).then_some(self.ack),
            crash_point: (self.crash_percent > 0 && self.crash_point != CrashPoint::AfterEffect)
                .then_some(self.crash_point),
            duplicate_submissions: (self.duplicate_after_ms > 0).then(|| DuplicatesFile {
                after_ms: ms(self.duplicate_after_ms),
            }),
            // The limiter paces the downstream calls: none without a downstream.
            pacing: self
                .our_limit_per_s
                .filter(|_| self.downstream)
                .map(|r| PacingFile {
                    rate_per_s: r as f64,
                }),
        }
    }
}

//! The engine's downstream and direct submissions: calls and their answers (capacity "busy",
//! token-bucket rate limit, outage window, latency), in-worker retries, the calls series, and
//! submissions that call the downstream directly or fall back to it (source document `003`, `docs/DOMAIN.md`
//! §4).

use super::*;

impl Simulation {
    pub(super) fn owner_live(&self, owner: Owner, token: u64) -> bool {
        match owner {
            Owner::Worker(w) => self.workers[w].token == token,
            Owner::Submission(_) => true,
        }
    }

    /// Adds one downstream answer to [`Simulation::calls_series`].
    pub(super) fn count_answer(&mut self, result: CallResult) {
        let col = match result {
            CallResult::Ok => 0,
            CallResult::Busy => 1,
            CallResult::RateLimited | CallResult::Unavailable => 2,
        };
        let mut i = self.now.0 / self.calls_bucket.0.max(1);
        while i >= MAX_SERIES_POINTS as u64 {
            let merged = self
                .calls_series
                .chunks(2)
                .map(|c| {
                    c.iter()
                        .fold([0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]])
                })
                .collect();
            self.calls_series = merged;
            self.calls_bucket = SimDuration(self.calls_bucket.0.max(1).saturating_mul(2));
            i = self.now.0 / self.calls_bucket.0;
        }
        let i = i as usize;
        if self.calls_series.len() <= i {
            self.calls_series.resize(i + 1, [0; 3]);
        }
        self.calls_series[i][col] += 1;
    }

    pub(super) fn open_submission(&mut self, kind: KindId, max_calls: u32) {
        let s = self.subs.len();
        self.subs.push(Submission {
            calls: 0,
            max_calls,
            prev_wait: None,
        });
        let calls_downstream = self.cfg.kinds[kind.0 as usize].calls_downstream;
        if max_calls == 0 {
            self.counters.failed_to_user += 1;
            self.say(None, None, LogEvent::SubmissionFailed { n: s as u32 + 1 });
        } else if !calls_downstream {
            self.counters.accepted += 1;
        } else {
            self.subs_open += 1;
            self.call(Owner::Submission(s));
        }
    }

    pub(super) fn refill(&mut self, d: &Downstream) {
        if let Some(tb) = d.rate_limit {
            let dt = self.now.since(self.bucket_at).0 as f64 / 1e6;
            self.bucket_tokens = (self.bucket_tokens + dt * tb.rate_per_s).min(f64::from(tb.burst));
            self.bucket_at = self.now;
        }
    }

    /// A worker's call through our own limiter ([`SimConfig::pacing`]): it goes out at once
    /// when its slot has come, else waits for its slot (the worker holds the job meanwhile).
    /// Slots are `1 / rate` apart; a submission's direct call is not paced.
    pub(super) fn paced_call(&mut self, owner: Owner, token: u64) {
        if let (Some(p), Owner::Worker(_)) = (self.cfg.pacing, owner) {
            let interval = SimDuration(((1e6 / p.rate_per_s).round() as u64).max(1));
            let slot = self.pace_next.max(self.now);
            self.pace_next = slot.plus(interval);
            if slot > self.now {
                self.queue.schedule(slot, Ev::PacedCall { owner, token });
                return;
            }
        }
        self.call(owner);
    }

    pub(super) fn call(&mut self, owner: Owner) {
        let Some(d) = self.cfg.downstream else {
            return;
        };
        self.counters.calls += 1;
        match owner {
            Owner::Worker(w) => {
                if let WState::Running(run) = &mut self.workers[w].state {
                    run.calls += 1;
                }
            }
            Owner::Submission(s) => self.subs[s].calls += 1,
        }
        self.refill(&d);
        let result = if d.outage.is_some_and(|(a, b)| a <= self.now && self.now < b) {
            CallResult::Unavailable
        } else if d.rate_limit.is_some() && self.bucket_tokens < 1.0 {
            CallResult::RateLimited
        } else if d.capacity > 0 && self.in_flight >= d.capacity {
            CallResult::Busy
        } else if d.failure_p > 0.0 && self.rng.chance(d.failure_p) {
            CallResult::Unavailable
        } else {
            CallResult::Ok
        };
        if d.rate_limit.is_some() && result != CallResult::Unavailable && self.bucket_tokens >= 1.0
        {
            self.bucket_tokens -= 1.0;
        }
        let after = if result == CallResult::Ok {
            self.in_flight += 1;
            self.sample_duration(d.latency)
        } else {
            d.refusal
        };
        let token = match owner {
            Owner::Worker(w) => self.workers[w].token,
            Owner::Submission(_) => 0,
        };
        self.queue.schedule(
            self.now.plus(after),
            Ev::Reply {
                owner,
                token,
                result,
            },
        );
    }

    pub(super) fn reply(&mut self, owner: Owner, result: CallResult) {
        match result {
            CallResult::Ok => self.counters.calls_ok += 1,
            CallResult::Busy => self.counters.calls_busy += 1,
            CallResult::RateLimited => self.counters.calls_rate_limited += 1,
            CallResult::Unavailable => self.counters.calls_unavailable += 1,
        }
        self.count_answer(result);
        let retry = self.cfg.in_worker_retry;
        match owner {
            Owner::Submission(s) => {
                let n = s + 1;
                if result == CallResult::Ok {
                    self.counters.accepted += 1;
                    self.subs_open -= 1;
                    self.say(None, None, LogEvent::SubmissionAccepted { n: n as u32 });
                    return;
                }
                let sub = self.subs[s].clone();
                if sub.calls < sub.max_calls {
                    let wait = retry.map_or(SimDuration::ZERO, |r| {
                        r.backoff.wait(sub.calls - 1, sub.prev_wait, &mut self.rng)
                    });
                    self.subs[s].prev_wait = Some(wait);
                    self.say(
                        None,
                        None,
                        LogEvent::SubmissionRetry {
                            n: n as u32,
                            result,
                            wait,
                        },
                    );
                    self.queue
                        .schedule(self.now.plus(wait), Ev::Call { owner, token: 0 });
                } else {
                    self.counters.failed_to_user += 1;
                    self.subs_open -= 1;
                    self.say(
                        None,
                        None,
                        LogEvent::SubmissionGaveUp {
                            n: n as u32,
                            result,
                        },
                    );
                }
            }
            Owner::Worker(w) => {
                let WState::Running(run) = self.workers[w].state else {
                    return;
                };
                if result == CallResult::Ok {
                    self.say(
                        Some(w),
                        Some((run.job, run.attempt)),
                        LogEvent::DownstreamOk,
                    );
                    self.succeed(w, run);
                    return;
                }
                let err = match result {
                    CallResult::RateLimited => self.call_errors[1],
                    CallResult::Unavailable => self.call_errors[2],
                    _ => self.call_errors[0],
                };
                match retry {
                    Some(r) if run.calls <= r.max_retries => {
                        let wait = r.backoff.wait(run.calls - 1, run.prev_wait, &mut self.rng);
                        if let WState::Running(run) = &mut self.workers[w].state {
                            run.prev_wait = Some(wait);
                        }
                        self.say(
                            Some(w),
                            Some((run.job, run.attempt)),
                            LogEvent::InWorkerRetry { result, wait },
                        );
                        let token = self.workers[w].token;
                        self.queue
                            .schedule(self.now.plus(wait), Ev::Call { owner, token });
                    }
                    _ => self.fail(w, run, err, ErrorClass::Retryable),
                }
            }
        }
    }
}

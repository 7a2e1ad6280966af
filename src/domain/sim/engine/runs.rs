//! A job's way through the general path: an arrival's submissions, a worker going idle or
//! woken, the start of a run (its duration drawn), its end (success with the side effect and
//! a possible crash, or failure with its retry or dead letter), and the worker's next claim.
//! The claim statements themselves are in `claims`, downstream calls in `downstream`.

use super::*;
use crate::domain::sim::results::log::fill_key;

impl Simulation {
    /// A run's duration drawn from `d` (µs; an exponential one with its scale computed once is
    /// drawn in `begin_run` instead). Kept out of line: most configs never call it per event.
    #[inline(never)]
    pub(super) fn sample_duration(&mut self, d: DurationDist) -> SimDuration {
        SimDuration(match d {
            DurationDist::Fixed { ms } => ms.saturating_mul(1_000),
            DurationDist::Uniform { min_ms, max_ms } => self
                .rng
                .uniform_u64(min_ms.saturating_mul(1_000), max_ms.saturating_mul(1_000)),
            DurationDist::Exponential { mean_ms } => round_us(self.rng.exponential(mean_ms * 1e3)),
            DurationDist::LogNormal { p50_ms, p95_ms } => {
                let mu = libm::log(p50_ms * 1e3);
                let sigma = (libm::log(p95_ms * 1e3) - mu) / 1.644_853_626_951_472_2;
                round_us(self.rng.lognormal(mu, sigma))
            }
        })
    }

    pub(super) fn arrive(&mut self, stream: usize) {
        let (kind, shape) = (self.streams[stream].kind, self.streams[stream].shape);
        let batch = match shape {
            Shape::Burst { count } => count,
            Shape::Poisson { .. } | Shape::Times => 1,
        };
        for _ in 0..batch {
            self.streams[stream].produced += 1;
            let n = self.streams[stream].produced;
            self.submit(kind, n);
        }
        let produced = self.streams[stream].produced;
        let next = match shape {
            Shape::Poisson { count, gap } => (produced < count).then(|| {
                self.now
                    .plus(SimDuration(round_us(self.rng.exponential_with(gap))))
            }),
            Shape::Times => usize::try_from(produced)
                .ok()
                .and_then(|i| self.streams[stream].times.get(i))
                .map(|&t| SimTime::from_ms(t).max(self.now)),
            Shape::Burst { .. } => None,
        };
        match next {
            Some(t) => self.heads[stream] = key(t, self.queue.take_seq()),
            None => self.streams_open = self.streams_open.saturating_sub(1),
        }
    }

    pub(super) fn submit(&mut self, kind: KindId, n: u64) {
        match self.cfg.intake {
            Intake::Queue {
                publish_failure,
                fallback_calls,
            } => {
                if !self.plain && publish_failure > 0.0 && self.rng.chance(publish_failure) {
                    self.counters.fallbacks += 1;
                    self.say(None, None, LogEvent::SubmissionFallback { n: n as u32 });
                    self.open_submission(kind, fallback_calls);
                } else {
                    self.enqueue_request(kind, n, false);
                }
            }
            Intake::Direct { calls } => self.open_submission(kind, calls),
        }
    }

    pub(super) fn go_idle(&mut self, w: usize) {
        if self.plain {
            // Woken on work, not a probe.
            self.set_state(w, WState::Idle);
            self.idle.push_back(w);
            return;
        }
        if self.cfg.workers[w].probe {
            self.say(Some(w), None, LogEvent::NothingToClaim);
            self.set_state(w, WState::Finished);
            return;
        }
        self.set_state(w, WState::Idle);
        match self.cfg.workers[w].poll {
            Some(p) => {
                let token = self.workers[w].token;
                self.queue.schedule(self.now.plus(p), Ev::Poll { w, token });
            }
            None => self.idle.push_back(w),
        }
    }

    pub(super) fn maybe_wake(&mut self) {
        // Idle workers that are woken on work claim at once, longest idle first, while rows are
        // claimable (a claim that hits a row lock pauses that worker instead).
        while !self.idle.is_empty() && self.table.claimable_count(self.now) > 0 {
            let Some(w) = self.idle.pop_front() else {
                break;
            };
            self.workers[w].token += 1;
            self.poll(w);
        }
        self.schedule_wake();
    }

    /// While some worker is idle: a wake-up at the earliest instant a row becomes claimable,
    /// unless one is already due by then.
    #[inline(always)]
    pub(super) fn schedule_wake(&mut self) {
        if self.idle.is_empty() {
            return;
        }
        if let Some(t) = self.table.next_claimable_at() {
            if t > self.now
                && t < SimTime::MAX
                && self.wake_at.is_none_or(|x| t < x || x <= self.now)
            {
                self.wake_at = Some(t);
                self.queue.schedule(t, Ev::Wake);
            }
        }
    }

    pub(super) fn begin_run(&mut self, w: usize, row: Claimed) {
        let id = row.id;
        let attempt = row.attempts;
        self.workers[w].claims += 1;
        if self.workers[w].first_claim.is_none() {
            self.workers[w].first_claim = Some(id);
        }
        let idx = (id.0 - 1) as usize;
        self.info.claimed(idx, self.now.since(row.enqueued_at));
        if self.cfg.log {
            let how = match self.cfg.claim {
                ClaimStrategy::Atomic => ClaimHow::Atomic,
                ClaimStrategy::TwoStatement { .. } => ClaimHow::ById,
                ClaimStrategy::ForUpdate { .. } => ClaimHow::ForUpdate,
                ClaimStrategy::Nowait => ClaimHow::Nowait,
                ClaimStrategy::SkipLocked => ClaimHow::SkipLocked,
            };
            self.write_log(Some(w), Some((id, attempt)), LogEvent::Claimed(how));
        }
        if !self.plain && self.cfg.workers[w].probe {
            // The probe's claim starts no run.
            self.table.end_run(id);
            if self.cfg.claim.holds_row_lock() {
                self.say(Some(w), Some((id, attempt)), LogEvent::ProbeRollback);
                self.unlock(id, true);
            }
            self.set_state(w, WState::Finished);
            return;
        }
        self.workers[w].token += 1;
        self.counters.runs += 1;
        self.info.ran(idx);
        let run = Run {
            job: id,
            kind: row.kind,
            attempt,
            calls: 0,
            prev_wait: None,
            ordinal: self.info.runs(idx),
        };
        self.set_state(w, WState::Running(run));
        let k = row.kind.0 as usize;
        self.run_started(w, &row, self.cfg.kinds[k].max_attempts);
        let kind = &self.cfg.kinds[k];
        let (dist, calls) = (kind.duration, kind.calls_downstream);
        let d = match self.run_scales.get(k) {
            Some(&Some(scale)) => SimDuration(round_us(self.rng.exponential_with(scale))),
            _ => self.sample_duration(dist),
        };
        let token = self.workers[w].token;
        let at = self.now.plus(d);
        if !self.plain && calls {
            self.queue.schedule(
                at,
                Ev::Call {
                    owner: Owner::Worker(w),
                    token,
                },
            );
        } else {
            self.queue.schedule(at, Ev::WorkDone { w, token });
        }
    }

    pub(super) fn work_done(&mut self, w: usize) {
        let WState::Running(run) = self.workers[w].state else {
            return;
        };
        if !self.failed_run(w, run) {
            self.succeed(w, run);
        }
    }

    /// Whether `run` failed, by its kind's failure model (drawing from the RNG for a
    /// probability; `FirstRuns` by the run's number counted when it started); a failed run is handed to [`Simulation::fail`] with its kind's error.
    #[inline(always)]
    pub(super) fn failed_run(&mut self, w: usize, run: Run) -> bool {
        let k = run.kind.0 as usize;
        let failed = match self.cfg.kinds[k].failure {
            FailureModel::Never => false,
            FailureModel::FirstRuns { k: n } => run.ordinal <= n,
            FailureModel::Probability { p } => self.rng.chance(p),
            FailureModel::Always => true,
        };
        if failed {
            let class = self.cfg.kinds[k].error_class;
            self.fail(w, run, self.kind_error[k], class);
        }
        failed
    }

    pub(super) fn succeed(&mut self, w: usize, run: Run) {
        let idx = (run.job.0 - 1) as usize;
        let job = (run.job, run.attempt);
        // (Only the general path gets here: a plain config's runs end in `plain::run_ended`,
        // which records the success and `complete` in one row lookup.)
        self.table.end_run(run.job);
        if self.table.mark_succeeded(run.job) {
            self.counters.duplicate_runs += 1;
        }
        if self.effect_then_crash(w, run, run.kind.0 as usize) {
            return;
        }
        if self.cfg.ack == Ack::Before {
            // Acknowledged at the claim: nothing left to complete.
            self.say(Some(w), Some(job), LogEvent::Done);
            self.after_run(w);
            return;
        }
        if !self.owner_allows(w, run, Finish::Complete) {
            if self.cfg.claim.holds_row_lock() {
                self.unlock(run.job, false);
            }
            self.after_run(w);
            return;
        }
        let mut was_dead = false;
        if let Some(c) = self.table.complete_run(run.job, false) {
            self.info.done(idx, self.now.since(c.enqueued_at));
            was_dead = c.was == Status::Dead;
        }
        self.say(Some(w), Some(job), LogEvent::Done);
        if was_dead {
            self.completed_after_dead(w, run);
        }
        if self.cfg.claim.holds_row_lock() {
            self.unlock(run.job, false);
        }
        self.after_run(w);
    }

    /// The side effect of a successful run (if its kind has one), then the worker's crash
    /// before `complete` (with its probability). Returns `true` when the worker crashed.
    pub(super) fn effect_then_crash(&mut self, w: usize, run: Run, kind: usize) -> bool {
        if self.cfg.crash_point == CrashPoint::BeforeEffect && self.crash(w, run, true) {
            return true;
        }
        let idx = (run.job.0 - 1) as usize;
        let job = (run.job, run.attempt);
        if let Some(effect) = self.cfg.kinds[kind].effect.clone() {
            let key = effect
                .idempotency_key
                .map(|t| fill_key(&t, u64::from(self.info.arrival_no(idx)), run.job.0));
            match key {
                Some(key) if self.keys.contains(&key) => {
                    self.counters.prevented_by_key += 1;
                    let event = LogEvent::KeyRejected {
                        arrival: self.info.arrival_no(idx),
                        balance: self.balance,
                    };
                    self.say(Some(w), Some(job), event);
                }
                key => {
                    if let Some(key) = key {
                        self.keys.insert(key);
                    }
                    let before = self.balance;
                    self.balance = self.balance.saturating_add(effect.amount);
                    // A duplicate: this job's effect was applied before, or (the same request
                    // submitted twice) this request's, by another row.
                    let again_row = self.table.mark_effected(run.job);
                    let again = match self.cfg.duplicate_submissions {
                        Some(_) => !self.effected_requests.insert(self.info.arrival_no(idx)),
                        None => again_row,
                    };
                    if again {
                        self.counters.duplicate_effects += 1;
                    }
                    self.say(Some(w), Some(job), LogEvent::SideEffect { before });
                }
            }
        }
        self.cfg.crash_point == CrashPoint::AfterEffect && self.crash(w, run, false)
    }

    /// Worker `w`'s crash during `run` (with its probability, drawn from the RNG): the worker
    /// goes down (to restart later, if it does), its row lock rolls back; a job acknowledged
    /// before the work is lost when the crash came `before_work` (before the side effect;
    /// after it the work was done, only the acknowledgement was early). Returns `true` when
    /// it crashed.
    fn crash(&mut self, w: usize, run: Run, before_work: bool) -> bool {
        let job = (run.job, run.attempt);
        let p = self.cfg.workers[w].crash_probability;
        if p > 0.0 && self.rng.chance(p) {
            self.counters.crashes += 1;
            self.say(Some(w), Some(job), LogEvent::Crash);
            if self.cfg.ack == Ack::Before && before_work {
                self.lost(w, run);
            }
            self.workers[w].token += 1;
            self.set_state(w, WState::Down);
            if self.cfg.claim.holds_row_lock() {
                self.unlock(run.job, true);
            }
            if let Some(r) = self.cfg.workers[w].restart_after {
                let token = self.workers[w].token;
                self.queue.schedule(self.now.plus(r), Ev::Poll { w, token });
            }
            return true;
        }
        false
    }

    pub(super) fn fail(&mut self, w: usize, run: Run, err: ErrorId, class: ErrorClass) {
        self.counters.failures += 1;
        self.table.end_run(run.job);
        let idx = (run.job.0 - 1) as usize;
        let job = (run.job, run.attempt);
        if !self.plain && self.cfg.ack == Ack::Before {
            // Acknowledged at the claim: no release, the job is gone.
            self.lost(w, run);
        } else if !self.owner_allows(w, run, Finish::Release) {
            // Refused: the row stays as the claim that holds it left it.
        } else if self.cfg.classify_errors && class == ErrorClass::Permanent {
            self.table.dead_letter(run.job, err);
            self.say(Some(w), Some(job), LogEvent::ErrorPermanent { err });
        } else {
            let n = run.attempt.saturating_sub(1);
            let wait = self
                .cfg
                .retry
                .wait(n, self.info.prev_wait(idx), &mut self.rng);
            self.info.set_prev_wait(idx, wait);
            match self
                .table
                .release(run.job, run.attempt, err, self.now, wait)
            {
                Some(Released::Queued { run_after }) => self.say(
                    Some(w),
                    Some(job),
                    LogEvent::ErrorQueued {
                        err,
                        until: run_after,
                    },
                ),
                Some(Released::Dead) => self.say(Some(w), Some(job), LogEvent::ErrorDead { err }),
                None => {}
            }
        }
        if !self.plain && self.cfg.claim.holds_row_lock() {
            self.unlock(run.job, false);
        }
        self.after_run(w);
    }

    pub(super) fn after_run(&mut self, w: usize) {
        self.workers[w].token += 1;
        if self.plain {
            // `poll` for a plain config (after a failed run; a successful one ends in
            // `plain::run_ended`).
            self.claim_next(w);
            return;
        }
        let limit = self.cfg.workers[w].max_claims;
        if !self.plain && limit.is_some_and(|m| self.workers[w].claims >= m) {
            self.set_state(w, WState::Finished);
            return;
        }
        // The worker loops straight into its next claim, as the source documents' `work_once` loop does
        // (`poll` sets it idle first).
        self.poll(w);
    }
}

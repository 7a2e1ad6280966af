//! What the engine counts and does about leases and delivery beyond the source documents'
//! four statements (issue 15, `docs/DOMAIN.md` §2): overlapping runs and claims past
//! `max_attempts` (counted and logged at a run's start), stale results (a `complete` or
//! `release` by a worker whose claim no longer holds the row: applied, or refused by the owner
//! check), a dead row completed late, the dead-letter rule's expiry line, heartbeats,
//! acknowledging before the work (a failed or crashed run then loses the job), and the same
//! request submitted twice.

use super::*;

impl Simulation {
    /// A run of `row` has just started on worker `w`: counts and logs an overlap and a claim
    /// past `max_attempts`; under the options, acknowledges the row at once (`ack: before`),
    /// schedules the first heartbeat and the lease's end (dead-letter rule).
    #[inline(always)]
    pub(super) fn run_started(&mut self, w: usize, row: &Claimed, max_attempts: u32) {
        let job = Some((row.id, row.attempts));
        if row.overlap {
            self.counters.overlapping_runs += 1;
            self.say(Some(w), job, LogEvent::Overlap);
        }
        if row.attempts > max_attempts {
            self.counters.claims_over_max += 1;
            self.say(Some(w), job, LogEvent::ClaimOverMax);
        }
        if self.plain {
            return;
        }
        self.lease_options_at_start(w, row);
    }

    #[inline(never)]
    fn lease_options_at_start(&mut self, w: usize, row: &Claimed) {
        if self.cfg.ack == Ack::Before {
            if let Some(c) = self.table.complete_run(row.id, false) {
                self.info
                    .done((row.id.0 - 1) as usize, self.now.since(c.enqueued_at));
            }
            self.say(Some(w), Some((row.id, row.attempts)), LogEvent::AckedEarly);
            if self.cfg.claim.holds_row_lock() {
                // The acknowledgement is committed before the work: a later crash cannot
                // roll it back.
                self.unlock(row.id, false);
            }
        }
        if let Some(hb) = self.cfg.heartbeat_ms {
            self.queue.schedule(
                self.now.plus(SimDuration::from_ms(hb)),
                Ev::Heartbeat {
                    w,
                    job: row.id,
                    attempt: row.attempts,
                },
            );
        }
        self.schedule_lease_end(row.id, self.now.plus(self.cfg.lease));
    }

    /// Under the dead-letter rule, an event at the lease's end `at`, so the expiry is logged
    /// when it happens (default runs schedule none: their events stay as they were).
    fn schedule_lease_end(&mut self, job: JobId, at: SimTime) {
        if self.cfg.expired_on_last_attempt == ExpiryRule::DeadLetter
            && !self.cfg.claim.holds_row_lock()
            && at < SimTime::MAX
        {
            self.queue.schedule(at, Ev::LeaseEnd { job });
        }
    }

    /// A lease may have ended: logs the row's expiry on its last attempt (dead-letter rule).
    pub(super) fn lease_end(&mut self, job: JobId) {
        if self.table.take_expired(job, self.now) {
            let attempt = self.table.row(job).map_or(0, |r| r.attempts);
            self.say(None, Some((job, attempt)), LogEvent::LeaseExpiredDead);
        }
    }

    /// Worker `w`'s heartbeat for its run of `job` (claimed as `attempt`): while that run goes
    /// on and its claim still holds the row, the lease is extended to `now + lease` and the
    /// next heartbeat scheduled; a crashed or finished run's heartbeats stop.
    pub(super) fn heartbeat(&mut self, w: usize, job: JobId, attempt: u32) {
        let live = matches!(self.workers[w].state,
            WState::Running(r) if r.job == job && r.attempt == attempt);
        if !live {
            return;
        }
        let until = self.now.plus(self.cfg.lease);
        if !self.table.extend_lease(job, attempt, self.now, until) {
            return;
        }
        self.counters.lease_renewals += 1;
        self.say(
            Some(w),
            Some((job, attempt)),
            LogEvent::LeaseRenewed { until },
        );
        self.schedule_lease_end(job, until);
        if let Some(hb) = self.cfg.heartbeat_ms {
            self.queue.schedule(
                self.now.plus(SimDuration::from_ms(hb)),
                Ev::Heartbeat { w, job, attempt },
            );
        }
    }

    /// Before worker `w`'s `complete` / `release` (`op`) of `run`: when its claim no longer
    /// holds the row ([`JobsTable::holds`]: another claim took it, or its lease ran out),
    /// counts and logs a stale result. Returns `false` when the owner check
    /// refuses it (the statement must not be applied).
    pub(super) fn owner_allows(&mut self, w: usize, run: Run, op: Finish) -> bool {
        if self.table.holds(run.job, run.attempt, self.now) {
            return true;
        }
        self.stale(w, run, op)
    }

    /// A stale result of worker `w`'s `run` (`op`): counted and logged; returns `false` when
    /// the owner check refuses it.
    #[inline(never)]
    pub(super) fn stale(&mut self, w: usize, run: Run, op: Finish) -> bool {
        self.counters.stale_results += 1;
        let refused = self.cfg.owner_check;
        self.say(
            Some(w),
            Some((run.job, run.attempt)),
            LogEvent::StaleResult { op, refused },
        );
        !refused
    }

    /// A `complete` found the row `dead`: counted and logged.
    pub(super) fn completed_after_dead(&mut self, w: usize, run: Run) {
        self.counters.completed_after_dead += 1;
        self.say(
            Some(w),
            Some((run.job, run.attempt)),
            LogEvent::CompletedAfterDead,
        );
    }

    /// A run acknowledged before the work (`ack: before`) failed or crashed: the job is lost.
    pub(super) fn lost(&mut self, w: usize, run: Run) {
        self.counters.lost_jobs += 1;
        self.say(Some(w), Some((run.job, run.attempt)), LogEvent::Lost);
    }

    /// Enqueues row for request `n` of `kind` (a submission published to the queue);
    /// `again`: the second submission of the same request.
    pub(super) fn enqueue_request(&mut self, kind: KindId, n: u64, again: bool) {
        let max = self.cfg.kinds[kind.0 as usize].max_attempts;
        // Brought up to `now` first, the table files the new row straight into its
        // ready set instead of its heap of later rows (same rows, fewer steps).
        self.table.refresh(self.now);
        let id = self.table.enqueue(kind, max, self.now);
        if id.0.is_multiple_of(SWEEP_EVERY) {
            self.sweep();
        }
        self.info.push(n);
        self.counters.accepted += 1;
        if again {
            self.say(None, Some((id, 0)), LogEvent::EnqueuedAgain);
            return;
        }
        self.say(None, Some((id, 0)), LogEvent::Enqueued);
        if let Some(d) = self.cfg.duplicate_submissions {
            self.resubmits_open += 1;
            self.queue.schedule(
                self.now.plus(SimDuration::from_ms(d.after_ms)),
                Ev::Resubmit { kind, n },
            );
        }
    }
}

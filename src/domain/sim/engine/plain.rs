//! The engine's hot path for plain configs ([`SimConfig::is_plain`]: atomic claims, workers
//! woken on work, no probes, claim limits, crashes, side effects, downstream calls or publish
//! failures): one event of [`Simulation::step`] with the run's end, the next claim and the
//! start of the next run written out in one piece instead of through the general handlers'
//! checks. It changes the same state in the same order — the same rows, statistics, events
//! (with the same sequence numbers) and random draws — so a plain run can continue on either
//! path at any step; `plain_configs_run_the_same_on_the_general_path` (tests/it/sim_props.rs)
//! compares both, step for step, over generated configs. A failed run (the rarer case) goes
//! through the general `fail`.

use super::*;

impl Simulation {
    /// [`Simulation::step`] for a plain config (the caller checked `self.plain`).
    #[inline(always)]
    pub(super) fn step_plain(&mut self) -> bool {
        match self.advance() {
            None => return false,
            Some(Next::Arrival(stream)) => self.arrival(stream),
            Some(Next::Event(Ev::WorkDone { w, token })) => {
                if self.workers[w].token == token {
                    self.run_ended(w);
                }
            }
            Some(Next::Event(Ev::Wake)) => self.wake_at = None,
            // A worker's start; no other event is scheduled for a plain config.
            Some(Next::Event(ev)) => self.apply(ev),
        }
        self.wake_idle();
        self.sample();
        true
    }

    /// Worker `w`'s run ended: `work_done`, `succeed` (no side effect, no crash) and
    /// `after_run` of the general path.
    #[inline(always)]
    fn run_ended(&mut self, w: usize) {
        let WState::Running(run) = self.workers[w].state else {
            return;
        };
        if self.failed_run(w, run) {
            return;
        }
        // A plain config has no owner check: a stale `complete` is counted and applied.
        if !self.table.end_run_holding(run.job, run.attempt, self.now) {
            self.stale(w, run, Finish::Complete);
        }
        let mut was_dead = false;
        if let Some(c) = self.table.complete_run(run.job, true) {
            if c.again {
                self.counters.duplicate_runs += 1;
            }
            was_dead = c.was == Status::Dead;
            self.info
                .done((run.job.0 - 1) as usize, self.now.since(c.enqueued_at));
        }
        self.say(Some(w), Some((run.job, run.attempt)), LogEvent::Done);
        if was_dead {
            self.completed_after_dead(w, run);
        }
        self.workers[w].token += 1;
        self.claim_next(w);
    }

    /// `poll` with the atomic claim, then `begin_run` or `go_idle`, for worker `w`.
    #[inline(always)]
    pub(super) fn claim_next(&mut self, w: usize) {
        let Some(row) = self.table.claim_run(self.now, self.cfg.lease) else {
            self.workers[w].state = WState::Idle;
            self.idle.push_back(w);
            return;
        };
        let (id, attempt) = (row.id, row.attempts);
        let idx = (id.0 - 1) as usize;
        let worker = &mut self.workers[w];
        worker.claims += 1;
        if worker.first_claim.is_none() {
            worker.first_claim = Some(id);
        }
        worker.token += 1;
        let token = worker.token;
        self.info.claimed(idx, self.now.since(row.enqueued_at));
        if self.cfg.log {
            self.write_log(
                Some(w),
                Some((id, attempt)),
                LogEvent::Claimed(ClaimHow::Atomic),
            );
        }
        self.counters.runs += 1;
        self.info.ran(idx);
        self.workers[w].state = WState::Running(Run {
            job: id,
            kind: row.kind,
            attempt,
            calls: 0,
            prev_wait: None,
            ordinal: self.info.runs(idx),
        });
        let k = row.kind.0 as usize;
        self.run_started(w, &row, self.cfg.kinds[k].max_attempts);
        let d = match self.run_scales.get(k) {
            Some(&Some(scale)) => SimDuration(round_us(self.rng.exponential_with(scale))),
            _ => self.sample_duration(self.cfg.kinds[k].duration),
        };
        self.queue
            .schedule(self.now.plus(d), Ev::WorkDone { w, token });
    }

    /// `maybe_wake` for woken workers claiming atomically.
    #[inline(always)]
    fn wake_idle(&mut self) {
        // (Idle first: `claimable_count` brings the table up to `now`, which the general path
        // does only while a worker is idle.)
        while !self.idle.is_empty() && self.table.claimable_count(self.now) > 0 {
            let Some(w) = self.idle.pop_front() else {
                break;
            };
            self.workers[w].token += 1;
            self.claim_next(w);
        }
        self.schedule_wake();
    }
}

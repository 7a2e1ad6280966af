//! The engine's claim strategies (`docs/DOMAIN.md` §2): the atomic claim, the two-statement claim
//! (select, then update by id: the race), PostgreSQL `FOR UPDATE` waiting with `lock_timeout`,
//! `NOWAIT` and `SKIP LOCKED`, with the row locks they hold until commit or rollback.

use super::*;

impl Simulation {
    pub(super) fn poll(&mut self, w: usize) {
        self.set_state(w, WState::Idle);
        let now = self.now;
        match self.cfg.claim {
            ClaimStrategy::Atomic => match self.table.claim_run(now, self.cfg.lease) {
                Some(row) => self.begin_run(w, row),
                None => self.go_idle(w),
            },
            ClaimStrategy::TwoStatement { gap } => match self.table.peek_claimable(now) {
                Some(id) => {
                    self.say(Some(w), None, LogEvent::Picked { job: id.0 as u32 });
                    self.set_state(w, WState::Selecting { job: id });
                    let token = self.workers[w].token;
                    self.queue
                        .schedule(now.plus(gap), Ev::Mark { w, job: id, token });
                }
                None => self.go_idle(w),
            },
            ClaimStrategy::SkipLocked => match self.table.peek_claimable(now) {
                Some(id) => {
                    let skipped: Vec<u32> = self
                        .locks
                        .iter()
                        .filter(|(&j, l)| j < id.0 && JobsTable::claimable(&l.image, now))
                        .map(|(&j, _)| j as u32)
                        .collect();
                    if !skipped.is_empty() {
                        self.say(
                            Some(w),
                            None,
                            LogEvent::SkipLocked {
                                jobs: Box::new(skipped),
                            },
                        );
                    }
                    self.lock_row(w, id);
                }
                None => self.go_idle(w),
            },
            ClaimStrategy::Nowait | ClaimStrategy::ForUpdate { .. } => {
                // The first row in the committed view: rows locked by others still look queued.
                let free = self.table.peek_claimable(now);
                let locked = self
                    .locks
                    .iter()
                    .find(|(_, l)| JobsTable::claimable(&l.image, now))
                    .map(|(&j, _)| JobId(j));
                let first = match (free, locked) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                match first {
                    None => self.go_idle(w),
                    Some(id) if Some(id) == free => self.lock_row(w, id),
                    Some(id) => {
                        if let ClaimStrategy::ForUpdate { lock_timeout } = self.cfg.claim {
                            self.say(Some(w), None, LogEvent::RowLockWait { job: id.0 as u32 });
                            self.set_state(w, WState::WaitingLock { job: id });
                            self.waiters.push((w, id));
                            if let Some(lt) = lock_timeout {
                                let token = self.workers[w].token;
                                self.queue
                                    .schedule(now.plus(lt), Ev::LockTimeout { w, token });
                            }
                        } else {
                            self.lock_error(w, LockError::Nowait);
                        }
                    }
                }
            }
        }
    }

    pub(super) fn lock_error(&mut self, w: usize, err: LockError) {
        self.counters.lock_errors += 1;
        self.workers[w].last_error = Some(err.text().to_owned());
        self.workers[w].token += 1;
        self.say(Some(w), None, LogEvent::LockError(err));
        if self.cfg.workers[w].probe {
            self.set_state(w, WState::Finished);
            return;
        }
        self.set_state(w, WState::Idle);
        let pause = self.cfg.workers[w].poll.unwrap_or(LOCK_ERROR_PAUSE);
        let token = self.workers[w].token;
        self.queue
            .schedule(self.now.plus(pause), Ev::Poll { w, token });
    }

    pub(super) fn lock_row(&mut self, w: usize, id: JobId) {
        let Some(image) = self.table.row(id) else {
            return;
        };
        if let Some(row) = self
            .table
            .mark_running_claimed(id, self.now, SimDuration(u64::MAX))
        {
            self.locks.insert(id.0, RowLock { holder: w, image });
            self.begin_run(w, row);
        }
    }

    /// Ends the transaction holding `job`'s row lock; `rollback` puts the row image back.
    pub(super) fn unlock(&mut self, job: JobId, rollback: bool) {
        if let Some(lock) = self.locks.remove(&job.0) {
            if rollback {
                self.table.restore(lock.image);
            }
            let _ = lock.holder;
            let (woken, rest): (Vec<_>, Vec<_>) =
                self.waiters.iter().partition(|&&(_, j)| j == job);
            self.waiters = rest;
            for (x, _) in woken {
                self.workers[x].token += 1;
                self.set_state(x, WState::Idle);
                let token = self.workers[x].token;
                self.queue.schedule(self.now, Ev::Poll { w: x, token });
            }
        }
    }
}

//! The step loop: [`Simulation::step`] / [`Simulation::step_until`] / [`Simulation::run`],
//! the checks before each event (drained, no workers left, the limits), the dispatch of a
//! queued event to its handler, worker state changes and the retention sweep. The plain path's
//! step is in `plain`; `steps` is the one place either path's step is inlined.

use super::*;

impl Simulation {
    /// Processes the earliest event. Returns `false` (and does nothing) once the run has
    /// stopped: drained, no workers left, or a limit reached.
    pub fn step(&mut self) -> bool {
        self.steps(1)
    }

    /// Up to `n` events ([`Simulation::step`] `n` times); `false` once the run has stopped.
    /// The one place each path's step is inlined, into a loop that tests the plain flag once:
    /// as a call per event, the step's register saves and restores were 5 % of a plain run's
    /// instructions; inlined in more than one place, the worker's wasm grows by kilobytes.
    #[inline(never)]
    pub(super) fn steps(&mut self, n: u64) -> bool {
        // Every step that returns `true` counts one event.
        let until = self.events.saturating_add(n);
        if self.plain {
            while self.events < until {
                if !self.step_plain() {
                    return false;
                }
            }
        } else {
            while self.events < until {
                if !self.step_general() {
                    return false;
                }
            }
        }
        true
    }

    /// [`Simulation::step`] for a config that is not plain.
    #[inline(always)]
    pub(super) fn step_general(&mut self) -> bool {
        match self.advance() {
            None => return false,
            Some(Next::Arrival(stream)) => self.arrival(stream),
            Some(Next::Event(ev)) => self.apply(ev),
        }
        self.maybe_wake();
        self.sample();
        true
    }

    /// The checks before an event (stopped, drained, no workers left, the limits), then the
    /// clock moved to the earliest event, counted and taken: an arrival (its stream's head
    /// cleared) or a queued event. `None` (after [`Simulation::stop`] where a check failed)
    /// when there is no event to process.
    #[inline(always)]
    pub(super) fn advance(&mut self) -> Option<Next> {
        if self.stopped.is_some() {
            return None;
        }
        if self.is_drained() {
            self.stop(StopReason::Drained);
            return None;
        }
        // (A plain config never stops a worker.)
        if !self.plain && self.no_workers_left() {
            self.stop(StopReason::NoWorkers);
            return None;
        }
        if self.events >= self.cfg.limits.max_events {
            self.stop(StopReason::MaxEvents);
            return None;
        }
        let queued = self.queue.peek_key().unwrap_or(NO_ARRIVAL);
        let (arrival, stream) = self.next_arrival;
        let next = queued.min(arrival);
        if next == NO_ARRIVAL {
            self.stop(StopReason::Drained);
            return None;
        }
        let t = SimTime((next >> 64) as u64);
        if t > self.cfg.limits.max_time {
            self.stop(StopReason::MaxTime);
            return None;
        }
        self.now = t;
        self.events += 1;
        if arrival < queued {
            self.heads[stream] = NO_ARRIVAL;
            return Some(Next::Arrival(stream));
        }
        self.queue.pop().map(|(_, ev)| Next::Event(ev))
    }

    /// Stream `stream`'s arrival: its submissions, then its next arrival filed.
    #[inline(always)]
    pub(super) fn arrival(&mut self, stream: usize) {
        self.arrive(stream);
        self.next_arrival = earliest(&self.heads);
    }

    /// Processes every event up to and including `until` (bounded by the limits). Returns the
    /// number of events processed.
    pub fn step_until(&mut self, until: SimTime) -> u64 {
        let before = self.events;
        while self.next_time().is_some_and(|t| t <= until) {
            if !self.step() {
                break;
            }
        }
        self.events - before
    }

    /// The time of the next event (queued or arrival), if any.
    pub(super) fn next_time(&self) -> Option<SimTime> {
        let next = self
            .queue
            .peek_key()
            .unwrap_or(NO_ARRIVAL)
            .min(self.next_arrival.0);
        (next != NO_ARRIVAL).then_some(SimTime((next >> 64) as u64))
    }

    /// Runs until the run stops; returns why.
    pub fn run(&mut self) -> StopReason {
        while self.steps(u64::MAX) {}
        self.stopped.unwrap_or(StopReason::Drained)
    }

    pub(super) fn is_drained(&self) -> bool {
        self.streams_open == 0
            && self.subs_open == 0
            && self.resubmits_open == 0
            && self.table.count(Status::Queued) == 0
            && self.table.count(Status::Running) == 0
            && self
                .workers
                .iter()
                .all(|w| !matches!(w.state, WState::Running(_) | WState::Selecting { .. }))
    }

    pub(super) fn no_workers_left(&self) -> bool {
        !self.workers.is_empty() && self.subs_open == 0 && self.gone == self.workers.len()
    }

    /// Worker `w` in `state` has stopped for good (finished, or down with no restart).
    pub(super) fn gone(&self, w: usize, state: &WState) -> bool {
        *state == WState::Finished
            || (*state == WState::Down && self.cfg.workers[w].restart_after.is_none())
    }

    #[inline(always)]
    pub(super) fn sample(&mut self) {
        self.depth
            .record(self.now, self.table.count(Status::Queued));
    }

    pub(super) fn apply(&mut self, ev: Ev) {
        match ev {
            Ev::Poll { w, token } => {
                if self.workers[w].token == token {
                    self.poll(w);
                }
            }
            Ev::Mark { w, job, token } => {
                if self.workers[w].token == token {
                    if let Some(row) =
                        self.table
                            .mark_running_claimed(job, self.now, self.cfg.lease)
                    {
                        self.begin_run(w, row);
                    }
                }
            }
            Ev::LockTimeout { w, token } => {
                if self.workers[w].token == token {
                    if let WState::WaitingLock { .. } = self.workers[w].state {
                        self.waiters.retain(|&(x, _)| x != w);
                        self.lock_error(w, LockError::Timeout);
                    }
                }
            }
            Ev::WorkDone { w, token } => {
                if self.workers[w].token == token {
                    self.work_done(w);
                }
            }
            Ev::Call { owner, token } => {
                if self.owner_live(owner, token) {
                    self.paced_call(owner, token);
                }
            }
            Ev::PacedCall { owner, token } => {
                if self.owner_live(owner, token) {
                    self.call(owner);
                }
            }
            Ev::Reply {
                owner,
                token,
                result,
            } => {
                if result == CallResult::Ok {
                    self.in_flight = self.in_flight.saturating_sub(1);
                }
                if self.owner_live(owner, token) {
                    self.reply(owner, result);
                }
            }
            Ev::Wake => {
                self.wake_at = None;
            }
            Ev::Heartbeat { w, job, attempt } => self.heartbeat(w, job, attempt),
            Ev::LeaseEnd { job } => self.lease_end(job),
            Ev::Resubmit { kind, n } => {
                self.resubmits_open = self.resubmits_open.saturating_sub(1);
                self.enqueue_request(kind, n, true);
            }
        }
    }

    /// Sets worker `w`'s state (the one place states change), keeping count of the workers
    /// gone for good.
    #[inline(always)]
    pub(super) fn set_state(&mut self, w: usize, state: WState) {
        let stops = |s: &WState| matches!(s, WState::Finished | WState::Down);
        // A plain config never stops a worker (no probes, claim limits or crashes).
        if self.plain || (!stops(&self.workers[w].state) && !stops(&state)) {
            // Idle, running, selecting, waiting: never gone (the usual change).
            self.workers[w].state = state;
            return;
        }
        let (was, is) = (self.gone(w, &self.workers[w].state), self.gone(w, &state));
        self.workers[w].state = state;
        if was != is {
            if is {
                self.gone += 1;
            } else {
                self.gone -= 1;
            }
        }
    }

    /// Lets the table delete the finished rows no worker refers to (see
    /// [`Retention`](super::Retention)).
    pub(super) fn sweep(&mut self) {
        if !self.table.deletes() {
            return;
        }
        let mut held: Vec<JobId> = self.workers.iter().filter_map(|w| w.state.job()).collect();
        held.sort_unstable();
        self.table.sweep(&held);
    }

    /// Stops the run for `reason`.
    pub(super) fn stop(&mut self, reason: StopReason) {
        self.stopped = Some(reason);
        self.sweep();
    }
}

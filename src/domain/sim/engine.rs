//! The discrete-event engine: arrivals, workers, the jobs table, the downstream, side effects.
//!
//! One [`Simulation`] owns a config, a clock, an [`EventQueue`] and a [`SimRng`]. Each
//! [`Simulation::step`] pops the earliest event (ties first-in first-out) and applies it. All
//! randomness comes from the seeded RNG, in event order, so the same config and seed give the
//! same trace on every target. Every run is bounded by [`Limits`](super::Limits) (events and
//! virtual time).
//!
//! Semantics follow seed `000` (`DOMAIN.md` §2) for the queue and seed `003` (`DOMAIN.md` §4)
//! for load leveling: a worker claims, runs its handler, then completes or releases; a worker
//! that dies after the side effect leaves the row `running` until its lease expires; a handler
//! that outlives its lease is claimed again while still running.
//!
//! Speed: the small functions a step calls per event (the event queue's `schedule`/`pop`, the
//! table's claim, complete and row lookup, the ready set, the statistics columns, the RNG's
//! `unit`/`chance`) are `#[inline(always)]`: as calls, their register saves and returns were
//! 13 % of the benchmark's instructions (bench/RESULTS.md, fourth round). `arrive` stays a
//! call: inlined, it made the step slower (register pressure).

use crate::domain::sim::core::backoff::Jitter;
pub use crate::domain::sim::core::call::CallResult;
use crate::domain::sim::core::event_queue::{key, EventQueue};
use crate::domain::sim::core::rng::{round_us, ExpScale, SimRng};
use crate::domain::sim::core::stats::{JobStats, Needs};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::jobs::{
    Claimed, ErrorId, Job, JobId, JobsTable, KindId, Released, Status, SWEEP_EVERY,
};
use crate::domain::sim::results::depth::DepthSeries;
use crate::domain::sim::results::log::{
    ClaimHow, EventLog, KindNames, LockError, Log, LogEntry, LogEvent, LogNames, BUILTIN_ERRORS,
    NO_WORKER,
};
use crate::domain::sim::setup::config::{
    ClaimStrategy, Downstream, DurationDist, ErrorClass, FailureModel, Intake, Pattern, SimConfig,
};
use crate::domain::sim::setup::error::ConfigError;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

mod claims;
mod downstream;
mod plain;

/// How long a woken worker whose claim hit a locked row waits before trying again.
const LOCK_ERROR_PAUSE: SimDuration = SimDuration::from_ms(100);
/// Most buckets kept in the downstream-calls series (the bucket doubles past it).
const MAX_SERIES_POINTS: usize = 4_096;

/// [`Simulation`]'s `heads` entry of a stream with no arrival left.
const NO_ARRIVAL: u128 = u128::MAX;

/// The smallest key of `heads` and its index (`(NO_ARRIVAL, 0)` when none is pending).
fn earliest(heads: &[u128]) -> (u128, usize) {
    heads.iter().enumerate().fold(
        (NO_ARRIVAL, 0),
        |best, (i, &k)| if k < best.0 { (k, i) } else { best },
    )
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// Nothing left to do: no arrivals pending, no job queued or running.
    Drained,
    /// Every worker has stopped (finished its claims or died for good) with work left.
    NoWorkers,
    /// The event budget ran out.
    MaxEvents,
    /// The next event lies past the virtual-time budget.
    MaxTime,
}

impl StopReason {
    /// Why the run stopped, in words (the CLI's text output; JSON carries the kebab-case id).
    pub fn text(self) -> &'static str {
        match self {
            StopReason::Drained => "nothing left to do",
            StopReason::NoWorkers => "no worker left to run the jobs",
            StopReason::MaxEvents => "the event limit was reached",
            StopReason::MaxTime => "the time limit was reached",
        }
    }
}

/// Who made a downstream call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Worker(usize),
    Submission(usize),
}

#[derive(Debug, Clone, Copy)]
enum Ev {
    Poll {
        w: usize,
        token: u64,
    },
    Mark {
        w: usize,
        job: JobId,
        token: u64,
    },
    LockTimeout {
        w: usize,
        token: u64,
    },
    WorkDone {
        w: usize,
        token: u64,
    },
    Call {
        owner: Owner,
        token: u64,
    },
    Reply {
        owner: Owner,
        token: u64,
        result: CallResult,
    },
    Wake,
}

/// What [`Simulation::advance`] took: an arrival of a stream, or a queued event.
enum Next {
    Arrival(usize),
    Event(Ev),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum WState {
    NotStarted,
    Idle,
    /// Between the two statements of a claim of `job`.
    Selecting {
        job: JobId,
    },
    WaitingLock {
        job: JobId,
    },
    Running(Run),
    Down,
    Finished,
}

impl WState {
    /// The row this state refers to (the table must not delete it meanwhile).
    fn job(&self) -> Option<JobId> {
        match *self {
            WState::Running(Run { job, .. })
            | WState::Selecting { job }
            | WState::WaitingLock { job } => Some(job),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    job: JobId,
    kind: KindId,
    attempt: u32,
    calls: u32,
    prev_wait: Option<SimDuration>,
}

#[derive(Debug, Clone)]
struct Worker {
    state: WState,
    token: u64,
    claims: u32,
    first_claim: Option<JobId>,
    last_error: Option<String>,
}

#[derive(Debug, Clone)]
struct Submission {
    calls: u32,
    max_calls: u32,
    prev_wait: Option<SimDuration>,
}

#[derive(Debug, Clone)]
struct RowLock {
    holder: usize,
    image: Job,
}

/// An arrival pattern reduced to what [`Simulation::arrive`] needs per arrival.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// `count` at once.
    Burst { count: u64 },
    /// `count` in all, gaps exponential with mean `1e6 / rate` µs (scale computed once).
    Poisson { count: u64, gap: ExpScale },
    /// At the stream's sorted `times`.
    Times,
}

#[derive(Debug, Clone)]
struct Stream {
    kind: KindId,
    produced: u64,
    times: Vec<u64>,
    /// The pattern, as the hot path needs it.
    shape: Shape,
}

/// Counters of a run; [`Report`](super::Report) derives the other figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Handler runs started.
    pub runs: u64,
    /// Runs that failed (handler error or refused downstream call after in-worker retries).
    pub failures: u64,
    /// Successful runs of a job that had already run successfully (at-least-once delivery).
    pub duplicate_runs: u64,
    /// Side effects applied to a job that had already applied its effect.
    pub duplicate_effects: u64,
    /// Second runs stopped by the idempotency key (rolled back).
    pub prevented_by_key: u64,
    /// Workers that died between side effect and `complete`.
    pub crashes: u64,
    /// Claim statements that failed on a row lock (`NOWAIT`, `lock_timeout`).
    pub lock_errors: u64,
    /// Downstream calls made.
    pub calls: u64,
    /// Calls served.
    pub calls_ok: u64,
    /// Calls answered "busy".
    pub calls_busy: u64,
    /// Calls refused by the rate limit.
    pub calls_rate_limited: u64,
    /// Calls refused during the outage.
    pub calls_unavailable: u64,
    /// Submissions the user was told were accepted (published, or served directly).
    pub accepted: u64,
    /// Submissions that failed back to the user.
    pub failed_to_user: u64,
    /// Publishes that failed and fell back to a direct call.
    pub fallbacks: u64,
}

/// A running simulation. Build with [`Simulation::new`], drive with [`Simulation::step`],
/// [`Simulation::step_until`] or [`Simulation::run`], then read the table, log and metrics.
pub struct Simulation {
    cfg: SimConfig,
    now: SimTime,
    queue: EventQueue<Ev>,
    /// Per arrival stream, the ordering key ([`key`]) of its next arrival, or [`NO_ARRIVAL`]:
    /// kept out of `queue` (one arrival pending per stream, the most frequent event) but
    /// ordered against it exactly as if it had been scheduled there.
    heads: Vec<u128>,
    /// The smallest of `heads` and its stream.
    next_arrival: (u128, usize),
    rng: SimRng,
    table: JobsTable,
    errors: Vec<String>,
    kind_error: Vec<ErrorId>,
    /// Per kind with exponential run times, their scale (µs), computed once.
    run_scales: Vec<Option<ExpScale>>,
    call_errors: [ErrorId; 3],
    workers: Vec<Worker>,
    /// Workers stopped for good (see [`Simulation::gone`]), kept by `set_state`.
    gone: usize,
    idle: VecDeque<usize>,
    wake_at: Option<SimTime>,
    info: JobStats,
    locks: BTreeMap<u64, RowLock>,
    waiters: Vec<(usize, JobId)>,
    in_flight: u32,
    bucket_tokens: f64,
    bucket_at: SimTime,
    subs: Vec<Submission>,
    subs_open: u64,
    streams: Vec<Stream>,
    streams_open: usize,
    /// `true` when the config uses none of the features a job's run checks for one by one:
    /// probes, claim limits, crashes, polling workers, side effects, downstream calls, claims
    /// that hold row locks, submissions other than plain publishes. Computed once; the hot
    /// paths test it first and skip those checks (each of which would come out false), so a
    /// plain config (the benchmark model, the browser's Load preset) runs the same events
    /// with fewer instructions.
    plain: bool,
    balance: i64,
    keys: BTreeSet<String>,
    counters: Counters,
    log: EventLog,
    names: LogNames,
    events: u64,
    stopped: Option<StopReason>,
    depth: DepthSeries,
    calls_series: Vec<[u64; 3]>,
    calls_bucket: SimDuration,
}

impl Simulation {
    /// Builds a run from `cfg`.
    ///
    /// # Errors
    /// Every finding of [`SimConfig::validate`].
    pub fn new(cfg: SimConfig) -> Result<Simulation, Vec<ConfigError>> {
        let errs = cfg.validate();
        if !errs.is_empty() {
            return Err(errs);
        }
        let mut errors = Vec::new();
        let mut kind_error = Vec::new();
        for k in &cfg.kinds {
            kind_error.push(ErrorId(errors.len() as u32));
            errors.push(k.error.clone());
        }
        let expiry_error = ErrorId(errors.len() as u32);
        errors.push(BUILTIN_ERRORS[0].to_owned());
        let mut call_errors = [ErrorId(0); 3];
        for (i, r) in [
            CallResult::Busy,
            CallResult::RateLimited,
            CallResult::Unavailable,
        ]
        .into_iter()
        .enumerate()
        {
            call_errors[i] = ErrorId(errors.len() as u32);
            errors.push(r.text().to_owned());
        }
        let mut firsts = Vec::new();
        let mut streams = Vec::new();
        for (i, a) in cfg.arrivals.iter().enumerate() {
            let mut times = Vec::new();
            let first = match &a.pattern {
                Pattern::Burst { count, at_ms } => (*count > 0).then(|| SimTime::from_ms(*at_ms)),
                Pattern::Poisson { count, .. } => (*count > 0).then_some(SimTime::ZERO),
                Pattern::Times { at_ms } => {
                    times = at_ms.clone();
                    times.sort_unstable();
                    times.first().map(|&t| SimTime::from_ms(t))
                }
            };
            streams.push(Stream {
                kind: KindId(a.kind as u32),
                produced: 0,
                times,
                shape: match a.pattern {
                    Pattern::Burst { count, .. } => Shape::Burst { count },
                    Pattern::Poisson { rate_per_s, count } => Shape::Poisson {
                        count,
                        gap: ExpScale::of_mean(1e6 / rate_per_s),
                    },
                    Pattern::Times { .. } => Shape::Times,
                },
            });
            if let Some(t) = first {
                firsts.push((t, i));
            }
        }
        let streams_open = streams
            .iter()
            .enumerate()
            .filter(|(i, _)| cfg.job_count_of(*i) > 0)
            .count();
        // Streams start in order of their first instant (ties: stream order); Poisson streams
        // draw their first gap now, in that order, so the trace is fixed.
        firsts.sort_unstable();
        let mut rng = SimRng::new(cfg.seed);
        let mut first_queue = EventQueue::new();
        let mut heads = vec![NO_ARRIVAL; streams.len()];
        for (t, stream) in firsts {
            let t = match cfg.arrivals[stream].pattern {
                Pattern::Poisson { rate_per_s, .. } => {
                    t.plus(SimDuration(round_us(rng.exponential(1e6 / rate_per_s))))
                }
                _ => t,
            };
            heads[stream] = key(t, first_queue.take_seq());
        }
        let mut workers = Vec::new();
        for (i, w) in cfg.workers.iter().enumerate() {
            workers.push(Worker {
                state: WState::NotStarted,
                token: 0,
                claims: 0,
                first_claim: None,
                last_error: None,
            });
            first_queue.schedule(w.start, Ev::Poll { w: i, token: 0 });
        }
        let bucket_tokens = cfg
            .downstream
            .and_then(|d| d.rate_limit)
            .map_or(0.0, |tb| f64::from(tb.burst));
        let bucket = cfg.series_bucket;
        let jobs = cfg.job_count();
        let needs = Needs {
            runs: cfg
                .kinds
                .iter()
                .any(|k| matches!(k.failure, FailureModel::FirstRuns { .. })),
            arrival_no: cfg.kinds.iter().any(|k| {
                k.effect
                    .as_ref()
                    .is_some_and(|e| e.idempotency_key.is_some())
            }),
            prev_wait: cfg.retry.jitter == Jitter::Decorrelated,
        };
        let names = LogNames {
            kinds: cfg
                .kinds
                .iter()
                .map(|k| KindNames {
                    name: k.name.clone(),
                    max_attempts: k.max_attempts,
                    amount: k.effect.as_ref().map_or(0, |e| e.amount),
                    key: k.effect.as_ref().and_then(|e| e.idempotency_key.clone()),
                })
                .collect(),
            workers: cfg.workers.iter().map(|w| w.name.clone()).collect(),
            errors: errors.clone(),
            builtin_errors: expiry_error.0,
        };
        let plain = cfg.is_plain();
        let mut table = JobsTable::with_retention(jobs, cfg.retention);
        table.set_expiry_error(expiry_error);
        Ok(Simulation {
            now: SimTime::ZERO,
            queue: first_queue,
            next_arrival: earliest(&heads),
            heads,
            rng,
            table,
            errors,
            kind_error,
            run_scales: cfg
                .kinds
                .iter()
                .map(|k| match k.duration {
                    DurationDist::Exponential { mean_ms } => Some(ExpScale::of_mean(mean_ms * 1e3)),
                    _ => None,
                })
                .collect(),
            call_errors,
            workers,
            gone: 0,
            idle: VecDeque::new(),
            wake_at: None,
            info: JobStats::new(needs, jobs),
            locks: BTreeMap::new(),
            waiters: Vec::new(),
            in_flight: 0,
            bucket_tokens,
            bucket_at: SimTime::ZERO,
            subs: Vec::new(),
            subs_open: 0,
            streams,
            streams_open,
            plain,
            balance: 0,
            keys: BTreeSet::new(),
            counters: Counters::default(),
            log: EventLog::new(),
            names,
            events: 0,
            stopped: None,
            depth: DepthSeries::new(bucket),
            calls_series: Vec::new(),
            calls_bucket: bucket,
            cfg,
        })
    }

    /// The same run taking the general path everywhere, even for a plain config (see
    /// [`SimConfig::is_plain`]): for the test that proves both paths equal.
    #[doc(hidden)]
    pub fn without_plain_paths(mut self) -> Simulation {
        self.plain = false;
        self
    }

    /// The config this run was built from.
    pub fn config(&self) -> &SimConfig {
        &self.cfg
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The jobs table.
    pub fn table(&self) -> &JobsTable {
        &self.table
    }

    /// The message of an error id found in the table.
    pub fn error_text(&self, id: ErrorId) -> &str {
        self.errors.get(id.0 as usize).map_or("", String::as_str)
    }

    /// The name of a kind.
    pub fn kind_name(&self, kind: KindId) -> &str {
        self.cfg
            .kinds
            .get(kind.0 as usize)
            .map_or("", |k| k.name.as_str())
    }

    /// The event log (empty when the config turned logging off): entries with their names;
    /// each line displays as English text.
    pub fn log(&self) -> Log<'_> {
        Log {
            entries: &self.log,
            names: &self.names,
        }
    }

    /// Takes the recorded log and its names out of the run (leaving an empty log), so the
    /// log can outlive the run's much larger tables.
    pub fn take_log(&mut self) -> (EventLog, LogNames) {
        (std::mem::take(&mut self.log), self.names.clone())
    }

    /// The counters so far.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The simulated store's balance (the sum of applied effects).
    pub fn balance(&self) -> i64 {
        self.balance
    }

    /// Events scheduled and not yet processed.
    pub fn pending_events(&self) -> usize {
        self.queue.len() + self.heads.iter().filter(|&&k| k != NO_ARRIVAL).count()
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Why the run stopped, once it has.
    pub fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    /// Per worker (in config order): name and the id of its first claimed job.
    pub fn first_claims(&self) -> Vec<(String, Option<JobId>)> {
        self.workers
            .iter()
            .zip(&self.cfg.workers)
            .map(|(w, s)| (s.name.clone(), w.first_claim))
            .collect()
    }

    /// Per worker (in config order): name and the last claim error it saw, if any.
    pub fn worker_errors(&self) -> Vec<(String, Option<String>)> {
        self.workers
            .iter()
            .zip(&self.cfg.workers)
            .map(|(w, s)| (s.name.clone(), w.last_error.clone()))
            .collect()
    }

    /// Per job in id order: time from enqueue to first claim (`None` if never claimed).
    pub fn waits(&self) -> Vec<Option<SimDuration>> {
        self.info.waits()
    }

    /// Per job in id order: time from enqueue to `done` (`None` if not done).
    pub fn latencies(&self) -> Vec<Option<SimDuration>> {
        self.info.latencies()
    }

    /// Queue depth (rows `queued`) over time as a step line: every change while the run is
    /// small, a peak-keeping envelope past [`crate::domain::sim::results::depth::MAX_DEPTH_POINTS`] changes (see
    /// [`DepthSeries`] for what a point means).
    pub fn depth_series(&self) -> Vec<(SimTime, u64)> {
        self.depth.points()
    }

    /// Downstream answers per time bucket, bucketed like [`Simulation::depth_series`]: the
    /// bucket width (`series_bucket`, doubled each time more than 4 096 buckets would be
    /// needed) and per bucket from `t = 0` the answers `[ok, busy, failed]`, where *failed*
    /// is rate limited + unavailable. An answer counts in the bucket of the instant it
    /// reaches its caller, exactly when [`Counters`] count it, so the columns sum to
    /// `calls_ok`, `calls_busy` and `calls_rate_limited + calls_unavailable`.
    pub fn calls_series(&self) -> (SimDuration, &[[u64; 3]]) {
        (self.calls_bucket, &self.calls_series)
    }

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
    fn steps(&mut self, n: u64) -> bool {
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
    fn step_general(&mut self) -> bool {
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
    fn advance(&mut self) -> Option<Next> {
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
    fn arrival(&mut self, stream: usize) {
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
    fn next_time(&self) -> Option<SimTime> {
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

    fn is_drained(&self) -> bool {
        self.streams_open == 0
            && self.subs_open == 0
            && self.table.count(Status::Queued) == 0
            && self.table.count(Status::Running) == 0
            && self
                .workers
                .iter()
                .all(|w| !matches!(w.state, WState::Running(_) | WState::Selecting { .. }))
    }

    fn no_workers_left(&self) -> bool {
        !self.workers.is_empty() && self.subs_open == 0 && self.gone == self.workers.len()
    }

    /// Worker `w` in `state` has stopped for good (finished, or down with no restart).
    fn gone(&self, w: usize, state: &WState) -> bool {
        *state == WState::Finished
            || (*state == WState::Down && self.cfg.workers[w].restart_after.is_none())
    }

    #[inline(always)]
    fn sample(&mut self) {
        self.depth
            .record(self.now, self.table.count(Status::Queued));
    }

    /// Logs a line when the config asks for a log: the check is inlined at every call site,
    /// the writing is not (most runs, and every benchmark run, have the log off).
    #[inline(always)]
    fn say(&mut self, worker: Option<usize>, job: Option<(JobId, u32)>, event: LogEvent) {
        if self.cfg.log {
            self.write_log(worker, job, event);
        }
    }

    #[inline(never)]
    fn write_log(&mut self, worker: Option<usize>, job: Option<(JobId, u32)>, event: LogEvent) {
        let worker = worker
            .and_then(|w| u16::try_from(w).ok())
            .unwrap_or(NO_WORKER);
        let (job, kind, attempt) = job
            .and_then(|(id, attempt)| {
                let row = self.table.row(id)?;
                Some((u32::try_from(id.0).ok()?, row.kind.0, attempt))
            })
            .unwrap_or((0, 0, 0));
        self.log.push(LogEntry {
            time: self.now,
            event,
            job,
            kind,
            attempt,
            worker,
        });
    }

    #[inline(never)]
    fn sample_duration(&mut self, d: DurationDist) -> SimDuration {
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

    fn apply(&mut self, ev: Ev) {
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
        }
    }

    /// Sets worker `w`'s state (the one place states change), keeping count of the workers
    /// gone for good.
    #[inline(always)]
    fn set_state(&mut self, w: usize, state: WState) {
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
    fn sweep(&mut self) {
        if !self.table.deletes() {
            return;
        }
        let mut held: Vec<JobId> = self.workers.iter().filter_map(|w| w.state.job()).collect();
        held.sort_unstable();
        self.table.sweep(&held);
    }

    /// Stops the run for `reason`.
    fn stop(&mut self, reason: StopReason) {
        self.stopped = Some(reason);
        self.sweep();
    }

    fn arrive(&mut self, stream: usize) {
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

    fn submit(&mut self, kind: KindId, n: u64) {
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
                    self.say(None, Some((id, 0)), LogEvent::Enqueued);
                }
            }
            Intake::Direct { calls } => self.open_submission(kind, calls),
        }
    }

    fn go_idle(&mut self, w: usize) {
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

    fn maybe_wake(&mut self) {
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
    fn schedule_wake(&mut self) {
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

    fn begin_run(&mut self, w: usize, row: Claimed) {
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
            if self.cfg.claim.holds_row_lock() {
                self.say(Some(w), Some((id, attempt)), LogEvent::ProbeRollback);
                self.unlock(id, true);
            }
            self.set_state(w, WState::Finished);
            return;
        }
        self.workers[w].token += 1;
        let run = Run {
            job: id,
            kind: row.kind,
            attempt,
            calls: 0,
            prev_wait: None,
        };
        self.set_state(w, WState::Running(run));
        self.counters.runs += 1;
        self.info.ran(idx);
        let k = row.kind.0 as usize;
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

    fn work_done(&mut self, w: usize) {
        let WState::Running(run) = self.workers[w].state else {
            return;
        };
        if !self.failed_run(w, run) {
            self.succeed(w, run);
        }
    }

    /// Whether `run` failed, by its kind's failure model (drawing from the RNG for a
    /// probability); a failed run is handed to [`Simulation::fail`] with its kind's error.
    #[inline(always)]
    fn failed_run(&mut self, w: usize, run: Run) -> bool {
        let k = run.kind.0 as usize;
        let failed = match self.cfg.kinds[k].failure {
            FailureModel::Never => false,
            FailureModel::FirstRuns { k: n } => self.info.runs((run.job.0 - 1) as usize) <= n,
            FailureModel::Probability { p } => self.rng.chance(p),
            FailureModel::Always => true,
        };
        if failed {
            let class = self.cfg.kinds[k].error_class;
            self.fail(w, run, self.kind_error[k], class);
        }
        failed
    }

    fn succeed(&mut self, w: usize, run: Run) {
        let idx = (run.job.0 - 1) as usize;
        let job = (run.job, run.attempt);
        // (Only the general path gets here: a plain config's runs end in `plain::run_ended`,
        // which records the success and `complete` in one row lookup.)
        if self.table.mark_succeeded(run.job) {
            self.counters.duplicate_runs += 1;
        }
        if self.effect_then_crash(w, run, run.kind.0 as usize) {
            return;
        }
        if let Some((t, _)) = self.table.complete_run(run.job, false) {
            self.info.done(idx, self.now.since(t));
        }
        self.say(Some(w), Some(job), LogEvent::Done);
        if self.cfg.claim.holds_row_lock() {
            self.unlock(run.job, false);
        }
        self.after_run(w);
    }

    /// The side effect of a successful run (if its kind has one), then the worker's crash
    /// before `complete` (with its probability). Returns `true` when the worker crashed.
    fn effect_then_crash(&mut self, w: usize, run: Run, kind: usize) -> bool {
        let idx = (run.job.0 - 1) as usize;
        let job = (run.job, run.attempt);
        if let Some(effect) = self.cfg.kinds[kind].effect.clone() {
            let key = effect
                .idempotency_key
                .map(|t| t.replace("{n}", &self.info.arrival_no(idx).to_string()));
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
                    if self.table.mark_effected(run.job) {
                        self.counters.duplicate_effects += 1;
                    }
                    self.say(Some(w), Some(job), LogEvent::SideEffect { before });
                }
            }
        }
        let p = self.cfg.workers[w].crash_probability;
        if p > 0.0 && self.rng.chance(p) {
            self.counters.crashes += 1;
            self.say(Some(w), Some(job), LogEvent::Crash);
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

    fn fail(&mut self, w: usize, run: Run, err: ErrorId, class: ErrorClass) {
        self.counters.failures += 1;
        let idx = (run.job.0 - 1) as usize;
        let job = (run.job, run.attempt);
        if self.cfg.classify_errors && class == ErrorClass::Permanent {
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

    fn after_run(&mut self, w: usize) {
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
        // The worker loops straight into its next claim, as the seed's `work_once` loop does
        // (`poll` sets it idle first).
        self.poll(w);
    }
}

impl SimConfig {
    /// `true` when the config uses none of: claims other than the atomic one, polling or
    /// probing workers, claim limits, crashes, side effects, downstream calls, direct intake or
    /// publish failures. [`Simulation`] then skips those features' checks on its hot paths
    /// (see `Simulation::plain`); the events, table and outputs are the same either way.
    pub fn is_plain(&self) -> bool {
        let atomic = matches!(self.claim, ClaimStrategy::Atomic);
        let workers = self.workers.iter().all(|w| {
            w.poll.is_none() && !w.probe && w.max_claims.is_none() && w.crash_probability == 0.0
        });
        let kinds = self
            .kinds
            .iter()
            .all(|k| k.effect.is_none() && !k.calls_downstream);
        let intake =
            matches!(self.intake, Intake::Queue { publish_failure, .. } if publish_failure == 0.0);
        atomic && workers && kinds && intake
    }

    /// Jobs that arrival stream `i` will create.
    pub fn job_count_of(&self, i: usize) -> u64 {
        self.arrivals.get(i).map_or(0, |a| match &a.pattern {
            Pattern::Burst { count, .. } | Pattern::Poisson { count, .. } => *count,
            Pattern::Times { at_ms } => at_ms.len() as u64,
        })
    }
}

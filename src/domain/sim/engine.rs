//! The discrete-event engine: arrivals, workers, the jobs table, the downstream, side effects.
//!
//! One [`Simulation`] owns a config, a clock, an [`EventQueue`] and a [`SimRng`]. Each
//! [`Simulation::step`] pops the earliest event (ties first-in first-out) and applies it. All
//! randomness comes from the seeded RNG, in event order, so the same config and seed give the
//! same trace on every target. Every run is bounded by [`Limits`](super::Limits) (events and
//! virtual time).
//!
//! Semantics follow source document `000` (`docs/DOMAIN.md` §2) for the queue and source document `003`
//! (`docs/DOMAIN.md` §4)
//! for load leveling: a worker claims, runs its handler, then completes or releases; a worker
//! that dies after the side effect leaves the row `running` until its lease expires; a handler
//! that outlives its lease is claimed again while still running.
//!
//! Speed: the small functions a step calls per event (the event queue's `schedule`/`pop`, the
//! table's claim, complete and row lookup, the ready set, the statistics columns, the RNG's
//! `unit`/`chance`) are `#[inline(always)]`: as calls, their register saves and returns were
//! 13 % of the benchmark's instructions (bench/RESULTS.md, fourth round). `arrive` stays a
//! call: inlined, it made the step slower (register pressure).
//!
//! Files: this one holds the engine's state (the [`Simulation`] struct and the types of its
//! fields), the read-only accessors and the log writer; `build`: [`Simulation::new`]; `step`:
//! the step loop and the dispatch of each event; `plain`: the hot path of plain configs;
//! `runs`: a job's run on the general path; `claims`: the claim statements and row locks;
//! `downstream`: downstream calls and direct submissions. Each holds an `impl Simulation` of
//! one module; the release and bench profiles build the crate as one codegen unit with LTO,
//! so which file a function sits in does not change what is inlined (the attributes do).

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
    ClaimHow, EventLog, Finish, KindNames, LockError, Log, LogEntry, LogEvent, LogNames,
    BUILTIN_ERRORS, NO_WORKER,
};
use crate::domain::sim::setup::config::{
    Ack, ClaimStrategy, CrashPoint, Downstream, DurationDist, ErrorClass, ExpiryRule, FailureModel,
    Intake, Pattern, SimConfig,
};
use crate::domain::sim::setup::error::ConfigError;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

mod build;
mod claims;
mod downstream;
mod leases;
mod plain;
mod runs;
mod step;

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
    /// The kebab-case id the JSON carries, e.g. `max-time`.
    pub fn id(self) -> &'static str {
        match self {
            StopReason::Drained => "drained",
            StopReason::NoWorkers => "no-workers",
            StopReason::MaxEvents => "max-events",
            StopReason::MaxTime => "max-time",
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
    /// A call that waited for its slot of our own limiter ([`SimConfig::pacing`]): it goes
    /// out now without asking the limiter again.
    PacedCall {
        owner: Owner,
        token: u64,
    },
    Reply {
        owner: Owner,
        token: u64,
        result: CallResult,
    },
    Wake,
    /// Worker `w`'s heartbeat for its run of `job` claimed as `attempt`.
    Heartbeat {
        w: usize,
        job: JobId,
        attempt: u32,
    },
    /// The lease of `job` may end now (scheduled only under [`ExpiryRule::DeadLetter`]).
    LeaseEnd {
        job: JobId,
    },
    /// The second submission of request `n` (duplicate submissions).
    Resubmit {
        kind: KindId,
        n: u64,
    },
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
    /// The job's run number counted when this run started (the `FirstRuns` model: the source
    /// documents' handler counts its calls at its top).
    ordinal: u32,
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
    /// Side effects applied to a job that had already applied its effect (with duplicate
    /// submissions: applied for a request whose effect another row had applied already).
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
    // The counters below are written only when non-zero, so a report of a run that has none
    // of them reads (and hashes) as it did before they existed.
    /// Runs started while another run of the same job was still going (its lease expired
    /// under it).
    #[serde(skip_serializing_if = "is_zero")]
    pub overlapping_runs: u64,
    /// `complete` / `release` by a worker whose claim no longer holds the row (another claim
    /// took it, or it is no longer `running`): applied without the owner check, refused with it.
    #[serde(skip_serializing_if = "is_zero")]
    pub stale_results: u64,
    /// Claims whose attempt number exceeds `max_attempts`.
    #[serde(skip_serializing_if = "is_zero")]
    pub claims_over_max: u64,
    /// `dead` rows turned `done` by a late `complete`.
    #[serde(skip_serializing_if = "is_zero")]
    pub completed_after_dead: u64,
    /// Jobs acknowledged before the work (`ack: before`) whose run then failed, or crashed
    /// before its side effect: the row says `done`, the work never happened.
    #[serde(skip_serializing_if = "is_zero")]
    pub lost_jobs: u64,
    /// Heartbeats that extended a lease.
    #[serde(skip_serializing_if = "is_zero")]
    pub lease_renewals: u64,
}

/// The ids of [`Counters::lease_counts`], in order (kebab-case: the page's fact ids and the
/// suffixes of their locale keys).
pub const LEASE_IDS: [&str; 6] = [
    "overlapping-runs",
    "stale-results",
    "claims-over-max",
    "completed-after-dead",
    "lost-jobs",
    "lease-renewals",
];

impl Counters {
    /// The lease and delivery counters in one array ([`LEASE_IDS`]): overlapping runs, stale results, claims
    /// past max_attempts, dead jobs completed late, lost jobs, lease renewals (the order of
    /// [`LEASE_FACTS`](crate::domain::sim::runner::LEASE_FACTS)).
    pub fn lease_counts(&self) -> [u64; 6] {
        [
            self.overlapping_runs,
            self.stale_results,
            self.claims_over_max,
            self.completed_after_dead,
            self.lost_jobs,
            self.lease_renewals,
        ]
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
    /// The next free slot of our own limiter ([`SimConfig::pacing`]).
    pace_next: SimTime,
    subs: Vec<Submission>,
    subs_open: u64,
    /// Second submissions scheduled and not yet enqueued (duplicate submissions).
    resubmits_open: u64,
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
    /// Requests (arrival numbers) whose side effect was applied, kept only with duplicate
    /// submissions (then a duplicate effect is one applied twice for the same request).
    effected_requests: BTreeSet<u32>,
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

    /// `∫ queued rows dt` from 0 to now, in row·seconds (exact): over the run's length it
    /// is the time-average number of rows waiting, the `L` of Little's law `L = λ·W`.
    pub fn queued_area_s(&self) -> f64 {
        self.depth.area_s(self.now)
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
}

impl SimConfig {
    /// `true` when the config uses none of: claims other than the atomic one, polling or
    /// probing workers, claim limits, crashes, side effects, downstream calls, direct intake,
    /// publish failures, or the lease and delivery options ([`SimConfig::uses_lease_options`]). [`Simulation`] then skips those features' checks on its hot paths
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
        atomic && workers && kinds && intake && !self.uses_lease_options()
    }

    /// Jobs that arrival stream `i` will create.
    pub fn job_count_of(&self, i: usize) -> u64 {
        self.arrivals.get(i).map_or(0, |a| match &a.pattern {
            Pattern::Burst { count, .. } | Pattern::Poisson { count, .. } => *count,
            Pattern::Times { at_ms } => at_ms.len() as u64,
        })
    }
}

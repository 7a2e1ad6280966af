//! Every allowed range of the simulator's inputs, in one place: what the engine accepts
//! ([`SimConfig::validate`](super::config::SimConfig::validate) and the config file's checks,
//! [`config_file`](super::config_file)), what the page's knobs offer
//! ([`Knob::range`](super::knobs::Knob::range)), what the page runs, and the retry policy's
//! ranges that the job sheet ([`sheet::import::limits`](crate::domain::sheet::import::limits))
//! and the knobs share. Whole numbers; durations in milliseconds.
//!
//! Two tiers are deliberate, and each quantity has one range per tier:
//! * **The engine** ([`MAX_ATTEMPTS`], [`MAX_WORKERS`], [`MAX_JOBS`], [`MAX_MS`], …) takes
//!   anything a run can hold in memory and time, so a config file can study extremes (1 000
//!   attempts, 10 000 workers, 30 days).
//! * **A real job's policy** ([`POLICY_ATTEMPTS`], [`POLICY_BASE_MS`], [`POLICY_CAP_MS`],
//!   [`POLICY_LEASE_MS`]) is what the sheet records and "Your settings" offers: at most 100
//!   attempts, a 1-day base wait and lease, a 7-day cap. A sheet's policy always runs, since
//!   each policy range lies within the engine's.
//!
//! The page's own bounds ([`MAX_CUSTOM_JOBS`], [`KNOB_WORKERS`], [`MAX_LOAD_JOBS`]) keep a
//! run in the browser short; they too lie within the engine's.

/// Largest number of jobs (arrivals) a run may create.
pub const MAX_JOBS: u64 = 2_000_000;
/// Largest number of workers.
pub const MAX_WORKERS: u64 = 10_000;
/// Largest `max_attempts` of a kind (and of calls at intake).
pub const MAX_ATTEMPTS: u64 = 1_000;
/// Largest event budget of a run.
pub const MAX_EVENTS: u64 = 100_000_000;
/// Largest virtual-time budget (and any duration), in milliseconds: 30 days.
pub const MAX_MS: u64 = 30 * DAY_MS;
/// Largest size of a side effect, either sign: `effect.amount` is in
/// `−MAX_EFFECT_AMOUNT ..= MAX_EFFECT_AMOUNT` (one billion). A run applies at most one effect
/// per engine event and processes at most [`MAX_EVENTS`] events, so the balance stays within
/// ±10¹⁷ and never reaches the ends of its `i64` (where it would saturate).
pub const MAX_EFFECT_AMOUNT: u64 = 1_000_000_000;
// The bound above holds: MAX_EVENTS × MAX_EFFECT_AMOUNT fits an i64.
const _: () = assert!(MAX_EVENTS * MAX_EFFECT_AMOUNT <= i64::MAX as u64);
/// Smallest and largest rate, per second, of Poisson arrivals and of a token bucket.
pub const RATE_RANGE: (f64, f64) = (1e-9, 1e6);
/// Smallest mean or median of a random duration, ms (the file takes whole ms from 1).
pub const MIN_DIST_MS: f64 = 0.001;

/// One day in milliseconds.
pub const DAY_MS: u64 = 86_400_000;

/// A job's attempts (sheet `retry.max_attempts`, knob "Max attempts"): 1 to 100.
pub const POLICY_ATTEMPTS: (u64, u64) = (1, 100);
/// The first retry wait (sheet `retry.backoff.base_ms`, knob "Base wait"): up to 1 day.
pub const POLICY_BASE_MS: (u64, u64) = (1, DAY_MS);
/// The longest retry wait (sheet `retry.backoff.cap_ms`, knob "Cap"): up to 7 days.
pub const POLICY_CAP_MS: (u64, u64) = (1, 7 * DAY_MS);
/// The lease / visibility timeout and an attempt's timeout (sheet `retry.lease_ms` and
/// `retry.attempt_timeout_ms`, knob "Lease"): up to 1 day.
pub const POLICY_LEASE_MS: (u64, u64) = (1, DAY_MS);
/// A downstream call's timeout (sheet `sync.call_timeout_ms`) and the knobs' call time: up to
/// 10 minutes.
pub const CALL_MS: (u64, u64) = (1, 600_000);
// Every policy range lies within the engine's: a sheet's policy always runs.
const _: () = assert!(POLICY_ATTEMPTS.1 <= MAX_ATTEMPTS);
const _: () = assert!(POLICY_CAP_MS.1 <= MAX_MS && POLICY_BASE_MS.1 <= MAX_MS);

/// Jobs "Your settings" may run (the browser's bound; the engine takes [`MAX_JOBS`]).
pub const MAX_CUSTOM_JOBS: u64 = 100_000;
/// "Your settings" records the event log up to this many jobs.
pub const LOG_JOBS: u64 = 2_000;
/// Workers "Your settings" offers (the engine takes [`MAX_WORKERS`]).
pub const KNOB_WORKERS: u64 = 1_000;
const _: () = assert!(MAX_CUSTOM_JOBS <= MAX_JOBS && KNOB_WORKERS <= MAX_WORKERS);

/// The most jobs the load preset runs in the browser (and `simulate --scenario mmc-load`).
pub const MAX_LOAD_JOBS: u64 = 1_000_000;
/// The load preset's jobs when a request names none.
pub const DEFAULT_LOAD_JOBS: u64 = 10_000;
/// The load preset records its event log up to this many jobs. The M/M/c model writes about
/// 3.2 lines per job (enqueued, claimed, done, plus a retry for one run in ten): 500 000 jobs
/// give 1 611 938 lines (seed 1), 64 MB at 40 bytes a line, on top of the run's own tables.
/// Measured natively (peak resident memory of the run, 500 000 jobs): 58 MB without the log,
/// 121 MB with it; the worker's wasm memory grows alike. Larger runs keep no log.
pub const LOG_MAX_JOBS: u64 = 500_000;
const _: () = assert!(MAX_LOAD_JOBS <= MAX_JOBS);
/// Largest burst of a downstream token bucket (`downstream.rate_limit.burst`).
pub const MAX_BURST: u64 = 1_000_000;

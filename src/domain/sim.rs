//! The job-queue engine and deterministic discrete-event simulator. Pure Rust: no browser,
//! no clock, no global RNG; compiles to wasm32 and gives the same trace there.
//!
//! * [`time`]: [`SimTime`] / [`SimDuration`], integer microseconds.
//! * [`event_queue`]: the future event list, ordered by `(time, seq)` (ties FIFO).
//! * [`rng`]: [`SimRng`], seeded Xoshiro256++ (`rand_xoshiro`), `u64`/`f64` draws only.
//! * [`backoff`]: fixed, exponential, full / equal / decorrelated jitter (AWS blog).
//! * [`jobs`]: the jobs table with the seed's `enqueue` / `claim` / `complete` / `release`.
//! * [`config`]: a run's typed description; [`file`](mod@file): the JSON config file and its checks.
//! * [`engine`]: [`Simulation`]: workers, claim strategies, downstream, intake, side effects.
//! * [`contention`]: the AWS study's versioned-row contention model.
//! * [`erlang`]: Erlang C (M/M/c mean wait) for checking the engine against theory.
//! * [`depth`]: the queue-depth step series (exact for small runs, peak-keeping buckets past).
//! * [`frames`]: per-step frames of small runs, for stepping them in the page.
//! * [`log`](mod@log): the event log as typed entries, rendered in English or Japanese.
//! * [`custom`]: "your settings" from the sheet plus load knobs; [`compare`]: key numbers
//!   of two runs side by side.
//! * [`scenario`]: the named scenarios; [`report`]: event log, table, metrics, key facts.
//! * [`charts`]: the data and SVG of the four charts (queue depth, attempts, latency, calls).
//!
//! Sources: seed `000` and `003` (`DOMAIN.md` §2–§4), AWS Architecture Blog "Exponential
//! Backoff And Jitter" (§5), Erlang C.

pub mod core;
pub mod engine;
pub mod jobs;
pub mod reference;
pub mod results;
pub mod runner;
pub mod setup;

pub use self::core::backoff::{BackoffPolicy, Growth, Jitter, Strategy};
pub use self::core::event_queue::EventQueue;
pub use self::core::rng::SimRng;
pub use self::core::time::{SimDuration, SimTime};
pub use engine::{CallResult, Counters, Simulation, StopReason};
pub use jobs::{ErrorId, Job, JobId, JobsTable, KindId, Released, Retention, Status, Transition};
pub use reference::contention::{run_contention, ContentionConfig, ContentionResult};
pub use results::log::{EventLog, LogEntry, LogEvent, LogNames};
pub use results::report::{JobRow, Metrics, Percentiles, Report};
pub use setup::config::{
    Arrivals, ClaimStrategy, Downstream, DurationDist, Effect, ErrorClass, FailureModel,
    InWorkerRetry, Intake, JobKind, Limits, Pattern, SimConfig, TokenBucket, WorkerSpec,
};
pub use setup::config_file::{load_config, parse_file, SimConfigFile};
pub use setup::error::{ConfigError, Num, Reason};
pub use setup::scenario::{run_scenario, trace_digest, Scenario};

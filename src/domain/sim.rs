//! The job-queue engine and deterministic discrete-event simulator. Pure Rust: no browser,
//! no clock, no global RNG; compiles to wasm32 and gives the same trace there.
//!
//! Its rooms, by role:
//! * [`core`](mod@core): integer time ([`SimTime`] / [`SimDuration`], microseconds), the
//!   future event list ([`EventQueue`], ordered by `(time, seq)`, ties FIFO), [`SimRng`]
//!   (seeded Xoshiro256++, `u64`/`f64` draws only), backoff (fixed, exponential, full / equal /
//!   decorrelated jitter, AWS blog), the per-job statistics columns, a downstream's
//!   [`CallResult`].
//! * [`jobs`]: the jobs table with the source documents' `enqueue` / `claim` / `complete` /
//!   `release`.
//! * [`engine`]: [`Simulation`]: workers, claim strategies, downstream, intake, side effects.
//! * [`setup`]: what a run is made of: [`SimConfig`] and its checks, [`ConfigError`], the named
//!   scenarios, "Your settings" and the JSON config file.
//! * [`results`]: what a run produced: the report, the event log (typed entries, rendered in
//!   English or Japanese), per-step frames, the queue-depth series, the four charts and the
//!   comparison of two runs.
//! * [`reference`](mod@reference): the models the engine is checked against: Erlang C (M/M/c
//!   mean wait) and the AWS study's versioned-row contention model.
//! * [`runner`]: the one run path: a [`runner::RunSpec`] (which preset, which seed) run by
//!   [`runner::execute`] for the CLI and the browser's worker alike; the page's view of a
//!   finished run; the worker's typed messages; Compare's alternatives.
//!
//! Sources: source documents `000` and `003` (`docs/DOMAIN.md` §2–§4), AWS Architecture Blog
//! "Exponential Backoff And Jitter" (§5), Erlang C.

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
pub use jobs::{
    ErrorId, ExpiryRule, Job, JobId, JobsTable, KindId, Released, Retention, Status, Transition,
};
pub use reference::contention::{run_contention, ContentionConfig, ContentionResult, STUDY_RUNS};
#[cfg(not(target_arch = "wasm32"))]
pub use results::charts::CallRates;
pub use results::log::{EventLog, LogEntry, LogEvent, LogNames};
pub use results::report::{JobRow, Metrics, Percentiles, Report};
pub use setup::config::{
    Arrivals, ClaimStrategy, Downstream, DurationDist, Effect, ErrorClass, FailureModel,
    InWorkerRetry, Intake, JobKind, Limits, Pattern, SimConfig, TokenBucket, WorkerSpec,
};
pub use setup::config_file::{load_config, parse_file, SimConfigFile};
pub use setup::error::{ConfigError, Num, Reason};
pub use setup::scenario::{run_scenario, trace_digest, Scenario};

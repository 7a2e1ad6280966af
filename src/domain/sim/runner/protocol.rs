//! The messages exchanged with the browser's simulation worker (JSON strings over
//! `postMessage`) and what the worker keeps between them ([`WorkerState`]). Pure: the worker
//! binary only forwards these strings; the page's session is `ui::simulate::worker`.

use super::path::{execute, Preset, Purpose, RunSpec, LOAD_SCENARIO};
use super::view::RunView;
use crate::domain::sim::results::charts::ChartData;
use crate::domain::sim::results::compare::KeyNumbers;
use crate::domain::sim::results::compare_html::{compare_html, Side};
use crate::domain::sim::results::drawn::compared;
use crate::domain::sim::results::log::{EventLog, LogEntry, LogNames};
use crate::domain::sim::results::run_html::{facts_html, jobs_html};
use crate::domain::sim::setup::error::ConfigError;
use crate::domain::sim::setup::limits::DEFAULT_LOAD_JOBS;
use serde::{Deserialize, Serialize};

/// The worker's first message: requests can come (the page holds them until then).
pub const WORKER_READY: &str = "ready";

/// Most log entries in one [`RunMessage::LogSlice`].
pub const MAX_SLICE: u32 = 1_000;

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// Echoed in every answer, so a late answer to an older request can be told apart.
    pub id: u64,
    /// Scenario name, e.g. `claim-race`.
    pub scenario: String,
    /// Variant (`None`: the scenario's first).
    pub variant: Option<String>,
    /// RNG seed.
    pub seed: u64,
    /// Jobs to generate, for [`LOAD_SCENARIO`] only (1 ..= [`MAX_LOAD_JOBS`](crate::domain::sim::setup::limits::MAX_LOAD_JOBS)).
    #[serde(default)]
    pub jobs: Option<u64>,
    /// "Your settings" to run instead of a named scenario (`scenario` is then ignored). Run
    /// as its config file ([`CustomRun::to_file`](crate::domain::sim::setup::knobs::CustomRun::to_file)) with
    /// `seed`, named `config` / `file` like the CLI's `--config` run, so the trace hashes
    /// agree. A refused config comes back as [`RunMessage::Failed`] naming each file field.
    /// (The flat settings, not the file, cross the worker boundary: the file's parser would
    /// add ~20 KB to the worker.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<crate::domain::sim::setup::knobs::CustomRun>,
}

/// Compare's second run: `run`, compared with the worker's previous run `with` (its id). The
/// answer's [`Drawn::compared`](crate::domain::sim::results::drawn::Drawn::compared) then holds
/// both runs' charts on shared scales and the differences and event logs as HTML (nothing when the
/// worker no longer holds run `with`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// What to run.
    pub run: RunRequest,
    /// The id of the run it is compared with.
    pub with: u64,
    /// B's one change when B is the previous run's settings with one change
    /// ([`Change::id`](crate::domain::sim::setup::knobs::Change::id)): the differences then say
    /// why the runs can come out the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_why: Option<String>,
}

impl RunRequest {
    /// The request for running `spec` as run `id`; `None` for a `Preset::File` (config
    /// files are run by the CLI: the file's parser stays out of the worker). The seed `None`
    /// is sent as 1.
    pub fn new(id: u64, spec: &RunSpec) -> Option<RunRequest> {
        let seed = spec.seed.unwrap_or(1);
        let (scenario, variant, jobs, custom) = match &spec.preset {
            Preset::Scenario { name, variant } => (name.clone(), variant.clone(), None, None),
            Preset::YourSettings(c) => {
                (super::CONFIG_RUN.0.to_owned(), None, None, Some(c.clone()))
            }
            Preset::Load { jobs } => (LOAD_SCENARIO.to_owned(), None, Some(*jobs), None),
            #[cfg(not(target_arch = "wasm32"))]
            Preset::File(_) => return None,
        };
        Some(RunRequest {
            id,
            scenario,
            variant,
            seed,
            jobs,
            custom,
        })
    }

    /// What this request runs: its settings when it has them, the load preset by its name
    /// (with [`DEFAULT_LOAD_JOBS`] when it names no count), else the named scenario.
    pub fn spec(&self) -> RunSpec {
        let preset = match (&self.custom, self.scenario.as_str()) {
            (Some(c), _) => Preset::YourSettings(c.clone()),
            (None, LOAD_SCENARIO) => Preset::Load {
                jobs: self.jobs.unwrap_or(DEFAULT_LOAD_JOBS),
            },
            (None, name) => Preset::Scenario {
                name: name.to_owned(),
                variant: self.variant.clone(),
            },
        };
        RunSpec {
            preset,
            seed: Some(self.seed),
        }
    }
}

/// Asks the worker for log lines of a finished run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogRequest {
    /// The run's request id ([`RunRequest::id`]).
    pub log_of: u64,
    /// First line wanted, 0-based (0 ..= the log's length).
    pub from: u64,
    /// Lines wanted (at most [`MAX_SLICE`] are sent; fewer at the end).
    pub count: u32,
}

/// A message from the worker, as JSON externally tagged: `{"done": {"id": 3, "view": {…}}}`
/// (read straight from the text: an internally tagged message would be buffered whole before
/// it is read, and that reader took ~6 KB brotli of the page's wasm).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunMessage {
    /// Still running.
    Progress {
        /// The request's id.
        id: u64,
        /// Events processed so far.
        events: u64,
    },
    /// Finished.
    Done {
        /// The request's id.
        id: u64,
        /// The result.
        view: Box<RunView>,
    },
    /// Refused (bad request) — nothing ran.
    Failed {
        /// The request's id (0 when the request could not be read).
        id: u64,
        /// What was wrong, each naming the field, typed so the page words it in its
        /// language ([`ConfigError::message`]).
        errors: Vec<ConfigError>,
    },
    /// Lines `from .. from + entries.len()` of run `id`'s log.
    LogSlice {
        /// The run's request id.
        id: u64,
        /// Index of the first entry.
        from: u64,
        /// Lines in the whole log.
        total: u64,
        /// The entries (render them with the run's [`RunView::log_names`]).
        entries: Vec<LogEntry>,
    },
    /// A log request that cannot be answered (nothing changes).
    LogError {
        /// The run's request id asked for.
        id: u64,
        /// Why, naming the field and the allowed range.
        error: String,
    },
    /// A capacity request is still running: `done` of `total` runs of the sweep.
    SizeProgress {
        /// The request's id.
        id: u64,
        /// Runs done.
        done: u64,
        /// Runs in the sweep.
        total: u64,
    },
    /// A capacity request's answer, drawn.
    Sized {
        /// The request's id.
        id: u64,
        /// The answer.
        view: Box<super::CapacityView>,
    },
    /// A capacity request refused — nothing ran.
    SizeFailed {
        /// The request's id (0 when the request could not be read).
        id: u64,
        /// Why, typed (the page words it in its language).
        error: super::CapacityError,
    },
}

/// What the worker keeps between messages: the last finished run's whole event log, and its
/// chart data, scenario, key numbers and log names (for a comparison with the next run:
/// [`CompareRequest`], which compares the two whole logs).
#[derive(Debug, Default)]
pub struct WorkerState {
    last: Option<(u64, EventLog)>,
    last_view: Option<Held>,
    /// Wall clock in ms (the worker's `Date.now`), to time each run; none natively.
    clock: Option<fn() -> f64>,
}

/// What a comparison reads of the previous run ([`WorkerState`]); its whole event log is
/// [`WorkerState`]'s `last`.
#[derive(Debug)]
struct Held {
    id: u64,
    scenario: String,
    charts: ChartData,
    key: KeyNumbers,
    log_names: LogNames,
    log_micros: bool,
}

impl Held {
    fn of(view: &RunView) -> Held {
        Held {
            id: view.run_id,
            scenario: view.scenario.clone(),
            charts: view.charts.clone(),
            key: view.key.clone(),
            log_names: view.log_names.clone(),
            log_micros: view.log_micros,
        }
    }
}

/// The comparison side of a run: its key numbers, log names and precision from `view`
/// (or what was held of it), with its whole event log `log`.
fn side<'a>(
    key: &'a KeyNumbers,
    names: &'a LogNames,
    micros: bool,
    log: &'a [LogEntry],
) -> Side<'a> {
    Side {
        key,
        log,
        names,
        total: log.len() as u64,
        micros,
    }
}

impl WorkerState {
    /// A worker that holds no log yet.
    pub fn new() -> WorkerState {
        WorkerState::default()
    }

    /// A worker that times each run with `clock` (ms) into [`RunView::wall_ms`].
    pub fn with_clock(clock: fn() -> f64) -> WorkerState {
        WorkerState {
            clock: Some(clock),
            ..WorkerState::default()
        }
    }

    /// Handles one message (JSON text): a [`LogRequest`] is answered with a
    /// [`RunMessage::LogSlice`] or [`RunMessage::LogError`]; a [`CompareRequest`] runs its run
    /// and draws the comparison; anything else is read as a [`RunRequest`] (see [`handle`]); a finished run's log replaces the one held. Returns
    /// the final message as JSON text. Never panics on any input.
    pub fn handle(&mut self, json: &str, every: u64, mut post: impl FnMut(String)) -> String {
        let to_json = |m: &RunMessage| crate::domain::json::compact(m);
        to_json(&self.answer(json, every, |m| post(to_json(&m))))
    }

    /// Handles one message (JSON text) as [`WorkerState::handle`] does, the messages typed:
    /// progress goes to `post`, the final message is returned.
    pub fn answer(&mut self, json: &str, every: u64, post: impl FnMut(RunMessage)) -> RunMessage {
        if let Ok(req) = serde_json::from_str::<LogRequest>(json) {
            return self.slice(&req);
        }
        let mut post = post;
        if let Some(answer) = capacity_answer(json, &mut post) {
            return answer;
        }
        match serde_json::from_str::<CompareRequest>(json) {
            Ok(c) => self.run(Ok(c.run), Some((c.with, c.same_why)), every, post),
            Err(_) => self.run(serde_json::from_str(json), None, every, post),
        }
    }

    /// Answers a log request from the log held.
    pub fn slice(&self, req: &LogRequest) -> RunMessage {
        let id = req.log_of;
        let Some((_, log)) = self.last.as_ref().filter(|(held, _)| *held == id) else {
            return RunMessage::LogError {
                id,
                error: format!(
                    "log_of: run {id} is not held (the worker keeps only the last finished run's log)"
                ),
            };
        };
        let total = log.len() as u64;
        if req.from > total {
            return RunMessage::LogError {
                id,
                error: format!("from: {} is out of range; allowed: 0 to {total}", req.from),
            };
        }
        let count = req.count.min(MAX_SLICE) as usize;
        RunMessage::LogSlice {
            id,
            from: req.from,
            total,
            entries: log.slice(req.from as usize, count),
        }
    }

    fn run(
        &mut self,
        req: serde_json::Result<RunRequest>,
        compare_with: Option<(u64, Option<String>)>,
        every: u64,
        mut post: impl FnMut(RunMessage),
    ) -> RunMessage {
        let req = match req {
            Ok(req) => req,
            Err(e) => {
                return RunMessage::Failed {
                    id: 0,
                    errors: vec![ConfigError::Parse {
                        field: "request".into(),
                        message: e.to_string(),
                    }],
                }
            }
        };
        let id = req.id;
        let progress = |events| post(RunMessage::Progress { id, events });
        let started = self.clock.map(|c| c());
        match run_with_log(&req, every, progress) {
            Ok((mut view, log)) => {
                if let (Some(c), Some(t0)) = (self.clock, started) {
                    view.wall_ms = Some((c() - t0).max(0.0) as u64);
                }
                // Drawn after the wall time is known: the facts name it.
                view.drawn.facts = facts_html(&view);
                view.drawn.jobs = jobs_html(&view);
                let held = self.last_view.as_ref().zip(self.last.as_ref());
                if let (Some((a, (a_id, a_log))), Some((with, why))) = (held, compare_with) {
                    if with == a.id && *a_id == a.id {
                        let mut c =
                            compared((&a.charts, &a.scenario), (&view.charts, &view.scenario));
                        // Both whole logs: every line is compared, not only the heads sent
                        // to the page.
                        let (a_lines, b_lines) =
                            (a_log.slice(0, a_log.len()), log.slice(0, log.len()));
                        c.table = compare_html(
                            side(&a.key, &a.log_names, a.log_micros, &a_lines),
                            side(&view.key, &view.log_names, view.log_micros, &b_lines),
                            why.as_deref(),
                        );
                        view.drawn.compared = Some(c);
                    }
                }
                self.last_view = Some(Held::of(&view));
                self.last = Some((id, log));
                RunMessage::Done {
                    id,
                    view: Box::new(view),
                }
            }
            Err(errors) => RunMessage::Failed { id, errors },
        }
    }
}

/// Runs `req` through the one run path ([`execute`]), calling `progress(events)` every
/// `every` events; returns the view, named `req.id`.
///
/// # Errors
/// The request's problems (unknown scenario or variant, a bad config), each naming the field.
pub fn run(
    req: &RunRequest,
    every: u64,
    progress: impl FnMut(u64),
) -> Result<RunView, Vec<ConfigError>> {
    run_with_log(req, every, progress).map(|(view, _)| view)
}

/// [`run`], also returning the whole event log.
///
/// # Errors
/// As [`run`].
pub fn run_with_log(
    req: &RunRequest,
    every: u64,
    progress: impl FnMut(u64),
) -> Result<(RunView, EventLog), Vec<ConfigError>> {
    let finished = execute(&req.spec(), Purpose::Page { every }, progress)?;
    Ok(finished.into_view(req.id))
}

/// Handles one request message (JSON text) and returns the final message as JSON text;
/// progress messages go to `post` as they happen. Never panics on any input. (Stateless: the
/// worker uses [`WorkerState::handle`], which also answers log requests.)
pub fn handle(request_json: &str, every: u64, post: impl FnMut(String)) -> String {
    WorkerState::new().handle(request_json, every, post)
}

/// The worker's answer to a message that is a capacity request (`Some`), progress going to
/// `post`; `None` when `json` is not one (another request).
fn capacity_answer(json: &str, mut post: impl FnMut(RunMessage)) -> Option<RunMessage> {
    let env = match serde_json::from_str::<super::CapacityEnvelope>(json) {
        Ok(env) => env,
        Err(e) if json.trim_start().starts_with("{\"capacity\"") => {
            return Some(RunMessage::SizeFailed {
                id: 0,
                error: super::CapacityError::Request(e.to_string()),
            })
        }
        Err(_) => return None,
    };
    let id = env.capacity.id;
    let progress = |done, total| post(RunMessage::SizeProgress { id, done, total });
    Some(match super::size_request(&env.capacity, progress) {
        Ok(view) => RunMessage::Sized {
            id,
            view: Box::new(view),
        },
        Err(error) => RunMessage::SizeFailed { id, error },
    })
}

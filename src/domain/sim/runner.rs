//! Running a named scenario in slices with progress, and the messages exchanged with the
//! browser's simulation worker (JSON strings over `postMessage`). Pure: the worker only
//! forwards these strings.
//!
//! Protocol: the page sends a [`RunRequest`]; the worker answers with zero or more
//! [`RunMessage::Progress`], then one [`RunMessage::Done`] or [`RunMessage::Failed`].
//! Cancelling is terminating the worker.
//!
//! The event log stays in the worker: [`RunView`] carries its length, its first
//! [`LOG_HEAD`] entries and the names they refer to. The worker ([`WorkerState`]) keeps the
//! last finished run's log; the page asks for the lines it shows with a [`LogRequest`] and
//! gets a [`RunMessage::LogSlice`] (or a [`RunMessage::LogError`]), in request order.

use crate::domain::lang::Lang;
use crate::domain::sim::engine::Simulation;
use crate::domain::sim::results::charts::ChartData;
use crate::domain::sim::results::frames::{run_with_frames, Frame};
use crate::domain::sim::results::log::{EventLog, LogEntry, LogNames, BUILTIN_ERRORS};
use crate::domain::sim::results::report::Report;
use crate::domain::sim::setup::scenario::Scenario;
use rust_i18n::t;
use serde::{Deserialize, Serialize};

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
    /// Jobs to generate, for [`LOAD_SCENARIO`] only (1 ..= [`MAX_LOAD_JOBS`]).
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

/// The load preset: the benchmark's M/M/c-with-retries model (3 workers, λ = 20/s,
/// μ = 10/s, 10 % of runs fail and retry with full jitter) at a chosen number of jobs.
pub const LOAD_SCENARIO: &str = "mmc-load";

/// The most jobs the load preset runs in the browser.
pub const MAX_LOAD_JOBS: u64 = 1_000_000;

/// Rows of the jobs table sent to the page at most (the counts cover every row). Rendering
/// a thousand rows took ~70 ms of main-thread time after a 10⁶-job run; 200 take little.
pub const MAX_VIEW_ROWS: usize = 200;

/// The load preset records its event log up to this many jobs. The M/M/c model writes about
/// 3.2 lines per job (enqueued, claimed, done, plus a retry for one run in ten): 500 000 jobs
/// give 1 611 938 lines (seed 1), 64 MB at 40 bytes a line, on top of the run's own tables.
/// Measured natively (peak resident memory of the run, 500 000 jobs): 58 MB without the log,
/// 121 MB with it; the worker's wasm memory grows alike. Larger runs keep no log.
pub const LOG_MAX_JOBS: u64 = 500_000;

/// Log entries sent inline with the result ([`RunView::log_head`]).
pub const LOG_HEAD: usize = 200;

/// Most log entries in one [`RunMessage::LogSlice`].
pub const MAX_SLICE: u32 = 1_000;

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

/// One row of the final jobs table, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobView {
    /// Row id.
    pub id: u64,
    /// Handler name.
    pub name: String,
    /// `queued`, `running`, `done` or `dead`.
    pub status: String,
    /// Times claimed.
    pub attempts: u32,
    /// Claims allowed.
    pub max_attempts: u32,
    /// Error of the latest failed attempt (kept on `done`).
    pub last_error: Option<String>,
}

/// The locale keys of the engine's own error texts, in [`BUILTIN_ERRORS`] order (the event
/// log's translations of them, `locales/sim-log.yml`).
const BUILTIN_ERROR_KEYS: [&str; 4] = [
    "sim-log.err.lease-expired",
    "sim-log.call.busy",
    "sim-log.call.rate-limited",
    "sim-log.call.unavailable",
];

impl JobView {
    /// [`JobView::last_error`] in `lang` (empty when there is none): the engine's own errors
    /// (lease expired, busy, rate limited, unavailable) in the words the event log uses for
    /// them; a handler's own message (e.g. `TimeoutError: …`) stays as raised. The CLI and
    /// JSON keep the English `last_error`.
    pub fn last_error_in(&self, lang: Lang) -> String {
        let e = self.last_error.as_deref().unwrap_or_default();
        match BUILTIN_ERRORS.iter().position(|b| *b == e) {
            Some(i) => t!(BUILTIN_ERROR_KEYS[i], locale = lang.code()).into_owned(),
            None => e.to_owned(),
        }
    }
}

/// What the page shows of a finished run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// The request's id ([`RunRequest::id`]): what [`LogRequest::log_of`] names.
    #[serde(default)]
    pub run_id: u64,
    /// Scenario name.
    pub scenario: String,
    /// Variant name.
    pub variant: String,
    /// Seed used.
    pub seed: u64,
    /// [`trace_hash`] of the report: equal to the CLI's for the same scenario, variant and seed.
    pub trace_hash: String,
    /// The final jobs table.
    pub jobs: Vec<JobView>,
    /// Rows done / dead / queued / running.
    pub counts: [u64; 4],
    /// The store's balance, when a kind has a side effect (duplicate execution).
    pub balance: Option<i64>,
    /// Worker → first job id it claimed.
    pub claims: Vec<(String, u64)>,
    /// Worker → claim error (row locks).
    pub errors: Vec<(String, String)>,
    /// Duplicate side effects applied; second runs stopped by the idempotency key.
    pub duplicates: (u64, u64),
    /// Submissions accepted / failed back to the user; downstream calls ok / busy.
    pub intake: (u64, u64, u64, u64),
    /// Jitter study: mean calls and mean completion time (ms) over the runs.
    pub contention: Option<(f64, f64)>,
    /// Events processed.
    pub events: u64,
    /// Lines in the event log (0 when none was recorded).
    pub log_total: u64,
    /// The log's first [`LOG_HEAD`] entries (all of a short log); the rest stay in the worker.
    pub log_head: Vec<LogEntry>,
    /// The names and texts the entries refer to.
    pub log_names: LogNames,
    /// The whole log's times have six decimals ([`EventLog::micros`]); render lines with
    /// [`RunView::log_line`] so the page's time column matches the CLI's.
    #[serde(default)]
    pub log_micros: bool,
    /// `Some(n)` when no log was recorded because the run had more than `n` jobs (the load
    /// preset: [`LOG_MAX_JOBS`]; custom settings: [`LOG_JOBS`](crate::domain::sim::setup::knobs::LOG_JOBS)).
    pub log_bound: Option<u64>,
    /// One [`Frame`] per engine step for stepping the run (the start first); empty for the
    /// jitter study, the load preset and runs over
    /// [`MAX_FRAME_EVENTS`](crate::domain::sim::results::frames::MAX_FRAME_EVENTS) events.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// The figures a comparison looks at.
    #[serde(default)]
    pub key: crate::domain::sim::results::compare::KeyNumbers,
    /// What the four charts draw (empty for the jitter study); a few KB even for 10⁶ jobs.
    #[serde(default)]
    pub charts: ChartData,
}

/// A message from the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
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
        /// What was wrong, naming the field.
        errors: Vec<String>,
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
}

/// A 64-bit FNV-1a digest of the report's JSON, as 16 hex digits: the run's fingerprint.
/// The same scenario, variant and seed give the same hash natively (`simulate`) and in the
/// browser.
pub fn trace_hash(report: &Report) -> String {
    // Hashed as it is written: a long run's JSON is never held whole.
    let mut h = Fnv1a(FNV_OFFSET);
    let _ = serde_json::to_writer(&mut h, report);
    format!("{:016x}", h.0)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A running 64-bit FNV-1a over the bytes written to it.
struct Fnv1a(u64);

impl Fnv1a {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl std::io::Write for Fnv1a {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.add(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// 64-bit FNV-1a of `bytes` as 16 hex digits.
fn fnv1a(bytes: &[u8]) -> String {
    let mut h = Fnv1a(FNV_OFFSET);
    h.add(bytes);
    format!("{:016x}", h.0)
}

/// The page's view of a report (with no log: see `with_log`; without [`RunView::charts`],
/// which needs the run itself).
pub fn view_of(report: &Report, events: u64) -> RunView {
    let count = |s: &str| report.jobs.iter().filter(|j| status_name(j) == s).count() as u64;
    let m = report.metrics.as_ref();
    RunView {
        run_id: 0,
        scenario: report.scenario.clone(),
        variant: report.variant.clone(),
        seed: report.seed,
        trace_hash: trace_hash(report),
        jobs: report
            .jobs
            .iter()
            .map(|j| JobView {
                id: j.id,
                name: j.name.clone(),
                status: status_name(j),
                attempts: j.attempts,
                max_attempts: j.max_attempts,
                last_error: j.last_error.clone(),
            })
            .collect(),
        // From the metrics when the run has them: they also count rows a retention deleted.
        counts: m.map_or_else(
            || {
                [
                    count("done"),
                    count("dead"),
                    count("queued"),
                    count("running"),
                ]
            },
            |m| [m.done, m.dead, m.queued, m.running],
        ),
        balance: report.balance,
        claims: report.claims.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        errors: report
            .errors
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        duplicates: m.map_or((0, 0), |m| {
            (m.counters.duplicate_effects, m.counters.prevented_by_key)
        }),
        intake: m.map_or((0, 0, 0, 0), |m| {
            (
                m.counters.accepted,
                m.counters.failed_to_user,
                m.counters.calls_ok,
                m.counters.calls_busy,
            )
        }),
        contention: report
            .contention
            .as_ref()
            .map(|c| (c.calls_mean, c.completion_ms_mean)),
        events,
        log_total: 0,
        log_head: Vec::new(),
        log_names: LogNames::default(),
        log_micros: false,
        log_bound: None,
        frames: Vec::new(),
        key: crate::domain::sim::results::compare::KeyNumbers::of_report(report),
        charts: ChartData::default(),
    }
}

/// Puts the log's length, head and names into `view`.
fn with_log(mut view: RunView, log: &EventLog, names: LogNames) -> RunView {
    view.log_total = log.len() as u64;
    view.log_head = log.slice(0, LOG_HEAD);
    view.log_names = names;
    view.log_micros = log.micros();
    view
}

impl RunView {
    /// Entry `e` of this run's log as a [`Line`](crate::domain::sim::results::log::Line), its times with the whole
    /// log's precision ([`RunView::log_micros`]).
    pub fn log_line<'a>(&'a self, e: &'a LogEntry) -> crate::domain::sim::results::log::Line<'a> {
        crate::domain::sim::results::log::Line {
            micros: self.log_micros,
            ..self.log_names.line(e)
        }
    }
}

fn status_name(j: &crate::domain::sim::results::report::JobRow) -> String {
    serde_json::to_value(j.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The load preset's config: `jobs` jobs of the benchmark model
/// ([`MmcModel::bench`](crate::domain::sim::reference::erlang::MmcModel::bench)) with seed `seed`, the event log kept up
/// to [`LOG_MAX_JOBS`] jobs.
///
/// # Errors
/// `jobs` outside `1 ..= MAX_LOAD_JOBS`, as "jobs: N is out of range; allowed: 1 to …".
pub fn load_preset_config(jobs: u64, seed: u64) -> Result<super::SimConfig, String> {
    if !(1..=MAX_LOAD_JOBS).contains(&jobs) {
        return Err(format!(
            "jobs: {jobs} is out of range; allowed: 1 to {MAX_LOAD_JOBS}"
        ));
    }
    let mut cfg = crate::domain::sim::reference::erlang::MmcModel::bench(jobs, seed).config();
    cfg.log = jobs <= LOG_MAX_JOBS;
    Ok(cfg)
}

/// A finished load-preset run's counts per state (done, dead, queued, running) and its trace
/// hash: 64-bit FNV-1a of the scenario, job count, seed, events, end time (µs) and counts —
/// a fingerprint that needs no serialised table (the page and `simulate --scenario mmc-load`
/// show the same one for the same run).
pub fn load_fingerprint(sim: &Simulation, jobs: u64, seed: u64) -> ([u64; 4], String) {
    use crate::domain::sim::jobs::Status;
    let t = sim.table();
    let counts = [
        t.count(Status::Done),
        t.count(Status::Dead),
        t.count(Status::Queued),
        t.count(Status::Running),
    ];
    let fingerprint = format!(
        "{LOAD_SCENARIO}|{jobs}|{seed}|{}|{}|{counts:?}",
        sim.events(),
        sim.now().as_micros()
    );
    (counts, fnv1a(fingerprint.as_bytes()))
}

/// Runs the load preset: `jobs` jobs of the M/M/c-with-retries model, with an event log up
/// to [`LOG_MAX_JOBS`] jobs.
fn run_load(
    req: &RunRequest,
    every: u64,
    progress: &mut impl FnMut(u64),
) -> Result<(RunView, EventLog), Vec<String>> {
    let jobs = req.jobs.unwrap_or(10_000);
    let cfg = load_preset_config(jobs, req.seed).map_err(|e| vec![e])?;
    let mut sim = Simulation::new(cfg)
        .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    step_all(&mut sim, every, progress);
    let t = sim.table();
    let job_rows: Vec<JobView> = t
        .iter()
        .take(MAX_VIEW_ROWS)
        .map(|r| JobView {
            id: r.id.0,
            name: sim.kind_name(r.kind).to_owned(),
            status: serde_json::to_value(r.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            attempts: r.attempts,
            max_attempts: r.max_attempts,
            last_error: r.last_error.map(|e| sim.error_text(e).to_owned()),
        })
        .collect();
    let (counts, hash) = load_fingerprint(&sim, jobs, req.seed);
    let (log, names) = sim.take_log();
    let view = RunView {
        run_id: req.id,
        scenario: LOAD_SCENARIO.into(),
        variant: "bench".into(),
        seed: req.seed,
        trace_hash: hash,
        jobs: job_rows,
        counts,
        balance: None,
        claims: Vec::new(),
        errors: Vec::new(),
        duplicates: (0, 0),
        intake: (0, 0, 0, 0),
        contention: None,
        events: sim.events(),
        log_total: 0,
        log_head: Vec::new(),
        log_names: LogNames::default(),
        log_micros: false,
        log_bound: (jobs > LOG_MAX_JOBS).then_some(LOG_MAX_JOBS),
        frames: Vec::new(),
        key: crate::domain::sim::results::compare::KeyNumbers {
            queue: true,
            done: counts[0],
            dead: counts[1],
            unfinished: counts[2] + counts[3],
            runs: sim.counters().runs,
            end_s: sim.now().as_secs_f64(),
            ..Default::default()
        },
        charts: ChartData::of_sim(&sim),
    };
    Ok((with_log(view, &log, names), log))
}

/// Runs custom settings as their config file (the CLI's `simulate --config FILE.json --seed
/// N`): the same report, hence the same trace hash. The jobs table sent to the page is cut to
/// [`MAX_VIEW_ROWS`] (the counts cover every row).
fn run_config(
    custom: &crate::domain::sim::setup::knobs::CustomRun,
    seed: u64,
    every: u64,
    progress: &mut impl FnMut(u64),
) -> Result<(RunView, EventLog), Vec<String>> {
    let mut cfg = custom
        .to_file(0)
        .into_config()
        .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    cfg.seed = seed;
    let logged = cfg.log;
    let mut sim = Simulation::new(cfg)
        .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let frames = run_with_frames(&mut sim, every, progress);
    let report = Report::from_sim(&sim, "config", "file");
    let mut view = view_of(&report, sim.events());
    view.jobs.truncate(MAX_VIEW_ROWS);
    view.frames = frames;
    view.log_bound = (!logged).then_some(crate::domain::sim::setup::knobs::LOG_JOBS);
    view.charts = ChartData::of_sim(&sim);
    let (log, names) = sim.take_log();
    Ok((with_log(view, &log, names), log))
}

fn step_all(sim: &mut Simulation, every: u64, progress: &mut impl FnMut(u64)) {
    let every = every.max(1);
    let mut next = every;
    while sim.step() {
        if sim.events() >= next {
            progress(sim.events());
            next = sim.events() + every;
        }
    }
}

/// Runs `req`, calling `progress(events)` every `every` events; returns the view.
///
/// # Errors
/// The request's problems (unknown scenario or variant, a bad config), each naming the field.
pub fn run(
    req: &RunRequest,
    every: u64,
    progress: impl FnMut(u64),
) -> Result<RunView, Vec<String>> {
    run_with_log(req, every, progress).map(|(view, _)| view)
}

/// [`run`], also returning the whole event log.
///
/// # Errors
/// As [`run`].
pub fn run_with_log(
    req: &RunRequest,
    every: u64,
    mut progress: impl FnMut(u64),
) -> Result<(RunView, EventLog), Vec<String>> {
    if let Some(custom) = &req.custom {
        return run_config(custom, req.seed, every, &mut progress);
    }
    if req.scenario == LOAD_SCENARIO {
        return run_load(req, every, &mut progress);
    }
    let sc = Scenario::parse(&req.scenario).map_err(|e| vec![e.to_string()])?;
    let v = sc
        .variant(req.variant.as_deref())
        .map_err(|e| vec![e.to_string()])?;
    match sc
        .config(Some(v), req.seed)
        .map_err(|e| vec![e.to_string()])?
    {
        Some(cfg) => {
            let mut sim = Simulation::new(cfg)
                .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>())?;
            let frames = run_with_frames(&mut sim, every, &mut progress);
            let report = Report::from_sim(&sim, sc.id(), v);
            let mut view = view_of(&report, sim.events());
            view.run_id = req.id;
            view.frames = frames;
            view.charts = ChartData::of_sim(&sim);
            let (log, names) = sim.take_log();
            Ok((with_log(view, &log, names), log))
        }
        None => {
            // The jitter study is not a queue model: its own runner, same report shape.
            let report =
                crate::domain::sim::setup::scenario::run_scenario(sc.id(), Some(v), req.seed)
                    .map_err(|e| vec![e.to_string()])?;
            let mut view = view_of(&report, 0);
            view.run_id = req.id;
            Ok((view, EventLog::new()))
        }
    }
}

/// What the worker keeps between messages: the last finished run's event log.
#[derive(Debug, Default)]
pub struct WorkerState {
    last: Option<(u64, EventLog)>,
}

impl WorkerState {
    /// A worker that holds no log yet.
    pub fn new() -> WorkerState {
        WorkerState::default()
    }

    /// Handles one message (JSON text): a [`LogRequest`] is answered with a
    /// [`RunMessage::LogSlice`] or [`RunMessage::LogError`]; anything else is read as a
    /// [`RunRequest`] (see [`handle`]); a finished run's log replaces the one held. Returns
    /// the final message as JSON text. Never panics on any input.
    pub fn handle(&mut self, json: &str, every: u64, post: impl FnMut(String)) -> String {
        let msg = match serde_json::from_str::<LogRequest>(json) {
            Ok(req) => self.slice(&req),
            Err(_) => self.run(json, every, post),
        };
        serde_json::to_string(&msg).unwrap_or_default()
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

    fn run(&mut self, json: &str, every: u64, mut post: impl FnMut(String)) -> RunMessage {
        match serde_json::from_str::<RunRequest>(json) {
            Err(e) => RunMessage::Failed {
                id: 0,
                errors: vec![format!("request: {e}")],
            },
            Ok(req) => {
                let id = req.id;
                let progress = |events| {
                    post(
                        serde_json::to_string(&RunMessage::Progress { id, events })
                            .unwrap_or_default(),
                    )
                };
                match run_with_log(&req, every, progress) {
                    Ok((view, log)) => {
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
    }
}

/// Handles one request message (JSON text) and returns the final message as JSON text;
/// progress messages go to `post` as they happen. Never panics on any input. (Stateless: the
/// worker uses [`WorkerState::handle`], which also answers log requests.)
pub fn handle(request_json: &str, every: u64, post: impl FnMut(String)) -> String {
    WorkerState::new().handle(request_json, every, post)
}

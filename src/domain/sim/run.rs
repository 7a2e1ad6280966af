//! Running a named scenario in slices with progress, and the messages exchanged with the
//! browser's simulation worker (JSON strings over `postMessage`). Pure: the worker only
//! forwards these strings.
//!
//! Protocol: the page sends a [`RunRequest`]; the worker answers with zero or more
//! [`RunMessage::Progress`], then one [`RunMessage::Done`] or [`RunMessage::Failed`].
//! Cancelling is terminating the worker.

use super::engine::Simulation;
use super::report::Report;
use super::scenario::Scenario;
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
}

/// The load preset: the benchmark's M/M/c-with-retries model (3 workers, λ = 20/s,
/// μ = 10/s, 10 % of runs fail and retry with full jitter) at a chosen number of jobs.
pub const LOAD_SCENARIO: &str = "mmc-load";

/// The most jobs the load preset runs in the browser.
pub const MAX_LOAD_JOBS: u64 = 1_000_000;

/// Rows of the jobs table sent to the page at most (the counts cover every row).
pub const MAX_VIEW_ROWS: usize = 1_000;

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

/// What the page shows of a finished run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunView {
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
    /// The event log, one line per event.
    pub log: Vec<String>,
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
}

/// A 64-bit FNV-1a digest of the report's JSON, as 16 hex digits: the run's fingerprint.
/// The same scenario, variant and seed give the same hash natively (`simulate`) and in the
/// browser.
pub fn trace_hash(report: &Report) -> String {
    fnv1a(serde_json::to_string(report).unwrap_or_default().as_bytes())
}

/// 64-bit FNV-1a of `bytes` as 16 hex digits.
fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The page's view of a report.
pub fn view_of(report: &Report, events: u64) -> RunView {
    let count = |s: &str| report.jobs.iter().filter(|j| status_name(j) == s).count() as u64;
    let m = report.metrics.as_ref();
    RunView {
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
        counts: [
            count("done"),
            count("dead"),
            count("queued"),
            count("running"),
        ],
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
        log: report.events.clone(),
    }
}

fn status_name(j: &super::report::JobRow) -> String {
    serde_json::to_value(j.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Runs the load preset: `jobs` jobs of the M/M/c-with-retries model, without an event log.
fn run_load(
    req: &RunRequest,
    every: u64,
    progress: &mut impl FnMut(u64),
) -> Result<RunView, Vec<String>> {
    let jobs = req.jobs.unwrap_or(10_000);
    if !(1..=MAX_LOAD_JOBS).contains(&jobs) {
        return Err(vec![format!(
            "jobs: {jobs} is out of range; allowed: 1 to {MAX_LOAD_JOBS}"
        )]);
    }
    let cfg = super::erlang::MmcModel::bench(jobs, req.seed).config();
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
    use super::jobs::Status;
    let counts = [
        t.count(Status::Done),
        t.count(Status::Dead),
        t.count(Status::Queued),
        t.count(Status::Running),
    ];
    // A fingerprint of the run that does not need the whole table serialised.
    let fingerprint = format!(
        "{LOAD_SCENARIO}|{jobs}|{}|{}|{}|{counts:?}",
        req.seed,
        sim.events(),
        sim.now().as_micros()
    );
    Ok(RunView {
        scenario: LOAD_SCENARIO.into(),
        variant: "bench".into(),
        seed: req.seed,
        trace_hash: fnv1a(fingerprint.as_bytes()),
        jobs: job_rows,
        counts,
        balance: None,
        claims: Vec::new(),
        errors: Vec::new(),
        duplicates: (0, 0),
        intake: (0, 0, 0, 0),
        contention: None,
        events: sim.events(),
        log: Vec::new(),
    })
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
    mut progress: impl FnMut(u64),
) -> Result<RunView, Vec<String>> {
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
            step_all(&mut sim, every, &mut progress);
            let report = Report::from_sim(&sim, sc.id(), v);
            Ok(view_of(&report, sim.events()))
        }
        None => {
            // The jitter study is not a queue model: its own runner, same report shape.
            let report = super::scenario::run_scenario(sc.id(), Some(v), req.seed)
                .map_err(|e| vec![e.to_string()])?;
            Ok(view_of(&report, 0))
        }
    }
}

/// Handles one request message (JSON text) and returns the final message as JSON text;
/// progress messages go to `post` as they happen. Never panics on any input.
pub fn handle(request_json: &str, every: u64, mut post: impl FnMut(String)) -> String {
    let msg = match serde_json::from_str::<RunRequest>(request_json) {
        Err(e) => RunMessage::Failed {
            id: 0,
            errors: vec![format!("request: {e}")],
        },
        Ok(req) => {
            let id = req.id;
            match run(&req, every, |events| {
                post(
                    serde_json::to_string(&RunMessage::Progress { id, events }).unwrap_or_default(),
                )
            }) {
                Ok(view) => RunMessage::Done {
                    id,
                    view: Box::new(view),
                },
                Err(errors) => RunMessage::Failed { id, errors },
            }
        }
    };
    serde_json::to_string(&msg).unwrap_or_default()
}

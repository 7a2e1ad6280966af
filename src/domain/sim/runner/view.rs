//! What the page shows of a finished run ([`RunView`]) and how it is assembled from the
//! run: [`view_of`] a report, the load preset's summary, the log's head. Called from one
//! place, [`Finished::into_view`](super::Finished::into_view).

use super::trace_hash;
use crate::domain::lang::Lang;
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::engine::Simulation;
use crate::domain::sim::results::charts::ChartData;
use crate::domain::sim::results::drawn::{charts_html, timeline_html, Both, Drawn};
use crate::domain::sim::results::frames::Frame;
use crate::domain::sim::results::log::{EventLog, LogEntry, LogNames, BUILTIN_ERRORS};
use crate::domain::sim::results::report::Report;
use crate::domain::sim::results::timeline::{Timeline, MAX_TIMELINE_JOBS};
use crate::text::t;
use serde::{Deserialize, Serialize};

/// The ids of [`RunView::lease_counts`], in order (the page's fact ids and the suffixes of
/// their locale keys `run-result.lease.<id>`).
pub const LEASE_FACTS: [&str; 6] = crate::domain::sim::engine::LEASE_IDS;

/// Rows of the jobs table sent to the page at most (the counts cover every row). Rendering
/// a thousand rows took ~70 ms of main-thread time after a 10⁶-job run; 200 take little.
pub const MAX_VIEW_ROWS: usize = 200;

/// Log entries sent inline with the result ([`RunView::log_head`]).
pub const LOG_HEAD: usize = 200;

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
/// log's translations of them, `locales/simulator/sim-log.yml`).
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
    /// The request's id ([`RunRequest::id`](super::RunRequest::id)), set by the one run path
    /// for every run kind: what [`LogRequest::log_of`](super::LogRequest::log_of) names.
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
    /// What the engine let happen around leases and delivery, in [`LEASE_FACTS`] order
    /// ([`Counters::lease_counts`](crate::domain::sim::Counters::lease_counts); the page says
    /// each one that is not zero).
    #[serde(default)]
    pub lease_counts: [u64; 6],
    /// Why the run stopped when it did not drain ([`StopReason::id`](crate::domain::sim::StopReason::id):
    /// `max-events`, `max-time`, `no-workers`); `None` when nothing was left to do.
    #[serde(default)]
    pub cut_short: Option<String>,
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
    /// preset: [`LOG_MAX_JOBS`](super::LOG_MAX_JOBS); custom settings: [`LOG_JOBS`](crate::domain::sim::setup::knobs::LOG_JOBS)).
    pub log_bound: Option<u64>,
    /// One [`Frame`] per engine step for stepping the run (the start first); empty for the
    /// jitter study, the load preset and runs over
    /// [`MAX_FRAME_EVENTS`](crate::domain::sim::results::frames::MAX_FRAME_EVENTS) events.
    /// (Always written: the worker's compact form reads fields by position.)
    #[serde(default)]
    pub frames: Vec<Frame>,
    /// The figures a comparison looks at.
    #[serde(default)]
    pub key: crate::domain::sim::results::compare::KeyNumbers,
    /// What the four charts draw (empty for the jitter study); a few KB even for 10⁶ jobs.
    #[serde(default)]
    pub charts: ChartData,
    /// The charts and the worker timeline as the worker drew them, in both languages (the
    /// page only inserts them; see [`Drawn`]).
    #[serde(default)]
    pub drawn: Drawn,
    /// Wall-clock time the worker spent computing the run, ms (`None` natively: no clock).
    #[serde(default)]
    pub wall_ms: Option<u64>,
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
        lease_counts: m.map_or([0; 6], |m| m.counters.lease_counts()),
        cut_short: m
            .map(|m| m.stop)
            .filter(|s| *s != crate::domain::sim::StopReason::Drained)
            .map(|s| s.id().to_owned()),
        events,
        log_total: 0,
        log_head: Vec::new(),
        log_names: LogNames::default(),
        log_micros: false,
        log_bound: None,
        frames: Vec::new(),
        key: crate::domain::sim::results::compare::KeyNumbers::of_report(report),
        charts: ChartData::default(),
        drawn: Drawn::default(),
        wall_ms: None,
    }
}

/// Puts the log's length, head and names into `view`.
pub(super) fn with_log(mut view: RunView, log: &EventLog, names: LogNames) -> RunView {
    view.log_total = log.len() as u64;
    view.log_head = log.slice(0, LOG_HEAD);
    view.log_names = names;
    view.log_micros = log.micros();
    view
}

/// Draws `view`'s charts and its worker timeline (from `log`, `names`, the `lease` each claim
/// sets and the run's `end`) into [`RunView::drawn`]; a run that never used the queue (every
/// frame's counts zero, e.g. direct calls) loses its frames: there are no states to step
/// through.
pub(super) fn with_drawing(
    mut view: RunView,
    log: &EventLog,
    names: &LogNames,
    lease: SimDuration,
    end: SimTime,
) -> RunView {
    let run = format!("{}.{}", view.scenario, view.variant);
    view.drawn.charts = charts_html(&view.charts, &run);
    let jobs: u64 = view.counts.iter().sum();
    if !names.workers.is_empty() {
        view.drawn.timeline = if jobs > MAX_TIMELINE_JOBS {
            timeline_html(&run, None, jobs)
        } else {
            let tl = Timeline::build(log.iter(), names, lease, end);
            if tl.runs.is_empty() {
                Both::default()
            } else {
                timeline_html(&run, Some(&|l| tl.svg(l)), jobs)
            }
        };
    }
    if view.frames.iter().all(|f| f.counts == [0; 4]) {
        view.frames.clear();
    }
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

/// The load preset's view: its table summarised to [`MAX_VIEW_ROWS`] rows, its `counts` and
/// fingerprint `hash` ([`load_fingerprint`](super::load_fingerprint)); no log yet.
pub(super) fn load_view(sim: &Simulation, seed: u64, counts: [u64; 4], hash: String) -> RunView {
    let job_rows: Vec<JobView> = sim
        .table()
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
    RunView {
        run_id: 0,
        scenario: super::LOAD_SCENARIO.into(),
        variant: "bench".into(),
        seed,
        trace_hash: hash,
        jobs: job_rows,
        counts,
        balance: None,
        claims: Vec::new(),
        errors: Vec::new(),
        duplicates: (0, 0),
        intake: (0, 0, 0, 0),
        contention: None,
        lease_counts: sim.counters().lease_counts(),
        cut_short: sim
            .stopped()
            .filter(|s| *s != crate::domain::sim::StopReason::Drained)
            .map(|s| s.id().to_owned()),
        events: sim.events(),
        log_total: 0,
        log_head: Vec::new(),
        log_names: LogNames::default(),
        log_micros: false,
        log_bound: None,
        frames: Vec::new(),
        key: crate::domain::sim::results::compare::KeyNumbers {
            queue: true,
            done: counts[0],
            dead: counts[1],
            unfinished: counts[2] + counts[3],
            runs: sim.counters().runs,
            end_s: sim.now().as_secs_f64(),
            leases: sim.counters().lease_counts(),
            ..Default::default()
        },
        charts: ChartData::of_sim(sim),
        drawn: Drawn::default(),
        wall_ms: None,
    }
}

//! The one run path: a typed description of what to run ([`RunSpec`]: a [`Preset`] and a
//! seed) and the one function that runs it ([`execute`]), used by the CLI's `simulate` and by
//! the browser's simulation worker ([`WorkerState`](super::WorkerState)). What comes back
//! ([`Finished`]) gives the CLI its [`Report`] and trace hash, and the page its [`RunView`]
//! (which always carries the request's run id, whatever the preset).

use super::view::{load_view, view_of, with_drawing, with_log, RunView, MAX_VIEW_ROWS};
use super::{fnv1a, trace_hash};
use crate::domain::sim::engine::Simulation;
use crate::domain::sim::results::charts::ChartData;
use crate::domain::sim::results::frames::{run_with_frames, Frame};
use crate::domain::sim::results::log::EventLog;
use crate::domain::sim::results::report::Report;
use crate::domain::sim::setup::config::SimConfig;
#[cfg(not(target_arch = "wasm32"))]
use crate::domain::sim::setup::config_file::SimConfigFile;
use crate::domain::sim::setup::error::ConfigError;
use crate::domain::sim::setup::knobs::{CustomRun, LOG_JOBS};
use crate::domain::sim::setup::limits::{LOG_MAX_JOBS, MAX_LOAD_JOBS};
use crate::domain::sim::setup::scenario::{run_scenario, Scenario};

/// The load preset: the benchmark's M/M/c-with-retries model (3 workers, λ = 20/s,
/// μ = 10/s, 10 % of runs fail and retry with full jitter) at a chosen number of jobs.
pub const LOAD_SCENARIO: &str = "mmc-load";

/// The scenario and variant names a config run reports (`"config"` / `"file"`), for "Your
/// settings" as for the CLI's `--config`: the same report, hence the same trace hash.
pub const CONFIG_RUN: (&str, &str) = ("config", "file");

/// Which kind of run.
#[derive(Debug, Clone, PartialEq)]
pub enum Preset {
    /// A named scenario of the source documents, e.g. `claim-race` / `skip-locked`
    /// (`variant` `None`: the scenario's first).
    Scenario {
        /// Scenario id ([`Scenario::id`]).
        name: String,
        /// Variant id.
        variant: Option<String>,
    },
    /// "Your settings" of the page, run as their config file ([`CustomRun::to_file`]).
    YourSettings(CustomRun),
    /// The load preset ([`LOAD_SCENARIO`]) with `jobs` jobs (1 ..= [`MAX_LOAD_JOBS`]).
    Load {
        /// Jobs to generate.
        jobs: u64,
    },
    /// A JSON config file, already read ([`parse_file`](crate::domain::sim::setup::config_file::parse_file)).
    /// The CLI's `--config`; never sent to the worker. Native builds only: the browser's
    /// builds (page and worker) have no config file to run, and leaving the variant out keeps
    /// the file's types out of their wasm (measured: ~25 KB raw in the page).
    #[cfg(not(target_arch = "wasm32"))]
    File(Box<SimConfigFile>),
}

/// What to run: a preset and its RNG seed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSpec {
    /// Which run.
    pub preset: Preset,
    /// RNG seed; `None`: the config file's own seed (`Preset::File`), else 1.
    pub seed: Option<u64>,
}

/// Whom a run is for: what [`execute`] records besides the run itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The page: per-step frames of small runs, the load preset's event log up to
    /// [`LOG_MAX_JOBS`] jobs, progress every `every` events.
    Page {
        /// Events between progress calls (at least 1).
        every: u64,
    },
    /// A report (the CLI): no frames, no progress, no event log for the load preset (its
    /// fingerprint does not depend on it).
    Report,
}

/// A finished run, ready to be shown as a report ([`Finished::report`]) or a page view
/// ([`Finished::into_view`]).
pub struct Finished {
    seed: u64,
    outcome: Outcome,
}

enum Outcome {
    /// A queue run of a scenario, "Your settings" or a config file.
    Queue {
        sim: Box<Simulation>,
        scenario: &'static str,
        variant: String,
        frames: Vec<Frame>,
        /// `Some(n)`: no event log was kept because the run had more than `n` jobs.
        log_bound: Option<u64>,
        /// Cut the page's jobs table to [`MAX_VIEW_ROWS`] rows (config runs).
        cut_table: bool,
    },
    /// The load preset: its table is summarised, its hash is a fingerprint.
    Load { sim: Box<Simulation>, jobs: u64 },
    /// The jitter study (not a queue model: its own runner, the same report shape).
    Study(Box<Report>),
}

/// Runs `spec` for `purpose`, calling `progress(events)` as it goes (page runs only).
///
/// # Errors
/// Every finding that refuses the run, typed: an unknown scenario or variant
/// ([`ConfigError::Invalid`] on `scenario` / `variant`), load jobs out of range
/// ([`ConfigError::OutOfRange`] on `jobs`), a config's ranges and cross-field checks.
pub fn execute(
    spec: &RunSpec,
    purpose: Purpose,
    mut progress: impl FnMut(u64),
) -> Result<Finished, Vec<ConfigError>> {
    let seed = spec.seed;
    let page = matches!(purpose, Purpose::Page { .. });
    let (cfg, scenario, variant, log_bound, cut_table) = match &spec.preset {
        Preset::Load { jobs } => {
            let seed = seed.unwrap_or(1);
            let mut cfg = load_preset_config(*jobs, seed).map_err(|e| vec![e])?;
            cfg.log &= page;
            let mut sim = Box::new(Simulation::new(cfg)?);
            step_all(&mut sim, purpose, &mut progress);
            return Ok(Finished {
                seed,
                outcome: Outcome::Load { sim, jobs: *jobs },
            });
        }
        Preset::Scenario { name, variant } => {
            let seed = seed.unwrap_or(1);
            let sc = Scenario::parse(name).map_err(|e| vec![e])?;
            let v = sc.variant(variant.as_deref()).map_err(|e| vec![e])?;
            match sc.config(Some(v), seed).map_err(|e| vec![e])? {
                Some(cfg) => (cfg, sc.id(), v.to_owned(), None, false),
                None => {
                    let report = run_scenario(sc.id(), Some(v), seed).map_err(|e| vec![e])?;
                    return Ok(Finished {
                        seed,
                        outcome: Outcome::Study(Box::new(report)),
                    });
                }
            }
        }
        Preset::YourSettings(custom) => {
            let mut cfg = custom.to_file(0).into_config()?;
            cfg.seed = seed.unwrap_or(1);
            let bound = (!cfg.log).then_some(LOG_JOBS);
            (cfg, CONFIG_RUN.0, CONFIG_RUN.1.to_owned(), bound, true)
        }
        #[cfg(not(target_arch = "wasm32"))]
        Preset::File(file) => {
            let mut cfg = file.as_ref().clone().into_config()?;
            if let Some(seed) = seed {
                cfg.seed = seed;
            }
            (cfg, CONFIG_RUN.0, CONFIG_RUN.1.to_owned(), None, true)
        }
    };
    let seed = cfg.seed;
    let mut sim = Box::new(Simulation::new(cfg)?);
    let frames = match purpose {
        Purpose::Page { every } => run_with_frames(&mut sim, every, &mut progress),
        Purpose::Report => {
            sim.run();
            Vec::new()
        }
    };
    Ok(Finished {
        seed,
        outcome: Outcome::Queue {
            sim,
            scenario,
            variant,
            frames,
            log_bound,
            cut_table,
        },
    })
}

impl Finished {
    /// The RNG seed the run used.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The run's report (with its whole event log) and its trace hash: [`trace_hash`] of the
    /// report, or the load preset's fingerprint ([`load_fingerprint`]).
    pub fn report(&self) -> (Report, String) {
        match &self.outcome {
            Outcome::Queue {
                sim,
                scenario,
                variant,
                ..
            } => {
                let report = Report::from_sim(sim, scenario, variant);
                let hash = trace_hash(&report);
                (report, hash)
            }
            Outcome::Load { sim, jobs } => {
                let (_, hash) = load_fingerprint(sim, *jobs, self.seed);
                (Report::from_sim(sim, LOAD_SCENARIO, "bench"), hash)
            }
            Outcome::Study(report) => {
                let hash = trace_hash(report);
                (report.as_ref().clone(), hash)
            }
        }
    }

    /// The first `max` lines of the run's event log in `lang` (the templates of
    /// `locales/simulator/sim-log.yml`; English is [`Report::events`]' text), for the CLI's
    /// text report. The jitter study has no queue log: its report's own lines. Native builds
    /// only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn event_lines(&self, lang: crate::domain::lang::Lang, max: usize) -> Vec<String> {
        match &self.outcome {
            Outcome::Queue { sim, .. } | Outcome::Load { sim, .. } => {
                sim.log().iter().take(max).map(|l| l.render(lang)).collect()
            }
            Outcome::Study(report) => report.events.iter().take(max).cloned().collect(),
        }
    }

    /// The downstream answers per second (what the page's calls chart draws), for the CLI's
    /// JSON; `None` when the run made no downstream calls, and for the jitter study, which
    /// has no queue run. Native builds only (the page takes the series from
    /// [`Finished::into_view`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn call_rates(&self) -> Option<crate::domain::sim::results::charts::CallRates> {
        use crate::domain::sim::results::charts::{CallRates, CallSeries};
        match &self.outcome {
            Outcome::Queue { sim, .. } | Outcome::Load { sim, .. } => {
                CallRates::of(&CallSeries::of_sim(sim))
            }
            Outcome::Study(_) => None,
        }
    }

    /// What the page shows of the run, named `run_id` (what its [`LogRequest`](super::LogRequest)s
    /// name), and the whole event log, which stays in the worker.
    pub fn into_view(self, run_id: u64) -> (RunView, EventLog) {
        let seed = self.seed;
        let (mut view, log) = match self.outcome {
            Outcome::Queue {
                mut sim,
                scenario,
                variant,
                frames,
                log_bound,
                cut_table,
            } => {
                let report = Report::from_sim(&sim, scenario, &variant);
                let mut view = view_of(&report, sim.events());
                if cut_table {
                    view.jobs.truncate(MAX_VIEW_ROWS);
                }
                view.frames = frames;
                view.log_bound = log_bound;
                view.charts = ChartData::of_sim(&sim);
                let (lease, end) = (sim.config().lease, sim.now());
                let (log, names) = sim.take_log();
                let view = with_drawing(view, &log, &names, lease, end);
                (with_log(view, &log, names), log)
            }
            Outcome::Load { mut sim, jobs } => {
                let (counts, hash) = load_fingerprint(&sim, jobs, seed);
                let mut view = load_view(&sim, seed, counts, hash);
                view.log_bound = (jobs > LOG_MAX_JOBS).then_some(LOG_MAX_JOBS);
                let (lease, end) = (sim.config().lease, sim.now());
                let (log, names) = sim.take_log();
                let view = with_drawing(view, &log, &names, lease, end);
                (with_log(view, &log, names), log)
            }
            Outcome::Study(report) => (view_of(&report, 0), EventLog::new()),
        };
        view.run_id = run_id;
        (view, log)
    }
}

fn step_all(sim: &mut Simulation, purpose: Purpose, progress: &mut impl FnMut(u64)) {
    let Purpose::Page { every } = purpose else {
        sim.run();
        return;
    };
    let every = every.max(1);
    let mut next = every;
    while sim.step() {
        if sim.events() >= next {
            progress(sim.events());
            next = sim.events() + every;
        }
    }
}

/// The load preset's config: `jobs` jobs of the benchmark model
/// ([`MmcModel::bench`](crate::domain::sim::reference::erlang::MmcModel::bench)) with seed
/// `seed`, the event log kept up to [`LOG_MAX_JOBS`] jobs.
///
/// # Errors
/// `jobs` outside `1 ..= MAX_LOAD_JOBS`: [`ConfigError::LoadJobs`], "jobs: N is out of
/// range; allowed: 1 to 1000000".
pub fn load_preset_config(jobs: u64, seed: u64) -> Result<SimConfig, ConfigError> {
    if !(1..=MAX_LOAD_JOBS).contains(&jobs) {
        return Err(ConfigError::LoadJobs { jobs });
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

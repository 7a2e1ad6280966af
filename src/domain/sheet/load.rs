//! The sheet's "Load and capacity" section (schema 3): the numbers a queue is sized from —
//! how fast work arrives, in what bursts, how long the handler takes, what the downstream
//! allows, what we pace ourselves to, the targets, and the workers chosen.
//!
//! Every number is optional: a section with a number missing is "not sized yet"
//! ([`LoadSpec::missing`]) and no made-up default is used silently. Two numbers are
//! pre-filled from what the user already typed elsewhere and say so
//! ([`LoadSpec::effective_target_wait_p95_ms`], [`LoadSpec::effective_handler`]): the wait
//! target from the acceptable wait, the handler's p95 from the wizard. Units: rates as a whole
//! count per second, minute or hour ([`Rate`]); durations in milliseconds; the failure rate
//! in basis points (1/100 of a percent). Formulas: `brief/CAPACITY.md`, [`crate::domain::capacity`].

// The error type only, not the importer: the capacity answer reads this module, and the
// sheet's rows read the capacity answer (no circle through import → prefill → fields).
use crate::domain::sheet::import_error::ImportError;
use crate::domain::sheet::JobSheet;
use serde::{Deserialize, Serialize};

/// A rate as typed: `count` per `per` (10 per second, 600 per minute).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rate {
    /// How many (1 ..= 1 000 000).
    pub count: u64,
    /// Per what.
    pub per: Per,
}

/// The unit of a [`Rate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Per {
    /// Per second.
    Second,
    /// Per minute.
    Minute,
    /// Per hour.
    Hour,
}

impl Per {
    /// Seconds in one unit.
    pub fn secs(self) -> f64 {
        match self {
            Per::Second => 1.0,
            Per::Minute => 60.0,
            Per::Hour => 3_600.0,
        }
    }

    /// The stable id (`second`, `minute`, `hour`).
    pub fn id(self) -> &'static str {
        match self {
            Per::Second => "second",
            Per::Minute => "minute",
            Per::Hour => "hour",
        }
    }
}

impl Rate {
    /// The rate per second.
    pub fn per_s(self) -> f64 {
        self.count as f64 / self.per.secs()
    }
}

/// A burst on top of the steady arrivals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Burst {
    /// `count` jobs at the same instant (a partner's 500 updates at once).
    AtOnce {
        /// Jobs (1 ..= [`limits::BURST_JOBS`]).
        count: u64,
    },
    /// Jobs arriving at `rate` for `for_ms` (a campaign's 50/s for 10 min).
    Rate {
        /// The burst's rate.
        rate: Rate,
        /// How long it lasts, ms (1 ..= 86 400 000).
        for_ms: u64,
    },
}

impl Burst {
    /// Jobs in the burst (a rate burst: `rate × duration`, rounded, at least 1).
    pub fn jobs(self) -> u64 {
        match self {
            Burst::AtOnce { count } => count,
            Burst::Rate { rate, for_ms } => {
                ((rate.per_s() * for_ms as f64 / 1e3).round() as u64).max(1)
            }
        }
    }

    /// How long the burst's arrivals last, ms (0 for one instant).
    pub fn span_ms(self) -> u64 {
        match self {
            Burst::AtOnce { .. } => 0,
            Burst::Rate { for_ms, .. } => for_ms,
        }
    }
}

/// How long one run of the handler takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandlerTime {
    /// Lognormal from its median and 95th percentile (ms; `p95_ms ≥ p50_ms`), as the
    /// simulator draws it: `σ = ln(p95/p50) / 1.6449`.
    Lognormal {
        /// Median, ms.
        p50_ms: u64,
        /// 95th percentile, ms.
        p95_ms: u64,
    },
    /// Always `ms`.
    Fixed {
        /// Duration, ms.
        ms: u64,
    },
    /// Exponential with mean `mean_ms` (the M/M/c service time: Erlang C is exact).
    Exponential {
        /// Mean, ms.
        mean_ms: u64,
    },
}

impl HandlerTime {
    /// The 95th percentile, ms (exponential: `mean · ln 20`).
    pub fn p95_ms(self) -> f64 {
        match self {
            HandlerTime::Lognormal { p95_ms, .. } => p95_ms as f64,
            HandlerTime::Fixed { ms } => ms as f64,
            HandlerTime::Exponential { mean_ms } => mean_ms as f64 * 20f64.ln(),
        }
    }
}

/// What the downstream allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DownstreamLimits {
    /// Its rate limit (above it, calls are refused and the attempt fails).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// The rate limit's burst allowance: calls that may pass at once after an idle period
    /// (a token bucket's size; 1 ..= 100 000). `None` with a rate: 1 (no burst).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_burst: Option<u32>,
    /// Calls it serves at once (more are answered "busy"; 1 ..= 10 000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u32>,
    /// One call at a time: the work takes an exclusive lock (a spreadsheet, a file, a row).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exclusive_lock: bool,
}

impl DownstreamLimits {
    /// Whether any limit is stated.
    pub fn any(&self) -> bool {
        self.rate.is_some() || self.concurrency.is_some() || self.exclusive_lock
    }
}

/// The "Load and capacity" section. Every field may be left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSpec {
    /// The mean arrival rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival: Option<Rate>,
    /// The peak arrival rate (the busiest hour's); sizing uses it when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<Rate>,
    /// A burst on top of the arrivals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst: Option<Burst>,
    /// The handler's time (`None`: the wizard's p95 is shown, the median still needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<HandlerTime>,
    /// Probability that an attempt fails with a transient error, in basis points (0 ..=
    /// 9 900: 250 = 2.5 %).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_bp: Option<u32>,
    /// What the downstream allows.
    #[serde(default, skip_serializing_if = "is_default")]
    pub downstream: DownstreamLimits,
    /// Our own limiter: the workers pace their calls to this rate (across all workers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub our_limit: Option<Rate>,
    /// Target: the wait in the queue at the 95th percentile, ms (`None`: the acceptable wait).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_wait_p95_ms: Option<u64>,
    /// Target: a burst drained within this, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drain_within_ms: Option<u64>,
    /// The worker processes chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workers: Option<u32>,
    /// Jobs each worker process runs at once (threads, slots; `None`: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u32>,
}

fn is_default(d: &DownstreamLimits) -> bool {
    *d == DownstreamLimits::default()
}

/// A number of the section the capacity answer needs and the sheet does not give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Missing {
    /// No arrival rate (mean or peak) and no burst.
    Arrivals,
    /// No handler time (or only the wizard's p95: the median is needed too).
    HandlerP50,
    /// No handler time at all.
    Handler,
}

impl Missing {
    /// The stable id, e.g. `handler-p50`.
    pub fn id(self) -> &'static str {
        match self {
            Missing::Arrivals => "arrivals",
            Missing::HandlerP50 => "handler-p50",
            Missing::Handler => "handler",
        }
    }
}

/// Where a pre-filled number of the section comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Typed in this section.
    Typed,
    /// The process's acceptable wait.
    AcceptableWait,
    /// The wizard's p95 (the within-seconds answer derived from numbers).
    WizardP95,
}

impl LoadSpec {
    /// The rate the queue is sized for, per second: the peak when given, else the mean.
    pub fn sizing_rate_per_s(&self) -> Option<f64> {
        self.peak.or(self.arrival).map(Rate::per_s)
    }

    /// The wait target in effect, ms, and where it comes from: the typed target, else the
    /// sheet's acceptable wait.
    pub fn effective_target_wait_p95_ms(&self, sheet: &JobSheet) -> Option<(u64, Source)> {
        match (self.target_wait_p95_ms, sheet.process.acceptable_wait_ms) {
            (Some(ms), _) => Some((ms, Source::Typed)),
            (None, Some(ms)) => Some((ms, Source::AcceptableWait)),
            (None, None) => None,
        }
    }

    /// The handler's p95 from the wizard, ms, when the decision was derived from numbers.
    pub fn wizard_p95_ms(sheet: &JobSheet) -> Option<u64> {
        sheet
            .decision
            .answers
            .iter()
            .find_map(|a| a.timing)
            .map(|t| t.p95_ms)
    }

    /// The handler time in effect: the typed one; else nothing (the wizard's p95 alone does
    /// not give a distribution — [`LoadSpec::missing`] then asks for the median).
    pub fn effective_handler(&self) -> Option<HandlerTime> {
        self.handler
    }

    /// Total jobs run at once: `workers × concurrency` (`None` without workers).
    pub fn slots(&self) -> Option<u32> {
        self.workers
            .map(|w| w.saturating_mul(self.concurrency.unwrap_or(1)))
    }

    /// The section with the worker processes a capacity answer recommends: `slots` jobs at
    /// once over this section's concurrency per process (1 when not stated), rounded up, so
    /// at least `slots` run at once (`2` for 6 at once with 4 per process: 8 at once); within
    /// [`limits::WORKERS`]. `None` when the section already has that many processes (nothing
    /// to use). The capacity panel's "Use in the sheet" (docs/DOMAIN.md §8).
    pub fn with_slots(&self, slots: u32) -> Option<LoadSpec> {
        let per = self.concurrency.unwrap_or(1).max(1);
        let (lo, hi) = limits::WORKERS;
        let processes = u64::from(slots.div_ceil(per)).clamp(lo, hi);
        let processes = u32::try_from(processes).ok()?;
        (self.workers != Some(processes)).then_some(LoadSpec {
            workers: Some(processes),
            ..*self
        })
    }

    /// What the capacity answer still needs (empty: it can be computed).
    pub fn missing(&self, sheet: &JobSheet) -> Vec<Missing> {
        let mut out = Vec::new();
        if self.sizing_rate_per_s().is_none() && self.burst.is_none() {
            out.push(Missing::Arrivals);
        }
        if self.handler.is_none() {
            out.push(if LoadSpec::wizard_p95_ms(sheet).is_some() {
                Missing::HandlerP50
            } else {
                Missing::Handler
            });
        }
        out
    }

    /// Whether nothing at all is filled in.
    pub fn is_empty(&self) -> bool {
        *self == LoadSpec::default()
    }
}

/// The section's ranges (import and the form share them). Durations in ms.
pub mod limits {
    /// `count` of a [`super::Rate`].
    pub const RATE_COUNT: (u64, u64) = (1, 1_000_000);
    /// Jobs in a burst: the browser simulator's bound for one run
    /// ([`MAX_CUSTOM_JOBS`](crate::domain::sim::setup::limits::MAX_CUSTOM_JOBS)).
    pub const BURST_JOBS: u64 = crate::domain::sim::setup::limits::MAX_CUSTOM_JOBS;
    /// A rate burst's duration: up to 1 day.
    pub const BURST_FOR_MS: (u64, u64) = (1, 86_400_000);
    /// Handler times: up to 1 day (an attempt's longest timeout).
    pub const HANDLER_MS: (u64, u64) = (1, 86_400_000);
    /// Failure rate, basis points: 0 to 99 %.
    pub const FAILURE_BP: (u64, u64) = (0, 9_900);
    /// A rate limit's burst allowance.
    pub const RATE_BURST: (u64, u64) = (1, 100_000);
    /// Downstream concurrency.
    pub const CONCURRENCY: (u64, u64) = (1, 10_000);
    /// Worker processes.
    pub const WORKERS: (u64, u64) = (1, 1_000);
    /// Jobs at once per worker process.
    pub const PER_WORKER: (u64, u64) = (1, 1_000);
    /// The targets: up to 30 days.
    pub const TARGET_MS: (u64, u64) = (1, crate::domain::sim::setup::limits::MAX_MS);
}

fn range(path: &str, v: u64, (min, max): (u64, u64)) -> Result<(), ImportError> {
    if (min..=max).contains(&v) {
        return Ok(());
    }
    Err(ImportError::OutOfRange {
        path: path.to_owned(),
        value: v.to_string(),
        allowed: format!("{min} to {max}"),
    })
}

fn rate(path: &str, r: Rate) -> Result<(), ImportError> {
    range(&format!("{path}.count"), r.count, limits::RATE_COUNT)
}

/// Checks every range of the section, each error naming its JSON path under `load.`.
///
/// # Errors
/// The first field out of range; a lognormal handler whose p95 is below its p50.
pub fn check_load(l: &LoadSpec) -> Result<(), ImportError> {
    if let Some(r) = l.arrival {
        rate("load.arrival", r)?;
    }
    if let Some(r) = l.peak {
        rate("load.peak", r)?;
    }
    match l.burst {
        Some(Burst::AtOnce { count }) => {
            range("load.burst.at-once.count", count, (1, limits::BURST_JOBS))?
        }
        Some(b @ Burst::Rate { rate: r, for_ms }) => {
            rate("load.burst.rate.rate", r)?;
            range("load.burst.rate.for_ms", for_ms, limits::BURST_FOR_MS)?;
            if b.jobs() > limits::BURST_JOBS {
                return Err(ImportError::OutOfRange {
                    path: "load.burst.rate".into(),
                    value: format!("{} jobs", b.jobs()),
                    allowed: format!("at most {} jobs (rate × duration)", limits::BURST_JOBS),
                });
            }
        }
        None => {}
    }
    match l.handler {
        Some(HandlerTime::Lognormal { p50_ms, p95_ms }) => {
            range("load.handler.lognormal.p50_ms", p50_ms, limits::HANDLER_MS)?;
            range(
                "load.handler.lognormal.p95_ms",
                p95_ms,
                (p50_ms.max(1), limits::HANDLER_MS.1),
            )?;
        }
        Some(HandlerTime::Fixed { ms }) => range("load.handler.fixed.ms", ms, limits::HANDLER_MS)?,
        Some(HandlerTime::Exponential { mean_ms }) => range(
            "load.handler.exponential.mean_ms",
            mean_ms,
            limits::HANDLER_MS,
        )?,
        None => {}
    }
    if let Some(bp) = l.failure_bp {
        range("load.failure_bp", u64::from(bp), limits::FAILURE_BP)?;
    }
    let d = &l.downstream;
    if let Some(r) = d.rate {
        rate("load.downstream.rate", r)?;
    }
    if let Some(b) = d.rate_burst {
        range(
            "load.downstream.rate_burst",
            u64::from(b),
            limits::RATE_BURST,
        )?;
    }
    if let Some(c) = d.concurrency {
        range(
            "load.downstream.concurrency",
            u64::from(c),
            limits::CONCURRENCY,
        )?;
    }
    if let Some(r) = l.our_limit {
        rate("load.our_limit", r)?;
    }
    if let Some(ms) = l.target_wait_p95_ms {
        range("load.target_wait_p95_ms", ms, limits::TARGET_MS)?;
    }
    if let Some(ms) = l.drain_within_ms {
        range("load.drain_within_ms", ms, limits::TARGET_MS)?;
    }
    if let Some(w) = l.workers {
        range("load.workers", u64::from(w), limits::WORKERS)?;
    }
    if let Some(c) = l.concurrency {
        range("load.concurrency", u64::from(c), limits::PER_WORKER)?;
    }
    Ok(())
}

/// Refuses a load section, or its downstream limits, written as a JSON array: serde reads a
/// struct from a sequence too, and every field here may be left out, so `"load": []` would
/// otherwise be taken as an empty section. `sheet` is the sheet's JSON, `at` its path prefix
/// (`""` for a sheet file, `processes[2].sheet.` in a catalog).
///
/// # Errors
/// [`ImportError::Field`] naming `load` or `load.downstream`.
pub fn check_shape(sheet: &serde_json::Value, at: &str) -> Result<(), ImportError> {
    let load = sheet.get("load");
    for (path, v) in [
        ("load", load),
        ("load.downstream", load.and_then(|l| l.get("downstream"))),
    ] {
        if let Some(v) = v.filter(|v| !v.is_object() && !v.is_null()) {
            let kind = match v {
                serde_json::Value::Array(_) => "sequence",
                serde_json::Value::String(_) => "string",
                serde_json::Value::Number(_) => "number",
                _ => "boolean",
            };
            return Err(ImportError::Field {
                path: format!("{at}{path}"),
                problem: format!("invalid type: {kind}, expected an object"),
            });
        }
    }
    Ok(())
}

/// The allowed range of a number field of the section by its JSON path (for the decoder's
/// type errors), or `None`.
pub(crate) fn field_limits(path: &str) -> Option<(u64, u64)> {
    Some(match path {
        p if p.ends_with(".count") && p.starts_with("load.burst.at-once") => {
            (1, limits::BURST_JOBS)
        }
        p if p.starts_with("load.") && p.ends_with(".count") => limits::RATE_COUNT,
        "load.burst.rate.for_ms" => limits::BURST_FOR_MS,
        p if p.starts_with("load.handler.") => limits::HANDLER_MS,
        "load.failure_bp" => limits::FAILURE_BP,
        "load.downstream.rate_burst" => limits::RATE_BURST,
        "load.downstream.concurrency" => limits::CONCURRENCY,
        "load.target_wait_p95_ms" | "load.drain_within_ms" => limits::TARGET_MS,
        "load.workers" => limits::WORKERS,
        "load.concurrency" => limits::PER_WORKER,
        _ => return None,
    })
}

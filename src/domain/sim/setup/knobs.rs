//! "Your settings": a simulation built from the job definition sheet plus load and failure
//! knobs, each with a unit and an allowed range.
//!
//! [`CustomRun::from_sheet`] copies the sheet's retry section (max attempts; wait strategy =
//! growth, base, cap, jitter; lease / visibility timeout; idempotency key on or off; error
//! classification: permanent errors go to the dead-letter queue at once) and adds load
//! defaults (2 workers, a burst of 20 jobs, lognormal handler 200 ms p50 / 1 s p95, 20 %
//! retryable failures). [`CustomRun::validate`] returns every finding, each naming the knob and
//! its allowed range ([`KnobError::message`], ja / en from `locales/simulator/sim-knobs.yml`).
//! [`CustomRun::to_file`] maps it to a [`SimConfigFile`]: the JSON that
//! `modality-advisor simulate --config FILE.json` reads, so a run in the browser and the CLI
//! give the same [`trace_hash`](crate::domain::sim::runner::trace_hash).
//!
//! Every value is a whole number: durations in milliseconds, probabilities in percent, rates
//! per second. Each job adds 100 to a balance (guarded by the key `job-{n}` when the
//! idempotency key is on), so duplicate side effects show.

use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sheet::JobSheet;
use crate::domain::sim::core::backoff::{Growth, Jitter};
use crate::domain::sim::setup::config::ErrorClass;
#[cfg(doc)]
use crate::domain::sim::setup::config_file::SimConfigFile;
pub use crate::domain::sim::setup::options::{Ack, CrashPoint};
use crate::text::t;
use serde::{Deserialize, Serialize};

mod change;
mod describe;
mod error;
mod from_load;
mod to_file;

pub use change::{jitter_name, next_workers, Change};
pub use error::KnobError;
pub use from_load::our_limit_reason;

pub use crate::domain::sim::setup::limits::{LOG_JOBS, MAX_CUSTOM_JOBS};
/// The side effect of each job: points added to the balance.
pub const EFFECT_AMOUNT: i64 = 100;
// The config file's range for `effect.amount` admits it.
const _: () =
    assert!(EFFECT_AMOUNT.unsigned_abs() <= crate::domain::sim::setup::limits::MAX_EFFECT_AMOUNT);
/// A crashed worker restarts after this long (ms).
pub const RESTART_MS: u64 = 1_000;

/// How jobs arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArrivalMode {
    /// All [`CustomRun::jobs`] at [`CustomRun::burst_at_ms`].
    Burst,
    /// A Poisson process of [`CustomRun::rate_per_s`] until [`CustomRun::jobs`] have arrived.
    Poisson,
}

/// The handler's own time in each run (with a downstream, before its call); `duration_ms`
/// and `duration_hi_ms` mean fixed: (ms, —), uniform: (min, max), exponential: (mean, —),
/// lognormal: (p50, p95); none: neither (0 ms: a run is its downstream call alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DurationMode {
    /// No handler time: 0 ms (the config file's `{"type": "fixed", "ms": 0}`).
    None,
    /// Always `duration_ms`.
    Fixed,
    /// Uniform in `duration_ms ..= duration_hi_ms`.
    Uniform,
    /// Exponential with mean `duration_ms`.
    Exponential,
    /// Lognormal with median `duration_ms` and 95th percentile `duration_hi_ms`.
    Lognormal,
}

/// When a run fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureMode {
    /// Each run fails with probability `failure_percent` %.
    Probability,
    /// The first `fail_first` runs of each job fail, then it succeeds.
    FirstRuns,
}

/// Every knob of a custom run, for labels, units, ranges and findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[allow(missing_docs)]
pub enum Knob {
    MaxAttempts,
    Growth,
    BaseWait,
    CapWait,
    Jitter,
    Lease,
    IdempotencyKey,
    ClassifyErrors,
    Workers,
    Arrivals,
    Jobs,
    BurstAt,
    Rate,
    Duration,
    DurationMs,
    DurationHiMs,
    Failure,
    FailurePercent,
    FailFirst,
    ErrorClass,
    CrashPercent,
    Downstream,
    Capacity,
    CallMs,
    RateLimit,
    RateBurst,
    OurLimit,
    OutageFrom,
    OutageFor,
    OwnerCheck,
    HeartbeatMs,
    Ack,
    CrashPoint,
    DuplicateAfterMs,
    KeyFrom,
}

/// The unit of a knob's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds, shown as a duration.
    Ms,
    /// A count with the given locale key of its unit word (`attempts`, `workers`, …).
    Count(&'static str),
}

/// A knob's group on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Copied from the job definition sheet.
    Sheet,
    /// Workers, arrivals, handler duration.
    Load,
    /// Failure model, error class, crashes.
    Failures,
    /// The external system the handler calls.
    Downstream,
    /// What the worker does about its lease and when it acknowledges (issue 15's fixes).
    Leases,
}

impl Knob {
    /// The knobs in screen order.
    pub const ALL: [Knob; 35] = [
        Knob::MaxAttempts,
        Knob::Growth,
        Knob::BaseWait,
        Knob::CapWait,
        Knob::Jitter,
        Knob::Lease,
        Knob::IdempotencyKey,
        Knob::ClassifyErrors,
        Knob::Workers,
        Knob::Arrivals,
        Knob::Jobs,
        Knob::BurstAt,
        Knob::Rate,
        Knob::Duration,
        Knob::DurationMs,
        Knob::DurationHiMs,
        Knob::Failure,
        Knob::FailurePercent,
        Knob::FailFirst,
        Knob::ErrorClass,
        Knob::CrashPercent,
        Knob::Downstream,
        Knob::Capacity,
        Knob::CallMs,
        Knob::RateLimit,
        Knob::RateBurst,
        Knob::OurLimit,
        Knob::OutageFrom,
        Knob::OutageFor,
        Knob::OwnerCheck,
        Knob::HeartbeatMs,
        Knob::Ack,
        Knob::CrashPoint,
        Knob::DuplicateAfterMs,
        Knob::KeyFrom,
    ];

    /// The stable id, e.g. `max-attempts` (DOM ids, locale keys, findings).
    pub fn id(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    /// Its group.
    pub fn group(self) -> Group {
        use Knob::*;
        match self {
            MaxAttempts | Growth | BaseWait | CapWait | Jitter | Lease | IdempotencyKey
            | ClassifyErrors => Group::Sheet,
            Workers | Arrivals | Jobs | BurstAt | Rate | Duration | DurationMs | DurationHiMs => {
                Group::Load
            }
            Failure | FailurePercent | FailFirst | ErrorClass | CrashPercent | CrashPoint => {
                Group::Failures
            }
            OwnerCheck | HeartbeatMs | Ack | DuplicateAfterMs | KeyFrom => Group::Leases,
            Downstream | Capacity | CallMs | RateLimit | RateBurst | OurLimit | OutageFrom
            | OutageFor => Group::Downstream,
        }
    }

    /// The unit and allowed range of a numeric knob (`None` for choices and switches).
    pub fn range(self) -> Option<(Unit, u64, u64)> {
        use crate::domain::sim::setup::limits as lim;
        use Knob::*;
        const DAY: u64 = lim::DAY_MS;
        let (p, b, c, l) = (
            lim::POLICY_ATTEMPTS,
            lim::POLICY_BASE_MS,
            lim::POLICY_CAP_MS,
            lim::POLICY_LEASE_MS,
        );
        // Ranges of the page's knobs: a job's policy as the sheet allows it
        // (`limits::POLICY_*`), page bounds for the run's size; the rest (arrival rate, call
        // figures, times of day) are the knobs' own and lie within the engine's ranges.
        Some(match self {
            MaxAttempts => (Unit::Count("attempts"), p.0, p.1),
            BaseWait => (Unit::Ms, b.0, b.1),
            CapWait => (Unit::Ms, c.0, c.1),
            Lease => (Unit::Ms, l.0, l.1),
            Workers => (Unit::Count("workers"), 1, lim::KNOB_WORKERS),
            Jobs => (Unit::Count("jobs"), 1, MAX_CUSTOM_JOBS),
            BurstAt => (Unit::Ms, 0, DAY),
            Rate => (Unit::Count("per-s"), 1, 10_000),
            DurationMs | DurationHiMs => (Unit::Ms, 0, 3_600_000),
            FailurePercent | CrashPercent => (Unit::Count("percent"), 0, 100),
            FailFirst => (Unit::Count("runs"), 0, 100),
            Capacity => (Unit::Count("calls"), 0, 10_000),
            CallMs => (Unit::Ms, 0, lim::CALL_MS.1),
            RateLimit => (Unit::Count("per-s"), 0, 100_000),
            // The token bucket's size: 1 call (no burst at all) up to the engine's bound.
            RateBurst => (Unit::Count("burst"), 1, lim::MAX_BURST),
            // Our own limiter: an empty field (0 here) is no limiter at all, which
            // `validate` does not refuse; a limiter paces at 1 call/s at the least.
            OurLimit => (Unit::Count("per-s"), 1, 100_000),
            OutageFrom | OutageFor => (Unit::Ms, 0, DAY),
            // 0: no heartbeat; otherwise below the lease (checked in `validate`).
            HeartbeatMs => (Unit::Ms, 0, l.1.saturating_sub(1)),
            // 0: each request is submitted once.
            DuplicateAfterMs => (Unit::Ms, 0, DAY),
            Growth | Jitter | IdempotencyKey | ClassifyErrors | Arrivals | Duration | Failure
            | ErrorClass | Downstream | OwnerCheck | Ack | CrashPoint | KeyFrom => return None,
        })
    }

    /// The label, e.g. "Max attempts".
    pub fn label(self, lang: Lang) -> String {
        t!(format!("knobs.{}.label", self.id()), locale = lang.code()).into_owned()
    }

    /// The one-line explanation.
    pub fn help(self, lang: Lang) -> String {
        t!(format!("knobs.{}.help", self.id()), locale = lang.code()).into_owned()
    }
}

/// Formats `v` in the knob's unit, e.g. `30 s`, `5 attempts`, `20 %`.
pub fn with_unit(unit: Unit, v: u64, lang: Lang) -> String {
    match unit {
        Unit::Ms => exact(v, lang),
        Unit::Count(u) => t!(
            format!("knobs.unit.{u}"),
            locale = lang.code(),
            n = group_thousands(v)
        )
        .into_owned(),
    }
}

/// The settings of a custom run. See the module docs; each field's unit and range is its
/// [`Knob::range`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomRun {
    /// Whether the sheet-group knobs were copied from a sheet (`false`: the queue defaults).
    pub from_sheet: bool,
    /// Claims allowed per job, the first included (1 ..= 100).
    pub max_attempts: u32,
    /// How the wait between attempts grows.
    pub growth: Growth,
    /// The first wait, ms.
    pub base_ms: u64,
    /// The largest wait, ms (≥ `base_ms`).
    pub cap_ms: u64,
    /// Randomisation of the wait.
    pub jitter: Jitter,
    /// Lease / visibility timeout, ms.
    pub lease_ms: u64,
    /// Whether each job's side effect is guarded by an idempotency key.
    pub idempotency_key: bool,
    /// Whether permanent errors go to the dead-letter queue at once.
    pub classify_errors: bool,
    /// The error text of a retryable failure (the sheet's first retryable error).
    pub retryable_error: String,
    /// The error text of a permanent failure (the sheet's first non-retryable error).
    pub permanent_error: String,
    /// Workers.
    pub workers: u32,
    /// How jobs arrive.
    pub arrivals: ArrivalMode,
    /// Jobs in the run.
    pub jobs: u64,
    /// Burst instant, ms.
    pub burst_at_ms: u64,
    /// Poisson rate, jobs per second.
    pub rate_per_s: u64,
    /// Handler time distribution (with a downstream, before each call).
    pub duration: DurationMode,
    /// Fixed / min / mean / p50, ms.
    pub duration_ms: u64,
    /// Max (uniform) / p95 (lognormal), ms.
    pub duration_hi_ms: u64,
    /// Failure model.
    pub failure: FailureMode,
    /// Failure probability per run, %.
    pub failure_percent: u64,
    /// Runs that fail before the job succeeds.
    pub fail_first: u64,
    /// Class of the failures.
    pub error_class: ErrorClass,
    /// Probability that a worker dies after the side effect and before `complete`, %.
    pub crash_percent: u64,
    /// Whether each run is one call to a downstream (success and failure then come from it).
    pub downstream: bool,
    /// Calls the downstream serves at once (0: unlimited); more are answered "busy".
    pub capacity: u64,
    /// Duration of a served call, ms.
    pub call_ms: u64,
    /// Rate limit, calls per second (0: none).
    pub rate_limit_per_s: u64,
    /// The rate limit's burst: the token bucket holds this many calls, so after an idle
    /// spell up to `burst + rate` calls pass within one second ([`CustomRun::burst`]).
    /// `None` (settings saved before it was shown, or never edited): as many as the rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit_burst: Option<u64>,
    /// Our own limiter (`SimConfig::pacing`): the workers' downstream calls are paced to at
    /// most this many per second across all workers, evenly spaced with no burst; a worker
    /// holds its job while its call waits for its slot. `None` (an empty field, and settings
    /// saved before it existed): no limiter. 1 ..= 100 000 ([`Knob::range`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub our_limit_per_s: Option<u64>,
    /// Outage start, ms.
    pub outage_from_ms: u64,
    /// Outage length, ms (0: no outage).
    pub outage_for_ms: u64,
    /// `complete` / `release` only while the worker still holds the lease (a stale result
    /// is refused). Absent in settings saved before it existed: off.
    #[serde(default)]
    pub owner_check: bool,
    /// A running worker extends its lease every this many ms (0: no heartbeat; else below
    /// `lease_ms`). Absent in older saved settings: 0.
    #[serde(default)]
    pub heartbeat_ms: u64,
    /// When the worker acknowledges the job: after the handler (at-least-once) or at the
    /// claim (at-most-once). Absent in older saved settings: after.
    #[serde(default)]
    pub ack: Ack,
    /// Where a crash strikes: after the side effect (before acknowledging) or before it.
    /// Absent in older saved settings: after the side effect.
    #[serde(default)]
    pub crash_point: CrashPoint,
    /// Each request is submitted a second time this many ms later, as a separate row (the
    /// same order sent twice; 0: once). Absent in older saved settings: 0.
    #[serde(default)]
    pub duplicate_after_ms: u64,
    /// What the idempotency key is made from. Absent in older saved settings: the request.
    #[serde(default)]
    pub key_from: KeyFrom,
}

/// What the idempotency key is made from (the source documents' warning: a key from the job
/// id differs for the same order submitted twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyFrom {
    /// The request (the business event, e.g. the order): `job-{n}`, `{n}` the request's
    /// number.
    #[default]
    Request,
    /// The job's id, which each row gets anew: `job-id-{id}`.
    JobId,
}

impl KeyFrom {
    /// The key template of the side effect ([`Effect::idempotency_key`](crate::domain::sim::Effect)).
    pub fn template(self) -> &'static str {
        match self {
            KeyFrom::Request => "job-{n}",
            KeyFrom::JobId => "job-id-{id}",
        }
    }
}

impl Default for CustomRun {
    /// The queue defaults of an unfilled sheet (source document `000`'s worked example: 5 attempts,
    /// exponential 10 s … 10 min with full jitter, 60 s lease, key on, errors classified) and
    /// the load defaults.
    fn default() -> Self {
        CustomRun {
            from_sheet: false,
            max_attempts: 5,
            growth: Growth::Exponential,
            base_ms: 10_000,
            cap_ms: 600_000,
            jitter: Jitter::Full,
            lease_ms: 60_000,
            idempotency_key: true,
            classify_errors: true,
            retryable_error: "TimeoutError".into(),
            permanent_error: "ValueError".into(),
            workers: 2,
            arrivals: ArrivalMode::Burst,
            jobs: 20,
            burst_at_ms: 0,
            rate_per_s: 5,
            duration: DurationMode::Lognormal,
            duration_ms: 200,
            duration_hi_ms: 1_000,
            failure: FailureMode::Probability,
            failure_percent: 20,
            fail_first: 2,
            error_class: ErrorClass::Retryable,
            crash_percent: 0,
            downstream: false,
            capacity: 1,
            call_ms: 300,
            rate_limit_per_s: 0,
            rate_limit_burst: None,
            our_limit_per_s: None,
            outage_from_ms: 0,
            outage_for_ms: 0,
            owner_check: false,
            heartbeat_ms: 0,
            ack: Ack::After,
            crash_point: CrashPoint::AfterEffect,
            duplicate_after_ms: 0,
            key_from: KeyFrom::Request,
        }
    }
}

impl CustomRun {
    /// The settings pre-filled from `sheet`: its retry section when it has one (asynchronous
    /// outcomes), else the defaults ([`CustomRun::from_sheet`] is then `false`). Load and
    /// failure knobs get their defaults. A polynomial backoff runs as exponential from the
    /// same first wait (the simulator has no polynomial growth), and the waits are brought
    /// into the knobs' ranges (base 1 ms to 1 day, cap up to 7 days).
    pub fn from_sheet(sheet: &JobSheet) -> CustomRun {
        use crate::domain::sim::setup::limits as lim;
        let Some(r) = &sheet.retry else {
            return CustomRun::default();
        };
        let first = |v: &[String], d: &str| {
            v.iter()
                .map(|s| s.trim())
                .find(|s| !s.is_empty())
                .unwrap_or(d)
                .to_owned()
        };
        CustomRun {
            from_sheet: true,
            max_attempts: r.max_attempts,
            // The simulator has no polynomial growth: a polynomial sheet runs as exponential
            // backoff from the same first wait (the page says so beside the choice), and a
            // sheet's waits beyond the knobs' ranges (a 0 constant, a cap over 7 days) are
            // brought into them.
            growth: match r.backoff.kind {
                crate::domain::sheet::BackoffKind::Fixed => Growth::Fixed,
                _ => Growth::Exponential,
            },
            base_ms: crate::domain::sheet::retry_window::ceiling_ms(&r.backoff, 0)
                .clamp(lim::POLICY_BASE_MS.0, lim::POLICY_BASE_MS.1),
            cap_ms: r
                .backoff
                .cap_ms
                .clamp(lim::POLICY_CAP_MS.0, lim::POLICY_CAP_MS.1),
            jitter: r.backoff.jitter,
            lease_ms: r.lease_ms,
            idempotency_key: !r.idempotency_key.trim().is_empty(),
            classify_errors: !r.non_retryable_errors.is_empty(),
            retryable_error: first(&r.retryable_errors, "TimeoutError"),
            permanent_error: first(&r.non_retryable_errors, "ValueError"),
            ..CustomRun::default()
        }
        .with_load(sheet.load.as_ref())
    }

    /// The number a numeric knob holds (`None` for choices and switches).
    pub fn get(&self, knob: Knob) -> Option<u64> {
        use Knob::*;
        Some(match knob {
            MaxAttempts => u64::from(self.max_attempts),
            BaseWait => self.base_ms,
            CapWait => self.cap_ms,
            Lease => self.lease_ms,
            Workers => u64::from(self.workers),
            Jobs => self.jobs,
            BurstAt => self.burst_at_ms,
            Rate => self.rate_per_s,
            DurationMs => self.duration_ms,
            DurationHiMs => self.duration_hi_ms,
            FailurePercent => self.failure_percent,
            FailFirst => self.fail_first,
            CrashPercent => self.crash_percent,
            Capacity => self.capacity,
            CallMs => self.call_ms,
            RateLimit => self.rate_limit_per_s,
            RateBurst => self.burst(),
            OurLimit => self.our_limit_per_s.unwrap_or(0),
            OutageFrom => self.outage_from_ms,
            OutageFor => self.outage_for_ms,
            HeartbeatMs => self.heartbeat_ms,
            DuplicateAfterMs => self.duplicate_after_ms,
            _ => return None,
        })
    }

    /// A copy with a numeric knob set to `v` (unchecked: see [`CustomRun::validate`]; values
    /// that do not fit the field's type saturate). Choices and switches are left unchanged.
    pub fn with(&self, knob: Knob, v: u64) -> CustomRun {
        use Knob::*;
        let mut c = self.clone();
        let small = u32::try_from(v).unwrap_or(u32::MAX);
        match knob {
            MaxAttempts => c.max_attempts = small,
            BaseWait => c.base_ms = v,
            CapWait => c.cap_ms = v,
            Lease => c.lease_ms = v,
            Workers => c.workers = small,
            Jobs => c.jobs = v,
            BurstAt => c.burst_at_ms = v,
            Rate => c.rate_per_s = v,
            DurationMs => c.duration_ms = v,
            DurationHiMs => c.duration_hi_ms = v,
            FailurePercent => c.failure_percent = v,
            FailFirst => c.fail_first = v,
            CrashPercent => c.crash_percent = v,
            Capacity => c.capacity = v,
            CallMs => c.call_ms = v,
            RateLimit => c.rate_limit_per_s = v,
            RateBurst => c.rate_limit_burst = Some(v),
            OurLimit => c.our_limit_per_s = (v > 0).then_some(v),
            OutageFrom => c.outage_from_ms = v,
            OutageFor => c.outage_for_ms = v,
            HeartbeatMs => c.heartbeat_ms = v,
            DuplicateAfterMs => c.duplicate_after_ms = v,
            _ => {}
        }
        c
    }

    /// The knobs that matter with the current modes (e.g. `Rate` only for Poisson arrivals,
    /// the failure knobs only without a downstream).
    pub fn active(&self, knob: Knob) -> bool {
        use Knob::*;
        match knob {
            BurstAt => self.arrivals == ArrivalMode::Burst,
            Rate => self.arrivals == ArrivalMode::Poisson,
            DurationMs => self.duration != DurationMode::None,
            DurationHiMs => matches!(
                self.duration,
                DurationMode::Uniform | DurationMode::Lognormal
            ),
            Failure | ErrorClass => !self.downstream,
            FailurePercent => !self.downstream && self.failure == FailureMode::Probability,
            FailFirst => !self.downstream && self.failure == FailureMode::FirstRuns,
            Capacity | CallMs | RateLimit | OutageFrom | OutageFor => self.downstream,
            RateBurst => self.downstream && self.rate_limit_per_s > 0,
            // The limiter paces the downstream calls: without a downstream it has nothing
            // to pace.
            OurLimit => self.downstream,
            CrashPoint => self.crash_percent > 0,
            KeyFrom => self.idempotency_key,
            _ => true,
        }
    }

    /// The rate limit's burst in calls: [`CustomRun::rate_limit_burst`] when set, else as
    /// many as the rate (at least 1), what the config file's `rate_limit.burst` gets.
    pub fn burst(&self) -> u64 {
        self.rate_limit_burst
            .unwrap_or(self.rate_limit_per_s.max(1))
    }

    /// Every finding: numbers outside their knob's range, the cap below the first wait, a
    /// p95 / max below the p50 / min, a zero mean or median. Empty when the run can start.
    pub fn validate(&self) -> Vec<KnobError> {
        let mut errs = Vec::new();
        for knob in Knob::ALL {
            let (Some(v), Some((_, min, max))) = (self.get(knob), knob.range()) else {
                continue;
            };
            if knob == Knob::OurLimit && v == 0 {
                // An empty limiter field: no limiter.
                continue;
            }
            let mut min = min;
            if knob == Knob::DurationMs
                && matches!(
                    self.duration,
                    DurationMode::Exponential | DurationMode::Lognormal
                )
            {
                min = 1;
            }
            if !(min..=max).contains(&v) {
                errs.push(KnobError::OutOfRange {
                    knob,
                    value: v,
                    min,
                    max,
                });
            }
        }
        let mut below = |knob: Knob, value: u64, other: Knob, floor: u64| {
            if value < floor && !errs.iter().any(|e| e.knob() == knob) {
                errs.push(KnobError::Below {
                    knob,
                    value,
                    other,
                    floor,
                });
            }
        };
        below(Knob::CapWait, self.cap_ms, Knob::BaseWait, self.base_ms);
        if self.active(Knob::DurationHiMs) {
            below(
                Knob::DurationHiMs,
                self.duration_hi_ms,
                Knob::DurationMs,
                self.duration_ms,
            );
        }
        // A heartbeat must come before the lease it extends runs out.
        if self.heartbeat_ms > 0
            && self.heartbeat_ms >= self.lease_ms
            && !errs.iter().any(|e| e.knob() == Knob::HeartbeatMs)
        {
            errs.push(KnobError::NotBelow {
                knob: Knob::HeartbeatMs,
                value: self.heartbeat_ms,
                other: Knob::Lease,
                ceiling: self.lease_ms,
            });
        }
        errs
    }
}

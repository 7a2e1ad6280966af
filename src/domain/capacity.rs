//! Sizing a queue from the user's own numbers (issue 25, `brief/CAPACITY.md`): how many
//! workers, what lease, how long a burst takes to drain — answered analytically
//! ([`analytic`]: Erlang C, Allen–Cunneen, square-root staffing, the fluid burst) and by the
//! real engine ([`sweep`]: the simulator run over worker counts and seeds, with 95 %
//! confidence intervals). The simulation is the reference; the analytic answer is a band.
//!
//! The model ([`CapacityInput`]): Poisson arrivals at the sizing rate (the peak when given),
//! optionally a burst on top; each attempt runs the handler (its time drawn from
//! [`HandlerTime`]) and fails transiently with probability `p`, retried by the sheet's backoff
//! up to its max attempts; the downstream may limit the rate (a token bucket: refused calls
//! fail the attempt), the calls at once (more are "busy") or take an exclusive lock (one at a
//! time); our own limiter may pace the calls. "Workers" counts the jobs run at once
//! (processes × concurrency each).

pub mod analytic;
pub mod backlog;
pub mod drawn;
pub mod report;
mod runs;
pub mod sweep;

use crate::domain::lang::Lang;
use crate::domain::sheet::load::{Burst, HandlerTime, LoadSpec, Missing};
use crate::domain::sheet::JobSheet;
use crate::domain::sim::core::backoff::{BackoffPolicy, Growth, Jitter};
use crate::domain::sim::core::time::SimDuration;
use serde::{Deserialize, Serialize};

/// Which limit caps the throughput.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bottleneck {
    /// The workers: more of them raise the ceiling.
    Workers,
    /// The downstream's rate limit.
    DownstreamRate,
    /// Our own limiter (the workers pace themselves).
    OurLimit,
    /// The downstream's concurrency limit.
    DownstreamConcurrency,
    /// An exclusive lock: one call at a time.
    Lock,
}

impl Bottleneck {
    /// The stable id, e.g. `downstream-rate` (the CLI's JSON).
    pub fn id(self) -> &'static str {
        match self {
            Bottleneck::Workers => "workers",
            Bottleneck::DownstreamRate => "downstream-rate",
            Bottleneck::OurLimit => "our-limit",
            Bottleneck::DownstreamConcurrency => "downstream-concurrency",
            Bottleneck::Lock => "lock",
        }
    }
}

impl HandlerTime {
    /// The mean, ms: lognormal `e^(m + σ²/2)` with `m = ln p50`, `σ = ln(p95/p50) / 1.6449`.
    pub fn mean_ms(self) -> f64 {
        match self {
            HandlerTime::Lognormal { p50_ms, p95_ms } => {
                let (m, s) = lognormal_params(p50_ms, p95_ms);
                (m + s * s / 2.0).exp()
            }
            HandlerTime::Fixed { ms } => ms as f64,
            HandlerTime::Exponential { mean_ms } => mean_ms as f64,
        }
    }

    /// The squared coefficient of variation `C_s²`: lognormal `e^(σ²) − 1`, fixed 0,
    /// exponential 1.
    pub fn cs2(self) -> f64 {
        match self {
            HandlerTime::Lognormal { p50_ms, p95_ms } => {
                let (_, s) = lognormal_params(p50_ms, p95_ms);
                (s * s).exp() - 1.0
            }
            HandlerTime::Fixed { .. } => 0.0,
            HandlerTime::Exponential { .. } => 1.0,
        }
    }

    /// The `q`-quantile, ms (`0 < q < 1`): lognormal `e^(m + z_q·σ)`, exponential
    /// `−mean·ln(1 − q)`.
    pub fn quantile_ms(self, q: f64) -> f64 {
        match self {
            HandlerTime::Lognormal { p50_ms, p95_ms } => {
                let (m, s) = lognormal_params(p50_ms, p95_ms);
                (m + z(q) * s).exp()
            }
            HandlerTime::Fixed { ms } => ms as f64,
            HandlerTime::Exponential { mean_ms } => -(mean_ms as f64) * (1.0 - q).ln(),
        }
    }

    /// The simulator's distribution of this handler time.
    pub fn dist(self) -> crate::domain::sim::setup::config::DurationDist {
        use crate::domain::sim::setup::config::DurationDist;
        match self {
            HandlerTime::Lognormal { p50_ms, p95_ms } if p95_ms > p50_ms => {
                DurationDist::LogNormal {
                    p50_ms: p50_ms as f64,
                    p95_ms: p95_ms as f64,
                }
            }
            HandlerTime::Lognormal { p50_ms, .. } => DurationDist::Fixed { ms: p50_ms },
            HandlerTime::Fixed { ms } => DurationDist::Fixed { ms },
            HandlerTime::Exponential { mean_ms } => DurationDist::Exponential {
                mean_ms: mean_ms as f64,
            },
        }
    }
}

/// `(m, σ)` of a lognormal with median `p50` and 95th percentile `p95` (ms).
fn lognormal_params(p50: u64, p95: u64) -> (f64, f64) {
    let (p50, p95) = (p50.max(1) as f64, p95.max(p50.max(1)) as f64);
    (p50.ln(), (p95 / p50).ln() / 1.644_853_626_951_472_2)
}

/// The standard normal quantile of the few levels the answer uses (p50, p95, p99, p99.9),
/// else Acklam's rational approximation (relative error < 1.2·10⁻⁹).
fn z(q: f64) -> f64 {
    match q {
        0.5 => 0.0,
        0.95 => 1.644_853_626_951_472_2,
        0.99 => 2.326_347_874_040_841,
        0.999 => 3.090_232_306_167_813_5,
        _ => acklam(q),
    }
}

fn acklam(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The numbers a capacity answer is computed from. Rates per second, durations in ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CapacityInput {
    /// Steady arrivals per second (0: the burst only).
    pub arrival_per_s: f64,
    /// The handler's time.
    pub handler: HandlerTime,
    /// Probability that an attempt fails transiently, `[0, 0.99]`.
    pub failure_p: f64,
    /// Attempts at most, the first included (the sheet's retry section; 1 without one).
    pub max_attempts: u32,
    /// The wait before a retry: growth, base and cap (ms), jitter.
    pub backoff: RetryWaits,
    /// A burst on top of the arrivals.
    pub burst: Option<Burst>,
    /// Target: the burst drained within this, ms.
    pub drain_within_ms: Option<u64>,
    /// Target: the wait in queue at p95, ms.
    pub target_wait_p95_ms: Option<u64>,
    /// The downstream's rate limit, per second, and its burst allowance.
    pub downstream_rate: Option<(f64, u32)>,
    /// Our own limiter, calls per second across the workers.
    pub our_limit_per_s: Option<f64>,
    /// Calls the downstream serves at once.
    pub downstream_concurrency: Option<u32>,
    /// One call at a time (an exclusive lock).
    pub lock: bool,
    /// The largest worker count to consider (jobs at once; 1 ..= 1 000).
    pub workers_max: u32,
    /// The sheet's attempt timeout, ms.
    pub attempt_timeout_ms: Option<u64>,
    /// The sheet's lease / visibility timeout, ms (the simulation runs with it).
    pub lease_ms: Option<u64>,
    /// The worker count chosen in the sheet (jobs at once).
    pub chosen: Option<u32>,
}

/// The retry waits as the simulator runs them (a polynomial backoff as exponential from its
/// first wait, as "Your settings" does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryWaits {
    /// Growth.
    pub growth: Growth,
    /// First wait, ms.
    pub base_ms: u64,
    /// Largest wait, ms.
    pub cap_ms: u64,
    /// Jitter.
    pub jitter: Jitter,
}

impl RetryWaits {
    /// The simulator's policy.
    pub fn policy(self) -> BackoffPolicy {
        BackoffPolicy {
            base: SimDuration::from_ms(self.base_ms),
            cap: SimDuration::from_ms(self.cap_ms.max(self.base_ms)),
            growth: self.growth,
            jitter: self.jitter,
        }
    }
}

impl Default for RetryWaits {
    /// Exponential from 1 s, cap 1 min, full jitter (used only when the sheet has no retry
    /// section; the answer names the sheet's own waits otherwise).
    fn default() -> Self {
        RetryWaits {
            growth: Growth::Exponential,
            base_ms: 1_000,
            cap_ms: 60_000,
            jitter: Jitter::Full,
        }
    }
}

/// The workers considered at most when nothing says otherwise.
pub const DEFAULT_WORKERS_MAX: u32 = 200;

/// The largest `workers_max` a sizing accepts (jobs at once).
pub const WORKERS_LIMIT: u32 = 1_000;

impl CapacityInput {
    /// The input of `arrival_per_s` steady arrivals and `handler` alone: no failures, one
    /// attempt (default retry waits), no burst, no target, no limit but the workers (up to
    /// [`DEFAULT_WORKERS_MAX`]), no sheet lease or timeout, no count chosen. Callers set the
    /// rest with struct update syntax.
    pub fn new(arrival_per_s: f64, handler: HandlerTime) -> CapacityInput {
        CapacityInput {
            arrival_per_s,
            handler,
            failure_p: 0.0,
            max_attempts: 1,
            backoff: RetryWaits::default(),
            burst: None,
            drain_within_ms: None,
            target_wait_p95_ms: None,
            downstream_rate: None,
            our_limit_per_s: None,
            downstream_concurrency: None,
            lock: false,
            workers_max: DEFAULT_WORKERS_MAX,
            attempt_timeout_ms: None,
            lease_ms: None,
            chosen: None,
        }
    }

    /// The input of `sheet`'s load section and retry section; the numbers still missing
    /// otherwise ("not sized yet": [`LoadSpec::missing`]).
    ///
    /// # Errors
    /// The missing numbers, in the section's order.
    pub fn from_sheet(sheet: &JobSheet) -> Result<CapacityInput, Vec<Missing>> {
        let load = sheet.load.unwrap_or_default();
        let missing = load.missing(sheet);
        if !missing.is_empty() {
            return Err(missing);
        }
        let handler = load.handler.ok_or_else(|| vec![Missing::Handler])?;
        let retry = sheet.retry.as_ref();
        let backoff = retry.map_or_else(RetryWaits::default, |r| RetryWaits {
            growth: match r.backoff.kind {
                crate::domain::sheet::BackoffKind::Fixed => Growth::Fixed,
                _ => Growth::Exponential,
            },
            base_ms: crate::domain::sheet::retry_window::ceiling_ms(&r.backoff, 0).max(1),
            cap_ms: r.backoff.cap_ms.max(1),
            jitter: r.backoff.jitter,
        });
        Ok(CapacityInput {
            arrival_per_s: load.sizing_rate_per_s().unwrap_or(0.0),
            handler,
            failure_p: f64::from(load.failure_bp.unwrap_or(0)) / 10_000.0,
            max_attempts: retry.map_or(1, |r| r.max_attempts),
            backoff,
            burst: load.burst,
            drain_within_ms: load.drain_within_ms,
            target_wait_p95_ms: load.effective_target_wait_p95_ms(sheet).map(|(ms, _)| ms),
            downstream_rate: load
                .downstream
                .rate
                .map(|r| (r.per_s(), load.downstream.rate_burst.unwrap_or(1))),
            our_limit_per_s: load.our_limit.map(|r| r.per_s()),
            downstream_concurrency: load.downstream.concurrency,
            lock: load.downstream.exclusive_lock,
            // The sheet's own count, within the sweep's range (a sheet of 50 × 25 at once was
            // refused as "workers_max: out of range"); the sweep adds room for the load
            // ([`CapacityInput::with_room_for_load`]).
            workers_max: DEFAULT_WORKERS_MAX
                .max(load.slots().unwrap_or(0))
                .min(WORKERS_LIMIT),
            attempt_timeout_ms: retry.map(|r| r.attempt_timeout_ms),
            lease_ms: retry.map(|r| r.lease_ms),
            chosen: load.slots(),
        })
    }

    /// This input with `workers_max` raised where the load needs more than it: to the
    /// offered load `a` with room for a wait target (`1.5·a + 4·√a + 2`: square-root staffing's
    /// `a + β·√a` with β well above the 1–3 a p95 target takes, and half again for bottlenecks
    /// the formula does not see), at most [`WORKERS_LIMIT`]. What the page's "Size it" and the
    /// CLI without `--workers-max` sweep: before, 200 (or the sheet's count) stood whatever the
    /// load, and 2,000/s of a 285 ms handler (570 Erlangs) was "no count up to 200 keeps up"
    /// where 571 at once does. Only the sweep calls it, so the page's first load and the embed
    /// page do not carry it.
    pub fn with_room_for_load(self) -> CapacityInput {
        let a = self.offered_load();
        let room = if a.is_finite() {
            (1.5 * a + 4.0 * a.sqrt() + 2.0)
                .ceil()
                .min(f64::from(WORKERS_LIMIT)) as u32
        } else {
            WORKERS_LIMIT
        };
        CapacityInput {
            workers_max: self.workers_max.max(room).min(WORKERS_LIMIT),
            ..self
        }
    }

    /// Expected attempts per job, `(1 − pᵐ) / (1 − p)`.
    pub fn expected_attempts(&self) -> f64 {
        analytic::expected_attempts(self.failure_p, self.max_attempts)
    }

    /// Mean handler time, seconds.
    pub fn mean_s(&self) -> f64 {
        self.handler.mean_ms() / 1e3
    }

    /// The offered load in Erlangs with retries: `a = λ · E[attempts] · E[S]`.
    pub fn offered_load(&self) -> f64 {
        self.arrival_per_s * self.expected_attempts() * self.mean_s()
    }

    /// Every limit's throughput ceiling with `workers` at once, in jobs per second (each
    /// attempt is one call): workers `c / (E[att]·E[S])`, a rate limit `r / E[att]`, a
    /// concurrency limit `k / (E[att]·E[S])`, a lock `1 / (E[att]·E[S])`.
    pub fn ceilings(&self, workers: u32) -> Vec<(Bottleneck, f64)> {
        let per_slot = 1.0 / (self.expected_attempts() * self.mean_s().max(1e-9));
        let att = self.expected_attempts();
        let mut out = vec![(Bottleneck::Workers, f64::from(workers) * per_slot)];
        if let Some((r, _)) = self.downstream_rate {
            out.push((Bottleneck::DownstreamRate, r / att));
        }
        if let Some(r) = self.our_limit_per_s {
            out.push((Bottleneck::OurLimit, r / att));
        }
        if let Some(k) = self.downstream_concurrency {
            out.push((Bottleneck::DownstreamConcurrency, f64::from(k) * per_slot));
        }
        if self.lock {
            out.push((Bottleneck::Lock, per_slot));
        }
        out
    }

    /// The lowest ceiling with `workers` at once and the limit that sets it (ties: the
    /// first of workers, downstream rate, our limit, concurrency, lock).
    pub fn bottleneck(&self, workers: u32) -> (Bottleneck, f64) {
        self.ceilings(workers)
            .into_iter()
            .fold((Bottleneck::Workers, f64::INFINITY), |best, c| {
                if c.1 < best.1 {
                    c
                } else {
                    best
                }
            })
    }

    /// The throughput no worker count can pass: the lowest ceiling of the limits other than
    /// the workers (`None`: only the workers limit it).
    pub fn fixed_ceiling(&self) -> Option<(Bottleneck, f64)> {
        self.ceilings(1)
            .into_iter()
            .filter(|c| c.0 != Bottleneck::Workers)
            .fold(None, |best: Option<(Bottleneck, f64)>, c| match best {
                Some(b) if b.1 <= c.1 => Some(b),
                _ => Some(c),
            })
    }

    /// Checks the numbers a caller (the CLI's flags) may give out of range.
    ///
    /// # Errors
    /// Each field out of its range, named with the range: [`InputError`].
    pub fn validate(&self) -> Vec<InputError> {
        let mut out = Vec::new();
        let mut bad = |field: &'static str, ok: bool, allowed: &'static str| {
            if !ok {
                out.push(InputError { field, allowed });
            }
        };
        bad(
            "arrival_per_s",
            self.arrival_per_s.is_finite() && (0.0..=1e6).contains(&self.arrival_per_s),
            "0 to 1,000,000 per second",
        );
        bad(
            "failure_rate",
            (0.0..=0.99).contains(&self.failure_p),
            "0 to 0.99",
        );
        bad(
            "max_attempts",
            (1..=100).contains(&self.max_attempts),
            "1 to 100",
        );
        bad(
            "workers_max",
            (1..=WORKERS_LIMIT).contains(&self.workers_max),
            "1 to 1,000",
        );
        let handler_ok = match self.handler {
            HandlerTime::Lognormal { p50_ms, p95_ms } => {
                (1..=86_400_000).contains(&p50_ms) && (p50_ms..=86_400_000).contains(&p95_ms)
            }
            HandlerTime::Fixed { ms } => (1..=86_400_000).contains(&ms),
            HandlerTime::Exponential { mean_ms } => (1..=86_400_000).contains(&mean_ms),
        };
        bad(
            "handler",
            handler_ok,
            "1 ms to 1 day each, p95 at least p50",
        );
        let rate_ok = |r: Option<f64>| r.is_none_or(|r| r.is_finite() && (1e-6..=1e6).contains(&r));
        bad(
            "downstream_limit_per_s",
            rate_ok(self.downstream_rate.map(|r| r.0)),
            "more than 0 to 1,000,000 per second",
        );
        bad(
            "our_limit_per_s",
            rate_ok(self.our_limit_per_s),
            "more than 0 to 1,000,000 per second",
        );
        bad(
            "downstream_concurrency",
            self.downstream_concurrency
                .is_none_or(|k| (1..=10_000).contains(&k)),
            "1 to 10,000",
        );
        bad(
            "burst",
            self.burst.is_none_or(|b| {
                (1..=crate::domain::sheet::load::limits::BURST_JOBS).contains(&b.jobs())
            }),
            "1 to 100,000 jobs",
        );
        bad(
            "drain_within_ms",
            self.drain_within_ms.is_none_or(|ms| ms >= 1),
            "at least 1 ms",
        );
        bad(
            "target_wait_p95_ms",
            self.target_wait_p95_ms.is_none_or(|ms| ms >= 1),
            "at least 1 ms",
        );
        bad(
            "arrivals",
            self.arrival_per_s > 0.0 || self.burst.is_some(),
            "an arrival rate above 0, or a burst",
        );
        out
    }
}

/// A number of a [`CapacityInput`] out of its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputError {
    /// The field (the CLI flag's name without dashes, in snake case).
    pub field: &'static str,
    /// What is allowed.
    pub allowed: &'static str,
}

impl InputError {
    /// "failure_rate: out of range; allowed: 0 to 0.99" (ja: 「failure_rate：範囲外です。…」).
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{}: out of range; allowed: {}", self.field, self.allowed),
            Lang::Ja => format!(
                "{}：範囲外です。指定できるのは {}",
                self.field,
                allowed_ja(self.allowed)
            ),
        }
    }
}

/// The whole answer: what the CLI prints (`size --format json`), the sim worker sends to the
/// page, and the sheet shows.
pub use report::SizeAnswer;

/// The answer for `sheet`'s numbers (analytic and simulated, `seeds` runs per worker count of
/// `jobs` jobs each, from `seed`), or the numbers still missing.
///
/// # Errors
/// The missing numbers ("not sized yet").
pub fn size_sheet(
    sheet: &JobSheet,
    opts: sweep::SweepOptions,
    progress: impl FnMut(u64, u64),
) -> Result<Result<SizeAnswer, sweep::SweepError>, Vec<Missing>> {
    let input = CapacityInput::from_sheet(sheet)?;
    Ok(sweep::size(&input, opts, progress))
}

/// Whether the sheet's load section is empty or absent (nothing typed yet).
pub fn untouched(load: Option<&LoadSpec>) -> bool {
    load.is_none_or(LoadSpec::is_empty)
}

/// What a [`Missing`] number is, in `lang` ("not sized yet: needs …"; the page and the
/// worker's refusal say it the same way).
pub fn missing_text(m: Missing, lang: Lang) -> &'static str {
    match (m, lang) {
        (Missing::Arrivals, Lang::En) => "the arrival rate (mean or peak) or a burst",
        (Missing::Arrivals, Lang::Ja) => "到着率（平均かピーク）またはバースト",
        (Missing::HandlerP50, Lang::En) => {
            "the handler time's median (p50; its p95 comes from the questions)"
        }
        (Missing::HandlerP50, Lang::Ja) => "処理時間の中央値（p50。p95は質問の答えから）",
        (Missing::Handler, Lang::En) => "the handler time (p50 and p95)",
        (Missing::Handler, Lang::Ja) => "処理時間（p50とp95）",
    }
}

/// "Not sized yet: needs the arrival rate … and the handler time …" in `lang`.
pub fn not_sized_text(missing: &[Missing], lang: Lang) -> String {
    let names: Vec<&str> = missing.iter().map(|m| missing_text(*m, lang)).collect();
    match lang {
        Lang::En => format!("Not sized yet: needs {}.", names.join(" and ")),
        Lang::Ja => format!("未算定：{}が必要です。", names.join("と")),
    }
}

/// The allowed ranges of [`CapacityInput::validate`] in Japanese (the English text when a
/// range has none).
pub fn allowed_ja(en: &str) -> String {
    match en {
        "0 to 1,000,000 per second" => "毎秒0〜1,000,000".into(),
        "0 to 0.99" => "0〜0.99".into(),
        "1 to 100" => "1〜100".into(),
        "1 to 1,000" => "1〜1,000".into(),
        "1 ms to 1 day each, p95 at least p50" => "それぞれ1ミリ秒〜1日、p95はp50以上".into(),
        "more than 0 to 1,000,000 per second" => "毎秒0より大きく1,000,000まで".into(),
        "1 to 10,000" => "1〜10,000".into(),
        "1 to 100,000 jobs" => "1〜100,000件".into(),
        "at least 1 ms" => "1ミリ秒以上".into(),
        "an arrival rate above 0, or a burst" => "0より大きい到着率、またはバースト".into(),
        "1 to 50" => "1〜50".into(),
        "100 to 100,000" => "100〜100,000".into(),
        "2 to 16" => "2〜16".into(),
        other => other.to_owned(),
    }
}

//! The data behind the simulator's four charts, small enough to send to the page for any run
//! (10⁶ jobs included), and the charts themselves as SVG (drawn with [`crate::domain::plot`]).
//!
//! | chart | x | y | series |
//! |---|---|---|---|
//! | `depth`: queue depth over time | time, s | rows `queued`, jobs | one step line |
//! | `attempts`: attempts per job | attempts (1 … max) | jobs | stacked: done / dead / other |
//! | `latency`: latency percentiles | p50, p95, p99, max | ms, s, min or h ([`TimeUnit`]) | grouped: enqueue → done, enqueue → first claim |
//! | `calls`: downstream calls per second | time, s | calls/s | stacked: ok / busy / failed |
//!
//! A run without downstream calls gets a short note instead of an empty calls chart. Two
//! runs drawn side by side share their scales through [`ChartScale::shared`]. The drawing runs
//! in the simulation worker (`results::drawn`), never in the page.
//!
//! *Failed* calls are the downstream's other refusals: rate limited plus unavailable (outage).
//! A downstream with a rate limit gets a dashed line at the rate on the calls chart, and the
//! figure says how many calls its token bucket lets through in one second after an idle spell
//! (`burst + rate`), so a bar above the line reads as the burst the limit allows.
//! Calls are counted when their answer reaches the caller, as the run's counters count them.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::plot::{self, Axis, BarRule, Bars, Frame, Layout, Limits, Line, Slots};
use crate::domain::sim::engine::Simulation;
use crate::domain::sim::jobs::Status;
use crate::domain::sim::results::report::Percentiles;
use serde::{Deserialize, Serialize};

/// Slots of the attempts histogram at most: attempts `0 ..= 49`, the last slot also holding
/// every job with more.
pub const MAX_ATTEMPT_SLOTS: usize = 50;

/// Bars of the calls chart at most: adjacent buckets are merged past it (rates stay per
/// second).
pub const MAX_CALL_BARS: usize = 120;

/// Downstream answers per time bucket.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CallSeries {
    /// Bucket width, seconds.
    pub bucket_s: f64,
    /// Per bucket from `t = 0`: answers `[ok, busy, failed]` (failed = rate limited +
    /// unavailable).
    pub buckets: Vec<[u64; 3]>,
}

impl CallSeries {
    /// The run's series (see [`Simulation::calls_series`]).
    pub fn of_sim(sim: &Simulation) -> CallSeries {
        let (bucket, buckets) = sim.calls_series();
        CallSeries {
            bucket_s: bucket.as_micros() as f64 / 1e6,
            buckets: buckets.to_vec(),
        }
    }

    /// What the calls chart draws (and the CLI's JSON prints as `metrics.calls_per_s`): the
    /// bar width in seconds and, per bar from `t = 0`, the answers per second `[ok, busy,
    /// failed]` (three lists of equal length). Adjacent buckets are merged so that there are
    /// at most [`MAX_CALL_BARS`] bars (the width is then a multiple of `bucket_s`; a last,
    /// partly filled bar is divided by the whole width). Each rate times the width, summed
    /// over the bars, gives back [`CallSeries::totals`].
    pub fn rates(&self) -> (f64, [Vec<f64>; 3]) {
        let b = &self.buckets;
        let k = b.len().div_ceil(MAX_CALL_BARS).max(1);
        let width = self.bucket_s * k as f64;
        let rate = |c: usize| -> Vec<f64> {
            b.chunks(k)
                .map(|ch| ch.iter().map(|s| s[c] as f64).sum::<f64>() / width)
                .collect()
        };
        (width, [rate(0), rate(1), rate(2)])
    }

    /// Totals `[ok, busy, failed]` over the run.
    pub fn totals(&self) -> [u64; 3] {
        self.buckets.iter().fold([0; 3], |a, b| {
            [
                a[0].saturating_add(b[0]),
                a[1].saturating_add(b[1]),
                a[2].saturating_add(b[2]),
            ]
        })
    }
}

/// Downstream answers per second over the run, as the page's calls chart draws them
/// ([`CallSeries::rates`]): the CLI's JSON prints it as `metrics.calls_per_s`. Not part of
/// the [`Report`](crate::domain::sim::Report), so the trace hash is the same with and
/// without it. Native builds only (the page draws from [`CallSeries`]).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallRates {
    /// Width of one bucket, seconds (the engine's bucket, or a multiple of it past
    /// [`MAX_CALL_BARS`] buckets).
    pub bucket_s: f64,
    /// Per bucket from `t = 0`: answers `ok` per second.
    pub ok: Vec<f64>,
    /// Per bucket: `busy` answers per second (the downstream at capacity).
    pub busy: Vec<f64>,
    /// Per bucket: other refusals per second (rate limited + unavailable).
    pub failed: Vec<f64>,
}

#[cfg(not(target_arch = "wasm32"))]
impl CallRates {
    /// The rates of `series`; `None` when the run made no downstream calls. An answer counts
    /// in the bucket of the instant it reaches its caller, so `rate × bucket_s` summed over
    /// the buckets gives `calls_ok`, `calls_busy` and `calls_rate_limited +
    /// calls_unavailable`.
    pub fn of(series: &CallSeries) -> Option<CallRates> {
        if series.totals() == [0; 3] {
            return None;
        }
        let (bucket_s, [ok, busy, failed]) = series.rates();
        Some(CallRates {
            bucket_s,
            ok,
            busy,
            failed,
        })
    }

    /// Adds `rates` to a report's JSON as `metrics.calls_per_s` (nothing when `rates` is
    /// `None` or the report has no `metrics` object).
    pub fn add_to_json(rates: Option<CallRates>, report: &mut serde_json::Value) {
        let metrics = report.get_mut("metrics").and_then(|m| m.as_object_mut());
        if let (Some(m), Some(r)) = (metrics, rates) {
            m.insert(
                "calls_per_s".into(),
                serde_json::to_value(r).unwrap_or_default(),
            );
        }
    }
}

/// Everything the four charts need.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartData {
    /// Queue depth over time: `[seconds, rows queued]` as a step line (each depth holds
    /// until the next point; see [`crate::domain::sim::results::depth`]): every change for small runs, a
    /// peak-keeping envelope past 4 096 changes; plus the end of the run.
    pub depth: Vec<(f64, u64)>,
    /// Downstream answers per bucket.
    pub calls: CallSeries,
    /// Attempts histogram: index = attempts, value = jobs `[done, dead, other]` (other =
    /// queued or running), at most [`MAX_ATTEMPT_SLOTS`] slots.
    pub attempts: Vec<[u64; 3]>,
    /// Enqueue → done, ms.
    pub latency_ms: Option<Percentiles>,
    /// Enqueue → first claim, ms.
    pub wait_ms: Option<Percentiles>,
    /// The downstream's rate limit, when it has one (the calls chart draws it).
    #[serde(default)]
    pub rate_limit: Option<RateLimit>,
    /// Our own limiter, calls per second across all workers, when the run paces its
    /// downstream calls ([`Pacing`](crate::domain::sim::setup::config::Pacing)); the calls
    /// chart draws it where it is the lower line.
    #[serde(default)]
    pub our_limit_per_s: Option<f64>,
}

/// A downstream's rate limit as the calls chart shows it: a token bucket of `burst` calls
/// refilled at `rate_per_s` ([`TokenBucket`](crate::domain::sim::setup::config::TokenBucket)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RateLimit {
    /// Calls per second, on average.
    pub rate_per_s: f64,
    /// The bucket's size, calls.
    pub burst: u32,
}

impl RateLimit {
    /// The most calls that can pass within one second after an idle spell: the full
    /// bucket plus one second of refill.
    pub fn most_in_a_second(self) -> f64 {
        f64::from(self.burst) + self.rate_per_s
    }
}

impl ChartData {
    /// The charts' data of a finished (or stopped) run.
    pub fn of_sim(sim: &Simulation) -> ChartData {
        let mut depth: Vec<(f64, u64)> = sim
            .depth_series()
            .iter()
            .map(|&(t, d)| (t.as_secs_f64(), d))
            .collect();
        let end = sim.now().as_secs_f64();
        if depth.last().is_some_and(|&(t, _)| t < end) {
            depth.push((end, sim.table().count(Status::Queued)));
        }
        let micros = |v: Vec<Option<crate::domain::sim::core::time::SimDuration>>| {
            Percentiles::of_micros(v.into_iter().flatten().map(|d| d.as_micros()).collect())
        };
        ChartData {
            depth,
            calls: CallSeries::of_sim(sim),
            attempts: attempts_histogram(sim.table().attempts_summary()),
            latency_ms: micros(sim.latencies()),
            wait_ms: micros(sim.waits()),
            rate_limit: sim
                .config()
                .downstream
                .and_then(|d| d.rate_limit)
                .map(|tb| RateLimit {
                    rate_per_s: tb.rate_per_s,
                    burst: tb.burst,
                }),
            our_limit_per_s: (sim.config().downstream)
                .and(sim.config().pacing)
                .map(|p| p.rate_per_s),
        }
    }

    /// Our limiter's rate when the calls chart draws it: the lower of the two limits is the
    /// line the calls stay under, so ours where it paces at or below the downstream's rate.
    pub fn our_limit_drawn(&self) -> Option<f64> {
        let ours = self.our_limit_per_s?;
        (self.rate_limit)
            .is_none_or(|r| ours <= r.rate_per_s)
            .then_some(ours)
    }

    /// Nothing to draw (a run without a queue, e.g. the jitter study).
    pub fn is_empty(&self) -> bool {
        self.attempts.is_empty()
            && self.calls.buckets.is_empty()
            && self.latency_ms.is_none()
            && self.depth.iter().all(|&(_, d)| d == 0)
    }

    /// Jobs `[done, dead, other]` over all slots of [`ChartData::attempts`].
    pub fn attempt_totals(&self) -> [u64; 3] {
        self.attempts.iter().fold([0; 3], |a, b| {
            [
                a[0].saturating_add(b[0]),
                a[1].saturating_add(b[1]),
                a[2].saturating_add(b[2]),
            ]
        })
    }
}

/// The unit of the latency chart, chosen from its largest value: ms below 1 s, s below
/// 2 min, min below 2 h, h from 2 h on (`1,031,000 ms` is drawn as `17.2 min`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// Minutes.
    Min,
    /// Hours.
    H,
}

impl TimeUnit {
    /// The unit for a largest value of `max_ms` milliseconds.
    pub fn for_max_ms(max_ms: f64) -> TimeUnit {
        if max_ms.is_nan() || max_ms < 1_000.0 {
            TimeUnit::Ms
        } else if max_ms < 120_000.0 {
            TimeUnit::S
        } else if max_ms < 7_200_000.0 {
            TimeUnit::Min
        } else {
            TimeUnit::H
        }
    }

    /// Milliseconds per unit.
    pub fn ms(self) -> f64 {
        match self {
            TimeUnit::Ms => 1.0,
            TimeUnit::S => 1_000.0,
            TimeUnit::Min => 60_000.0,
            TimeUnit::H => 3_600_000.0,
        }
    }

    /// The locale key suffix of its name (`unit.<key>`).
    pub fn key(self) -> &'static str {
        match self {
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
            TimeUnit::Min => "min",
            TimeUnit::H => "h",
        }
    }
}

/// The axis ends of the four charts, so that two runs compared side by side are drawn on
/// the same scales ([`ChartScale::shared`]). Times in s, latency in ms, rates in calls/s.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChartScale {
    /// Depth chart: end of the run (s) and the highest depth (jobs).
    pub depth: Limits,
    /// Attempts chart: the highest stacked bar (jobs); `x_hi` is the number of slots.
    pub attempts: Limits,
    /// Latency chart: the largest percentile (ms).
    pub latency: Limits,
    /// Calls chart: the time the bars span (s) and the highest stacked rate (calls/s).
    pub calls: Limits,
}

impl ChartScale {
    /// The scales `data` needs on its own.
    pub fn of(data: &ChartData) -> ChartScale {
        let hi = |it: &mut dyn Iterator<Item = f64>| it.fold(0.0, f64::max);
        let (width, rates) = call_rates(data);
        let n = rates[0].len();
        ChartScale {
            depth: Limits {
                x_hi: hi(&mut data.depth.iter().map(|p| p.0)),
                y_hi: hi(&mut data.depth.iter().map(|p| p.1 as f64)),
                whole_y: true,
            },
            attempts: Limits {
                x_hi: data.attempts.len() as f64,
                y_hi: hi(&mut data.attempts.iter().map(|s| (s[0] + s[1] + s[2]) as f64)),
                whole_y: true,
            },
            latency: Limits {
                y_hi: hi(&mut [data.latency_ms, data.wait_ms]
                    .into_iter()
                    .flatten()
                    .map(|p| p.max)),
                ..Limits::NONE
            },
            calls: Limits {
                x_hi: width * n.max(plot::MIN_BUCKETS) as f64,
                // The rate limit's line stays in view.
                y_hi: hi(&mut (0..n)
                    .map(|i| rates[0][i] + rates[1][i] + rates[2][i])
                    .chain(data.rate_limit.map(|r| r.rate_per_s))
                    .chain(data.our_limit_per_s)),
                whole_y: false,
            },
        }
    }

    /// The larger of each end: both runs fit.
    pub fn shared(a: &ChartScale, b: &ChartScale) -> ChartScale {
        let m = |x: Limits, y: Limits| Limits {
            x_hi: x.x_hi.max(y.x_hi),
            y_hi: x.y_hi.max(y.y_hi),
            whole_y: x.whole_y && y.whole_y,
        };
        ChartScale {
            depth: m(a.depth, b.depth),
            attempts: m(a.attempts, b.attempts),
            latency: m(a.latency, b.latency),
            calls: m(a.calls, b.calls),
        }
    }
}

/// The calls chart's bar width (s) and rates `[ok, busy, failed]` per bar (calls/s): see
/// [`CallSeries::rates`].
fn call_rates(data: &ChartData) -> (f64, [Vec<f64>; 3]) {
    data.calls.rates()
}

/// Jobs per attempts count, split by final status: `(status, attempts, max_attempts, jobs)` groups
/// in (as [`JobsTable::attempts_summary`](crate::domain::sim::JobsTable::attempts_summary) gives
/// them), slots `0 ..= max(max_attempts, attempts)` out (capped at [`MAX_ATTEMPT_SLOTS`], the last
/// slot collecting the rest), each `[done, dead, other]`. No rows: no slots.
pub fn attempts_histogram(rows: impl Iterator<Item = (Status, u32, u32, u64)>) -> Vec<[u64; 3]> {
    let mut h: Vec<[u64; 3]> = Vec::new();
    for (status, attempts, max, n) in rows {
        let top = (attempts.max(max) as usize).min(MAX_ATTEMPT_SLOTS - 1);
        if h.len() <= top {
            h.resize(top + 1, [0; 3]);
        }
        let col = match status {
            Status::Done => 0,
            Status::Dead => 1,
            Status::Queued | Status::Running => 2,
        };
        h[(attempts as usize).min(MAX_ATTEMPT_SLOTS - 1)][col] += n;
    }
    h
}

/// The charts' words in `lang`: `text(lang)("depth.title")` is the text of the key
/// `charts.depth.title` of `locales/worker/sim-charts.yml`. For [`render`].
pub fn text(lang: Lang) -> impl Fn(&str) -> String {
    move |k| crate::text::t!(format!("charts.{k}"), locale = lang.code()).into_owned()
}

/// The four charts as SVG on the data's own scales: [`render_scaled`] with
/// [`ChartScale::of`].
pub fn render(
    data: &ChartData,
    compact: bool,
    text: &dyn Fn(&str) -> String,
) -> Vec<(&'static str, String)> {
    render_scaled(data, compact, &ChartScale::of(data), text)
}

/// The four charts as SVG: `(id, svg)` for `depth`, `attempts`, `latency`, `calls`, their
/// axes reaching at least `scale` (pass [`ChartScale::shared`] of two runs to compare them).
/// The latency chart's unit is [`TimeUnit::for_max_ms`] of `scale.latency.y_hi`; a run
/// without downstream calls gets [`plot::note`] with `calls.none` for its calls chart.
///
/// `text(key)` gives the words in the reader's language, for the keys
/// `{depth,attempts,latency,calls}.{title,desc}`, `axis.{time,depth,attempts,jobs,latency,duration,calls}`,
/// `unit.{s,jobs,ms,min,h,calls-per-s}`, `series.{depth,done,dead,other,latency,wait,ok,busy,failed}`,
/// `calls.none` and `empty` ([`text`] reads them from `locales/worker/sim-charts.yml`). Legend
/// entries of the attempts and calls charts end with their total, e.g. `ok (1)`.
pub fn render_scaled(
    data: &ChartData,
    compact: bool,
    scale: &ChartScale,
    text: &dyn Fn(&str) -> String,
) -> Vec<(&'static str, String)> {
    vec![
        ("depth", depth_chart(data, compact, scale, text)),
        ("attempts", attempts_chart(data, compact, scale, text)),
        ("latency", latency_chart(data, compact, scale, text)),
        ("calls", calls_chart(data, compact, scale, text)),
    ]
}

/// `"{name} ({total})"`: a legend entry of the attempts or calls chart, `name` the text of key
/// `k`.
fn with_total(text: &dyn Fn(&str) -> String, k: &str, n: u64) -> String {
    format!("{} ({})", text(k), group_thousands(n))
}

/// The queue-depth chart: a step line over time.
fn depth_chart(
    data: &ChartData,
    compact: bool,
    scale: &ChartScale,
    t: &dyn Fn(&str) -> String,
) -> String {
    let empty = t("empty");
    let unit = |k: &str| t(&format!("unit.{k}"));
    let (title_d, desc_d) = (t("depth.title"), t("depth.desc"));
    let (ax_time, ax_depth) = (t("axis.time"), t("axis.depth"));
    let (u_s, u_jobs) = (unit("s"), unit("jobs"));
    let depth_pts: Vec<(f64, f64)> = data.depth.iter().map(|&(x, y)| (x, y as f64)).collect();
    let depth_name = t("series.depth");
    plot::lines(
        &Frame {
            title: &title_d,
            desc: &desc_d,
            x: Axis {
                label: &ax_time,
                unit: &u_s,
            },
            y: Axis {
                label: &ax_depth,
                unit: &u_jobs,
            },
            empty: &empty,
            compact,
            limits: Limits {
                whole_y: true,
                ..scale.depth
            },
        },
        &[Line {
            name: &depth_name,
            key: "depth",
            points: &depth_pts,
            step: true,
        }],
    )
}

/// The attempts chart: jobs per number of attempts, stacked by how they ended.
fn attempts_chart(
    data: &ChartData,
    compact: bool,
    scale: &ChartScale,
    t: &dyn Fn(&str) -> String,
) -> String {
    let empty = t("empty");
    // From attempt 1 unless some job was never claimed.
    let from = usize::from(
        data.attempts
            .first()
            .is_none_or(|s| s.iter().all(|&v| v == 0)),
    );
    let mut slots = data.attempts.get(from..).unwrap_or(&[]).to_vec();
    // As many slots as the scale asks for (the other run of a comparison may have more).
    let shared_slots = (scale.attempts.x_hi as usize).min(MAX_ATTEMPT_SLOTS);
    if !slots.is_empty() && shared_slots > from + slots.len() {
        slots.resize(shared_slots - from, [0; 3]);
    }
    let names: Vec<String> = (from..from + slots.len())
        .map(|i| {
            if i == MAX_ATTEMPT_SLOTS - 1 {
                format!("{i}+")
            } else {
                i.to_string()
            }
        })
        .collect();
    let totals = data.attempt_totals();
    let col = |c: usize| -> Vec<f64> { slots.iter().map(|s| s[c] as f64).collect() };
    let cols = [col(0), col(1), col(2)];
    let att_names = [
        with_total(t, "series.done", totals[0]),
        with_total(t, "series.dead", totals[1]),
        with_total(t, "series.other", totals[2]),
    ];
    let (title_a, desc_a, ax_att, ax_jobs) = (
        t("attempts.title"),
        t("attempts.desc"),
        t("axis.attempts"),
        t("axis.jobs"),
    );
    plot::bars(
        &Frame {
            title: &title_a,
            desc: &desc_a,
            x: Axis {
                label: &ax_att,
                unit: "",
            },
            y: Axis {
                label: &ax_jobs,
                unit: "",
            },
            empty: &empty,
            compact,
            limits: Limits {
                x_hi: 0.0,
                y_hi: scale.attempts.y_hi,
                whole_y: true,
            },
        },
        Slots::Categories(&names),
        Layout::Stacked,
        &stacked3(&att_names, ["done", "dead", "other"], &cols),
    )
}

/// The latency chart: percentiles of latency and wait, grouped, in [`TimeUnit::for_max_ms`]
/// of the scale.
fn latency_chart(
    data: &ChartData,
    compact: bool,
    scale: &ChartScale,
    t: &dyn Fn(&str) -> String,
) -> String {
    let empty = t("empty");
    let unit = |k: &str| t(&format!("unit.{k}"));
    let tu = TimeUnit::for_max_ms(scale.latency.y_hi);
    let per = tu.ms();
    let pct = |p: &Option<Percentiles>| -> Vec<f64> {
        p.map_or(Vec::new(), |p| {
            vec![p.p50 / per, p.p95 / per, p.p99 / per, p.max / per]
        })
    };
    let has_pct = data.latency_ms.is_some() || data.wait_ms.is_some();
    let pnames: Vec<String> = if has_pct {
        ["p50", "p95", "p99", "max"].map(String::from).to_vec()
    } else {
        Vec::new()
    };
    let (lat, wait) = (pct(&data.latency_ms), pct(&data.wait_ms));
    let (title_l, desc_l, ax_lat, u_ms) = (
        t("latency.title"),
        t("latency.desc"),
        t("axis.latency"),
        unit(tu.key()),
    );
    let (n_lat, n_wait) = (t("series.latency"), t("series.wait"));
    plot::bars(
        &Frame {
            title: &title_l,
            desc: &desc_l,
            x: Axis {
                label: &ax_lat,
                unit: "",
            },
            y: Axis {
                label: &t("axis.duration"),
                unit: &u_ms,
            },
            empty: &empty,
            compact,
            limits: Limits {
                y_hi: scale.latency.y_hi / per,
                ..Limits::NONE
            },
        },
        Slots::Categories(&pnames),
        Layout::Grouped,
        &[
            Bars {
                name: &n_lat,
                key: "latency",
                values: &lat,
            },
            Bars {
                name: &n_wait,
                key: "wait",
                values: &wait,
            },
        ],
    )
}

/// The downstream-calls chart: answers per second over time, stacked; a note when the run
/// made no call.
fn calls_chart(
    data: &ChartData,
    compact: bool,
    scale: &ChartScale,
    t: &dyn Fn(&str) -> String,
) -> String {
    let empty = t("empty");
    let unit = |k: &str| t(&format!("unit.{k}"));
    let (ax_time, u_s) = (t("axis.time"), unit("s"));
    // Buckets merged down to MAX_CALL_BARS.
    let (width, rates) = call_rates(data);
    let bars_n = rates[0].len();
    let ct = data.calls.totals();
    let call_names = [
        with_total(t, "series.ok", ct[0]),
        with_total(t, "series.busy", ct[1]),
        with_total(t, "series.failed", ct[2]),
    ];
    let (title_c, desc_c, ax_calls, u_cps) = (
        t("calls.title"),
        t("calls.desc"),
        t("axis.calls"),
        unit("calls-per-s"),
    );
    let none = t("calls.none");
    let calls_frame = Frame {
        title: &title_c,
        desc: &desc_c,
        x: Axis {
            label: &ax_time,
            unit: &u_s,
        },
        y: Axis {
            label: &ax_calls,
            unit: &u_cps,
        },
        empty: if bars_n == 0 { &none } else { &empty },
        compact,
        limits: scale.calls,
    };
    let rule = match (data.our_limit_drawn(), data.rate_limit) {
        (Some(ours), _) => Some((ours, "our-limit", "calls.our-limit")),
        (None, r) => r.map(|r| (r.rate_per_s, "rate-limit", "calls.limit")),
    };
    let limit_label = rule.map(|(y, _, k)| t(k).replace("%{rate}", &plot::format_value(y)));
    if bars_n == 0 {
        plot::note(&calls_frame)
    } else {
        plot::bars_with_rule(
            &calls_frame,
            Slots::Buckets {
                start: 0.0,
                width,
                count: bars_n,
            },
            Layout::Stacked,
            &stacked3(&call_names, ["ok", "busy", "failed"], &rates),
            rule.zip(limit_label.as_deref())
                .map(|((y, key, _), label)| BarRule { y, key, label }),
        )
    }
}

/// The three stacked series of a chart: `names[i]` in the legend, class `s-<keys[i]>`,
/// `values[i]` one value per slot.
fn stacked3<'a, V: AsRef<[f64]>>(
    names: &'a [String; 3],
    keys: [&'a str; 3],
    values: &'a [V; 3],
) -> [Bars<'a>; 3] {
    [0, 1, 2].map(|i| Bars {
        name: &names[i],
        key: keys[i],
        values: values[i].as_ref(),
    })
}

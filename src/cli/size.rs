//! `modality-advisor size`: how many workers, what lease, how long a burst takes to drain —
//! the capacity answer ([`crate::domain::capacity`]) for a sheet's numbers, or for numbers
//! given as flags (a flag overrides the sheet's number of the same meaning).
//!
//! ```text
//! modality-advisor size --input static/examples/partner-sync.json
//! modality-advisor size --arrival-per-s 2 --handler lognormal --p50-ms 80 --p95-ms 300 \
//!     --burst 500 --drain-within-ms 2min --downstream-limit-per-s 10 --format json
//! ```
//!
//! Deterministic for a seed (`--seed`, default 1). Exit codes: 0 an answer (also "no count
//! can": that is an answer); 2 bad usage, an unreadable sheet, numbers still missing ("not
//! sized yet", naming them), or a sweep over its budget (naming the option and its range).

use super::usage::ValueError;
use super::{lang_of, ms_in_range, read_input, LangArg};
use crate::domain::capacity::sweep::{size, SweepOptions};
use crate::domain::capacity::CapacityInput;
use crate::domain::sheet::import::import_json;
use crate::domain::sheet::load::{Burst, HandlerTime, Missing};
use crate::domain::Lang;
use clap::{Args, ValueEnum};

/// Output format of `size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SizeFormat {
    /// A report for people.
    Text,
    /// The documented JSON (docs/CLI.md, "size --format json").
    Json,
    /// A Markdown section for a wiki.
    Markdown,
}

/// The handler-time distribution of `--handler`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HandlerArg {
    /// Exponential with --mean-ms (Erlang C is exact).
    Exponential,
    /// Lognormal from --p50-ms and --p95-ms.
    Lognormal,
    /// Always --mean-ms (or --p50-ms).
    Fixed,
}

/// The flags of `size`.
#[derive(Debug, Args)]
pub struct SizeArgs {
    /// A sheet file (JSON, as the app exports it; - reads standard input): its "Load and
    /// capacity" section, retry section and acceptable wait. Without it, the flags give
    /// every number.
    #[arg(long, value_name = "SHEET.json")]
    input: Option<String>,
    /// Steady arrivals per second (0 to 1 000 000; decimals allowed).
    #[arg(long, value_name = "R", value_parser = parse_rate0, allow_negative_numbers = true)]
    arrival_per_s: Option<f64>,
    /// The handler time's distribution.
    #[arg(long, value_enum, value_name = "DIST")]
    handler: Option<HandlerArg>,
    /// Mean handler time (exponential, fixed), ms or with a unit.
    #[arg(long, value_name = "T", value_parser = parse_handler_ms, allow_negative_numbers = true)]
    mean_ms: Option<u64>,
    /// Median handler time (lognormal), ms or with a unit.
    #[arg(long, value_name = "T", value_parser = parse_handler_ms, allow_negative_numbers = true)]
    p50_ms: Option<u64>,
    /// 95th percentile handler time (lognormal; at least --p50-ms), ms or with a unit.
    #[arg(long, value_name = "T", value_parser = parse_handler_ms, allow_negative_numbers = true)]
    p95_ms: Option<u64>,
    /// Probability that an attempt fails transiently (0 to 0.99).
    #[arg(long, value_name = "P", value_parser = parse_probability, allow_negative_numbers = true)]
    failure_rate: Option<f64>,
    /// Attempts at most, the first included (1 to 100; default: the sheet's, else 1).
    #[arg(long, value_name = "N", value_parser = count::<u32, 1, 100>, allow_negative_numbers = true)]
    max_attempts: Option<u32>,
    /// A burst of N jobs at once on top of the arrivals (1 to 100 000).
    #[arg(long, value_name = "N", value_parser = count::<u64, 1, 100_000>, allow_negative_numbers = true)]
    burst: Option<u64>,
    /// Target: the burst drained within T (ms or with a unit).
    #[arg(long, value_name = "T", value_parser = parse_target_ms, allow_negative_numbers = true)]
    drain_within_ms: Option<u64>,
    /// Target: the wait in queue at p95 at most W (ms or with a unit; default: the sheet's
    /// target, else its acceptable wait).
    #[arg(long, value_name = "W", value_parser = parse_target_ms, allow_negative_numbers = true)]
    target_wait_p95_ms: Option<u64>,
    /// The downstream's rate limit per second: above it calls are refused (and retried).
    #[arg(long, value_name = "R", value_parser = parse_rate, allow_negative_numbers = true)]
    downstream_limit_per_s: Option<f64>,
    /// The downstream rate limit's burst allowance (1 to 100 000; default 1).
    #[arg(long, value_name = "N", value_parser = count::<u32, 1, 100_000>, allow_negative_numbers = true)]
    downstream_burst: Option<u32>,
    /// Our own limiter: the workers pace their calls to R per second in all.
    #[arg(long, value_name = "R", value_parser = parse_rate, allow_negative_numbers = true)]
    our_limit_per_s: Option<f64>,
    /// Calls the downstream serves at once (1 to 10 000).
    #[arg(long, value_name = "K", value_parser = count::<u32, 1, 10_000>, allow_negative_numbers = true)]
    downstream_concurrency: Option<u32>,
    /// The largest worker count (jobs at once) to consider (1 to 1 000; default 200, or the
    /// sheet's count, raised where the offered load needs more: `1.5·a + 4·√a + 2`).
    #[arg(long, value_name = "M", value_parser = count::<u32, 1, 1_000>, allow_negative_numbers = true)]
    workers_max: Option<u32>,
    /// Runs per worker count (1 to 50).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = count::<u32, 1, 50>, allow_negative_numbers = true)]
    seeds: u32,
    /// The first seed: a whole number from 0 to 18,446,744,073,709,551,615.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = count::<u64, 0, { u64::MAX }>, allow_negative_numbers = true)]
    seed: u64,
    /// Jobs per steady run (100 to 100 000).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = count::<u64, 100, 100_000>, allow_negative_numbers = true)]
    jobs: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SizeFormat::Text)]
    format: SizeFormat,
    /// Language of the texts.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    lang: LangArg,
}

/// A whole number from `MIN` to `MAX`, said so for any other input (a negative number, a
/// fraction or a word alike; clap's own ranged parser answers "invalid digit" for `-5`).
fn count<T: TryFrom<u64>, const MIN: u64, const MAX: u64>(raw: &str) -> Result<T, ValueError> {
    raw.trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (MIN..=MAX).contains(v))
        .and_then(|v| T::try_from(v).ok())
        .ok_or(ValueError::Whole { min: MIN, max: MAX })
}

fn parse_rate0(raw: &str) -> Result<f64, ValueError> {
    match raw.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1e6).contains(&v) => Ok(v),
        _ => Err(ValueError::Rate { from_zero: true }),
    }
}

fn parse_rate(raw: &str) -> Result<f64, ValueError> {
    match raw.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1e6 => Ok(v),
        _ => Err(ValueError::Rate { from_zero: false }),
    }
}

fn parse_probability(raw: &str) -> Result<f64, ValueError> {
    match raw.trim().parse::<f64>() {
        Ok(v) if (0.0..=0.99).contains(&v) => Ok(v),
        _ => Err(ValueError::Probability),
    }
}

fn parse_handler_ms(raw: &str) -> Result<u64, ValueError> {
    ms_in_range(raw, 1, 86_400_000)
}

fn parse_target_ms(raw: &str) -> Result<u64, ValueError> {
    ms_in_range(raw, 1, crate::domain::sim::setup::limits::MAX_MS)
}

fn missing_text(m: &[Missing], lang: Lang) -> String {
    let names: Vec<&str> = m
        .iter()
        .map(|m| match (m, lang) {
            (Missing::Arrivals, Lang::En) => {
                "the arrival rate or a burst (--arrival-per-s, --burst)"
            }
            (Missing::HandlerP50, Lang::En) => {
                "the handler's median (--p50-ms; the p95 is the wizard's)"
            }
            (Missing::Handler, Lang::En) => {
                "the handler time (--handler with --mean-ms, or --p50-ms and --p95-ms)"
            }
            (Missing::Arrivals, Lang::Ja) => "到着率かバースト（--arrival-per-s、--burst）",
            (Missing::HandlerP50, Lang::Ja) => "処理時間の中央値（--p50-ms。p95はウィザードの値）",
            (Missing::Handler, Lang::Ja) => {
                "処理時間（--handler と --mean-ms、または --p50-ms と --p95-ms）"
            }
        })
        .collect();
    match lang {
        Lang::En => format!("not sized yet: give {}", names.join("; ")),
        Lang::Ja => format!("まだ見積もれません：{}を指定してください", names.join("、")),
    }
}

/// The handler from the flags (over `base`, the sheet's).
fn handler(
    a: &SizeArgs,
    base: Option<HandlerTime>,
    lang: Lang,
) -> Result<Option<HandlerTime>, String> {
    let dist = a.handler.or(match base {
        Some(HandlerTime::Lognormal { .. }) => Some(HandlerArg::Lognormal),
        Some(HandlerTime::Fixed { .. }) => Some(HandlerArg::Fixed),
        Some(HandlerTime::Exponential { .. }) => Some(HandlerArg::Exponential),
        None if a.p50_ms.is_some() || a.p95_ms.is_some() => Some(HandlerArg::Lognormal),
        None if a.mean_ms.is_some() => Some(HandlerArg::Exponential),
        None => None,
    });
    let (b50, b95, bmean) = match base {
        Some(HandlerTime::Lognormal { p50_ms, p95_ms }) => (Some(p50_ms), Some(p95_ms), None),
        Some(HandlerTime::Fixed { ms }) => (Some(ms), None, Some(ms)),
        Some(HandlerTime::Exponential { mean_ms }) => (None, None, Some(mean_ms)),
        None => (None, None, None),
    };
    let need = |flag: &str| match lang {
        Lang::En => format!("{flag}: required by --handler"),
        Lang::Ja => format!("{flag}：--handler に必要です"),
    };
    Ok(match dist {
        None => None,
        Some(HandlerArg::Lognormal) => {
            let p50 = a.p50_ms.or(b50).ok_or_else(|| need("--p50-ms"))?;
            let p95 = a.p95_ms.or(b95).ok_or_else(|| need("--p95-ms"))?;
            if p95 < p50 {
                return Err(match lang {
                    Lang::En => format!("--p95-ms: {p95} is below --p50-ms {p50}; allowed: {p50} to 86,400,000"),
                    Lang::Ja => format!("--p95-ms：{p95} が --p50-ms {p50} より小さいです。指定できるのは {p50}〜86,400,000"),
                });
            }
            Some(HandlerTime::Lognormal {
                p50_ms: p50,
                p95_ms: p95,
            })
        }
        Some(HandlerArg::Fixed) => Some(HandlerTime::Fixed {
            ms: a
                .mean_ms
                .or(a.p50_ms)
                .or(bmean)
                .ok_or_else(|| need("--mean-ms"))?,
        }),
        Some(HandlerArg::Exponential) => Some(HandlerTime::Exponential {
            mean_ms: a.mean_ms.or(bmean).ok_or_else(|| need("--mean-ms"))?,
        }),
    })
}

/// The input from the sheet (if any) and the flags over it.
fn input(a: &SizeArgs, lang: Lang) -> Result<CapacityInput, String> {
    let sheet = match &a.input {
        Some(path) => {
            let (text, name) = read_input(path)?;
            Some(import_json(&text, lang).map_err(|e| format!("{name}: {e}"))?)
        }
        None => None,
    };
    let load = sheet.as_ref().and_then(|s| s.load).unwrap_or_default();
    let handler = handler(a, load.handler, lang)?;
    let mut missing = Vec::new();
    let arrival = a.arrival_per_s.or_else(|| load.sizing_rate_per_s());
    let burst = a.burst.map(|count| Burst::AtOnce { count }).or(load.burst);
    if arrival.is_none_or(|r| r <= 0.0) && burst.is_none() {
        missing.push(Missing::Arrivals);
    }
    let wizard = sheet
        .as_ref()
        .and_then(crate::domain::sheet::load::LoadSpec::wizard_p95_ms);
    if handler.is_none() {
        missing.push(if wizard.is_some() {
            Missing::HandlerP50
        } else {
            Missing::Handler
        });
    }
    let Some(handler) = handler.filter(|_| missing.is_empty()) else {
        let text = missing_text(&missing, lang);
        // A sheet whose section says nothing: say so first, not only which flags to give.
        let empty = sheet
            .as_ref()
            .is_some_and(|s| crate::domain::capacity::untouched(s.load.as_ref()));
        return Err(match (empty, lang) {
            (true, Lang::En) => format!(
                "the sheet's \"Load and capacity\" section is empty (or the sheet has none: a synchronous or batch outcome, or schema 1 or 2); {text}"
            ),
            (true, Lang::Ja) => format!(
                "定義書の「負荷とキャパシティ」が空です（同期・バッチの結果や、スキーマ1・2の定義書にはありません）。{text}"
            ),
            (false, _) => text,
        });
    };
    let from_sheet = sheet.as_ref().map(|s| {
        let mut s = s.clone();
        s.load = Some(crate::domain::sheet::load::LoadSpec {
            handler: Some(handler),
            ..load
        });
        if s.load
            .is_some_and(|l| l.sizing_rate_per_s().is_none() && l.burst.is_none())
        {
            // Arrivals from the flags only: give the sheet's reader a burst placeholder so it
            // reads the rest; the flags' arrivals are set below.
            s.load = s.load.map(|l| crate::domain::sheet::load::LoadSpec {
                burst: burst.or(Some(Burst::AtOnce { count: 1 })),
                ..l
            });
        }
        CapacityInput::from_sheet(&s)
    });
    let base = match from_sheet {
        Some(Ok(i)) => i,
        Some(Err(m)) => return Err(missing_text(&m, lang)),
        None => CapacityInput::new(0.0, handler),
    };
    let downstream_rate = match (a.downstream_limit_per_s, base.downstream_rate) {
        (Some(r), b) => Some((r, a.downstream_burst.or(b.map(|x| x.1)).unwrap_or(1))),
        (None, Some((r, b))) => Some((r, a.downstream_burst.unwrap_or(b))),
        (None, None) => None,
    };
    let input = CapacityInput {
        arrival_per_s: arrival.unwrap_or(0.0),
        handler,
        failure_p: a.failure_rate.unwrap_or(base.failure_p),
        max_attempts: a.max_attempts.unwrap_or(base.max_attempts),
        burst,
        drain_within_ms: a.drain_within_ms.or(base.drain_within_ms),
        target_wait_p95_ms: a.target_wait_p95_ms.or(base.target_wait_p95_ms),
        downstream_rate,
        our_limit_per_s: a.our_limit_per_s.or(base.our_limit_per_s),
        downstream_concurrency: a.downstream_concurrency.or(base.downstream_concurrency),
        workers_max: a.workers_max.unwrap_or(base.workers_max),
        ..base
    };
    // Without --workers-max the counts considered follow the load, as the page's do.
    Ok(match a.workers_max {
        Some(_) => input,
        None => input.with_room_for_load(),
    })
}

/// Runs `size`: the answer in the chosen format on standard output.
///
/// # Errors
/// The message for standard error (exit 2).
pub fn run(a: &SizeArgs) -> Result<(), String> {
    let lang = lang_of(a.lang);
    let input = input(a, lang)?;
    let opts = SweepOptions {
        seeds: a.seeds,
        seed: a.seed,
        jobs: a.jobs,
        ..SweepOptions::default()
    };
    let answer = size(&input, opts, |_, _| {}).map_err(|e| e.message(lang))?;
    let out = match a.format {
        SizeFormat::Text => answer.to_text(lang),
        SizeFormat::Markdown => answer.to_markdown(lang),
        SizeFormat::Json => {
            let mut s =
                serde_json::to_string_pretty(&answer.to_json(lang)).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    print!("{out}");
    Ok(())
}

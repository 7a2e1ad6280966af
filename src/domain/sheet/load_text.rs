//! The "Load and capacity" section in words: one value per row of the sheet
//! ([`crate::domain::sheet::fields::rows`]) and the computed "Capacity" row from the
//! analytic answer only (offered load with retries, utilisation at the workers chosen,
//! throughput ceiling and its bottleneck, the fluid drain of a burst:
//! [`crate::domain::capacity::sweep::analytic_point`]) — cheap and deterministic, so every
//! export, the print view, the catalog and the share cards can show it. Numbers are grouped by
//! thousands; a number not given reads "not stated", never a made-up default.

use crate::domain::capacity::report::bottleneck_text;
use crate::domain::capacity::{sweep, CapacityInput};
use crate::domain::duration::{approx, exact};
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sheet::load::{Burst, HandlerTime, LoadSpec, Missing, Per, Rate, Source};
use crate::domain::sheet::JobSheet;

fn en(lang: Lang) -> bool {
    lang == Lang::En
}

/// Whether `f` is one of the rows of the load section (the computed capacity row included).
pub fn is_load_row(f: crate::domain::sheet::FieldId) -> bool {
    use crate::domain::sheet::FieldId as F;
    matches!(
        f,
        F::ArrivalRate
            | F::Burst
            | F::HandlerTime
            | F::FailureRate
            | F::DownstreamLimits
            | F::OurLimit
            | F::CapacityTargets
            | F::Workers
            | F::Capacity
    )
}

/// Whether `sheet` has a load section with something stated (the cards show its rows only
/// then; an untouched section is the one capacity row saying what it needs).
pub fn load_stated(sheet: &JobSheet) -> bool {
    load_of(sheet).is_some_and(|l| !l.is_empty())
}

/// "not stated" / "未記入".
pub fn not_stated(lang: Lang) -> String {
    if en(lang) { "not stated" } else { "未記入" }.into()
}

/// The sheet's load section, an asynchronous sheet without one (schema 1 or 2) read as empty;
/// `None` where the section does not apply (no retry section: not a queued job).
pub fn load_of(sheet: &JobSheet) -> Option<LoadSpec> {
    sheet
        .load
        .or_else(|| sheet.retry.as_ref().map(|_| LoadSpec::default()))
}

/// A unit of a rate in words: "s" / "秒".
pub fn per_text(per: Per, lang: Lang) -> &'static str {
    match (per, en(lang)) {
        (Per::Second, true) => "s",
        (Per::Minute, true) => "min",
        (Per::Hour, true) => "h",
        (Per::Second, false) => "秒",
        (Per::Minute, false) => "分",
        (Per::Hour, false) => "時間",
    }
}

/// "1,200/min" / "1,200件/分".
pub fn rate_text(r: Rate, lang: Lang) -> String {
    let n = group_thousands(r.count);
    if en(lang) {
        format!("{n}/{}", per_text(r.per, lang))
    } else {
        format!("{n}件/{}", per_text(r.per, lang))
    }
}

pub use crate::domain::number::num;

fn or_not_stated(v: Option<String>, lang: Lang) -> String {
    v.unwrap_or_else(|| not_stated(lang))
}

/// "mean 10/s; peak 30/s".
pub fn arrival_text(l: &LoadSpec, lang: Lang) -> String {
    let r = |r: Option<Rate>| or_not_stated(r.map(|r| rate_text(r, lang)), lang);
    if l.arrival.is_none() && l.peak.is_none() {
        return not_stated(lang);
    }
    if en(lang) {
        format!("mean {}; peak {}", r(l.arrival), r(l.peak))
    } else {
        format!("平均 {}、ピーク {}", r(l.arrival), r(l.peak))
    }
}

/// "500 jobs at once" / "50/s for 10 min (30,000 jobs)".
pub fn burst_text(b: Option<Burst>, lang: Lang) -> String {
    match b {
        None => not_stated(lang),
        Some(Burst::AtOnce { count }) => {
            let n = group_thousands(count);
            if en(lang) {
                format!("{n} jobs at once")
            } else {
                format!("{n}件が同時に")
            }
        }
        Some(b @ Burst::Rate { rate, for_ms }) => {
            let (r, d, n) = (
                rate_text(rate, lang),
                exact(for_ms, lang),
                group_thousands(b.jobs()),
            );
            if en(lang) {
                format!("{r} for {d} ({n} jobs)")
            } else {
                format!("{r}を{d}（{n}件）")
            }
        }
    }
}

/// "p50 200 ms, p95 2 s (lognormal)"; without one, the wizard's p95 when there is one.
pub fn handler_text(h: Option<HandlerTime>, wizard_p95: Option<u64>, lang: Lang) -> String {
    let e = en(lang);
    match h {
        Some(HandlerTime::Lognormal { p50_ms, p95_ms }) => {
            let (a, b) = (exact(p50_ms, lang), exact(p95_ms, lang));
            if e {
                format!("p50 {a}, p95 {b} (lognormal)")
            } else {
                format!("p50 {a}、p95 {b}（対数正規）")
            }
        }
        Some(HandlerTime::Fixed { ms }) => {
            let a = exact(ms, lang);
            if e {
                format!("always {a} (fixed)")
            } else {
                format!("常に{a}（固定）")
            }
        }
        Some(HandlerTime::Exponential { mean_ms }) => {
            let a = exact(mean_ms, lang);
            if e {
                format!("mean {a} (exponential)")
            } else {
                format!("平均{a}（指数分布）")
            }
        }
        None => match wizard_p95 {
            Some(p95) if e => format!(
                "not stated (the wizard's p95 is {}; the median is needed too)",
                exact(p95, lang)
            ),
            Some(p95) => format!(
                "未記入（判定で入力したp95は{}。中央値も必要です）",
                exact(p95, lang)
            ),
            None => not_stated(lang),
        },
    }
}

/// A failure rate in basis points as a percentage: 250 → "2.5".
pub fn percent(bp: u32) -> String {
    let (whole, frac) = (bp / 100, bp % 100);
    match frac {
        0 => whole.to_string(),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

/// "2.5 % of attempts fail transiently".
pub fn failure_text(bp: Option<u32>, lang: Lang) -> String {
    or_not_stated(
        bp.map(|bp| {
            let p = percent(bp);
            if en(lang) {
                format!("{p} % of attempts fail transiently")
            } else {
                format!("試行の{p}%が一時的に失敗")
            }
        }),
        lang,
    )
}

/// "rate limit 10/s (burst allowance 20); 5 calls at once; exclusive lock (one at a time)".
pub fn downstream_text(l: &LoadSpec, lang: Lang) -> String {
    let (d, e) = (&l.downstream, en(lang));
    let mut parts = Vec::new();
    if let Some(r) = d.rate {
        let r = rate_text(r, lang);
        let b = group_thousands(u64::from(d.rate_burst.unwrap_or(1)));
        parts.push(if e {
            format!("rate limit {r} (burst allowance {b})")
        } else {
            format!("レート制限 {r}（バースト許容 {b}）")
        });
    }
    if let Some(c) = d.concurrency {
        let c = group_thousands(u64::from(c));
        parts.push(if e {
            format!("{c} calls at once")
        } else {
            format!("同時{c}件まで")
        });
    }
    if d.exclusive_lock {
        parts.push(
            if e {
                "exclusive lock (one at a time)"
            } else {
                "排他ロック（同時に1件）"
            }
            .into(),
        );
    }
    if parts.is_empty() {
        return not_stated(lang);
    }
    parts.join(if e { "; " } else { "、" })
}

/// "the workers pace themselves at 8/s (all together)".
pub fn our_limit_text(r: Option<Rate>, lang: Lang) -> String {
    or_not_stated(
        r.map(|r| {
            let r = rate_text(r, lang);
            if en(lang) {
                format!("the workers pace themselves at {r} (all together)")
            } else {
                format!("ワーカー全体で{r}に抑える")
            }
        }),
        lang,
    )
}

/// "wait p95 ≤ 10 min (from the acceptable wait); a burst drained within 5 min" (each part
/// only when stated).
pub fn targets_text(l: &LoadSpec, sheet: &JobSheet, lang: Lang) -> String {
    let e = en(lang);
    let mut parts = Vec::new();
    if let Some((ms, src)) = l.effective_target_wait_p95_ms(sheet) {
        let from = match (src, e) {
            (Source::AcceptableWait, true) => " (from the acceptable wait)",
            (Source::AcceptableWait, false) => "（許容できる待ち時間から）",
            _ => "",
        };
        let w = exact(ms, lang);
        parts.push(if e {
            format!("wait p95 ≤ {w}{from}")
        } else {
            format!("待ちのp95 ≤ {w}{from}")
        });
    }
    if let Some(ms) = l.drain_within_ms {
        let d = exact(ms, lang);
        parts.push(if e {
            format!("a burst drained within {d}")
        } else {
            format!("バーストを{d}以内に処理し終える")
        });
    }
    if parts.is_empty() {
        return not_stated(lang);
    }
    parts.join(if e { "; " } else { "、" })
}

/// "4 processes × 5 at once each = 20 jobs at once".
pub fn workers_text(l: &LoadSpec, lang: Lang) -> String {
    let Some(w) = l.workers else {
        return not_stated(lang);
    };
    let (w, c) = (u64::from(w), u64::from(l.concurrency.unwrap_or(1)));
    let total = group_thousands(w.saturating_mul(c));
    let (w, c) = (group_thousands(w), group_thousands(c));
    if en(lang) {
        format!("{w} processes × {c} at once each = {total} jobs at once")
    } else {
        format!("{w}プロセス × 各{c}件 = 同時{total}件")
    }
}

/// What a missing number is called: "the arrival rate (or a burst)".
pub fn missing_text(m: Missing, lang: Lang) -> &'static str {
    match (m, en(lang)) {
        (Missing::Arrivals, true) => "the arrival rate (or a burst)",
        (Missing::HandlerP50, true) => "the handler's median (p50)",
        (Missing::Handler, true) => "the handler's time",
        (Missing::Arrivals, false) => "到着率（またはバースト）",
        (Missing::HandlerP50, false) => "処理時間の中央値（p50）",
        (Missing::Handler, false) => "処理時間",
    }
}

/// "not sized yet: needs the arrival rate (or a burst), the handler's time".
pub fn not_sized_text(missing: &[Missing], lang: Lang) -> String {
    let list: Vec<&str> = missing.iter().map(|m| missing_text(*m, lang)).collect();
    if en(lang) {
        format!("not sized yet: needs {}", list.join(", "))
    } else {
        format!("未見積もり：{}が必要です", list.join("、"))
    }
}

/// The analytic numbers of the capacity answer at the workers chosen, the few the catalog and
/// the cards show.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CapacityBrief {
    /// Jobs per second the queue is sized for (the peak when given).
    pub rate_per_s: f64,
    /// Jobs at once chosen (`None`: not chosen).
    pub slots: Option<u32>,
    /// The throughput ceiling's limit at the workers chosen (or, without them, the fixed
    /// limit when one caps the throughput whatever the workers).
    pub bottleneck: Option<crate::domain::capacity::Bottleneck>,
    /// The fluid drain time of the burst, ms (`None`: no burst, not chosen, or it never drains).
    pub drain_ms: Option<f64>,
    /// Whether a burst never drains at the workers chosen.
    pub never_drains: bool,
}

/// The analytic brief of `sheet`, or the numbers still missing (`Ok(None)`: the section does
/// not apply).
///
/// # Errors
/// The missing numbers ("not sized yet").
pub fn capacity_brief(sheet: &JobSheet) -> Result<Option<CapacityBrief>, Vec<Missing>> {
    if load_of(sheet).is_none() {
        return Ok(None);
    }
    let input = CapacityInput::from_sheet(sheet)?;
    let point = input.chosen.map(|c| sweep::analytic_point(&input, c));
    Ok(Some(CapacityBrief {
        rate_per_s: input.arrival_per_s,
        slots: input.chosen,
        bottleneck: point
            .map(|p| p.bottleneck)
            .or_else(|| input.fixed_ceiling().map(|c| c.0)),
        drain_ms: point.and_then(|p| p.drain_ms),
        never_drains: input.burst.is_some() && point.is_some_and(|p| p.drain_ms.is_none()),
    }))
}

/// The "Capacity" row: the analytic answer in one line, or what it still needs.
pub fn capacity_text(sheet: &JobSheet, lang: Lang) -> String {
    let input = match CapacityInput::from_sheet(sheet) {
        Ok(i) => i,
        Err(missing) => return not_sized_text(&missing, lang),
    };
    let e = en(lang);
    // A burst with no steady arrivals offers no load: 0 Erlangs and a utilisation of 0 % say
    // nothing, the ceiling and the burst's drain do. Not on the embed page (its budget has no
    // room for the words): it says the zero load.
    let steady = cfg!(feature = "embed") || input.arrival_per_s > 0.0;
    let mut out = if !steady {
        (if e {
            "no steady arrivals (a burst only)"
        } else {
            "定常の到着なし（バーストのみ）"
        })
        .to_owned()
    } else if e {
        format!(
            "offered load {} Erlangs ({}/s × {} attempts × mean {})",
            num(input.offered_load()),
            num(input.arrival_per_s),
            num(input.expected_attempts()),
            approx(input.handler.mean_ms(), lang)
        )
    } else {
        format!(
            "提供負荷 {} アーラン（{}件/秒 × 試行{}回 × 平均{}）",
            num(input.offered_load()),
            num(input.arrival_per_s),
            num(input.expected_attempts()),
            approx(input.handler.mean_ms(), lang)
        )
    };
    match input.chosen {
        Some(c) => {
            let p = sweep::analytic_point(&input, c);
            let n = group_thousands(u64::from(c));
            // A share of the workers' time below 1; from 1 on ρ, as the capacity answer
            // writes it ("238 %" is no share of time: more work arrives than they can do).
            let u = if p.utilisation < 1.0 {
                let pct = (p.utilisation * 100.0).round() as u64;
                format!("{pct}{}", if e { " %" } else { "%" })
            } else {
                format!("ρ = {}", num(p.utilisation))
            };
            let (ceil, b) = (num(p.ceiling_per_s), bottleneck_text(p.bottleneck, lang));
            // The utilisation only where arrivals are steady.
            let u = match (steady, e) {
                (false, _) => String::new(),
                (true, true) => format!("the workers' utilisation {u}, "),
                (true, false) => format!("ワーカーの稼働率{u}、"),
            };
            out.push_str(&if e {
                format!("; at {n} at once: {u}throughput ceiling {ceil}/s, bottleneck: {b}")
            } else {
                format!("。同時{n}件で{u}スループット上限 {ceil}件/秒、ボトルネック：{b}")
            });
            if !p.stable && input.arrival_per_s > 0.0 {
                out.push_str(if e {
                    " — the queue grows without end"
                } else {
                    "（キューは増え続けます）"
                });
            }
            if let Some(b) = input.burst {
                let jobs = group_thousands(b.jobs());
                out.push_str(&match (p.drain_ms, e) {
                    (Some(ms), true) => {
                        format!("; a burst of {jobs} drains in ≈ {}", approx(ms, lang))
                    }
                    (Some(ms), false) => format!(
                        "。{jobs}件のバーストは約{}で処理し終えます",
                        approx(ms, lang)
                    ),
                    (None, true) => format!("; a burst of {jobs} never drains"),
                    (None, false) => format!("。{jobs}件のバーストは処理し終えません"),
                });
            }
        }
        None => {
            out.push_str(if e {
                "; workers not chosen"
            } else {
                "。ワーカー数は未記入"
            });
            if let Some((b, ceil)) = input.fixed_ceiling() {
                let (ceil, b) = (num(ceil), bottleneck_text(b, lang));
                out.push_str(&if e {
                    format!("; whatever the workers, at most {ceil}/s ({b})")
                } else {
                    format!("。ワーカー数によらず最大 {ceil}件/秒（{b}）")
                });
            }
        }
    }
    out.push_str(if e { " (analytic)" } else { "（解析）" });
    out
}

/// The catalog's capacity cells of `sheet` (its table, exports and cards): the rate it is
/// sized for (the peak when given), the workers chosen (`4 × 5`: processes × jobs at once
/// each), the analytic bottleneck at those workers ("not sized yet" while numbers are
/// missing), the burst's fluid drain time ("never drains" when it does not); `None` where
/// there is nothing to show.
pub fn catalog_cells(sheet: Option<&JobSheet>, lang: Lang) -> [Option<String>; 4] {
    let Some((sheet, l)) = sheet.and_then(|s| load_of(s).map(|l| (s, l))) else {
        return [None, None, None, None];
    };
    let e = en(lang);
    let workers = l.workers.map(|w| match l.concurrency {
        Some(c) if c > 1 => format!(
            "{} × {}",
            group_thousands(u64::from(w)),
            group_thousands(u64::from(c))
        ),
        _ => group_thousands(u64::from(w)),
    });
    let (bottleneck, drain) = match capacity_brief(sheet) {
        Err(_) => (
            Some(
                if e {
                    "not sized yet"
                } else {
                    "未見積もり"
                }
                .to_owned(),
            ),
            None,
        ),
        Ok(b) => {
            let b = b.filter(|b| b.slots.is_some() || b.bottleneck.is_some());
            let drain = b.and_then(|b| match (b.drain_ms, b.never_drains) {
                (Some(ms), _) => Some(format!("≈ {}", approx(ms, lang))),
                (None, true) => Some(
                    if e {
                        "never drains"
                    } else {
                        "処理し終えない"
                    }
                    .into(),
                ),
                _ => None,
            });
            (
                b.and_then(|b| b.bottleneck)
                    .map(|x| bottleneck_text(x, lang).to_owned()),
                drain,
            )
        }
    };
    let rate = l.peak.or(l.arrival).map(|r| rate_text(r, lang));
    [rate, workers, bottleneck, drain]
}

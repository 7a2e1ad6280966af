//! The capacity answer as finished HTML in both languages, drawn by the simulation worker
//! ([`answer_html`]); the page only inserts it, as it does a run's charts
//! (`sim/results/drawn.rs`). In order: the recommendation with its basis, the queue growing
//! without end when ρ ≥ 1, the offered load and throughput ceiling, the lease, the points
//! table, the two charts — wait p95 against workers (the analytic band, the simulated points
//! with their 95 % intervals, the target as a line) and the backlog over time (the deadline
//! marked) — each with its "Show data" table, and how the runs were made.
//!
//! Markup: classes and `data-*` only, no inline style (the page's CSP); every text escaped.
//! Hooks: `div.capacity-answer[data-recommended][data-reason][data-grows]`, `[data-cap=…]`
//! on each sentence, `table.cap-points` with `tr[data-workers]`, `figure[data-chart=wait|backlog]`.

use super::backlog::{Backlog, BacklogRun};
use super::report::{bottleneck_text, AnalyticPoint, Reason, SimPoint, SizeAnswer};
use crate::domain::duration::approx;
use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, num};
use crate::domain::plot::{self, escape, Axis, Band, Frame, Layers, Limits, Line, Points, Rule};
use crate::domain::sim::results::chart_tables::{details_html, format_value, sample};
use crate::domain::sim::results::charts::TimeUnit;
use crate::domain::sim::results::drawn::Both;
use crate::text::t;
use std::fmt::Write as _;

/// `en` or `ja` by `lang`.
fn w<'a>(lang: Lang, en: &'a str, ja: &'a str) -> &'a str {
    match lang {
        Lang::En => en,
        Lang::Ja => ja,
    }
}

fn ms(v: f64, lang: Lang) -> String {
    approx(v.max(0.0), lang)
}

/// `ρ` of an analytic point: the arrivals over the throughput ceiling (≥ 1: the queue grows
/// without end, whichever limit sets the ceiling).
pub fn rho(a: &SizeAnswer, p: &AnalyticPoint) -> f64 {
    a.input.arrival_per_s / p.ceiling_per_s.max(1e-12)
}

/// ρ as the table writes it: two decimals, but never rounded onto or across 1 — near 1, three
/// decimals rounded away from it ("0.999" stays below, "1.005" above; both read "1.00" before,
/// where one count keeps up and the other does not). Exactly 1 is "1.00".
pub fn rho_text(r: f64) -> String {
    let two = format!("{r:.2}");
    if two != "1.00" || r == 1.0 {
        return two;
    }
    let away = if r < 1.0 {
        (r * 1000.0).floor()
    } else {
        (r * 1000.0).ceil()
    };
    format!("{:.3}", away / 1000.0)
}

/// Whether no simulated worker count keeps up with the steady arrivals (ρ ≥ 1 at each).
pub fn grows_without_end(a: &SizeAnswer) -> bool {
    a.input.arrival_per_s > 0.0
        && a.points.iter().all(|s| {
            a.analytic
                .iter()
                .find(|p| p.workers == s.workers)
                .is_some_and(|p| !p.stable)
        })
}

/// The stable id of a reason (its JSON name).
pub fn reason_id(r: Reason) -> &'static str {
    match r {
        Reason::Meets => "meets",
        Reason::NoTargetStable => "no-target-stable",
        Reason::Unstable => "unstable",
        Reason::LimitedElsewhere => "limited-elsewhere",
        Reason::OverMax => "over-max",
        Reason::BeyondSweep => "beyond-sweep",
        Reason::LosesJobs => "loses-jobs",
    }
}

/// The answer in both languages (`[English, Japanese]`), `backlog` drawn as the second chart.
pub fn answer_html(a: &SizeAnswer, backlog: Option<&Backlog>) -> Both {
    Lang::ALL.map(|lang| one(a, backlog, lang))
}

fn one(a: &SizeAnswer, backlog: Option<&Backlog>, lang: Lang) -> String {
    let r = &a.recommendation;
    let mut out = format!(
        r#"<div class="sim-charts capacity-answer" data-recommended="{}" data-reason="{}" data-grows="{}">"#,
        r.workers.map_or("none".to_owned(), |c| c.to_string()),
        reason_id(r.reason),
        grows_without_end(a),
    );
    let para = |out: &mut String, id: &str, text: &str| {
        let _ = write!(
            out,
            r#"<p class="cap-{id}" data-cap="{id}">{}</p>"#,
            escape(text)
        );
    };
    para(&mut out, "reason", &a.reason_text(lang));
    if let Some(g) = grows_text(a, lang) {
        para(&mut out, "grows", &g);
    }
    para(&mut out, "load", &a.load_text(lang));
    para(&mut out, "lease", &a.lease_text(lang));
    out.push_str(&points_table(a, lang));
    // Shown on a phone only (style.css), where each chart keeps its width and scrolls.
    let _ = write!(
        out,
        r#"<p class="scroll-hint" data-scroll-hint="charts">{}</p><div class="charts-grid">"#,
        escape(&t!("hints.scroll", locale = lang.code()))
    );
    out.push_str(&wait_figure(a, lang));
    out.push_str(&backlog_figure(a, backlog, lang));
    out.push_str("</div>");
    para(&mut out, "basis", &basis_text(a, lang));
    out.push_str("</div>");
    out
}

/// "ρ ≥ 1 …: the queue grows without end", for every count simulated or the sheet's own.
fn grows_text(a: &SizeAnswer, lang: Lang) -> Option<String> {
    let (first, last) = (a.points.first()?, a.points.last()?);
    let top = a.analytic.iter().find(|p| p.workers == last.workers)?;
    if grows_without_end(a) {
        let b = bottleneck_text(top.bottleneck, lang);
        return Some(match lang {
            Lang::En => format!(
                "ρ ≥ 1 at every count simulated ({}–{}): work arrives at {}/s and at most {}/s can be done ({b}), so the queue grows without end — the backlog chart shows it growing at {} at once.",
                first.workers, last.workers, num(a.input.arrival_per_s), num(top.ceiling_per_s), last.workers
            ),
            Lang::Ja => format!(
                "シミュレーションしたどの数（{}〜{}）でも ρ ≥ 1：仕事は毎秒{}件届き、こなせるのは最大毎秒{}件（{b}）なので、キューは際限なく伸びます。バックログの図は同時{}件で伸び続ける様子です。",
                first.workers, last.workers, num(a.input.arrival_per_s), num(top.ceiling_per_s), last.workers
            ),
        });
    }
    let chosen = a.input.chosen?;
    let p = a.analytic.iter().find(|p| p.workers == chosen)?;
    (!p.stable && a.input.arrival_per_s > 0.0).then(|| match lang {
        Lang::En => format!(
            "With the sheet's {chosen} at once, ρ = {} ≥ 1: the queue grows without end.",
            rho_text(rho(a, p))
        ),
        Lang::Ja => format!(
            "定義書の同時{chosen}件では ρ = {} ≥ 1：キューは際限なく伸びます。",
            rho_text(rho(a, p))
        ),
    })
}

fn basis_text(a: &SizeAnswer, lang: Lang) -> String {
    let lease = ms(a.run_lease_ms as f64, lang);
    match lang {
        Lang::En => format!(
            "Simulated with the real queue engine: {} runs per worker count from seed {}, {} jobs per steady run, lease {}{}. The analytic band (Erlang C to Allen–Cunneen) assumes Poisson arrivals and the workers as the only limit; the simulation is the reference.",
            a.seeds,
            a.seed,
            group_thousands(a.jobs_per_run),
            lease,
            if a.input.lease_ms.is_some() { " (the sheet's)" } else { " (none given: longer than any run)" }
        ),
        Lang::Ja => format!(
            "実際のキューエンジンでシミュレーション：ワーカー数ごとに{}回（シード{}から）、定常の実行は各{}件、リース{}{}。解析の帯（Erlang C〜Allen–Cunneen）はポアソン到着とワーカー数だけが制約であることを前提とします。基準はシミュレーションです。",
            a.seeds,
            a.seed,
            group_thousands(a.jobs_per_run),
            lease,
            if a.input.lease_ms.is_some() { "（定義書の値）" } else { "（指定なし：どの実行よりも長い値）" }
        ),
    }
}

/// The points table: one row per simulated count, the recommended one marked.
fn points_table(a: &SizeAnswer, lang: Lang) -> String {
    let heads = [
        w(lang, "Workers (at once)", "同時実行数"),
        w(lang, "ρ (arrivals ÷ ceiling)", "ρ（到着 ÷ 上限）"),
        w(lang, "Wait p50", "待ち時間p50"),
        w(
            lang,
            "Wait p95 (95\u{a0}% CI)",
            "待ち時間p95（95%信頼区間）",
        ),
        w(lang, "Wait p99", "待ち時間p99"),
        w(lang, "Analytic p95 band", "解析のp95帯"),
        w(
            lang,
            "Burst drain, simulated (95\u{a0}% CI)",
            "バースト消化・シミュレーション（95%信頼区間）",
        ),
        w(lang, "Bottleneck", "ボトルネック"),
    ];
    let title = w(
        lang,
        "Worker counts simulated",
        "シミュレーションしたワーカー数",
    );
    let mut out = format!(
        r#"<div class="table-wrap" role="region" tabindex="0" aria-label="{t}"><table class="cap-points"><caption>{t}</caption><thead><tr>"#,
        t = escape(title)
    );
    for h in heads {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for p in &a.points {
        let an = a.analytic.iter().find(|x| x.workers == p.workers);
        let rec = Some(p.workers) == a.recommendation.workers;
        // ρ ≥ 1 with steady arrivals: the simulated figures are those of a finite run (its
        // jobs arrive in a limited time), where the queue itself grows without end.
        let grows = a.input.arrival_per_s > 0.0 && an.is_some_and(|x| !x.stable);
        let cells = row_cells(a, p, an, lang);
        let _ = write!(
            out,
            r#"<tr data-workers="{}"{}{}><th scope="row">{}{}{}</th>"#,
            p.workers,
            if rec {
                r#" data-recommended="true""#
            } else {
                ""
            },
            if grows { r#" data-grows="true""# } else { "" },
            p.workers,
            // On its own line under the count (a block in `sim.css`).
            if rec {
                format!(
                    r#"<span class="rec">{}</span>"#,
                    escape(w(lang, " ← recommended", " ← 推奨"))
                )
            } else {
                String::new()
            },
            if grows {
                format!(
                    r#"<span class="rec grows">{}</span>"#,
                    escape(w(
                        lang,
                        "ρ ≥ 1: grows without end; the figures are a finite run's",
                        "ρ ≥ 1：際限なく伸びます。数値は有限の実行のもの",
                    ))
                )
            } else {
                String::new()
            }
        );
        // An interval goes on its own line under its value (a block in `sim.css`), so the
        // eight columns fit the sheet at 1280 px; the text read aloud is unchanged.
        for (value, interval) in cells {
            let _ = match interval {
                Some(i) => write!(
                    out,
                    r#"<td>{}<span class="ci">{}</span></td>"#,
                    escape(&value),
                    escape(&i)
                ),
                None => write!(out, "<td>{}</td>", escape(&value)),
            };
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

/// A row's cells: each a value and, for a simulated figure, its 95 % interval in brackets.
fn row_cells(
    a: &SizeAnswer,
    p: &SimPoint,
    an: Option<&AnalyticPoint>,
    lang: Lang,
) -> Vec<(String, Option<String>)> {
    let dash = || "—".to_owned();
    // "1.1 min–1.2 min" / "1.1分〜1.2分", as the answer's sentence writes an interval.
    let range = |lo: f64, hi: f64| {
        let sep = w(lang, "–", "〜");
        format!("{}{sep}{}", ms(lo, lang), ms(hi, lang))
    };
    let with_ci = |v: f64, lo: f64, hi: f64| {
        let interval = match lang {
            Lang::En => format!(" ({})", range(lo, hi)),
            Lang::Ja => format!("（{}）", range(lo, hi)),
        };
        (ms(v, lang), Some(interval))
    };
    let plain = |s: String| (s, None);
    vec![
        // No steady arrivals (a burst only): no ρ to speak of, not 0.00.
        plain(
            an.filter(|_| a.input.arrival_per_s > 0.0)
                .map_or_else(dash, |x| rho_text(rho(a, x))),
        ),
        plain(p.wait_ms.map_or_else(dash, |x| ms(x.p50, lang))),
        match (p.wait_ms, p.wait_p95_ci_ms) {
            (Some(x), Some([lo, hi])) => with_ci(x.p95, lo, hi),
            _ => plain(dash()),
        },
        plain(p.wait_ms.map_or_else(dash, |x| ms(x.p99, lang))),
        plain(
            an.and_then(|x| x.wait_p95_ms)
                .map_or_else(dash, |b| range(b.low, b.high)),
        ),
        match (p.drain_ms, p.drain_ci_ms) {
            (Some(d), Some([lo, hi])) => with_ci(d, lo, hi),
            _ if p.undrained_runs > 0 => plain(w(lang, "never drained", "消化しきれず").to_owned()),
            _ => plain(dash()),
        },
        plain(an.map_or_else(dash, |x| bottleneck_text(x.bottleneck, lang).to_owned())),
    ]
}

/// A figure: the drawing in a scroll box named by its title, then its data table; or the
/// line saying why it is not drawn.
fn figure(id: &str, title: &str, caption: &str, body: Result<(String, String), String>) -> String {
    let title = escape(title);
    match body {
        Ok((svg, table)) => format!(
            r#"<figure class="sim-chart" data-chart="{id}"><figcaption><strong>{title}</strong>{}</figcaption><div class="chart-box" role="region" tabindex="0" aria-label="{title}">{svg}</div>{table}</figure>"#,
            escape(caption)
        ),
        Err(why) => format!(
            r#"<figure class="sim-chart chart-none" data-chart="{id}" data-empty="true"><figcaption><strong>{title}</strong></figcaption><p class="chart-none-why">{}</p></figure>"#,
            escape(&why)
        ),
    }
}

fn unit_word(u: TimeUnit, lang: Lang) -> &'static str {
    match u {
        TimeUnit::Ms => w(lang, "ms", "ミリ秒"),
        TimeUnit::S => w(lang, "s", "秒"),
        TimeUnit::Min => w(lang, "min", "分"),
        TimeUnit::H => w(lang, "h", "時間"),
    }
}

/// Wait p95 against workers: the analytic band, the simulated means with their 95 %
/// intervals, the target as a horizontal line.
fn wait_figure(a: &SizeAnswer, lang: Lang) -> String {
    let title = w(lang, "Wait p95 against workers", "ワーカー数と待ち時間p95");
    let caption = w(
        lang,
        "The shaded band is the analytic answer (Erlang C to Allen–Cunneen); the dots are the simulated p95 with their 95 % confidence intervals; the line is your target.",
        "帯は解析の答え（Erlang C〜Allen–Cunneen）、点はシミュレーションのp95とその95%信頼区間、横線は目標です。",
    );
    let band: Vec<(f64, f64, f64)> = a
        .points
        .iter()
        .filter_map(|p| {
            let b = a
                .analytic
                .iter()
                .find(|x| x.workers == p.workers)?
                .wait_p95_ms?;
            Some((f64::from(p.workers), b.low, b.high))
        })
        .collect();
    let sims: Vec<(f64, f64, f64, f64)> = a
        .points
        .iter()
        .filter_map(|p| {
            let (m, [lo, hi]) = (p.wait_ms?.p95, p.wait_p95_ci_ms?);
            Some((f64::from(p.workers), m, lo, hi))
        })
        .collect();
    if sims.is_empty() {
        let why = w(
            lang,
            "No steady arrivals: every job comes with the burst, so there is no steady wait to chart — see the backlog.",
            "定常の到着がありません：すべてバーストで届くため、定常の待ち時間はありません。バックログの図をご覧ください。",
        );
        return figure("wait", title, caption, Err(why.to_owned()));
    }
    let target = a.input.target_wait_p95_ms.map(|t| t as f64);
    let max = sims
        .iter()
        .map(|s| s.3)
        .chain(band.iter().map(|b| b.2))
        .chain(target)
        .fold(0.0, f64::max);
    let u = TimeUnit::for_max_ms(max);
    let k = u.ms();
    let band_u: Vec<_> = band.iter().map(|&(x, l, h)| (x, l / k, h / k)).collect();
    let sims_u: Vec<_> = sims
        .iter()
        .map(|&(x, m, l, h)| (x, m / k, l / k, h / k))
        .collect();
    let target_name = target.map(|t| format!("{}{}", w(lang, "Target ", "目標"), ms(t, lang)));
    let rules: Vec<Rule> = match (&target_name, target) {
        (Some(name), Some(t)) => vec![Rule {
            name,
            key: "target",
            axis: plot::RuleAxis::Y,
            at: t / k,
        }],
        _ => Vec::new(),
    };
    let bands = [Band {
        name: w(lang, "Analytic band", "解析の帯"),
        key: "band",
        points: &band_u,
    }];
    let points = [Points {
        name: w(
            lang,
            "Simulated p95 (95 % CI)",
            "シミュレーションのp95（95%信頼区間）",
        ),
        key: "sim",
        points: &sims_u,
    }];
    let y_label = w(lang, "Wait p95", "待ち時間p95");
    let x_label = w(lang, "Workers (jobs at once)", "ワーカー数（同時実行数）");
    let frame = Frame {
        title,
        desc: caption,
        x: Axis {
            label: x_label,
            unit: "",
        },
        y: Axis {
            label: y_label,
            unit: unit_word(u, lang),
        },
        empty: "",
        compact: false,
        limits: Limits::NONE,
    };
    let svg = plot::layered(
        &frame,
        &Layers {
            bands: if band_u.is_empty() { &[] } else { &bands },
            points: &points,
            rules: &rules,
            x_from_data: true,
            ..Layers::default()
        },
    );
    let table = wait_table(a, title, x_label, u, lang);
    figure("wait", title, caption, Ok((svg, table)))
}

/// The wait chart's data table: per count, the band's ends and the simulated p95 with its
/// interval, in unit `u`.
fn wait_table(a: &SizeAnswer, title: &str, x_label: &str, u: TimeUnit, lang: Lang) -> String {
    let k = u.ms();
    let unit = unit_word(u, lang);
    let heads = vec![
        x_label.to_owned(),
        format!("{} ({unit})", w(lang, "Band low", "帯の下端")),
        format!("{} ({unit})", w(lang, "Band high", "帯の上端")),
        format!(
            "{} ({unit})",
            w(lang, "Simulated p95", "シミュレーションのp95")
        ),
        format!("{} ({unit})", w(lang, "95 % CI low", "95%信頼区間の下端")),
        format!("{} ({unit})", w(lang, "95 % CI high", "95%信頼区間の上端")),
    ];
    let cell = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format_value(v / k));
    let rows: Vec<Vec<String>> = a
        .points
        .iter()
        .map(|p| {
            let b = a
                .analytic
                .iter()
                .find(|x| x.workers == p.workers)
                .and_then(|x| x.wait_p95_ms);
            vec![
                p.workers.to_string(),
                cell(b.map(|b| b.low)),
                cell(b.map(|b| b.high)),
                cell(p.wait_ms.map(|x| x.p95)),
                cell(p.wait_p95_ci_ms.map(|c| c[0])),
                cell(p.wait_p95_ci_ms.map(|c| c[1])),
            ]
        })
        .collect();
    let n = rows.len();
    details_html("wait", title, &heads, &rows, n, lang)
}

/// The backlog over time at one count: a burst draining (the deadline marked) or the queue
/// growing while ρ ≥ 1.
fn backlog_figure(a: &SizeAnswer, backlog: Option<&Backlog>, lang: Lang) -> String {
    let Some(b) = backlog else {
        let title = w(lang, "Backlog over time", "バックログの推移");
        let why = w(
            lang,
            "No burst given and the queue keeps up: give a burst (and a drain deadline) in the load section to see how long it takes to drain.",
            "バーストの指定がなく、キューは追いついています。負荷の欄でバースト（と消化期限）を書くと、消化にかかる時間を示します。",
        );
        return figure("backlog", title, "", Err(why.to_owned()));
    };
    let (title, caption) = match (b.run, lang) {
        (BacklogRun::Burst, Lang::En) => (
            format!("Backlog over time: the burst at {} at once", b.workers),
            format!(
                "Rows waiting in the queue from the burst until it drains{}, one run of the engine{}.",
                b.drained_s.map_or(String::new(), |s| format!(" ({})", ms(s * 1e3, lang))),
                a.input.drain_within_ms.map_or(String::new(), |d| format!("; the vertical line is the deadline, {}", ms(d as f64, lang)))
            ),
        ),
        (BacklogRun::Burst, Lang::Ja) => (
            format!("バックログの推移：同時{}件でのバースト", b.workers),
            format!(
                "バーストから消化まで{}のキューの待ち行数（エンジンの1回の実行）{}。",
                b.drained_s.map_or(String::new(), |s| format!("（{}）", ms(s * 1e3, lang))),
                a.input.drain_within_ms.map_or(String::new(), |d| format!("。縦線は期限の{}", ms(d as f64, lang)))
            ),
        ),
        (BacklogRun::Growing, Lang::En) => (
            format!("Backlog growing at {} at once (ρ ≥ 1)", b.workers),
            format!(
                "Rows waiting in the queue while {} jobs arrive at {}/s: more arrive than can be done, so the line only climbs.",
                group_thousands(super::backlog::GROWING_JOBS),
                num(a.input.arrival_per_s)
            ),
        ),
        (BacklogRun::Growing, Lang::Ja) => (
            format!("同時{}件で伸び続けるバックログ（ρ ≥ 1）", b.workers),
            format!(
                "毎秒{}件で{}件が届く間のキューの待ち行数：こなせる以上に届くため、線は上がり続けます。",
                num(a.input.arrival_per_s),
                group_thousands(super::backlog::GROWING_JOBS)
            ),
        ),
    };
    let pts: Vec<(f64, f64)> = b.points.iter().map(|&(t, d)| (t, d as f64)).collect();
    let deadline_name = b
        .deadline_s
        .map(|s| format!("{}{}", w(lang, "Deadline ", "期限"), ms(s * 1e3, lang)));
    let rules: Vec<Rule> = match (&deadline_name, b.deadline_s) {
        (Some(name), Some(at)) => vec![Rule {
            name,
            key: "deadline",
            axis: plot::RuleAxis::X,
            at,
        }],
        _ => Vec::new(),
    };
    let y_label = w(lang, "Backlog", "待ち行数");
    let jobs = w(lang, "jobs", "件");
    let secs = w(lang, "s", "秒");
    let x_label = w(lang, "Time", "時間");
    let lines = [Line {
        name: w(lang, "Rows waiting", "キューの待ち行数"),
        key: "depth",
        points: &pts,
        step: true,
    }];
    let frame = Frame {
        title: &title,
        desc: &caption,
        x: Axis {
            label: x_label,
            unit: secs,
        },
        y: Axis {
            label: y_label,
            unit: jobs,
        },
        empty: "",
        compact: false,
        limits: Limits {
            whole_y: true,
            ..Limits::NONE
        },
    };
    let svg = plot::layered(
        &frame,
        &Layers {
            lines: &lines,
            rules: &rules,
            ..Layers::default()
        },
    );
    let all: Vec<Vec<String>> = b
        .points
        .iter()
        .map(|&(t, d)| vec![format_value(t), group_thousands(d)])
        .collect();
    let keep = sample(all.len(), |i| b.points[i].1 as f64);
    let rows: Vec<Vec<String>> = keep
        .into_iter()
        .filter_map(|i| all.get(i).cloned())
        .collect();
    let heads = vec![format!("{x_label} ({secs})"), format!("{y_label} ({jobs})")];
    let table = details_html("backlog", &title, &heads, &rows, all.len(), lang);
    figure("backlog", &title, &caption, Ok((svg, table)))
}

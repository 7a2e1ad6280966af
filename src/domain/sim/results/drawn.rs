//! What the simulation worker draws for the page, as finished HTML in both languages: the
//! charts section ([`charts_html`]), the worker timeline ([`timeline_html`]) and, for Compare,
//! both runs' charts on shared scales with the charts that came out the same named once
//! ([`compared`]). The page only inserts these strings, so the chart code and its words stay
//! out of the page's first load.
//!
//! Why both languages at once rather than asking again on a language switch: the switch is
//! then instant and needs no worker (a cancelled run terminates it, and Compare's worker may
//! be busy with the next run); it costs the worker a few milliseconds and the message a few
//! tens of KB.
//!
//! Charts appear only when they carry meaning ([`why_hidden`]); a chart left out is one line
//! saying why, with the run's numbers. Each chart's caption speaks about the preset
//! (`hints.<scenario>.<chart>` in `locales/worker/sim-chart-hints.yml`), falling back to the
//! generic caption (`charts.<chart>.caption`).
//!
//! Markup: classes only, no inline style (the page's CSP); every text escaped.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::plot::escape;
use crate::domain::sim::results::chart_tables::table_html;
use crate::domain::sim::results::charts::{render_scaled, text, ChartData, ChartScale};
use crate::text::t;
use serde::{Deserialize, Serialize};

/// Finished jobs the latency percentiles need before they are drawn: with fewer, p50, p95,
/// p99 and max are the same few values (one job: four equal bars).
pub const MIN_LATENCY_JOBS: u64 = 20;

/// HTML in both languages: `[English, Japanese]` ([`Lang::ALL`] order).
pub type Both = [String; 2];

/// The text of `both` for `lang`.
pub fn pick(both: &Both, lang: Lang) -> &str {
    &both[usize::from(lang == Lang::Ja)]
}

/// What the worker drew for one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Drawn {
    /// The charts section (`<section class="sim-charts">`); empty when the run has no charts
    /// (the jitter study).
    pub charts: Both,
    /// The worker timeline's figure (`<figure class="sim-timeline">`), or the line saying why
    /// it is not drawn; empty when the run has no workers.
    pub timeline: Both,
    /// Compare only (the request named the previous run): both runs' charts on shared scales.
    pub compared: Option<Compared>,
    /// The key facts (`<dl class="facts">`,
    /// [`facts_html`](crate::domain::sim::results::run_html::facts_html)).
    #[serde(default)]
    pub facts: Both,
    /// The jobs table under its heading
    /// ([`jobs_html`](crate::domain::sim::results::run_html::jobs_html)); empty when the run
    /// has no job rows.
    #[serde(default)]
    pub jobs: Both,
}

/// Compare's charts: each column's figures, and the line naming the charts both runs drew
/// the same (those are left out of the columns).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Compared {
    /// A's charts section.
    pub a: Both,
    /// B's charts section.
    pub b: Both,
    /// `<p class="hint" data-same-charts="…">` naming the charts that are the same; empty
    /// when none is.
    pub same: Both,
    /// The differences (key numbers) and both event logs aligned by time
    /// ([`compare_html`](crate::domain::sim::results::compare_html::compare_html)).
    #[serde(default)]
    pub table: Both,
}

/// Why chart `id` of `data` is left out, in `lang`; `None` when it is drawn.
///
/// * `depth`: drawn when a queue drained — at some moment 2 or more jobs waited, and the
///   depth fell at least twice (two claims took jobs out). One waiting job, or a queue that
///   only ever lost one job (the row-locks demo: 3 rows, one claim), is no queue to drain.
/// * `attempts`: drawn when the run has job rows.
/// * `latency`: drawn from [`MIN_LATENCY_JOBS`] finished jobs up.
/// * `calls`: drawn when the run called a downstream.
pub fn why_hidden(data: &ChartData, id: &str, lang: Lang) -> Option<String> {
    let l = lang.code();
    match id {
        "depth" => {
            let max = data.depth.iter().map(|p| p.1).max().unwrap_or(0);
            let falls = data.depth.windows(2).filter(|w| w[1].1 < w[0].1).count();
            let left = data.depth.last().map_or(0, |p| p.1);
            (max < 2 || falls < 2).then(|| {
                t!(
                    "hints.hidden.depth",
                    locale = l,
                    max = group_thousands(max),
                    left = group_thousands(left)
                )
                .into_owned()
            })
        }
        "attempts" => data
            .attempts
            .is_empty()
            .then(|| t!("hints.hidden.attempts", locale = l).into_owned()),
        "latency" => {
            let n = data.latency_ms.map_or(0, |p| p.count);
            (n < MIN_LATENCY_JOBS).then(|| {
                t!(
                    "hints.hidden.latency",
                    locale = l,
                    min = MIN_LATENCY_JOBS,
                    n = group_thousands(n)
                )
                .into_owned()
            })
        }
        _ => data
            .calls
            .buckets
            .is_empty()
            .then(|| t!("charts.calls.none-why", locale = l).into_owned()),
    }
}

/// The preset's own caption of figure `id` in `l`: `hints.<scenario>.<variant>.<id>` when
/// the variant has one, else `hints.<scenario>.<id>`; `run` is `scenario` or
/// `scenario.variant` ([`RunView`](crate::domain::sim::runner::RunView)'s two ids joined).
fn own_hint(run: &str, id: &str, l: &str) -> Option<String> {
    let scenario = run.split('.').next().unwrap_or(run);
    [run, scenario].into_iter().find_map(|s| {
        let key = format!("hints.{s}.{id}");
        let own = t!(&key, locale = l);
        (own != key).then(|| own.into_owned())
    })
}

/// Chart `id`'s caption for `scenario` in `l`: the preset's own when it has one.
fn caption(scenario: &str, id: &str, l: &str) -> String {
    own_hint(scenario, id, l)
        .unwrap_or_else(|| t!(format!("charts.{id}.caption"), locale = l).into_owned())
}

/// One figure: `(id, (drawn svg, its data table) or why it is not drawn)`.
type Figure = (&'static str, Result<(String, String), String>);

/// The figures of `data` on `scale` in `lang`, each drawn one with its data table
/// ([`table_html`]); the calls chart of a rate-limited downstream also with
/// [`rate_limit_note`].
fn figures(data: &ChartData, compact: bool, scale: &ChartScale, lang: Lang) -> Vec<Figure> {
    render_scaled(data, compact, scale, &text(lang))
        .into_iter()
        .map(|(id, svg)| match why_hidden(data, id, lang) {
            Some(why) => (id, Err(why)),
            None => {
                let mut table = table_html(data, id, lang);
                if id == "calls" {
                    table.push_str(&rate_limit_note(data, lang));
                    table.push_str(&our_limit_note(data, lang));
                }
                (id, Ok((svg, table)))
            }
        })
        .collect()
}

/// Under the calls chart of a rate-limited downstream (empty without a limit): the dashed
/// line is the rate, and after an idle spell up to `burst + rate` calls pass within one
/// second, so a second above the line is the burst the limit allows.
pub fn rate_limit_note(data: &ChartData, lang: Lang) -> String {
    let Some(r) = data.rate_limit else {
        return String::new();
    };
    let v = crate::domain::plot::format_value;
    format!(
        r#"<p class="chart-note" data-rate-limit="{}" data-burst="{}" data-most="{}">{}</p>"#,
        v(r.rate_per_s).replace(',', ""),
        r.burst,
        v(r.most_in_a_second()).replace(',', ""),
        escape(&t!(
            // Our limiter's line is drawn instead, and it sends no burst.
            if data.our_limit_drawn().is_some() {
                "charts.calls.burst-note-paced"
            } else {
                "charts.calls.burst-note"
            },
            locale = lang.code(),
            rate = v(r.rate_per_s),
            burst = group_thousands(u64::from(r.burst)),
            most = v(r.most_in_a_second())
        ))
    )
}

/// Under the calls chart of a run that paces its calls (empty without our own limiter): the
/// calls go out evenly spaced at the limiter's rate, with no burst, so no second passes more.
pub fn our_limit_note(data: &ChartData, lang: Lang) -> String {
    let Some(r) = data.our_limit_per_s else {
        return String::new();
    };
    let v = crate::domain::plot::format_value;
    format!(
        r#"<p class="chart-note" data-our-limit="{}">{}</p>"#,
        v(r).replace(',', ""),
        escape(&t!(
            if data.our_limit_drawn().is_some() {
                "charts.calls.our-limit-note-line"
            } else {
                "charts.calls.our-limit-note"
            },
            locale = lang.code(),
            rate = v(r)
        ))
    )
}

/// A figure as HTML: the drawing in a box that scrolls sideways on a narrow screen (a
/// focusable region named by the chart's title), then its data table.
fn figure_html(fig: &Figure, scenario: &str, l: &str) -> String {
    let title = escape(&t!(format!("charts.{}.title", fig.0), locale = l));
    match &fig.1 {
        Ok((svg, table)) => format!(
            r#"<figure class="sim-chart" data-chart="{id}"><figcaption><strong>{title}</strong>{}</figcaption><div class="chart-box" role="region" tabindex="0" aria-label="{title}">{svg}</div>{table}</figure>"#,
            escape(&caption(scenario, fig.0, l)),
            id = fig.0,
        ),
        Err(why) => format!(
            r#"<figure class="sim-chart chart-none" data-chart="{id}" data-empty="true"><figcaption><strong>{title}</strong></figcaption><p class="chart-none-why">{}</p></figure>"#,
            escape(why),
            id = fig.0,
        ),
    }
}

/// The charts section around `figures` (HTML), in `l`.
fn section(inner: &str, compact: bool, l: &str) -> String {
    format!(
        r#"<section class="sim-charts{}"><h4>{}</h4><p class="scroll-hint" data-scroll-hint="charts">{}</p><div class="charts-grid">{inner}</div></section>"#,
        if compact { " compact" } else { "" },
        escape(&t!("charts.heading", locale = l)),
        escape(&t!("hints.scroll", locale = l)),
    )
}

/// The charts section of a run of `scenario` on its own scales, in both languages; empty
/// when the run has nothing to chart.
pub fn charts_html(data: &ChartData, scenario: &str) -> Both {
    if data.is_empty() {
        // The jitter study: no queue at all.
        return Both::default();
    }
    let scale = ChartScale::of(data);
    Lang::ALL.map(|lang| {
        let l = lang.code();
        let figs: String = figures(data, false, &scale, lang)
            .iter()
            .map(|f| figure_html(f, scenario, l))
            .collect();
        section(&figs, false, l)
    })
}

/// The worker timeline's figure in both languages: `svg(lang)` under the title and the
/// preset's caption, in a scroll box that takes keyboard focus (a region named by the title);
/// `hidden` (the line saying why there is none) when `svg` is `None`.
pub fn timeline_html(scenario: &str, svg: Option<&dyn Fn(Lang) -> String>, jobs: u64) -> Both {
    Lang::ALL.map(|lang| {
        let l = lang.code();
        let title = escape(&t!("timeline.title", locale = l));
        match svg {
            Some(svg) => {
                let cap = own_hint(scenario, "timeline", l)
                    .unwrap_or_else(|| t!("timeline.caption", locale = l).into_owned());
                format!(
                    r#"<figure class="sim-timeline" data-chart="timeline"><figcaption><strong>{title}</strong>{}</figcaption><p class="scroll-hint" data-scroll-hint="timeline">{}</p><div class="timeline-box" tabindex="0" role="region" aria-label="{title}">{}</div></figure>"#,
                    escape(&cap),
                    escape(&t!("hints.scroll", locale = l)),
                    svg(lang)
                )
            }
            None => format!(
                r#"<p class="hint" data-timeline="hidden">{}</p>"#,
                escape(&t!(
                    "timeline.hidden",
                    locale = l,
                    max = crate::domain::sim::results::timeline::MAX_TIMELINE_JOBS,
                    jobs = group_thousands(jobs)
                ))
            ),
        }
    })
}

/// Compare's charts: A's and B's on the scales both share ([`ChartScale::shared`]), compact;
/// a chart both runs draw identically (or leave out for the same reason) is named once in
/// [`Compared::same`] instead of drawn twice.
pub fn compared(a: (&ChartData, &str), b: (&ChartData, &str)) -> Compared {
    let scale = ChartScale::shared(&ChartScale::of(a.0), &ChartScale::of(b.0));
    let mut out = Compared::default();
    for (i, lang) in Lang::ALL.into_iter().enumerate() {
        let l = lang.code();
        let fa = figures(a.0, true, &scale, lang);
        let fb = figures(b.0, true, &scale, lang);
        let (mut ha, mut hb, mut same) = (String::new(), String::new(), Vec::new());
        for (x, y) in fa.iter().zip(&fb) {
            if x.1 == y.1 {
                same.push(x.0);
            } else {
                ha.push_str(&figure_html(x, a.1, l));
                hb.push_str(&figure_html(y, b.1, l));
            }
        }
        // Every chart the same: the columns hold no charts, the line says so.
        if !ha.is_empty() {
            out.a[i] = section(&ha, true, l);
            out.b[i] = section(&hb, true, l);
        }
        if !same.is_empty() {
            let names: Vec<String> = same
                .iter()
                .map(|id| t!(format!("charts.{id}.title"), locale = l).into_owned())
                .collect();
            out.same[i] = format!(
                r#"<p class="hint" data-same-charts="{}">{}</p>"#,
                same.join(" "),
                escape(&t!(
                    "hints.same",
                    locale = l,
                    charts = names.join(t!("timeline.desc.sep", locale = l).as_ref())
                ))
            );
        }
    }
    out
}

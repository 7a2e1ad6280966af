//! Each simulator chart's data as an HTML table a screen reader can read, behind a "Show data"
//! toggle (`<details>`), drawn by the simulation worker with the chart
//! ([`drawn`](crate::domain::sim::results::drawn)), so neither the code nor its words are in
//! the page's first load.
//!
//! | chart | columns (header: `label (unit)`) | rows |
//! |---|---|---|
//! | `depth` | time (s), queue depth (jobs) | each change of the depth |
//! | `attempts` | attempts, done / dead / queued or running (jobs) | each attempts count the chart draws |
//! | `latency` | percentile, enqueue → done, enqueue → first claim (the chart's unit) | p50, p95, p99, max |
//! | `calls` | bar start (s), ok / busy / failed (calls/s) | each bar of the chart |
//!
//! Past [`MAX_TABLE_ROWS`] rows a table keeps, in order, the row with the highest value of each
//! stretch of rows, and its caption says how many of how many it shows. Numbers with grouped
//! thousands ([`group_thousands`]) and at most three decimals, trailing zeros dropped
//! ([`format_value`]); a series the run does not have reads `–`.
//!
//! Markup: `<details class="chart-data" data-chart-data="<id>"><summary>…</summary>` then a
//! scroll box (`div.table-wrap`, `role="region"`, `tabindex="0"`, named by `aria-label`)
//! holding `<table class="chart-table">` with a `<caption>`, `th[scope=col]` headers and one
//! `tr` per row. Classes only (the page's CSP); every text escaped.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::plot::escape;
use crate::domain::sim::results::charts::{ChartData, TimeUnit, MAX_ATTEMPT_SLOTS};
use crate::domain::sim::results::report::Percentiles;
use crate::text::t;
use std::fmt::Write as _;

/// Rows a data table shows at most.
pub const MAX_TABLE_ROWS: usize = 50;

/// The rows to show of `n` rows: all of them up to [`MAX_TABLE_ROWS`], else the row with the
/// highest `value` (the first on a tie) of each run of `ceil(n / MAX_TABLE_ROWS)` rows, in order.
pub fn sample(n: usize, value: impl Fn(usize) -> f64) -> Vec<usize> {
    if n <= MAX_TABLE_ROWS {
        return (0..n).collect();
    }
    let k = n.div_ceil(MAX_TABLE_ROWS);
    (0..n)
        .step_by(k)
        .map(|start| {
            (start..(start + k).min(n)).fold(
                start,
                |best, i| {
                    if value(i) > value(best) {
                        i
                    } else {
                        best
                    }
                },
            )
        })
        .collect()
}

/// `v` as a table writes it: grouped thousands ([`group_thousands`]), at most three decimals
/// with trailing zeros dropped (`1.25`, `0.5`, `12 000`); a negative value with a leading `−`;
/// `–` when not finite.
pub fn format_value(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_owned();
    }
    let thousandths = (v.abs() * 1000.0).round();
    if thousandths >= u64::MAX as f64 {
        return "–".to_owned();
    }
    let t = thousandths as u64;
    let mut out = String::from(if v < 0.0 && t > 0 { "−" } else { "" });
    out.push_str(&group_thousands(t / 1000));
    let frac = format!("{:03}", t % 1000);
    let frac = frac.trim_end_matches('0');
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A table: column headers and rows of cells (already formatted).
struct Table {
    heads: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Rows before sampling.
    total: usize,
}

/// The data table of chart `id` (`depth`, `attempts`, `latency` or `calls`) of `data`, in
/// `lang`, as the `<details>` described in the module docs. Empty for another `id`.
pub fn table_html(data: &ChartData, id: &str, lang: Lang) -> String {
    let l = lang.code();
    let tr = |k: &str| t!(format!("charts.{k}"), locale = l).into_owned();
    let table = match id {
        "depth" => depth(data, &tr),
        "attempts" => attempts(data, &tr),
        "latency" => latency(data, &tr),
        "calls" => calls(data, &tr),
        _ => return String::new(),
    };
    let title = tr(&format!("{id}.title"));
    details_html(id, &title, &table.heads, &table.rows, table.total, lang)
}

/// A data table as the `<details>` described in the module docs: `heads` and `rows` (cells
/// already formatted, at most [`MAX_TABLE_ROWS`] of them: [`sample`]) of a chart `id` titled
/// `title`; `total` is the number of rows before sampling (the caption says so when fewer
/// are shown). Also the capacity answer's charts' tables (`domain::capacity::drawn`).
pub fn details_html(
    id: &str,
    title: &str,
    heads: &[String],
    rows: &[Vec<String>],
    total: usize,
    lang: Lang,
) -> String {
    let l = lang.code();
    let mut caption = escape(title);
    if rows.len() < total {
        let note = t!(
            "charts.data.sampled",
            locale = l,
            shown = group_thousands(rows.len() as u64),
            total = group_thousands(total as u64)
        );
        let _ = write!(
            caption,
            r#"<span class="data-note">{}</span>"#,
            escape(&note)
        );
    }
    let region = t!("charts.data.region", locale = l, chart = title);
    let mut out = format!(
        r#"<details class="chart-data" data-chart-data="{}"><summary>{}</summary><div class="table-wrap" role="region" tabindex="0" aria-label="{}"><table class="chart-table" data-rows="{}"><caption>{caption}</caption><thead><tr>"#,
        escape(id),
        escape(&t!("charts.data.show", locale = l)),
        escape(&region),
        rows.len(),
    );
    for h in heads {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for c in row {
            let _ = write!(out, "<td>{}</td>", escape(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div></details>");
    out
}

/// `"label (unit)"`, as the charts' axes write it.
fn head(tr: &dyn Fn(&str) -> String, label: &str, unit: &str) -> String {
    format!("{} ({})", tr(label), tr(&format!("unit.{unit}")))
}

/// Rows `keep` of `all`, with the count before sampling.
fn table(heads: Vec<String>, all: Vec<Vec<String>>, keep: Vec<usize>) -> Table {
    let total = all.len();
    let rows = keep
        .into_iter()
        .filter_map(|i| all.get(i).cloned())
        .collect();
    Table { heads, rows, total }
}

fn depth(data: &ChartData, tr: &dyn Fn(&str) -> String) -> Table {
    let all = data
        .depth
        .iter()
        .map(|&(s, d)| vec![format_value(s), group_thousands(d)])
        .collect();
    let keep = sample(data.depth.len(), |i| data.depth[i].1 as f64);
    let heads = vec![head(tr, "axis.time", "s"), head(tr, "axis.depth", "jobs")];
    table(heads, all, keep)
}

fn attempts(data: &ChartData, tr: &dyn Fn(&str) -> String) -> Table {
    // From attempt 1 unless some job was never claimed, as the chart.
    let from = usize::from(
        data.attempts
            .first()
            .is_none_or(|s| s.iter().all(|&v| v == 0)),
    );
    let slots = data.attempts.get(from..).unwrap_or(&[]);
    let all = slots
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n = from + i;
            let name = if n == MAX_ATTEMPT_SLOTS - 1 {
                format!("{n}+")
            } else {
                n.to_string()
            };
            let mut row = vec![name];
            row.extend(s.iter().map(|&v| group_thousands(v)));
            row
        })
        .collect();
    let keep = sample(slots.len(), |i| slots[i].iter().sum::<u64>() as f64);
    let mut heads = vec![tr("axis.attempts")];
    for k in ["done", "dead", "other"] {
        heads.push(head(tr, &format!("series.{k}"), "jobs"));
    }
    table(heads, all, keep)
}

/// One percentile of a distribution (p50, p95, …).
type Pick = fn(&Percentiles) -> f64;

fn latency(data: &ChartData, tr: &dyn Fn(&str) -> String) -> Table {
    let max = [data.latency_ms, data.wait_ms]
        .into_iter()
        .flatten()
        .map(|p| p.max)
        .fold(0.0, f64::max);
    let unit = TimeUnit::for_max_ms(max);
    let cell = |p: Option<Percentiles>, pick: fn(&Percentiles) -> f64| {
        p.map_or_else(|| "–".to_owned(), |p| format_value(pick(&p) / unit.ms()))
    };
    let picks: [(&str, Pick); 4] = [
        ("p50", |p| p.p50),
        ("p95", |p| p.p95),
        ("p99", |p| p.p99),
        ("max", |p| p.max),
    ];
    let has = data.latency_ms.is_some() || data.wait_ms.is_some();
    let all: Vec<Vec<String>> = if has {
        picks
            .iter()
            .map(|&(name, pick)| {
                vec![
                    name.to_owned(),
                    cell(data.latency_ms, pick),
                    cell(data.wait_ms, pick),
                ]
            })
            .collect()
    } else {
        Vec::new()
    };
    let keep = (0..all.len()).collect();
    let heads = vec![
        tr("axis.latency"),
        head(tr, "series.latency", unit.key()),
        head(tr, "series.wait", unit.key()),
    ];
    table(heads, all, keep)
}

fn calls(data: &ChartData, tr: &dyn Fn(&str) -> String) -> Table {
    let (width, rates) = data.calls.rates();
    let n = rates[0].len();
    let all = (0..n)
        .map(|i| {
            let mut row = vec![format_value(width * i as f64)];
            row.extend(rates.iter().map(|r| format_value(r[i])));
            row
        })
        .collect();
    let keep = sample(n, |i| rates.iter().map(|r| r[i]).sum());
    let mut heads = vec![head(tr, "axis.start", "s")];
    for k in ["ok", "busy", "failed"] {
        heads.push(head(tr, &format!("series.{k}"), "calls-per-s"));
    }
    table(heads, all, keep)
}

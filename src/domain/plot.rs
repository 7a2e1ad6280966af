//! A small SVG chart writer: linear scales with "nice" 1-2-5 ticks, axes with tick labels and
//! unit labels, line / step series, grouped or stacked bars, a legend. Pure string work, no
//! browser, no dependency; the simulator's charts ([`crate::domain::sim::results::charts`]) are built
//! on it.
//!
//! What the output looks like:
//! * one `<svg class="plot" viewBox="0 0 W H" role="img" aria-label="…">` with a `<title>` and
//!   a `<desc>`; no `width`/`height`, so it scales to its container;
//! * no inline style and no colour: every element carries classes (`plot-axis`, `plot-grid`,
//!   `plot-tick`, `plot-unit`, `plot-legend`, `plot-line`, `plot-bar`, `plot-swatch`,
//!   `plot-value`, `plot-empty`) and each series the class `s-<key>`; the stylesheet gives the
//!   colours (light and dark), which keeps the markup valid under a strict CSP;
//! * every text that comes in (titles, labels, units, category names) is XML-escaped, and
//!   characters XML forbids are replaced by U+FFFD;
//! * numbers on ticks use [`group_thousands`](crate::domain::number::group_thousands) for
//!   whole values (`12,000`), otherwise as few decimals as the tick step needs;
//! * bars carry `data-series`, `data-slot` and `data-value` (the value drawn) and a `<title>`
//!   tooltip; legend entries carry `data-series`.
//!
//! Nothing here panics: empty series draw the axes over `0 … 1` and the `empty` message;
//! non-finite or negative bar values count as zero; very long lines are thinned to at most
//! [`MAX_LINE_POINTS`] points keeping each chunk's highest value.
//!
//! Files: this one holds the chart types and the two chart shapes ([`lines`], [`bars`]);
//! `scale`: ticks and the numbers written on them; `canvas`: the drawing both shapes share;
//! `lanes`: the lane chart (a timeline of workers, [`lanes`]); `overlay`: the layered chart
//! (bands, points with intervals, lines and reference rules, [`layered`]).

use crate::domain::bidi::{self, Shown};
use std::fmt::Write;

mod canvas;
mod lanes;
mod overlay;
mod scale;

use canvas::{n, Canvas, FONT};
pub use lanes::{lanes, Lane, LaneChart, Mark, Shape, Span};
pub use overlay::{layered, Band, Layers, Points, Rule, RuleAxis};
pub use scale::{format_tick, format_value, nice_ticks, Ticks};

/// Buckets the x axis of [`Slots::Buckets`] spans at least.
pub const MIN_BUCKETS: usize = 10;

/// Most points a line keeps (longer lines keep each chunk's highest point).
pub const MAX_LINE_POINTS: usize = 1_200;

/// One axis: what it measures and in which unit, both shown as `label (unit)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axis<'a> {
    /// What the axis measures, e.g. "Queue depth".
    pub label: &'a str,
    /// Its unit, e.g. "jobs", "s", "ms", "calls/s" (empty: none shown).
    pub unit: &'a str,
}

/// Upper ends the axes reach at least, so that two charts drawn side by side share their
/// scales (same y maximum, same time range). A value that is zero, negative or not finite
/// leaves that axis to the data ([`Limits::NONE`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Limits {
    /// The x axis spans at least `0 … x_hi` (linear x axes only).
    pub x_hi: f64,
    /// The y axis spans at least `0 … y_hi`.
    pub y_hi: f64,
    /// The y values are counts (jobs): ticks at least 1 apart, so a queue of one job reads
    /// `0, 1` instead of `0, 0.2, … 1.0`.
    pub whole_y: bool,
}

impl Limits {
    /// No limits: both axes from the data.
    pub const NONE: Limits = Limits {
        x_hi: 0.0,
        y_hi: 0.0,
        whole_y: false,
    };

    /// Ticks of the y axis over `0 … top`: [`nice_ticks`], or whole steps when
    /// [`Limits::whole_y`], `top > 0` and the nice step would be below 1.
    fn y_ticks(&self, top: f64) -> Ticks {
        let t = nice_ticks(0.0, top, 5);
        if !self.whole_y || t.step >= 1.0 || usable(top) == 0.0 {
            return t;
        }
        let hi = libm::ceil(usable(top)).clamp(1.0, 5.0);
        Ticks {
            lo: 0.0,
            hi,
            step: 1.0,
            values: (0..=hi as u32).map(f64::from).collect(),
        }
    }
}

/// `v` when it is a usable upper end, else 0.
fn usable(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

/// The frame shared by every chart: texts, axes and size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame<'a> {
    /// The chart's name: `<title>` and `aria-label`.
    pub title: &'a str,
    /// A sentence saying what it shows: `<desc>`.
    pub desc: &'a str,
    /// Horizontal axis.
    pub x: Axis<'a>,
    /// Vertical axis (always starts at zero).
    pub y: Axis<'a>,
    /// Shown in the plot area when there is nothing to draw.
    pub empty: &'a str,
    /// A smaller viewBox (480 × 280 instead of 640 × 320), for side-by-side use: the text then
    /// stays readable when the chart is drawn at half width.
    pub compact: bool,
    /// Shared axis ends ([`Limits::NONE`]: from the data).
    pub limits: Limits,
}

/// A line (or step) series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line<'a> {
    /// Legend text.
    pub name: &'a str,
    /// Series key: class `s-<key>`, `data-series`.
    pub key: &'a str,
    /// `(x, y)` points in x order; non-finite points are skipped.
    pub points: &'a [(f64, f64)],
    /// Draw as steps (each value holds until the next point) instead of straight segments.
    pub step: bool,
}

/// A bar series: one value per slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bars<'a> {
    /// Legend text.
    pub name: &'a str,
    /// Series key: class `s-<key>`, `data-series`.
    pub key: &'a str,
    /// One value per slot (missing slots count as zero).
    pub values: &'a [f64],
}

/// Where bar slots sit on the x axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slots<'a> {
    /// Named categories, evenly spaced (`["1", "2", …]`, `["p50", "p95", …]`).
    Categories(&'a [String]),
    /// Equal intervals of a linear x axis: slot `i` covers `start + i·width … start + (i+1)·width`.
    Buckets {
        /// Left edge of slot 0.
        start: f64,
        /// Width of a slot, in x units (must be > 0; otherwise 1 is used).
        width: f64,
        /// Number of slots.
        count: usize,
    },
}

/// A horizontal reference line across a bar chart (e.g. a rate limit): class `plot-rule`,
/// `data-rule` = `key`, `data-value` = `y`, its label written at the right end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarRule<'a> {
    /// Where it is drawn, in y units (the y axis reaches it).
    pub y: f64,
    /// Its key: class `s-<key>`, `data-rule`.
    pub key: &'a str,
    /// The text written above it and its tooltip.
    pub label: &'a str,
}

/// How several bar series share a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Side by side, each bar labelled with its value.
    Grouped,
    /// On top of one another (the bar's height is the slot's total).
    Stacked,
}

/// `s` escaped for XML text and attribute values. A control character other than tab, line
/// feed and carriage return (C0, DEL, C1: [`crate::domain::bidi::is_raw_control`]) is shown
/// as `&lt;U+0007&gt;`, as every document shows it; the noncharacters U+FFFE and U+FFFF,
/// which XML 1.0 forbids, become U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if bidi::is_raw_control(c) => {
                out.push_str(&bidi::show(c.encode_utf8(&mut [0; 4]), Shown::Markup));
            }
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A line chart: the series over a linear x axis (from the smallest to the largest x) and a
/// linear y axis from zero.
pub fn lines(frame: &Frame, series: &[Line]) -> String {
    let thinned: Vec<Vec<(f64, f64)>> = series.iter().map(|s| thin(s.points)).collect();
    let all = || thinned.iter().flatten();
    let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    for &(x, y) in all() {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let empty = all().next().is_none();
    if empty {
        (x0, x1) = (0.0, 1.0);
    }
    x1 = x1.max(usable(frame.limits.x_hi));
    y1 = y1.max(usable(frame.limits.y_hi));
    let legend: Vec<(&str, &str)> = series.iter().map(|s| (s.name, s.key)).collect();
    let mut c = Canvas::new(frame, &legend, frame.limits.y_ticks(y1), 0.0);
    let xt = nice_ticks(x0.min(0.0), x1, c.x_intervals());
    c.x_axis_linear(&xt);
    for (s, pts) in series.iter().zip(&thinned) {
        if pts.is_empty() {
            continue;
        }
        let mut d = String::new();
        for (i, &(x, y)) in pts.iter().enumerate() {
            let (px, py) = (c.sx(&xt, x), c.sy(y));
            if i == 0 {
                let _ = write!(d, "M{} {}", n(px), n(py));
            } else if s.step {
                let _ = write!(d, "H{}V{}", n(px), n(py));
            } else {
                let _ = write!(d, "L{} {}", n(px), n(py));
            }
        }
        let _ = write!(
            c.out,
            r#"<path class="plot-line s-{k}" data-series="{k}" d="{d}"/>"#,
            k = escape(s.key)
        );
    }
    c.finish(empty)
}

/// A bar chart: the series' values in `slots`, grouped or stacked, over a y axis from zero.
pub fn bars(frame: &Frame, slots: Slots, layout: Layout, series: &[Bars]) -> String {
    bars_with_rule(frame, slots, layout, series, None)
}

/// [`bars`] with a horizontal reference line `rule` over the bars (none when `rule` is `None`
/// or its `y` is not a finite positive number).
pub fn bars_with_rule(
    frame: &Frame,
    slots: Slots,
    layout: Layout,
    series: &[Bars],
    rule: Option<BarRule>,
) -> String {
    let rule = rule.filter(|r| r.y.is_finite() && r.y > 0.0);
    let count = match slots {
        Slots::Categories(names) => names.len(),
        Slots::Buckets { count, .. } => count,
    };
    let val = |s: &Bars, i: usize| {
        s.values
            .get(i)
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0)
            .unwrap_or(0.0)
    };
    let top = (0..count)
        .map(|i| match layout {
            Layout::Grouped => series.iter().map(|s| val(s, i)).fold(0.0, f64::max),
            Layout::Stacked => series.iter().map(|s| val(s, i)).sum(),
        })
        .fold(0.0, f64::max)
        .max(usable(frame.limits.y_hi))
        // A tenth above the rule, so a limit the bars reach (calls paced at our limiter's
        // rate) is drawn inside the chart, not on its top edge.
        .max(rule.map_or(0.0, |r| r.y * 1.1));
    let empty = count == 0 || series.is_empty();
    let legend: Vec<(&str, &str)> = series.iter().map(|s| (s.name, s.key)).collect();
    // Grouped bars write their value above them: a line of room below the y axis title, so
    // the tallest bar's value never runs into it.
    let room = if layout == Layout::Grouped {
        FONT + 3.0
    } else {
        0.0
    };
    let mut c = Canvas::new(frame, &legend, frame.limits.y_ticks(top), room);
    // Slot 0's left edge and the slots' width, in pixels.
    let (first, w) = place_slots(&mut c, slots, count, frame);
    let m = series.len().max(1) as f64;
    for i in 0..count {
        let x = first + i as f64 * w;
        let gap = (w * 0.12).min(6.0);
        let mut base = 0.0;
        for (j, s) in series.iter().enumerate() {
            let v = val(s, i);
            let raw = s.values.get(i).copied().unwrap_or(0.0);
            let (bx, bw, from, to) = match layout {
                Layout::Grouped => {
                    let inner = (w - 2.0 * gap) / m;
                    (x + gap + j as f64 * inner, inner, 0.0, v)
                }
                Layout::Stacked => (x + gap / 2.0, w - gap, base, base + v),
            };
            base += v;
            if v <= 0.0 && layout == Layout::Stacked {
                continue;
            }
            let (y_top, y_bot) = (c.sy(to), c.sy(from));
            let label = match slots {
                Slots::Categories(names) => names.get(i).map_or("", String::as_str).to_owned(),
                Slots::Buckets { start, width, .. } => format!(
                    "{} – {}",
                    format_tick(start + width * i as f64, width),
                    format_tick(start + width * (i + 1) as f64, width)
                ),
            };
            let shown = format_value(v);
            let _ = write!(
                c.out,
                r#"<rect class="plot-bar s-{k}" data-series="{k}" data-slot="{i}" data-value="{dv}" x="{}" y="{}" width="{}" height="{}"><title>{}: {} = {shown}</title></rect>"#,
                n(bx),
                n(y_top),
                n(bw.max(0.5)),
                n((y_bot - y_top).max(0.0)),
                escape(s.name),
                escape(&label),
                k = escape(s.key),
                dv = if raw.is_finite() {
                    shown.replace(',', "")
                } else {
                    "0".into()
                },
            );
            if layout == Layout::Grouped {
                let _ = write!(
                    c.out,
                    r#"<text class="plot-value" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                    n(bx + bw / 2.0),
                    n(y_top - 3.0),
                    escape(&shown)
                );
            }
        }
    }
    if let Some(r) = rule {
        draw_rule(&mut c, r);
    }
    c.finish(empty)
}

/// Draws the x axis of `slots` (`count` of them) and returns slot 0's left edge and the
/// slots' width, in pixels.
fn place_slots(c: &mut Canvas, slots: Slots, count: usize, frame: &Frame) -> (f64, f64) {
    match slots {
        Slots::Categories(names) => {
            let w = c.plot_w() / count.max(1) as f64;
            c.x_axis_categories(names, w);
            (c.left, w)
        }
        Slots::Buckets {
            start,
            width,
            count,
        } => {
            let width = if width.is_finite() && width > 0.0 {
                width
            } else {
                1.0
            };
            let start = if start.is_finite() { start } else { 0.0 };
            // At least MIN_BUCKETS wide, so one or two buckets do not fill the whole plot.
            let shown = count.max(MIN_BUCKETS) as f64;
            let hi = (start + width * shown).max(usable(frame.limits.x_hi));
            let xt = nice_ticks(start.min(0.0), hi, c.x_intervals());
            c.x_axis_linear(&xt);
            let w = c.plot_w() * width / (xt.hi - xt.lo).max(f64::MIN_POSITIVE);
            (c.sx(&xt, start), w)
        }
    }
}

/// `rule` across the plot area, its label above its right end.
fn draw_rule(c: &mut Canvas, r: BarRule) {
    let y = c.sy(r.y);
    let _ = write!(
        c.out,
        r#"<line class="plot-rule s-{k}" data-rule="{k}" data-value="{v}" x1="{}" y1="{y}" x2="{}" y2="{y}"><title>{l}</title></line><text class="plot-rule-label" x="{}" y="{}" text-anchor="end">{l}</text>"#,
        n(c.left),
        n(c.right),
        n(c.right - 2.0),
        n(y - 3.0),
        k = escape(r.key),
        v = format_value(r.y).replace(',', ""),
        y = n(y),
        l = escape(r.label),
    );
}

/// A chart with nothing to plot: only the title, description and the message `frame.empty`,
/// in a small 320 × 40 viewBox without axes (the stylesheet draws it at most 320 px wide, so
/// its text keeps its size on any screen).
pub fn note(frame: &Frame) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot plot-note" viewBox="0 0 320 40" role="img" aria-label="{t}"><title>{t}</title><desc>{}</desc><text class="plot-empty" x="160" y="24" text-anchor="middle">{}</text></svg>"#,
        escape(frame.desc),
        escape(frame.empty),
        t = escape(frame.title),
    )
}

/// Keeps at most [`MAX_LINE_POINTS`] finite points: each chunk's first x with its highest y.
fn thin(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let finite: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    if finite.len() <= MAX_LINE_POINTS {
        return finite;
    }
    let chunk = finite.len().div_ceil(MAX_LINE_POINTS);
    finite
        .chunks(chunk)
        .map(|c| {
            (
                c[0].0,
                c.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max),
            )
        })
        .collect()
}

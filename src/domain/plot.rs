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
//! * numbers on ticks use [`group_thousands`] for whole values (`12 000`), otherwise as few
//!   decimals as the tick step needs;
//! * bars carry `data-series`, `data-slot` and `data-value` (the value drawn) and a `<title>`
//!   tooltip; legend entries carry `data-series`.
//!
//! Nothing here panics: empty series draw the axes over `0 … 1` and the `empty` message;
//! non-finite or negative bar values count as zero; very long lines are thinned to at most
//! [`MAX_LINE_POINTS`] points keeping each chunk's highest value.

use crate::domain::number::group_thousands;
use std::fmt::Write;

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

/// How several bar series share a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Side by side, each bar labelled with its value.
    Grouped,
    /// On top of one another (the bar's height is the slot's total).
    Stacked,
}

/// Ticks of a linear scale: the (widened) domain `lo … hi` and the tick values `step` apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticks {
    /// Lower end of the domain (a multiple of `step`).
    pub lo: f64,
    /// Upper end of the domain (a multiple of `step`).
    pub hi: f64,
    /// Distance between ticks: 1, 2 or 5 times a power of ten.
    pub step: f64,
    /// Tick values from `lo` to `hi`.
    pub values: Vec<f64>,
}

/// "Nice" ticks covering `lo … hi` with about `target` intervals (at least 1): the step is
/// 1, 2 or 5 × 10ⁿ, the smallest such step giving at most `target` intervals, and the domain
/// is widened outward to multiples of it. `lo == hi` widens to include zero (`0 … 1` for
/// `0 … 0`); non-finite bounds give `0 … 1`; the bounds are swapped if reversed.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Ticks {
    let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() {
        (lo.min(hi), lo.max(hi))
    } else {
        (0.0, 1.0)
    };
    if lo == hi {
        if lo == 0.0 {
            hi = 1.0;
        } else {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
    }
    let raw = (hi / 2.0 - lo / 2.0) * 2.0 / target.max(1) as f64;
    let mag = power_of_ten_below(raw);
    if !raw.is_finite() || raw <= 0.0 || mag <= 0.0 {
        return Ticks {
            lo,
            hi,
            step: hi - lo,
            values: vec![lo, hi],
        };
    }
    let norm = raw / mag;
    let mult = if norm <= 1.0 + 1e-9 {
        1.0
    } else if norm <= 2.0 + 1e-9 {
        2.0
    } else if norm <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    let step = mult * mag;
    let first = libm::floor(lo / step + 1e-9);
    let last = libm::ceil(hi / step - 1e-9);
    let n = (last - first).clamp(1.0, 1_000.0) as usize;
    let values: Vec<f64> = (0..=n).map(|i| (first + i as f64) * step).collect();
    Ticks {
        lo: values[0],
        hi: values[n],
        step,
        values,
    }
}

/// A tick label for `v` on a scale of step `step`: whole numbers grouped by thousands
/// (`12 000`), otherwise the decimals the step needs (`0.25`, `2.5`), a leading `-` when
/// negative, scientific notation from 10¹⁵ on. Never `-0`.
pub fn format_tick(v: f64, step: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    // As many decimals as the step has: 0.2 → 1, 0.05 → 2 (9 at most).
    let mut decimals = 0;
    let mut scaled = if step.is_finite() && step > 0.0 {
        step
    } else {
        1.0
    };
    while scaled < 1.0 - 1e-9 && decimals < 9 {
        scaled *= 10.0;
        decimals += 1;
    }
    let a = v.abs();
    let text = if a >= 1e15 {
        // Beyond what a chart of jobs or milliseconds needs; kept short and finite.
        let mut exp = 15;
        let mut m = a / 1e15;
        while m >= 10.0 && exp < 400 {
            m /= 10.0;
            exp += 1;
        }
        format!("{m:.2}e{exp}")
    } else {
        let s = format!("{a:.decimals$}");
        match s.split_once('.') {
            Some((int, frac)) => format!(
                "{}.{frac}",
                int.parse::<u64>().map_or(int.to_owned(), group_thousands)
            ),
            None => s.parse::<u64>().map_or(s, group_thousands),
        }
    };
    let zero = text.bytes().all(|b| matches!(b, b'0' | b'.' | b' '));
    if v < 0.0 && !zero {
        format!("-{text}")
    } else {
        text
    }
}

/// `s` escaped for XML text and attribute values; characters XML 1.0 forbids become U+FFFD.
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
            c if (c as u32) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
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
        .max(usable(frame.limits.y_hi));
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
    let (first, w) = match slots {
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
    };
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
                    shown.replace(' ', "")
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
    c.finish(empty)
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

/// A value as drawn on a bar: grouped thousands when whole, else one decimal (or more when
/// small).
pub fn format_value(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    if (v - libm::round(v)).abs() < 1e-9 {
        format_tick(libm::round(v), 1.0)
    } else if v.abs() < 1.0 {
        format_tick(v, 0.001)
    } else {
        format_tick(v, 0.1)
    }
}

/// The largest power of ten not above `v` (finite, > 0), by repeated multiplication: no
/// `log10` / `pow` code in the wasm for this.
fn power_of_ten_below(v: f64) -> f64 {
    let mut m = 1.0;
    for _ in 0..400 {
        if m * 10.0 > v {
            break;
        }
        m *= 10.0;
    }
    for _ in 0..400 {
        if m <= v * (1.0 + 1e-12) {
            break;
        }
        m /= 10.0;
    }
    m
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

/// A coordinate with one decimal.
fn n(v: f64) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
}

/// Estimated width of `s` at font size `size`: wide (CJK) characters count as 1 em, others
/// as 0.6 em.
fn text_width(s: &str, size: f64) -> f64 {
    s.chars()
        .map(|c| if (c as u32) < 0x1100 { 0.6 } else { 1.0 })
        .sum::<f64>()
        * size
}

fn axis_title(a: &Axis) -> String {
    if a.unit.is_empty() {
        a.label.to_owned()
    } else {
        format!("{} ({})", a.label, a.unit)
    }
}

const FONT: f64 = 11.0;

/// The drawing in progress: the header, legend and y axis are written by [`Canvas::new`]
/// (`room`: extra pixels between the y axis title and the top of the plot, for labels drawn
/// above the data).
struct Canvas<'f> {
    frame: &'f Frame<'f>,
    out: String,
    height: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    y: Ticks,
}

impl<'f> Canvas<'f> {
    fn new(frame: &'f Frame<'f>, legend: &[(&str, &str)], y: Ticks, room: f64) -> Canvas<'f> {
        let (width, height) = if frame.compact {
            (480.0, 280.0)
        } else {
            (640.0, 320.0)
        };
        let mut out = String::with_capacity(4_096);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 {} {}" role="img" aria-label="{t}"><title>{t}</title><desc>{}</desc>"#,
            n(width),
            n(height),
            escape(frame.desc),
            t = escape(frame.title),
        );
        // Legend: swatch + name, left to right, wrapping.
        let (mut lx, mut ly) = (8.0, 14.0);
        if !legend.is_empty() {
            out.push_str(r#"<g class="plot-legend">"#);
            for (name, key) in legend {
                let w = 16.0 + text_width(name, FONT) + 14.0;
                if lx > 8.0 && lx + w > width - 8.0 {
                    lx = 8.0;
                    ly += 16.0;
                }
                let _ = write!(
                    out,
                    r#"<g data-series="{k}"><rect class="plot-swatch s-{k}" x="{}" y="{}" width="10" height="10"/><text x="{}" y="{}">{}</text></g>"#,
                    n(lx),
                    n(ly - 9.0),
                    n(lx + 14.0),
                    n(ly),
                    escape(name),
                    k = escape(key),
                );
                lx += w;
            }
            out.push_str("</g>");
            ly += 20.0;
        } else {
            ly = 8.0;
        }
        // The y axis title sits above the axis, left-aligned, so long (CJK) titles stay
        // horizontal and readable.
        let _ = write!(
            out,
            r#"<text class="plot-unit" x="8" y="{}">{}</text>"#,
            n(ly),
            escape(&axis_title(&frame.y))
        );
        let labels: Vec<String> = y.values.iter().map(|&v| format_tick(v, y.step)).collect();
        let widest = labels
            .iter()
            .map(|l| text_width(l, FONT))
            .fold(0.0, f64::max);
        let mut c = Canvas {
            frame,
            out,
            height,
            left: 8.0 + widest + 6.0,
            // Room for half of the last x tick label (e.g. "50 000").
            right: width - 26.0,
            top: ly + 10.0 + room,
            bottom: height - 40.0,
            y,
        };
        c.out.push_str(r#"<g class="plot-y">"#);
        for (v, label) in c.y.values.clone().iter().zip(&labels) {
            let py = c.sy(*v);
            let _ = write!(
                c.out,
                r#"<line class="plot-grid" x1="{l}" x2="{r}" y1="{y}" y2="{y}"/><text class="plot-tick" x="{}" y="{}" text-anchor="end">{}</text>"#,
                n(c.left - 5.0),
                n(py + 4.0),
                escape(label),
                l = n(c.left),
                r = n(c.right),
                y = n(py),
            );
        }
        c.out.push_str("</g>");
        c
    }

    fn plot_w(&self) -> f64 {
        self.right - self.left
    }

    /// About how many x intervals fit without labels colliding.
    fn x_intervals(&self) -> usize {
        ((self.plot_w() / 70.0) as usize).clamp(2, 8)
    }

    fn sy(&self, v: f64) -> f64 {
        let span = self.y.hi - self.y.lo;
        let f = if span > 0.0 {
            (v - self.y.lo) / span
        } else {
            0.0
        };
        self.bottom - f.clamp(0.0, 1.0) * (self.bottom - self.top)
    }

    fn sx(&self, t: &Ticks, v: f64) -> f64 {
        let span = t.hi - t.lo;
        let f = if span > 0.0 { (v - t.lo) / span } else { 0.0 };
        self.left + f.clamp(0.0, 1.0) * self.plot_w()
    }

    fn x_title(&mut self) {
        let _ = write!(
            self.out,
            r#"<text class="plot-unit" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            n((self.left + self.right) / 2.0),
            n(self.height - 8.0),
            escape(&axis_title(&self.frame.x))
        );
    }

    fn x_axis_linear(&mut self, t: &Ticks) {
        self.out.push_str(r#"<g class="plot-x">"#);
        for &v in &t.values {
            let px = self.sx(t, v);
            let _ = write!(
                self.out,
                r#"<line class="plot-axis" x1="{x}" x2="{x}" y1="{}" y2="{}"/><text class="plot-tick" x="{x}" y="{}" text-anchor="middle">{}</text>"#,
                n(self.bottom),
                n(self.bottom + 4.0),
                n(self.bottom + 16.0),
                escape(&format_tick(v, t.step)),
                x = n(px),
            );
        }
        self.out.push_str("</g>");
        self.x_title();
    }

    fn x_axis_categories(&mut self, names: &[String], w: f64) {
        let widest = names
            .iter()
            .map(|s| text_width(s, FONT))
            .fold(0.0, f64::max);
        let every = if w > 0.0 {
            (((widest + 8.0) / w).ceil() as usize).max(1)
        } else {
            1
        };
        self.out.push_str(r#"<g class="plot-x">"#);
        for (i, name) in names.iter().enumerate().step_by(every) {
            let _ = write!(
                self.out,
                r#"<text class="plot-tick" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                n(self.left + (i as f64 + 0.5) * w),
                n(self.bottom + 16.0),
                escape(name)
            );
        }
        self.out.push_str("</g>");
        self.x_title();
    }

    fn finish(mut self, empty: bool) -> String {
        let _ = write!(
            self.out,
            r#"<path class="plot-axis" d="M{l} {t}V{b}H{r}"/>"#,
            l = n(self.left),
            t = n(self.top),
            b = n(self.bottom),
            r = n(self.right),
        );
        if empty && !self.frame.empty.is_empty() {
            let _ = write!(
                self.out,
                r#"<text class="plot-empty" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                n((self.left + self.right) / 2.0),
                n((self.top + self.bottom) / 2.0),
                escape(self.frame.empty)
            );
        }
        self.out.push_str("</svg>");
        self.out
    }
}

//! The lane chart: one horizontal lane per actor (a worker) over a linear time axis, with
//! bars (spans), windows drawn behind them, point marks, and status strips under the lanes —
//! a Gantt-like timeline. Like the other shapes: classes only, no inline style.
//!
//! For stepping, the drawing carries a "now" group (`<g class="plot-now" transform=…>`, a
//! cursor line and a veil over what comes later) and, on the `<svg>`, what it takes to move
//! it: `data-t0` / `data-t1` (the axis' ends, µs) and `data-x0` / `data-x1` (their x, tenths
//! of a viewBox unit, whole numbers). The page moves the group by setting its `transform` to
//! `translate(x 0)` with `x = x0 + (t − t0) / (t1 − t0) · (x1 − x0)`; nothing is redrawn.

use super::canvas::{n, text_width, FONT};
use super::*;

/// A bar or a window on a lane: from `from` to `to` (s), class `s-<key>`, `tip` as tooltip.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Start, s.
    pub from: f64,
    /// End, s (a zero-length span is drawn as a thin bar).
    pub to: f64,
    /// Series key: class `s-<key>`.
    pub key: &'static str,
    /// Tooltip text.
    pub tip: String,
}

/// The shape of a [`Mark`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A diamond (e.g. a side effect).
    Diamond,
    /// A cross (a crash).
    Cross,
    /// A tall tick (a lease running out).
    Tick,
    /// A disc (the job dead).
    Dot,
    /// A slashed circle (a result refused).
    Refused,
}

/// A point event on a lane at `at` (s).
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// When, s.
    pub at: f64,
    /// Series key: class `s-<key>`.
    pub key: &'static str,
    /// How it is drawn.
    pub shape: Shape,
    /// Tooltip text.
    pub tip: String,
}

/// One lane: its name on the left, windows behind, bars, then marks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lane {
    /// The lane's name (a worker's name, a job's id).
    pub name: String,
    /// Drawn first, as a frame behind the bars (e.g. the lease).
    pub windows: Vec<Span>,
    /// The bars.
    pub bars: Vec<Span>,
    /// The marks, on top.
    pub marks: Vec<Mark>,
}

/// A lane chart's content: `lanes` (tall), then `strips` (thin status rows) under them. Marks
/// closer than 11 units on a lane are moved right to sit side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneChart<'a> {
    /// Title and description (`x` is the time axis; `y`, `empty`, `limits` are not used).
    pub frame: Frame<'a>,
    /// The lanes.
    pub lanes: &'a [Lane],
    /// Status rows under the lanes (bars only).
    pub strips: &'a [Lane],
    /// The time axis' range, s (`lo < hi`; otherwise `lo … lo + 1`).
    pub range: (f64, f64),
    /// Legend entries `(name, key)`; a key of a [`Shape`] mark draws that shape.
    pub legend: &'a [(String, &'static str, Option<Shape>)],
}

const LANE_H: f64 = 26.0;
const STRIP_H: f64 = 12.0;
/// Least distance between two marks' centres on a lane.
const MARK_GAP: f64 = 11.0;
/// The veil over what comes later starts this far right of the cursor, so marks at the
/// cursor's time stay whole.
const VEIL_GAP: f64 = 6.0;

/// The lane chart as SVG (`class="plot plot-lanes"`), 640 units wide.
pub fn lanes(c: &LaneChart) -> String {
    let width = 640.0;
    let names = c.lanes.iter().chain(c.strips).map(|l| l.name.as_str());
    let left = 8.0 + names.map(|s| text_width(s, FONT)).fold(24.0, f64::max) + 8.0;
    let right = width - 26.0;
    let mut out = String::with_capacity(8_192);
    // Legend rows first, to know where the lanes start.
    let mut legend = String::new();
    let (mut lx, mut ly) = (8.0, 14.0);
    for (name, key, shape) in c.legend {
        let w = 16.0 + text_width(name, FONT) + 14.0;
        if lx > 8.0 && lx + w > width - 8.0 {
            lx = 8.0;
            ly += 16.0;
        }
        let k = escape(key);
        let _ = write!(legend, r#"<g data-series="{k}">"#);
        match shape {
            Some(s) => legend.push_str(&mark_path(*s, lx + 5.0, ly - 4.0, k.as_str())),
            None => {
                let _ = write!(
                    legend,
                    r#"<rect class="plot-swatch s-{k}" x="{}" y="{}" width="10" height="10"/>"#,
                    n(lx),
                    n(ly - 9.0)
                );
            }
        }
        let _ = write!(
            legend,
            r#"<text x="{}" y="{}">{}</text></g>"#,
            n(lx + 14.0),
            n(ly),
            escape(name)
        );
        lx += w;
    }
    let top = ly + 14.0;
    let lanes_bottom = top + LANE_H * c.lanes.len() as f64;
    let bottom = lanes_bottom + 4.0 + STRIP_H * c.strips.len() as f64;
    let height = bottom + 40.0;
    let (lo, hi) = if c.range.1 > c.range.0 {
        c.range
    } else {
        (c.range.0, c.range.0 + 1.0)
    };
    let xt = nice_ticks(lo, hi, (((right - left) / 70.0) as usize).clamp(2, 8));
    let sx = |v: f64| {
        let span = (xt.hi - xt.lo).max(f64::MIN_POSITIVE);
        left + ((v - xt.lo) / span).clamp(0.0, 1.0) * (right - left)
    };
    let tenths = |v: f64| (v * 10.0).round() as i64;
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot plot-lanes" viewBox="0 0 {} {}" role="img" aria-label="{t}" data-t0="{}" data-t1="{}" data-x0="{}" data-x1="{}"><title>{t}</title><desc>{}</desc><g class="plot-legend">{legend}</g>"#,
        n(width),
        n(height),
        (xt.lo * 1e6).round() as i64,
        (xt.hi * 1e6).round() as i64,
        tenths(left),
        tenths(right),
        escape(c.frame.desc),
        t = escape(c.frame.title),
    );
    // Time grid and ticks.
    out.push_str(r#"<g class="plot-x">"#);
    for &v in &xt.values {
        let _ = write!(
            out,
            r#"<line class="plot-grid" x1="{x}" x2="{x}" y1="{}" y2="{}"/><text class="plot-tick" x="{x}" y="{}" text-anchor="middle">{}</text>"#,
            n(top),
            n(bottom),
            n(bottom + 16.0),
            escape(&format_tick(v, xt.step)),
            x = n(sx(v)),
        );
    }
    let _ = write!(
        out,
        r#"</g><text class="plot-unit" x="{}" y="{}" text-anchor="middle">{}</text>"#,
        n((left + right) / 2.0),
        n(height - 8.0),
        escape(&canvas::axis_title(&c.frame.x))
    );
    for (i, lane) in c.lanes.iter().enumerate() {
        let y = top + LANE_H * i as f64;
        lane_row(&mut out, lane, "plot-lane", y, LANE_H, left, &sx);
    }
    for (i, strip) in c.strips.iter().enumerate() {
        let y = lanes_bottom + 4.0 + STRIP_H * i as f64;
        lane_row(&mut out, strip, "plot-strip", y, STRIP_H, left, &sx);
    }
    let _ = write!(
        out,
        r#"<path class="plot-axis" d="M{l} {t}V{b}H{r}"/><g class="plot-now" transform="translate({x} 0)"><rect class="plot-later" x="{v}" y="{t}" width="{w}" height="{h}"/><line class="plot-cursor" x1="0" x2="0" y1="{t}" y2="{b}"/></g></svg>"#,
        l = n(left),
        t = n(top),
        b = n(bottom),
        r = n(right),
        x = n(right),
        v = n(VEIL_GAP),
        w = n(right - left + 1.0),
        h = n(bottom - top),
    );
    out
}

/// One lane or strip at `y` (height `h`): its name, windows, bars and marks.
fn lane_row(
    out: &mut String,
    lane: &Lane,
    class: &str,
    y: f64,
    h: f64,
    left: f64,
    sx: &dyn Fn(f64) -> f64,
) {
    let _ = write!(
        out,
        r#"<g class="{class}"><text class="plot-tick" x="{}" y="{}" text-anchor="end">{}</text>"#,
        n(left - 5.0),
        n(y + h / 2.0 + 4.0),
        escape(&lane.name)
    );
    let span = |out: &mut String, s: &Span, class: &str, inset: f64| {
        let (x0, x1) = (sx(s.from), sx(s.to.max(s.from)));
        let _ = write!(
            out,
            r#"<rect class="{class} s-{k}" data-series="{k}" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>"#,
            n(x0),
            n(y + inset),
            n((x1 - x0).max(1.5)),
            n((h - 2.0 * inset).max(1.0)),
            escape(&s.tip),
            k = escape(s.key),
        );
    };
    for w in &lane.windows {
        span(out, w, "plot-window", 1.0);
    }
    let inset = if class == "plot-lane" { 6.0 } else { 1.0 };
    for b in &lane.bars {
        span(out, b, "plot-bar", inset);
    }
    // Marks at (nearly) the same time sit side by side rather than on top of each other.
    let mut last = f64::NEG_INFINITY;
    for m in &lane.marks {
        let k = escape(m.key);
        let x = sx(m.at).max(last + MARK_GAP);
        last = x;
        let _ = write!(
            out,
            r#"<g class="plot-mark" data-series="{k}"><title>{}</title>{}</g>"#,
            escape(&m.tip),
            mark_path(m.shape, x, y + h / 2.0, &k)
        );
    }
    out.push_str("</g>");
}

/// A mark's shape centred on `(x, y)`, class `plot-symbol s-<k>` (`k` already escaped).
fn mark_path(shape: Shape, x: f64, y: f64, k: &str) -> String {
    let d = match shape {
        Shape::Diamond => format!("M{} {}l5 5l-5 5l-5 -5z", n(x), n(y - 5.0)),
        Shape::Cross => format!("M{} {}l9 9m0 -9l-9 9", n(x - 4.5), n(y - 4.5)),
        Shape::Tick => format!("M{} {}v18", n(x), n(y - 9.0)),
        Shape::Dot => format!("M{} {}a4 4 0 1 0 8 0a4 4 0 1 0 -8 0z", n(x - 4.0), n(y)),
        Shape::Refused => format!(
            "M{} {}a5 5 0 1 0 10 0a5 5 0 1 0 -10 0m1.5 -3.5l7 7",
            n(x - 5.0),
            n(y)
        ),
    };
    format!(r#"<path class="plot-symbol s-{k}" d="{d}"/>"#)
}

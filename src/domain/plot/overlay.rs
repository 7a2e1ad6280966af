//! The layered chart: over a linear x axis and a y axis from zero, bands (a shaded area
//! between a low and a high line), points with an interval bar (a mean and its confidence
//! interval), lines, and reference rules (a target as a horizontal line, a deadline as a
//! vertical one), each named in the legend. Like the other shapes: classes only, no inline
//! style; every text escaped. The capacity answer's two charts are drawn with it
//! (`domain::capacity::drawn`).
//!
//! Markup added to the shared frame: `<path class="plot-band s-<key>">` per band,
//! `<g class="plot-points s-<key>">` holding per point a `<line class="plot-err">` (the
//! interval, with caps) and a `<circle class="plot-point" data-x data-y>` with a `<title>`;
//! `<line class="plot-rule s-<key>" data-rule="x|y" data-at>` and its label
//! (`<text class="plot-rule-label">`).

use super::canvas::{n, Canvas};
use super::*;

/// A shaded band: `(x, low, high)` in x order; non-finite points are skipped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band<'a> {
    /// Legend text.
    pub name: &'a str,
    /// Series key: class `s-<key>`.
    pub key: &'a str,
    /// `(x, low, high)`.
    pub points: &'a [(f64, f64, f64)],
}

/// Points with an interval: `(x, y, low, high)`; non-finite points are skipped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Points<'a> {
    /// Legend text.
    pub name: &'a str,
    /// Series key: class `s-<key>`.
    pub key: &'a str,
    /// `(x, y, low, high)`.
    pub points: &'a [(f64, f64, f64, f64)],
}

/// Which axis a [`Rule`] marks a value of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleAxis {
    /// A vertical line at an x value (a deadline).
    X,
    /// A horizontal line at a y value (a target).
    Y,
}

/// A reference line across the plot, with its label beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule<'a> {
    /// Legend text and label, e.g. "target 5 s".
    pub name: &'a str,
    /// Series key: class `s-<key>`.
    pub key: &'a str,
    /// The axis it marks.
    pub axis: RuleAxis,
    /// The value it marks (a non-finite value draws nothing).
    pub at: f64,
}

/// What a layered chart draws, back to front: bands, lines, points, rules.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Layers<'a> {
    /// Shaded bands.
    pub bands: &'a [Band<'a>],
    /// Lines (or steps).
    pub lines: &'a [Line<'a>],
    /// Points with intervals.
    pub points: &'a [Points<'a>],
    /// Reference rules.
    pub rules: &'a [Rule<'a>],
    /// The x axis starts at the smallest x rather than at zero (worker counts 45 … 52).
    pub x_from_data: bool,
}

/// The x and y extents of every finite value of `l` (rules included).
fn extents(l: &Layers) -> (f64, f64, f64) {
    let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    let mut see = |x: f64, ys: &[f64]| {
        if x.is_finite() && ys.iter().all(|y| y.is_finite()) {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y1 = ys.iter().copied().fold(y1, f64::max);
        }
    };
    for b in l.bands {
        b.points.iter().for_each(|&(x, lo, hi)| see(x, &[lo, hi]));
    }
    for s in l.lines {
        s.points.iter().for_each(|&(x, y)| see(x, &[y]));
    }
    for p in l.points {
        p.points
            .iter()
            .for_each(|&(x, y, lo, hi)| see(x, &[y, lo, hi]));
    }
    for r in l.rules.iter().filter(|r| r.at.is_finite()) {
        match r.axis {
            RuleAxis::X => {
                x0 = x0.min(r.at);
                x1 = x1.max(r.at);
            }
            RuleAxis::Y => y1 = y1.max(r.at),
        }
    }
    (x0, x1, y1)
}

/// A layered chart (see the module docs). Empty layers draw the axes over `0 … 1` and
/// `frame.empty`.
pub fn layered(frame: &Frame, l: &Layers) -> String {
    let (mut x0, mut x1, mut y1) = extents(l);
    let empty = !x0.is_finite();
    if empty {
        (x0, x1) = (0.0, 1.0);
    }
    if x0 == x1 {
        (x0, x1) = (x0 - 1.0, x1 + 1.0);
    }
    x1 = x1.max(usable(frame.limits.x_hi));
    y1 = y1.max(usable(frame.limits.y_hi));
    let mut legend: Vec<(&str, &str)> = Vec::new();
    legend.extend(l.bands.iter().map(|b| (b.name, b.key)));
    legend.extend(l.lines.iter().map(|s| (s.name, s.key)));
    legend.extend(l.points.iter().map(|p| (p.name, p.key)));
    legend.extend(l.rules.iter().map(|r| (r.name, r.key)));
    let mut c = Canvas::new(frame, &legend, frame.limits.y_ticks(y1), 0.0);
    let lo = if l.x_from_data { x0 } else { x0.min(0.0) };
    let xt = nice_ticks(lo, x1, c.x_intervals());
    c.x_axis_linear(&xt);
    for b in l.bands {
        band(&mut c, &xt, b);
    }
    for s in l.lines {
        line(&mut c, &xt, s);
    }
    for p in l.points {
        points(&mut c, &xt, p);
    }
    for r in l.rules {
        rule(&mut c, &xt, r);
    }
    c.finish(empty)
}

fn band(c: &mut Canvas, xt: &Ticks, b: &Band) {
    let pts: Vec<_> = b
        .points
        .iter()
        .copied()
        .filter(|(x, lo, hi)| x.is_finite() && lo.is_finite() && hi.is_finite())
        .collect();
    if pts.is_empty() {
        return;
    }
    let mut d = String::new();
    for (i, &(x, _, hi)) in pts.iter().enumerate() {
        let _ = write!(
            d,
            "{}{} {}",
            if i == 0 { "M" } else { "L" },
            n(c.sx(xt, x)),
            n(c.sy(hi))
        );
    }
    for &(x, lo, _) in pts.iter().rev() {
        let _ = write!(d, "L{} {}", n(c.sx(xt, x)), n(c.sy(lo)));
    }
    // One point: a thin bar rather than nothing.
    if pts.len() == 1 {
        let (x, lo, hi) = pts[0];
        let px = c.sx(xt, x);
        d = format!(
            "M{} {}H{}V{}H{}Z",
            n(px - 3.0),
            n(c.sy(hi)),
            n(px + 3.0),
            n(c.sy(lo)),
            n(px - 3.0)
        );
    }
    let _ = write!(
        c.out,
        r#"<path class="plot-band s-{k}" data-series="{k}" d="{d}Z"/>"#,
        k = escape(b.key)
    );
}

fn line(c: &mut Canvas, xt: &Ticks, s: &Line) {
    let pts: Vec<_> = s
        .points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    if pts.is_empty() {
        return;
    }
    let mut d = String::new();
    for (i, &(x, y)) in pts.iter().enumerate() {
        let (px, py) = (c.sx(xt, x), c.sy(y));
        let _ = match (i, s.step) {
            (0, _) => write!(d, "M{} {}", n(px), n(py)),
            (_, true) => write!(d, "H{}V{}", n(px), n(py)),
            (_, false) => write!(d, "L{} {}", n(px), n(py)),
        };
    }
    let _ = write!(
        c.out,
        r#"<path class="plot-line s-{k}" data-series="{k}" d="{d}"/>"#,
        k = escape(s.key)
    );
}

fn points(c: &mut Canvas, xt: &Ticks, p: &Points) {
    let _ = write!(
        c.out,
        r#"<g class="plot-points s-{k}" data-series="{k}">"#,
        k = escape(p.key)
    );
    for &(x, y, lo, hi) in p.points {
        if ![x, y, lo, hi].iter().all(|v| v.is_finite()) {
            continue;
        }
        let px = c.sx(xt, x);
        let (ylo, yhi) = (c.sy(lo), c.sy(hi));
        let _ = write!(
            c.out,
            r#"<path class="plot-err" d="M{x} {ylo}V{yhi}M{l} {yhi}H{r}M{l} {ylo}H{r}"/><circle class="plot-point" data-x="{dx}" data-y="{dy}" cx="{x}" cy="{cy}" r="3.5"><title>{name}: {dx} → {dy} ({lo_t}–{hi_t})</title></circle>"#,
            x = n(px),
            l = n(px - 4.0),
            r = n(px + 4.0),
            ylo = n(ylo),
            yhi = n(yhi),
            cy = n(c.sy(y)),
            dx = format_value(x).replace(',', ""),
            dy = format_value(y).replace(',', ""),
            lo_t = format_value(lo),
            hi_t = format_value(hi),
            name = escape(p.name),
        );
    }
    c.out.push_str("</g>");
}

fn rule(c: &mut Canvas, xt: &Ticks, r: &Rule) {
    if !r.at.is_finite() {
        return;
    }
    let k = escape(r.key);
    let label = escape(r.name);
    let at = format_value(r.at).replace(',', "");
    match r.axis {
        RuleAxis::Y => {
            let y = c.sy(r.at);
            let _ = write!(
                c.out,
                r#"<line class="plot-rule s-{k}" data-rule="y" data-at="{at}" x1="{}" x2="{}" y1="{y}" y2="{y}"/><text class="plot-rule-label" x="{}" y="{}" text-anchor="end">{label}</text>"#,
                n(c.left),
                n(c.right),
                n(c.right - 2.0),
                n(c.sy(r.at) - 4.0),
                y = n(y),
            );
        }
        RuleAxis::X => {
            let x = c.sx(xt, r.at);
            let _ = write!(
                c.out,
                r#"<line class="plot-rule s-{k}" data-rule="x" data-at="{at}" x1="{x}" x2="{x}" y1="{}" y2="{}"/><text class="plot-rule-label" x="{}" y="{}" text-anchor="{}">{label}</text>"#,
                n(c.top),
                n(c.bottom),
                n(if x > (c.left + c.right) / 2.0 {
                    x - 4.0
                } else {
                    x + 4.0
                }),
                n(c.top + 12.0),
                if x > (c.left + c.right) / 2.0 {
                    "end"
                } else {
                    "start"
                },
                x = n(x),
            );
        }
    }
}

//! The drawing surface both chart shapes share: the header, legend and y axis ([`Canvas::new`]),
//! the x axes, coordinates and text sizes, and the closing markup.

use super::*;

/// A coordinate with one decimal.
pub(super) fn n(v: f64) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
}

/// Estimated width of `s` at font size `size`: wide (CJK) characters count as 1 em, others
/// as 0.6 em.
pub(super) fn text_width(s: &str, size: f64) -> f64 {
    s.chars()
        .map(|c| if (c as u32) < 0x1100 { 0.6 } else { 1.0 })
        .sum::<f64>()
        * size
}

pub(super) fn axis_title(a: &Axis) -> String {
    if a.unit.is_empty() {
        a.label.to_owned()
    } else {
        format!("{} ({})", a.label, a.unit)
    }
}

pub(super) const FONT: f64 = 11.0;

/// The drawing in progress: the header, legend and y axis are written by [`Canvas::new`]
/// (`room`: extra pixels between the y axis title and the top of the plot, for labels drawn
/// above the data).
pub(super) struct Canvas<'f> {
    pub(super) frame: &'f Frame<'f>,
    pub(super) out: String,
    pub(super) height: f64,
    pub(super) left: f64,
    pub(super) right: f64,
    pub(super) top: f64,
    pub(super) bottom: f64,
    pub(super) y: Ticks,
}

impl<'f> Canvas<'f> {
    pub(super) fn new(
        frame: &'f Frame<'f>,
        legend: &[(&str, &str)],
        y: Ticks,
        room: f64,
    ) -> Canvas<'f> {
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
            // Room for half of the last x tick label (e.g. "50,000").
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

    pub(super) fn plot_w(&self) -> f64 {
        self.right - self.left
    }

    /// About how many x intervals fit without labels colliding.
    pub(super) fn x_intervals(&self) -> usize {
        ((self.plot_w() / 70.0) as usize).clamp(2, 8)
    }

    pub(super) fn sy(&self, v: f64) -> f64 {
        let span = self.y.hi - self.y.lo;
        let f = if span > 0.0 {
            (v - self.y.lo) / span
        } else {
            0.0
        };
        self.bottom - f.clamp(0.0, 1.0) * (self.bottom - self.top)
    }

    pub(super) fn sx(&self, t: &Ticks, v: f64) -> f64 {
        let span = t.hi - t.lo;
        let f = if span > 0.0 { (v - t.lo) / span } else { 0.0 };
        self.left + f.clamp(0.0, 1.0) * self.plot_w()
    }

    pub(super) fn x_title(&mut self) {
        let _ = write!(
            self.out,
            r#"<text class="plot-unit" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            n((self.left + self.right) / 2.0),
            n(self.height - 8.0),
            escape(&axis_title(&self.frame.x))
        );
    }

    pub(super) fn x_axis_linear(&mut self, t: &Ticks) {
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

    pub(super) fn x_axis_categories(&mut self, names: &[String], w: f64) {
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

    pub(super) fn finish(mut self, empty: bool) -> String {
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

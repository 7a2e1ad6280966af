//! Linear scales: "nice" 1-2-5 ticks ([`nice_ticks`]) and the numbers written on ticks and
//! bars ([`format_tick`], [`format_value`]).

use crate::domain::number::group_thousands;

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
/// (`12,000`), otherwise the decimals the step needs (`0.25`, `2.5`), a leading `-` when
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
    let zero = text.bytes().all(|b| matches!(b, b'0' | b'.' | b','));
    if v < 0.0 && !zero {
        format!("-{text}")
    } else {
        text
    }
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

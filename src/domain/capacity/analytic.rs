//! The analytic side of sizing a queue (`brief/CAPACITY.md`, "The formulas"): Erlang B and C,
//! the M/M/c wait percentiles, the Allen–Cunneen two-moment correction for general handler
//! times, square-root staffing, retries' extra load, and the fluid approximation of a burst.
//!
//! Notation: `λ` arrivals per second, `E[S]` the mean handler time in seconds, `c` workers,
//! `a = λ·E[S]` the offered load in Erlangs, `ρ = a / c` the utilisation. Every function
//! returns `None` rather than a number when its assumptions fail (an unstable queue, `ρ ≥ 1`,
//! is an answer — "the queue grows without end" — never a number).

/// Erlang B by the stable recursion `B₀ = 1, Bₖ = a·Bₖ₋₁ / (k + a·Bₖ₋₁)`: the blocking
/// probability of `c` servers offered `a` Erlangs. `None` for `a < 0` or not finite.
pub fn erlang_b(c: u32, a: f64) -> Option<f64> {
    if !(a.is_finite() && a >= 0.0) {
        return None;
    }
    let mut b = 1.0;
    for k in 1..=c {
        b = a * b / (f64::from(k) + a * b);
    }
    Some(b)
}

/// Erlang C, the probability that an arrival waits in an M/M/c queue:
/// `C = c·B / (c − a·(1 − B))` with `B = erlang_b(c, a)`. `None` unless `c ≥ 1`, `a ≥ 0`
/// and `a < c` (stable).
pub fn erlang_c(c: u32, a: f64) -> Option<f64> {
    if c == 0 || !(a.is_finite() && a >= 0.0) || a >= f64::from(c) {
        return None;
    }
    let b = erlang_b(c, a)?;
    let cf = f64::from(c);
    Some(cf * b / (cf - a * (1.0 - b)))
}

/// The M/M/c wait in queue: mean and quantiles, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MmcWait {
    /// Probability of waiting (Erlang C).
    pub p_wait: f64,
    /// The decay rate of the wait's tail, `cμ − λ`, per second: `P(W > t) = C·e^(−(cμ−λ)t)`.
    pub decay_per_s: f64,
}

impl MmcWait {
    /// The M/M/c wait of `c` servers, arrivals `lambda` per second, mean service
    /// `mean_s` seconds. `None` when unstable (`λ·E[S] ≥ c`) or invalid.
    pub fn new(c: u32, lambda: f64, mean_s: f64) -> Option<MmcWait> {
        if !(lambda > 0.0 && mean_s > 0.0 && lambda.is_finite() && mean_s.is_finite()) {
            return None;
        }
        let a = lambda * mean_s;
        let p_wait = erlang_c(c, a)?;
        Some(MmcWait {
            p_wait,
            decay_per_s: f64::from(c) / mean_s - lambda,
        })
    }

    /// Mean wait `W_q = C / (cμ − λ)`, seconds.
    pub fn mean_s(&self) -> f64 {
        self.p_wait / self.decay_per_s
    }

    /// The `p`-quantile of the wait (`0 < p < 1`), seconds: 0 when `C ≤ 1 − p`, else
    /// `ln(C / (1 − p)) / (cμ − λ)`. Exact for Poisson arrivals and exponential service.
    pub fn quantile_s(&self, p: f64) -> f64 {
        if self.p_wait <= 1.0 - p {
            0.0
        } else {
            (self.p_wait / (1.0 - p)).ln() / self.decay_per_s
        }
    }
}

/// `E[attempts]` of a job whose attempts fail independently with probability `p`, at most
/// `m` attempts: `(1 − pᵐ) / (1 − p)` (`m` when `p = 1`).
pub fn expected_attempts(p: f64, m: u32) -> f64 {
    let m = m.max(1);
    if p <= 0.0 {
        1.0
    } else if p >= 1.0 {
        f64::from(m)
    } else {
        (1.0 - p.powi(m as i32)) / (1.0 - p)
    }
}

/// The square-root staffing rule `c = ⌈a + β·√a⌉` (Halfin–Whitt; within one server of the
/// optimum for M/M/c over a wide range, Borst–Mandelbaum–Reiman 2004): the first guess of a
/// search. At least `⌊a⌋ + 1` (stable) and 1.
pub fn square_root_staffing(a: f64, beta: f64) -> u32 {
    if !(a.is_finite() && a > 0.0) {
        return 1;
    }
    let c = (a + beta * a.sqrt()).ceil();
    let stable = a.floor() + 1.0;
    c.max(stable).clamp(1.0, f64::from(u32::MAX)) as u32
}

/// The wait p95 band of a point: `low ..= high` seconds. For exponential handlers both are the
/// exact Erlang C quantile; for others the band spans the M/M/c answer and the Allen–Cunneen
/// two-moment answer (the M/M/c tail scaled by `(C_a² + C_s²) / 2`, Poisson arrivals
/// `C_a² = 1`; a tail `α·e^(−ηx)` in the form of Abate–Choudhury–Whitt 1995, `α = C`, `η`
/// fitted to the Allen–Cunneen mean). No two-moment formula is right for every distribution
/// (Gupta et al. 2010): the simulation is the reference.
pub fn wait_band_s(w: &MmcWait, cs2: f64, p: f64) -> (f64, f64) {
    let exact = w.quantile_s(p);
    let factor = (1.0 + cs2) / 2.0;
    let scaled = exact * factor;
    (exact.min(scaled), exact.max(scaled))
}

/// The fluid approximation of a burst (Jiménez & Koole 2004): `n` jobs at once, or arriving
/// at `burst_rate` per second over `span_s` seconds, on top of background arrivals
/// `lambda`, served at most `ceiling` jobs per second. Returns the seconds from the burst's
/// start until the backlog is gone, or `None` when it never drains (`ceiling ≤ λ`).
///
/// At once: `n / (K − λ)`. Over a span: the backlog grows at `R + λ − K` while the burst lasts
/// (if positive), then drains at `K − λ`: `T + max(0, (R + λ − K)·T) / (K − λ)`.
pub fn fluid_drain_s(n: f64, span_s: f64, lambda: f64, ceiling: f64) -> Option<f64> {
    let spare = ceiling - lambda;
    // NaN is not finite: refused by the second test.
    if spare <= 0.0 || !spare.is_finite() {
        return None;
    }
    if span_s <= 0.0 {
        return Some(n / spare);
    }
    let rate = n / span_s;
    let backlog = ((rate + lambda - ceiling) * span_s).max(0.0);
    Some(span_s + backlog / spare)
}

/// Two-sided Student t quantile for a 95 % interval with `dof` degrees of freedom (tabulated
/// to 30, then the normal 1.96).
pub fn t95(dof: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match dof {
        0 => f64::INFINITY,
        d if d <= 30 => T[d - 1],
        _ => 1.96,
    }
}

/// Mean and 95 % confidence interval (Student t) of `xs`: `(mean, low, high)`; a single value
/// has the interval `[x, x]` (no spread known — the text says how many runs it is from).
pub fn mean_ci95(xs: &[f64]) -> Option<(f64, f64, f64)> {
    let n = xs.len();
    if n == 0 {
        return None;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some((mean, mean, mean));
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t95(n - 1) * (var / n as f64).sqrt();
    Some((mean, mean - half, mean + half))
}

//! Erlang C: the mean wait in queue of an M/M/c system, to check the engine against theory.
//!
//! With arrival rate `λ`, service rate `μ` per server, `c` servers, offered load `a = λ/μ` and
//! utilisation `ρ = a/c < 1`:
//! `C(c, a) = (aᶜ/c!)·(1/(1−ρ)) / (Σₖ₌₀^{c−1} aᵏ/k! + (aᶜ/c!)·(1/(1−ρ)))` is the probability
//! that an arrival waits, and the mean wait is `Wq = C(c, a) / (cμ − λ)`.

/// Probability that an arrival has to wait; `None` unless `0 < λ`, `0 < μ`, `c ≥ 1` and
/// `λ < cμ`.
pub fn erlang_c(c: u32, lambda: f64, mu: f64) -> Option<f64> {
    if c == 0 || !(lambda > 0.0 && mu > 0.0) || lambda >= f64::from(c) * mu {
        return None;
    }
    let a = lambda / mu;
    let rho = a / f64::from(c);
    // Terms aᵏ/k! built iteratively to avoid overflow of the factorial.
    let mut term = 1.0;
    let mut sum = 0.0;
    for k in 0..c {
        sum += term;
        term *= a / f64::from(k + 1);
    }
    let top = term / (1.0 - rho);
    Some(top / (sum + top))
}

/// Mean wait in queue `Wq`, in the time unit of `λ` and `μ`; `None` for an unstable or invalid
/// system.
pub fn mean_wait(c: u32, lambda: f64, mu: f64) -> Option<f64> {
    Some(erlang_c(c, lambda, mu)? / (f64::from(c) * mu - lambda))
}

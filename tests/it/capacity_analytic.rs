//! The capacity answer's formulas against published values: Erlang B and C tables, the M/M/c
//! wait percentile, expected attempts, square-root staffing, the fluid burst, the handler-time
//! moments of a lognormal given by p50 / p95, and Student t intervals.

use modality_advisor::domain::capacity::analytic::{
    erlang_b, erlang_c, expected_attempts, fluid_drain_s, mean_ci95, square_root_staffing,
    wait_band_s, MmcWait,
};
use modality_advisor::domain::sheet::load::HandlerTime;

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} ± {tol}"
    );
}

#[test]
fn erlang_b_matches_the_published_table() {
    // (servers, Erlangs, blocking) from the standard Erlang B table (4 decimals).
    for (c, a, b) in [
        (1, 1.0, 0.5000),
        (5, 2.0, 0.0367),
        (5, 3.0, 0.1101),
        (10, 5.0, 0.0184),
        (10, 10.0, 0.2146),
        (20, 15.0, 0.0456),
    ] {
        close(
            erlang_b(c, a).unwrap_or(f64::NAN),
            b,
            5e-5,
            &format!("B({c}, {a})"),
        );
    }
}

#[test]
fn erlang_c_matches_the_published_values() {
    // (servers, Erlangs, P(wait)): M/M/1 C = ρ; c = 2, a = 1: 1/3; c = 3, a = 2: 4/9; the
    // call-centre textbook case 10 agents, 8 Erlangs: 40.92 %; 5 servers, 4 Erlangs: 55.41 %.
    for (c, a, p) in [
        (1, 0.5, 0.5),
        (2, 1.0, 1.0 / 3.0),
        (3, 2.0, 4.0 / 9.0),
        (10, 8.0, 0.4092),
        (5, 4.0, 0.5541),
    ] {
        close(
            erlang_c(c, a).unwrap_or(f64::NAN),
            p,
            5e-5,
            &format!("C({c}, {a})"),
        );
    }
    // Unstable or empty: no number.
    assert_eq!(erlang_c(3, 3.0), None);
    assert_eq!(erlang_c(0, 0.5), None);
    assert_eq!(erlang_c(2, f64::NAN), None);
}

#[test]
fn mmc_wait_percentiles_follow_the_exponential_tail() {
    // M/M/1, λ 0.5/s, E[S] 1 s: P(W > t) = 0.5·e^(−0.5 t) → p95 = ln(10) / 0.5 = 4.605 s,
    // mean ρ/(μ − λ) = 1 s; the median is 0 (half the arrivals never wait).
    let Some(w) = MmcWait::new(1, 0.5, 1.0) else {
        panic!("stable")
    };
    close(w.quantile_s(0.95), 10f64.ln() / 0.5, 1e-12, "M/M/1 p95");
    close(w.mean_s(), 1.0, 1e-12, "M/M/1 mean");
    assert_eq!(w.quantile_s(0.5), 0.0);
    // The call-centre case: 10 agents, 8 Erlangs, 180 s handle time — the share answered
    // within 20 s is 1 − C·e^(−(cμ−λ)·20) = 67.24 %.
    let Some(w) = MmcWait::new(10, 8.0 / 180.0, 180.0) else {
        panic!("stable")
    };
    let within_20s = 1.0 - w.p_wait * (-(w.decay_per_s) * 20.0).exp();
    close(within_20s, 0.6724, 5e-5, "service level within 20 s");
    // ρ ≥ 1 is no steady state.
    assert_eq!(MmcWait::new(2, 2.0, 1.0), None);
}

#[test]
fn the_band_is_exact_for_exponential_handlers_and_widens_otherwise() {
    let Some(w) = MmcWait::new(3, 2.0, 1.0) else {
        panic!("stable")
    };
    let exact = w.quantile_s(0.95);
    let check = |cs2: f64, lo: f64, hi: f64| {
        let (l, h) = wait_band_s(&w, cs2, 0.95);
        close(l, lo, 1e-12, &format!("low, C_s² {cs2}"));
        close(h, hi, 1e-12, &format!("high, C_s² {cs2}"));
    };
    check(1.0, exact, exact);
    check(0.0, exact / 2.0, exact);
    check(3.0, exact, exact * 2.0);
}

#[test]
fn retries_multiply_the_attempts() {
    for (p, m, want) in [
        (0.0, 5, 1.0),
        (0.5, 1, 1.0),
        (0.5, 2, 1.5),
        (0.1, 5, (1.0 - 0.1f64.powi(5)) / 0.9),
        (1.0, 4, 4.0),
    ] {
        close(
            expected_attempts(p, m),
            want,
            1e-12,
            &format!("p {p}, m {m}"),
        );
    }
}

#[test]
fn square_root_staffing_is_a_stable_first_guess() {
    for (a, want) in [
        (0.0, 1),
        (0.22, 1),
        (4.0, 6),
        (9.0, 12),
        (100.0, 110),
        (3.0, 5),
    ] {
        assert_eq!(square_root_staffing(a, 1.0), want, "a = {a}");
    }
}

#[test]
fn the_fluid_burst_drains_over_the_spare_capacity() {
    // 500 at once over 10/s with nothing else: 50 s; with 2/s in the background: 62.5 s.
    close(
        fluid_drain_s(500.0, 0.0, 0.0, 10.0).unwrap_or(f64::NAN),
        50.0,
        1e-12,
        "at once",
    );
    close(
        fluid_drain_s(500.0, 0.0, 2.0, 10.0).unwrap_or(f64::NAN),
        62.5,
        1e-12,
        "with background",
    );
    // 30/s for 10 s (300 jobs) over 10/s: 200 left at 10 s, drained 20 s later.
    close(
        fluid_drain_s(300.0, 10.0, 0.0, 10.0).unwrap_or(f64::NAN),
        30.0,
        1e-12,
        "over a span",
    );
    // Below the capacity: drained when the burst ends.
    close(
        fluid_drain_s(50.0, 10.0, 0.0, 10.0).unwrap_or(f64::NAN),
        10.0,
        1e-12,
        "under capacity",
    );
    assert_eq!(fluid_drain_s(500.0, 0.0, 10.0, 10.0), None, "never drains");
}

#[test]
fn lognormal_moments_from_p50_and_p95() {
    // σ = ln(1000/200)/1.6449 = 0.97846; mean = 200·e^(σ²/2) = 322.8 ms; C_s² = e^(σ²) − 1.
    let h = HandlerTime::Lognormal {
        p50_ms: 200,
        p95_ms: 1_000,
    };
    let s = (5f64).ln() / 1.644_853_626_951_472_2;
    close(h.mean_ms(), 200.0 * (s * s / 2.0).exp(), 1e-9, "mean");
    close(h.cs2(), (s * s).exp() - 1.0, 1e-12, "C_s²");
    close(h.quantile_ms(0.95), 1_000.0, 1e-9, "p95");
    close(h.quantile_ms(0.5), 200.0, 1e-9, "p50");
    close(
        h.quantile_ms(0.999),
        200.0 * (3.090_232_306_167_813_5 * s).exp(),
        1e-9,
        "p99.9",
    );
    // The rational approximation for other levels agrees with the tabled ones.
    close(
        h.quantile_ms(0.9),
        200.0 * (1.281_551_565_545 * s).exp(),
        1e-4,
        "p90",
    );
    let e = HandlerTime::Exponential { mean_ms: 100 };
    close(
        e.quantile_ms(0.95),
        100.0 * 20f64.ln(),
        1e-9,
        "exponential p95",
    );
    assert_eq!(HandlerTime::Fixed { ms: 70 }.cs2(), 0.0);
}

#[test]
fn confidence_intervals_use_student_t() {
    // Four values 1, 2, 3, 4: mean 2.5, s = 1.29099, t(3) = 3.182 → ± 2.054.
    let Some((m, lo, hi)) = mean_ci95(&[1.0, 2.0, 3.0, 4.0]) else {
        panic!("values")
    };
    close(m, 2.5, 1e-12, "mean");
    close(
        hi - m,
        3.182 * (5.0f64 / 3.0).sqrt() / 2.0,
        1e-9,
        "half width",
    );
    close(m - lo, hi - m, 1e-12, "symmetric");
    assert_eq!(mean_ci95(&[]), None);
    assert_eq!(mean_ci95(&[7.0]), Some((7.0, 7.0, 7.0)));
}

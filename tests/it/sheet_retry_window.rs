//! The retry window against hand-computed values (AWS "Exponential Backoff And Jitter",
//! docs/DOMAIN.md §5). Units: ms.

use modality_advisor::domain::sheet::retry_window::retry_window;
use modality_advisor::domain::sheet::{BackoffKind, BackoffPolicy, Jitter};

/// `(kind, base, cap, jitter)`, attempts, timeout → per-wait `(min, max)`, total
/// `(min, expected, max)`, worst case.
#[allow(clippy::type_complexity)]
fn check(
    (kind, base_ms, cap_ms, jitter): (BackoffKind, u64, u64, Jitter),
    attempts: u32,
    timeout_ms: u64,
    waits: &[(f64, f64)],
    total: (f64, f64, f64),
    worst: f64,
) {
    let policy = BackoffPolicy {
        kind,
        base_ms,
        cap_ms,
        jitter,
    };
    let w = retry_window(&policy, attempts, timeout_ms);
    let got: Vec<(f64, f64)> = w.waits.iter().map(|x| (x.min_ms, x.max_ms)).collect();
    assert_eq!(got, waits, "{policy:?} × {attempts}");
    let t = (
        w.total_wait.min_ms,
        w.total_wait.expected_ms,
        w.total_wait.max_ms,
    );
    assert!(
        (t.0 - total.0).abs() < 1e-6
            && (t.1 - total.1).abs() < 1e-6
            && (t.2 - total.2).abs() < 1e-6,
        "{policy:?} × {attempts}: total {t:?}, want {total:?}"
    );
    assert_eq!(w.attempts_ms, timeout_ms as f64 * f64::from(attempts));
    assert_eq!(w.worst_case_ms, worst, "{policy:?} × {attempts}");
}

use BackoffKind::{Exponential as Exp, Fixed};
use Jitter::{Decorrelated, Equal, Full, None as NoJitter};

#[test]
fn hand_computed_windows() {
    // Fixed 1 s, 4 attempts of 100 ms: 3 waits of 1 s; 3 000 + 400.
    check(
        (Fixed, 1_000, 1_000, NoJitter),
        4,
        100,
        &[(1e3, 1e3); 3],
        (3e3, 3e3, 3e3),
        3_400.0,
    );
    // Exponential, no jitter: 1, 2, 4, 8 s = 15 s; + 5 × 1 s.
    check(
        (Exp, 1_000, 100_000, NoJitter),
        5,
        1_000,
        &[(1e3, 1e3), (2e3, 2e3), (4e3, 4e3), (8e3, 8e3)],
        (15e3, 15e3, 15e3),
        20_000.0,
    );
    // The cap binds: 1, 2, 3, 3 s.
    check(
        (Exp, 1_000, 3_000, NoJitter),
        5,
        0,
        &[(1e3, 1e3), (2e3, 2e3), (3e3, 3e3), (3e3, 3e3)],
        (9e3, 9e3, 9e3),
        9_000.0,
    );
    // The seed: 10 s doubling, cap 10 min, full jitter: waits U(0, 10|20|40|80 s);
    // expected 75 s, max 150 s; worst 150 s + 5 × 30 s = 300 s.
    check(
        (Exp, 10_000, 600_000, Full),
        5,
        30_000,
        &[(0.0, 10e3), (0.0, 20e3), (0.0, 40e3), (0.0, 80e3)],
        (0.0, 75e3, 150e3),
        300_000.0,
    );
    // Full jitter with the cap binding: t = 1, 2, 2 s.
    check(
        (Exp, 1_000, 2_000, Full),
        4,
        0,
        &[(0.0, 1e3), (0.0, 2e3), (0.0, 2e3)],
        (0.0, 2_500.0, 5e3),
        5_000.0,
    );
    // Equal jitter: t/2 + U(0, t/2) for t = 1, 2 s → [0.5, 1] + [1, 2]; expected 0.75 + 1.5.
    check(
        (Exp, 1_000, 100_000, Equal),
        3,
        0,
        &[(500.0, 1e3), (1e3, 2e3)],
        (1_500.0, 2_250.0, 3_000.0),
        3_000.0,
    );
    // Decorrelated: min(cap, U(base, 3·prev)), prev from base 1 s, cap 10 s:
    // U(1, 3) → E 2; U(1, 9) mean-field from E 2 → U(1, 6) → E 3.5;
    // then U(1, 10.5) capped at 10 → (9·11/2 + 0.5·10) / 9.5 = 54.5 / 9.5 s.
    check(
        (Exp, 1_000, 10_000, Decorrelated),
        4,
        0,
        &[(1e3, 3e3), (1e3, 9e3), (1e3, 10e3)],
        (3e3, 2_000.0 + 3_500.0 + 54_500_000.0 / 9_500.0, 22e3),
        22_000.0,
    );
    // One attempt: no waits at all, only the attempt.
    check(
        (Exp, 10_000, 600_000, Full),
        1,
        30_000,
        &[],
        (0.0, 0.0, 0.0),
        30_000.0,
    );
    check((Fixed, 5, 5, Decorrelated), 1, 7, &[], (0.0, 0.0, 0.0), 7.0);
}

fn poly(exponent: u32, first_n: u32) -> BackoffKind {
    BackoffKind::Polynomial(modality_advisor::domain::sheet::Polynomial { exponent, first_n })
}

const S: f64 = 1_000.0;
const DAY_MS: u64 = 86_400_000;

/// Polynomial backoff, `base + (r + first_n)^k` s (brief/QUEUES.md §4, §9, §7), before the
/// targets' own jitter: Sidekiq-like `15 s + c⁴` from c = 0, Active Job `2 s + n⁴` from n = 1,
/// River `n⁴` from n = 1 (base 0).
#[test]
fn polynomial_backoff_matches_the_systems_formulas() {
    // Sidekiq-like: 15, 16, 31, 96, 271 s; 6 attempts of 10 s.
    let sidekiq = (poly(4, 0), 15_000, 30 * DAY_MS, Jitter::None);
    let waits = [15.0 * S, 16.0 * S, 31.0 * S, 96.0 * S, 271.0 * S];
    check(
        sidekiq,
        6,
        10_000,
        &waits.map(|w| (w, w)),
        (429.0 * S, 429.0 * S, 429.0 * S),
        429.0 * S + 60.0 * S,
    );
    // Sidekiq's default 25 retries: Σ_{c=0}^{24} (c⁴ + 15) = 1 763 020 + 375 s ≈ 20.4 days.
    let policy = BackoffPolicy {
        kind: poly(4, 0),
        base_ms: 15_000,
        cap_ms: 30 * DAY_MS,
        jitter: Jitter::None,
    };
    let w = retry_window(&policy, 26, 1);
    assert_eq!(w.total_wait.max_ms, 1_763_395.0 * S);
    // Active Job :polynomially_longer: 3, 18, 83, 258 s.
    let active_job = (poly(4, 1), 2_000, 30 * DAY_MS, Jitter::None);
    let waits = [3.0 * S, 18.0 * S, 83.0 * S, 258.0 * S];
    check(
        active_job,
        5,
        1_000,
        &waits.map(|w| (w, w)),
        (362.0 * S, 362.0 * S, 362.0 * S),
        362.0 * S + 5.0 * S,
    );
    // River: 1, 16, 81 s (nothing added).
    let river = (poly(4, 1), 0, 30 * DAY_MS, Jitter::None);
    let waits = [S, 16.0 * S, 81.0 * S];
    check(
        river,
        4,
        1_000,
        &waits.map(|w| (w, w)),
        (98.0 * S, 98.0 * S, 98.0 * S),
        98.0 * S + 4.0 * S,
    );
    // The cap holds: Active Job capped at 60 s → 3, 18, 60, 60 s.
    let waits = [3.0 * S, 18.0 * S, 60.0 * S, 60.0 * S];
    check(
        (poly(4, 1), 2_000, 60_000, Jitter::None),
        5,
        1_000,
        &waits.map(|w| (w, w)),
        (141.0 * S, 141.0 * S, 141.0 * S),
        146.0 * S,
    );
    // Squares (k = 2) from 0: 0 + 1 s, 1 + 1 s, 4 + 1 s.
    let waits = [S, 2.0 * S, 5.0 * S];
    check(
        (poly(2, 0), 1_000, DAY_MS, Jitter::None),
        4,
        0,
        &waits.map(|w| (w, w)),
        (8.0 * S, 8.0 * S, 8.0 * S),
        8.0 * S,
    );
}

/// Jitter applies to a polynomial wait as to an exponential one: full U(0, t), equal
/// t/2 + U(0, t/2); decorrelated grows from the base by its own rule whatever the kind.
#[test]
fn jitter_kinds_with_polynomial_backoff() {
    let t = [3.0 * S, 18.0 * S, 83.0 * S];
    check(
        (poly(4, 1), 2_000, DAY_MS, Jitter::Full),
        4,
        0,
        &t.map(|w| (0.0, w)),
        (0.0, 52.0 * S, 104.0 * S),
        104.0 * S,
    );
    check(
        (poly(4, 1), 2_000, DAY_MS, Jitter::Equal),
        4,
        0,
        &t.map(|w| (w / 2.0, w)),
        (52.0 * S, 78.0 * S, 104.0 * S),
        104.0 * S,
    );
    let exponential = BackoffPolicy {
        kind: BackoffKind::Exponential,
        base_ms: 2_000,
        cap_ms: DAY_MS,
        jitter: Jitter::Decorrelated,
    };
    let polynomial = BackoffPolicy {
        kind: poly(4, 1),
        ..exponential
    };
    assert_eq!(
        retry_window(&polynomial, 5, 1_000),
        retry_window(&exponential, 5, 1_000)
    );
}

//! M/M/c without failures against Erlang C: the simulated mean wait lies inside the 95 %
//! confidence interval (batch means) of the simulation, around the theoretical value.

use modality_advisor::domain::sim::reference::erlang::{erlang_c, mean_wait, MmcModel};
use modality_advisor::domain::sim::Simulation;

/// Batch-means 95 % CI of the mean wait (seconds): drops the first 5 % as warm-up and splits
/// the rest, in arrival order, into 20 batches.
fn mean_wait_ci(model: MmcModel) -> (f64, f64, f64) {
    let Ok(mut sim) = Simulation::new(model.config()) else {
        panic!("valid model");
    };
    sim.run();
    let waits: Vec<f64> = sim
        .waits()
        .into_iter()
        .flatten()
        .map(|d| d.as_micros() as f64 / 1e6)
        .collect();
    assert_eq!(waits.len() as u64, model.jobs, "every job claimed");
    let rest = &waits[waits.len() / 20..];
    let k = 20;
    let size = rest.len() / k;
    let means: Vec<f64> = (0..k)
        .map(|i| rest[i * size..(i + 1) * size].iter().sum::<f64>() / size as f64)
        .collect();
    let m = means.iter().sum::<f64>() / k as f64;
    let var = means.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (k - 1) as f64;
    let half = 2.093 * (var / k as f64).sqrt(); // t(0.975, 19)
    (m, m - half, m + half)
}

fn check(servers: u32, lambda: f64, mu: f64, jobs: u64, seed: u64) {
    let model = MmcModel {
        servers,
        lambda_per_s: lambda,
        mu_per_s: mu,
        jobs,
        failure_p: 0.0,
        retry_base_ms: 0,
        seed,
    };
    let Some(theory) = mean_wait(servers, lambda, mu) else {
        panic!("stable system");
    };
    let (m, lo, hi) = mean_wait_ci(model);
    assert!(
        lo <= theory && theory <= hi,
        "c={servers} λ={lambda} μ={mu}: Erlang C Wq = {theory:.4}, simulated {m:.4} in [{lo:.4}, {hi:.4}]"
    );
}

#[test]
fn erlang_c_formula_known_values() {
    // M/M/1: P(wait) = ρ and Wq = ρ/(μ−λ).
    let c1 = erlang_c(1, 0.5, 1.0).unwrap_or(f64::NAN);
    assert!((c1 - 0.5).abs() < 1e-12);
    // c = 3, a = 2: C = (8/6·3)/(1 + 2 + 2 + 8/6·3) = 4/9; Wq = (4/9)/(0.3 − 0.2) = 4.444… s.
    let w = mean_wait(3, 0.2, 0.1).unwrap_or(f64::NAN);
    assert!((w - 40.0 / 9.0).abs() < 1e-9, "{w}");
    assert_eq!(mean_wait(2, 2.0, 1.0), None, "ρ = 1 is unstable");
    assert_eq!(mean_wait(0, 1.0, 1.0), None);
}

#[test]
fn mmc_c3_lambda_02_mu_01() {
    check(3, 0.2, 0.1, 100_000, 1);
}

#[test]
fn mm1_lambda_05_mu_1() {
    check(1, 0.5, 1.0, 100_000, 2);
}

#[test]
fn mmc_c5_lambda_4_mu_1() {
    check(5, 4.0, 1.0, 100_000, 3);
}

#[test]
fn mmc_c2_lambda_1_mu_1() {
    check(2, 1.0, 1.0, 100_000, 4);
}

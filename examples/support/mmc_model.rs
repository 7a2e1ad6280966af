//! The benchmark model's parameters and draws, shared by the single-purpose reference loops
//! (`mmc_bare.rs`, `mmc_table_floor.rs`): the same as `MmcModel::bench` in
//! src/domain/sim/erlang.rs, written out.

use rand_distr::{Distribution, Exp1};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Workers (c).
pub const WORKERS: usize = 3;
/// Mean gap between arrivals, µs (λ = 20/s).
pub const MEAN_GAP_US: f64 = 50_000.0;
/// Mean run time, µs (μ = 10/s per worker).
pub const MEAN_RUN_US: f64 = 100_000.0;
/// Probability that a run fails.
pub const FAIL_P: f64 = 0.1;
/// Attempts per job, the first included.
pub const MAX_ATTEMPTS: u32 = 5;
/// First retry wait's cap, µs (full jitter: `U(0, min(CAP, BASE · 2ⁿ))`).
pub const BASE_US: u64 = 50_000;
/// Largest retry wait, µs.
pub const CAP_US: u64 = 1_500_000;

/// An exponential draw with mean `mean` µs, rounded to whole µs.
pub fn exp_us(rng: &mut Xoshiro256PlusPlus, mean: f64) -> u64 {
    let x: f64 = Exp1.sample(rng);
    (x * mean + 0.5) as u64
}

/// The job count from the first command-line argument (default 10⁶).
pub fn jobs_arg() -> u64 {
    std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000)
}

//! The run's only source of randomness: a seeded Xoshiro256++ generator.
//!
//! `rand_xoshiro::Xoshiro256PlusPlus` (the rust-random project's; the algorithm behind
//! `rand`'s `SmallRng` on 64-bit targets, named here so that wasm32 gets the same one) with
//! `rand` default features off: no OS entropy, no thread-local generator, identical streams
//! natively and in wasm32, seeded through SplitMix64 (`seed_from_u64`). Draws are `u64` or
//! `f64`, never `usize` (32 bits in wasm). Normal draws use `rand_distr` without `std_math`,
//! so the math comes from `libm` and is bit-identical on every target.
//!
//! Why not `rand_pcg`'s `Pcg64Mcg` (the first choice, used until 2026-11-30): its 128-bit
//! multiply is one instruction natively but a call to `__multi3` (four 32-bit partial
//! products) in wasm32, which has no wide multiply; Xoshiro256++ is shifts, rotations and
//! 64-bit adds on both. Same native speed, 8 % less time for the whole benchmark model in
//! wasm (bench/RESULTS.md). Changing the generator changed every seeded run's numbers (not
//! the source documents' four deterministic runs, which draw nothing).

use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Exp1, Normal};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded random number generator. Same seed ⇒ same sequence of draws.
#[derive(Debug, Clone)]
pub struct SimRng(Xoshiro256PlusPlus, ExpScales);

/// The two latest exponential means (as bits) and their scale factors `1 / (1 / mean)`: a run
/// alternates between few means (arrival gaps, run times), and the two divisions per draw
/// were a measurable share of the benchmark. Pure memo: draws are unchanged.
#[derive(Debug, Clone, Copy)]
struct ExpScales([(u64, f64); 2]);

impl SimRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SimRng {
        // NaN bits: never a valid mean, so the memo starts empty.
        SimRng(
            Xoshiro256PlusPlus::seed_from_u64(seed),
            ExpScales([(u64::MAX, f64::NAN); 2]),
        )
    }

    /// `1 / (1 / mean)`, exactly as `Exp::new(1 / mean)` computes its scale.
    fn exp_scale(&mut self, mean: f64) -> f64 {
        let bits = mean.to_bits();
        let memo = &mut (self.1).0;
        if memo[0].0 == bits {
            return memo[0].1;
        }
        if memo[1].0 == bits {
            return memo[1].1;
        }
        let scale = 1.0 / (1.0 / mean);
        memo[1] = memo[0];
        memo[0] = (bits, scale);
        scale
    }

    /// A uniform integer in `lo..=hi` (returns `lo` when `hi < lo`).
    pub fn uniform_u64(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            lo
        } else {
            self.0.random_range(lo..=hi)
        }
    }

    /// A uniform float in `[0, 1)`.
    #[inline(always)]
    pub fn unit(&mut self) -> f64 {
        self.0.random::<f64>()
    }

    /// `true` with probability `p` (clamped to `[0, 1]`; NaN counts as 0).
    #[inline(always)]
    pub fn chance(&mut self, p: f64) -> bool {
        if p.is_nan() || p <= 0.0 {
            false
        } else if p >= 1.0 {
            true
        } else {
            self.unit() < p
        }
    }

    /// An exponential draw with the given mean (0 for a non-positive or non-finite mean).
    ///
    /// The same draw as `rand_distr::Exp::new(1 / mean)` (an `Exp1` draw times
    /// `1 / (1 / mean)`), with the scale memoised.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        if !(mean.is_finite() && mean > 0.0) {
            return 0.0;
        }
        let scale = self.exp_scale(mean);
        let x: f64 = Exp1.sample(&mut self.0);
        x * scale
    }

    /// An exponential draw with a scale computed once ([`ExpScale::of_mean`]): the same bits as
    /// [`SimRng::exponential`] with that mean, without the checks and the memo lookup.
    #[inline]
    pub fn exponential_with(&mut self, scale: ExpScale) -> f64 {
        match scale.0 {
            Some(scale) => {
                let x: f64 = Exp1.sample(&mut self.0);
                x * scale
            }
            None => 0.0,
        }
    }

    /// A normal draw `N(mean, sd)` (returns `mean` for an invalid `sd`).
    pub fn normal(&mut self, mean: f64, sd: f64) -> f64 {
        match Normal::new(mean, sd) {
            Ok(d) => d.sample(&mut self.0),
            Err(_) => mean,
        }
    }
}

/// Converts a non-negative float count of microseconds to an integer, rounding to nearest
/// and saturating (NaN and negatives become 0).
#[inline]
pub fn round_us(x: f64) -> u64 {
    // Below 2⁶² (≈ 146 000 years of µs) the signed conversion is one instruction and gives
    // the same integer as the unsigned one, which x86 has to emulate.
    const SIGNED_OK: f64 = 4_611_686_018_427_387_904.0;
    if x > 0.0 && x < SIGNED_OK {
        (x + 0.5) as i64 as u64
    } else if x >= u64::MAX as f64 {
        u64::MAX
    } else if x > 0.0 {
        (x + 0.5) as u64
    } else {
        // NaN and negatives.
        0
    }
}

impl SimRng {
    /// A lognormal draw `exp(N(mu, sigma))`, with `libm`'s `exp` so that native and wasm
    /// runs agree bit for bit.
    pub fn lognormal(&mut self, mu: f64, sigma: f64) -> f64 {
        libm::exp(self.normal(mu, sigma))
    }
}

/// The scale of an exponential distribution, computed once for [`SimRng::exponential_with`]:
/// `1 / (1 / mean)`, exactly as `rand_distr::Exp::new(1 / mean)` computes it; `None` (draws
/// are 0) for a non-positive or non-finite mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpScale(Option<f64>);

impl ExpScale {
    /// The scale for draws with mean `mean` (any unit; draws come out in that unit).
    pub fn of_mean(mean: f64) -> ExpScale {
        ExpScale((mean.is_finite() && mean > 0.0).then(|| 1.0 / (1.0 / mean)))
    }
}

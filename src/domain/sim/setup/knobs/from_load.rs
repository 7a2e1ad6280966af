//! "Your settings" from the sheet's "Load and capacity" section (schema 3): one number,
//! entered once — what the sheet says of the load reaches the simulator's knobs.

use super::{ArrivalMode, CustomRun, DurationMode, FailureMode, Knob};
use crate::domain::lang::Lang;
use crate::domain::sheet::load::LoadSpec;
use crate::text::t;

impl CustomRun {
    /// These settings with the numbers of the sheet's "Load and capacity" section where it
    /// gives them (one number, entered once): the handler time, the workers (processes × jobs
    /// at once), the failure rate, the arrivals (a burst at once, else the arrival rate when
    /// it is at least 1/s) and the downstream's rate limit with its burst allowance and its
    /// concurrency (none stated: no limit; no call time added to the handler's, as in the
    /// capacity sweep, `domain::capacity::runs`), and our own limiter (`our_limit`: the workers
    /// pace their calls, [`CustomRun::our_limit_per_s`]; at least 1 call/s, rounded down to
    /// whole calls per second so the run never calls faster than the sheet allows — see
    /// [`our_limit_reason`]). Each brought into its knob's range; what the section leaves out
    /// keeps the knob's default.
    pub fn with_load(mut self, load: Option<&LoadSpec>) -> CustomRun {
        use crate::domain::sheet::load::{Burst, HandlerTime};
        use crate::domain::sim::setup::limits as lim;
        let Some(l) = load else { return self };
        match l.handler {
            Some(HandlerTime::Lognormal { p50_ms, p95_ms }) => {
                self.duration = DurationMode::Lognormal;
                self.duration_ms = p50_ms;
                self.duration_hi_ms = p95_ms;
            }
            Some(HandlerTime::Fixed { ms }) => {
                self.duration = DurationMode::Fixed;
                self.duration_ms = ms;
            }
            Some(HandlerTime::Exponential { mean_ms }) => {
                self.duration = DurationMode::Exponential;
                self.duration_ms = mean_ms;
            }
            None => {}
        }
        if let Some(slots) = l.slots() {
            self.workers = slots.clamp(1, lim::KNOB_WORKERS as u32);
        }
        if let Some(bp) = l.failure_bp {
            self.failure = FailureMode::Probability;
            self.failure_percent = u64::from(bp.div_ceil(100)).min(99);
        }
        match (l.burst, l.sizing_rate_per_s()) {
            (Some(Burst::AtOnce { count }), _) => {
                self.arrivals = ArrivalMode::Burst;
                self.jobs = count.clamp(1, lim::MAX_CUSTOM_JOBS);
                self.burst_at_ms = 0;
            }
            (_, Some(r)) if r >= 1.0 => {
                self.arrivals = ArrivalMode::Poisson;
                self.rate_per_s = r.round() as u64;
            }
            _ => {}
        }
        let d = &l.downstream;
        let rate = d.rate.map(|r| r.per_s()).filter(|&r| r >= 1.0);
        let concurrency = d.concurrency.or(d.exclusive_lock.then_some(1));
        let ours = our_limit_knob(l);
        if rate.is_some() || concurrency.is_some() || ours.is_some() {
            // The downstream the sheet describes, as the capacity sweep models it: its
            // concurrency only where the sheet states one (0: no limit — not the knob's default
            // of 1, which answered "busy" to every second call), and no call time on top of the
            // handler's, which is the whole time of one job.
            self.downstream = true;
            self.capacity = concurrency.map_or(0, u64::from);
            self.call_ms = 0;
        }
        if let Some(r) = rate {
            self.rate_limit_per_s = r.round() as u64;
            self.rate_limit_burst = d.rate_burst.map(u64::from);
        }
        // The limiter paces the downstream calls, so it comes with the downstream above.
        self.our_limit_per_s = ours;
        self
    }
}

/// The "Our limiter" knob's value for a sheet's `our_limit`: whole calls per second, rounded
/// down (never faster than the sheet allows) and brought into the knob's range; `None` when
/// the sheet states no limiter or one slower than 1 call/s, the least the knob holds.
fn our_limit_knob(l: &LoadSpec) -> Option<u64> {
    let max = Knob::OurLimit.range().map_or(1, |r| r.2);
    let r = l.our_limit?.per_s();
    (r >= 1.0).then(|| (r.floor() as u64).min(max))
}

/// Why "Our limiter" holds what it holds when the sheet's "Load and capacity" section states
/// a limiter (`None` when it states none), in `lang`: e.g. "From the sheet's Load and
/// capacity: the workers pace themselves at 10/s (all together)."; a rate that is not a whole
/// number of calls per second says it was rounded down, one slower than 1 call/s that the
/// field stays empty (the run does not pace).
pub fn our_limit_reason(load: Option<&LoadSpec>, lang: Lang) -> Option<String> {
    let l = load?;
    let rate = l.our_limit?;
    let stated = crate::domain::sheet::load_text::our_limit_text(Some(rate), lang);
    let key = match our_limit_knob(l) {
        None => "knobs.our-limit.too-slow",
        Some(v) if (v as f64 - rate.per_s()).abs() > 1e-9 => "knobs.our-limit.rounded",
        Some(_) => "knobs.our-limit.from-sheet",
    };
    Some(t!(key, locale = lang.code(), stated = stated).into_owned())
}

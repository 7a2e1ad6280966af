//! "Your settings" in words: what one run takes and what the downstream's rate limit lets
//! through, in the settings' own numbers, so the page never hides a default.

use super::*;

impl CustomRun {
    /// The handler time of each run in words, e.g. "lognormal, p50 200 ms, p95 1 s" or
    /// "none (0 ms)": what the page shows beside the downstream's call so that the time a run
    /// takes is never a hidden default.
    pub fn handler_time(&self, lang: Lang) -> String {
        let l = lang.code();
        let ms = |v: u64| exact(v, lang);
        let (a, b) = (ms(self.duration_ms), ms(self.duration_hi_ms));
        match self.duration {
            DurationMode::None => t!("knobs.handler.none", locale = l).into_owned(),
            DurationMode::Fixed if self.duration_ms == 0 => {
                t!("knobs.handler.none", locale = l).into_owned()
            }
            DurationMode::Fixed => t!("knobs.handler.fixed", locale = l, a = a).into_owned(),
            DurationMode::Uniform => {
                t!("knobs.handler.uniform", locale = l, a = a, b = b).into_owned()
            }
            DurationMode::Exponential => {
                t!("knobs.handler.exponential", locale = l, a = a).into_owned()
            }
            DurationMode::Lognormal => {
                t!("knobs.handler.lognormal", locale = l, a = a, b = b).into_owned()
            }
        }
    }

    /// What one run takes with a downstream, in words: the handler time and then the call,
    /// e.g. "Each run: handler time (lognormal, p50 200 ms, p95 1 s), then the call (300 ms)."
    /// `None` without a downstream.
    pub fn run_time(&self, lang: Lang) -> Option<String> {
        self.downstream.then(|| {
            t!(
                "knobs.handler.run",
                locale = lang.code(),
                handler = self.handler_time(lang),
                call = exact(self.call_ms, lang)
            )
            .into_owned()
        })
    }

    /// The rate limit in words when there is one: the rate, the burst and the most calls
    /// that can pass in one second after an idle spell (`burst + rate`).
    pub fn rate_limit_text(&self, lang: Lang) -> Option<String> {
        (self.downstream && self.rate_limit_per_s > 0).then(|| {
            t!(
                "knobs.rate-burst.note",
                locale = lang.code(),
                rate = group_thousands(self.rate_limit_per_s),
                burst = group_thousands(self.burst()),
                most = group_thousands(self.burst().saturating_add(self.rate_limit_per_s))
            )
            .into_owned()
        })
    }
}

//! The capacity answer for scripts: the JSON that `modality-advisor size --format json`
//! documents (numbers plain, reasons in the run's language).

use super::SizeAnswer;
use crate::domain::lang::Lang;
use serde_json::{json, Value};

impl SizeAnswer {
    /// The answer for scripts: the documented JSON (`size --format json`): `recommendation`
    /// (`workers` or null, `reason` in `lang`, `reason_id`), `bottleneck`, `points`,
    /// `analytic`, `lease_ms`, `offered_load`, `utilisation` and the rest of the answer.
    pub fn to_json(&self, lang: Lang) -> Value {
        let points: Vec<Value> = self
            .points
            .iter()
            .map(|p| {
                json!({
                    "workers": p.workers,
                    "stable": p.stable,
                    "runs": p.runs,
                    "wait_ms": p.wait_ms.map(|w| json!({"p50": w.p50, "p95": w.p95, "p99": w.p99})),
                    "wait_p95_ci_ms": p.wait_p95_ci_ms,
                    "latency_p95_ms": p.latency_p95_ms,
                    "overlapping_runs": p.overlapping_runs,
                    "dead_jobs": p.dead_jobs,
                    "refused_calls": p.refused_calls,
                    "little": p.little_l.map(|l| json!({"l": l, "lambda_w": p.little_lambda_w})),
                    // Always written, so a script tells "no burst" (null, 0) from a missing
                    // field: the drain figures are null and the burst's counters 0 without one.
                    "drain_ms": p.drain_ms,
                    "drain_ci_ms": p.drain_ci_ms,
                    "undrained_runs": p.undrained_runs,
                    "burst_dead_jobs": p.burst_dead_jobs,
                })
            })
            .collect();
        let analytic: Vec<Value> = self
            .analytic
            .iter()
            .map(|a| {
                json!({
                    "workers": a.workers,
                    "wait_p95_ms": a.wait_p95_ms.map(|b| json!({"low": b.low, "high": b.high})),
                    "utilisation": a.utilisation,
                    "stable": a.stable,
                    "ceiling_per_s": a.ceiling_per_s,
                    "bottleneck": a.bottleneck.id(),
                    "drain_ms": a.drain_ms,
                })
            })
            .collect();
        json!({
            "recommendation": {
                "workers": self.recommendation.workers,
                "reason": self.reason_text(lang),
                "reason_id": self.recommendation.reason,
            },
            "bottleneck": self.bottleneck.id(),
            "throughput_ceiling_per_s": self.throughput_ceiling_per_s,
            "points": points,
            "analytic": analytic,
            "analytic_recommendation": self.analytic_recommendation,
            "first_guess": self.first_guess,
            "lease_ms": self.lease.recommended_ms,
            "lease": self.lease,
            "offered_load": self.offered_load,
            "expected_attempts": self.expected_attempts,
            "utilisation": self.utilisation,
            "drain_floor_ms": self.drain_floor_ms,
            "input": self.input,
            "seeds": self.seeds,
            "seed": self.seed,
            "jobs_per_run": self.jobs_per_run,
            "run_lease_ms": self.run_lease_ms,
        })
    }
}

//! A handler that outlives its lease and then fails: the source documents' `release` decides from the
//! attempt number the worker claimed with, not the row's, so its late release puts the row
//! back to `queued` although another worker has since reclaimed it with the last attempt — and
//! the job runs a third time with `max_attempts` 2. The engine reproduces the source documents' semantics
//! (docs/DOMAIN.md §2); this is why handlers must be idempotent and leases longer than the handler.
//! Found by the property test in sim_props.rs (seed 4391738752589779663, shrunk).

use modality_advisor::domain::sim::{
    Arrivals, BackoffPolicy, ClaimStrategy, Downstream, DurationDist, ErrorClass, ExpiryRule,
    FailureModel, Growth, Intake, Jitter, JobKind, Limits, Pattern, SimConfig, SimDuration,
    SimTime, Simulation, WorkerSpec,
};

#[test]
fn a_late_release_after_a_lost_lease_allows_an_extra_attempt() {
    let mut cfg = SimConfig::empty(4391738752589779663);
    let k = JobKind {
        name: "k".into(),
        max_attempts: 2,
        duration: DurationDist::Uniform {
            min_ms: 89,
            max_ms: 154,
        },
        failure: FailureModel::Probability { p: 0.0 },
        error: "E".into(),
        error_class: ErrorClass::Retryable,
        effect: None,
        calls_downstream: true,
    };
    cfg.kinds = vec![k];
    cfg.arrivals = vec![
        Arrivals {
            kind: 0,
            pattern: Pattern::Poisson {
                rate_per_s: 15.73369847773607,
                count: 14,
            },
        },
        Arrivals {
            kind: 0,
            pattern: Pattern::Times { at_ms: vec![127] },
        },
    ];
    cfg.workers = vec![
        WorkerSpec {
            start: SimTime::from_ms(809),
            crash_probability: 0.027450777128696417,
            ..WorkerSpec::new("w", 0)
        },
        WorkerSpec {
            start: SimTime::from_ms(862),
            ..WorkerSpec::new("w", 0)
        },
    ];
    cfg.claim = ClaimStrategy::Atomic;
    cfg.lease = SimDuration::from_ms(54);
    cfg.retry = BackoffPolicy {
        base: SimDuration(0),
        cap: SimDuration(0),
        growth: Growth::Fixed,
        jitter: Jitter::None,
    };
    cfg.downstream = Some(Downstream {
        capacity: 0,
        latency: DurationDist::Fixed { ms: 0 },
        refusal: SimDuration(0),
        rate_limit: None,
        outage: Some((SimTime(0), SimTime(1_670_000))),
        failure_p: 0.0,
    });
    cfg.intake = Intake::Queue {
        publish_failure: 0.0,
        fallback_calls: 0,
    };
    cfg.limits = Limits {
        max_events: 20_000,
        max_time: SimTime(3_600_000_000),
    };
    cfg.log = true;
    // Found under the rule that dead-letters an expired lease on the last attempt.
    cfg.expired_on_last_attempt = ExpiryRule::DeadLetter;
    let mut sim = Simulation::new(cfg).expect("valid");
    sim.run();
    let lines: Vec<String> = sim
        .log()
        .iter()
        .map(|l| l.to_string())
        .filter(|l| l.contains("job#5 "))
        .take(9)
        .collect();
    assert_eq!(
        lines,
        [
            "0.181840s job#5 k 0/2: enqueued",
            "1.205698s w job#5 k 1/2: claimed (UPDATE … RETURNING)",
            // The lease (54 ms) ran out under the first run: the second worker reclaims.
            "1.296096s w job#5 k 2/2: claimed (UPDATE … RETURNING)",
            "1.296096s w job#5 k 2/2: another run of this job is still going (overlapping runs)",
            // The first run fails late and releases with ITS attempt number (1 of 2): a stale
            // result, applied (no owner check).
            "1.330141s w job#5 k 1/2: stale release(): this worker no longer holds the job → applied (no owner check)",
            "1.330141s w job#5 k 1/2: error unavailable: downstream is down → queued until 1.330141s",
            "1.330141s w job#5 k 3/2: claimed (UPDATE … RETURNING)",
            "1.330141s w job#5 k 3/2: another run of this job is still going (overlapping runs)",
            "1.330141s w job#5 k 3/2: attempt past max_attempts (the claim has no attempts check)",
        ]
    );
    let row = sim
        .table()
        .rows()
        .iter()
        .find(|r| r.id.0 == 5)
        .expect("job 5");
    assert!(
        row.attempts > row.max_attempts,
        "attempts {} of {}",
        row.attempts,
        row.max_attempts
    );
}

//! Engine behaviours beyond the seed runs: lease expiry while a handler still runs, crashes
//! with restarts, publish fallback, rate limit, outage, duration distributions, run bounds.

use modality_advisor::domain::sim::{
    Arrivals, ClaimStrategy, Downstream, DurationDist, Effect, ErrorClass, FailureModel, Intake,
    JobKind, Limits, Pattern, Report, SimConfig, SimDuration, SimTime, Simulation, Status,
    StopReason, TokenBucket, WorkerSpec,
};

fn kind(duration: DurationDist) -> JobKind {
    JobKind {
        name: "job".into(),
        max_attempts: 3,
        duration,
        failure: FailureModel::Never,
        error: "E".into(),
        error_class: ErrorClass::Retryable,
        effect: None,
        calls_downstream: false,
    }
}

fn base(jobs: u64, workers: usize, duration: DurationDist) -> SimConfig {
    let mut cfg = SimConfig::empty(5);
    cfg.kinds = vec![kind(duration)];
    cfg.arrivals = vec![Arrivals {
        kind: 0,
        pattern: Pattern::Burst {
            count: jobs,
            at_ms: 0,
        },
    }];
    cfg.workers = (0..workers)
        .map(|i| WorkerSpec::new(WorkerSpec::default_name(i), 10))
        .collect();
    cfg
}

fn run(cfg: SimConfig) -> (Simulation, Report) {
    let Ok(mut sim) = Simulation::new(cfg) else {
        panic!("valid config")
    };
    sim.run();
    let r = Report::from_sim(&sim, "test", "test");
    (sim, r)
}

fn downstream(capacity: u32) -> Downstream {
    Downstream {
        capacity,
        latency: DurationDist::Fixed { ms: 10 },
        refusal: SimDuration::from_ms(1),
        rate_limit: None,
        outage: None,
        failure_p: 0.0,
    }
}

#[test]
fn a_handler_that_outlives_its_lease_runs_twice() {
    let mut cfg = base(1, 2, DurationDist::Fixed { ms: 5_000 });
    cfg.lease = SimDuration::from_secs(2);
    cfg.kinds[0].effect = Some(Effect {
        amount: 1,
        idempotency_key: None,
    });
    let (sim, r) = run(cfg);
    assert_eq!(sim.balance(), 2);
    assert_eq!(r.jobs[0].status, Status::Done);
    assert_eq!(r.jobs[0].attempts, 2);
    assert_eq!(sim.counters().duplicate_effects, 1);
}

#[test]
fn a_crashed_worker_restarts_and_jobs_still_finish() {
    let mut cfg = base(20, 2, DurationDist::Fixed { ms: 10 });
    cfg.lease = SimDuration::from_ms(500);
    cfg.kinds[0].max_attempts = 10;
    for w in &mut cfg.workers {
        w.crash_probability = 0.3;
        w.restart_after = Some(SimDuration::from_ms(100));
    }
    let (sim, r) = run(cfg);
    let m = r
        .metrics
        .as_ref()
        .map(|m| (m.done + m.dead, m.queued, m.running));
    assert_eq!(m, Some((20, 0, 0)));
    assert!(sim.counters().crashes > 0);
    assert!(r.jobs.iter().all(|j| j.attempts <= j.max_attempts));
}

#[test]
fn a_failed_publish_falls_back_to_a_bounded_direct_call() {
    let mut cfg = base(10, 1, DurationDist::Fixed { ms: 0 });
    cfg.kinds[0].calls_downstream = true;
    cfg.downstream = Some(downstream(0));
    cfg.intake = Intake::Queue {
        publish_failure: 1.0,
        fallback_calls: 2,
    };
    let (sim, r) = run(cfg);
    assert!(r.jobs.is_empty(), "nothing reached the queue");
    let c = sim.counters();
    assert_eq!(
        (c.fallbacks, c.accepted, c.failed_to_user, c.calls),
        (10, 10, 0, 10)
    );
}

#[test]
fn the_rate_limit_refuses_calls_beyond_the_bucket() {
    let mut cfg = base(10, 10, DurationDist::Fixed { ms: 0 });
    cfg.kinds[0].calls_downstream = true;
    cfg.downstream = Some(Downstream {
        rate_limit: Some(TokenBucket {
            rate_per_s: 1.0,
            burst: 3,
        }),
        ..downstream(0)
    });
    cfg.workers = (0..10)
        .map(|i| WorkerSpec::new(WorkerSpec::default_name(i), 0))
        .collect();
    cfg.kinds[0].max_attempts = 1;
    let (sim, r) = run(cfg);
    assert_eq!(sim.counters().calls_rate_limited, 7);
    assert_eq!(r.metrics.as_ref().map(|m| (m.done, m.dead)), Some((3, 7)));
}

#[test]
fn calls_during_the_outage_are_refused_and_retried_after_it() {
    let mut cfg = base(1, 1, DurationDist::Fixed { ms: 0 });
    cfg.kinds[0].calls_downstream = true;
    cfg.kinds[0].max_attempts = 5;
    cfg.downstream = Some(Downstream {
        outage: Some((SimTime::ZERO, SimTime::from_ms(500))),
        ..downstream(1)
    });
    let (sim, r) = run(cfg);
    assert_eq!(
        sim.counters().calls_unavailable,
        3,
        "at 0, 0.201 s and 0.402 s"
    );
    assert_eq!((r.jobs[0].status, r.jobs[0].attempts), (Status::Done, 4));
}

#[test]
fn lognormal_durations_match_their_p50_and_p95() {
    let mut cfg = base(
        4_000,
        4_000,
        DurationDist::LogNormal {
            p50_ms: 100.0,
            p95_ms: 400.0,
        },
    );
    cfg.log = false;
    cfg.workers = (0..4_000)
        .map(|i| WorkerSpec::new(format!("w{i}"), 0))
        .collect();
    let (_, r) = run(cfg);
    let Some(p) = r.metrics.as_ref().and_then(|m| m.latency_ms) else {
        panic!("latency")
    };
    assert!((90.0..110.0).contains(&p.p50), "p50 {}", p.p50);
    assert!((340.0..460.0).contains(&p.p95), "p95 {}", p.p95);
}

#[test]
fn limits_stop_a_run_that_would_go_on() {
    // A job that always fails with many attempts and a worker polling every 10 ms.
    let mut cfg = base(1, 1, DurationDist::Fixed { ms: 0 });
    cfg.kinds[0].failure = FailureModel::Always;
    cfg.kinds[0].max_attempts = 1_000;
    cfg.limits = Limits {
        max_events: 100,
        max_time: SimTime::from_secs(3_600),
    };
    let (sim, _) = run(cfg.clone());
    assert_eq!(
        (sim.stopped(), sim.events()),
        (Some(StopReason::MaxEvents), 100)
    );
    cfg.limits = Limits {
        max_events: 1_000_000,
        max_time: SimTime::from_secs(1),
    };
    let (sim, _) = run(cfg);
    assert_eq!(sim.stopped(), Some(StopReason::MaxTime));
    assert!(sim.now() <= SimTime::from_secs(1));
}

#[test]
fn skip_locked_workers_never_share_a_job() {
    let mut cfg = base(
        30,
        5,
        DurationDist::Uniform {
            min_ms: 5,
            max_ms: 50,
        },
    );
    cfg.claim = ClaimStrategy::SkipLocked;
    let (sim, r) = run(cfg);
    assert_eq!(
        r.jobs
            .iter()
            .filter(|j| j.status == Status::Done && j.attempts == 1)
            .count(),
        30
    );
    assert_eq!(sim.counters().duplicate_runs, 0);
}

#[test]
fn the_queue_depth_series_starts_full_and_ends_empty() {
    let mut cfg = base(50, 1, DurationDist::Fixed { ms: 100 });
    cfg.series_bucket = SimDuration::from_ms(500);
    let (sim, _) = run(cfg);
    let s = sim.depth_series();
    assert!(s.iter().any(|&(_, d)| d >= 40), "{s:?}");
    assert_eq!(s.last().map(|&(_, d)| d), Some(0));
}

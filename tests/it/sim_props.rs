//! Properties over generated configs: one state per job, attempts within max, backoff within
//! `[0, cap]`, same seed ⇒ same trace, no config panics.

use modality_advisor::domain::sim::reference::erlang::MmcModel;
use modality_advisor::domain::sim::setup::config::{Ack, CrashPoint, DuplicateSubmissions};
use modality_advisor::domain::sim::ExpiryRule;
use modality_advisor::domain::sim::{
    Arrivals, BackoffPolicy, ClaimStrategy, Downstream, DurationDist, Effect, ErrorClass,
    FailureModel, Growth, InWorkerRetry, Intake, Jitter, JobKind, Limits, Pattern, Retention,
    SimConfig, SimDuration, SimRng, SimTime, Simulation, Status, TokenBucket, Transition,
    WorkerSpec,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn dist() -> impl Strategy<Value = DurationDist> {
    prop_oneof![
        4 => (0u64..500).prop_map(|ms| DurationDist::Fixed { ms }),
        4 => (0u64..200, 0u64..400).prop_map(|(a, b)| DurationDist::Uniform { min_ms: a, max_ms: a + b }),
        4 => (0.5f64..300.0).prop_map(|m| DurationDist::Exponential { mean_ms: m }),
        4 => (0.5f64..100.0, 0.0f64..500.0).prop_map(|(a, b)| DurationDist::LogNormal { p50_ms: a, p95_ms: a + b }),
        // Invalid ones are refused as values.
        1 => (0u64..200, 0u64..400).prop_map(|(a, b)| DurationDist::Uniform { min_ms: a, max_ms: b }),
        1 => (-5.0f64..1.0).prop_map(|m| DurationDist::Exponential { mean_ms: m }),
        1 => (-1.0f64..100.0, 0.0f64..100.0).prop_map(|(a, b)| DurationDist::LogNormal { p50_ms: a, p95_ms: b }),
    ]
}

fn failure() -> impl Strategy<Value = FailureModel> {
    prop_oneof![
        // Outside [0, 1]: refused.
        (-0.2f64..1.2).prop_map(|p| FailureModel::Probability { p }),
        Just(FailureModel::Never),
        (0u32..4).prop_map(|k| FailureModel::FirstRuns { k }),
        (0.0f64..=1.0).prop_map(|p| FailureModel::Probability { p }),
        Just(FailureModel::Always),
    ]
}

fn backoff() -> impl Strategy<Value = BackoffPolicy> {
    (
        0u64..3_000,
        prop_oneof![9 => 0i64..3_000, 1 => -3_000i64..0],
        prop_oneof![Just(Growth::Fixed), Just(Growth::Exponential)],
        prop_oneof![
            Just(Jitter::None),
            Just(Jitter::Full),
            Just(Jitter::Equal),
            Just(Jitter::Decorrelated)
        ],
    )
        .prop_map(|(b, extra, growth, jitter)| BackoffPolicy {
            base: SimDuration::from_ms(b),
            cap: SimDuration::from_ms(b.saturating_add_signed(extra)),
            growth,
            jitter,
        })
}

fn kind() -> impl Strategy<Value = JobKind> {
    (
        prop_oneof![9 => 1u32..5, 1 => Just(0u32)],
        dist(),
        failure(),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(
            |(max, duration, failure, permanent, calls, effect)| JobKind {
                name: "k".into(),
                max_attempts: max,
                duration,
                failure,
                error: "E".into(),
                error_class: if permanent {
                    ErrorClass::Permanent
                } else {
                    ErrorClass::Retryable
                },
                effect: effect.map(|keyed| Effect {
                    amount: 10,
                    idempotency_key: keyed.then(|| "key-{n}".into()),
                }),
                calls_downstream: calls,
            },
        )
}

fn config() -> impl Strategy<Value = SimConfig> {
    let claims = prop_oneof![
        Just(ClaimStrategy::Atomic),
        (0u64..5).prop_map(|g| ClaimStrategy::TwoStatement {
            gap: SimDuration::from_ms(g)
        }),
        proptest::option::of(0u64..2_000).prop_map(|t| ClaimStrategy::ForUpdate {
            lock_timeout: t.map(SimDuration::from_ms)
        }),
        Just(ClaimStrategy::Nowait),
        Just(ClaimStrategy::SkipLocked),
    ];
    let pattern = prop_oneof![
        (0u64..15, 0u64..1_000).prop_map(|(count, at_ms)| Pattern::Burst { count, at_ms }),
        (prop_oneof![9 => 0.5f64..50.0, 1 => -1.0f64..0.5], 0u64..15)
            .prop_map(|(rate_per_s, count)| Pattern::Poisson { rate_per_s, count }),
        proptest::collection::vec(0u64..5_000, 0..6).prop_map(|at_ms| Pattern::Times { at_ms }),
    ];
    let worker = (
        prop_oneof![1 => Just(0u64), 3 => 1u64..300],
        0u64..2_000,
        0.0f64..0.5,
        proptest::option::of(0u64..2_000),
        proptest::option::of(1u32..4),
    )
        .prop_map(|(poll, start, crash, restart, max_claims)| WorkerSpec {
            start: SimTime::from_ms(start),
            crash_probability: crash,
            restart_after: restart.map(SimDuration::from_ms),
            max_claims,
            ..WorkerSpec::new("w", poll)
        });
    let downstream = (
        0u32..3,
        dist(),
        0u64..50,
        proptest::option::of((0.5f64..20.0, 1u32..4)),
        proptest::option::of((0u64..2_000, 0u64..4_000)),
    )
        .prop_map(|(capacity, latency, refusal, rl, outage)| Downstream {
            capacity,
            latency,
            refusal: SimDuration::from_ms(refusal),
            rate_limit: rl.map(|(rate_per_s, burst)| TokenBucket { rate_per_s, burst }),
            outage: outage.map(|(a, b)| (SimTime::from_ms(a), SimTime::from_ms(b))),
            failure_p: 0.0,
        });
    (
        any::<u64>(),
        proptest::collection::vec(kind(), 1..3),
        proptest::collection::vec((prop_oneof![9 => 0usize..1, 1 => 0usize..4], pattern), 0..3),
        (any::<u8>(), proptest::collection::vec(worker, 1..4)).prop_map(|(x, v)| if x % 10 == 0 { Vec::new() } else { v }),
        claims,
        (0u64..3_000, backoff(), any::<bool>()),
        proptest::option::of((0u32..3, backoff())),
        proptest::option::weighted(0.8, downstream),
        prop_oneof![
            4 => (0.0f64..0.5, 0u32..3).prop_map(|(p, n)| Intake::Queue { publish_failure: p, fallback_calls: n }),
            1 => (0u32..3).prop_map(|calls| Intake::Direct { calls }),
        ],
    )
        .prop_map(|(seed, kinds, arrivals, workers, claim, (lease, retry, classify), iwr, downstream, intake)| {
            let mut cfg = SimConfig::empty(seed);
            cfg.kinds = kinds;
            cfg.arrivals = arrivals.into_iter().map(|(kind, pattern)| Arrivals { kind, pattern }).collect();
            cfg.workers = workers;
            cfg.claim = claim;
            cfg.lease = SimDuration::from_ms(lease);
            cfg.retry = retry;
            cfg.classify_errors = classify;
            cfg.in_worker_retry = iwr.map(|(max_retries, backoff)| InWorkerRetry { max_retries, backoff });
            cfg.downstream = downstream;
            cfg.intake = intake;
            cfg.limits = Limits { max_events: 20_000, max_time: SimTime::from_secs(3_600) };
            cfg
        })
}

/// Log lines plus the final `(status, attempts)` per row.
type Trace = (Vec<String>, Vec<(Status, u32)>);

/// The whole trace of a run.
fn trace(cfg: &SimConfig) -> Option<Trace> {
    let mut sim = Simulation::new(cfg.clone()).ok()?;
    sim.run();
    let log = sim.log().iter().map(|l| l.to_string()).collect();
    let rows = sim
        .table()
        .rows()
        .iter()
        .map(|r| (r.status, r.attempts))
        .collect();
    Some((log, rows))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn generated_configs_run_or_are_refused_and_keep_the_invariants(cfg in config()) {
        // Invalid configs are refused as values; valid ones run to a stop without panicking.
        let Ok(mut sim) = Simulation::new(cfg.clone()) else { return Ok(()); };
        let two_statement = matches!(cfg.claim, ClaimStrategy::TwoStatement { .. });
        while sim.step() {
            let t = sim.table();
            let sum: u64 = Status::ALL.iter().map(|&s| t.count(s)).sum();
            prop_assert_eq!(sum, t.len() as u64, "every job in exactly one state");
            for (s, n) in Status::ALL.iter().map(|&s| (s, t.rows().iter().filter(|r| r.status == s).count() as u64)) {
                prop_assert_eq!(n, t.count(s));
            }
            if !two_statement {
                // Two seed races can push attempts past max: the two-statement claim (excluded
                // here), and a handler that outlives its lease and then fails — its `release`
                // decides from the attempt number it claimed with (source documents' `release`), so the
                // row goes back to `queued` after another worker's reclaim (see
                // sim_stale.rs). Each lost lease allows at most one extra claim.
                let lost_leases = t.transitions()[usize::from(Transition::RECLAIM.0)];
                for r in t.rows() {
                    prop_assert!(
                        u64::from(r.attempts) <= u64::from(r.max_attempts) + lost_leases,
                        "job {} attempts {} > {} + {lost_leases} lost leases", r.id.0, r.attempts, r.max_attempts
                    );
                }
            }
        }
        prop_assert!(sim.stopped().is_some());
        prop_assert!(sim.events() <= cfg.limits.max_events);
        prop_assert!(sim.now() <= cfg.limits.max_time);
    }

    #[test]
    fn deleting_finished_rows_changes_only_which_rows_are_kept(cfg in config(), keep in 0u64..6) {
        // The same run with every row kept and with `FirstRows(keep)`: step for step the same
        // events, counts, moves and log; at the end the same counters, samples and attempt
        // summary, and the kept rows are exactly the full table's rows that must stay (ids up
        // to `keep`, unfinished rows, finished rows a worker still holds).
        let Ok(mut all) = Simulation::new(cfg.clone()) else { return Ok(()); };
        let mut some_cfg = cfg.clone();
        some_cfg.retention = Retention::FirstRows(keep);
        let Ok(mut some) = Simulation::new(some_cfg) else { return Ok(()); };
        loop {
            let (a, b) = (all.step(), some.step());
            prop_assert_eq!(a, b);
            prop_assert_eq!(all.now(), some.now());
            let (ta, tb) = (all.table(), some.table());
            prop_assert_eq!(ta.transitions(), tb.transitions());
            for s in Status::ALL {
                prop_assert_eq!(ta.count(s), tb.count(s));
            }
            prop_assert_eq!(ta.len(), tb.len());
            prop_assert_eq!(all.log().len(), some.log().len());
            if !a {
                break;
            }
        }
        let lines = |s: &Simulation| s.log().iter().map(|l| l.to_string()).collect::<Vec<_>>();
        prop_assert_eq!(lines(&all), lines(&some));
        prop_assert_eq!(all.counters(), some.counters());
        prop_assert_eq!(all.balance(), some.balance());
        prop_assert_eq!(all.waits(), some.waits());
        prop_assert_eq!(all.latencies(), some.latencies());
        prop_assert_eq!(all.depth_series(), some.depth_series());
        let (ta, tb) = (all.table(), some.table());
        let summary = |t: &modality_advisor::domain::sim::JobsTable| {
            let mut m = BTreeMap::new();
            for (s, a, max, n) in t.attempts_summary() {
                *m.entry((s.id(), a, max)).or_insert(0u64) += n;
            }
            m
        };
        prop_assert_eq!(summary(ta), summary(tb));
        prop_assert_eq!(tb.rows().len() as u64 + tb.deleted(), ta.len() as u64);
        for r in ta.rows() {
            let kept = tb.get(r.id);
            if r.id.0 <= keep || !matches!(r.status, Status::Done | Status::Dead) {
                prop_assert_eq!(kept, Some(r), "row {} must be kept", r.id.0);
            } else if let Some(k) = kept {
                prop_assert_eq!(k, r);
            }
        }
    }

    #[test]
    fn plain_configs_run_the_same_on_the_general_path(cfg in config(), keep in prop_oneof![Just(None), (0u64..6).prop_map(Some)]) {
        // A config made plain (atomic claims, woken workers without probes, claim limits or
        // crashes, no side effects or downstream calls, plain publishes) runs with the hot
        // paths' shortcuts and, forced, on the general path: step for step the same events,
        // counts, moves and log; at the end the same counters, samples and table.
        let mut cfg = cfg;
        cfg.claim = ClaimStrategy::Atomic;
        for w in &mut cfg.workers {
            w.poll = None;
            w.probe = false;
            w.max_claims = None;
            w.crash_probability = 0.0;
        }
        for k in &mut cfg.kinds {
            k.effect = None;
            k.calls_downstream = false;
        }
        if let Intake::Queue { publish_failure, .. } = &mut cfg.intake {
            *publish_failure = 0.0;
        } else {
            cfg.intake = Intake::Queue { publish_failure: 0.0, fallback_calls: 0 };
        }
        if let Some(keep) = keep {
            cfg.retention = Retention::FirstRows(keep);
        }
        prop_assert!(cfg.is_plain());
        let Ok(mut fast) = Simulation::new(cfg.clone()) else { return Ok(()); };
        let Ok(general) = Simulation::new(cfg.clone()) else { return Ok(()); };
        let mut general = general.without_plain_paths();
        loop {
            let (a, b) = (fast.step(), general.step());
            prop_assert_eq!(a, b);
            prop_assert_eq!(fast.now(), general.now());
            prop_assert_eq!(fast.events(), general.events());
            let (ta, tb) = (fast.table(), general.table());
            prop_assert_eq!(ta.transitions(), tb.transitions());
            for s in Status::ALL {
                prop_assert_eq!(ta.count(s), tb.count(s));
            }
            prop_assert_eq!(fast.log().len(), general.log().len());
            if !a {
                break;
            }
        }
        let lines = |s: &Simulation| s.log().iter().map(|l| l.to_string()).collect::<Vec<_>>();
        prop_assert_eq!(lines(&fast), lines(&general));
        prop_assert_eq!(fast.stopped(), general.stopped());
        prop_assert_eq!(fast.counters(), general.counters());
        prop_assert_eq!(fast.waits(), general.waits());
        prop_assert_eq!(fast.latencies(), general.latencies());
        prop_assert_eq!(fast.depth_series(), general.depth_series());
        prop_assert_eq!(fast.first_claims(), general.first_claims());
        prop_assert_eq!(fast.table().rows(), general.table().rows());
        prop_assert_eq!(fast.table().deleted(), general.table().deleted());
    }

    #[test]
    fn rounding_microseconds_matches_the_plain_conversion(x in prop_oneof![
        any::<f64>(),
        0.0f64..1e7,
        1e17f64..1e20,
        Just(4_611_686_018_427_387_904.0f64),
        Just(f64::INFINITY),
    ]) {
        let plain = if x.is_nan() || x <= 0.0 { 0 } else if x >= u64::MAX as f64 { u64::MAX } else { (x + 0.5) as u64 };
        prop_assert_eq!(modality_advisor::domain::sim::core::rng::round_us(x), plain);
    }

    #[test]
    fn percentiles_by_selection_match_the_sorted_list(us in proptest::collection::vec(prop_oneof![0u64..50, any::<u64>()], 0..300)) {
        use modality_advisor::domain::sim::Percentiles;
        let got = Percentiles::of_micros(us.clone());
        let mut sorted = us.clone();
        sorted.sort_unstable();
        let n = sorted.len();
        let rank = |q: f64| sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1] as f64 / 1e3;
        match got {
            None => prop_assert!(us.is_empty()),
            Some(p) => {
                prop_assert_eq!(p.count, n as u64);
                prop_assert_eq!(p.p50, rank(0.50));
                prop_assert_eq!(p.p95, rank(0.95));
                prop_assert_eq!(p.p99, rank(0.99));
                prop_assert_eq!(p.max, sorted[n - 1] as f64 / 1e3);
                let sum: u128 = us.iter().map(|&x| u128::from(x)).sum();
                prop_assert_eq!(p.mean, sum as f64 / n as f64 / 1e3);
            }
        }
    }

    #[test]
    fn same_seed_same_trace(cfg in config()) {
        prop_assert_eq!(trace(&cfg), trace(&cfg));
    }

    #[test]
    fn backoff_stays_within_zero_and_cap(p in backoff(), n in 0u32..80, seed in any::<u64>()) {
        let mut rng = SimRng::new(seed);
        let mut prev = None;
        for i in 0..n {
            let w = p.wait(i, prev, &mut rng);
            prop_assert!(w <= p.cap, "{w:?} > cap {:?}", p.cap);
            prev = Some(w);
        }
    }

    #[test]
    fn config_files_never_panic(text in "\\PC{0,300}") {
        let _ = modality_advisor::domain::sim::load_config(&text);
    }

    #[test]
    fn json_shaped_config_files_never_panic(
        count in -3i64..5, jobs in -3i64..20, base in -10i64..3_000, cap in -10i64..3_000, max in -2i64..6,
    ) {
        let text = format!(
            r#"{{"kinds":[{{"name":"k","max_attempts":{max}}}],"arrivals":[{{"kind":0,"pattern":{{"type":"burst","count":{jobs}}}}}],
               "workers":{{"count":{count},"poll_ms":10}},"retry":{{"base_ms":{base},"cap_ms":{cap}}},"limits":{{"max_events":5000}}}}"#
        );
        if let Ok(cfg) = modality_advisor::domain::sim::load_config(&text) {
            let Ok(mut sim) = Simulation::new(cfg) else { return Ok(()); };
            sim.run();
        }
    }
}

proptest! {
    // More cases: a stale release past max_attempts needs a handler that outlives its lease,
    // fails, and releases between another claim and that claim's lease end (without the
    // owner check, 2 000 cases find one).
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn with_the_owner_check_no_claim_passes_max_attempts(
        cfg in config(),
        lease_ms in 1u64..300,
        heartbeat in proptest::option::of(1u64..300),
        ack_before in any::<bool>(),
        crash_before in any::<bool>(),
        twice in proptest::option::of(0u64..2_000),
    ) {
        // The owner check refuses a stale `release` (the late failure that would re-queue a
        // row another claim holds), and the dead-letter rule ends a lease that runs out on the
        // last attempt: then no claim passes max_attempts (the two-statement claim's race
        // aside: its second UPDATE takes a row another worker holds, whatever the checks).
        // Short leases, so that handlers outlive them.
        let mut cfg = cfg;
        if matches!(cfg.claim, ClaimStrategy::TwoStatement { .. }) {
            cfg.claim = ClaimStrategy::Atomic;
        }
        cfg.lease = SimDuration::from_ms(lease_ms);
        cfg.owner_check = true;
        cfg.expired_on_last_attempt = ExpiryRule::DeadLetter;
        cfg.heartbeat_ms = heartbeat.filter(|&h| h < lease_ms);
        cfg.ack = if ack_before { Ack::Before } else { Ack::After };
        cfg.crash_point = if crash_before { CrashPoint::BeforeEffect } else { CrashPoint::AfterEffect };
        cfg.duplicate_submissions = twice.map(|after_ms| DuplicateSubmissions { after_ms });
        let Ok(mut sim) = Simulation::new(cfg.clone()) else { return Ok(()); };
        sim.run();
        prop_assert_eq!(sim.counters().claims_over_max, 0);
        for r in sim.table().rows() {
            prop_assert!(r.attempts <= r.max_attempts, "job {} attempts {} of {}", r.id.0, r.attempts, r.max_attempts);
        }
        // At-most-once delivery never runs a job's effect twice (the same request submitted
        // twice is two jobs: without a key from the request both apply, and that counts).
        if ack_before && twice.is_none() {
            prop_assert_eq!(sim.counters().duplicate_effects, 0, "at-most-once never repeats an effect");
        }
        prop_assert!(sim.stopped().is_some());
    }
}

#[test]
fn plain_means_none_of_the_features_the_hot_paths_skip() {
    // The benchmark model is plain; each feature the shortcuts skip makes a config general.
    let plain = MmcModel::bench(1_000, 1).config();
    assert!(plain.is_plain());
    type Change = (&'static str, fn(&mut SimConfig));
    let general: Vec<Change> = vec![
        ("two-statement claim", |c| {
            c.claim = ClaimStrategy::TwoStatement {
                gap: SimDuration::from_ms(1),
            }
        }),
        ("skip locked", |c| c.claim = ClaimStrategy::SkipLocked),
        ("polling worker", |c| {
            c.workers[0].poll = Some(SimDuration::from_ms(100))
        }),
        ("probe", |c| c.workers[1].probe = true),
        ("claim limit", |c| c.workers[2].max_claims = Some(3)),
        ("crash", |c| c.workers[0].crash_probability = 0.01),
        ("side effect", |c| {
            c.kinds[0].effect = Some(Effect {
                amount: 1,
                idempotency_key: None,
            })
        }),
        ("downstream call", |c| c.kinds[0].calls_downstream = true),
        ("publish failure", |c| {
            c.intake = Intake::Queue {
                publish_failure: 0.1,
                fallback_calls: 1,
            }
        }),
        ("direct intake", |c| c.intake = Intake::Direct { calls: 1 }),
        ("owner check", |c| c.owner_check = true),
        ("heartbeats", |c| c.heartbeat_ms = Some(1_000)),
        ("ack before", |c| c.ack = Ack::Before),
        ("crash before the effect", |c| {
            c.crash_point = CrashPoint::BeforeEffect
        }),
        ("dead-letter rule", |c| {
            c.expired_on_last_attempt = ExpiryRule::DeadLetter
        }),
        ("duplicate submissions", |c| {
            c.duplicate_submissions = Some(DuplicateSubmissions { after_ms: 10 })
        }),
    ];
    for (what, change) in general {
        let mut cfg = plain.clone();
        change(&mut cfg);
        assert!(!cfg.is_plain(), "{what} must make the config general");
    }
}

#[test]
fn the_trace_digest_depends_on_the_seed_only() {
    use modality_advisor::domain::sim::trace_digest;
    assert_eq!(trace_digest(1), trace_digest(1));
    assert_ne!(trace_digest(1), trace_digest(2));
}

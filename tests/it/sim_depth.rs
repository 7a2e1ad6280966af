//! The queue-depth series (`domain::sim::results::depth`): a step line with every change for small
//! runs, checked against the per-step frames; a bounded, peak-keeping envelope for big runs.

use modality_advisor::domain::sim::results::depth::{DepthSeries, MAX_DEPTH_POINTS};
use modality_advisor::domain::sim::results::frames::FrameRecorder;
use modality_advisor::domain::sim::{run_scenario, Scenario, SimDuration, SimTime, Simulation};

/// The depth the step line shows at `t` seconds: the value of the last point at or before `t`.
fn depth_at(series: &[(f64, u64)], t: f64) -> u64 {
    series
        .iter()
        .take_while(|&&(x, _)| x <= t)
        .last()
        .map_or(0, |&(_, d)| d)
}

#[test]
fn duplicate_execution_shows_one_queued_job_until_the_claim_at_1000_s() {
    // The source documents' two variants (the same-order ones start their worker at 0 s).
    let documents = &Scenario::DuplicateExecution.variants()[..2];
    assert_eq!(documents, ["plain", "idempotency-key"]);
    for v in documents {
        let r = run_scenario("duplicate-execution", Some(v), 1).expect("runs");
        let s = r.metrics.expect("queue run").queue_depth;
        for t in [0.0, 0.001, 1.0, 500.0, 999.0, 999.999] {
            assert_eq!(depth_at(&s, t), 1, "{v}: depth at {t} s in {s:?}");
        }
        assert_eq!(depth_at(&s, 1000.0), 0, "{v}: claimed at 1000 s: {s:?}");
        assert_eq!(s.last().map(|p| p.1), Some(0), "{v}");
    }
}

#[test]
fn every_scenario_series_matches_the_frames_step_by_step() {
    for sc in Scenario::ALL {
        for v in sc.variants() {
            let Some(cfg) = sc.config(Some(v), 1).expect("config") else {
                continue;
            };
            let mut sim = Simulation::new(cfg).expect("valid");
            let mut rec = FrameRecorder::new();
            while sim.step() {
                rec.after_step(&sim);
            }
            let frames = rec.finish();
            assert!(frames.len() > 1, "{}/{v} has frames", sc.id());
            let series: Vec<(f64, u64)> = sim
                .depth_series()
                .iter()
                .map(|&(t, d)| (t.as_secs_f64(), d))
                .collect();
            // The true maximum, replayed independently from the frames.
            let true_max = frames.iter().map(|f| f.counts[0]).max().unwrap_or(0);
            let series_max = series.iter().map(|p| p.1).max().unwrap_or(0);
            assert_eq!(series_max, true_max, "{}/{v}: {series:?}", sc.id());
            // The small presets all queue their jobs (burst-leveling `direct` has no queue).
            if (sc.id(), *v) != ("burst-leveling", "direct") {
                assert!(true_max > 0, "{}/{v}: something was queued", sc.id());
            }
            // At each frame's time the line shows the depth after that instant's last step.
            for (i, f) in frames.iter().enumerate() {
                let last_of_instant = frames.get(i + 1).is_none_or(|n| n.time_us != f.time_us);
                if last_of_instant {
                    let t = f.time_us as f64 / 1e6;
                    assert_eq!(
                        depth_at(&series, t),
                        f.counts[0],
                        "{}/{v} at {t} s",
                        sc.id()
                    );
                }
            }
        }
    }
}

#[test]
fn a_million_changes_stay_bounded_and_keep_the_peak_and_the_end() {
    let mut s = DepthSeries::new(SimDuration::from_ms(1_000));
    let mut x: u64 = 12_345;
    let mut d: u64 = 0;
    let mut max = 0;
    for i in 0..1_000_000u64 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        d = if x >> 63 == 1 {
            d + 1
        } else {
            d.saturating_sub(1)
        };
        if i == 700_001 {
            d += 5_000; // one short spike
        }
        max = max.max(d);
        s.record(SimTime(i * 1_000), d);
        if i % 997 == 0 {
            assert!(s.points().len() <= MAX_DEPTH_POINTS + 2, "bounded at {i}");
        }
    }
    assert!(s.bucket().is_some(), "coarsened");
    assert_eq!(s.points().iter().map(|p| p.1).max(), Some(max));
    assert_eq!(s.points().last().map(|p| p.1), Some(d));
    assert!(
        s.points().windows(2).all(|w| w[0].0 <= w[1].0),
        "in time order"
    );
}

#[test]
fn a_small_series_keeps_every_change() {
    let mut s = DepthSeries::new(SimDuration::from_ms(1_000));
    s.record(SimTime(0), 1);
    s.record(SimTime(10), 1);
    s.record(SimTime(20), 0);
    s.record(SimTime(20), 2);
    s.record(SimTime(20), 0);
    assert_eq!(s.bucket(), None);
    let t = |us| SimTime(us);
    assert_eq!(
        s.points(),
        [(t(0), 0), (t(0), 1), (t(20), 0), (t(20), 2), (t(20), 0)]
    );
}

//! Load leveling (source document `003`, `docs/DOMAIN.md` §4): ten simultaneous submissions against a
//! capacity-1 downstream.

use modality_advisor::domain::sim::{run_scenario, Report, Status};

fn report(variant: &str, seed: u64) -> Report {
    match run_scenario("burst-leveling", Some(variant), seed) {
        Ok(r) => r,
        Err(e) => panic!("{variant}: {e}"),
    }
}

/// `(accepted, failed_to_user, done, dead)`.
fn outcome(r: &Report) -> (u64, u64, u64, u64) {
    let m = r.metrics.as_ref().map(|m| {
        (
            m.counters.accepted,
            m.counters.failed_to_user,
            m.done,
            m.dead,
        )
    });
    m.unwrap_or_default()
}

#[test]
fn direct_calls_let_one_in_and_fail_nine_back_to_the_user() {
    let r = report("direct", 1);
    assert_eq!(outcome(&r), (1, 9, 0, 0));
    assert!(r.jobs.is_empty());
}

#[test]
fn fixed_redelivery_collides_in_lock_step_five_done_five_dead() {
    for seed in 1..=5 {
        let r = report("queue-redelivery", seed);
        assert_eq!(outcome(&r), (10, 0, 5, 5), "seed {seed}");
        // Each delivery round lets exactly one more through: done jobs took 1, 2, 3, 4, 5
        // deliveries; the dead ones used all 5.
        let mut done: Vec<u32> = r
            .jobs
            .iter()
            .filter(|j| j.status == Status::Done)
            .map(|j| j.attempts)
            .collect();
        done.sort_unstable();
        assert_eq!(done, [1, 2, 3, 4, 5], "seed {seed}");
        assert!(r
            .jobs
            .iter()
            .filter(|j| j.status == Status::Dead)
            .all(|j| j.attempts == 5));
    }
}

#[test]
fn two_tier_jitter_gets_all_ten_through() {
    for seed in 1..=20 {
        let r = report("two-tier-jitter", seed);
        assert_eq!(outcome(&r), (10, 0, 10, 0), "seed {seed}");
    }
}

#[test]
fn the_downstream_never_serves_two_calls_at_once() {
    // Capacity 1: every call made while another is being served is answered busy, so the
    // served calls are exactly the jobs done.
    for v in ["queue-redelivery", "two-tier-jitter"] {
        let r = report(v, 3);
        let m = r.metrics.as_ref().map(|m| {
            (
                m.counters.calls_ok,
                m.done,
                m.counters.calls_ok + m.counters.calls_busy,
                m.counters.calls,
            )
        });
        let Some((ok, done, answered, calls)) = m else {
            panic!("metrics")
        };
        assert_eq!(ok, done, "{v}");
        assert_eq!(answered, calls, "{v}");
    }
}

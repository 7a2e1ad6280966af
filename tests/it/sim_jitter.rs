//! The AWS jitter study's contention model at 100 clients (`docs/DOMAIN.md` §5): the study's
//! published ordering, and the means of the study's own simulator.

use modality_advisor::domain::sim::{
    run_contention, run_scenario, ContentionConfig, ContentionResult, Strategy, STUDY_RUNS,
};

fn run(strategy: Strategy) -> ContentionResult {
    run_contention(&ContentionConfig::study(100, strategy, 20, 1))
}

#[test]
fn without_jitter_clients_make_more_than_twice_the_calls() {
    let full = run(Strategy::Full).calls_mean;
    let equal = run(Strategy::Equal).calls_mean;
    for s in [Strategy::None, Strategy::Exponential] {
        let calls = run(s).calls_mean;
        assert!(calls > 2.0 * full, "{}: {calls} vs full {full}", s.id());
        assert!(calls > 2.0 * equal, "{}: {calls} vs equal {equal}", s.id());
    }
}

#[test]
fn equal_jitter_finishes_later_than_full_jitter() {
    let full = run(Strategy::Full).completion_ms_mean;
    let equal = run(Strategy::Equal).completion_ms_mean;
    assert!(equal > full, "equal {equal} ms vs full {full} ms");
}

#[test]
fn full_jitter_does_the_least_work() {
    let full = run(Strategy::Full).calls_mean;
    for s in Strategy::ALL {
        assert!(run(s).calls_mean >= full, "{}", s.id());
    }
}

#[test]
fn one_client_succeeds_with_one_call() {
    let r = run_contention(&ContentionConfig::study(1, Strategy::None, 3, 9));
    assert_eq!(r.calls_mean, 1.0);
}

/// The study's own simulator (aws-samples/aws-arch-backoff-simulator,
/// `src/backoff_simulator.py`) at 100 clients: mean calls and mean completion time (ms) over
/// 10 000 runs per strategy (two runs of `bench/aws_backoff_reference.py`, 5 000 runs each,
/// seeds 1 and 2), as recorded in `bench/aws-backoff-reference.md`.
const AWS_SIMULATOR: [(&str, f64, f64); 5] = [
    ("none", 2422.9, 2027.8),
    ("exponential", 1857.0, 63529.9),
    ("full", 796.0, 4909.7),
    ("equal", 812.3, 6626.8),
    ("decorrelated", 1001.6, 4595.5),
];

/// Calls: their per-run standard deviation is at most 3 % of the mean (exponential: 58 of
/// 1 857), so the mean of 100 runs has a standard error of at most 0.3 %; 3 % is ten of them,
/// and the model before it followed the simulator was off by 4–10 %.
const CALLS_TOLERANCE: f64 = 0.03;

/// Completion time: its per-run standard deviation is up to 16 % of the mean (decorrelated),
/// so the mean of 100 runs has a standard error of up to 1.6 %; 5 % is three of them.
const TIME_TOLERANCE: f64 = 0.05;

#[test]
fn the_scenario_matches_the_aws_simulators_means_at_100_clients() {
    for (id, calls, time_ms) in AWS_SIMULATOR {
        let r = run_scenario("jitter-contention", Some(id), 1).expect("runs");
        let Some(c) = r.contention else {
            panic!("{id}: no contention result");
        };
        assert_eq!((c.clients, c.runs), (100, STUDY_RUNS), "{id}");
        assert_eq!(c.runs, 100, "the CLI and the page average 100 runs");
        let off = |ours: f64, theirs: f64| (ours - theirs).abs() / theirs;
        assert!(
            off(c.calls_mean, calls) <= CALLS_TOLERANCE,
            "{id}: {:.1} calls vs the simulator's {calls}",
            c.calls_mean
        );
        assert!(
            off(c.completion_ms_mean, time_ms) <= TIME_TOLERANCE,
            "{id}: {:.1} ms vs the simulator's {time_ms} ms",
            c.completion_ms_mean
        );
    }
}

//! The AWS jitter study's contention model at 100 clients (`docs/DOMAIN.md` §5).

use modality_advisor::domain::sim::{run_contention, ContentionConfig, ContentionResult, Strategy};

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

//! The worker protocol: requests in, progress and a result out, as JSON; never a panic.

use modality_advisor::domain::sim::run_scenario;
use modality_advisor::domain::sim::runner::{
    handle, run, trace_hash, RunMessage, RunRequest, LOAD_SCENARIO,
};

fn req(scenario: &str, variant: Option<&str>, seed: u64, jobs: Option<u64>) -> RunRequest {
    RunRequest {
        id: 9,
        scenario: scenario.into(),
        variant: variant.map(String::from),
        seed,
        jobs,
        custom: None,
    }
}

#[test]
fn a_preset_runs_and_its_hash_is_the_clis() {
    let view = run(
        &req("duplicate-execution", Some("plain"), 3, None),
        1_000,
        |_| {},
    )
    .expect("runs");
    assert_eq!(view.balance, Some(200));
    let report = run_scenario("duplicate-execution", Some("plain"), 3).expect("runs");
    assert_eq!(view.trace_hash, trace_hash(&report));
    let other = run(
        &req("duplicate-execution", Some("plain"), 4, None),
        1_000,
        |_| {},
    )
    .expect("runs");
    assert_eq!(other.balance, Some(200));
}

#[test]
fn the_load_preset_reports_progress_and_caps_the_table() {
    let mut seen = Vec::new();
    let view = run(&req(LOAD_SCENARIO, None, 1, Some(5_000)), 2_000, |n| {
        seen.push(n)
    })
    .expect("runs");
    assert!(seen.len() >= 3, "progress reported: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(view.counts.iter().sum::<u64>(), 5_000);
    assert_eq!(view.counts[0] + view.counts[1], 5_000, "all done or dead");
    assert_eq!(view.jobs.len(), 200, "the table sent to the page is capped");
    let again = run(&req(LOAD_SCENARIO, None, 1, Some(5_000)), 2_000, |_| {}).expect("runs");
    assert_eq!(again.trace_hash, view.trace_hash, "same seed, same run");
}

#[test]
fn bad_requests_fail_as_messages() {
    let check = |json: &str, needle: &str| {
        let out = handle(json, 1_000, |_| {});
        let msg: RunMessage = serde_json::from_str(&out).expect("a message");
        match msg {
            RunMessage::Failed { errors, .. } => {
                assert!(
                    errors.iter().any(|e| e.to_string().contains(needle)),
                    "{errors:?}"
                )
            }
            other => panic!("expected a failure for {json}, got {other:?}"),
        }
    };
    check("not json", "request");
    check(
        r#"{"id":1,"scenario":"nope","variant":null,"seed":1}"#,
        "nope",
    );
    check(
        r#"{"id":1,"scenario":"claim-race","variant":"sideways","seed":1}"#,
        "sideways",
    );
    check(
        r#"{"id":1,"scenario":"mmc-load","variant":null,"seed":1,"jobs":0}"#,
        "jobs: 0 is out of range; allowed: 1 to 1000000",
    );
    check(
        r#"{"id":1,"scenario":"mmc-load","variant":null,"seed":1,"jobs":1000001}"#,
        "jobs",
    );
}

#[test]
fn last_error_reads_in_the_pages_language_and_stays_english_in_the_view() {
    use modality_advisor::domain::lang::Lang;
    use modality_advisor::domain::sim::results::log::BUILTIN_ERRORS;
    use modality_advisor::domain::sim::runner::JobView;
    let view = crate::sim_support::preset_view("burst-leveling", "queue-redelivery");
    let busy = view
        .jobs
        .iter()
        .find(|j| j.last_error.as_deref() == Some(BUILTIN_ERRORS[1]))
        .expect("a job last refused as busy");
    assert_eq!(busy.last_error_in(Lang::En), BUILTIN_ERRORS[1]);
    assert_eq!(
        busy.last_error_in(Lang::Ja),
        "busy：下流システムは別の書き込みでロック中"
    );
    // Each of the engine's own errors has its translation; English reads as in the JSON.
    for e in BUILTIN_ERRORS {
        let j = JobView {
            id: 1,
            name: "k".into(),
            status: "dead".into(),
            attempts: 1,
            max_attempts: 1,
            last_error: Some(e.into()),
        };
        assert_eq!(j.last_error_in(Lang::En), e);
        let ja = j.last_error_in(Lang::Ja);
        assert!(ja != e && !ja.starts_with("sim-log."), "{e}: {ja}");
    }
    // A handler's own message and no error at all stay as they are.
    let mut j = busy.clone();
    j.last_error = Some("TimeoutError: took too long".into());
    assert_eq!(j.last_error_in(Lang::Ja), "TimeoutError: took too long");
    j.last_error = None;
    assert_eq!(j.last_error_in(Lang::Ja), "");
}

//! The source documents' four runs (source document `000`, `docs/DOMAIN.md` §3), reproduced exactly by the named
//! scenarios: order of events, attempts, statuses, `last_error`, balance, claims, lock errors.

use modality_advisor::domain::sim::{run_scenario, Report, Scenario, Simulation, Status};

fn report(name: &str, variant: &str) -> Report {
    match run_scenario(name, Some(variant), 1) {
        Ok(r) => r,
        Err(e) => panic!("{name}/{variant}: {e}"),
    }
}

fn log(name: &str, variant: &str) -> String {
    report(name, variant).events.join("\n")
}

/// `(id, status, attempts, max_attempts, last_error)` per row.
fn rows(r: &Report) -> Vec<(u64, Status, u32, u32, Option<&str>)> {
    r.jobs
        .iter()
        .map(|j| {
            (
                j.id,
                j.status,
                j.attempts,
                j.max_attempts,
                j.last_error.as_deref(),
            )
        })
        .collect()
}

const TIMEOUT: &str = "TimeoutError: mail server did not respond";
const NOT_IMAGE: &str = "ValueError: not an image: memo.txt";

#[test]
fn retry_dead_letter_matches_the_seed() {
    let r = report("retry-dead-letter", "seed");
    assert_eq!(
        rows(&r),
        [
            (1, Status::Done, 3, 5, Some(TIMEOUT)),
            (2, Status::Dead, 3, 3, Some(NOT_IMAGE)),
        ]
    );
    // The source documents' order: job 1 #1 error → queued; job 2 #1 error → queued; job 1 #2 error →
    // queued; job 2 #2 error → queued; job 1 #3 done; job 2 #3 error → dead.
    let outcomes: Vec<&str> = r
        .events
        .iter()
        .filter(|e| !e.contains("claimed") && !e.contains("enqueued"))
        .map(String::as_str)
        .collect();
    insta::assert_snapshot!(outcomes.join("\n"), @r"
    0.000s A job#1 send_mail 1/5: error TimeoutError: mail server did not respond → queued until 0.200s
    0.000s A job#2 resize_image 1/3: error ValueError: not an image: memo.txt → queued until 0.200s
    0.200s A job#1 send_mail 2/5: error TimeoutError: mail server did not respond → queued until 0.400s
    0.200s A job#2 resize_image 2/3: error ValueError: not an image: memo.txt → queued until 0.400s
    0.400s A job#1 send_mail 3/5: done
    0.400s A job#2 resize_image 3/3: error ValueError: not an image: memo.txt → dead
    ");
}

#[test]
fn classified_errors_dead_letter_on_the_first_attempt() {
    let r = report("retry-dead-letter", "classified");
    assert_eq!(
        rows(&r),
        [
            (1, Status::Done, 3, 5, Some(TIMEOUT)),
            (2, Status::Dead, 1, 3, Some(NOT_IMAGE)),
        ]
    );
}

#[test]
fn duplicate_execution_charges_twice_without_a_key() {
    let r = report("duplicate-execution", "plain");
    assert_eq!(r.balance, Some(200));
    assert_eq!(rows(&r), [(1, Status::Done, 2, 3, None)]);
    insta::assert_snapshot!(r.events.join("\n"), @r"
    0.000s job#1 add_points 0/3: enqueued
    1000.000s A job#1 add_points 1/3: claimed (UPDATE … RETURNING)
    1000.000s A job#1 add_points 1/3: side effect applied: balance 0 → 100
    1000.000s A job#1 add_points 1/3: worker dies before complete()
    1031.000s B job#1 add_points 2/3: claimed (UPDATE … RETURNING)
    1031.000s B job#1 add_points 2/3: side effect applied: balance 100 → 200
    1031.000s B job#1 add_points 2/3: done
    ");
}

#[test]
fn duplicate_execution_with_the_idempotency_key_keeps_100() {
    let r = report("duplicate-execution", "idempotency-key");
    assert_eq!(r.balance, Some(100));
    assert_eq!(rows(&r), [(1, Status::Done, 2, 3, None)]);
    let m = r
        .metrics
        .as_ref()
        .map(|m| (m.counters.duplicate_effects, m.counters.prevented_by_key));
    assert_eq!(m, Some((0, 1)));
    assert!(log("duplicate-execution", "idempotency-key").contains(
        "1031.000s B job#1 add_points 2/3: idempotency key order-1001-points already recorded"
    ));
}

#[test]
fn two_statement_claim_gives_both_workers_job_1() {
    let r = report("claim-race", "two-statement");
    let claims: Vec<(&str, u64)> = r.claims.iter().map(|(w, j)| (w.as_str(), *j)).collect();
    assert_eq!(claims, [("A", 1), ("B", 1)]);
    assert_eq!(r.jobs[0].attempts, 2);
    let head: Vec<&str> = r.events.iter().take(6).map(String::as_str).collect();
    insta::assert_snapshot!(head.join("\n"), @r"
    0.000s job#1 send_mail 0/3: enqueued
    0.000s job#2 send_mail 0/3: enqueued
    0.000s A: SELECT picks job#1
    0.000s B: SELECT picks job#1
    0.001s A job#1 send_mail 1/3: claimed (UPDATE by id)
    0.001s B job#1 send_mail 2/3: claimed (UPDATE by id)
    ");
}

#[test]
fn atomic_claim_gives_a_job_1_and_b_job_2() {
    let r = report("claim-race", "atomic");
    let claims: Vec<(&str, u64)> = r.claims.iter().map(|(w, j)| (w.as_str(), *j)).collect();
    assert_eq!(claims, [("A", 1), ("B", 2)]);
    assert_eq!(
        rows(&r),
        [(1, Status::Done, 1, 3, None), (2, Status::Done, 1, 3, None)]
    );
}

fn check_pg(variant: &str, b_claim: Option<u64>, b_error: Option<&str>) {
    let r = report("pg-row-locks", variant);
    assert_eq!(r.claims.get("A"), Some(&1), "{variant}");
    assert_eq!(r.claims.get("B").copied(), b_claim, "{variant}");
    assert_eq!(r.errors.get("B").map(String::as_str), b_error, "{variant}");
    let statuses: Vec<(u64, Status)> = r.jobs.iter().map(|j| (j.id, j.status)).collect();
    assert_eq!(
        statuses,
        [(1, Status::Done), (2, Status::Queued), (3, Status::Queued)],
        "{variant}"
    );
}

#[test]
fn pg_row_locks_match_the_seed() {
    check_pg("skip-locked", Some(2), None);
    check_pg(
        "lock-timeout",
        None,
        Some("canceling statement due to lock timeout"),
    );
    check_pg(
        "nowait",
        None,
        Some("could not obtain lock on row in relation \"jobs\""),
    );
}

#[test]
fn lock_timeout_fires_after_one_second_and_nowait_at_once() {
    insta::assert_snapshot!(log("pg-row-locks", "lock-timeout"), @r"
    0.000s job#1 send_mail 0/3: enqueued
    0.000s job#2 resize_image 0/3: enqueued
    0.000s job#3 export_csv 0/3: enqueued
    0.000s A job#1 send_mail 1/3: claimed (SELECT … FOR UPDATE)
    0.100s B: FOR UPDATE waits for the row lock on job#1
    1.100s B: error: canceling statement due to lock timeout
    2.000s A job#1 send_mail 1/3: done
    ");
    insta::assert_snapshot!(log("pg-row-locks", "nowait"), @r#"
    0.000s job#1 send_mail 0/3: enqueued
    0.000s job#2 resize_image 0/3: enqueued
    0.000s job#3 export_csv 0/3: enqueued
    0.000s A job#1 send_mail 1/3: claimed (FOR UPDATE NOWAIT)
    0.100s B: error: could not obtain lock on row in relation "jobs"
    2.000s A job#1 send_mail 1/3: done
    "#);
    insta::assert_snapshot!(log("pg-row-locks", "skip-locked"), @r"
    0.000s job#1 send_mail 0/3: enqueued
    0.000s job#2 resize_image 0/3: enqueued
    0.000s job#3 export_csv 0/3: enqueued
    0.000s A job#1 send_mail 1/3: claimed (FOR UPDATE SKIP LOCKED)
    0.100s B: SKIP LOCKED passes over job#1
    0.100s B job#2 resize_image 1/3: claimed (FOR UPDATE SKIP LOCKED)
    0.100s B job#2 resize_image 1/3: ROLLBACK (the probe only looks)
    2.000s A job#1 send_mail 1/3: done
    ");
}

#[test]
fn scenarios_and_variants_are_named_as_in_the_issue() {
    let names: Vec<(&str, &[&str])> = Scenario::ALL
        .iter()
        .map(|s| (s.id(), s.variants()))
        .collect();
    assert_eq!(
        names,
        [
            ("retry-dead-letter", &["seed", "classified"][..]),
            (
                "duplicate-execution",
                &[
                    "plain",
                    "idempotency-key",
                    "same-order-job-key",
                    "same-order-order-key"
                ][..]
            ),
            ("claim-race", &["two-statement", "atomic"][..]),
            (
                "pg-row-locks",
                &["skip-locked", "lock-timeout", "nowait"][..]
            ),
            (
                "burst-leveling",
                &["direct", "queue-redelivery", "two-tier-jitter"][..]
            ),
            (
                "jitter-contention",
                &["none", "exponential", "full", "equal", "decorrelated"][..]
            ),
            (
                "lease-shorter-than-handler",
                &["naive", "owner-check", "heartbeat"][..]
            ),
        ]
    );
    assert!(run_scenario("claim-race", Some("optimistic"), 1)
        .is_err_and(|e| e.to_string().contains("allowed: two-statement, atomic")));
    assert!(run_scenario("nope", None, 1).is_err_and(|e| e.field() == "scenario"));
}

#[test]
fn step_until_stops_at_the_given_time() {
    let Ok(Some(cfg)) = Scenario::RetryDeadLetter.config(None, 1) else {
        panic!("config");
    };
    let Ok(mut sim) = Simulation::new(cfg) else {
        panic!("valid");
    };
    sim.step_until(modality_advisor::domain::sim::SimTime::from_ms(250));
    let attempts: Vec<u32> = sim.table().rows().iter().map(|r| r.attempts).collect();
    assert_eq!(attempts, [2, 2]);
    assert!(sim.now() <= modality_advisor::domain::sim::SimTime::from_ms(250));
}

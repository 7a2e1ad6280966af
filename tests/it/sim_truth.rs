//! The simulator tells the whole truth about leases (issue 15): the replays of a handler that
//! outlives its lease (40 s handler, 30 s lease, 3 workers, always failing, two attempts at
//! most) naive, with the owner check and with heartbeats; a dead job completed late (one
//! attempt at most) under both expiry rules; `first-runs` counted when a run starts; the same
//! order submitted twice; acknowledging before or after the work; the options' config keys,
//! ranges and log lines.

use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sim::results::log::{Finish, KindNames, LogEntry, LogEvent};
use modality_advisor::domain::sim::setup::config::{Ack, CrashPoint};
use modality_advisor::domain::sim::{
    load_config, run_scenario, Counters, ExpiryRule, LogNames, Report, Scenario, SimConfig,
    SimTime, Simulation, Status,
};

/// The issue's config: one job, handler 40 s, lease 30 s, 3 workers woken on work, always
/// failing, max_attempts 2, retried after 1 s; `extra` adds top-level keys.
fn lease_config(max_attempts: u32, failure: &str, extra: &str) -> SimConfig {
    let text = format!(
        r#"{{ "seed": 1,
  "kinds": [{{ "name": "resize", "max_attempts": {max_attempts},
              "duration": {{ "type": "fixed", "ms": 40000 }},
              "failure": {{ "type": "{failure}" }}, "error": "Error: failed" }}],
  "arrivals": [{{ "kind": 0, "pattern": {{ "type": "burst", "count": 1 }} }}],
  "workers": {{ "count": 3, "poll_ms": 0 }},
  "lease_ms": 30000,
  "retry": {{ "base_ms": 1000, "cap_ms": 1000 }}{extra} }}"#
    );
    match load_config(&text) {
        Ok(c) => c,
        Err(e) => panic!("{e:?}"),
    }
}

fn run(cfg: SimConfig) -> (Vec<String>, Counters, Vec<(Status, u32)>) {
    let mut sim = Simulation::new(cfg).expect("valid");
    sim.run();
    let log = sim.log().iter().map(|l| l.to_string()).collect();
    let rows = sim
        .table()
        .rows()
        .iter()
        .map(|r| (r.status, r.attempts))
        .collect();
    (log, sim.counters().clone(), rows)
}

#[test]
fn naive_the_late_error_requeues_the_row_and_it_runs_a_third_time() {
    let (log, c, rows) = run(lease_config(2, "always", ""));
    assert_eq!(
        log.join("\n"),
        "0.000s job#1 resize 0/2: enqueued
0.000s A job#1 resize 1/2: claimed (UPDATE … RETURNING)
30.000s B job#1 resize 2/2: claimed (UPDATE … RETURNING)
30.000s B job#1 resize 2/2: another run of this job is still going (overlapping runs)
40.000s A job#1 resize 1/2: stale release(): this worker no longer holds the job → applied (no owner check)
40.000s A job#1 resize 1/2: error Error: failed → queued until 41.000s
41.000s C job#1 resize 3/2: claimed (UPDATE … RETURNING)
41.000s C job#1 resize 3/2: another run of this job is still going (overlapping runs)
41.000s C job#1 resize 3/2: attempt past max_attempts (the claim has no attempts check)
70.000s B job#1 resize 2/2: stale release(): this worker no longer holds the job → applied (no owner check)
70.000s B job#1 resize 2/2: error Error: failed → dead
81.000s C job#1 resize 3/2: stale release(): this worker no longer holds the job → applied (no owner check)
81.000s C job#1 resize 3/2: error Error: failed → dead"
    );
    assert_eq!((c.runs, c.failures, c.duplicate_runs), (3, 3, 0));
    assert_eq!(c.lease_counts(), [2, 3, 1, 0, 0, 0]);
    assert_eq!(rows, [(Status::Dead, 3)]);
}

#[test]
fn the_owner_check_refuses_the_stale_results() {
    // With the dead-letter rule (the preset's owner-check variant): two runs, the late errors
    // refused, the job dead when the last lease runs out.
    let (log, c, rows) = run(lease_config(
        2,
        "always",
        r#", "owner_check": true, "expired_on_last_attempt": "dead-letter""#,
    ));
    assert_eq!(
        log.join("\n"),
        "0.000s job#1 resize 0/2: enqueued
0.000s A job#1 resize 1/2: claimed (UPDATE … RETURNING)
30.000s B job#1 resize 2/2: claimed (UPDATE … RETURNING)
30.000s B job#1 resize 2/2: another run of this job is still going (overlapping runs)
40.000s A job#1 resize 1/2: stale release(): this worker no longer holds the job → refused (owner check), the row stays as it is
60.000s job#1 resize 2/2: lease expired on the last attempt → dead (dead-letter rule)
70.000s B job#1 resize 2/2: stale release(): this worker no longer holds the job → refused (owner check), the row stays as it is"
    );
    assert_eq!((c.runs, c.failures), (2, 2));
    assert_eq!(c.lease_counts(), [1, 2, 0, 0, 0, 0]);
    assert_eq!(rows, [(Status::Dead, 2)]);
    let r = run_scenario("lease-shorter-than-handler", Some("owner-check"), 1).expect("runs");
    assert_eq!(
        r.events,
        log.iter()
            .map(|l| l
                .replace("resize", "resize_image")
                .replace("Error: failed", "MemoryError: image too large"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_owner_check_alone_cannot_stop_the_documents_claim_past_max_attempts() {
    // The documents' claim has no attempts check: each lease that runs out under a live
    // handler is claimed again, 3/2, 4/2, … — every late result refused — until the limit.
    let mut cfg = lease_config(2, "always", r#", "owner_check": true"#);
    cfg.limits.max_time = SimTime::from_secs(300);
    let (log, c, _) = run(cfg);
    assert!(log.contains(
        &"60.000s C job#1 resize 3/2: attempt past max_attempts (the claim has no attempts check)"
            .to_owned()
    ));
    assert_eq!(c.claims_over_max, 9, "claims at 60, 90, …, 300 s");
    // Every run that ended by 300 s (those started at 0 … 240 s) ended stale, refused.
    assert_eq!((c.runs, c.failures, c.stale_results), (11, 9, 9));
}

#[test]
fn heartbeats_keep_the_lease_so_the_runs_never_overlap() {
    let (log, c, rows) = run(lease_config(2, "always", r#", "heartbeat_ms": 10000"#));
    assert_eq!(
        log.join("\n"),
        "0.000s job#1 resize 0/2: enqueued
0.000s A job#1 resize 1/2: claimed (UPDATE … RETURNING)
10.000s A job#1 resize 1/2: heartbeat: lease extended until 40.000s
20.000s A job#1 resize 1/2: heartbeat: lease extended until 50.000s
30.000s A job#1 resize 1/2: heartbeat: lease extended until 60.000s
40.000s A job#1 resize 1/2: error Error: failed → queued until 41.000s
41.000s B job#1 resize 2/2: claimed (UPDATE … RETURNING)
51.000s B job#1 resize 2/2: heartbeat: lease extended until 81.000s
61.000s B job#1 resize 2/2: heartbeat: lease extended until 91.000s
71.000s B job#1 resize 2/2: heartbeat: lease extended until 101.000s
81.000s B job#1 resize 2/2: error Error: failed → dead"
    );
    assert_eq!((c.runs, c.failures), (2, 2));
    assert_eq!(c.lease_counts(), [0, 0, 0, 0, 0, 6]);
    assert_eq!(rows, [(Status::Dead, 2)]);
}

#[test]
fn a_crashed_workers_heartbeats_stop() {
    // The duplicate-execution run with heartbeats every 10 s: A dies after its side effect,
    // so its lease is not renewed and B claims at 1031 s as before.
    let mut cfg = Scenario::DuplicateExecution
        .config(Some("plain"), 1)
        .expect("known")
        .expect("a queue model");
    cfg.heartbeat_ms = Some(10_000);
    let (log, c, _) = run(cfg);
    assert_eq!(c.lease_renewals, 0);
    assert!(
        log.contains(&"1031.000s B job#1 add_points 2/3: claimed (UPDATE … RETURNING)".to_owned())
    );
}

#[test]
fn dead_then_done_under_the_dead_letter_rule_is_counted_and_logged() {
    let (log, c, rows) = run(lease_config(
        1,
        "never",
        r#", "expired_on_last_attempt": "dead-letter""#,
    ));
    assert_eq!(
        log.join("\n"),
        "0.000s job#1 resize 0/1: enqueued
0.000s A job#1 resize 1/1: claimed (UPDATE … RETURNING)
30.000s job#1 resize 1/1: lease expired on the last attempt → dead (dead-letter rule)
40.000s A job#1 resize 1/1: stale complete(): this worker no longer holds the job → applied (no owner check)
40.000s A job#1 resize 1/1: done
40.000s A job#1 resize 1/1: a dead job turned done by a late complete()"
    );
    assert_eq!(c.lease_counts(), [0, 1, 0, 1, 0, 0]);
    assert_eq!(rows, [(Status::Done, 1)]);
    // With the owner check the late complete is refused: the job stays dead.
    let (_, c, rows) = run(lease_config(
        1,
        "never",
        r#", "expired_on_last_attempt": "dead-letter", "owner_check": true"#,
    ));
    assert_eq!(c.lease_counts(), [0, 1, 0, 0, 0, 0]);
    assert_eq!(rows, [(Status::Dead, 1)]);
}

#[test]
fn by_default_the_expired_last_attempt_is_claimed_again() {
    let (log, c, rows) = run(lease_config(1, "never", ""));
    assert_eq!(
        log.join("\n"),
        "0.000s job#1 resize 0/1: enqueued
0.000s A job#1 resize 1/1: claimed (UPDATE … RETURNING)
30.000s B job#1 resize 2/1: claimed (UPDATE … RETURNING)
30.000s B job#1 resize 2/1: another run of this job is still going (overlapping runs)
30.000s B job#1 resize 2/1: attempt past max_attempts (the claim has no attempts check)
40.000s A job#1 resize 1/1: stale complete(): this worker no longer holds the job → applied (no owner check)
40.000s A job#1 resize 1/1: done
70.000s B job#1 resize 2/1: stale complete(): this worker no longer holds the job → applied (no owner check)
70.000s B job#1 resize 2/1: done"
    );
    // (B's own lease ran out at 60 s: its complete at 70 s is stale too.)
    assert_eq!((c.runs, c.duplicate_runs), (2, 1));
    assert_eq!(c.lease_counts(), [1, 2, 1, 0, 0, 0]);
    assert_eq!(rows, [(Status::Done, 2)]);
}

#[test]
fn first_runs_fail_by_the_order_the_runs_started() {
    // first-runs k = 1 with overlapping runs: A's run (the first to start) fails at 40 s, B's
    // (the second, started at 30 s) succeeds at 70 s. Counted at the end, A's run would have
    // seen two runs and succeeded.
    let text = r#"{ "seed": 1,
      "kinds": [{ "name": "mail", "max_attempts": 3, "duration": { "type": "fixed", "ms": 40000 },
                  "failure": { "type": "first-runs", "k": 1 }, "error": "TimeoutError" }],
      "arrivals": [{ "kind": 0, "pattern": { "type": "burst", "count": 1 } }],
      "workers": { "count": 2, "poll_ms": 0 }, "lease_ms": 30000,
      "retry": { "base_ms": 100000, "cap_ms": 100000 } }"#;
    let cfg = load_config(text).expect("valid");
    assert!(cfg.is_plain(), "the plain path counts at the start too");
    for general in [false, true] {
        let mut sim = Simulation::new(cfg.clone()).expect("valid");
        if general {
            sim = sim.without_plain_paths();
        }
        sim.run();
        let log: Vec<String> = sim.log().iter().map(|l| l.to_string()).collect();
        assert!(log.contains(
            &"40.000s A job#1 mail 1/3: stale release(): this worker no longer holds the job → applied (no owner check)".to_owned()
        ), "{log:#?}");
        assert!(log.contains(
            &"40.000s A job#1 mail 1/3: error TimeoutError → queued until 140.000s".to_owned()
        ));
        assert!(log.contains(&"70.000s B job#1 mail 2/3: done".to_owned()));
        assert_eq!(sim.counters().failures, 1);
    }
}

#[test]
fn the_same_order_twice_key_from_the_job_id_200_from_the_order_100() {
    let balance = |v: &str| -> (Option<i64>, u64) {
        let r: Report = run_scenario("duplicate-execution", Some(v), 1).expect("runs");
        let m = r.metrics.expect("queue run");
        (r.balance, m.counters.prevented_by_key)
    };
    assert_eq!(balance("same-order-job-key"), (Some(200), 0));
    assert_eq!(balance("same-order-order-key"), (Some(100), 1));
    // The double charge counts as a duplicate effect: the same request, applied twice.
    let dups = |v: &str| {
        let r: Report = run_scenario("duplicate-execution", Some(v), 1).expect("runs");
        r.metrics.expect("queue run").counters.duplicate_effects
    };
    assert_eq!(dups("same-order-job-key"), 1);
    assert_eq!(dups("same-order-order-key"), 0);
    let r = run_scenario("duplicate-execution", Some("same-order-job-key"), 1).expect("runs");
    assert!(r.events.contains(
        &"2.000s job#2 add_points 0/3: enqueued again (the same request submitted twice)"
            .to_owned()
    ));
}

#[test]
fn ack_before_loses_the_crashed_job_and_never_repeats_it() {
    // The duplicate-execution run: A applies the effect and dies before acknowledging.
    let base = Scenario::DuplicateExecution
        .config(Some("plain"), 1)
        .expect("known")
        .expect("a queue model");
    for point in [CrashPoint::AfterEffect, CrashPoint::BeforeEffect] {
        let mut before = base.clone();
        before.ack = Ack::Before;
        before.crash_point = point;
        let (log, c, rows) = run(before);
        let lost = log.contains(&"1000.000s A job#1 add_points 1/3: the job was acknowledged before the work and is lost (never done)".to_owned());
        if point == CrashPoint::BeforeEffect {
            // Died before the work: acknowledged, never done.
            assert_eq!(c.lost_jobs, 1, "{point:?}");
            assert!(lost);
        } else {
            // The effect was applied, then the worker died: the work happened; only the
            // acknowledgement came early. Nothing is lost and nothing repeats.
            assert_eq!(c.lost_jobs, 0, "{point:?}");
            assert!(!lost);
        }
        assert_eq!((c.duplicate_effects, c.duplicate_runs), (0, 0), "{point:?}");
        assert_eq!(
            rows,
            [(Status::Done, 1)],
            "{point:?}: acknowledged at the claim"
        );
        assert!(log.contains(&"1000.000s A job#1 add_points 1/3: acknowledged at the claim, before the work (at-most-once)".to_owned()));
    }
    let mut after = base;
    after.ack = Ack::After;
    let (_, c, rows) = run(after);
    assert_eq!((c.lost_jobs, c.duplicate_effects), (0, 1));
    assert_eq!(rows, [(Status::Done, 2)]);
}

#[test]
fn ack_before_loses_a_failed_job() {
    let (log, c, rows) = run(lease_config(2, "always", r#", "ack": "before""#));
    assert_eq!(c.lost_jobs, 1);
    assert_eq!(c.runs, 1);
    assert_eq!(rows, [(Status::Done, 1)]);
    assert_eq!(log.last().map(String::as_str), Some("40.000s A job#1 resize 1/2: the job was acknowledged before the work and is lost (never done)"));
}

#[test]
fn the_crash_point_before_the_effect_leaves_one_effect() {
    let mut cfg = Scenario::DuplicateExecution
        .config(Some("plain"), 1)
        .expect("known")
        .expect("a queue model");
    cfg.crash_point = CrashPoint::BeforeEffect;
    let mut sim = Simulation::new(cfg).expect("valid");
    sim.run();
    assert_eq!(sim.balance(), 100);
    assert_eq!(sim.counters().duplicate_effects, 0);
    assert_eq!(sim.counters().crashes, 1);
}

#[test]
fn the_lease_options_make_a_config_general_and_default_off() {
    let plain = lease_config(2, "always", "");
    assert!(plain.is_plain());
    assert!(!plain.uses_lease_options());
    for extra in [
        r#", "owner_check": true"#,
        r#", "heartbeat_ms": 1000"#,
        r#", "ack": "before""#,
        r#", "crash_point": "before-effect""#,
        r#", "expired_on_last_attempt": "dead-letter""#,
        r#", "duplicate_submissions": { "after_ms": 0 }"#,
    ] {
        let cfg = lease_config(2, "always", extra);
        assert!(!cfg.is_plain(), "{extra}");
    }
    // Named defaults are the defaults.
    let named = lease_config(
        2,
        "always",
        r#", "owner_check": false, "ack": "after", "crash_point": "after-effect", "expired_on_last_attempt": "reclaim""#,
    );
    assert_eq!(named, plain);
    assert_eq!(plain.expired_on_last_attempt, ExpiryRule::Reclaim);
}

#[test]
fn the_options_ranges_and_names_are_checked() {
    let errors = |extra: &str| -> Vec<String> {
        let text = format!(
            r#"{{ "kinds": [{{ "name": "k" }}], "arrivals": [], "workers": {{ "count": 1 }}, "lease_ms": 30000{extra} }}"#
        );
        match load_config(&text) {
            Ok(_) => Vec::new(),
            Err(e) => e.iter().map(|e| e.to_string()).collect(),
        }
    };
    assert_eq!(
        errors(r#", "heartbeat_ms": 30000"#),
        ["heartbeat_ms is 30000; allowed: 1 to 29999"]
    );
    assert_eq!(
        errors(r#", "heartbeat_ms": 0"#),
        ["heartbeat_ms is 0; allowed: 1 to 2592000000"]
    );
    assert_eq!(
        errors(r#", "duplicate_submissions": { "after_ms": -1 }"#),
        ["duplicate_submissions.after_ms is -1; allowed: 0 to 2592000000"]
    );
    for (extra, field) in [
        (r#", "ack": "never""#, "ack"),
        (r#", "crash_point": 1"#, "crash_point"),
        (
            r#", "expired_on_last_attempt": "dead""#,
            "expired_on_last_attempt",
        ),
        (r#", "owner_check": "yes""#, "owner_check"),
        (
            r#", "duplicate_submissions": { "after": 1 }"#,
            "duplicate_submissions",
        ),
    ] {
        let e = errors(extra);
        assert_eq!(e.len(), 1, "{extra}: {e:?}");
        assert!(e[0].starts_with(field), "{extra}: {e:?}");
    }
    assert!(errors(r#", "ack": "never""#)[0].contains("expected `after` or `before`"));
}

#[test]
fn the_new_log_lines_read_back_and_speak_both_languages() {
    let names = LogNames {
        kinds: vec![KindNames {
            name: "resize".into(),
            max_attempts: 2,
            amount: 100,
            key: Some("points-job-{id}-order-{n}".into()),
        }],
        workers: vec!["A".into()],
        errors: vec!["E".into()],
        builtin_errors: 1,
    };
    let events = [
        LogEvent::Overlap,
        LogEvent::ClaimOverMax,
        LogEvent::StaleResult {
            op: Finish::Complete,
            refused: false,
        },
        LogEvent::StaleResult {
            op: Finish::Release,
            refused: true,
        },
        LogEvent::CompletedAfterDead,
        LogEvent::LeaseExpiredDead,
        LogEvent::AckedEarly,
        LogEvent::Lost,
        LogEvent::LeaseRenewed {
            until: SimTime::from_ms(40_000),
        },
        LogEvent::EnqueuedAgain,
        LogEvent::KeyRejected {
            arrival: 1,
            balance: 100,
        },
    ];
    let tags = [22, 23, 24, 24, 25, 26, 27, 28, 29, 30, 10];
    for (event, tag) in events.into_iter().zip(tags) {
        let e = LogEntry {
            time: SimTime::from_ms(1_000),
            event,
            job: 2,
            kind: 0,
            attempt: 3,
            worker: 0,
        };
        let words = e.to_words();
        assert_eq!(LogEntry::from_words(&words), Some(e.clone()));
        assert_eq!(words[5], tag, "tags follow the existing 0 ..= 21");
        let line = names.line(&e);
        assert_eq!(line.render(Lang::En), line.to_string());
        let ja = line.render(Lang::Ja);
        assert!(!ja.contains("sim-log.") && ja != line.to_string(), "{ja}");
    }
    let rejected = LogEntry {
        time: SimTime::ZERO,
        event: LogEvent::KeyRejected {
            arrival: 1,
            balance: 100,
        },
        job: 2,
        kind: 0,
        attempt: 1,
        worker: 0,
    };
    assert!(names
        .line(&rejected)
        .to_string()
        .contains("idempotency key points-job-2-order-1 already recorded"));
}

#[test]
fn the_new_presets_have_titles_and_two_line_lessons() {
    let sc = Scenario::parse("lease-shorter-than-handler").expect("known");
    assert_eq!(sc.variants(), ["naive", "owner-check", "heartbeat"]);
    let lessons: Vec<Option<String>> = sc.variants().iter().map(|v| sc.variant_lesson(v)).collect();
    assert!(lessons.iter().all(Option::is_some));
    assert_eq!(Scenario::DuplicateExecution.variant_lesson("plain"), None);
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/simulator/sim-presets.yml"),
    )
    .expect("reads");
    let keys = lessons
        .into_iter()
        .flatten()
        .chain(["same-order-job-key", "same-order-order-key"].map(|v| {
            Scenario::DuplicateExecution
                .variant_lesson(v)
                .expect("has one")
        }))
        .chain(["sim.preset.lease-shorter-than-handler.lesson".to_owned()]);
    for key in keys {
        let at = text
            .find(&format!("{key}:\n"))
            .unwrap_or_else(|| panic!("{key}"));
        let mut lines = text[at..].lines().skip(1);
        assert!(
            lines.next().is_some_and(|l| l.starts_with("  en: ")),
            "{key}"
        );
        assert!(
            lines.next().is_some_and(|l| l.starts_with("  ja: ")),
            "{key}"
        );
    }
}

//! The differential test against the real thing (issue 15): the source documents' SQL on real
//! SQLite (`sim_sqlite_driver.rs`) and the engine, through the same generated deterministic
//! scenarios — 1 to 4 workers woken on work or polling, one handler with a fixed duration that
//! fails on each job's first `k` runs, a fixed retry wait, leases shorter and longer than a
//! run, jobs at fixed instants — plus the two replays at their real sizes, must give
//! the same claims, completes and releases (time, worker, job, attempt, outcome) in the same
//! order and the same final table, column by column (`status`, `attempts`, `max_attempts`,
//! `run_after`, `locked_until` with `NULL` as `None`, `last_error`).
//!
//! `the_engine_runs_the_documents_sql` is the requirement; it fails on an engine that
//! still dead-letters an expired last attempt (rule (a)) or counts a `first-runs` run at its end
//! (rule (b)), naming the first differing scenario and operation. To tell those apart from a
//! fault of either side, the SQLite side also runs under the other three combinations of the
//! two rules: `every_difference_is_one_of_the_two_rules` holds before and after that change.
//!
//! One difference of representation is mapped, not counted: the documents' `enqueue` leaves
//! `run_after` at its default `0` (claimable at once) where the engine writes the enqueue
//! instant; a row never released is compared with its enqueue instant.

use crate::sim_sqlite_driver::{self as sql, Op, Outcome, RowOut, Rules, Scenario, Trace};
use modality_advisor::domain::sim::{
    Arrivals, BackoffPolicy, DurationDist, ErrorClass, FailureModel, JobKind, Limits, LogEvent,
    Pattern, SimConfig, SimDuration, SimTime, Simulation, StopReason, WorkerSpec,
};
use std::sync::OnceLock;

/// Scenarios generated (the issue asks for at least 200).
const SCENARIOS: u64 = 300;

/// SplitMix64: the scenarios' own deterministic generator.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick(&mut self, from: &[u64]) -> u64 {
        from[self.below(from.len() as u64) as usize]
    }
}

/// Scenario `number`: times on a 5 ms grid so that events often tie.
fn scenario(number: u64) -> Scenario {
    let mut r = Mix(number.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x15);
    let workers = (0..1 + r.below(4))
        .map(|_| sql::WorkerPlan {
            start_ms: r.pick(&[0, 0, 0, 5, 20]),
            poll_ms: (r.below(2) == 1).then(|| r.pick(&[5, 15, 40])),
        })
        .collect();
    let run_ms = r.pick(&[10, 20, 30, 40, 100]);
    let lease_ms = r.pick(&[5, 15, 25, 30, 40, 60, 300]);
    let wait_ms = r.pick(&[0, 5, 10, 50]);
    let fail_first = r.below(4) as u32;
    let max_attempts = 1 + r.below(4) as u32;
    let mut arrivals_ms: Vec<u64> = (0..1 + r.below(6)).map(|_| 5 * r.below(21)).collect();
    arrivals_ms.sort_unstable();
    Scenario {
        number,
        workers,
        arrivals_ms,
        run_ms,
        lease_ms,
        wait_ms,
        fail_first,
        max_attempts,
    }
}

/// The two replays at their real sizes (3 workers, handler 40 s, lease 30 s): an
/// always-failing job with `max_attempts` 2, and a never-failing one with `max_attempts` 1.
fn replays() -> [Scenario; 2] {
    let woken = sql::WorkerPlan {
        start_ms: 0,
        poll_ms: None,
    };
    let failing = Scenario {
        number: 1_000,
        workers: vec![woken.clone(); 3],
        arrivals_ms: vec![0],
        run_ms: 40_000,
        lease_ms: 30_000,
        wait_ms: 1_000,
        fail_first: 100,
        max_attempts: 2,
    };
    let last = Scenario {
        number: 1_001,
        fail_first: 0,
        max_attempts: 1,
        ..failing.clone()
    };
    [failing, last]
}

/// The same scenario as the engine's config.
fn config(sc: &Scenario) -> SimConfig {
    let mut cfg = SimConfig::empty(sc.number);
    cfg.kinds = vec![JobKind {
        name: sql::NAME.into(),
        max_attempts: sc.max_attempts,
        duration: DurationDist::Fixed { ms: sc.run_ms },
        failure: FailureModel::FirstRuns { k: sc.fail_first },
        error: sql::ERROR.into(),
        error_class: ErrorClass::Retryable,
        effect: None,
        calls_downstream: false,
    }];
    cfg.arrivals = vec![Arrivals {
        kind: 0,
        pattern: Pattern::Times {
            at_ms: sc.arrivals_ms.clone(),
        },
    }];
    cfg.workers = sc
        .workers
        .iter()
        .enumerate()
        .map(|(i, w)| WorkerSpec {
            start: SimTime::from_ms(w.start_ms),
            ..WorkerSpec::new(WorkerSpec::default_name(i), w.poll_ms.unwrap_or(0))
        })
        .collect();
    cfg.lease = SimDuration::from_ms(sc.lease_ms);
    cfg.retry = BackoffPolicy::fixed(SimDuration::from_ms(sc.wait_ms));
    cfg.limits = Limits {
        max_events: 1_000_000,
        max_time: SimTime::from_secs(3_600),
    };
    cfg.log = true;
    cfg
}

/// The engine's run of `sc`: its claims, completes and releases from the event log, and its
/// final table, with `run_after` of a never-released row as the documents write it (`0`).
fn engine(sc: &Scenario) -> Trace {
    let mut sim = Simulation::new(config(sc)).unwrap_or_else(|e| panic!("{sc:?}: {e:?}"));
    assert_eq!(sim.run(), StopReason::Drained, "{sc:?}");
    let ops = sim
        .log()
        .entries
        .iter()
        .filter_map(|e| {
            let outcome = match e.event {
                LogEvent::Claimed(_) => Outcome::Claimed,
                LogEvent::Done => Outcome::Done,
                LogEvent::ErrorQueued { until, .. } => Outcome::Queued(until.0),
                LogEvent::ErrorDead { .. } => Outcome::Dead,
                _ => return None,
            };
            Some(Op {
                time: e.time.0,
                worker: usize::from(e.worker),
                job: u64::from(e.job),
                attempt: e.attempt,
                outcome,
            })
        })
        .collect();
    let table = sim
        .table()
        .rows()
        .iter()
        .map(|j| {
            let enqueued = SimTime::from_ms(sc.arrivals_ms[(j.id.0 - 1) as usize]);
            RowOut {
                id: j.id.0,
                name: sim.kind_name(j.kind).to_owned(),
                status: j.status.id().to_owned(),
                attempts: j.attempts,
                max_attempts: j.max_attempts,
                // The engine's enqueue writes its instant; the documents' leaves the default.
                run_after: if j.run_after == enqueued {
                    0
                } else {
                    j.run_after.0
                },
                locked_until: j.locked_until.map(|t| t.0),
                last_error: j.last_error.map(|e| sim.error_text(e).to_owned()),
            }
        })
        .collect();
    Trace { ops, table }
}

/// The first difference between the documents' trace and the engine's, in words (`None`
/// when they are the same): the first differing operation with the ones before it, else the
/// first differing column of the final table.
fn first_difference(docs: &Trace, eng: &Trace) -> Option<String> {
    let same = docs
        .ops
        .iter()
        .zip(&eng.ops)
        .take_while(|(a, b)| a == b)
        .count();
    if same < docs.ops.len().max(eng.ops.len()) {
        let show = |o: Option<&Op>| o.map_or("(none)".to_owned(), Op::to_string);
        let before: Vec<String> = docs.ops[same.saturating_sub(4)..same]
            .iter()
            .map(|o| format!("    {o}"))
            .collect();
        return Some(format!(
            "operation {} of {} (documents) / {} (engine) differs\n  before it:\n{}\n  documents' SQL: {}\n  engine:         {}",
            same + 1,
            docs.ops.len(),
            eng.ops.len(),
            before.join("\n"),
            show(docs.ops.get(same)),
            show(eng.ops.get(same)),
        ));
    }
    if docs.table.len() != eng.table.len() {
        return Some(format!(
            "final table: {} rows (documents) / {} (engine)",
            docs.table.len(),
            eng.table.len()
        ));
    }
    for (d, e) in docs.table.iter().zip(&eng.table) {
        let columns: [(&str, String, String); 8] = [
            ("id", d.id.to_string(), e.id.to_string()),
            ("name", d.name.clone(), e.name.clone()),
            ("status", d.status.clone(), e.status.clone()),
            ("attempts", d.attempts.to_string(), e.attempts.to_string()),
            (
                "max_attempts",
                d.max_attempts.to_string(),
                e.max_attempts.to_string(),
            ),
            ("run_after", sql::ms(d.run_after), sql::ms(e.run_after)),
            (
                "locked_until",
                format!("{:?}", d.locked_until.map(sql::ms)),
                format!("{:?}", e.locked_until.map(sql::ms)),
            ),
            (
                "last_error",
                format!("{:?}", d.last_error),
                format!("{:?}", e.last_error),
            ),
        ];
        if let Some((col, a, b)) = columns.iter().find(|(_, a, b)| a != b) {
            return Some(format!(
                "final table, job#{} column {col}: documents' SQL {a}, engine {b}",
                d.id
            ));
        }
    }
    None
}

/// What the scenarios show today.
#[derive(Debug, Default)]
struct Tally {
    scenarios: u64,
    identical: u64,
    /// Scenarios where neither rule changes the documents' outcome.
    neither_rule: u64,
    /// Differing scenarios the engine's rule (a) alone explains.
    by_a: u64,
    /// … rule (b) alone.
    by_b: u64,
    /// … only both together.
    by_both: u64,
    /// Differences no rule explains, each with its scenario.
    unexplained: Vec<String>,
    /// The first difference from the documents' SQL.
    first: Option<String>,
    /// Scenarios (documents' rules) where a job is claimed while another worker still runs it.
    overlapping: u64,
    /// … where a claim passes `max_attempts`.
    over_max: u64,
    /// … with a polling worker, with a worker woken on work.
    polling: u64,
    woken: u64,
}

/// Whether, in `ops`, a job is claimed while another run of it is going, and whether a claim
/// passes `max`.
fn exercised(ops: &[Op], max: u32) -> (bool, bool) {
    let mut running: Vec<(u64, usize)> = Vec::new();
    let (mut overlap, mut over_max) = (false, false);
    for op in ops {
        if op.outcome == Outcome::Claimed {
            overlap |= running.iter().any(|&(j, _)| j == op.job);
            over_max |= op.attempt > max;
            running.push((op.job, op.worker));
        } else {
            running.retain(|&r| r != (op.job, op.worker));
        }
    }
    (overlap, over_max)
}

/// Every scenario through SQLite under the four combinations of rules and through the engine
/// (once for both tests).
fn tally() -> &'static Tally {
    static TALLY: OnceLock<Tally> = OnceLock::new();
    TALLY.get_or_init(|| {
        let mut t = Tally::default();
        for sc in (0..SCENARIOS).map(scenario).chain(replays()) {
            let eng = engine(&sc);
            let variants: Vec<Trace> = Rules::ALL.iter().map(|&r| sql::run(&sc, r)).collect();
            t.scenarios += 1;
            let (overlap, over_max) = exercised(&variants[0].ops, sc.max_attempts);
            t.overlapping += u64::from(overlap);
            t.over_max += u64::from(over_max);
            t.polling += u64::from(sc.workers.iter().any(|w| w.poll_ms.is_some()));
            t.woken += u64::from(sc.workers.iter().any(|w| w.poll_ms.is_none()));
            if variants.iter().all(|v| *v == variants[0]) {
                t.neither_rule += 1;
            }
            let Some(diff) = first_difference(&variants[0], &eng) else {
                t.identical += 1;
                continue;
            };
            let which = variants.iter().position(|v| *v == eng);
            let why = match which {
                Some(1) => "the engine's rule (a) alone explains it",
                Some(2) => "the engine's rule (b) alone explains it",
                Some(3) => "rules (a) and (b) together explain it",
                _ => "neither rule explains it",
            };
            let message = format!("scenario {sc:?}\n{diff}\n  ({why})");
            t.first.get_or_insert_with(|| message.clone());
            match which {
                Some(1) => t.by_a += 1,
                Some(2) => t.by_b += 1,
                Some(3) => t.by_both += 1,
                _ => t.unexplained.push(message),
            }
        }
        println!(
            "{} scenarios: {} identical to the documents' SQL, {} differ ({} by rule (a) alone, {} by rule (b) alone, {} by both, {} unexplained); {} exercise neither rule; {} with overlapping runs, {} with claims past max_attempts, {} with a polling worker, {} with a woken one",
            t.scenarios,
            t.identical,
            t.scenarios - t.identical,
            t.by_a,
            t.by_b,
            t.by_both,
            t.unexplained.len(),
            t.neither_rule,
            t.overlapping,
            t.over_max,
            t.polling,
            t.woken,
        );
        t
    })
}

/// The requirement: on every scenario the engine does what the documents' SQL does.
/// (Fails on an engine that still has rule (a) or (b) of issue 15; the message names the first
/// differing scenario and operation.)
#[test]
fn the_engine_runs_the_documents_sql() {
    let t = tally();
    assert!(
        t.identical == t.scenarios,
        "{} of {} scenarios differ from the documents' SQL on SQLite (rule (a) alone explains {}, rule (b) alone {}, both {}, none {}); the first:\n{}",
        t.scenarios - t.identical,
        t.scenarios,
        t.by_a,
        t.by_b,
        t.by_both,
        t.unexplained.len(),
        t.first.as_deref().unwrap_or_default()
    );
}

/// The harness itself: where neither rule of issue 15 matters, the engine and SQLite agree;
/// every other scenario is explained by the engine having the documents' rules or one or both
/// of the two rules issue 15 removes. Holds before and after that change. The scenarios
/// exercise what the rules are about: overlapping runs, claims past `max_attempts`, polling
/// and woken workers.
#[test]
fn every_difference_is_one_of_the_two_rules() {
    let t = tally();
    assert!(t.scenarios >= 200);
    assert!(
        t.neither_rule >= t.scenarios / 2,
        "only {} scenarios exercise neither rule",
        t.neither_rule
    );
    for (what, n) in [
        ("overlapping runs", t.overlapping),
        ("claims past max_attempts", t.over_max),
        ("a polling worker", t.polling),
        ("a woken worker", t.woken),
    ] {
        assert!(n >= 20, "only {n} scenarios with {what}");
    }
    assert!(
        t.unexplained.is_empty(),
        "{} scenarios differ from the documents' SQL in a way neither rule explains; the first:\n{}",
        t.unexplained.len(),
        t.unexplained.first().cloned().unwrap_or_default()
    );
}

/// The reference side alone, against the account of its first replay: B reclaims at
/// 30 s as attempt 2/2 while A still runs, A's error at 40 s puts the row back to `queued`, and
/// it is claimed again at 41 s as attempt 3/2 (by C, idle longest); both late errors then find
/// their claimed attempt at the maximum and write `dead`.
#[test]
fn the_documents_sql_claims_past_max_attempts_after_a_late_release() {
    let [failing, _] = replays();
    let s = 1_000_000;
    let op = |time, worker, attempt, outcome| Op {
        time,
        worker,
        job: 1,
        attempt,
        outcome,
    };
    let trace = sql::run(&failing, Rules::DOCUMENTS);
    assert_eq!(
        trace.ops,
        [
            op(0, 0, 1, Outcome::Claimed),
            op(30 * s, 1, 2, Outcome::Claimed),
            op(40 * s, 0, 1, Outcome::Queued(41 * s)),
            op(41 * s, 2, 3, Outcome::Claimed),
            op(70 * s, 1, 2, Outcome::Dead),
            op(81 * s, 2, 3, Outcome::Dead),
        ]
    );
    let row = &trace.table[0];
    assert_eq!(
        (row.status.as_str(), row.attempts, row.max_attempts),
        ("dead", 3, 2)
    );
    assert_eq!((row.run_after, row.locked_until), (41 * s, None));
    assert_eq!(row.last_error.as_deref(), Some(sql::ERROR));
}

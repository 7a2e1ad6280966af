//! Frames for stepping small runs (`domain::sim::results::frames`): the exact table moves per engine
//! step, replaying to the final table.

use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sim::results::frames::{Frame, MAX_FRAME_EVENTS};
use modality_advisor::domain::sim::runner::{run, RunRequest, RunView, LOAD_SCENARIO};
use modality_advisor::domain::sim::{
    JobsTable, KindId, Scenario, SimDuration, SimTime, Status, Transition,
};

fn view(scenario: &str, variant: Option<&str>, seed: u64) -> RunView {
    run(
        &RunRequest {
            id: 1,
            scenario: scenario.into(),
            variant: variant.map(String::from),
            seed,
            jobs: Some(2_000),
            custom: None,
        },
        1_000,
        |_| {},
    )
    .expect("runs")
}

/// Log lines `from .. to` (0-based) in English, from the view's head.
fn lines(v: &RunView, from: u64, to: u64) -> Vec<String> {
    assert!(to as usize <= v.log_head.len(), "in the head");
    v.log_head[from as usize..to as usize]
        .iter()
        .map(|e| v.log_names.line(e).render(Lang::En))
        .collect()
}

/// Final counts in frame order (queued, running, done, dead) from the view's
/// (done, dead, queued, running).
fn final_counts(v: &RunView) -> [u64; 4] {
    let [d, x, q, r] = v.counts;
    [q, r, d, x]
}

fn moves_total(v: &RunView, t: Transition) -> u64 {
    v.frames.iter().map(|f| f.times(t)).sum()
}

/// Every invariant of the frames of one run.
fn check_frames(v: &RunView) {
    let what = format!("{} / {} seed {}", v.scenario, v.variant, v.seed);
    let f = &v.frames;
    assert_eq!(f.len() as u64, v.events + 1, "{what}: start + one per step");
    assert_eq!(f[0], Frame::start(), "{what}");
    for (i, w) in f.windows(2).enumerate() {
        assert_eq!(
            w[1].counts,
            Frame::apply(w[0].counts, &w[1].moves),
            "{what}: frame {} = frame {i} + its moves",
            i + 1
        );
        assert!(w[0].time_us <= w[1].time_us, "{what}: time goes forward");
        assert!(w[0].log_len <= w[1].log_len, "{what}: the log only grows");
        assert!(
            w[1].moves.iter().all(|&(_, n)| n > 0),
            "{what}: no empty moves"
        );
    }
    let last = f.last().expect("frames");
    assert_eq!(
        last.counts,
        final_counts(v),
        "{what}: replay ends at the table"
    );
    assert_eq!(last.log_len, v.log_total, "{what}");
    assert_eq!(
        moves_total(v, Transition::ENQUEUE),
        v.jobs.len() as u64,
        "{what}: one enqueue per row"
    );
}

#[test]
fn retry_dead_letter_frames_step_through_the_seed_run() {
    let v = view("retry-dead-letter", Some("seed"), 1);
    check_frames(&v);
    let f = &v.frames;
    // Step 1: send_mail is enqueued; step 2: resize_image.
    assert_eq!(f[1].counts, [1, 0, 0, 0]);
    assert_eq!(f[1].moves, vec![(Transition::ENQUEUE.0, 1)]);
    assert_eq!(
        lines(&v, 0, f[1].log_len),
        ["0.000s job#1 send_mail 0/5: enqueued"]
    );
    assert_eq!(f[2].counts, [2, 0, 0, 0]);
    // Step 3: worker A claims job 1.
    assert_eq!(f[3].counts, [1, 1, 0, 0]);
    assert_eq!(f[3].moves, vec![(Transition::CLAIM.0, 1)]);
    // The step in which send_mail's first attempt fails and goes back to queued
    // (running → queued with run_after), and A loops into claiming job 2.
    let i = f
        .iter()
        .position(|x| x.times(Transition::RETRY) > 0)
        .expect("a retry");
    assert_eq!(i, 4);
    assert_eq!(f[4].counts, [1, 1, 0, 0]);
    assert_eq!(f[4].times(Transition::RETRY), 1);
    assert_eq!(f[4].times(Transition::CLAIM), 1);
    assert_eq!(
        lines(&v, f[3].log_len, f[4].log_len),
        [
            "0.000s A job#1 send_mail 1/5: error TimeoutError: mail server did not respond → queued until 0.200s",
            "0.000s A job#2 resize_image 1/3: claimed (UPDATE … RETURNING)",
        ]
    );
    // Idle polls during the 200 ms wait: time moves, nothing else.
    assert_eq!(f[6].time_us, 50_000);
    assert!(f[6].moves.is_empty());
    // Totals: 2 enqueues, 6 claims, 4 retries, 1 complete, 1 dead-letter; 1 done / 1 dead.
    assert_eq!(moves_total(&v, Transition::CLAIM), 6);
    assert_eq!(moves_total(&v, Transition::RETRY), 4);
    assert_eq!(moves_total(&v, Transition::COMPLETE), 1);
    assert_eq!(moves_total(&v, Transition::DEAD_LETTER), 1);
    assert_eq!(f.last().map(|x| x.counts), Some([0, 0, 1, 1]));
    assert_eq!(v.counts, [1, 1, 0, 0], "done / dead / queued / running");
}

#[test]
fn classified_errors_dead_letter_on_the_first_attempt() {
    let v = view("retry-dead-letter", Some("classified"), 1);
    check_frames(&v);
    let i = v
        .frames
        .iter()
        .position(|x| x.times(Transition::DEAD_LETTER) > 0)
        .expect("dead-lettered");
    assert!(lines(&v, v.frames[i - 1].log_len, v.frames[i].log_len)
        .iter()
        .any(|l| l.contains("resize_image 1/3") && l.ends_with("(permanent) → dead")));
}

#[test]
fn each_lesson_shows_its_own_move() {
    // Duplicate execution: B claims the job again after A's lease expired.
    let dup = view("duplicate-execution", Some("plain"), 1);
    assert_eq!(moves_total(&dup, Transition::RECLAIM), 1);
    assert_eq!(moves_total(&dup, Transition::DOUBLE_CLAIM), 0);
    // Claim race: the second UPDATE by id takes a row that is already running.
    let race = view("claim-race", Some("two-statement"), 1);
    assert!(moves_total(&race, Transition::DOUBLE_CLAIM) >= 1);
    // … and both workers complete it: the second complete finds it done already.
    assert!(moves_total(&race, Transition::COMPLETE_AGAIN) >= 1);
    let atomic = view("claim-race", Some("atomic"), 1);
    assert_eq!(moves_total(&atomic, Transition::DOUBLE_CLAIM), 0);
    // Row locks: the probe's ROLLBACK puts the row back to queued.
    let skip = view("pg-row-locks", Some("skip-locked"), 1);
    assert_eq!(moves_total(&skip, Transition::ROLLBACK), 1);
}

#[test]
fn frames_replay_to_the_table_for_every_scenario_and_variant() {
    for seed in [0, 1, 7, 2_026] {
        for sc in Scenario::ALL {
            for &var in sc.variants() {
                let v = view(sc.id(), Some(var), seed);
                if sc == Scenario::JitterContention {
                    assert!(v.frames.is_empty(), "not a queue model");
                    continue;
                }
                assert!(v.events <= MAX_FRAME_EVENTS, "{} is small", sc.id());
                if v.frames.is_empty() {
                    // A run that never used the queue (burst / direct calls) has no states to
                    // step through: no row, no events in the table.
                    assert!(v.events > 0, "{} / {var}: it ran", sc.id());
                    assert_eq!(v.counts, [0; 4], "{} / {var}: no row", sc.id());
                    assert!(v.jobs.is_empty(), "{} / {var}: no row", sc.id());
                    continue;
                }
                check_frames(&v);
                // The presets only make the source documents' moves, never a catch-all one —
                // except the one that shows a stale result applied: its last late `release`
                // writes a row already `dead` (dead → dead).
                let catch_all = v
                    .frames
                    .iter()
                    .flat_map(|f| &f.moves)
                    .any(|&(t, _)| usize::from(t) >= Transition::NAMED);
                let stale = (sc, var) == (Scenario::LeaseShorterThanHandler, "naive");
                assert_eq!(catch_all, stale, "{} / {var}", sc.id());
            }
        }
    }
}

#[test]
fn big_runs_carry_no_frames() {
    let v = run(
        &RunRequest {
            id: 1,
            scenario: LOAD_SCENARIO.into(),
            variant: None,
            seed: 1,
            jobs: Some(20_000),
            custom: None,
        },
        1_000,
        |_| {},
    )
    .expect("runs");
    assert!(v.events > MAX_FRAME_EVENTS);
    assert!(v.frames.is_empty());
    // Written as an empty list (the worker's compact form reads fields by position).
    let json = serde_json::to_string(&v).expect("json");
    assert!(json.contains("\"frames\":[]"), "no frame in the message");
}

#[test]
fn frames_survive_the_worker_message() {
    let v = view("claim-race", Some("atomic"), 1);
    let json = serde_json::to_string(&v).expect("json");
    assert!(json.contains(r#""frames":[{"t":0,"c":[0,0,0,0],"m":[],"l":0},"#));
    let back: RunView = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, v);
}

#[test]
fn transitions_name_their_end_states() {
    use Status::*;
    let named = [
        (Transition::ENQUEUE, "enqueue", None, Queued),
        (Transition::CLAIM, "claim", Some(Queued), Running),
        (Transition::RECLAIM, "reclaim", Some(Running), Running),
        (
            Transition::DOUBLE_CLAIM,
            "double-claim",
            Some(Running),
            Running,
        ),
        (Transition::COMPLETE, "complete", Some(Running), Done),
        (Transition::RETRY, "retry", Some(Running), Queued),
        (Transition::DEAD_LETTER, "dead-letter", Some(Running), Dead),
        (Transition::EXPIRE, "expire", Some(Running), Dead),
        (Transition::ROLLBACK, "rollback", Some(Running), Queued),
        (
            Transition::COMPLETE_AGAIN,
            "complete-again",
            Some(Done),
            Done,
        ),
    ];
    assert_eq!(named.len(), Transition::NAMED);
    for (t, id, from, to) in named {
        assert_eq!((t.id(), t.from(), t.to()), (id, from, to));
    }
    for from in Status::ALL {
        for to in Status::ALL {
            let t = Transition::other(from, to);
            assert!(usize::from(t.0) < Transition::COUNT);
            assert_eq!((t.id(), t.from(), t.to()), ("other", Some(from), to));
        }
    }
}

#[test]
fn the_table_counts_every_write_it_accepts() {
    let k = KindId(0);
    let lease = SimDuration::from_secs(1);
    let mut t = JobsTable::new();
    t.set_expiry_rule(modality_advisor::domain::sim::ExpiryRule::DeadLetter);
    let a = t.enqueue(k, 1, SimTime::ZERO);
    let b = t.enqueue(k, 3, SimTime::ZERO);
    let n = |t: &JobsTable, x: Transition| t.transitions()[usize::from(x.0)];
    assert_eq!(n(&t, Transition::ENQUEUE), 2);
    assert_eq!(t.claim(SimTime::ZERO, lease).map(|r| r.id), Some(a));
    assert_eq!(t.claim(SimTime::ZERO, lease).map(|r| r.id), Some(b));
    assert_eq!(n(&t, Transition::CLAIM), 2);
    // Job a's lease ends on its only attempt: dead at the next look.
    t.refresh(SimTime::from_secs(1));
    assert_eq!(t.get(a).map(|r| r.status), Some(Status::Dead));
    assert_eq!(n(&t, Transition::EXPIRE), 1);
    // Job b's lease has expired too: claimed again.
    assert_eq!(t.claim(SimTime::from_secs(1), lease).map(|r| r.id), Some(b));
    assert_eq!(n(&t, Transition::RECLAIM), 1);
    // The two-statement race: an UPDATE by id on a row another worker holds.
    t.mark_running(b, SimTime::from_secs(1), lease);
    assert_eq!(n(&t, Transition::DOUBLE_CLAIM), 1);
    assert!(t.complete(b));
    assert_eq!(n(&t, Transition::COMPLETE), 1);
    assert!(t.complete(b));
    assert_eq!(n(&t, Transition::COMPLETE_AGAIN), 1);
    // The worker that lost its lease releases the finished job: done → queued, not a retry.
    t.release(
        b,
        1,
        modality_advisor::domain::sim::ErrorId(0),
        SimTime::from_secs(2),
        lease,
    );
    assert_eq!(n(&t, Transition::RETRY), 0);
    assert_eq!(n(&t, Transition::other(Status::Done, Status::Queued)), 1);
    let counts = Status::ALL.map(|s| t.count(s));
    let all: Vec<(u8, u64)> = (0..Transition::COUNT as u8)
        .map(|i| (i, n(&t, Transition(i))))
        .collect();
    assert_eq!(Frame::apply([0; 4], &all), counts);
}

#[test]
fn custom_runs_from_the_knobs_get_frames_too() {
    use modality_advisor::domain::sim::setup::knobs::{ArrivalMode, CustomRun, DurationMode};
    let configs = [
        CustomRun::default(),
        // Workers that die before complete: leases expire and rows are claimed again.
        CustomRun {
            crash_percent: 30,
            idempotency_key: false,
            ..CustomRun::default()
        },
        CustomRun {
            arrivals: ArrivalMode::Poisson,
            duration: DurationMode::Uniform,
            duration_ms: 10,
            duration_hi_ms: 50,
            downstream: true,
            rate_limit_per_s: 3,
            outage_from_ms: 1_000,
            outage_for_ms: 2_000,
            ..CustomRun::default()
        },
    ];
    let mut stepped = 0;
    for (i, c) in configs.iter().enumerate() {
        for seed in [1, 2, 3] {
            let req = RunRequest {
                id: 1,
                scenario: String::new(),
                variant: None,
                seed,
                jobs: None,
                custom: Some(c.clone()),
            };
            let v = run(&req, 1_000, |_| {}).expect("runs");
            if v.events > MAX_FRAME_EVENTS {
                assert!(v.frames.is_empty(), "config {i}: too big to step");
                continue;
            }
            assert!(!v.frames.is_empty(), "config {i}");
            let f = &v.frames;
            assert_eq!(f.len() as u64, v.events + 1);
            for w in f.windows(2) {
                assert_eq!(w[1].counts, Frame::apply(w[0].counts, &w[1].moves));
            }
            assert_eq!(f.last().map(|x| x.counts), Some(final_counts(&v)));
            stepped += 1;
        }
    }
    assert!(stepped >= 6, "most of these are small: {stepped}");
}

//! The jobs table's operations (`docs/DOMAIN.md` §2) and the backoff formulas (§5).

use modality_advisor::domain::sim::{
    BackoffPolicy, ErrorId, EventQueue, ExpiryRule, JobId, JobsTable, KindId, Released,
    SimDuration, SimRng, SimTime, Status, Strategy,
};

const LEASE: SimDuration = SimDuration::from_secs(30);

fn ms(n: u64) -> SimTime {
    SimTime::from_ms(n)
}

fn table(n: u64, max: u32) -> JobsTable {
    let mut t = JobsTable::new();
    for _ in 0..n {
        t.enqueue(KindId(0), max, SimTime::ZERO);
    }
    t
}

fn claim(t: &mut JobsTable, at: SimTime) -> Option<(u64, u32)> {
    t.claim(at, LEASE).map(|j| (j.id.0, j.attempts))
}

#[test]
fn claim_takes_the_lowest_claimable_id_and_counts_the_attempt() {
    let mut t = table(3, 3);
    assert_eq!(claim(&mut t, ms(0)), Some((1, 1)));
    assert_eq!(claim(&mut t, ms(0)), Some((2, 1)));
    let row = t.get(JobId(1)).cloned();
    assert_eq!(
        row.map(|r| (r.status, r.locked_until)),
        Some((Status::Running, Some(ms(30_000))))
    );
}

#[test]
fn run_after_keeps_a_released_job_back_until_its_time() {
    let mut t = table(1, 3);
    let _ = claim(&mut t, ms(0));
    let r = t.release(JobId(1), 1, ErrorId(0), ms(0), SimDuration::from_ms(200));
    assert_eq!(r, Some(Released::Queued { run_after: ms(200) }));
    assert_eq!(claim(&mut t, ms(199)), None);
    assert_eq!(claim(&mut t, ms(200)), Some((1, 2)));
}

#[test]
fn an_expired_lease_is_reclaimed() {
    let mut t = table(1, 3);
    let _ = claim(&mut t, ms(1_000_000));
    assert_eq!(claim(&mut t, ms(1_029_999)), None);
    assert_eq!(claim(&mut t, ms(1_030_000)), Some((1, 2)));
}

#[test]
fn an_expired_lease_on_the_last_attempt_goes_to_dead() {
    let mut t = table(1, 1);
    t.set_expiry_rule(ExpiryRule::DeadLetter);
    t.set_expiry_error(ErrorId(7));
    let _ = claim(&mut t, ms(0));
    assert_eq!(claim(&mut t, ms(30_000)), None);
    let row = t.get(JobId(1)).cloned();
    assert_eq!(
        row.map(|r| (r.status, r.attempts, r.last_error)),
        Some((Status::Dead, 1, Some(ErrorId(7))))
    );
}

#[test]
fn release_goes_dead_when_attempts_are_used_up_and_complete_keeps_last_error() {
    let mut t = table(2, 2);
    let _ = claim(&mut t, ms(0));
    assert_eq!(
        t.release(JobId(1), 1, ErrorId(3), ms(0), SimDuration::ZERO),
        Some(Released::Queued { run_after: ms(0) })
    );
    assert_eq!(claim(&mut t, ms(0)), Some((1, 2)));
    assert_eq!(
        t.release(JobId(1), 2, ErrorId(4), ms(0), SimDuration::ZERO),
        Some(Released::Dead)
    );
    let _ = claim(&mut t, ms(0));
    let _ = t.release(JobId(2), 1, ErrorId(5), ms(0), SimDuration::ZERO);
    let _ = claim(&mut t, ms(0));
    assert!(t.complete(JobId(2)));
    let rows: Vec<_> = t
        .rows()
        .iter()
        .map(|r| (r.status, r.attempts, r.last_error))
        .collect();
    assert_eq!(
        rows,
        [
            (Status::Dead, 2, Some(ErrorId(4))),
            (Status::Done, 2, Some(ErrorId(5)))
        ]
    );
    assert_eq!(
        (
            t.count(Status::Done),
            t.count(Status::Dead),
            t.count(Status::Queued)
        ),
        (1, 1, 0)
    );
}

#[test]
fn the_second_statement_of_a_two_statement_claim_does_not_recheck() {
    let mut t = table(2, 3);
    let a = t.peek_claimable(ms(0));
    let b = t.peek_claimable(ms(0));
    assert_eq!((a, b), (Some(JobId(1)), Some(JobId(1))));
    let _ = t.mark_running(JobId(1), ms(0), LEASE);
    let twice = t.mark_running(JobId(1), ms(0), LEASE).map(|r| r.attempts);
    assert_eq!(twice, Some(2));
}

#[test]
fn unknown_ids_are_refused_without_panicking() {
    let mut t = table(1, 3);
    assert!(!t.complete(JobId(9)));
    assert!(!t.complete(JobId(0)));
    assert_eq!(
        t.release(JobId(9), 1, ErrorId(0), ms(0), SimDuration::ZERO),
        None
    );
    assert_eq!(t.mark_running(JobId(9), ms(0), LEASE), None);
}

#[test]
fn events_at_the_same_time_pop_first_in_first_out() {
    let mut q = EventQueue::new();
    q.schedule(ms(5), "c");
    q.schedule(ms(1), "a");
    q.schedule(ms(5), "d");
    q.schedule(ms(1), "b");
    let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
    assert_eq!(order, ["a", "b", "c", "d"]);
}

/// `(strategy, retry n, previous wait ms, lowest ms, highest ms)` with base 5 ms, cap 2000 ms.
fn check_backoff(strategy: Strategy, n: u32, prev: Option<u64>, lo: u64, hi: u64) {
    let p = BackoffPolicy::named(
        strategy,
        SimDuration::from_ms(5),
        SimDuration::from_ms(2_000),
    );
    let mut rng = SimRng::new(42);
    let prev = prev.map(SimDuration::from_ms);
    let (mut min, mut max) = (u64::MAX, 0);
    for _ in 0..2_000 {
        let w = p.wait(n, prev, &mut rng).as_micros();
        min = min.min(w);
        max = max.max(w);
    }
    let (lo, hi) = (lo * 1_000, hi * 1_000);
    assert!(
        lo <= min && max <= hi,
        "{} n={n}: [{min}, {max}] µs not within [{lo}, {hi}]",
        strategy.id()
    );
    // The draws spread over most of the range (or are exactly the fixed value).
    assert!(
        max - min >= (hi - lo) * 9 / 10,
        "{} n={n}: [{min}, {max}] µs",
        strategy.id()
    );
}

#[test]
fn backoff_formulas_follow_the_aws_post() {
    check_backoff(Strategy::None, 0, None, 5, 5);
    check_backoff(Strategy::None, 9, None, 5, 5);
    check_backoff(Strategy::Exponential, 0, None, 5, 5);
    check_backoff(Strategy::Exponential, 3, None, 40, 40);
    check_backoff(Strategy::Exponential, 20, None, 2_000, 2_000);
    check_backoff(Strategy::Full, 3, None, 0, 40);
    check_backoff(Strategy::Full, 30, None, 0, 2_000);
    check_backoff(Strategy::Equal, 3, None, 20, 40);
    check_backoff(Strategy::Equal, 30, None, 1_000, 2_000);
    check_backoff(Strategy::Decorrelated, 0, None, 5, 15);
    check_backoff(Strategy::Decorrelated, 4, Some(100), 5, 300);
    check_backoff(Strategy::Decorrelated, 4, Some(1_500), 5, 2_000);
}

#[test]
fn time_prints_in_seconds() {
    assert_eq!(ms(1_031_000).to_string(), "1031.000s");
    assert_eq!(SimTime(10_250).to_string(), "0.010250s");
    assert_eq!(SimTime::MAX.plus(SimDuration::from_ms(1)), SimTime::MAX);
}

#[test]
fn the_event_queue_pops_in_time_then_schedule_order_at_every_size() {
    // Sizes cross the queue's switch between its array and heap forms both ways.
    let mut q = EventQueue::new();
    let mut model: Vec<(u64, u64)> = Vec::new();
    let mut rng = SimRng::new(7);
    let mut seq = 0;
    for round in 0..4_000u64 {
        let grow = (round / 500) % 2 == 0;
        if rng.chance(if grow { 0.7 } else { 0.3 }) {
            let t = rng.uniform_u64(0, 40);
            q.schedule(SimTime(t), seq);
            model.push((t, seq));
            seq += 1;
        } else {
            model.sort_unstable();
            let want = (!model.is_empty()).then(|| model.remove(0));
            assert_eq!(q.peek_time().map(|t| t.0), want.map(|w| w.0));
            assert_eq!(q.pop().map(|(t, e)| (t.0, e)), want);
        }
        assert_eq!(q.len(), model.len());
    }
}

#[test]
fn claims_follow_the_lowest_claimable_id_across_many_rows() {
    // 5 000 rows span several words of every level of the ready set's bitset; random claims,
    // completions and releases must always agree with a scan of the rows.
    lowest_claimable_agrees_with_a_scan(5_000, 20_000, 3);
}

#[test]
fn claims_follow_the_lowest_claimable_id_while_the_ready_set_empties_and_refills() {
    // 40 rows in one word of the bitset: claims and completions empty the ready set, releases
    // refill it, over and over.
    for seed in 0..20 {
        lowest_claimable_agrees_with_a_scan(40, 2_000, seed);
    }
}

fn lowest_claimable_agrees_with_a_scan(rows: u64, steps: u32, seed: u64) {
    let mut t = table(rows, 1_000);
    let mut rng = SimRng::new(seed);
    let mut now = 0;
    for _ in 0..steps {
        now += rng.uniform_u64(0, 3);
        let at = SimTime(now);
        let lowest = t
            .rows()
            .iter()
            .find(|r| JobsTable::claimable(r, at))
            .map(|r| r.id);
        assert_eq!(t.peek_claimable(at), lowest);
        let id = JobId(rng.uniform_u64(1, rows));
        match rng.uniform_u64(0, 3) {
            0 => {
                let _ = t.claim(at, SimDuration(1_000));
            }
            1 => {
                let _ = t.complete(id);
            }
            2 => {
                let _ = t.release(id, 1, ErrorId(0), at, SimDuration(rng.uniform_u64(0, 5)));
            }
            _ => {
                let skip = rng.uniform_u64(1, rows);
                let want = t
                    .rows()
                    .iter()
                    .find(|r| JobsTable::claimable(r, at) && r.id.0 > skip)
                    .map(|r| r.id);
                assert_eq!(t.peek_claimable_where(at, |j| j.0 <= skip), want);
            }
        }
    }
}

#[test]
fn rows_and_get_follow_every_change() {
    // The table keeps compact rows and builds its `Job` view on demand: a view read before a
    // change must not be served after it.
    let mut t = table(2, 3);
    assert_eq!(t.get(JobId(1)).map(|r| r.status), Some(Status::Queued));
    let _ = claim(&mut t, ms(0));
    assert_eq!(
        t.get(JobId(1))
            .map(|r| (r.status, r.attempts, r.locked_until)),
        Some((Status::Running, 1, Some(ms(30_000))))
    );
    assert!(t.complete(JobId(1)));
    let rows: Vec<_> = t.rows().iter().map(|r| (r.id.0, r.status)).collect();
    assert_eq!(rows, [(1, Status::Done), (2, Status::Queued)]);
    t.enqueue(KindId(1), 2, ms(5));
    assert_eq!(t.rows().len(), 3);
    assert_eq!(
        t.row(JobId(3)).map(|r| (r.kind, r.run_after)),
        Some((KindId(1), ms(5)))
    );
    assert_eq!(t.iter().map(|r| r.id.0).collect::<Vec<_>>(), [1, 2, 3]);
}

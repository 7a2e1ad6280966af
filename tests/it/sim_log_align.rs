//! Compare's event logs side by side: the duplicate-execution preset with and without an
//! idempotency key parts at the second run's side effect, and the alignment keeps every line
//! of both logs in time order.

use modality_advisor::domain::sim::results::log_align::{align_heads, align_logs};
use modality_advisor::domain::sim::{Scenario, Simulation};

fn run(variant: &str) -> Simulation {
    let cfg = Scenario::DuplicateExecution
        .config(Some(variant), 1)
        .expect("the preset builds")
        .expect("a queue model");
    let mut sim = Simulation::new(cfg).expect("the preset runs");
    sim.run();
    sim
}

#[test]
fn duplicate_execution_parts_where_the_key_stops_the_second_effect() {
    let (a, b) = (run("plain"), run("idempotency-key"));
    let (la, lb) = (a.log(), b.log());
    let ea: Vec<_> = la.entries.iter().cloned().collect();
    let eb: Vec<_> = lb.entries.iter().cloned().collect();
    let aligned = align_logs(&ea, la.names, &eb, lb.names);
    let first = aligned.first_difference.expect("the runs differ");
    let row = aligned.rows[first];
    let text_a = la.names.line(&ea[row.a.expect("A has a line")]).to_string();
    let text_b = lb.names.line(&eb[row.b.expect("B has a line")]).to_string();
    assert!(text_a.contains("side effect applied"), "{text_a}");
    assert!(text_b.contains("already recorded"), "{text_b}");
    // Every row before it is the same line on both sides.
    for r in &aligned.rows[..first] {
        assert!(!r.differs);
        let (x, y) = (r.a.unwrap(), r.b.unwrap());
        assert_eq!(
            la.names.line(&ea[x]).to_string(),
            lb.names.line(&eb[y]).to_string()
        );
    }
    // Every line of both logs appears once, in order.
    let seen_a: Vec<usize> = aligned.rows.iter().filter_map(|r| r.a).collect();
    let seen_b: Vec<usize> = aligned.rows.iter().filter_map(|r| r.b).collect();
    assert_eq!(seen_a, (0..ea.len()).collect::<Vec<_>>());
    assert_eq!(seen_b, (0..eb.len()).collect::<Vec<_>>());
}

#[test]
fn the_same_log_has_no_difference_and_a_cut_head_is_not_called_missing() {
    let a = run("plain");
    let l = a.log();
    let e: Vec<_> = l.entries.iter().cloned().collect();
    let same = align_logs(&e, l.names, &e, l.names);
    assert_eq!(same.first_difference, None);
    assert_eq!(same.rows.len(), e.len());
    // B sent only its first three lines of the same log: no difference, and the cut is said.
    let (cut, was_cut) = align_heads(
        (&e, l.names, e.len() as u64),
        (&e[..3], l.names, e.len() as u64),
    );
    assert!(was_cut);
    assert_eq!(cut.first_difference, None, "{cut:?}");
    assert!(cut.rows.len() <= 3);
}

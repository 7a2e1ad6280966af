//! `Retention::FirstRows` on a run long enough for the periodic sweeps (more than
//! `SWEEP_EVERY` enqueues): the same run as with every row kept, minus the deleted rows.
//! Generated small configs are covered by `sim_props::deleting_finished_rows_…`.

use modality_advisor::domain::sim::reference::erlang::MmcModel;
use modality_advisor::domain::sim::{JobsTable, Retention, Simulation, Status};
use std::collections::BTreeMap;

fn summary(t: &JobsTable) -> BTreeMap<(&'static str, u32, u32), u64> {
    let mut m = BTreeMap::new();
    for (s, a, max, n) in t.attempts_summary() {
        *m.entry((s.id(), a, max)).or_insert(0) += n;
    }
    m
}

#[test]
fn a_long_run_keeps_the_first_rows_and_the_same_figures() {
    let mut cfg = MmcModel::bench(12_000, 7).config();
    cfg.retention = Retention::All;
    let mut all = Simulation::new(cfg.clone()).expect("valid");
    cfg.retention = Retention::FirstRows(200);
    let mut some = Simulation::new(cfg).expect("valid");
    // Mid-run, after a few sweeps: the same counts, fewer rows.
    let mid = modality_advisor::domain::sim::SimTime::from_secs(500);
    all.step_until(mid);
    some.step_until(mid);
    assert!(
        some.table().len() > 8_192,
        "{} rows: two sweeps have run",
        some.table().len()
    );
    for s in Status::ALL {
        assert_eq!(all.table().count(s), some.table().count(s));
    }
    assert!(some.table().deleted() > 0);
    assert!(
        some.table().rows().len() < 4_096 + 300,
        "{} rows kept",
        some.table().rows().len()
    );
    all.run();
    some.run();
    let (ta, tb) = (all.table(), some.table());
    assert_eq!(all.events(), some.events());
    assert_eq!(all.counters(), some.counters());
    assert_eq!(all.waits(), some.waits());
    assert_eq!(all.latencies(), some.latencies());
    assert_eq!(summary(ta), summary(tb));
    assert_eq!(ta.len(), 12_000);
    assert_eq!(tb.len(), 12_000);
    // Drained: every row finished, so exactly the first 200 stay, as they are in the full table.
    assert_eq!(tb.rows(), &ta.rows()[..200]);
    assert_eq!(tb.deleted(), 12_000 - 200);
    assert_eq!(tb.get(modality_advisor::domain::sim::JobId(201)), None);
}

#[test]
fn the_page_view_counts_deleted_rows_too() {
    use modality_advisor::domain::sim::runner::view_of;
    use modality_advisor::domain::sim::Report;
    let mut sim = Simulation::new(MmcModel::bench(5_000, 2).config()).expect("valid");
    sim.run();
    let report = Report::from_sim(&sim, "mmc", "retention");
    assert_eq!(report.jobs.len(), 200);
    let view = view_of(&report, sim.events());
    let t = sim.table();
    assert_eq!(
        view.counts,
        [
            t.count(Status::Done),
            t.count(Status::Dead),
            t.count(Status::Queued),
            t.count(Status::Running)
        ]
    );
    assert_eq!(view.counts.iter().sum::<u64>(), 5_000);
}

//! The example catalog (`static/examples/reservation-system.catalog.json`): written by the
//! code (`UPDATE_SNAPSHOTS=1 cargo test --test it catalog_example` rewrites it), read back
//! through the file checks, covering every outcome, and rendered.

use crate::catalog_support::{example_catalog, example_text, EXAMPLE_PATH};
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::flowchart::Outcome;

#[test]
fn the_example_file_is_what_the_code_builds() {
    let built = example_catalog().to_json();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(EXAMPLE_PATH, &built).expect("writes the example");
    }
    assert_eq!(
        example_text(),
        built,
        "the example differs from what the code builds; rerun with UPDATE_SNAPSHOTS=1 if intended"
    );
}

#[test]
fn the_example_reads_back_and_covers_every_outcome() {
    let c = match read_catalog(&example_text()) {
        Ok(c) => c,
        Err(e) => panic!("the example checks out: {e}"),
    };
    assert_eq!(c, example_catalog());
    assert!((5..=8).contains(&c.processes.len()));
    for o in Outcome::ALL {
        assert!(
            c.processes.iter().any(|p| p.outcome == Some(o)),
            "no process decides {o:?}"
        );
    }
    assert!(c.processes.iter().any(|p| p.outcome.is_none()));
    assert!(c.processes.iter().any(|p| p.sim.is_some()));
    assert!(c
        .processes
        .iter()
        .filter(|p| p.outcome.is_some())
        .all(|p| p.sheet.is_some()));
}

//! Importing into the catalog: a sheet file as a process, the preview of a catalog import,
//! merge and replace.

use crate::catalog_support::example_catalog;
use crate::sheet_support::{EXAMPLE_EN, EXAMPLE_JA};
use modality_advisor::domain::catalog::import::{
    apply_import, plan_import, read_sheet_as_process, ImportMode,
};
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId, MAX_PROCESSES};
use modality_advisor::domain::flowchart::Outcome;
use modality_advisor::domain::Lang;

fn id(s: &str) -> ProcessId {
    ProcessId(s.into())
}

#[test]
fn a_sheet_file_becomes_a_process() {
    let p = read_sheet_as_process(EXAMPLE_JA, Lang::Ja, id("mail"), 1_000).expect("imports");
    assert_eq!(p.name, "予約確定メール送信");
    assert_eq!(p.outcome, Some(Outcome::AsyncEnqueue));
    assert_eq!((p.created_ms, p.updated_ms), (1_000, 1_000));
    let sheet = p.sheet.as_ref().expect("the sheet");
    assert_eq!(p.answers, sheet.decision.answers);
    let en = read_sheet_as_process(EXAMPLE_EN, Lang::En, id("mail"), 0).expect("imports");
    assert_eq!(en.name, "send reservation confirmation mail");
}

#[test]
fn a_bad_sheet_file_names_its_field() {
    let bad = EXAMPLE_EN.replacen("\"schema_version\": 1", "\"schema_version\": 9", 1);
    assert_ne!(bad, EXAMPLE_EN);
    let e = read_sheet_as_process(&bad, Lang::En, id("x"), 0).expect_err("refused");
    assert!(e.to_string().contains("schema_version"), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE_EN).expect("JSON");
    v["process"]["process_name"] = "n".repeat(201).into();
    let e = read_sheet_as_process(&v.to_string(), Lang::En, id("x"), 0).expect_err("refused");
    assert!(
        e.to_string().contains("process.process_name") && e.to_string().contains("at most 200"),
        "{e}"
    );
}

#[test]
fn the_preview_then_merge_or_replace() {
    let current = example_catalog();
    let mut incoming = Catalog::new("Imported");
    // Same id and work, same id with other work, and a new id.
    incoming.processes.push(current.processes[1].clone());
    let mut changed = current.processes[0].clone();
    changed.name = "Check availability (v2)".into();
    incoming.processes.push(changed.clone());
    incoming
        .processes
        .push(Process::new(id("new-one"), "New one", 5));
    let plan = plan_import(&current, &incoming);
    let ids = |l: &[modality_advisor::domain::catalog::import::Entry]| -> Vec<String> {
        l.iter().map(|e| e.id.to_string()).collect()
    };
    assert_eq!(ids(&plan.added), ["new-one"]);
    assert_eq!(ids(&plan.replaced), ["check-availability"]);
    assert_eq!(ids(&plan.unchanged), ["charge-card"]);
    assert_eq!(plan.dropped.len(), current.processes.len() - 2);
    assert_eq!(plan.merged_count, current.processes.len() + 1);

    let merged = apply_import(&current, &incoming, ImportMode::Merge).expect("merges");
    assert_eq!(merged.name, current.name);
    assert_eq!(merged.processes.len(), current.processes.len() + 1);
    assert_eq!(merged.processes[0], changed, "replaced in place");
    assert_eq!(
        merged.processes[1..current.processes.len()],
        current.processes[1..]
    );
    assert_eq!(
        merged.processes.last().map(|p| p.id.as_str()),
        Some("new-one")
    );

    let replaced = apply_import(&current, &incoming, ImportMode::Replace).expect("replaces");
    assert_eq!(replaced, incoming);
}

#[test]
fn a_merge_past_the_limit_is_refused() {
    let mut current = Catalog::new("");
    let mut incoming = Catalog::new("");
    for i in 0..MAX_PROCESSES {
        current
            .processes
            .push(Process::new(id(&format!("a-{i}")), "a", 0));
    }
    incoming.processes.push(Process::new(id("b"), "b", 0));
    let e = apply_import(&current, &incoming, ImportMode::Merge).expect_err("refused");
    assert!(e.to_string().contains("at most 500"), "{e}");
    assert!(apply_import(&current, &incoming, ImportMode::Replace).is_ok());
}

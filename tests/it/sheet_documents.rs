//! The documents say each thing once: a field of a section the outcome does not have (a
//! synchronous call's retries and failure handling, a batch's per-job retries) is left out of
//! every document — the sheet's Markdown, TSV and CSV, the HTML card (embed page, `share
//! --format html`), the rich-text card and the catalog's Markdown — and one line under the
//! table names them and says why. The value a document shows is the sheet's: a batch's
//! per-run timeout in the catalog summary is the sheet's row. Snapshots of the sheet's
//! Markdown for every outcome.

use crate::sheet_bidi::walks;
use crate::sheet_support::example;
use modality_advisor::domain::catalog::export::{key, summary_cells, to_markdown as catalog_md};
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::export::{to_csv, to_markdown, to_tsv};
use modality_advisor::domain::share::card::{html, rich_text};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::sheet::fields::{left_out, rows};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, FieldId, JobSheet};
use modality_advisor::domain::{Answers, Lang};

fn sheet_of(answers: &Answers, lang: Lang) -> JobSheet {
    let decision = Decision::from_answers(answers).expect("a complete walk");
    prefill(example(lang).process, decision, lang)
}

fn process_of(sheet: &JobSheet, answers: &Answers) -> Process {
    let mut p = Process::new(ProcessId("p-1".into()), &sheet.process.process_name, 1_000);
    p.set_answers(answers);
    p.sheet = Some(sheet.clone());
    p
}

#[test]
fn a_field_that_does_not_apply_is_named_once_not_written_as_a_row() {
    for lang in Lang::ALL {
        let na = match lang {
            Lang::En => "does not apply",
            Lang::Ja => "適用外",
        };
        for answers in walks() {
            let sheet = sheet_of(&answers, lang);
            let outcome = sheet.decision.outcome.id();
            let line = left_out(&sheet, lang);
            let asynchronous = sheet.retry.is_some() && sheet.failure.is_some();
            assert_eq!(line.is_none(), asynchronous, "{lang:?} {outcome}: {line:?}");
            let p = process_of(&sheet, &answers);
            let share = |content| Share { lang, content };
            let mut catalog = Catalog::new("System");
            catalog.processes.push(p.clone());
            let docs = [
                ("markdown", to_markdown(&sheet, lang)),
                ("tsv", to_tsv(&sheet, lang)),
                ("csv", to_csv(&sheet, lang, false)),
                (
                    "html card",
                    html(&share(Shared::Process(Box::new(p.clone()))), lang, ""),
                ),
                (
                    "rich card",
                    rich_text(
                        &share(Shared::Process(Box::new(p.clone()))),
                        lang,
                        "https://x.example/",
                    ),
                ),
                ("catalog markdown", catalog_md(&catalog, lang)),
            ];
            for (what, doc) in &docs {
                let times = doc.matches(na).count();
                let once = if what == &"tsv" || what == &"csv" {
                    0
                } else {
                    1
                };
                let want = if asynchronous { 0 } else { once };
                assert_eq!(
                    times, want,
                    "{lang:?} {outcome} {what}: «{na}» {times} times\n{doc}"
                );
            }
            // Every row written is a field of the sheet's own sections.
            for r in rows(&sheet, lang) {
                if sheet.retry.is_none() {
                    assert!(
                        !matches!(
                            r.field,
                            FieldId::MaxAttempts | FieldId::WaitStrategy | FieldId::Timeout
                        ),
                        "{outcome}: {:?}",
                        r.field
                    );
                }
            }
        }
    }
}

#[test]
fn the_catalog_summary_shows_a_batch_s_run_timeout_as_its_sheet_does() {
    for lang in Lang::ALL {
        let batch = &walks()[0];
        let sheet = sheet_of(batch, lang);
        let p = process_of(&sheet, batch);
        let row = rows(&sheet, lang)
            .into_iter()
            .find(|r| r.field == FieldId::RunTimeout)
            .expect("a batch sheet has a per-run timeout");
        let cells = summary_cells(&p, &key(&p, lang), lang);
        assert!(
            cells[4].ends_with(&row.value),
            "{lang:?}: {} vs {}",
            cells[4],
            row.value
        );
        assert_ne!(cells[4], "—");
    }
}

#[test]
fn snapshots_of_the_sheet_markdown_of_every_outcome() {
    for answers in walks() {
        let sheet = sheet_of(&answers, Lang::En);
        let name = format!("sheet_markdown_{}_en", sheet.decision.outcome.id());
        insta::assert_snapshot!(name, to_markdown(&sheet, Lang::En));
    }
    let sync = sheet_of(&walks()[3], Lang::Ja);
    insta::assert_snapshot!("sheet_markdown_sync_ja", to_markdown(&sync, Lang::Ja));
}

//! The catalog's exports: the example catalog as Markdown, CSV and TSV in both languages
//! (snapshots under `tests/it/snapshots/`; review changes with `cargo insta review`, or
//! accept them with `INSTA_UPDATE=always`), and the properties each format keeps whatever
//! the names hold.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::catalog::export::markdown::demoted;
use modality_advisor::domain::catalog::export::{to_csv, to_markdown, to_tsv, utc};
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::Lang;

#[test]
fn markdown_snapshots() {
    insta::assert_snapshot!(
        "catalog_markdown_en",
        to_markdown(&example_catalog(), Lang::En)
    );
    insta::assert_snapshot!(
        "catalog_markdown_ja",
        to_markdown(&example_catalog(), Lang::Ja)
    );
}

#[test]
fn csv_and_tsv_snapshots() {
    insta::assert_snapshot!(
        "catalog_csv_en",
        to_csv(&example_catalog(), Lang::En, false)
    );
    insta::assert_snapshot!("catalog_tsv_ja", to_tsv(&example_catalog(), Lang::Ja));
}

#[test]
fn the_markdown_outline_and_anchors() {
    let md = to_markdown(&example_catalog(), Lang::En);
    let headings: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.split(' ').next().unwrap_or_default())
        .collect();
    // One title; the sheet's own headings are one level below the processes'.
    assert_eq!(headings.iter().filter(|h| **h == "#").count(), 1);
    assert_eq!(headings.iter().filter(|h| **h == "##").count(), 1 + 7);
    assert!(headings.iter().all(|h| h.len() <= 3));
    for p in &example_catalog().processes {
        let link = format!("(#process-{})", p.id);
        let anchor = format!("<a name=\"process-{}\"></a>", p.id);
        assert!(md.contains(&link), "no link {link}");
        assert_eq!(md.matches(&anchor).count(), 1, "no single anchor {anchor}");
    }
    // Every decided process has its decision path, the undecided one says so.
    assert_eq!(md.matches("```mermaid").count(), 6);
    assert!(md.contains("No decision yet: 1 of the questions answered."));
}

#[test]
fn hostile_and_japanese_names_stay_in_their_cell_and_anchor_by_id() {
    let mut c = Catalog::new("系統 | <script>");
    let mut p = Process::new(ProcessId("p-1".into()), "予約|確定\n# not a heading", 0);
    p.updated_ms = 0;
    c.processes.push(p);
    c.processes.push(Process::new(
        ProcessId("p-2".into()),
        "=HYPERLINK(\"x\")",
        0,
    ));
    let md = to_markdown(&c, Lang::Ja);
    assert!(md.starts_with("# 系統 \\| &lt;script&gt;\n"));
    assert!(md.contains("[予約\\|確定<br>\\# not a heading](#process-p-1)"));
    assert!(!md.lines().any(|l| l.starts_with("# not")));
    let csv = to_csv(&c, Lang::En, true);
    assert!(csv.starts_with('\u{feff}'));
    assert!(csv.contains("\r\n"));
    assert!(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), "{csv}");
    let mut r =
        csv::ReaderBuilder::new().from_reader(csv.trim_start_matches('\u{feff}').as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.expect("a record")).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][1], "予約|確定\n# not a heading");
    let tsv = to_tsv(&c, Lang::En);
    assert_eq!(
        tsv.lines().count(),
        1 + 2 + 1,
        "the quoted line break adds a line"
    );
    assert!(
        tsv.contains("\t'=HYPERLINK(\"\"x\"\")\t") || tsv.contains("\"'=HYPERLINK(\"\"x\"\")\"")
    );
}

#[test]
fn demoting_keeps_fenced_blocks() {
    let md = "# Title\n\nText\n\n## Part\n\n```mermaid\n# kept\n```\n";
    assert_eq!(demoted(md), "Text\n\n### Part\n\n```mermaid\n# kept\n```\n");
}

#[test]
fn utc_dates() {
    assert_eq!(utc(0, true), "1970-01-01 00:00");
    assert_eq!(utc(951_782_400_000, false), "2000-02-29");
    assert_eq!(utc(1_772_442_000_000, true), "2026-03-02 09:00");
    assert!(utc(u64::MAX, false).len() >= 10);
}

#[test]
fn a_decided_process_without_a_sheet_and_a_stale_sheet() {
    let mut c = example_catalog();
    // The mail (async-enqueue) loses its sheet; the report's answers move on from its sheet.
    c.processes[2].sheet = None;
    let mut a = modality_advisor::domain::Answers::new();
    a.set(modality_advisor::domain::QuestionId::TimeTriggered, false)
        .set(modality_advisor::domain::QuestionId::NeedsResultNow, false);
    c.processes[5].set_answers(&a);
    let md = to_markdown(&c, Lang::En);
    let mail = md
        .split("<a name=\"process-confirmation-mail\"></a>")
        .nth(1)
        .and_then(|s| s.split("<a name=").next())
        .unwrap_or_default();
    assert!(mail.contains("(`async-enqueue`)"), "{mail}");
    assert!(
        mail.contains("```mermaid")
            && mail.contains("class start,timeTriggered,needsResultNow,asyncEnqueue onPath"),
        "{mail}"
    );
    assert!(mail.contains("No job definition sheet yet."));
    assert!(md.contains("The sheet below was made for Scheduled batch; the answers now give Asynchronous: enqueue a job."));
}

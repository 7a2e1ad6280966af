//! The catalog screen's table as text (`domain::catalog_rows`), natively: every column of a
//! process with a sheet, an undecided one, a sheet left over from another outcome, the
//! synchronous columns, both languages, the UTC times, and the open process's name.

use modality_advisor::domain::app_state::{Action, AppState, CatalogAction};
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::catalog_rows::{open_name, rows, utc_minute, NONE};
use modality_advisor::domain::flowchart::Answer;
use modality_advisor::domain::sheet::check::{validate, Severity};
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::{BackoffKind, JobSheet};
use modality_advisor::domain::{Answers, Lang, Outcome, QuestionId};

use QuestionId::{
    ExternalCall, KeepAcceptingWhenDown, NeedsResultNow, TimeTriggered, WithinSeconds,
};

const ENQUEUE: [(QuestionId, bool); 2] = [(TimeTriggered, false), (NeedsResultNow, false)];
const SYNC_TIMEOUT: [(QuestionId, bool); 5] = [
    (TimeTriggered, false),
    (NeedsResultNow, true),
    (WithinSeconds, true),
    (ExternalCall, true),
    (KeepAcceptingWhenDown, false),
];

/// A state with one process named `name`, added at `now_ms`, its questions answered and its
/// sheet opened.
fn with_process(name: &str, answers: &[(QuestionId, bool)], now_ms: u64) -> AppState {
    let mut s = AppState::new(Lang::En).after(Action::Catalog(CatalogAction::Add {
        seed: 7,
        now_ms,
        name: name.to_owned(),
    }));
    for &(q, v) in answers {
        s = s.after(Action::Answer(q, Answer::Given(v)));
    }
    s.after(Action::OpenSheet)
}

/// An enqueue sheet with known retry settings.
fn enqueue_sheet() -> JobSheet {
    let s = with_process("Send the confirmation mail", &ENQUEUE, 0);
    let mut sheet = s.sheet.clone().expect("a sheet");
    let r = sheet.retry.as_mut().expect("retries");
    r.max_attempts = 5;
    r.backoff.kind = BackoffKind::Exponential;
    r.backoff.base_ms = 1_000;
    r.backoff.cap_ms = 300_000;
    r.attempt_timeout_ms = 30_000;
    r.lease_ms = 300_000;
    r.idempotency_key = "reservation_id".to_owned();
    sheet
}

fn process(
    id: &str,
    name: &str,
    answers: &[(QuestionId, bool)],
    sheet: Option<JobSheet>,
) -> Process {
    let mut p = Process::new(ProcessId(id.to_owned()), name, 1_796_160_600_000);
    let mut a = Answers::new();
    for &(q, v) in answers {
        a.set(q, v);
    }
    p.set_answers(&a);
    p.sheet = sheet;
    p
}

#[test]
fn every_column_of_a_queued_job_in_english_and_japanese() {
    let sheet = enqueue_sheet();
    let mut c = Catalog::new("Reservation system");
    c.processes.push(process(
        "p-1",
        "Send the confirmation mail",
        &ENQUEUE,
        Some(sheet.clone()),
    ));
    let r = &rows(&c, Lang::En)[0];
    assert_eq!(r.id.as_str(), "p-1");
    assert_eq!(r.name, "Send the confirmation mail");
    assert_eq!(r.outcome, Some(Outcome::AsyncEnqueue));
    assert_eq!(r.outcome_text, "Asynchronous: enqueue a job");
    assert_eq!(r.attempts, "5");
    assert_eq!(r.wait, "exponential, 1 s → 5 min");
    assert_eq!(r.timeout, "30 s / 5 min");
    assert_eq!(r.key, "reservation_id");
    assert_eq!(r.edited, "2026-12-01 21:30 UTC");
    let found = validate(&sheet, Lang::En);
    let errors = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    assert_eq!((r.errors, r.warnings), (errors, found.len() - errors));
    let ja = &rows(&c, Lang::Ja)[0];
    assert_eq!(ja.outcome_text, "非同期：ジョブをキューに登録");
    assert_eq!(ja.wait, "指数 1秒 → 5分");
    assert_eq!(ja.timeout, "30秒 / 5分");
}

#[test]
fn findings_are_counted_and_worded_with_english_plurals() {
    let mut sheet = enqueue_sheet();
    // A lease no longer than the attempt timeout is an error.
    sheet.retry.as_mut().expect("retries").lease_ms = 30_000;
    let mut c = Catalog::new("");
    c.processes
        .push(process("p-1", "Mail", &ENQUEUE, Some(sheet.clone())));
    let r = &rows(&c, Lang::En)[0];
    assert!(r.errors >= 1, "{r:?}");
    let want = |n: usize, word: &str| match n {
        1 => format!("1 {word}"),
        n => format!("{n} {word}s"),
    };
    let text = match (r.errors, r.warnings) {
        (e, 0) => want(e, "error"),
        (e, w) => format!("{}, {}", want(e, "error"), want(w, "warning")),
    };
    assert_eq!(r.findings, text);
    let ja = &rows(&c, Lang::Ja)[0];
    assert!(
        ja.findings.starts_with(&format!("エラー {}", r.errors)),
        "{}",
        ja.findings
    );
}

#[test]
fn an_undecided_process_or_a_sheet_for_another_outcome_shows_dashes() {
    let mut c = Catalog::new("");
    c.processes.push(process(
        "p-1",
        "Nightly report",
        &[(TimeTriggered, false)],
        None,
    ));
    // Answers now give batch; the sheet was made for a queued job.
    c.processes.push(process(
        "p-2",
        "Resize",
        &[(TimeTriggered, true)],
        Some(enqueue_sheet()),
    ));
    let rs = rows(&c, Lang::En);
    assert_eq!(rs[0].outcome, None);
    assert_eq!(rs[0].outcome_text, "undecided");
    assert_eq!(rows(&c, Lang::Ja)[0].outcome_text, "未決定");
    assert_eq!(rs[1].outcome_text, "Scheduled batch");
    for r in &rs {
        for cell in [&r.attempts, &r.wait, &r.timeout, &r.key, &r.findings] {
            assert_eq!(cell, NONE, "{r:?}");
        }
        assert_eq!((r.errors, r.warnings), (0, 0));
    }
}

#[test]
fn a_synchronous_call_shows_its_call_timeout_and_no_retries() {
    let s = with_process("Check stock", &SYNC_TIMEOUT, 0)
        .after(Action::EditSheet(SheetEdit::CallTimeoutMs(2_000)));
    let c = s.catalog_now();
    let sheet = c.processes[0].sheet.clone().expect("a sheet");
    let r = &rows(&c, Lang::En)[0];
    assert_eq!(r.outcome, Some(Outcome::SyncTimeout));
    assert_eq!(r.attempts, NONE);
    assert_eq!(r.wait, NONE);
    assert_eq!(r.key, NONE);
    let call = sheet.sync.expect("sync section").call_timeout_ms;
    assert_eq!(
        r.timeout,
        modality_advisor::domain::duration::exact(call, Lang::En)
    );
}

#[test]
fn rows_keep_the_catalog_order() {
    let mut c = Catalog::new("");
    for (id, name) in [("p-b", "B"), ("p-a", "A"), ("p-c", "C")] {
        c.processes.push(process(id, name, &[], None));
    }
    let names: Vec<String> = rows(&c, Lang::En).into_iter().map(|r| r.name).collect();
    assert_eq!(names, ["B", "A", "C"]);
}

#[test]
fn times_are_utc_minutes() {
    assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
    assert_eq!(utc_minute(1_796_160_600_000), "2026-12-01 21:30 UTC");
    assert_eq!(utc_minute(1_709_210_096_000), "2024-02-29 12:34 UTC");
    assert_eq!(utc_minute(1_709_251_199_000), "2024-02-29 23:59 UTC");
    // No panic at the far end.
    assert!(utc_minute(u64::MAX).ends_with(" UTC"));
}

#[test]
fn the_open_process_is_named_as_its_sheet_names_it() {
    let s = AppState::new(Lang::En);
    assert_eq!(open_name(&s), None);
    let s = with_process("Mail", &ENQUEUE, 0);
    assert_eq!(open_name(&s).as_deref(), Some("Mail"));
    let s = s.after(Action::EditSheet(SheetEdit::ProcessName(
        "Send mail".to_owned(),
    )));
    assert_eq!(open_name(&s).as_deref(), Some("Send mail"));
    assert_eq!(s.catalog_now().processes[0].name, "Send mail");
}

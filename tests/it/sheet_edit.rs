//! Editing one field of a sheet: checked before it is applied; the sheet never changes on
//! error. Also the number and duration formats the form relies on.

use modality_advisor::domain::duration::{approx, exact};
use modality_advisor::domain::number::parse_whole;
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::prefill::{for_decision, prefill};
use modality_advisor::domain::sheet::{Decision, JobSheet, Keep, ProcessFacts};
use modality_advisor::domain::{Answers, Lang, QuestionId};

pub(crate) fn sheet(answers: &[(QuestionId, bool)]) -> JobSheet {
    let mut a = Answers::new();
    for &(q, v) in answers {
        a.set(q, v);
    }
    let decision = Decision::from_answers(&a).expect("a complete decision");
    prefill(ProcessFacts::default(), decision, Lang::En)
}

fn enqueue() -> JobSheet {
    sheet(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, false),
    ])
}

fn check_err(edit: SheetEdit, want: &str) {
    let before = enqueue();
    let got = edit
        .clone()
        .apply(&before)
        .map(|_| ())
        .map_err(|e| e.to_string());
    assert_eq!(got, Err(want.to_owned()), "{edit:?}");
}

#[test]
fn out_of_range_edits_name_the_field_and_range() {
    check_err(
        SheetEdit::MaxAttempts(0),
        "retry.max_attempts: 0 is out of range; allowed: 1 to 100",
    );
    check_err(
        SheetEdit::MaxAttempts(101),
        "retry.max_attempts: 101 is out of range; allowed: 1 to 100",
    );
    check_err(
        SheetEdit::CapMs(9_999),
        "retry.backoff.cap_ms: 9999 is out of range; allowed: 10000 to 2592000000",
    );
    check_err(
        SheetEdit::BaseMs(600_001),
        "retry.backoff.base_ms: 600001 is out of range; allowed: 1 to 600000",
    );
    check_err(
        SheetEdit::LeaseMs(0),
        "retry.lease_ms: 0 is out of range; allowed: 1 to 86400000",
    );
    check_err(
        SheetEdit::NoticeWithinH(8_761),
        "failure.notice_within_h: 8761 is out of range; allowed: 1 to 8760",
    );
    check_err(
        SheetEdit::RetentionDead(Keep::Days(0)),
        "failure.retention.dead.days: 0 is out of range; allowed: 1 to 3650",
    );
    check_err(
        SheetEdit::AcceptableWait(Some(0)),
        "process.acceptable_wait_ms: 0 is out of range; allowed: 1 to 2592000000",
    );
    check_err(
        SheetEdit::CallTimeoutMs(5),
        "sync: does not apply to outcome async-enqueue",
    );
    check_err(
        SheetEdit::Trigger("x".repeat(10_001)),
        "process.trigger: 10001 characters is out of range; allowed: at most 10000 characters",
    );
}

#[test]
fn good_edits_apply_and_leave_the_original_alone() {
    let before = enqueue();
    let after = SheetEdit::MaxAttempts(7).apply(&before).expect("in range");
    assert_eq!(after.retry.as_ref().map(|r| r.max_attempts), Some(7));
    assert_eq!(before.retry.as_ref().map(|r| r.max_attempts), Some(5));
    let after = SheetEdit::Notify(String::new())
        .apply(&after)
        .expect("empty notify is allowed (it is a finding)");
    assert_eq!(after.failure.as_ref().map(|f| f.notify.as_str()), Some(""));
    let sync = sheet(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, true),
        (QuestionId::WithinSeconds, true),
        (QuestionId::ExternalCall, false),
    ]);
    let s = SheetEdit::CallTimeoutMs(1_500)
        .apply(&sync)
        .expect("sync field");
    assert_eq!(s.sync.as_ref().map(|y| y.call_timeout_ms), Some(1_500));
}

#[test]
fn a_new_decision_keeps_facts_and_same_outcome_edits() {
    let mut s = enqueue();
    s.process.code_name = "charge_points".into();
    s = SheetEdit::MaxAttempts(9).apply(&s).expect("ok");
    let mut a = Answers::new();
    a.set(QuestionId::TimeTriggered, false)
        .set(QuestionId::NeedsResultNow, false);
    let same = for_decision(
        Some(&s),
        Decision::from_answers(&a).expect("complete"),
        Lang::En,
    );
    assert_eq!(
        same.retry.as_ref().map(|r| r.max_attempts),
        Some(9),
        "same outcome keeps edits"
    );
    a.set(QuestionId::TimeTriggered, true);
    let batch = for_decision(
        Some(&s),
        Decision::from_answers(&a).expect("complete"),
        Lang::En,
    );
    assert_eq!(batch.process.code_name, "charge_points", "facts carry over");
    assert!(
        batch.retry.is_none() && batch.batch.is_some(),
        "sections follow the outcome"
    );
}

#[test]
fn whole_numbers_as_people_type_them() {
    let check = |raw: &str, want: Option<u64>| assert_eq!(parse_whole(raw), want, "{raw:?}");
    check("2000", Some(2000));
    check(" 2 000 ", Some(2000));
    check("2,000", Some(2000));
    check("１０", Some(10));
    check("２，０００", Some(2000));
    check("2_000", Some(2000));
    check("1,5", None);
    check("20,00", None);
    check("2  000", None);
    check("+2000", None);
    check("0", Some(0));
    check("", None);
    check("-5", None);
    check("1.5", None);
    check("1e3", None);
    check("abc", None);
    check("99999999999999999999999", None);
}

#[test]
fn durations_read_naturally() {
    let check = |ms: u64, en: &str, ja: &str| {
        assert_eq!(exact(ms, Lang::En), en);
        assert_eq!(exact(ms, Lang::Ja), ja);
    };
    check(0, "0 s", "0秒");
    check(30_000, "30 s", "30秒");
    check(600_000, "10 min", "10分");
    check(1_500, "1,500 ms", "1,500ミリ秒");
    check(7_200_000, "2 h", "2時間");
    check(86_400_000, "1 d", "1日");
    assert_eq!(approx(75_000.0, Lang::En), "1.3 min");
    assert_eq!(approx(150_000.0, Lang::Ja), "2.5分");
    assert_eq!(approx(0.0, Lang::En), "0 s");
    assert_eq!(approx(f64::NAN, Lang::En), "0 s");
    assert_eq!(approx(999.4, Lang::En), "999 ms");
}

mod session {
    use modality_advisor::domain::session::Session;
    use modality_advisor::domain::{Answers, QuestionId, Timing};

    #[test]
    fn a_session_round_trips_and_bad_ones_are_dropped() {
        let mut answers = Answers::new();
        answers
            .set(QuestionId::TimeTriggered, false)
            .set(QuestionId::NeedsResultNow, true);
        answers.set_timing(Timing::new(2000, 8000).expect("valid"));
        let sheet = super::enqueue();
        let s = Session::new(&answers, Some(&sheet), true);
        let back = Session::from_json(&s.to_json()).expect("reads back");
        assert_eq!(back, s);
        assert_eq!(back.answers(), answers);
        for bad in [
            "",
            "{}",
            &s.to_json().replace("\"version\":1", "\"version\":2"),
            &s.to_json().replace("\"p95_ms\":8000", "\"p95_ms\":1000"),
            &s.to_json()
                .replace("\"max_attempts\":5", "\"max_attempts\":0"),
            r#"{"version":1,"answers":[{"question":"time-triggered","answer":true},{"question":"time-triggered","answer":false}],"sheet":null,"on_sheet":false}"#,
        ] {
            assert_eq!(Session::from_json(bad), None, "{bad}");
        }
    }
}

mod batch_and_ticket_checks {
    use modality_advisor::domain::sheet::check::validate;
    use modality_advisor::domain::sheet::edit::SheetEdit;
    use modality_advisor::domain::sheet::Overlap;
    use modality_advisor::domain::{Lang, QuestionId};

    fn codes(s: &modality_advisor::domain::sheet::JobSheet) -> Vec<&'static str> {
        validate(s, Lang::En).iter().map(|f| f.code).collect()
    }

    /// The findings of a sheet with no process facts, before any section's own.
    const BLANK: [&str; 3] = ["no-process-name", "no-code-name", "no-trigger"];

    /// `s` with the fields every sheet needs filled in, so only the section's findings remain.
    fn named(
        s: modality_advisor::domain::sheet::JobSheet,
    ) -> modality_advisor::domain::sheet::JobSheet {
        // (An asynchronous one also has no idempotency key until the business key is typed.)
        assert_eq!(
            codes(&s)[..BLANK.len()],
            BLANK,
            "a blank sheet names its missing fields"
        );
        let s = SheetEdit::ProcessName("nightly report".into())
            .apply(&s)
            .expect("ok");
        let s = SheetEdit::BusinessKey("report date".into())
            .apply(&s)
            .expect("ok");
        let s = SheetEdit::CodeName("nightly_report".into())
            .apply(&s)
            .expect("ok");
        SheetEdit::Trigger("the clock".into())
            .apply(&s)
            .expect("ok")
    }

    #[test]
    fn batch_schedule_and_overlap_findings_fire_and_clear() {
        let batch = named(super::sheet(&[(QuestionId::TimeTriggered, true)]));
        assert_eq!(codes(&batch), Vec::<&str>::new());
        let s = SheetEdit::Schedule(" ".into()).apply(&batch).expect("ok");
        assert_eq!(codes(&s), ["batch-no-schedule"]);
        let s = SheetEdit::Overlap(Overlap::Allow).apply(&s).expect("ok");
        assert_eq!(codes(&s), ["batch-no-schedule", "batch-overlap-allowed"]);
        let s = SheetEdit::Schedule("*/5 * * * *".into())
            .apply(&s)
            .expect("ok");
        let s = SheetEdit::Overlap(Overlap::Forbid).apply(&s).expect("ok");
        assert_eq!(codes(&s), Vec::<&str>::new());
    }

    #[test]
    fn ticket_without_a_way_to_tell_the_user_is_flagged() {
        let ticket = named(super::sheet(&[
            (QuestionId::TimeTriggered, false),
            (QuestionId::NeedsResultNow, true),
            (QuestionId::WithinSeconds, false),
        ]));
        assert_eq!(codes(&ticket), Vec::<&str>::new());
        let s = SheetEdit::TicketCompletion(String::new())
            .apply(&ticket)
            .expect("ok");
        assert_eq!(codes(&s), ["ticket-no-completion"]);
        assert!(
            SheetEdit::TicketStates(Vec::new()).apply(&s).is_err(),
            "a ticket needs states"
        );
    }
}

/// A changed value's reason names the default it explains: the fields that differ from the
/// pre-fill, with the default's value as the sheet shows it; back to the default, nothing.
#[test]
fn changed_fields_name_their_defaults() {
    use modality_advisor::domain::sheet::prefill::changed_from_default;
    use modality_advisor::domain::sheet::FieldId;
    let s = enqueue();
    assert_eq!(changed_from_default(&s, Lang::En), vec![]);
    let s = SheetEdit::MaxAttempts(12).apply(&s).expect("in range");
    let s = SheetEdit::BaseMs(2_000).apply(&s).expect("in range");
    let changed = changed_from_default(&s, Lang::En);
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert_eq!(changed[0], (FieldId::MaxAttempts, "5".to_owned()));
    // The first wait is part of the wait strategy's row: the row's default is named whole.
    assert_eq!(changed[1].0, FieldId::WaitStrategy);
    assert!(changed[1].1.contains("10 s"), "{changed:?}");
    let ja = changed_from_default(&s, Lang::Ja);
    assert!(ja[1].1.contains("10秒"), "{ja:?}");
    let s = SheetEdit::MaxAttempts(5).apply(&s).expect("in range");
    let changed = changed_from_default(&s, Lang::En);
    assert_eq!(changed.len(), 1);
    assert_eq!(changed[0].0, FieldId::WaitStrategy);
}

/// Schema 2's edits: polynomial backoff (its constant may be 0; back to exponential the first
/// wait becomes 1 s), the layers and the queue's retention, each checked with its path and range.
#[test]
fn schema_2_edits_are_checked() {
    use modality_advisor::domain::sheet::{
        BackoffKind, LayerKind, Polynomial, RetryLayer, SCHEMA_VERSION,
    };
    let poly = |exponent, first_n| BackoffKind::Polynomial(Polynomial { exponent, first_n });
    let s = SheetEdit::BackoffKind(poly(4, 1))
        .apply(&enqueue())
        .expect("polynomial");
    assert_eq!(s.schema_version, SCHEMA_VERSION);
    let s = SheetEdit::BaseMs(0).apply(&s).expect("a 0 constant");
    let back = SheetEdit::BackoffKind(BackoffKind::Exponential)
        .apply(&s)
        .expect("back to exponential");
    let b = back.retry.as_ref().expect("retry").backoff;
    assert_eq!((b.kind, b.base_ms), (BackoffKind::Exponential, 1_000));
    let err = |e: SheetEdit| e.apply(&s).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(
        err(SheetEdit::BackoffKind(poly(9, 0))),
        Err("retry.backoff.kind.polynomial.exponent: 9 is out of range; allowed: 1 to 8".into())
    );
    assert_eq!(
        err(SheetEdit::BackoffKind(poly(4, 2))),
        Err("retry.backoff.kind.polynomial.first_n: 2 is out of range; allowed: 0 to 1".into())
    );
    let layer = |attempts| RetryLayer {
        layer: LayerKind::Sdk,
        attempts,
        what: "AWS SDK".into(),
    };
    let s = SheetEdit::Layers(vec![layer(3)])
        .apply(&s)
        .expect("a layer");
    assert_eq!(s.retry.as_ref().map(|r| r.total_calls()), Some(15));
    assert_eq!(
        err(SheetEdit::Layers(vec![layer(3), layer(0)])),
        Err("retry.layers[1].attempts: 0 is out of range; allowed: 1 to 100".into())
    );
    assert_eq!(
        err(SheetEdit::Layers(vec![layer(2); 6])),
        Err("retry.layers: 6 items is out of range; allowed: at most 5 items".into())
    );
    assert_eq!(
        err(SheetEdit::QueueRetentionMs(Some(59_999))),
        Err("retry.queue_retention_ms: 59999 is out of range; allowed: 60000 to 2592000000".into())
    );
    assert!(SheetEdit::QueueRetentionMs(None).apply(&s).is_ok());
    let s = SheetEdit::QueueRetentionMs(Some(345_600_000))
        .apply(&s)
        .expect("4 days");
    assert_eq!(
        s.retry.as_ref().and_then(|r| r.queue_retention_ms),
        Some(345_600_000)
    );
}

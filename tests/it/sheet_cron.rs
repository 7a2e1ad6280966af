//! The batch schedule read as a cron expression: what passes, what each error names, and the
//! sheet's finding in both languages.

use modality_advisor::domain::sheet::check::validate;
use modality_advisor::domain::sheet::cron::{check_cron, CronError, CronField};
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::{Lang, QuestionId};

#[test]
fn standard_expressions_and_macros_pass() {
    for ok in [
        "0 3 * * *",
        "*/5 * * * *",
        "  0   3 * * *  ",
        "0\t3 * * *",
        "15,45 9-17 * * 1-5",
        "0 0 1 */3 *",
        "0 0 1 jan,jul *",
        "30 2 * * SUN",
        "0 0 * * 7",
        "0 12 1-31/2 * mon-fri",
        "5/15 * * * *",
        "*/60 * * * *",
        "59 23 31 12 6",
        "@daily",
        "@HOURLY",
        "@midnight",
        "@reboot",
    ] {
        assert_eq!(check_cron(ok), Ok(()), "{ok:?}");
    }
}

#[test]
fn each_error_names_the_field_and_what_was_written() {
    use CronError::*;
    use CronField::*;
    let cases = [
        ("", FieldCount { found: 0 }),
        ("every full moon", FieldCount { found: 3 }),
        ("0 3 * * * *", FieldCount { found: 6 }),
        (
            "@fortnightly",
            UnknownMacro {
                word: "@fortnightly".into(),
            },
        ),
        (
            "99 99 * * *",
            OutOfRange {
                field: Minute,
                value: "99".into(),
            },
        ),
        (
            "0 24 * * *",
            OutOfRange {
                field: Hour,
                value: "24".into(),
            },
        ),
        (
            "0 0 0 * *",
            OutOfRange {
                field: DayOfMonth,
                value: "0".into(),
            },
        ),
        (
            "0 0 1 13 *",
            OutOfRange {
                field: Month,
                value: "13".into(),
            },
        ),
        (
            "0 0 * * 8",
            OutOfRange {
                field: DayOfWeek,
                value: "8".into(),
            },
        ),
        (
            "0 0 * * 1-9",
            OutOfRange {
                field: DayOfWeek,
                value: "9".into(),
            },
        ),
        (
            "0 99999999999 * * *",
            OutOfRange {
                field: Hour,
                value: "99999999999".into(),
            },
        ),
        (
            "0 17-9 * * *",
            Backwards {
                field: Hour,
                range: "17-9".into(),
            },
        ),
        (
            "*/0 * * * *",
            BadStep {
                field: Minute,
                step: "0".into(),
            },
        ),
        (
            "*/61 * * * *",
            BadStep {
                field: Minute,
                step: "61".into(),
            },
        ),
        (
            "0 0 * foo *",
            Syntax {
                field: Month,
                text: "foo".into(),
            },
        ),
        (
            "0 0 * * mon-",
            Syntax {
                field: DayOfWeek,
                text: "mon-".into(),
            },
        ),
        (
            "1,,2 * * * *",
            Syntax {
                field: Minute,
                text: "1,,2".into(),
            },
        ),
        (
            "*/x * * * *",
            Syntax {
                field: Minute,
                text: "*/x".into(),
            },
        ),
        (
            "０ 3 * * *",
            Syntax {
                field: Minute,
                text: "０".into(),
            },
        ),
        // An ideographic space (a Japanese IME's) does not separate fields in crontab.
        ("0\u{3000}3 * * *", FieldCount { found: 4 }),
    ];
    for (schedule, want) in cases {
        assert_eq!(check_cron(schedule), Err(want), "{schedule:?}");
    }
}

#[test]
fn the_sheet_warns_about_a_schedule_that_is_not_cron() {
    let batch = crate::sheet_edit::sheet(&[(QuestionId::TimeTriggered, true)]);
    let findings = |s| {
        validate(s, Lang::En)
            .into_iter()
            .filter(|f| f.code.starts_with("batch-"))
            .map(|f| f.code)
            .collect::<Vec<_>>()
    };
    assert!(
        findings(&batch).is_empty(),
        "the pre-filled schedule is cron"
    );
    let bad = SheetEdit::Schedule("99 99 * * *".into())
        .apply(&batch)
        .expect("free text is accepted as typed");
    assert_eq!(findings(&bad), ["batch-schedule-not-cron"]);
    let message = |lang| {
        validate(&bad, lang)
            .into_iter()
            .find(|f| f.code == "batch-schedule-not-cron")
            .map(|f| f.message)
            .unwrap_or_default()
    };
    assert_eq!(
        message(Lang::En),
        "The schedule's minute 99 is out of range; allowed: 0–59."
    );
    assert_eq!(
        message(Lang::Ja),
        "スケジュールの分「99」は範囲外です。使える値：0〜59。"
    );
    let moon = SheetEdit::Schedule("every full moon".into())
        .apply(&batch)
        .expect("accepted as typed");
    let text = validate(&moon, Lang::En)
        .into_iter()
        .find(|f| f.code == "batch-schedule-not-cron")
        .map(|f| f.message)
        .unwrap_or_default();
    assert!(text.contains("“every full moon” has 3 fields"), "{text}");
    // Empty stays the other finding, not this one.
    let empty = SheetEdit::Schedule(String::new())
        .apply(&batch)
        .expect("ok");
    assert_eq!(findings(&empty), ["batch-no-schedule"]);
}

//! The fields no sheet can do without (docs/DOMAIN.md §6: job name — code and human name — and
//! trigger): a blank sheet, as the wizard opens it, is not "no problems found".

use crate::sheet_support::example;
use modality_advisor::domain::flowchart::Outcome;
use modality_advisor::domain::sheet::check::{validate, Severity};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, FieldId, ProcessFacts};
use modality_advisor::domain::{Answers, Lang, QuestionId};

/// A sheet with no process facts for every outcome (the five paths of the flowchart).
fn blank_sheets() -> Vec<(Outcome, modality_advisor::domain::sheet::JobSheet)> {
    use QuestionId::*;
    let paths: [&[(QuestionId, bool)]; 5] = [
        &[(TimeTriggered, true)],
        &[(TimeTriggered, false), (NeedsResultNow, false)],
        &[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, false),
        ],
        &[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, false),
        ],
        &[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, true),
            (KeepAcceptingWhenDown, false),
        ],
    ];
    paths
        .iter()
        .map(|path| {
            let answers = path
                .iter()
                .fold(Answers::new(), |a, (q, yes)| a.with(*q, *yes));
            let decision = Decision::from_answers(&answers).expect("complete");
            let outcome = decision.outcome;
            (
                outcome,
                prefill(ProcessFacts::default(), decision, Lang::En),
            )
        })
        .collect()
}

#[test]
fn a_blank_sheet_names_each_missing_field_for_every_outcome() {
    for (outcome, sheet) in blank_sheets() {
        for lang in Lang::ALL {
            let got: Vec<(&str, Severity, FieldId)> = validate(&sheet, lang)
                .iter()
                .filter(|f| f.field <= FieldId::Trigger)
                .map(|f| (f.code, f.severity, f.field))
                .collect();
            assert_eq!(
                got,
                [
                    ("no-process-name", Severity::Warning, FieldId::JobName),
                    ("no-code-name", Severity::Warning, FieldId::JobName),
                    ("no-trigger", Severity::Warning, FieldId::Trigger),
                ],
                "{outcome:?} {lang:?}"
            );
        }
    }
}

#[test]
fn the_messages_name_the_field_in_both_languages() {
    let (_, sheet) = blank_sheets().remove(1);
    let msgs = |lang| -> Vec<String> {
        validate(&sheet, lang)
            .into_iter()
            .filter(|f| f.field <= FieldId::Trigger)
            .map(|f| f.message)
            .collect()
    };
    insta::assert_debug_snapshot!(msgs(Lang::En), @r#"
    [
        "Process name is empty: the sheet does not say which job it describes (e.g. “send reservation confirmation mail”).",
        "Name in code is empty: the handler, the log and dead-job notices need it to name the job (e.g. send_reservation_mail).",
        "Trigger is empty: nothing says which operation or data creates the job (e.g. “the user confirms a reservation”).",
    ]
    "#);
    insta::assert_debug_snapshot!(msgs(Lang::Ja), @r#"
    [
        "プロセス名（日本語名）が空です。どのジョブの定義書なのかが分かりません（例：「予約確定メール送信」）。",
        "コード上の名前が空です。ハンドラー・ログ・退避の通知でジョブを指す名前になります（例：send_reservation_mail）。",
        "起点が空です。どの操作・どのデータの発生でジョブが登録されるのか決まっていません（例：「利用者が予約を確定したとき」）。",
    ]
    "#);
}

#[test]
fn each_field_alone_and_blank_space_counts_as_empty() {
    let codes = |change: &dyn Fn(&mut ProcessFacts)| -> Vec<&'static str> {
        let mut sheet = example(Lang::En);
        change(&mut sheet.process);
        validate(&sheet, Lang::En).iter().map(|f| f.code).collect()
    };
    assert_eq!(
        codes(&|_| {}),
        Vec::<&str>::new(),
        "the example is complete"
    );
    assert_eq!(
        codes(&|p| p.process_name = " \t".into()),
        ["no-process-name"]
    );
    assert_eq!(codes(&|p| p.code_name = "　".into()), ["no-code-name"]);
    assert_eq!(codes(&|p| p.trigger.clear()), ["no-trigger"]);
    // Arguments are not required: a job may take none (a nightly clean-up).
    assert_eq!(codes(&|p| p.arguments.clear()), Vec::<&str>::new());
}

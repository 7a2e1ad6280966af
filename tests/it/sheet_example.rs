//! The source documents' worked example (source document 000, 記入例: 備品予約システムの予約確定メール) reproduced
//! field by field from `static/examples/reservation-mail.json` through import and rows.

use crate::sheet_support::example;
use modality_advisor::domain::sheet::check::validate;
use modality_advisor::domain::sheet::fields::rows;
use modality_advisor::domain::sheet::FieldId;
use modality_advisor::domain::{Lang, Outcome};

/// The source documents' tab-separated template, verbatim: item, what to write, example value.
const SOURCE_TSV: &str = "\
ジョブ名\tコード上の名前と日本語名\tsend_reservation_mail（予約確定メール送信）
起点\tどの操作・どのデータの発生で登録されるか\t利用者が予約を確定したとき
引数\tジョブに渡す値\t予約ID
最大試行回数\t初回を含めて何回まで実行するか\t5回
待ち時間\t再試行までの間隔の方式と上限\t指数バックオフ（初回10秒、上限10分）＋ジッター
タイムアウト\t1回の実行に許す時間\t30秒
冪等キー\t何を組み合わせて作るか\t予約ID＋confirm-mail
再試行するエラー\t一時的とみなすエラーの種類\t接続エラー、応答の時間切れ、一時的な混雑を示す応答
再試行しないエラー\tすぐ退避するエラーの種類\t宛先アドレスの形式エラー、予約が取り消し済み
エラー時の退避先\t回数を使い切ったジョブをどこに残すか\tjobsテーブルのstatusをdeadにして残す
通知先\t退避されたときに誰へ何で知らせるか\t運用担当のチャットにジョブ名・予約ID・最後のエラーを投稿
再実行の手順\t退避したジョブをどう戻すか\tstatusをqueued、attemptsを0に戻す
保存期間\t完了・退避したジョブをいつまで残すか\tdoneは30日、deadは対応が終わるまで";

/// Our row for the source documents' line: same item; our "what" and value start with the source documents' (our
/// rendering may add detail in parentheses, e.g. the lease after the timeout).
fn check(ours: &modality_advisor::domain::sheet::fields::Row, source_line: &str) {
    let cols: Vec<&str> = source_line.split('\t').collect();
    let [item, what, value] = cols[..] else {
        panic!("source line has three columns: {source_line}")
    };
    assert_eq!(ours.item, item, "{:?}", ours.field);
    assert!(
        ours.what.starts_with(what),
        "{:?}: {} vs source {what}",
        ours.field,
        ours.what
    );
    assert!(
        ours.value.starts_with(value),
        "{:?}: {} vs source {value}",
        ours.field,
        ours.value
    );
    let rest = &ours.value[value.len()..];
    assert!(
        rest.is_empty() || rest.starts_with('（'),
        "{:?}: only a parenthesised detail may follow the source documents' value: {rest}",
        ours.field
    );
}

#[test]
fn the_source_documents_thirteen_values_field_by_field() {
    let sheet = example(Lang::Ja);
    assert_eq!(sheet.decision.outcome, Outcome::AsyncEnqueue);
    let rows = rows(&sheet, Lang::Ja);
    let seed: Vec<&str> = SOURCE_TSV.lines().collect();
    assert_eq!(seed.len(), 13);
    for (ours, line) in rows.iter().zip(&seed) {
        check(ours, line);
    }
    let order: Vec<FieldId> = rows.iter().take(13).map(|r| r.field).collect();
    assert_eq!(
        order,
        [
            FieldId::JobName,
            FieldId::Trigger,
            FieldId::Arguments,
            FieldId::MaxAttempts,
            FieldId::WaitStrategy,
            FieldId::Timeout,
            FieldId::IdempotencyKey,
            FieldId::RetryableErrors,
            FieldId::NonRetryableErrors,
            FieldId::DeadLetter,
            FieldId::Notify,
            FieldId::Rerun,
            FieldId::Retention,
        ]
    );
    // The acceptable wait and the business key follow, then schema 2's rows of the retry
    // section, for async-enqueue (no ticket, batch or sync rows), then schema 3's nine rows
    // of the load section (tests/it/sheet_load.rs).
    assert_eq!(rows.len(), 27);
    assert_eq!(rows[13].field, FieldId::AcceptableWait);
    assert_eq!(rows[13].value, "10分");
    assert_eq!(rows[14].field, FieldId::BusinessKey);
    assert_eq!(rows[14].value, "予約ID");
    let tail: Vec<(FieldId, &str)> = rows[15..18]
        .iter()
        .map(|r| (r.field, r.value.as_str()))
        .collect();
    assert_eq!(
        tail,
        [
            (
                FieldId::RetryWindow,
                "最短 0秒・期待値 1.3分・最長 2.5分（ほかに実行時間が最大 5 × 30秒）"
            ),
            (FieldId::RetryLayers, "このジョブのみ：呼び出しは最大5回"),
            (FieldId::QueueRetention, "未記入"),
        ]
    );
}

#[test]
fn the_example_passes_every_check_in_both_languages() {
    for lang in Lang::ALL {
        let sheet = example(lang);
        assert_eq!(validate(&sheet, lang), [], "{lang:?}");
        // The retry model is the source documents': 5 attempts, 10 s → 10 min, full jitter, 30 s.
        let r = sheet.retry.as_ref().expect("async has a retry section");
        assert_eq!(
            (
                r.max_attempts,
                r.backoff.base_ms,
                r.backoff.cap_ms,
                r.attempt_timeout_ms
            ),
            (5, 10_000, 600_000, 30_000)
        );
    }
}

#[test]
fn the_english_example_says_the_same_in_english() {
    let rows = rows(&example(Lang::En), Lang::En);
    let values: Vec<&str> = rows.iter().map(|r| r.value.as_str()).collect();
    assert_eq!(
        values[..13],
        [
            "send_reservation_mail (send reservation confirmation mail)",
            "the user confirms a reservation",
            "reservation id",
            "5",
            "exponential backoff (first 10 s, cap 10 min) + full jitter",
            "30 s (lease / visibility timeout 1 min)",
            "reservation id + confirm-mail",
            "connection error, response timeout, \"temporarily busy\" answers",
            "malformed address, reservation already cancelled",
            "the jobs table, kept with status dead",
            "post to the ops chat: job name, reservation id, last error (acted on within 24 h)",
            "set status to queued and attempts to 0",
            "done: 30 days; dead: until handled (done jobs keep the last error)",
        ]
    );
}

/// "Load the example" reads the saved form with the plain model reader (the importer lives in
/// the export worker): for both languages it is exactly what importing the short example gives,
/// so the two files cannot drift. `WRITE_SAVED_EXAMPLES=1` writes the saved files afresh.
#[test]
fn the_saved_examples_are_the_imported_short_examples() {
    use crate::sheet_support::{EXAMPLE_EN, EXAMPLE_JA};
    use modality_advisor::domain::export::to_json;
    use modality_advisor::domain::sheet::example::{example, EXAMPLE_JSON, EXAMPLE_JSON_EN};
    use modality_advisor::domain::sheet::import::import_json;
    for (lang, short, saved, file) in [
        (
            Lang::Ja,
            EXAMPLE_JA,
            EXAMPLE_JSON,
            "reservation-mail.saved.json",
        ),
        (
            Lang::En,
            EXAMPLE_EN,
            EXAMPLE_JSON_EN,
            "reservation-mail.saved.en.json",
        ),
    ] {
        let imported = import_json(short, lang).expect("the short example imports");
        if std::env::var_os("WRITE_SAVED_EXAMPLES").is_some() {
            let path = format!("{}/static/examples/{file}", env!("CARGO_MANIFEST_DIR"));
            std::fs::write(&path, to_json(&imported)).expect("writes");
            continue;
        }
        assert_eq!(
            saved,
            to_json(&imported),
            "{file} is the imported example, pretty"
        );
        assert_eq!(example(lang), Ok(imported), "{file}");
        // The short file names its language: the page's language does not change what it gives.
        for page in [Lang::Ja, Lang::En] {
            assert_eq!(
                import_json(short, page),
                example(lang),
                "{file} in {page:?}"
            );
        }
    }
}

/// The job's name row without a name in code is the name alone (not " (name)"), and without
/// a name the name in code alone; with both, "code (name)".
#[test]
fn the_job_name_row_leaves_out_what_is_not_given() {
    let job_name = |code: &str, name: &str, lang| {
        let mut s = example(lang);
        s.process.code_name = code.to_owned();
        s.process.process_name = name.to_owned();
        rows(&s, lang)
            .into_iter()
            .find(|r| r.field == FieldId::JobName)
            .map(|r| r.value)
            .unwrap_or_default()
    };
    assert_eq!(
        job_name("", "Check room availability", Lang::En),
        "Check room availability"
    );
    assert_eq!(job_name("", "空室確認", Lang::Ja), "空室確認");
    assert_eq!(job_name("check_rooms", "", Lang::En), "check_rooms");
    assert_eq!(
        job_name("check_rooms", "Check room availability", Lang::En),
        "check_rooms (Check room availability)"
    );
    assert_eq!(
        job_name("check_rooms", "空室確認", Lang::Ja),
        "check_rooms（空室確認）"
    );
}

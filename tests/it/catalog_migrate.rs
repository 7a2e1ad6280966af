//! Migration of today's stored single-process session (local storage key
//! `modality-advisor.session`) into a one-process catalog: nothing of the answers, the sheet
//! or the simulator's choices is lost.

use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::migrate::from_saved_session;
use modality_advisor::domain::catalog::ProcessId;
use modality_advisor::domain::flowchart::Outcome;
use serde_json::Value;

/// What the build before the catalog stored under `modality-advisor.session`, captured
/// literally (a session with two answers, the Japanese example sheet and edited "Your
/// settings"): serialised by `Session::to_json` of that build. A change of the session format
/// that breaks reading it breaks this test.
const STORED: &str = r#"{"version":1,"answers":[{"question":"time-triggered","answer":false},{"question":"needs-result-now","answer":false}],"sheet":{"schema_version":1,"lang":"ja","process":{"process_name":"予約確定メール送信","code_name":"send_reservation_mail","trigger":"利用者が予約を確定したとき","arguments":["予約ID"],"business_key":"予約ID","key_purpose":"confirm-mail","permanent_errors":["宛先アドレスの形式エラー","予約が取り消し済み"],"acceptable_wait_ms":600000},"decision":{"answers":[{"question":"time-triggered","answer":false},{"question":"needs-result-now","answer":false}],"outcome":"async-enqueue"},"retry":{"max_attempts":5,"backoff":{"kind":"exponential","base_ms":10000,"cap_ms":600000,"jitter":"full"},"attempt_timeout_ms":30000,"lease_ms":60000,"idempotency_key":"予約ID＋confirm-mail","retryable_errors":["接続エラー","応答の時間切れ","一時的な混雑を示す応答"],"non_retryable_errors":["宛先アドレスの形式エラー","予約が取り消し済み"]},"failure":{"dead_letter":"jobsテーブルのstatusをdeadにして残す","notify":"運用担当のチャットにジョブ名・予約ID・最後のエラーを投稿","notice_within_h":24,"rerun":"statusをqueued、attemptsを0に戻す","retention":{"done":{"days":30},"dead":"until-handled"},"last_error_on_done":"keep"},"ticket":null,"batch":null,"sync":null},"on_sheet":true,"on_simulate":false,"sim":{"preset":"custom","variant":"your-settings","seed":7,"jobs":2000,"custom":{"from_sheet":true,"max_attempts":7,"growth":"exponential","base_ms":10000,"cap_ms":600000,"jitter":"full","lease_ms":60000,"idempotency_key":true,"classify_errors":true,"retryable_error":"接続エラー","permanent_error":"宛先アドレスの形式エラー","workers":2,"arrivals":"burst","jobs":20,"burst_at_ms":0,"rate_per_s":5,"duration":"lognormal","duration_ms":200,"duration_hi_ms":1000,"failure":"probability","failure_percent":20,"fail_first":2,"error_class":"retryable","crash_percent":0,"downstream":false,"capacity":1,"call_ms":300,"rate_limit_per_s":0,"outage_from_ms":0,"outage_for_ms":0}}}"#;

const NOW: u64 = 1_780_000_000_000;

fn stored() -> Value {
    serde_json::from_str(STORED).expect("the sample is JSON")
}

#[test]
fn the_stored_session_becomes_a_one_process_catalog_losing_nothing() {
    let Some(c) = from_saved_session(STORED, ProcessId("p-1".into()), "Process 1", NOW) else {
        panic!("the captured session migrates");
    };
    assert_eq!(c.processes.len(), 1);
    let p = &c.processes[0];
    assert_eq!(p.id.as_str(), "p-1");
    assert_eq!(p.name, "予約確定メール送信");
    assert_eq!((p.created_ms, p.updated_ms), (NOW, NOW));
    assert_eq!(p.outcome, Some(Outcome::AsyncEnqueue));
    // Every part, compared as the JSON it was stored as.
    let written = serde_json::to_value(p).expect("serialises");
    let old = stored();
    for part in ["answers", "sheet", "sim"] {
        let mut was = old[part].clone();
        if part == "sim" {
            // The knobs added since the sample was captured (issue 15's lease knobs) come in
            // with their defaults, the settings' behaviour of old; every stored value stays.
            let added = [
                ("owner_check", serde_json::json!(false)),
                ("heartbeat_ms", serde_json::json!(0)),
                ("ack", serde_json::json!("after")),
                ("crash_point", serde_json::json!("after-effect")),
                ("duplicate_after_ms", serde_json::json!(0)),
                ("key_from", serde_json::json!("request")),
            ];
            let custom = was["custom"].as_object_mut().expect("stored knobs");
            for (k, v) in added {
                assert!(
                    custom.insert(k.into(), v).is_none(),
                    "{k} was not in the sample"
                );
            }
        }
        assert_eq!(written[part], was, "{part} changed in the migration");
    }
    assert_eq!(written["sim"]["custom"]["max_attempts"], 7);
    // The catalog checks out and reads back identical.
    match read_catalog(&c.to_json()) {
        Ok(back) => assert_eq!(back, c),
        Err(e) => panic!("the migrated catalog reads back: {e}"),
    }
}

#[test]
fn a_session_without_a_sheet_takes_the_fallback_name() {
    let mut v = stored();
    v["sheet"] = Value::Null;
    v["sim"] = Value::Null;
    let c = from_saved_session(&v.to_string(), ProcessId("p-1".into()), "Process 1", NOW)
        .expect("migrates");
    assert_eq!(c.processes[0].name, "Process 1");
    assert_eq!(c.processes[0].sheet, None);
    assert_eq!(c.processes[0].answers.len(), 2);
}

#[test]
fn what_today_would_not_load_does_not_migrate() {
    let id = || ProcessId("p-1".into());
    assert!(from_saved_session("", id(), "x", NOW).is_none());
    assert!(from_saved_session("{", id(), "x", NOW).is_none());
    let mut v = stored();
    v["version"] = 2.into();
    assert!(from_saved_session(&v.to_string(), id(), "x", NOW).is_none());
    // A malformed id cannot make a catalog that storage would refuse.
    assert!(from_saved_session(STORED, ProcessId("Bad Id".into()), "x", NOW).is_none());
}

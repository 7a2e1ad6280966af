//! Each live check firing and not firing: one line per case, starting from the source documents'
//! example (which passes every check) with one change.

use crate::sheet_support::example;
use modality_advisor::domain::sheet::check::{key_uses_job_id, validate, Severity};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, JobSheet, Keep};
use modality_advisor::domain::{Answers, Lang, QuestionId};

/// Applies `change` to the example and expects exactly `want` as `(code, severity)`.
fn check(change: impl Fn(&mut JobSheet), want: &[(&str, Severity)]) {
    let mut sheet = example(Lang::Ja);
    change(&mut sheet);
    for lang in Lang::ALL {
        let got: Vec<(&str, Severity)> = validate(&sheet, lang)
            .iter()
            .map(|f| (f.code, f.severity))
            .collect();
        assert_eq!(got, want, "{lang:?}");
    }
}

fn retry(sheet: &mut JobSheet) -> &mut modality_advisor::domain::sheet::RetrySpec {
    sheet
        .retry
        .as_mut()
        .expect("the example has a retry section")
}

fn failure(sheet: &mut JobSheet) -> &mut modality_advisor::domain::sheet::FailureSpec {
    sheet
        .failure
        .as_mut()
        .expect("the example has a failure section")
}

use Severity::{Error, Warning};

#[test]
fn async_checks_fire_and_stay_quiet() {
    check(|_| {}, &[]);
    // Retry window: worst case 300 s (150 s of waits + 5 × 30 s); min 150 s.
    check(|s| s.process.acceptable_wait_ms = Some(300_000), &[]);
    check(|s| s.process.acceptable_wait_ms = None, &[]);
    check(
        |s| s.process.acceptable_wait_ms = Some(299_999),
        &[("retry-window-exceeds-wait", Warning)],
    );
    check(
        |s| s.process.acceptable_wait_ms = Some(149_999),
        &[("retry-window-exceeds-wait", Error)],
    );
    // One attempt with retryable errors.
    check(
        |s| retry(s).max_attempts = 1,
        &[("retryable-but-one-attempt", Warning)],
    );
    check(
        |s| {
            retry(s).max_attempts = 1;
            retry(s).retryable_errors.clear();
        },
        &[],
    );
    check(|s| retry(s).max_attempts = 2, &[]);
    // Lease vs attempt timeout (30 s).
    check(
        |s| retry(s).lease_ms = 30_000,
        &[("lease-not-longer-than-timeout", Error)],
    );
    check(
        |s| retry(s).lease_ms = 1,
        &[("lease-not-longer-than-timeout", Error)],
    );
    check(|s| retry(s).lease_ms = 30_001, &[]);
    // Idempotency key.
    check(
        |s| retry(s).idempotency_key = " ".into(),
        &[("no-idempotency-key", Warning)],
    );
    check(
        |s| retry(s).idempotency_key = "job_id + confirm-mail".into(),
        &[("idempotency-key-uses-job-id", Error)],
    );
    check(
        |s| retry(s).idempotency_key = "ジョブID＋confirm-mail".into(),
        &[("idempotency-key-uses-job-id", Error)],
    );
    check(
        |s| {
            retry(s).idempotency_key = "reservation id + confirm-mail".into();
            s.process.business_key = "Reservation ID".into();
        },
        &[],
    );
    // Not made from the sheet's own business key (予約ID in the example).
    check(
        |s| retry(s).idempotency_key = "reservation id + confirm-mail".into(),
        &[("key-without-business-key", Error)],
    );
    // A key that still holds the placeholder words (as earlier builds pre-filled it) names no
    // real value: an error on the key, in either language, whatever the business key says.
    for key in [
        "business key + confirm-mail",
        "業務キー＋confirm-mail",
        "Business Key+mail",
        "order_id + business key",
    ] {
        check(
            |s| {
                retry(s).idempotency_key = key.into();
                s.process.business_key = "order_id".into();
            },
            &[("key-placeholder", Error)],
        );
    }
    // Words that are the business key itself are its value, not a placeholder.
    check(
        |s| {
            retry(s).idempotency_key = "業務キー番号＋confirm-mail".into();
            s.process.business_key = "業務キー番号".into();
        },
        &[],
    );
    // Non-retryable errors.
    check(
        |s| retry(s).non_retryable_errors.clear(),
        &[("no-non-retryable-errors", Warning)],
    );
    check(
        |s| retry(s).non_retryable_errors = vec![" ".into(), String::new()],
        &[("no-non-retryable-errors", Warning)],
    );
    check(|s| retry(s).non_retryable_errors = vec!["x".into()], &[]);
    // Nobody notified.
    check(
        |s| failure(s).notify = " \n".into(),
        &[("dead-letter-nobody-notified", Warning)],
    );
    // Dead jobs deleted before anyone acts (notice within 24 h by default).
    check(|s| failure(s).notice_within_h = 25, &[]);
    check(
        |s| {
            failure(s).retention.dead = Keep::Days(1);
            failure(s).notice_within_h = 25;
        },
        &[("dead-retention-shorter-than-notice", Error)],
    );
    check(
        |s| {
            failure(s).retention.dead = Keep::Days(1);
            failure(s).notice_within_h = 24;
        },
        &[],
    );
    // Several at once come in field order.
    check(
        |s| {
            failure(s).notify.clear();
            retry(s).lease_ms = 1;
            retry(s).max_attempts = 1;
        },
        &[
            ("retryable-but-one-attempt", Warning),
            ("lease-not-longer-than-timeout", Error),
            ("dead-letter-nobody-notified", Warning),
        ],
    );
}

fn sync_sheet(acceptable_wait_ms: Option<u64>, call_timeout_ms: u64) -> JobSheet {
    let answers = Answers::new()
        .with(QuestionId::TimeTriggered, false)
        .with(QuestionId::NeedsResultNow, true)
        .with(QuestionId::WithinSeconds, true)
        .with(QuestionId::ExternalCall, false);
    let decision = Decision::from_answers(&answers).expect("complete");
    let mut facts = example(Lang::En).process;
    facts.acceptable_wait_ms = acceptable_wait_ms;
    let mut sheet = prefill(facts, decision, Lang::En);
    sheet.sync.as_mut().expect("sync section").call_timeout_ms = call_timeout_ms;
    sheet
}

#[test]
fn sync_call_timeout_against_the_acceptable_wait() {
    let codes =
        |s: &JobSheet| -> Vec<&str> { validate(s, Lang::En).iter().map(|f| f.code).collect() };
    assert_eq!(
        codes(&sync_sheet(Some(3_000), 5_000)),
        ["call-timeout-exceeds-wait"]
    );
    assert_eq!(codes(&sync_sheet(Some(5_000), 5_000)), Vec::<&str>::new());
    assert_eq!(codes(&sync_sheet(None, 600_000)), Vec::<&str>::new());
}

#[test]
fn messages_carry_the_numbers_in_both_languages() {
    let mut sheet = example(Lang::Ja);
    sheet.process.acceptable_wait_ms = Some(60_000);
    retry(&mut sheet).lease_ms = 20_000;
    let msgs = |lang| -> Vec<String> {
        validate(&sheet, lang)
            .into_iter()
            .map(|f| f.message)
            .collect()
    };
    insta::assert_debug_snapshot!(msgs(Lang::En), @r#"
        [
            "Retries can take up to 5 min (about 3.8 min on average), but users wait at most 1 min. Fewer attempts, shorter waits or a smaller cap bring it in.",
            "The lease (20 s) is not longer than the attempt timeout (30 s): a job still running is claimed again by another worker — duplicate runs.",
        ]
        "#);
    insta::assert_debug_snapshot!(msgs(Lang::Ja), @r#"
        [
            "再試行は最長 5分（平均 約3.8分）かかりますが、利用者が待てるのは 1分 までです。回数・待ち時間・上限を減らして収めてください。",
            "リース（20秒）が1回のタイムアウト（30秒）より長くありません。実行中のジョブを別のワーカーが再取得し、二重に実行されます。",
        ]
        "#);
}

#[test]
fn job_id_keys() {
    for (key, uses) in [
        ("job_id", true),
        ("Job ID + purpose", true),
        ("queue-id＋x", true),
        ("message.id", true),
        ("id", true),
        ("ジョブ番号", true),
        ("予約ID＋confirm-mail", false),
        ("reservation id + confirm-mail", false),
        ("jobber", false),
        ("", false),
    ] {
        assert_eq!(key_uses_job_id(key), uses, "{key:?}");
    }
}

/// Schema 2's findings, each firing and staying quiet, from the example (exponential from
/// 10 s, cap 10 min, full jitter, 5 attempts of 30 s: worst case 300 s).
#[test]
fn schema_2_findings_fire_and_stay_quiet() {
    use modality_advisor::domain::sheet::{BackoffKind, Jitter, Polynomial};
    // Backoff without jitter: exponential or polynomial, not fixed, not a single attempt.
    check(
        |s| retry(s).backoff.jitter = Jitter::None,
        &[("exponential-without-jitter", Warning)],
    );
    check(
        |s| {
            retry(s).backoff.kind = BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 0,
            });
            retry(s).backoff.jitter = Jitter::None;
        },
        &[("exponential-without-jitter", Warning)],
    );
    check(
        |s| {
            retry(s).backoff.kind = BackoffKind::Fixed;
            retry(s).backoff.jitter = Jitter::None;
        },
        &[],
    );
    check(|s| retry(s).backoff.jitter = Jitter::Equal, &[]);
    check(
        |s| {
            retry(s).backoff.jitter = Jitter::None;
            retry(s).max_attempts = 1;
            retry(s).retryable_errors.clear();
        },
        &[],
    );
    // The window (worst case 300 s) against the queue's retention.
    check(|s| retry(s).queue_retention_ms = Some(300_000), &[]);
    check(
        |s| retry(s).queue_retention_ms = Some(299_999),
        &[("window-over-retention", Error)],
    );
    check(|s| retry(s).queue_retention_ms = None, &[]);
    // Over 30 days: Sidekiq's 25 retries plus long attempts (≈ 20.4 days of waits + 26 h).
    let sidekiq = |s: &mut JobSheet| {
        s.process.acceptable_wait_ms = None;
        let r = retry(s);
        r.max_attempts = 26;
        r.backoff.kind = BackoffKind::Polynomial(Polynomial {
            exponent: 4,
            first_n: 0,
        });
        r.backoff.base_ms = 15_000;
        r.backoff.cap_ms = 30 * 86_400_000;
    };
    check(sidekiq, &[]);
    check(
        |s| {
            sidekiq(s);
            retry(s).max_attempts = 30;
        },
        &[("window-over-30-days", Warning)],
    );
    // Keys made from a per-delivery value, whatever the case, width or spacing.
    for key in [
        "Receipt Handle",
        "message_id",
        "delivery-tag + confirm-mail",
        "予約ID + run id",
        "予約ID＋ATTEMPT NUMBER",
        "uuid",
        "予約ID + Ｔｉｍｅｓｔａｍｐ",
        "予約ID + random suffix",
        "予約ID + now",
        "予約ID＋受信ハンドル",
        "予約ID＋試行回数",
        "予約ID＋現在時刻",
        "予約ID＋配信ID",
    ] {
        let want = if key == "message_id" {
            "idempotency-key-uses-job-id"
        } else {
            "key-per-delivery"
        };
        check(|s| retry(s).idempotency_key = key.into(), &[(want, Error)]);
    }
    // Business values that only look like one stay quiet.
    for key in [
        "予約ID＋confirm-mail",
        "予約 id + reservation time slot",
        "予約ID + order uuid",
        "予約ID + runtime-config",
    ] {
        check(|s| retry(s).idempotency_key = key.into(), &[]);
    }
    // Not from the business key (compared normalised), or the key blank is another finding.
    check(
        |s| retry(s).idempotency_key = "guest email + confirm-mail".into(),
        &[("key-without-business-key", Error)],
    );
    check(
        |s| {
            s.process.business_key = "Reservation ID + Room".into();
            retry(s).idempotency_key = "room+reservation_id+mail".into();
        },
        &[],
    );
    check(
        |s| {
            s.process.business_key = " ".into();
            retry(s).idempotency_key = "guest email".into();
        },
        &[],
    );
}

#[test]
fn schema_2_messages_carry_the_numbers_in_both_languages() {
    let mut sheet = example(Lang::Ja);
    retry(&mut sheet).backoff.jitter = modality_advisor::domain::sheet::Jitter::None;
    retry(&mut sheet).queue_retention_ms = Some(120_000);
    retry(&mut sheet).idempotency_key = "予約ID + receipt handle".into();
    let msgs = |lang| {
        validate(&sheet, lang)
            .into_iter()
            .map(|f| f.message)
            .collect::<Vec<_>>()
    };
    insta::assert_debug_snapshot!(msgs(Lang::En), @r#"
    [
        "Backoff without jitter: jobs that failed together retry together (after 10 s, 20 s, 40 s …) and hit the recovering service in lock-step — the thundering herd. Add full or equal jitter.",
        "The idempotency key uses “receipt handle”, which is new on every delivery: a redelivered job gets a new key and repeats its side effect. Build it from the business key + purpose.",
        "Retries can last up to 5 min, but the queue keeps a message only 2 min: the last retries are deleted with the message, silently.",
    ]
    "#);
    insta::assert_debug_snapshot!(msgs(Lang::Ja), @r#"
    [
        "ジッターのないバックオフです。同時に失敗したジョブは同時に再試行し（10秒、20秒、40秒 … 後）、復旧中のサービスに一斉に押し寄せます（thundering herd）。フルかイコールのジッターを加えてください。",
        "冪等キーに「receipt handle」を使っています。配信のたびに変わる値なので、再配信されたジョブは別のキーになり副作用を繰り返します。業務キー＋用途で作ってください。",
        "再試行は最長 5分 続きますが、キューがメッセージを保持するのは 2分 までです。最後の再試行はメッセージごと黙って消えます。",
    ]
    "#);
}

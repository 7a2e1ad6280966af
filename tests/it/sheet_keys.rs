//! The idempotency keys (issue 26, items 1 and 2): a pre-filled key is built from what the user
//! typed and follows it, or is empty with a placeholder no document writes; placeholder words
//! left in a key are a finding; the external call of a synchronous sheet has its key, how the
//! provider takes it and how an unknown outcome is settled, in every document; a bad header
//! name is an error naming the field and what is allowed.

use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::sheet::check::{validate, Finding, Severity};
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::import::{import_json, ImportError};
use modality_advisor::domain::sheet::prefill::{
    changed_from_default, key_placeholder, prefill, relocalize,
};
use modality_advisor::domain::sheet::{
    CallEffect, Decision, ExternalCall, FieldId, JobSheet, KeyVia, ProcessFacts, Resolve,
};
use modality_advisor::domain::{Answers, Lang, QuestionId};

/// A fresh pre-fill for the answers, with only the process name and trigger typed (no code
/// name, no business key: the sheet as it opens), in `lang`.
fn opened(answers: &[(QuestionId, bool)], lang: Lang) -> JobSheet {
    let mut a = Answers::new();
    for &(q, v) in answers {
        a.set(q, v);
    }
    let decision = Decision::from_answers(&a).expect("a complete decision");
    let facts = ProcessFacts {
        process_name: "Sync inventory".into(),
        trigger: "a hotel edits a season".into(),
        ..ProcessFacts::default()
    };
    prefill(facts, decision, lang)
}

fn enqueue(lang: Lang) -> JobSheet {
    opened(
        &[
            (QuestionId::TimeTriggered, false),
            (QuestionId::NeedsResultNow, false),
        ],
        lang,
    )
}

/// A synchronous call to an external system that may be refused while it is down: the
/// hotel's card charge.
fn charge(lang: Lang) -> JobSheet {
    opened(
        &[
            (QuestionId::TimeTriggered, false),
            (QuestionId::NeedsResultNow, true),
            (QuestionId::WithinSeconds, true),
            (QuestionId::ExternalCall, true),
            (QuestionId::KeepAcceptingWhenDown, false),
        ],
        lang,
    )
}

fn sync_internal(lang: Lang) -> JobSheet {
    opened(
        &[
            (QuestionId::TimeTriggered, false),
            (QuestionId::NeedsResultNow, true),
            (QuestionId::WithinSeconds, true),
            (QuestionId::ExternalCall, false),
        ],
        lang,
    )
}

fn edit(sheet: &JobSheet, edits: impl IntoIterator<Item = SheetEdit>) -> JobSheet {
    edits
        .into_iter()
        .fold(sheet.clone(), |s, e| match e.clone().apply(&s) {
            Ok(next) => next,
            Err(err) => panic!("{e:?} refused: {err}"),
        })
}

/// Types `text` one character at a time, as the form sends it.
fn typed(sheet: &JobSheet, make: fn(String) -> SheetEdit, text: &str) -> JobSheet {
    let prefixes: Vec<String> = text
        .char_indices()
        .map(|(i, c)| text[..i + c.len_utf8()].to_owned())
        .collect();
    edit(sheet, prefixes.into_iter().map(make))
}

fn key(sheet: &JobSheet) -> &str {
    &sheet.retry.as_ref().expect("retry").idempotency_key
}

fn call(sheet: &JobSheet) -> &ExternalCall {
    sheet
        .sync
        .as_ref()
        .and_then(|s| s.call.as_ref())
        .expect("the sheet describes its call")
}

/// A finding as (code, severity, field).
type Coded = (&'static str, Severity, FieldId);

fn codes(sheet: &JobSheet, lang: Lang) -> Vec<Coded> {
    validate(sheet, lang)
        .iter()
        .map(|f| (f.code, f.severity, f.field))
        .collect()
}

fn finding(sheet: &JobSheet, code: &str, lang: Lang) -> Finding {
    match validate(sheet, lang).into_iter().find(|f| f.code == code) {
        Some(f) => f,
        None => panic!("no {code} in {:?}", codes(sheet, lang)),
    }
}

/// Every document written from `sheet` in `lang`: the sheet's Markdown, TSV and CSV, and, for
/// the sheet as a process of a catalog, the catalog's Markdown, TSV and CSV, the wiki Markdown,
/// the decision record and the SVG card.
fn documents(sheet: &JobSheet, lang: Lang) -> Vec<(&'static str, String)> {
    use modality_advisor::domain::{catalog, export, share};
    let mut p = Process::new(ProcessId("p".into()), "p", 0);
    p.set_answers(&sheet.decision.to_answers());
    p.sheet = Some(sheet.clone());
    let mut c = Catalog::new("c");
    c.processes.push(p.clone());
    let one = Share {
        lang,
        content: Shared::Process(Box::new(p)),
    };
    let link = "https://tools.example/#share-v1:x";
    vec![
        ("markdown", export::markdown::to_markdown(sheet, lang)),
        ("tsv", export::tsv::to_tsv(sheet, lang)),
        ("csv", export::csv::to_csv(sheet, lang, false)),
        ("catalog markdown", catalog::export::to_markdown(&c, lang)),
        ("catalog tsv", catalog::export::to_tsv(&c, lang)),
        ("catalog csv", catalog::export::to_csv(&c, lang, false)),
        (
            "wiki markdown",
            share::markdown::markdown(&one, lang, link, share::markdown::Flavour::GitHub),
        ),
        ("adr", share::adr::adr(&one, lang, link)),
        ("svg card", share::svg::card(&one, lang, link)),
    ]
}

/// The placeholder key as the form shows it (never a value), in both languages.
fn placeholders(sheet: &JobSheet) -> Vec<String> {
    Lang::ALL
        .into_iter()
        .map(|l| key_placeholder(&sheet.process, l))
        .collect()
}

#[test]
fn a_key_opened_before_the_business_key_is_empty_with_a_placeholder_and_a_warning() {
    for lang in Lang::ALL {
        let s = enqueue(lang);
        assert_eq!(key(&s), "", "{lang:?}: no placeholder words as a value");
        assert_eq!(
            placeholders(&s),
            ["business key", "業務キー"],
            "the form's placeholder (no code name yet: no purpose)"
        );
        let f = finding(&s, "no-idempotency-key", lang);
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(f.field, FieldId::IdempotencyKey);
        let (field, business) = match lang {
            Lang::En => ("Idempotency key", "business key is typed"),
            Lang::Ja => ("冪等キー", "業務キーを記入する"),
        };
        assert!(
            f.message.contains(field) && f.message.contains(business),
            "{}",
            f.message
        );
        // The documents say the key is not stated, never "business key + …".
        for (name, doc) in documents(&s, lang) {
            for p in placeholders(&s) {
                assert!(!doc.contains(&format!("{p} +")), "{name}: {doc}");
                assert!(!doc.contains(&format!("{p}＋")), "{name}: {doc}");
            }
        }
    }
}

#[test]
fn the_key_and_the_notice_follow_the_business_key_typed_after_the_sheet_opens() {
    for lang in Lang::ALL {
        let s = enqueue(lang);
        let s = typed(&s, SheetEdit::CodeName, "sync_partner_inventory");
        assert_eq!(key(&s), "", "a purpose alone is no key");
        let s = typed(&s, SheetEdit::BusinessKey, "hotel_id + room_type_id");
        let want = match lang {
            Lang::En => "hotel_id + room_type_id + sync-partner-inventory",
            Lang::Ja => "hotel_id + room_type_id＋sync-partner-inventory",
        };
        assert_eq!(key(&s), want, "{lang:?}");
        let notify = &s.failure.as_ref().expect("failure").notify;
        assert!(notify.contains("hotel_id + room_type_id"), "{notify}");
        assert!(validate(&s, lang).is_empty(), "{:?}", codes(&s, lang));
        // The hint says "default" only when the value differs from the default.
        assert_eq!(changed_from_default(&s, lang), Vec::new());
        // A later change of the code name moves the purpose too.
        let s2 = edit(&s, [SheetEdit::CodeName("sync_inventory".into())]);
        assert!(key(&s2).ends_with("sync-inventory"), "{}", key(&s2));
        // No document holds placeholder words for the key or the notice.
        for (name, doc) in documents(&s, lang) {
            for p in placeholders(&s) {
                assert!(!doc.contains(&p), "{name}: {p} in {doc}");
            }
            assert!(doc.contains("sync-partner-inventory"), "{name}");
        }
    }
}

#[test]
fn a_key_the_user_typed_is_never_overwritten() {
    let s = enqueue(Lang::En);
    let s = edit(
        &s,
        [
            SheetEdit::CodeName("send_mail".into()),
            SheetEdit::IdempotencyKey("order id + mail".into()),
        ],
    );
    let s = typed(&s, SheetEdit::BusinessKey, "order id");
    assert_eq!(key(&s), "order id + mail");
    // Changed from a real default: the hint names it.
    assert_eq!(
        changed_from_default(&s, Lang::En),
        vec![(FieldId::IdempotencyKey, "order id + send-mail".to_owned())]
    );
    // Typed before any business key: there is no default to name.
    let t = edit(
        &enqueue(Lang::En),
        [SheetEdit::IdempotencyKey("order id + mail".into())],
    );
    assert_eq!(changed_from_default(&t, Lang::En), Vec::new());
}

#[test]
fn a_key_earlier_builds_filled_with_placeholder_words_follows_or_is_a_finding() {
    for lang in Lang::ALL {
        let mut s = edit(&enqueue(lang), [SheetEdit::CodeName("send_mail".into())]);
        let old = key_placeholder(&s.process, lang);
        s.retry.as_mut().expect("retry").idempotency_key = old.clone();
        let f = finding(&s, "key-placeholder", lang);
        assert_eq!(
            (f.severity, f.field),
            (Severity::Error, FieldId::IdempotencyKey)
        );
        let (field, words) = match lang {
            Lang::En => ("“Idempotency key”", "“business key”"),
            Lang::Ja => ("「冪等キー」", "「業務キー」"),
        };
        assert!(
            f.message.contains(field) && f.message.contains(words),
            "{}",
            f.message
        );
        // Typing the business key replaces the placeholder with the real key.
        let s = typed(&s, SheetEdit::BusinessKey, "order id");
        assert!(key(&s).starts_with("order id"), "{}", key(&s));
        assert!(!codes(&s, lang).iter().any(|c| c.0 == "key-placeholder"));
        // A sheet whose business key was typed while the key kept the words: a finding.
        let mut t = s.clone();
        t.retry.as_mut().expect("retry").idempotency_key = old.clone();
        assert!(codes(&t, lang).contains(&(
            "key-placeholder",
            Severity::Error,
            FieldId::IdempotencyKey
        )));
    }
}

#[test]
fn a_synchronous_external_call_has_its_key_and_never_promises_a_safe_retry() {
    for lang in Lang::ALL {
        let s = edit(&charge(lang), [SheetEdit::CodeName("charge_card".into())]);
        let c = call(&s);
        assert_eq!(c.effect, CallEffect::Changes);
        assert_eq!(
            (c.key_via, c.key_name.as_str()),
            (KeyVia::Header, "Idempotency-Key")
        );
        assert_eq!(c.resolve, Resolve::RetrySameKey);
        // No business key yet: no key, an error naming the call's key, saying to type it.
        assert_eq!(c.idempotency_key, "");
        let f = finding(&s, "call-without-key", lang);
        assert_eq!((f.severity, f.field), (Severity::Error, FieldId::CallKey));
        let name = match lang {
            Lang::En => "Call's idempotency key",
            Lang::Ja => "呼び出しの冪等キー",
        };
        assert!(f.message.contains(name), "{}", f.message);
        // Typed: the key follows, the finding goes.
        let s = typed(&s, SheetEdit::BusinessKey, "reservation id");
        let want = match lang {
            Lang::En => "reservation id + charge-card",
            Lang::Ja => "reservation id＋charge-card",
        };
        assert_eq!(call(&s).idempotency_key, want);
        assert!(validate(&s, lang).is_empty(), "{:?}", codes(&s, lang));
        // The default texts of both synchronous outcomes never say a retry is safe.
        for sheet in [&s, &sync_internal(lang)] {
            let text = &sheet.sync.as_ref().expect("sync").on_timeout;
            for promise in [
                "safe to try again",
                "try again later",
                "再度試せる",
                "再試行できます",
            ] {
                assert!(!text.contains(promise), "{text}");
            }
        }
        assert_eq!(sync_internal(lang).sync.expect("sync").call, None);
    }
}

/// The charge with its business key typed, and the call changed by `change`.
fn charge_with(change: impl Fn(&mut ExternalCall)) -> JobSheet {
    let mut s = edit(
        &charge(Lang::En),
        [
            SheetEdit::CodeName("charge_card".into()),
            SheetEdit::BusinessKey("reservation id".into()),
        ],
    );
    if let Some(c) = s.sync.as_mut().and_then(|s| s.call.as_mut()) {
        change(c);
    }
    s
}

#[test]
fn the_call_checks_fire_and_stay_quiet_in_both_languages() {
    use FieldId::{CallEffect as Effect, CallKey, CallResolve};
    use Severity::{Error, Warning};
    let cases: Vec<(JobSheet, Vec<Coded>)> = vec![
        (charge_with(|_| {}), vec![]),
        (
            charge_with(|c| c.idempotency_key = " ".into()),
            vec![("call-without-key", Error, CallKey)],
        ),
        // A call that only reads needs no key.
        (
            charge_with(|c| {
                c.idempotency_key.clear();
                c.effect = CallEffect::ReadsOnly;
            }),
            vec![],
        ),
        // A provider without keys: retrying is a new call; querying or reconciling is honest.
        (
            charge_with(|c| c.key_via = KeyVia::NotSupported),
            vec![("call-retry-without-key", Error, CallResolve)],
        ),
        (
            charge_with(|c| {
                c.key_via = KeyVia::NotSupported;
                c.resolve = Resolve::QueryStatus;
            }),
            vec![],
        ),
        (
            charge_with(|c| {
                c.key_via = KeyVia::NotSupported;
                c.resolve = Resolve::ReconcileLater;
            }),
            vec![],
        ),
        (
            charge_with(|c| c.idempotency_key = "business key + charge-card".into()),
            vec![("key-placeholder", Error, CallKey)],
        ),
        (
            charge_with(|c| c.idempotency_key = "業務キー＋charge-card".into()),
            vec![("key-placeholder", Error, CallKey)],
        ),
        // A file from before the call was described: the checks ask for it.
        (
            {
                let mut s = charge_with(|_| {});
                s.sync.as_mut().expect("sync").call = None;
                s
            },
            vec![("call-not-described", Warning, Effect)],
        ),
    ];
    for (sheet, want) in cases {
        for lang in Lang::ALL {
            assert_eq!(codes(&sheet, lang), want, "{lang:?} {:?}", sheet.sync);
        }
    }
    let s = charge_with(|c| c.key_via = KeyVia::NotSupported);
    assert_eq!(
        finding(&s, "call-retry-without-key", Lang::Ja).message,
        "同じキーで再送することにしていますが、呼び出し先はキーを受け付けず、再送は新しい呼び出しになります。状態の問い合わせか照合にしてください。"
    );
}

#[test]
fn bad_header_and_field_names_are_refused_naming_the_field_and_what_is_allowed() {
    let s = charge_with(|_| {});
    let with = |via: KeyVia, name: &str| {
        let mut c = call(&s).clone();
        c.key_via = via;
        c.key_name = name.to_owned();
        SheetEdit::Call(c)
    };
    let header = "1 to 100 characters; letters A-Z a-z, digits and !#$%&'*+-.^_`|~ (an HTTP header name, RFC 9110 §5.1)";
    let field = "1 to 100 characters; no spaces or control characters";
    let long = "X".repeat(101);
    for (via, name, value, allowed) in [
        (
            KeyVia::Header,
            "Idempotency\nKey",
            "character U+000A",
            header,
        ),
        (
            KeyVia::Header,
            "Idempotency Key",
            "character U+0020",
            header,
        ),
        (KeyVia::Header, long.as_str(), "101 characters", header),
        (KeyVia::Header, "", "0 characters", header),
        (KeyVia::Field, "request id", "character U+0020", field),
        (KeyVia::Field, "id\u{202e}", "character U+202E", field),
    ] {
        let got = with(via, name)
            .apply(&s)
            .map(|_| ())
            .map_err(|e| e.to_string());
        let want = format!("sync.call.key_name: {value} is out of range; allowed: {allowed}");
        assert_eq!(got, Err(want), "{name:?}");
    }
    // Good names are taken: a provider's own header, a body field with a path; no name is
    // read when the provider takes no key.
    for (via, name) in [
        (KeyVia::Header, "PayPal-Request-Id"),
        (KeyVia::Field, "metadata.idempotency_key"),
        (KeyVia::NotSupported, ""),
    ] {
        let next = with(via, name).apply(&s).expect("taken");
        assert_eq!(
            (call(&next).key_via, call(&next).key_name.as_str()),
            (via, name)
        );
    }
    // A synchronous process without an external call has no call to describe.
    let internal = sync_internal(Lang::En);
    let refused = SheetEdit::Call(call(&s).clone()).apply(&internal);
    assert!(
        matches!(&refused, Err(ImportError::Inconsistent { path, .. }) if path == "sync.call"),
        "{refused:?}"
    );
}

#[test]
fn older_files_import_and_the_call_round_trips() {
    let answers = r#"{"answers":[{"question":"time-triggered","answer":false},{"question":"needs-result-now","answer":true},{"question":"within-seconds","answer":true},{"question":"external-call","answer":true},{"question":"keep-accepting-when-down","answer":false}]}"#;
    let facts = r#"{"process_name":"Charge","code_name":"charge_card","trigger":"Pay","arguments":[],"business_key":"reservation id"}"#;
    for version in 1..=3 {
        // An older file with its sync section: read unchanged, the call not described.
        let file = format!(
            r#"{{"schema_version":{version},"process":{facts},"decision":{answers},"sync":{{"call_timeout_ms":3000,"on_timeout":"pending"}}}}"#
        );
        let s = import_json(&file, Lang::En).expect("an older file imports");
        assert_eq!(s.sync.as_ref().expect("sync").call, None, "v{version}");
        assert!(codes(&s, Lang::En)
            .iter()
            .any(|c| c.0 == "call-not-described"));
        // Without the section: pre-filled, with the call.
        let file =
            format!(r#"{{"schema_version":{version},"process":{facts},"decision":{answers}}}"#);
        let s = import_json(&file, Lang::En).expect("imports");
        assert_eq!(call(&s).idempotency_key, "reservation id + charge-card");
    }
    let s = charge_with(|c| {
        c.key_via = KeyVia::Field;
        c.key_name = "idempotency_key".into();
    });
    let json = modality_advisor::domain::export::json::to_json(&s);
    assert!(json.contains(r#""key_via": "field""#), "{json}");
    assert!(json.contains(r#""key_name": "idempotency_key""#), "{json}");
    assert_eq!(import_json(&json, Lang::En), Ok(s));
    // On a synchronous sheet without an external call, a call is refused, naming it.
    let json = modality_advisor::domain::export::json::to_json(&sync_internal(Lang::En))
        .replace(
            r#""on_timeout""#,
            r#""call": {"effect": "changes", "key_via": "not-supported", "resolve": "query-status"}, "on_timeout""#,
        );
    assert_eq!(
        import_json(&json, Lang::En).map_err(|e| e.to_string()),
        Err("sync.call: does not apply to outcome sync; allowed: null or absent".to_owned())
    );
}

#[test]
fn the_call_key_follows_the_language_and_its_rows_reach_every_document() {
    let en = charge_with(|_| {});
    let ja = relocalize(&en, Lang::Ja);
    assert_eq!(call(&ja).idempotency_key, "reservation id＋charge-card");
    for (lang, sheet) in [(Lang::En, &en), (Lang::Ja, &ja)] {
        let (key, header, resolve) = match lang {
            Lang::En => (
                "Call's idempotency key",
                "reservation id + charge-card (header Idempotency-Key)",
                "retry with the same key",
            ),
            Lang::Ja => (
                "呼び出しの冪等キー",
                "reservation id＋charge-card（Idempotency-Key ヘッダー）",
                "同じキーで再送（",
            ),
        };
        for (name, doc) in documents(sheet, lang) {
            // The sheet's rows: every document but the catalog's one-line-per-process tables,
            // the decision record and the card, which carry the key itself.
            if [
                "markdown",
                "tsv",
                "csv",
                "catalog markdown",
                "wiki markdown",
            ]
            .contains(&name)
            {
                for want in [key, header, resolve] {
                    assert!(doc.contains(want), "{name} lacks {want}:\n{doc}");
                }
            } else {
                assert!(doc.contains("charge-card"), "{name} lacks the key:\n{doc}");
            }
        }
    }
    insta::assert_snapshot!(
        "sync_timeout_markdown_en",
        modality_advisor::domain::export::markdown::to_markdown(&en, Lang::En)
    );
    insta::assert_snapshot!(
        "sync_timeout_markdown_ja",
        modality_advisor::domain::export::markdown::to_markdown(&ja, Lang::Ja)
    );
}

//! Import errors: each names the field (a JSON path) and what is allowed. One line per case:
//! a change to a full exported sheet of some outcome, and the words the message must hold.

use crate::sheet_support::{example, example_value};
use modality_advisor::domain::export::to_json;
use modality_advisor::domain::sheet::import::{import_json, ImportError};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::Decision;
use modality_advisor::domain::{Answers, Lang, Outcome, QuestionId};
use serde_json::{json, Value};

/// A full exported sheet (every section of its outcome written out) as a JSON value.
pub(crate) fn full(outcome: Outcome) -> Value {
    let q = |id| QuestionId::parse(id).expect("a question id");
    let answers = match outcome {
        Outcome::Batch => vec![("time-triggered", true)],
        Outcome::AsyncEnqueue => vec![("time-triggered", false), ("needs-result-now", false)],
        Outcome::AsyncTicket => vec![
            ("time-triggered", false),
            ("needs-result-now", true),
            ("within-seconds", false),
        ],
        Outcome::Sync => vec![
            ("time-triggered", false),
            ("needs-result-now", true),
            ("within-seconds", true),
            ("external-call", false),
        ],
        Outcome::SyncTimeout => vec![
            ("time-triggered", false),
            ("needs-result-now", true),
            ("within-seconds", true),
            ("external-call", true),
            ("keep-accepting-when-down", false),
        ],
    };
    let answers = answers
        .into_iter()
        .fold(Answers::new(), |a, (id, yes)| a.with(q(id), yes));
    let decision = Decision::from_answers(&answers).expect("complete answers");
    assert_eq!(decision.outcome, outcome);
    let sheet = prefill(example(Lang::En).process, decision, Lang::En);
    serde_json::from_str(&to_json(&sheet)).expect("the export is JSON")
}

/// Sets `path` (dot-separated object keys; `[i]` not needed here) to `value`, or removes the
/// key when `value` is `None`.
fn set(mut v: Value, path: &str, value: Option<Value>) -> Value {
    let mut keys: Vec<&str> = path.split('.').collect();
    let last = keys.pop().expect("a path");
    let mut here = &mut v;
    for k in keys {
        here = &mut here[k];
    }
    let obj = here.as_object_mut().expect("an object on the path");
    match value {
        Some(x) => {
            obj.insert(last.to_owned(), x);
        }
        None => {
            obj.remove(last);
        }
    }
    v
}

/// The import of `text` fails with a message containing every needle; both languages fail
/// alike (messages are for developers, in English).
fn check_text(text: &str, needles: &[&str]) {
    for lang in Lang::ALL {
        let err = match import_json(text, lang) {
            Ok(_) => panic!("{text} imported; want an error with {needles:?}"),
            Err(e) => e,
        };
        let msg = err.to_string();
        for n in needles {
            assert!(msg.contains(n), "{msg:?} lacks {n:?}");
        }
    }
}

fn check(v: Value, needles: &[&str]) {
    check_text(&v.to_string(), needles);
}

#[test]
fn not_json_and_schema_version() {
    check_text("", &["the file is empty"]);
    check_text(" \n\t", &["the file is empty"]);
    check_text("{\"schema_version\": 1,\n", &["not valid JSON", "line 2"]);
    check_text("[1, 2]", &["the file is not a JSON object but a list"]);
    check_text("{}", &["schema_version: missing; allowed: 1 to 3"]);
    check(
        set(example_value(), "schema_version", None),
        &["schema_version: missing; allowed: 1 to 3"],
    );
    for v in [json!(0), json!(4)] {
        check(
            set(example_value(), "schema_version", Some(v.clone())),
            &[&format!(
                "schema_version: {v} is not supported; allowed: 1 to 3"
            )],
        );
    }
    check(
        set(example_value(), "schema_version", Some(json!("1"))),
        &["schema_version: \"1\" is not supported; allowed: 1 to 3"],
    );
    let ja = import_json(
        &set(example_value(), "schema_version", Some(json!(4))).to_string(),
        Lang::Ja,
    )
    .expect_err("version 4")
    .message(Lang::Ja);
    assert!(ja.contains("1 〜 3"), "{ja}");
}

#[test]
fn missing_unknown_and_mistyped_fields() {
    check(
        set(example_value(), "process.trigger", None),
        &["process.trigger: missing; this field is required"],
    );
    check(
        set(example_value(), "decision", None),
        &["decision: missing; this field is required"],
    );
    check(
        set(full(Outcome::AsyncEnqueue), "retry.backoff.cap_ms", None),
        &["retry.backoff.cap_ms: missing; this field is required"],
    );
    check(
        set(example_value(), "process.colour", Some(json!("red"))),
        &[
            "process",
            "unknown field `colour`",
            "expected one of",
            "`trigger`",
        ],
    );
    check(
        set(example_value(), "extra", Some(json!(1))),
        &["unknown field `extra`", "`retry`"],
    );
    let ae = || full(Outcome::AsyncEnqueue);
    check(
        set(ae(), "retry.max_attempts", Some(json!("five"))),
        &[
            "retry.max_attempts",
            "invalid type: string \"five\"",
            "expected a whole number from 1 to 100",
        ],
    );
    check(
        set(ae(), "retry.max_attempts", Some(json!(-1))),
        &[
            "retry.max_attempts",
            "invalid value",
            "expected a whole number from 1 to 100",
        ],
    );
    check(
        set(ae(), "retry.backoff.jitter", Some(json!("random"))),
        &[
            "retry.backoff.jitter",
            "unknown variant `random`",
            "`none`, `full`, `equal`, `decorrelated`",
        ],
    );
    check(
        set(ae(), "retry.backoff.kind", Some(json!("linear"))),
        &[
            "retry.backoff.kind",
            "expected one of `fixed`, `exponential`, `polynomial`",
        ],
    );
    check(
        set(ae(), "failure.retention.done", Some(json!("forever"))),
        &[
            "failure.retention.done",
            "expected `days` or `until-handled`",
        ],
    );
    check(
        set(example_value(), "process.arguments", Some(json!("予約ID"))),
        &["process.arguments", "expected a sequence"],
    );
    check(
        set(
            example_value(),
            "decision.answers",
            Some(json!([{"question": "why", "answer": true}])),
        ),
        &[
            "decision.answers[0].question",
            "unknown variant `why`",
            "`time-triggered`",
        ],
    );
}

#[test]
fn out_of_range_names_each_limit() {
    let ae = || full(Outcome::AsyncEnqueue);
    for (v, path, allowed) in [
        (
            set(ae(), "retry.max_attempts", Some(json!(0))),
            "retry.max_attempts",
            "1 to 100",
        ),
        (
            set(ae(), "retry.max_attempts", Some(json!(101))),
            "retry.max_attempts",
            "1 to 100",
        ),
        (
            set(ae(), "retry.backoff.base_ms", Some(json!(0))),
            "retry.backoff.base_ms",
            "1 to 86400000",
        ),
        (
            set(ae(), "retry.backoff.cap_ms", Some(json!(9_999))),
            "retry.backoff.cap_ms",
            "10000 to 2592000000",
        ),
        (
            set(ae(), "retry.backoff.cap_ms", Some(json!(2_592_000_001u64))),
            "retry.backoff.cap_ms",
            "10000 to 2592000000",
        ),
        (
            set(ae(), "retry.attempt_timeout_ms", Some(json!(0))),
            "retry.attempt_timeout_ms",
            "1 to 86400000",
        ),
        (
            set(ae(), "retry.lease_ms", Some(json!(86_400_001u64))),
            "retry.lease_ms",
            "1 to 86400000",
        ),
        (
            set(ae(), "process.acceptable_wait_ms", Some(json!(0))),
            "process.acceptable_wait_ms",
            "1 to 2592000000",
        ),
        (
            set(ae(), "failure.notice_within_h", Some(json!(8_761))),
            "failure.notice_within_h",
            "1 to 8760",
        ),
        (
            set(ae(), "failure.retention.done", Some(json!({"days": 0}))),
            "failure.retention.done.days",
            "1 to 3650",
        ),
        (
            set(ae(), "failure.retention.dead", Some(json!({"days": 3_651}))),
            "failure.retention.dead.days",
            "1 to 3650",
        ),
        (
            set(ae(), "process.trigger", Some(json!("x".repeat(10_001)))),
            "process.trigger",
            "at most 10000 characters",
        ),
        (
            set(ae(), "retry.retryable_errors", Some(json!(vec!["e"; 101]))),
            "retry.retryable_errors",
            "at most 100 items",
        ),
        (
            set(
                ae(),
                "process.arguments",
                Some(json!(["a", "y".repeat(10_001)])),
            ),
            "process.arguments[1]",
            "at most 10000 characters",
        ),
        (
            set(
                full(Outcome::AsyncTicket),
                "ticket.poll_interval_ms",
                Some(json!(99)),
            ),
            "ticket.poll_interval_ms",
            "100 to 86400000",
        ),
        (
            set(full(Outcome::AsyncTicket), "ticket.states", Some(json!([]))),
            "ticket.states",
            "1 to 100 items",
        ),
        (
            set(full(Outcome::Batch), "batch.run_timeout_ms", Some(json!(0))),
            "batch.run_timeout_ms",
            "1 to 604800000",
        ),
        (
            set(
                full(Outcome::Sync),
                "sync.call_timeout_ms",
                Some(json!(600_001)),
            ),
            "sync.call_timeout_ms",
            "1 to 600000",
        ),
        (
            set(
                full(Outcome::SyncTimeout),
                "sync.call_timeout_ms",
                Some(json!(0)),
            ),
            "sync.call_timeout_ms",
            "1 to 600000",
        ),
    ] {
        check(
            v,
            &[
                &format!("{path}: "),
                "out of range",
                &format!("allowed: {allowed}"),
            ],
        );
    }
    // The limits themselves are accepted.
    for v in [
        set(ae(), "retry.max_attempts", Some(json!(100))),
        set(ae(), "retry.backoff.cap_ms", Some(json!(10_000))),
        set(
            full(Outcome::AsyncTicket),
            "ticket.poll_interval_ms",
            Some(json!(100)),
        ),
        set(
            full(Outcome::Sync),
            "sync.call_timeout_ms",
            Some(json!(600_000)),
        ),
    ] {
        assert!(import_json(&v.to_string(), Lang::En).is_ok(), "{v}");
    }
}

#[test]
fn decisions_that_do_not_hold_together() {
    let answers = |a: Value| set(example_value(), "decision.answers", Some(a));
    check(
        answers(json!([{"question": "time-triggered", "answer": false}])),
        &["decision.answers: incomplete: needs-result-now must be answered next"],
    );
    check(
        answers(json!([])),
        &["decision.answers: incomplete: time-triggered"],
    );
    check(
        answers(json!([
            {"question": "time-triggered", "answer": true},
            {"question": "needs-result-now", "answer": false}
        ])),
        &["decision.answers[1]: needs-result-now is not on the path of the other answers"],
    );
    check(
        answers(json!([
            {"question": "time-triggered", "answer": false},
            {"question": "time-triggered", "answer": false}
        ])),
        &["decision.answers[1]: time-triggered is answered twice; allowed: one answer per question"],
    );
    check(
        answers(json!([
            {"question": "time-triggered", "answer": false},
            {"question": "needs-result-now", "answer": false, "timing": {"target_ms": 2000, "p95_ms": 8000}}
        ])),
        &["decision.answers[1].timing: timing is allowed on within-seconds only"],
    );
    check(
        answers(json!([
            {"question": "time-triggered", "answer": false},
            {"question": "needs-result-now", "answer": true},
            {"question": "within-seconds", "answer": true, "timing": {"target_ms": 2000, "p95_ms": 8000}}
        ])),
        &[
            "decision.answers[2].answer",
            "p95 8,000 ms > target 2,000 ms",
            "but the answer is true",
        ],
    );
    check(
        set(example_value(), "decision.outcome", Some(json!("batch"))),
        &["decision.outcome: batch does not follow from the answers; they give async-enqueue"],
    );
    check(
        set(example_value(), "decision.outcome", Some(json!("later"))),
        &[
            "decision.outcome",
            "unknown variant `later`",
            "`async-enqueue`",
        ],
    );
}

#[test]
fn sections_that_do_not_apply_to_the_outcome() {
    let sync = full(Outcome::Sync)["sync"].clone();
    let retry = full(Outcome::AsyncEnqueue)["retry"].clone();
    let ticket = full(Outcome::AsyncTicket)["ticket"].clone();
    let batch = full(Outcome::Batch)["batch"].clone();
    let failure = full(Outcome::Batch)["failure"].clone();
    for (v, section, outcome) in [
        (
            set(example_value(), "sync", Some(sync.clone())),
            "sync",
            "async-enqueue",
        ),
        (
            set(example_value(), "ticket", Some(ticket)),
            "ticket",
            "async-enqueue",
        ),
        (
            set(example_value(), "batch", Some(batch.clone())),
            "batch",
            "async-enqueue",
        ),
        (
            set(full(Outcome::Batch), "retry", Some(retry.clone())),
            "retry",
            "batch",
        ),
        (
            set(full(Outcome::Sync), "retry", Some(retry)),
            "retry",
            "sync",
        ),
        (
            set(full(Outcome::Sync), "failure", Some(failure)),
            "failure",
            "sync",
        ),
        (
            set(full(Outcome::SyncTimeout), "batch", Some(batch)),
            "batch",
            "sync-timeout",
        ),
    ] {
        check(
            v,
            &[&format!(
                "{section}: does not apply to outcome {outcome}; allowed: null or absent"
            )],
        );
    }
    // `null` is the same as absent.
    let v = set(example_value(), "sync", Some(Value::Null));
    assert!(import_json(&v.to_string(), Lang::En).is_ok());
}

#[test]
fn a_short_file_is_prefilled_and_a_full_one_kept() {
    let short = import_json(&example_value().to_string(), Lang::Ja).expect("imports");
    assert_eq!(short, example(Lang::Ja));
    for o in Outcome::ALL {
        let v = full(o);
        let sheet = import_json(&v.to_string(), Lang::Ja).expect("imports");
        assert_eq!(
            serde_json::to_value(&sheet).expect("serialises"),
            v,
            "{o:?}"
        );
    }
    // An error is a value: nothing is returned but the error.
    let e = import_json("{}", Lang::En);
    assert_eq!(e, Err(ImportError::SchemaVersion { found: None }));
}

#[test]
fn a_byte_order_mark_before_the_json_is_not_part_of_it() {
    let sheet = example(Lang::En);
    let text = format!("\u{feff}{}", to_json(&sheet));
    match import_json(&text, Lang::En) {
        Ok(back) => assert_eq!(back, sheet),
        Err(e) => panic!("a BOM made the import fail: {e:?}"),
    }
}

#[test]
fn a_negative_fractional_or_huge_number_is_told_with_the_fields_range() {
    let base = full(Outcome::AsyncEnqueue);
    for (value, shown) in [
        (json!(-1), "`-1`"),
        (json!(2.5), "`2.5`"),
        (json!(4_294_967_296_u64), "`4294967296`"),
    ] {
        let v = set(base.clone(), "retry.max_attempts", Some(value));
        check_text(
            &v.to_string(),
            &[
                "retry.max_attempts",
                shown,
                "expected a whole number from 1 to 100",
            ],
        );
    }
}

#[test]
fn a_wrong_type_and_a_value_out_of_range_name_the_same_range() {
    let base = full(Outcome::Batch);
    for value in [json!(-1), json!(0), json!("1h"), json!(1e30)] {
        let v = set(base.clone(), "batch.run_timeout_ms", Some(value.clone()));
        check_text(&v.to_string(), &["batch.run_timeout_ms", "1 to 604800000"]);
    }
}

/// Schema 2: a version-1 file reads unchanged (and is written back as version 2); schema 2's
/// fields round-trip; a version-1 file may not use them; each new number names its path and
/// range.
#[test]
fn schema_2_reads_both_versions_and_checks_its_new_fields() {
    // A version-1 or -2 file has no load section (schema 3's).
    let ae = || set(full(Outcome::AsyncEnqueue), "load", None);
    let v1 = set(ae(), "schema_version", Some(json!(1)));
    let read = import_json(&v1.to_string(), Lang::En).expect("a version-1 file reads");
    let r = read.retry.as_ref().expect("retry");
    // Written back in this build's version.
    assert_eq!(read.schema_version, 3);
    assert!(r.layers.is_empty() && r.queue_retention_ms.is_none());
    assert_eq!(
        import_json(&ae().to_string(), Lang::En),
        Ok(read.clone()),
        "version 1 and 2 of the same sheet read alike"
    );
    // Schema 2's fields: a Sidekiq-like policy with an SDK inside and a stated retention.
    let sidekiq = || {
        let v = set(
            ae(),
            "retry.backoff.kind",
            Some(json!({"polynomial": {"exponent": 4, "first_n": 0}})),
        );
        let v = set(v, "retry.backoff.base_ms", Some(json!(15_000)));
        let v = set(v, "retry.backoff.cap_ms", Some(json!(2_592_000_000u64)));
        let v = set(
            v,
            "retry.layers",
            Some(json!([{"layer": "sdk", "attempts": 3, "what": "AWS SDK"}])),
        );
        set(v, "retry.queue_retention_ms", Some(json!(345_600_000)))
    };
    let s = import_json(&sidekiq().to_string(), Lang::En).expect("schema 2 reads");
    let r = s.retry.as_ref().expect("retry");
    assert_eq!(r.total_calls(), 15);
    assert_eq!(r.queue_retention_ms, Some(345_600_000));
    assert_eq!(
        import_json(&to_json(&s), Lang::En),
        Ok(s.clone()),
        "round trip"
    );
    // Polynomial's constant may be 0 (River's n⁴); the other kinds' first wait may not.
    let river = set(sidekiq(), "retry.backoff.base_ms", Some(json!(0)));
    assert!(import_json(&river.to_string(), Lang::En).is_ok());
    // A version-1 file may not hold schema 2's fields.
    for (path, needle) in [
        (
            "retry.backoff.kind",
            "retry.backoff.kind: needs schema_version 3",
        ),
        ("retry.layers", "retry.layers: needs schema_version 3"),
        (
            "retry.queue_retention_ms",
            "retry.queue_retention_ms: needs schema_version 3",
        ),
    ] {
        let mut v = set(ae(), "schema_version", Some(json!(1)));
        let value = sidekiq()["retry"][path.trim_start_matches("retry.")].clone();
        let value = if path == "retry.backoff.kind" {
            v = set(v, "retry.backoff.base_ms", Some(json!(15_000)));
            sidekiq()["retry"]["backoff"]["kind"].clone()
        } else {
            value
        };
        check(set(v, path, Some(value)), &[needle]);
    }
    let poly = |k: Value| set(sidekiq(), "retry.backoff.kind", Some(k));
    for (v, path, allowed) in [
        (
            poly(json!({"polynomial": {"exponent": 0, "first_n": 0}})),
            "retry.backoff.kind.polynomial.exponent",
            "1 to 8",
        ),
        (
            poly(json!({"polynomial": {"exponent": 9, "first_n": 0}})),
            "retry.backoff.kind.polynomial.exponent",
            "1 to 8",
        ),
        (
            poly(json!({"polynomial": {"exponent": 4, "first_n": 2}})),
            "retry.backoff.kind.polynomial.first_n",
            "0 to 1",
        ),
        (
            set(ae(), "retry.backoff.base_ms", Some(json!(0))),
            "retry.backoff.base_ms",
            "1 to 86400000",
        ),
        (
            set(
                sidekiq(),
                "retry.backoff.base_ms",
                Some(json!(86_400_001u64)),
            ),
            "retry.backoff.base_ms",
            "0 to 86400000",
        ),
        (
            set(
                sidekiq(),
                "retry.layers",
                Some(json!([{"layer": "queue", "attempts": 0}])),
            ),
            "retry.layers[0].attempts",
            "1 to 100",
        ),
        (
            set(
                sidekiq(),
                "retry.layers",
                Some(
                    json!([{"layer": "sdk", "attempts": 2}, {"layer": "framework", "attempts": 101}]),
                ),
            ),
            "retry.layers[1].attempts",
            "1 to 100",
        ),
        (
            set(
                sidekiq(),
                "retry.layers",
                Some(json!(vec![json!({"layer": "sdk", "attempts": 2}); 6])),
            ),
            "retry.layers",
            "at most 5 items",
        ),
        (
            set(sidekiq(), "retry.queue_retention_ms", Some(json!(59_999))),
            "retry.queue_retention_ms",
            "60000 to 2592000000",
        ),
        (
            set(
                sidekiq(),
                "retry.queue_retention_ms",
                Some(json!(2_592_000_001u64)),
            ),
            "retry.queue_retention_ms",
            "60000 to 2592000000",
        ),
    ] {
        check(
            v,
            &[
                &format!("{path}: "),
                "out of range",
                &format!("allowed: {allowed}"),
            ],
        );
    }
    // A mistyped number names the field's own range; an unknown layer names the kinds.
    check(
        poly(json!({"polynomial": {"exponent": -1, "first_n": 0}})),
        &[
            "retry.backoff.kind.polynomial.exponent",
            "expected a whole number from 1 to 8",
        ],
    );
    check(
        set(
            sidekiq(),
            "retry.layers",
            Some(json!([{"layer": "proxy", "attempts": 2}])),
        ),
        &["retry.layers[0].layer", "`queue`, `framework`, `sdk`"],
    );
}

/// Schema 3: the load section round-trips; a version-1 or -2 file without it reads (an
/// asynchronous sheet then holds an empty section: "not sized yet") but may not hold it; each
/// number out of range names its `load.*` path and range, p95 below p50 too.
#[test]
fn schema_3_reads_the_load_section_and_older_files_without_it() {
    let ae = || full(Outcome::AsyncEnqueue);
    let load = json!({
        "arrival": {"count": 600, "per": "minute"},
        "burst": {"rate": {"rate": {"count": 50, "per": "second"}, "for_ms": 600000}},
        "handler": {"lognormal": {"p50_ms": 200, "p95_ms": 1500}},
        "failure_bp": 250,
        "downstream": {"rate": {"count": 10, "per": "second"}, "rate_burst": 20, "exclusive_lock": true},
        "target_wait_p95_ms": 5000,
        "workers": 4,
        "concurrency": 5
    });
    let v3 = set(
        set(ae(), "schema_version", Some(json!(3))),
        "load",
        Some(load.clone()),
    );
    let s = import_json(&v3.to_string(), Lang::En).expect("schema 3 reads");
    let l = s.load.expect("the section");
    assert_eq!(
        (l.workers, l.concurrency, l.failure_bp),
        (Some(4), Some(5), Some(250))
    );
    assert_eq!(
        import_json(&to_json(&s), Lang::En),
        Ok(s.clone()),
        "round trip"
    );
    for v in [1, 2] {
        let old = set(set(ae(), "schema_version", Some(json!(v))), "load", None);
        let read = import_json(&old.to_string(), Lang::En).expect("an older file reads");
        assert!(read.load.is_some_and(|l| l.is_empty()), "version {v}");
        check(
            set(old, "load", Some(load.clone())),
            &["load: needs schema_version 3"],
        );
    }
    for (path, value, needle) in [
        ("load.workers", json!(0), "load.workers"),
        ("load.failure_bp", json!(9_901), "0 to 9900"),
        (
            "load.handler",
            json!({"lognormal": {"p50_ms": 2000, "p95_ms": 100}}),
            "load.handler.lognormal.p95_ms",
        ),
        (
            "load.burst",
            json!({"at-once": {"count": 100_001}}),
            "1 to 100000",
        ),
    ] {
        check(set(v3.clone(), path, Some(value)), &[needle]);
    }
}

/// Each way a text can fail to be JSON is said in plain words in both languages, not in the
/// parser's own ("EOF while parsing a value", "expected ident"): serde_json 1's syntax
/// messages, each produced here by a text that has it (the parser's message is checked first,
/// so a serde_json that words them otherwise fails here, not on a user's screen).
#[test]
fn a_text_that_is_not_json_says_why_in_plain_words_in_both_languages() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let cases: [(&str, &str, &str); 17] = [
        (
            "{\"a\":",
            "EOF while parsing a value",
            "the text ends before the JSON does",
        ),
        (
            "{\"schema_version\": 1,\n",
            "EOF while parsing",
            "the text ends before the JSON does",
        ),
        (
            "[1, 2",
            "EOF while parsing a list",
            "the text ends before the JSON does",
        ),
        (
            "\"abc",
            "EOF while parsing a string",
            "the text ends before the JSON does",
        ),
        ("not json", "expected ident", "a value is expected here"),
        ("[trux]", "expected ident", "a value is expected here"),
        ("{\"a\": }", "expected value", "a value is expected here"),
        ("{\"a\" 1}", "expected `:`", "a colon (:) is expected"),
        ("[1 2]", "expected `,` or `]`", "the list's closing ]"),
        (
            "{\"a\": 1 \"b\": 2}",
            "expected `,` or `}`",
            "the closing } is expected",
        ),
        ("{a: 1}", "key must be a string", "in double quotes"),
        (
            "[1, 2,]",
            "trailing comma",
            "a comma before a closing bracket",
        ),
        ("{} x", "trailing characters", "more text after the end"),
        (
            "\"a\nb\"",
            "control character (\\u0000-\\u001F)",
            "control character inside a string",
        ),
        ("\"\\q\"", "invalid escape", "backslash escape"),
        ("[-x]", "invalid number", "a number JSON cannot read"),
        (
            &deep,
            "recursion limit exceeded",
            "nested more than 128 levels",
        ),
    ];
    for (text, raw, plain) in cases {
        let parsed = serde_json::from_str::<Value>(text).expect_err("not JSON");
        assert!(parsed.to_string().starts_with(raw), "{text:?}: {parsed}");
        let en = import_json(text, Lang::En)
            .expect_err("refused")
            .message(Lang::En);
        assert!(en.starts_with("not valid JSON (line "), "{en}");
        assert!(en.contains(plain), "{text:?}: {en}");
        assert!(!en.contains(raw), "{text:?}: {en}");
        let ja = import_json(text, Lang::Ja)
            .expect_err("refused")
            .message(Lang::Ja);
        assert!(ja.starts_with("JSON として読めません（"), "{ja}");
        let reason = ja.split_once('：').map(|(_, r)| r).unwrap_or_default();
        assert!(
            !reason.is_empty() && !reason.is_ascii(),
            "{text:?}: the Japanese says why in Japanese: {ja}"
        );
    }
}

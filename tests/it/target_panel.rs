//! The configuration panel under the sheet's export bar (`domain::export::target_panel`)
//! through the worker's path: the request the page posts (`ExportSubject::Target`), the
//! worker's `protocol::handle`, the reply the page reads (`ExportReply` → `Panel`). Its HTML
//! is well-formed and script-free with hostile text in every field a target fills, holds
//! every section, and a sheet a target cannot take gives a message naming the field, the
//! target and the range, in English and Japanese.

use modality_advisor::domain::export::protocol::{
    ExportFormat, ExportReply, ExportRequest, ExportSubject,
};
use modality_advisor::domain::export::target_panel::{panel, refusal, SHOWN_DELAYS};
use modality_advisor::domain::export::target_worker;
use modality_advisor::domain::queues::{
    Built, DefaultPolicy, Delay, Format, Gap, Instead, MappingRow, Schedule, TargetError, TargetId,
    TargetReport,
};
use modality_advisor::domain::share::panel::Panel;
use modality_advisor::domain::sheet::check::{Finding, Severity};
use modality_advisor::domain::sheet::FieldId;
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::Lang;

/// The source documents' worked example, as the page's "Load the example" loads it.
fn example(lang: Lang) -> JobSheet {
    match modality_advisor::domain::sheet::example::example(lang) {
        Ok(s) => s,
        Err(e) => panic!("the {lang:?} example loads: {e}"),
    }
}

/// What the page gets back for the example sheet exported to `target` in `format`, through
/// the target worker's handler (the page sends target requests to `target-worker`).
fn through_worker(target: TargetId, format: Option<Format>, lang: Lang) -> Panel {
    let request = ExportRequest {
        now_ms: None,
        id: 9,
        lang,
        format: ExportFormat::Json,
        subject: ExportSubject::Target {
            sheet: Box::new(example(lang)),
            target,
            format,
            version: None,
        },
    };
    let reply =
        ExportReply::from_json(&target_worker::handle(&request.to_json())).expect("a reply");
    assert_eq!(reply.id, 9);
    Panel::from_json(&reply.result.expect("rendered")).expect("a panel")
}

/// The panel's HTML as XML (well-formed, no script, no inline style or handler); its text.
fn checked(html: &str) -> String {
    let xml = format!("<root>{html}</root>");
    let doc = match roxmltree::Document::parse(&xml) {
        Ok(d) => d,
        Err(e) => panic!("well-formed: {e}\n{html}"),
    };
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert_ne!(node.tag_name().name(), "script");
        for a in node.attributes() {
            assert!(!a.name().starts_with("on"), "event attribute {}", a.name());
            assert_ne!(a.name(), "style");
        }
    }
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

const HOSTILE: &str = "a\"b'c<d>&e</script><script>alert(1)</script>\n#{x} ${y} `z` */ \u{202e}";

/// A report with hostile text wherever a target puts text of its own or of the sheet.
fn hostile_report() -> TargetReport {
    let d = |min: f64, e: f64, max: f64| Delay {
        min_s: min,
        expected_s: e,
        max_s: max,
    };
    TargetReport {
        target: TargetId::Sidekiq,
        format: Format::Ruby,
        file_name: format!("{HOSTILE}.sidekiq.rb"),
        built: Built {
            text: format!("# {HOSTILE}\nclass X\nend\n"),
            mapping: vec![
                MappingRow {
                    field: FieldId::MaxAttempts,
                    sheet: "5".into(),
                    key: "retry".into(),
                    value: "4".into(),
                    note: format!("Sidekiq counts retries {HOSTILE}"),
                    lease: false,
                },
                MappingRow {
                    field: FieldId::DeadLetter,
                    sheet: HOSTILE.into(),
                    key: HOSTILE.into(),
                    value: String::new(),
                    note: String::new(),
                    lease: false,
                },
            ],
            gaps: vec![
                Gap {
                    field: FieldId::WaitStrategy,
                    what: format!("no cap {HOSTILE}"),
                    instead: Instead::Callback,
                    detail: HOSTILE.into(),
                    lease: false,
                },
                Gap {
                    field: FieldId::RetryableErrors,
                    what: "error names".into(),
                    instead: Instead::Comment,
                    detail: String::new(),
                    lease: false,
                },
            ],
            actual: Schedule::bounded((0..12).map(|i| d(f64::from(i), 12.0, 30.0)).collect()),
        },
        sheet_schedule: Schedule::bounded(vec![Delay::fixed(10.0), Delay::fixed(20.0)]),
        defaults: DefaultPolicy {
            summary: format!("25 retries {HOSTILE}"),
            attempts: Some(26),
            schedule: Schedule::bounded(vec![d(15.0, 19.5, 24.0); 25]),
        },
        version: None,
        versions: format!("Sidekiq 8.x {HOSTILE}"),
        findings: vec![Finding {
            code: "lease-under-target-factor",
            severity: Severity::Warning,
            field: FieldId::Timeout,
            message: HOSTILE.into(),
        }],
    }
}

#[test]
fn hostile_text_stays_text_and_every_section_is_there() {
    for lang in [Lang::En, Lang::Ja] {
        let r = hostile_report();
        let p = panel(&r, lang);
        let text = checked(&p.html);
        // Each hostile text comes back as the same characters, as text (not markup).
        assert!(text.matches(HOSTILE).count() >= 6, "{lang:?}: {text}");
        assert!(!p.html.contains("<script>"));
        assert_eq!(p.item("text"), r.built.text);
        assert_eq!(p.item("file"), r.file_name);
        assert_eq!(p.item("error"), "");
        for needle in [
            "class=\"target-text\"",
            "class=\"target-table target-mapping\"",
            "<tr data-field=\"max-attempts\">",
            "<code>retry</code>",
            "<code><bdi>4</bdi></code>",
            "data-instead=\"callback\"",
            "data-instead=\"comment\"",
            "class=\"target-table target-schedule\"",
            "data-row=\"window\"",
            "data-default=\"window\"",
            "data-finding=\"lease-under-target-factor\"",
        ] {
            assert!(p.html.contains(needle), "{lang:?}: {needle} in {}", p.html);
        }
        // The first waits are listed, then a note; the window counts all 12.
        assert!(p
            .html
            .contains(&format!("data-row=\"delay-{SHOWN_DELAYS}\"")));
        assert!(!p
            .html
            .contains(&format!("data-row=\"delay-{}\"", SHOWN_DELAYS + 1)));
        // 0+1+…+11 = 66 s = 1.1 min shortest; 12 × 30 s = 6 min longest; 12 × 12 s = 2.4 min
        // expected.
        let window_en = "1.1 min – 6 min (expected 2.4 min)";
        if lang == Lang::En {
            assert!(text.contains(window_en), "{text}");
            assert!(text.contains("Wait 1 (before attempt 2)"), "{text}");
            // The sheet's two fixed waits, without a spread: 10 s + 20 s = 30 s.
            assert!(text.contains("30 s"), "{text}");
            assert!(text.contains("Sidekiq key"), "{text}");
            assert!(text.contains("(not written)"), "{text}");
        } else {
            assert!(text.contains("待ち 1（2回目の試行の前）"), "{text}");
            assert!(text.contains("30秒"), "{text}");
        }
    }
}

#[test]
fn a_value_out_of_range_names_the_field_the_target_and_the_range() {
    let e = TargetError::OutOfRange {
        target: TargetId::Sqs,
        field: FieldId::Timeout,
        value: "13 h".into(),
        allowed: "0 s to 12 h".into(),
    };
    let en = refusal(&e, Lang::En);
    let text = checked(&en.html);
    assert!(en.html.contains("data-target-error=\"out-of-range\""));
    assert!(en.html.contains("role=\"alert\""));
    for needle in [
        "AWS SQS + Lambda",
        "Timeout",
        "13 h",
        "0 s to 12 h",
        "unchanged",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    assert_eq!(en.item("error"), text);
    assert_eq!(en.item("text"), "");
    let ja = refusal(&e, Lang::Ja);
    let text = checked(&ja.html);
    for needle in [
        "AWS SQS + Lambda",
        "タイムアウト",
        "13 h",
        "0 s to 12 h",
        "変更していません",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
}

#[test]
fn every_target_answers_the_example_with_a_panel_or_a_reason() {
    for lang in [Lang::En, Lang::Ja] {
        for target in TargetId::ALL {
            for &format in target.formats() {
                let p = through_worker(target, Some(format), lang);
                let text = checked(&p.html);
                if p.item("error").is_empty() {
                    assert!(!p.item("text").is_empty(), "{target:?} {format:?}");
                    let ext = format!(".{}", format.extension());
                    assert!(
                        p.item("file").ends_with(&ext),
                        "{target:?}: {}",
                        p.item("file")
                    );
                    // Named as the reader's language names it (our SQL table queues are
                    // described in Japanese; product names stay as their makers write them).
                    assert!(text.contains(target.label_in(lang)), "{target:?} {lang:?}");
                    if lang == Lang::Ja {
                        assert!(!text.contains("SQL table queue"), "{target:?}: {text}");
                    }
                } else {
                    assert!(p.html.contains("data-target-error="), "{target:?}");
                }
            }
        }
    }
}

#[test]
fn the_target_request_is_externally_tagged_json() {
    let request = ExportRequest {
        now_ms: None,
        id: 4,
        lang: Lang::En,
        format: ExportFormat::Json,
        subject: ExportSubject::Target {
            sheet: Box::new(example(Lang::En)),
            target: TargetId::Sqs,
            format: Some(Format::Terraform),
            version: None,
        },
    };
    let json = request.to_json();
    assert!(
        json.starts_with(r#"{"id":4,"lang":"en","format":"Json","subject":{"Target":{"sheet":{"#),
        "{json}"
    );
    assert!(
        json.ends_with(r#","target":"sqs","format":"terraform"}}}"#),
        "{json}"
    );
}

#[test]
fn a_format_the_target_does_not_have_is_refused_in_words() {
    let p = through_worker(TargetId::Sidekiq, Some(Format::Terraform), Lang::En);
    assert!(
        p.html.contains("data-target-error=\"unknown\""),
        "{}",
        p.html
    );
    assert!(p.item("error").contains("terraform"), "{}", p.item("error"));
}

/// The target worker answers only target requests: a document request gets an `Err` that
/// says where it belongs, an unreadable one the export module's "could not read" message
/// with its id; neither panics.
#[test]
fn the_target_worker_refuses_other_requests() {
    let request = ExportRequest {
        now_ms: None,
        id: 4,
        lang: Lang::Ja,
        format: ExportFormat::Markdown,
        subject: ExportSubject::Sheet(Box::new(example(Lang::Ja))),
    };
    let reply =
        ExportReply::from_json(&target_worker::handle(&request.to_json())).expect("a reply");
    assert_eq!(reply.id, 4);
    let message = reply.result.expect_err("not a target request");
    assert!(message.contains("ターゲットモジュール"), "{message}");
    let reply = ExportReply::from_json(&target_worker::handle(
        r#"{"id":7,"lang":"en","subject":3}"#,
    ))
    .expect("a reply");
    assert_eq!(reply.id, 7);
    assert!(reply
        .result
        .expect_err("unreadable")
        .contains("could not read"));
}

/// "Configuration for" offers a target exactly where its builder configures something
/// ([`TargetId::configures`]): for each outcome's full sheet (the decision from its answers,
/// every section pre-filled as the sheet form fills it), every target and format either builds
/// or is refused as not applicable, as `configures` says — a queued job or a ticket all 13, a
/// batch Kubernetes alone, a call none.
#[test]
fn the_targets_offered_for_an_outcome_are_those_that_configure_it() {
    use modality_advisor::domain::queues::report;
    use modality_advisor::domain::sheet::import::import_json;
    use modality_advisor::domain::{Lang, Outcome};
    let outcomes = [
        Outcome::Sync,
        Outcome::SyncTimeout,
        Outcome::AsyncEnqueue,
        Outcome::AsyncTicket,
        Outcome::Batch,
    ];
    for outcome in outcomes {
        let text = crate::sheet_import::full(outcome).to_string();
        let sheet = import_json(&text, Lang::En).expect("the full sheet imports");
        let offered: Vec<&str> = TargetId::ALL
            .into_iter()
            .filter(|t| t.configures(outcome))
            .map(|t| t.name())
            .collect();
        let expected: &[&str] = match outcome {
            Outcome::AsyncEnqueue | Outcome::AsyncTicket => &[
                "sqs",
                "celery",
                "sidekiq",
                "bullmq",
                "oban",
                "river",
                "pg-boss",
                "active-job",
                "temporal",
                "cloud-tasks",
                "kubernetes",
                "sql-sqlite",
                "sql-postgres",
            ],
            Outcome::Batch => &["kubernetes"],
            Outcome::Sync | Outcome::SyncTimeout => &[],
        };
        assert_eq!(offered, expected, "{outcome:?}");
        for target in TargetId::ALL {
            for &format in target.formats() {
                let built = report(&sheet, target, Some(format), Lang::En);
                let refused = matches!(built, Err(TargetError::NotApplicable { .. }));
                assert_eq!(
                    !refused,
                    target.configures(outcome),
                    "{} {} for {outcome:?}: {:?}",
                    target.name(),
                    format.name(),
                    built.err()
                );
            }
        }
    }
}

/// The timeout field's two names on screen: its lease's (the form's own name for it) and its
/// attempt timeout's.
fn timeout_names(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::En => ("Lease / visibility timeout", "Timeout"),
        Lang::Ja => ("リース／可視性タイムアウト", "タイムアウト"),
    }
}

/// The sheet's timeout field gives two rows in every target's mapping: its attempt timeout
/// and its lease. The lease's row is named as the form names it ("Lease / visibility
/// timeout"), so the mapping never shows two rows both called "Timeout" (seen by a newcomer's
/// walk: "Timeout 30 s" and "Timeout 1 min" side by side in Sidekiq's, Celery's, SQS's …).
#[test]
fn the_lease_row_of_every_mapping_is_named_as_the_lease() {
    for lang in Lang::ALL {
        let (lease_name, timeout_name) = timeout_names(lang);
        let sheet = example(lang);
        let r = sheet.retry.as_ref().expect("a queued job");
        let lease_text = modality_advisor::domain::duration::exact(r.lease_ms, lang);
        for target in TargetId::ALL
            .into_iter()
            .filter(|t| t.configures(sheet.decision.outcome))
        {
            let p = through_worker(target, None, lang);
            checked(&p.html);
            let names: Vec<String> = p
                .html
                .split("<tr data-field=\"timeout\"><th scope=\"row\"")
                .skip(1)
                .map(|row| {
                    let name = row.split_once('>').map_or("", |(_, r)| r);
                    name.split_once("</th>").map_or("", |(n, _)| n).to_owned()
                })
                .collect();
            assert_eq!(
                names.iter().filter(|n| *n == lease_name).count(),
                1,
                "{target:?} {lang:?}: {names:?}"
            );
            assert_eq!(
                names.iter().filter(|n| *n == timeout_name).count(),
                1,
                "{target:?} {lang:?}: {names:?}"
            );
            let lease_row = p
                .html
                .split("<tr data-field=\"timeout\">")
                .find(|row| row.contains(lease_name))
                .expect("the lease's row");
            assert!(lease_row.contains(&lease_text), "{target:?}: {lease_row}");
        }
    }
}

/// What a target cannot do about the lease is listed under the lease's name, as its mapping
/// row is, not under "Timeout" beside the attempt timeout's gap (seen by a newcomer's walk:
/// Sidekiq's "No lease in Sidekiq OSS" filed under "Timeout:").
#[test]
fn a_gap_about_the_lease_is_named_as_the_lease() {
    for lang in Lang::ALL {
        let (lease_name, timeout_name) = timeout_names(lang);
        for target in [TargetId::Sidekiq, TargetId::ActiveJob] {
            let p = through_worker(target, None, lang);
            let gaps: Vec<&str> = p
                .html
                .split("<li data-field=\"timeout\" data-instead=\"")
                .skip(1)
                .map(|li| {
                    let name = li.split_once("<strong>").map_or("", |(_, r)| r);
                    name.split_once("</strong>").map_or("", |(n, _)| n)
                })
                .collect();
            assert_eq!(gaps.len(), 2, "{target:?} {lang:?}: {gaps:?}");
            assert!(gaps.contains(&lease_name), "{target:?} {lang:?}: {gaps:?}");
            assert!(
                gaps.contains(&timeout_name),
                "{target:?} {lang:?}: {gaps:?}"
            );
        }
    }
}

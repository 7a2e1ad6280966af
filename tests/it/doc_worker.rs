//! The document worker's handler (`domain::export::doc_worker::handle`, what
//! `serve_documents` in `src/bin/sim-ui.rs` runs on every message since the export and target workers became
//! one module, issue 28): each kind of request the page posts reaches the handler that answers
//! it — a queue target's panel and an existing configuration's audit the target handler's
//! answer, exports and file reads the export protocol's — and a request it cannot read gets an
//! `Err` reply, never a panic.

use modality_advisor::domain::export::doc_worker;
use modality_advisor::domain::export::protocol::{
    self, ExportFormat, ExportReply, ExportRequest, ExportSubject,
};
use modality_advisor::domain::export::read::{ReadAs, ReadDone, ReadRequest};
use modality_advisor::domain::export::target_worker;
use modality_advisor::domain::queues::TargetId;
use modality_advisor::domain::sheet::example::example;
use modality_advisor::domain::Lang;

/// A request for `subject` in `format`, as the page writes it.
fn export(subject: ExportSubject, format: ExportFormat) -> String {
    ExportRequest {
        now_ms: Some(1_700_000_000_000),
        id: 3,
        lang: Lang::Ja,
        format,
        subject,
    }
    .to_json()
}

#[test]
fn a_target_is_answered_by_the_target_handler_and_an_export_by_the_protocol() {
    let sheet = Box::new(example(Lang::Ja).expect("the example"));
    let target = export(
        ExportSubject::Target {
            sheet: sheet.clone(),
            target: TargetId::Sidekiq,
            format: None,
            version: None,
        },
        ExportFormat::Json,
    );
    let answer = doc_worker::handle(&target);
    assert_eq!(answer, target_worker::handle(&target));
    let reply = ExportReply::from_json(&answer).expect("a reply");
    assert_eq!(reply.id, 3);
    assert!(reply.result.expect("a panel").contains("sidekiq_options"));
    let markdown = export(ExportSubject::Sheet(sheet), ExportFormat::Markdown);
    let answer = doc_worker::handle(&markdown);
    assert_eq!(answer, protocol::handle(&markdown));
    assert!(ExportReply::from_json(&answer)
        .expect("a reply")
        .result
        .expect("the document")
        .starts_with("# "));
}

#[test]
fn a_configuration_is_audited_and_a_sheet_file_read() {
    let read = |read: ReadAs, text: &str| {
        let request = ReadRequest {
            id: 5,
            lang: Lang::En,
            text: text.to_owned(),
            read,
        };
        let reply =
            ExportReply::from_json(&doc_worker::handle(&request.to_json())).expect("a reply");
        assert_eq!(reply.id, 5);
        ReadDone::from_reply(&reply.result.expect("an answer")).expect("a read answer")
    };
    let terraform = "resource \"aws_sqs_queue\" \"orders\" {\n  name = \"orders\"\n  \
                     visibility_timeout_seconds = 60\n}\n";
    let audited = read(
        ReadAs::Configuration {
            file_name: "main.tf".to_owned(),
            catalog_name: "Shop".to_owned(),
            seed: 1,
            now_ms: 1_700_000_000_000,
            lock_files: Vec::new(),
        },
        terraform,
    );
    assert!(
        matches!(audited, Ok(ReadDone::Audited { .. })),
        "the document worker audits: {audited:?}"
    );
    let sheet = modality_advisor::domain::export::to_json(&example(Lang::En).expect("example"));
    let read_back = read(ReadAs::Sheet, &sheet);
    assert!(matches!(read_back, Ok(ReadDone::Sheet(_))), "{read_back:?}");
}

#[test]
fn the_simulators_configuration_given_as_a_catalog_or_sheet_is_named_with_where_it_runs() {
    // static/examples/ holds both kinds of file; the command-line simulator's configuration
    // dropped on the catalog's import said "catalog_version: missing".
    let config = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/examples/queue-retry.config.json"
    ))
    .expect("the example configuration");
    for read in [
        ReadAs::Sheet,
        ReadAs::CatalogOrSheet {
            catalog_name: "Shop".to_owned(),
            id: modality_advisor::domain::catalog::ProcessId("p-1".into()),
            now_ms: 1_700_000_000_000,
        },
    ] {
        let request = ReadRequest {
            id: 6,
            lang: Lang::Ja,
            text: config.clone(),
            read,
        };
        let reply =
            ExportReply::from_json(&doc_worker::handle(&request.to_json())).expect("a reply");
        let done = ReadDone::from_reply(&reply.result.expect("an answer")).expect("read");
        let Ok(ReadDone::Refused { en, ja }) = done else {
            panic!("named, not read as a catalog: {done:?}");
        };
        assert!(
            en.starts_with("This is a configuration of the command-line simulator")
                && en.contains("modality-advisor simulate --config FILE"),
            "{en}"
        );
        assert!(ja.contains("コマンドラインのシミュレーターの設定"), "{ja}");
    }
    // A catalog that names kinds and arrivals in a process's text is still a catalog.
    let catalog = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/examples/reservation-system.catalog.json"
    ))
    .expect("the example catalog");
    let request = ReadRequest {
        id: 7,
        lang: Lang::En,
        text: catalog,
        read: ReadAs::CatalogOrSheet {
            catalog_name: "Shop".to_owned(),
            id: modality_advisor::domain::catalog::ProcessId("p-1".into()),
            now_ms: 1_700_000_000_000,
        },
    };
    let reply = ExportReply::from_json(&doc_worker::handle(&request.to_json())).expect("a reply");
    let done = ReadDone::from_reply(&reply.result.expect("an answer")).expect("read");
    assert!(matches!(done, Ok(ReadDone::Catalog { .. })), "{done:?}");
}

#[test]
fn an_unreadable_request_gets_an_error_reply() {
    for text in [
        "",
        "{",
        "[]",
        "{\"subject\":{\"Target\":1}}",
        "{\"read\":{\"Configuration\":0}}",
    ] {
        let reply = ExportReply::from_json(&doc_worker::handle(text)).expect("a reply");
        assert!(reply.result.is_err(), "{text}: {reply:?}");
    }
}

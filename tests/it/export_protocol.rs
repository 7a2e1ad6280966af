//! The export worker's protocol (`domain::export::protocol`): a request crosses as JSON and
//! renders exactly what the exporters give when called directly; a request the worker cannot
//! read comes back as an error naming the problem, never a panic.

use crate::sheet_support::example;
use modality_advisor::domain::export::protocol::{
    handle, ExportFormat, ExportReply, ExportRequest, ExportSubject,
};
use modality_advisor::domain::export::{to_csv, to_json, to_markdown, to_tsv};
use modality_advisor::domain::Lang;

fn reply(request: &ExportRequest) -> ExportReply {
    ExportReply::from_json(&handle(&request.to_json())).unwrap()
}

#[test]
fn every_sheet_format_through_the_protocol_is_the_direct_export() {
    for lang in Lang::ALL {
        let sheet = example(lang);
        let cases = [
            (ExportFormat::Markdown, to_markdown(&sheet, lang)),
            (ExportFormat::Tsv, to_tsv(&sheet, lang)),
            (
                ExportFormat::Csv { bom: false },
                to_csv(&sheet, lang, false),
            ),
            (ExportFormat::Csv { bom: true }, to_csv(&sheet, lang, true)),
            (ExportFormat::Json, to_json(&sheet)),
        ];
        for (i, (format, direct)) in cases.into_iter().enumerate() {
            let id = 7 + i as u32;
            let request = ExportRequest {
                id,
                lang,
                format,
                subject: ExportSubject::Sheet(Box::new(sheet.clone())),
            };
            let back = reply(&request);
            assert_eq!(back.id, id);
            assert_eq!(back.result, Ok(direct), "{lang:?} {format:?}");
        }
    }
}

#[test]
fn the_request_is_externally_tagged_json() {
    let request = ExportRequest {
        id: 3,
        lang: Lang::Ja,
        format: ExportFormat::Csv { bom: true },
        subject: ExportSubject::Sheet(Box::new(example(Lang::Ja))),
    };
    let json = request.to_json();
    assert!(
        json.starts_with(
            r#"{"id":3,"lang":"ja","format":{"Csv":{"bom":true}},"subject":{"Sheet":{"#
        ),
        "{json}"
    );
    let back = handle(&json);
    assert!(
        back.starts_with("{\"id\":3,\"result\":{\"Ok\":\"\u{feff}項目,"),
        "{back}"
    );
}

#[test]
fn an_unreadable_request_is_an_error_reply_in_its_language() {
    for (text, id, needle) in [
        ("not json", 0, "could not read the request"),
        (r#"{"id":5}"#, 5, "missing field"),
        (
            r#"{"id":9,"lang":"ja","format":"Pdf","subject":{"Sheet":{}}}"#,
            9,
            "書き出しモジュールが依頼を読めませんでした",
        ),
        (
            r#"{"id":4,"lang":"en","format":"Json","subject":{"Sheet":{}},"extra":1}"#,
            4,
            "could not read",
        ),
    ] {
        let back = ExportReply::from_json(&handle(text)).unwrap();
        assert_eq!(back.id, id, "{text}");
        let message = back.result.unwrap_err();
        assert!(message.contains(needle), "{text}: {message}");
    }
}

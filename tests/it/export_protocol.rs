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
                now_ms: None,
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
        now_ms: None,
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

#[test]
fn the_simulator_settings_file_is_the_config_file_the_cli_reads() {
    use modality_advisor::domain::sim::runner::{execute, Preset, Purpose, RunSpec};
    use modality_advisor::domain::sim::setup::config_file::parse_file;
    use modality_advisor::domain::sim::setup::knobs::CustomRun;
    let run = CustomRun {
        jobs: 30,
        max_attempts: 4,
        ..CustomRun::default()
    };
    for format in [ExportFormat::Json, ExportFormat::Markdown] {
        let back = reply(&ExportRequest {
            now_ms: None,
            id: 2,
            lang: Lang::Ja,
            format,
            subject: ExportSubject::SimSettings {
                run: Box::new(run.clone()),
                seed: 5,
            },
        });
        assert_eq!(back.id, 2);
        let text = back.result.expect("a file");
        // What the page saved before the worker wrote it.
        assert_eq!(
            text,
            serde_json::to_string_pretty(&run.to_file(5)).expect("json")
        );
        // The CLI's `--config` run of the file is the page's run of the settings.
        let file = parse_file(&text).expect("reads back");
        let by_file = execute(
            &RunSpec {
                preset: Preset::File(Box::new(file)),
                seed: None,
            },
            Purpose::Report,
            |_| {},
        )
        .expect("runs")
        .report();
        let by_settings = execute(
            &RunSpec {
                preset: Preset::YourSettings(run.clone()),
                seed: Some(5),
            },
            Purpose::Report,
            |_| {},
        )
        .expect("runs")
        .report();
        assert_eq!(by_file.1, by_settings.1);
    }
}

//! File reading in the export worker (`domain::export::read`): a request carries the file's
//! text and comes back as the file read and checked, or as the typed `ImportError` naming the
//! field (so the page's message follows a language switch); the page's reader of the answer
//! takes exactly what the direct readers give.

use crate::catalog_support::example_text;
use crate::sheet_support::{example, EXAMPLE_EN, EXAMPLE_JA};
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::import::read_sheet_as_process;
use modality_advisor::domain::catalog::{Catalog, ProcessId};
use modality_advisor::domain::export::protocol::{handle, ExportReply};
use modality_advisor::domain::export::read::{ReadAs, ReadDone, ReadRequest, ReadResult};
use modality_advisor::domain::sheet::import::ImportError;
use modality_advisor::domain::Lang;
use serde_json::Value;

/// `request` through the worker's `handle` and the page's reader of the answer.
fn read(request: &ReadRequest) -> ReadResult {
    let reply = ExportReply::from_json(&handle(&request.to_json())).expect("a reply");
    assert_eq!(reply.id, request.id);
    let text = reply.result.expect("the request is read");
    ReadDone::from_reply(&text).expect("the page reads the answer")
}

fn sheet_request(text: &str, lang: Lang) -> ReadRequest {
    ReadRequest {
        id: 7,
        lang,
        text: text.to_owned(),
        read: ReadAs::Sheet,
    }
}

fn catalog_request(text: &str, lang: Lang) -> ReadRequest {
    ReadRequest {
        id: 8,
        lang,
        text: text.to_owned(),
        read: ReadAs::CatalogOrSheet {
            catalog_name: "Reservations".into(),
            id: ProcessId("p-new".into()),
            now_ms: 1_772_442_000_000,
        },
    }
}

#[test]
fn a_good_sheet_reads_as_the_importer_gives_it() {
    for (text, lang) in [(EXAMPLE_JA, Lang::Ja), (EXAMPLE_EN, Lang::En)] {
        assert_eq!(
            read(&sheet_request(text, lang)),
            Ok(ReadDone::Sheet(Box::new(example(lang))))
        );
    }
    // A byte-order mark, as some editors write, is skipped as by the importer.
    let bom = format!("\u{feff}{EXAMPLE_EN}");
    assert_eq!(
        read(&sheet_request(&bom, Lang::En)),
        Ok(ReadDone::Sheet(Box::new(example(Lang::En))))
    );
}

#[test]
fn a_bad_sheet_is_a_typed_error_naming_the_field_in_either_language() {
    let mut v: Value = serde_json::from_str(EXAMPLE_EN).unwrap();
    v["process"]["acceptable_wait_ms"] = Value::from("soon");
    let e = match read(&sheet_request(&v.to_string(), Lang::Ja)) {
        Err(e @ ImportError::Field { .. }) => e,
        other => panic!("expected a field error: {other:?}"),
    };
    // Typed: the page words it in whichever language is on screen, now or after a switch.
    assert!(
        e.message(Lang::En).contains("process.acceptable_wait_ms"),
        "{e}"
    );
    assert!(
        e.message(Lang::Ja).contains("process.acceptable_wait_ms"),
        "{e}"
    );
    assert_ne!(e.message(Lang::En), e.message(Lang::Ja));
    // Not JSON at all: line and column, as the importer says.
    assert!(matches!(
        read(&sheet_request("{\"schema_version\": 1,", Lang::En)),
        Err(ImportError::InvalidJson { line: 1, .. })
    ));
}

#[test]
fn a_catalog_reads_as_read_catalog_gives_it() {
    let text = example_text();
    let direct = read_catalog(&text).expect("the example catalog reads");
    assert_eq!(
        read(&catalog_request(&text, Lang::En)),
        Ok(ReadDone::Catalog {
            catalog: direct,
            sheet: false
        })
    );
}

#[test]
fn a_bad_catalog_is_an_error_naming_the_field() {
    let mut v: Value = serde_json::from_str(&example_text()).unwrap();
    v["processes"][2]["sheet"]["retry"]["max_attempts"] = Value::from(0);
    let e = match read(&catalog_request(&v.to_string(), Lang::En)) {
        Err(e) => e,
        Ok(done) => panic!("accepted a bad catalog: {done:?}"),
    };
    assert_eq!(Err(e.clone()), read_catalog(&v.to_string()).map(|_| ()));
    let en = e.message(Lang::En);
    assert!(en.contains("processes[2].sheet.retry.max_attempts"), "{en}");
    assert!(e
        .message(Lang::Ja)
        .contains("processes[2].sheet.retry.max_attempts"));
}

#[test]
fn a_single_sheet_reads_as_a_catalog_of_one_process() {
    let got = read(&catalog_request(EXAMPLE_EN, Lang::En));
    let p = read_sheet_as_process(
        EXAMPLE_EN,
        Lang::En,
        ProcessId("p-new".into()),
        1_772_442_000_000,
    )
    .expect("the example reads as a process");
    let mut want = Catalog::new("Reservations");
    want.processes.push(p);
    assert_eq!(
        got,
        Ok(ReadDone::Catalog {
            catalog: want,
            sheet: true
        })
    );
    // A bad single sheet names the sheet file's field.
    let mut v: Value = serde_json::from_str(EXAMPLE_EN).unwrap();
    v["retry"] = serde_json::json!({"max_attempts": "five"});
    match read(&catalog_request(&v.to_string(), Lang::En)) {
        Err(e) => assert!(e.to_string().starts_with("retry."), "{e}"),
        Ok(done) => panic!("accepted a bad sheet: {done:?}"),
    }
}

#[test]
fn an_unreadable_read_request_is_an_error_reply_and_a_damaged_answer_is_refused() {
    let back = ExportReply::from_json(&handle(r#"{"id":4,"lang":"ja","read":"Pdf"}"#)).unwrap();
    assert_eq!(back.id, 4);
    let message = back.result.expect_err("an error reply");
    assert!(message.contains("依頼を読めませんでした"), "{message}");
    // The page checks the answer's meaning again: a sheet out of range is refused by name.
    let mut sheet = example(Lang::En);
    if let Some(r) = sheet.retry.as_mut() {
        r.max_attempts = 0;
    }
    let forged: ReadResult = Ok(ReadDone::Sheet(Box::new(sheet)));
    let text = modality_advisor::domain::export::read::result_to_json(&forged);
    match ReadDone::from_reply(&text) {
        Ok(Err(e)) => assert!(e.to_string().starts_with("retry.max_attempts"), "{e}"),
        other => panic!("a sheet out of range was taken: {other:?}"),
    }
    assert!(ReadDone::from_reply("not json").is_err());
}

#[test]
fn every_kind_of_import_error_crosses_unchanged() {
    use modality_advisor::domain::export::read::result_to_json;
    for e in [
        ImportError::InvalidJson {
            line: 3,
            column: 14,
            message: "expected value".into(),
        },
        ImportError::SchemaVersion { found: None },
        ImportError::SchemaVersion {
            found: Some("\"2\"".into()),
        },
        ImportError::Field {
            path: "retry.lease_ms".into(),
            problem: "invalid type: string \"x\", expected a number".into(),
        },
        ImportError::OutOfRange {
            path: "retry.max_attempts".into(),
            value: "0".into(),
            allowed: "1 to 100".into(),
        },
        ImportError::Inconsistent {
            path: "batch".into(),
            problem: "does not apply".into(),
        },
    ] {
        let text = result_to_json(&Err(e.clone()));
        assert_eq!(ReadDone::from_reply(&text), Ok(Err(e)), "{text}");
    }
    assert!(ReadDone::from_reply(r#"["Field","only a path"]"#).is_err());
    assert!(ReadDone::from_reply(r#"["InvalidJson","x","1","m"]"#).is_err());
}

/// A file that is no sheet at all, given to the sheet's *Import JSON* through the worker as
/// the page sends it, says what it is in the page's language: empty, a catalog file (and
/// where a catalog is imported), or another kind of JSON value; the catalog's import says
/// "empty" alike. `{}` is an object: its missing `schema_version` is named as before.
#[test]
fn a_file_that_is_no_sheet_says_what_it_is_in_both_languages() {
    let refused = |r: ReadResult| match r {
        Err(e) => (e.message(Lang::En), e.message(Lang::Ja)),
        Ok(done) => panic!("imported: {done:?}"),
    };
    for text in ["", "  \n\t\n", "\u{feff}"] {
        let (en, ja) = refused(read(&sheet_request(text, Lang::En)));
        assert_eq!(en, "the file is empty: there is nothing to read");
        assert_eq!(ja, "ファイルが空です。読み込むものがありません");
        let (en, _) = refused(read(&catalog_request(text, Lang::En)));
        assert_eq!(en, "the file is empty: there is nothing to read");
    }
    let (en, ja) = refused(read(&sheet_request(&example_text(), Lang::En)));
    assert!(en.starts_with("this is a catalog file"), "{en}");
    assert!(
        en.contains("on the Catalog screen with “Import a catalog or sheet file…”"),
        "{en}"
    );
    assert!(
        ja.contains("カタログ画面の「カタログまたはジョブ定義書のファイルを読み込む…」"),
        "{ja}"
    );
    // A list or a single value: said to be no JSON object, for the sheet's import and the
    // catalog screen's (a catalog or a sheet) alike; the JSON kind is kept in `found`.
    for (text, kind) in [
        ("[1, 2, 3]", "array"),
        ("\"a sheet\"", "string"),
        ("42", "number"),
        ("true", "boolean"),
        ("null", "null"),
    ] {
        for request in [
            sheet_request(text, Lang::Ja),
            catalog_request(text, Lang::Ja),
        ] {
            let result = read(&request);
            assert!(
                matches!(&result, Err(ImportError::NotASheet { found }) if found == kind),
                "{text}: {result:?}"
            );
            let (en, ja) = refused(result);
            assert!(
                en.starts_with("the file is not a JSON object but a list or a single value"),
                "{en}"
            );
            assert!(
                ja.starts_with("ファイルの中身がJSONオブジェクトではなく"),
                "{ja}"
            );
        }
    }
    let (en, _) = refused(read(&sheet_request("{}", Lang::En)));
    assert!(en.starts_with("schema_version: missing"), "{en}");
}

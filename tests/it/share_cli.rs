//! `modality-advisor share` run as a program: the printed link decodes to the input, the
//! cards are the library's, and bad input exits 2 naming the file and the field (or the ids
//! to choose from).

use crate::catalog_support::{example_catalog, EXAMPLE_PATH};
use modality_advisor::domain::catalog::import::read_sheet_as_process;
use modality_advisor::domain::catalog::ProcessId;
use modality_advisor::domain::share::link::{app_url, decode};
use modality_advisor::domain::share::{card, svg, Share, Shared};
use modality_advisor::domain::Lang;
use std::path::Path;
use std::process::{Command, Output};

const SHEET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/static/examples/reservation-mail.en.json"
);

fn run(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("share")
        .args(args)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    }
}

fn ok(args: &[&str]) -> (String, String) {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{args:?}: {err}");
    (String::from_utf8(o.stdout).expect("UTF-8"), err)
}

fn fails(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty());
    err
}

fn fragment(link: &str) -> &str {
    link.trim().split_once('#').map_or("", |(_, f)| f)
}

#[test]
fn a_sheet_file_s_link_decodes_to_its_process() {
    let (out, err) = ok(&["--input", SHEET]);
    assert!(out.starts_with("http://127.0.0.1:8080/#share-v1:"), "{out}");
    assert!(err.contains("--base-url"), "{err}");
    let text = std::fs::read_to_string(SHEET).expect("reads the example");
    let p = read_sheet_as_process(&text, Lang::En, ProcessId("reservation-mail-en".into()), 0)
        .expect("the example reads");
    let expected = Share {
        lang: p.sheet.as_ref().and_then(|s| s.lang).unwrap_or_default(),
        content: Shared::Process(Box::new(p)),
    };
    assert_eq!(decode(fragment(&out)), Ok(expected.clone()));
    let (short, _) = ok(&["--input", SHEET, "--short", "--lang", "ja"]);
    let mut wanted = expected.without_notes();
    wanted.lang = Lang::Ja;
    assert_eq!(decode(fragment(&short)), Ok(wanted));
    let (embed, err) = ok(&[
        "--input",
        SHEET,
        "--format",
        "embed-link",
        "--base-url",
        "https://tools.example/advisor/index.html",
    ]);
    assert!(
        embed.starts_with("https://tools.example/advisor/embed.html#share-v1:"),
        "{embed}"
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_catalog_is_shared_whole_or_one_process_at_a_time() {
    let c = example_catalog();
    let (out, _) = ok(&[
        "--input",
        EXAMPLE_PATH,
        "--catalog",
        "--base-url",
        "https://x.example/",
    ]);
    let whole = Share {
        lang: Lang::En,
        content: Shared::Catalog(c.clone()),
    };
    assert_eq!(out.trim(), app_url("https://x.example/", &whole));
    let (one, _) = ok(&["--input", EXAMPLE_PATH, "--process", "charge-card"]);
    let charge = c.processes.iter().find(|p| p.id.as_str() == "charge-card");
    match decode(fragment(&one)) {
        Ok(Share {
            content: Shared::Process(p),
            ..
        }) => assert_eq!(Some(&*p), charge),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_cards_are_the_library_s_and_the_svg_is_well_formed() {
    let (out, _) = ok(&["--input", EXAMPLE_PATH, "--catalog", "--format", "svg"]);
    assert!(roxmltree::Document::parse(&out).is_ok(), "{out}");
    match svg::metadata(&out) {
        Ok(share) => assert_eq!(share.processes().len(), example_catalog().processes.len()),
        Err(e) => panic!("{e:?}"),
    }
    let (svg_ja, _) = ok(&["--input", SHEET, "--format", "svg", "--lang", "ja"]);
    assert!(roxmltree::Document::parse(&svg_ja).is_ok());
    assert!(svg_ja.contains("xml:lang=\"ja\""));
    for format in ["adr", "markdown", "markdown-azure"] {
        let (doc, _) = ok(&[
            "--input",
            EXAMPLE_PATH,
            "--process",
            "charge-card",
            "--format",
            format,
        ]);
        assert!(doc.contains("127.0.0.1:8080/#share-v1:"), "{format}: {doc}");
    }
    let (html, _) = ok(&[
        "--input",
        SHEET,
        "--format",
        "html",
        "--base-url",
        "https://x.example/",
    ]);
    let text = std::fs::read_to_string(SHEET).expect("reads the example");
    let p = read_sheet_as_process(&text, Lang::En, ProcessId("reservation-mail-en".into()), 0)
        .expect("the example reads");
    let share = Share {
        lang: p.sheet.as_ref().and_then(|s| s.lang).unwrap_or_default(),
        content: Shared::Process(Box::new(p)),
    };
    let link = app_url("https://x.example/", &share);
    assert_eq!(html.trim_end(), card::html(&share, share.lang, &link));
    let (azure, _) = ok(&["--input", SHEET, "--format", "markdown-azure"]);
    assert!(azure.contains("::: mermaid") && !azure.contains("```mermaid"));
}

#[test]
fn output_goes_to_the_file_named() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("share-card.svg");
    let _ = std::fs::remove_file(&out);
    let shown = out.display().to_string();
    let (stdout, _) = ok(&["--input", SHEET, "--format", "svg", "--output", &shown]);
    assert!(stdout.is_empty());
    let written = std::fs::read_to_string(&out).expect("the card was written");
    assert!(written.starts_with("<svg"));
}

#[test]
fn bad_input_exits_2_naming_the_file_and_the_field() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("share-cli-bad");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates the directory");
    let mut sheet: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SHEET).expect("reads")).expect("JSON");
    sheet["process"]["process_name"] = serde_json::json!(12);
    let bad_sheet = dir.join("bad.sheet.json");
    std::fs::write(&bad_sheet, sheet.to_string()).expect("writes");
    let err = fails(&["--input", &bad_sheet.display().to_string()]);
    assert!(
        err.contains("bad.sheet.json") && err.contains("process.process_name"),
        "{err}"
    );
    let mut catalog: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(EXAMPLE_PATH).expect("reads")).expect("JSON");
    catalog["processes"][1]["id"] = serde_json::json!("Not An Id");
    let bad_catalog = dir.join("bad.catalog.json");
    std::fs::write(&bad_catalog, catalog.to_string()).expect("writes");
    let err = fails(&["--input", &bad_catalog.display().to_string(), "--catalog"]);
    assert!(
        err.contains("bad.catalog.json") && err.contains("processes[1].id"),
        "{err}"
    );
    let err = fails(&["--input", &dir.join("missing.json").display().to_string()]);
    assert!(err.contains("missing.json"), "{err}");
}

#[test]
fn a_catalog_of_several_processes_needs_catalog_or_process() {
    let err = fails(&["--input", EXAMPLE_PATH]);
    for p in &example_catalog().processes {
        assert!(err.contains(p.id.as_str()), "{err}");
    }
    assert!(
        err.contains("--catalog") && err.contains("--process"),
        "{err}"
    );
    let err = fails(&["--input", EXAMPLE_PATH, "--process", "nope", "--lang", "ja"]);
    assert!(err.contains("nope") && err.contains("charge-card"), "{err}");
    let err = fails(&["--input", SHEET, "--process", "x"]);
    assert!(err.contains("--process"), "{err}");
    let o = run(&["--input", EXAMPLE_PATH, "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_base_url_that_is_not_a_web_address_is_refused() {
    let catalog = "static/examples/reservation-system.catalog.json";
    for bad in ["javascript:alert(1)//", "data:text/html,x", "/relative/"] {
        let err = fails(&["--input", catalog, "--catalog", "--base-url", bad]);
        assert!(
            err.contains("--base-url") && err.contains("https://"),
            "{err}"
        );
    }
    let (out, _) = ok(&[
        "--input",
        catalog,
        "--catalog",
        "--base-url",
        "https://tools.example/a/",
    ]);
    assert!(
        out.starts_with("https://tools.example/a/#share-v1:"),
        "{out}"
    );
}

//! `modality-advisor catalog` run as a program: a catalog file and a directory of sheet files
//! rendered with the page's renderers; bad files exit 2 naming the file and the field, and
//! nothing is written to `--output`.

use crate::catalog_support::{example_catalog, EXAMPLE_PATH};
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::export::{to_csv, to_markdown, to_tsv};
use modality_advisor::domain::Lang;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .arg("catalog")
        .args(args)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run the CLI: {e}"),
    }
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// A fresh directory under the target's temporary directory.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("creates the directory");
    d
}

#[test]
fn a_catalog_file_in_every_format_is_the_library_s_output() {
    let c = example_catalog();
    assert_eq!(
        ok(&["--input", EXAMPLE_PATH, "--format", "markdown"]),
        to_markdown(&c, Lang::En)
    );
    assert_eq!(
        ok(&[
            "--input",
            EXAMPLE_PATH,
            "--format",
            "csv",
            "--bom",
            "--lang",
            "ja"
        ]),
        to_csv(&c, Lang::Ja, true)
    );
    assert_eq!(
        ok(&["--input", EXAMPLE_PATH, "--format", "tsv"]),
        to_tsv(&c, Lang::En)
    );
    assert_eq!(
        ok(&["--input", EXAMPLE_PATH, "--format", "json"]),
        c.to_json()
    );
}

#[test]
fn a_directory_of_sheet_files_is_one_catalog() {
    let d = dir("catalog-cli-reservations");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/examples");
    std::fs::copy(
        examples.join("reservation-mail.en.json"),
        d.join("20 Mail.sheet.json"),
    )
    .expect("copies");
    std::fs::copy(
        examples.join("reservation-mail.json"),
        d.join("10 予約.sheet.json"),
    )
    .expect("copies");
    std::fs::write(d.join("notes.json"), "not a sheet").expect("writes");
    let json = ok(&["--input", &d.display().to_string(), "--format", "json"]);
    let c = read_catalog(&json).expect("the output is a catalog file");
    assert_eq!(c.name, "catalog-cli-reservations");
    let ids: Vec<&str> = c.processes.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        ["10", "20-mail"],
        "sorted by file name, ids from the stems"
    );
    assert_eq!(c.processes[0].name, "予約確定メール送信");
    let md = ok(&[
        "--input",
        &d.display().to_string(),
        "--format",
        "markdown",
        "--lang",
        "ja",
    ]);
    assert!(md.starts_with("# catalog-cli-reservations\n"));
    assert!(md.contains("(#process-20-mail)"));
}

#[test]
fn bad_files_exit_2_naming_file_and_field_and_write_nothing() {
    let d = dir("catalog-cli-bad");
    let out = d.join("out.md");
    let cases: [(&str, String, &[&str]); 3] = [
        (
            "version.catalog.json",
            std::fs::read_to_string(EXAMPLE_PATH)
                .expect("reads")
                .replacen("\"catalog_version\": 1", "\"catalog_version\": 7", 1),
            &["catalog_version", "7", "allowed: 1"],
        ),
        (
            "outcome.catalog.json",
            std::fs::read_to_string(EXAMPLE_PATH)
                .expect("reads")
                .replacen("\"outcome\": \"sync\"", "\"outcome\": \"batch\"", 1),
            &["processes[0].outcome", "they give sync"],
        ),
        (
            "big.catalog.json",
            format!("{{\"name\": \"{}\"}}", "x".repeat(5 * 1024 * 1024)),
            &["file", "at most 4"],
        ),
    ];
    for (name, text, needles) in cases {
        let f = d.join(name);
        std::fs::write(&f, text).expect("writes");
        let o = run(&[
            "--input",
            &f.display().to_string(),
            "--format",
            "markdown",
            "--output",
            &out.display().to_string(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name), "{err} does not name the file");
        for n in needles {
            assert!(err.contains(n), "{err} lacks {n}");
        }
        assert!(!out.exists(), "{name}: output written");
    }
    // A bad sheet in a directory names that file and the sheet's field.
    let sheets = dir("catalog-cli-bad-sheets");
    std::fs::write(
        sheets.join("a.sheet.json"),
        "{\"schema_version\": 1, \"process\": 3}",
    )
    .expect("writes");
    let o = run(&[
        "--input",
        &sheets.display().to_string(),
        "--format",
        "csv",
        "--output",
        &out.display().to_string(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a.sheet.json") && err.contains("process"),
        "{err}"
    );
    assert!(!out.exists());
    // --bom belongs to CSV.
    let o = run(&["--input", EXAMPLE_PATH, "--format", "tsv", "--bom"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_directory_without_sheet_files_exits_2_and_names_it() {
    let d = dir("catalog-cli-empty");
    std::fs::write(d.join("misnamed.json"), "{}").expect("writes");
    let shown = d.to_string_lossy().into_owned();
    let o = run(&["--input", &shown, "--format", "markdown"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an empty catalog is never published"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no *.sheet.json files"), "{err}");
    assert!(o.stdout.is_empty());
}

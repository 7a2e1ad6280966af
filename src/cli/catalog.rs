//! `modality-advisor catalog`: a catalog file, or a directory of sheet files, rendered as one
//! document (the renderers of the page: [`crate::domain::catalog::export`]).
//!
//! ```text
//! modality-advisor catalog --input static/examples/reservation-system.catalog.json --format markdown
//! modality-advisor catalog --input docs/sheets --format csv --bom --lang ja --output processes.csv
//! modality-advisor catalog --input system.catalog.json --format svg --output system.svg
//! ```
//!
//! `mermaid` and `svg` write the system diagram alone (what triggers what: the processes'
//! links, `domain::catalog::system`); the Markdown holds it too, once a process has a link.
//!
//! A directory's `*.sheet.json` files, sorted by file name, become the processes of one
//! catalog named after the directory; each process id is made from the file's stem
//! ([`id_from_stem`]) and its edit time is the file's modification time. A bad file exits 2
//! naming the file and the field; nothing is written to `--output` then.

use super::{lang_of, read_input, write_output, LangArg};
use crate::domain::catalog::check::{check_catalog, read_catalog};
use crate::domain::catalog::import::read_sheet_as_process;
use crate::domain::catalog::{export, Catalog, ProcessId, MAX_NAME_CHARS, MAX_PROCESSES};
use crate::domain::Lang;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// Output format of `catalog`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CatalogFormat {
    /// One document: summary table, then a section per process.
    Markdown,
    /// One row per process (RFC 4180, CRLF).
    Csv,
    /// One row per process, tab-separated.
    Tsv,
    /// The catalog file.
    Json,
    /// The system diagram (what triggers what) as a mermaid flowchart, without a fence.
    Mermaid,
    /// The system diagram as a standalone SVG image, drawn by the app's own layout.
    Svg,
}

/// Arguments of `catalog`.
#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// A catalog file (JSON, as the app downloads it; - reads standard input), or a directory
    /// whose *.sheet.json files become the processes.
    #[arg(long, value_name = "DIR_OR_FILE")]
    input: String,
    /// Output format.
    #[arg(long, value_enum)]
    format: CatalogFormat,
    /// Start the CSV with a UTF-8 byte order mark (for Excel); only with --format csv.
    #[arg(long)]
    bom: bool,
    /// Language of the labels (and of the defaults pre-filled into sheet files that name
    /// none).
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    /// Write here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `catalog`: read, check, render, write. Every error is a message for stderr (exit 2).
pub fn run(args: &CatalogArgs) -> Result<(), String> {
    if args.bom && args.format != CatalogFormat::Csv {
        return Err("--bom is only allowed with --format csv".into());
    }
    let lang = lang_of(args.lang);
    let path = Path::new(&args.input);
    let catalog = if args.input != "-" && path.is_dir() {
        from_directory(path, lang)?
    } else {
        let (text, source) = read_input(&args.input)?;
        read_catalog(&text).map_err(|e| format!("{source}: {}", e.message(lang)))?
    };
    let out = match args.format {
        CatalogFormat::Markdown => export::to_markdown(&catalog, lang),
        CatalogFormat::Csv => export::to_csv(&catalog, lang, args.bom),
        CatalogFormat::Tsv => export::to_tsv(&catalog, lang),
        CatalogFormat::Json => catalog.to_json(),
        CatalogFormat::Mermaid => crate::domain::bidi::show(
            &crate::domain::catalog::system::draw::mermaid(&catalog, lang),
            crate::domain::bidi::Shown::Text,
        )
        .into_owned(),
        CatalogFormat::Svg => {
            let mut svg = crate::domain::catalog::system::draw::svg(&catalog, lang);
            svg.push('\n');
            svg
        }
    };
    write_output(args.output.as_deref(), &out)
}

/// A process id from a file stem: lower-cased, every run of characters other than `a-z`
/// and `0-9` one `-`, trimmed of `-`, at most 40 characters; `p-<n>` (n: the file's place,
/// from 1) when nothing is left (e.g. a Japanese stem); `-2`, `-3`… appended when taken.
pub fn id_from_stem(stem: &str, n: usize, taken: &Catalog) -> ProcessId {
    let mut id = String::new();
    for c in stem.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            id.push(c);
        } else if !id.ends_with('-') {
            id.push('-');
        }
    }
    let mut id: String = id.trim_matches('-').chars().take(34).collect();
    id = id.trim_end_matches('-').to_owned();
    if id.is_empty() {
        id = format!("p-{n}");
    }
    let mut candidate = id.clone();
    let mut k = 2;
    while taken.get(&ProcessId(candidate.clone())).is_some() {
        candidate = format!("{id}-{k}");
        k += 1;
    }
    ProcessId(candidate)
}

/// The catalog of a directory's `*.sheet.json` files (sorted by file name).
fn from_directory(dir: &Path, lang: Lang) -> Result<Catalog, String> {
    let shown = dir.display();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(".sheet.json"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        // A wrong path or misnamed files must not publish an empty catalog.
        return Err(format!(
            "{shown}: no *.sheet.json files; allowed: a directory with 1 to {MAX_PROCESSES} sheet files, or a catalog file"
        ));
    }
    if files.len() > MAX_PROCESSES {
        return Err(format!(
            "{shown}: {} sheet files; allowed: at most {MAX_PROCESSES}",
            files.len()
        ));
    }
    let name: String = std::fs::canonicalize(dir)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    let mut catalog = Catalog::new(&name);
    for (i, file) in files.iter().enumerate() {
        let shown = file.display().to_string();
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let stem = file
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".sheet.json"))
            .unwrap_or_default();
        let id = id_from_stem(stem, i + 1, &catalog);
        let p = read_sheet_as_process(&text, lang, id, modified_ms(file))
            .map_err(|e| format!("{shown}: {}", e.message(lang)))?;
        catalog.processes.push(p);
    }
    check_catalog(&catalog).map_err(|e| format!("{shown}: {}", e.message(lang)))?;
    Ok(catalog)
}

/// The file's modification time in Unix milliseconds (0 when the system does not say).
fn modified_ms(file: &Path) -> u64 {
    std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

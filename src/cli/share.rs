//! `modality-advisor share`: a sheet file or a catalog file as a permalink, or as one of the
//! cards for wikis without iframes ([`crate::domain::share`]), so docs-as-code pipelines
//! publish without a browser.
//!
//! ```text
//! modality-advisor share --input static/examples/reservation-mail.json
//! modality-advisor share --input static/examples/reservation-system.catalog.json --catalog \
//!     --base-url https://tools.example/advisor/ --format svg --output docs/decisions.svg
//! modality-advisor share --input system.catalog.json --process send-mail --format adr
//! ```
//!
//! The input is read like `sheet` reads a sheet file (one process, id from the file name,
//! no edit time, so the link stays the same while the file's content does) or like `catalog`
//! reads a catalog file (a JSON object with `catalog_version`). A bad file exits 2 naming the
//! file and the field; nothing is written to `--output` then.

use super::{lang_of, read_input, write_output, LangArg};
use crate::domain::catalog::check::read_catalog;
use crate::domain::catalog::import::read_sheet_as_process;
use crate::domain::catalog::{Catalog, ProcessId};
use crate::domain::share::link::{app_url, embed_url, LONG_LINK_CHARS};
use crate::domain::share::markdown::{markdown, Flavour};
use crate::domain::share::{adr, card, svg, Share, Shared};
use crate::domain::Lang;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Where `make serve` serves the app: the base URL when `--base-url` is not given.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080/";

/// Output format of `share`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShareFormat {
    /// The app's permalink (opens the share read-only, with "Save to my catalog").
    Link,
    /// The embed page's link, for an `<iframe>`.
    EmbedLink,
    /// The decision card as a self-contained SVG image (the state in its metadata).
    Svg,
    /// An Architecture Decision Record (MADR layout).
    Adr,
    /// Markdown for GitHub / GitLab (```mermaid blocks).
    Markdown,
    /// Markdown for Azure DevOps wikis (::: mermaid blocks).
    MarkdownAzure,
    /// The read-only HTML card the embed page shows (an HTML fragment).
    Html,
}

/// Arguments of `share`.
#[derive(Debug, Args)]
pub struct ShareArgs {
    /// A sheet file (JSON, as the app exports it) or a catalog file; - reads standard input.
    #[arg(long, value_name = "FILE.json")]
    input: String,
    /// Share the whole catalog (otherwise one process).
    #[arg(long, conflicts_with = "process")]
    catalog: bool,
    /// The id of the catalog's process to share (needed when the catalog holds several).
    #[arg(long, value_name = "ID")]
    process: Option<String>,
    /// Where the app is served, e.g. https://tools.example/advisor/ (default: where
    /// `make serve` serves it, http://127.0.0.1:8080/).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "link")]
    format: ShareFormat,
    /// Language of the shared view and the texts (default: the sheet's, or the first
    /// process's, else en).
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// A shorter link: without free-text notes and simulator choices.
    #[arg(long)]
    short: bool,
    /// Write here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn tr(key: &str, lang: Lang) -> String {
    crate::text::t!(key, locale = lang.code()).into_owned()
}

/// `share`: read, choose, encode, render, write. Every error is a message for stderr
/// (exit 2).
pub fn run(args: &ShareArgs) -> Result<(), String> {
    let asked = args.lang.map(lang_of);
    let msg_lang = asked.unwrap_or_default();
    let (text, source) = read_input(&args.input)?;
    let content = if is_catalog(&text) {
        let catalog =
            read_catalog(&text).map_err(|e| format!("{source}: {}", e.message(msg_lang)))?;
        choose(catalog, args, &source, msg_lang)?
    } else {
        if let Some(id) = &args.process {
            return Err(crate::text::t!(
                "cli.share.process-of-sheet",
                locale = msg_lang.code(),
                file = source,
                id = id
            )
            .into_owned());
        }
        let id = id_of(&args.input);
        let p = read_sheet_as_process(&text, msg_lang, id, 0)
            .map_err(|e| format!("{source}: {}", e.message(msg_lang)))?;
        if args.catalog {
            let mut c = Catalog::new("");
            c.processes.push(p);
            Shared::Catalog(c)
        } else {
            Shared::Process(Box::new(p))
        }
    };
    let first = match &content {
        Shared::Process(p) => Some(&**p),
        Shared::Catalog(c) => c.processes.first(),
    };
    let lang = asked
        .or_else(|| first.and_then(|p| p.sheet.as_ref()).and_then(|s| s.lang))
        .unwrap_or_default();
    let mut share = Share { lang, content };
    if args.short {
        share = share.without_notes();
    }
    let base = match &args.base_url {
        // Links go into hrefs of HTML, Markdown and the SVG card: only a web address.
        Some(b) if !(b.starts_with("https://") || b.starts_with("http://")) => {
            return Err(crate::text::t!(
                "cli.share.base-url-scheme",
                locale = msg_lang.code(),
                url = b
            )
            .into_owned());
        }
        Some(b) => b.clone(),
        None => {
            eprintln!(
                "{}",
                crate::text::t!(
                    "cli.share.base-url-note",
                    locale = lang.code(),
                    base = DEFAULT_BASE_URL
                )
            );
            DEFAULT_BASE_URL.to_owned()
        }
    };
    let link = app_url(&base, &share);
    if matches!(args.format, ShareFormat::Link | ShareFormat::EmbedLink)
        && link.chars().count() > LONG_LINK_CHARS
    {
        let note = crate::text::t!(
            "cli.share.long",
            locale = lang.code(),
            chars = link.chars().count(),
            max = LONG_LINK_CHARS
        );
        eprintln!("{note}");
    }
    let out = match args.format {
        ShareFormat::Link => format!("{link}\n"),
        ShareFormat::EmbedLink => format!("{}\n", embed_url(&base, &share)),
        ShareFormat::Svg => svg::card(&share, lang, &link),
        ShareFormat::Adr => adr::adr(&share, lang, &link),
        ShareFormat::Markdown => markdown(&share, lang, &link, Flavour::GitHub),
        ShareFormat::MarkdownAzure => markdown(&share, lang, &link, Flavour::Azure),
        ShareFormat::Html => format!("{}\n", card::html(&share, lang, &link)),
    };
    write_output(args.output.as_deref(), &out)
}

/// Whether the text is a catalog file: a JSON object with `catalog_version` (anything else,
/// including text that is not JSON, goes to the sheet reader, whose errors name the line).
fn is_catalog(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}'))
        .ok()
        .and_then(|v| v.as_object().map(|o| o.contains_key("catalog_version")))
        .unwrap_or(false)
}

/// The whole catalog (`--catalog`), the process `--process` names, or its only process.
fn choose(mut c: Catalog, args: &ShareArgs, source: &str, lang: Lang) -> Result<Shared, String> {
    if args.catalog {
        return Ok(Shared::Catalog(c));
    }
    let ids = || {
        c.processes
            .iter()
            .map(|p| p.id.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(id) = &args.process {
        let Some(at) = c.position(&ProcessId(id.clone())) else {
            return Err(crate::text::t!(
                "cli.share.no-such-process",
                locale = lang.code(),
                file = source,
                id = id,
                ids = ids()
            )
            .into_owned());
        };
        return Ok(Shared::Process(Box::new(c.processes.remove(at))));
    }
    match c.processes.len() {
        1 => Ok(Shared::Process(Box::new(c.processes.remove(0)))),
        0 => Err(format!("{source}: {}", tr("cli.share.empty", lang))),
        n => Err(crate::text::t!(
            "cli.share.several",
            locale = lang.code(),
            file = source,
            count = n,
            ids = ids()
        )
        .into_owned()),
    }
}

/// The process id of a sheet file: made from its name without `.sheet.json` / `.json`
/// ([`super::catalog::id_from_stem`]); `sheet` for standard input.
fn id_of(input: &str) -> ProcessId {
    let name = std::path::Path::new(input)
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|_| input != "-")
        .unwrap_or("sheet");
    let stem = name
        .strip_suffix(".sheet.json")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(name);
    super::catalog::id_from_stem(stem, 1, &Catalog::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_file_s_id_comes_from_its_name() {
        assert_eq!(id_of("docs/Send Mail.sheet.json").as_str(), "send-mail");
        assert_eq!(
            id_of("reservation-mail.en.json").as_str(),
            "reservation-mail-en"
        );
        assert_eq!(id_of("-").as_str(), "sheet");
        assert_eq!(id_of("予約.json").as_str(), "p-1");
    }

    #[test]
    fn only_an_object_with_catalog_version_is_a_catalog() {
        assert!(is_catalog("{\"catalog_version\": 1}"));
        assert!(!is_catalog("{\"schema_version\": 1}"));
        assert!(!is_catalog("not json"));
    }
}

//! The messages between the page and the document Web Worker (`serve_documents` in `src/bin/sim-ui.rs`),
//! JSON strings over `postMessage`. The exporters (this module's siblings and
//! [`catalog::export`]) and the file readers ([`super::read`]) run only in the worker, so the
//! page's first load does not carry them; the page sends what to export (or a file's text)
//! and gets the text (or the file read and checked) back. The simulator's settings file
//! ([`ExportSubject::SimSettings`]) and the sheet's configuration for a real queue system
//! ([`ExportSubject::Target`], with its mapping, schedule and defaults) are written here too.
//!
//! | direction | message | JSON |
//! |---|---|---|
//! | worker → page, once | [`EXPORT_WORKER_READY`] | the bare string `"ready"` |
//! | page → worker | [`ExportRequest`] | `{"id":1,"lang":"ja","format":{"Csv":{"bom":true}},"subject":{"Sheet":{…}}}` |
//! | worker → page | [`ExportReply`] | `{"id":1,"result":{"Ok":"…text…"}}` or `{"id":1,"result":{"Err":"…message…"}}` |
//! | page → worker | [`ReadRequest`] | `{"id":2,"lang":"en","text":"…","read":"Sheet"}` (see [`super::read`]) |
//! | page → worker | [`ExportRequest`] for [`ExportSubject::Target`] | `{"id":4,"lang":"en","format":"Json","subject":{"Target":{"sheet":{…},"target":"sqs","format":"terraform"}}}` (and `"version":"6.2.2-7"` for a target's older version, [`TargetVersion`]), answered with a [`Panel`](crate::domain::share::panel::Panel) as JSON ([`target_panel`]) |
//! | page → worker | [`ExportRequest`] for [`ExportSubject::System`] | `{"id":5,"lang":"ja","format":"Markdown","subject":{"System":{…catalog…}}}`, answered with the system picture's HTML |
//! | page → worker | [`ShareRequest`] | `{"id":3,"lang":"en","base":"…","want":"Panel","share":{…}}` (see [`crate::domain::share::panel`]) |
//!
//! Enums are externally tagged, as in [`runner::protocol`]. A request the worker cannot read
//! comes back as an `Err` naming what was wrong (in the request's language when it can tell),
//! with the request's `id` when it can read that, else `0`.
//!
//! [`catalog::export`]: crate::domain::catalog::export
//! [`runner::protocol`]: crate::domain::sim::runner

use super::read::{result_to_json, ReadRequest};
use super::target_panel;
use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::Catalog;
use crate::domain::lang::Lang;
use crate::domain::queues::{Format as TargetFormat, TargetId, TargetVersion};
use crate::domain::share::panel::ShareRequest;
use crate::domain::sheet::JobSheet;
use crate::domain::sim::setup::knobs::CustomRun;
use crate::text::t;
use serde::{Deserialize, Serialize};

/// The worker's first message: requests can come (the page holds them until then).
pub const EXPORT_WORKER_READY: &str = "ready";

/// A document format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExportFormat {
    /// Markdown for GitHub / GitLab wikis.
    Markdown,
    /// Tab-separated text that pastes into spreadsheets as cells.
    Tsv,
    /// RFC 4180 CSV; `bom`: start with a UTF-8 byte order mark (for Excel).
    Csv {
        /// Whether the text starts with U+FEFF.
        bom: bool,
    },
    /// The versioned JSON model, pretty-printed (imports back).
    Json,
}

/// What to export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExportSubject {
    /// One job definition sheet.
    Sheet(Box<JobSheet>),
    /// A whole catalog of processes.
    Catalog(Catalog),
    /// The catalog's system picture for the page, whatever the format: the SVG in its
    /// scrolling region, the diagram as text and the links' findings, as HTML
    /// ([`draw::html`](crate::domain::catalog::system::draw::html)).
    System(Catalog),
    /// The simulator's "Your settings" as their config file (the file
    /// `modality-advisor simulate --config` reads): pretty JSON whatever the format.
    SimSettings {
        /// The settings.
        run: Box<CustomRun>,
        /// The seed the file runs with.
        seed: u64,
    },
    /// The sheet's configuration for a real queue system, with everything shown beside it
    /// ([`target_panel`]): the answer is a
    /// [`Panel`](crate::domain::share::panel::Panel) as JSON whatever the format —
    /// `{"Target":{"sheet":{…},"target":"sidekiq","format":null}}`.
    Target {
        /// The sheet.
        sheet: Box<JobSheet>,
        /// The target system.
        target: TargetId,
        /// Its format (`None`: the target's first, [`TargetId::formats`]).
        format: Option<TargetFormat>,
        /// Its version (`None` or absent: the newest, [`TargetId::versions`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<TargetVersion>,
    },
}

/// One export, page → worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// Echoed in the reply, so answers to several requests in flight are told apart.
    pub id: u32,
    /// The language of the document's texts (headers, outcome, findings).
    pub lang: Lang,
    /// The format.
    pub format: ExportFormat,
    /// The sheet or the catalog.
    pub subject: ExportSubject,
    /// The page's clock when it asked (Unix milliseconds): the target panel then names the days
    /// of the coming year on which daylight saving skips or repeats a batch run (the sheet's
    /// Markdown too, [`to_markdown_at`](super::markdown::to_markdown_at), which the page's
    /// export bar asks for). Absent: no such findings (the domain has no clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now_ms: Option<i64>,
}

/// The answer to one [`ExportRequest`], worker → page: the document's text, or a message
/// saying why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportReply {
    /// The request's `id` (`0` when the request could not be read).
    pub id: u32,
    /// `Ok(text)` or `Err(message)` (a sentence in the request's language).
    pub result: Result<String, String>,
}

impl ExportRequest {
    /// The request as JSON text (what the page posts).
    pub fn to_json(&self) -> String {
        // Strings, numbers, bools and enums only: serialising cannot fail.
        crate::domain::json::compact(self)
    }

    /// The document: the same text the exporters give when called directly.
    pub fn render(&self) -> String {
        use crate::domain::catalog::export as catalog;
        use crate::domain::export as sheet;
        let lang = self.lang;
        match (&self.subject, self.format) {
            (ExportSubject::Sheet(s), ExportFormat::Markdown) => {
                sheet::markdown::to_markdown_at(s, lang, self.now_ms)
            }
            (ExportSubject::Sheet(s), ExportFormat::Tsv) => sheet::to_tsv(s, lang),
            (ExportSubject::Sheet(s), ExportFormat::Csv { bom }) => sheet::to_csv(s, lang, bom),
            (ExportSubject::Sheet(s), ExportFormat::Json) => sheet::to_json(s),
            (ExportSubject::Catalog(c), ExportFormat::Markdown) => catalog::to_markdown(c, lang),
            (ExportSubject::Catalog(c), ExportFormat::Tsv) => catalog::to_tsv(c, lang),
            (ExportSubject::Catalog(c), ExportFormat::Csv { bom }) => catalog::to_csv(c, lang, bom),
            (ExportSubject::Catalog(c), ExportFormat::Json) => {
                bidi::show(&c.to_json(), Shown::Json).into_owned()
            }
            (ExportSubject::System(c), _) => crate::domain::catalog::system::draw::html(c, lang),
            // Numbers, strings and enums only: serialising cannot fail.
            (ExportSubject::SimSettings { run, seed }, _) => {
                crate::domain::json::pretty(&run.to_file(*seed))
            }
            (
                ExportSubject::Target {
                    sheet,
                    target,
                    format,
                    version,
                },
                _,
            ) => target_panel::render_at(sheet, (*target, *format, *version), lang, None).to_json(),
        }
    }
}

impl ExportReply {
    /// The reply as JSON text (what the worker posts).
    pub fn to_json(&self) -> String {
        crate::domain::json::compact(self)
    }

    /// Reads a reply (what the page receives).
    ///
    /// # Errors
    /// `serde_json`'s message when `text` is not an [`ExportReply`].
    pub fn from_json(text: &str) -> Result<ExportReply, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// The worker's whole job: reads an [`ExportRequest`] (or a [`ReadRequest`]: a JSON object
/// with a `read` field; or a [`ShareRequest`]: one with a `want` field) from `text` and
/// returns the [`ExportReply`] as JSON text — for a read, its `Ok` text is the
/// [`ReadResult`](super::read::ReadResult) ([`super::read`]); for a share, the panel or the
/// card ([`ShareRequest::render`]). Never panics:
/// a request it cannot read gets an `Err` reply naming the problem (the line and column of
/// text that is not JSON; the field's path in a request that is).
pub fn handle(text: &str) -> String {
    use crate::domain::json::{decode, TextError};
    let value = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => v,
        Err(e) => return bad_request(text, &TextError::Syntax(e)).to_json(),
    };
    let refused = |e| bad_request(text, &TextError::Field(e));
    let reply = if value.get("want").is_some() {
        match decode::<ShareRequest>(&value) {
            Ok(request) => ExportReply {
                id: request.id,
                result: Ok(request.render()),
            },
            Err(e) => refused(e),
        }
    } else if value.get("read").is_some() {
        match decode::<ReadRequest>(&value) {
            Ok(request) => ExportReply {
                id: request.id,
                result: Ok(result_to_json(&request.run())),
            },
            Err(e) => refused(e),
        }
    } else {
        match decode::<ExportRequest>(&value) {
            Ok(request) => ExportReply {
                id: request.id,
                result: Ok(request.render()),
            },
            Err(e) => refused(e),
        }
    };
    reply.to_json()
}

/// The `Err` reply to a request that cannot be read: whatever of the envelope can be read,
/// to answer the right request in its language.
pub(crate) fn bad_request(text: &str, e: &crate::domain::json::TextError) -> ExportReply {
    #[derive(Deserialize)]
    struct Envelope {
        #[serde(default)]
        id: u32,
        #[serde(default)]
        lang: Lang,
    }
    let env = crate::domain::json::from_text::<Envelope>(text).unwrap_or(Envelope {
        id: 0,
        lang: Lang::En,
    });
    ExportReply {
        id: env.id,
        result: Err(t!(
            "export.worker.bad-request",
            locale = env.lang.code(),
            reason = e.to_string()
        )
        .into_owned()),
    }
}

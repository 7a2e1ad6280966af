//! Sharing: a process, or a whole catalog, carried in a link's fragment — read-only where it
//! lands (the app's shared view, the embed page for wiki iframes) and rendered as cards for
//! wikis that take no iframe.
//!
//! The permalink format ([`link`]) is `#share-v1:` followed by base64url (RFC 4648 §5, no
//! padding) of zlib-wrapped deflate (RFC 1950/1951) of the canonical JSON of a [`Share`]. The
//! fragment never reaches a server. Every version ever released stays decodable: the committed
//! vectors under `tests/vectors/share-v1/` are decoded by the tests forever. Like Mermaid
//! Live's `#pako:` links, the prefix names the codec and new fields may only be optional.
//!
//! A fragment is untrusted input: [`link::decode`] limits its length and the inflated size,
//! relies on the zlib checksum (Adler-32) against truncation and tampering, and sends the JSON
//! through the same strict reader as a catalog file ([`read_catalog`]).

pub mod adr;
pub mod card;
pub mod embed;
pub mod link;
pub mod markdown;
pub mod panel;
pub mod svg;

use crate::domain::catalog::check::{check_catalog, read_catalog};
use crate::domain::catalog::{Catalog, Process, CATALOG_VERSION};
use crate::domain::sheet::import::ImportError;
use crate::domain::Lang;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a link holding an audit record is refused (the embed page's reader knows no such
/// field at all).
#[cfg(not(feature = "embed"))]
pub const NO_AUDIT: &str =
    "an audit record is not carried by a link; allowed: absent (it stays in the catalog file)";

/// What a link carries: one process, or every process of a system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shared {
    /// One process (its decision, sheet and simulator choices).
    Process(Box<Process>),
    /// A whole catalog.
    Catalog(Catalog),
}

/// The content of a permalink: what is shared and the language it is shown in.
///
/// Canonical JSON (`serde_json`, fields in declaration order, no whitespace), e.g.
/// `{"lang":"ja","content":{"process":{"id":"p-1",…}}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Share {
    /// The language the receiver sees first (the embed page shows only this one; the app
    /// opens in it).
    pub lang: Lang,
    /// What is shared.
    pub content: Shared,
}

impl Share {
    /// The share as canonical JSON text (compact; serialising plain data cannot fail).
    /// A link carries no audit record ([`Process::audit`]): it is left out here.
    pub fn to_json(&self) -> String {
        let mut s = self.clone();
        s.processes_mut().for_each(|p| p.audit = None);
        crate::domain::json::compact(&s)
    }

    /// Every process shared, to change.
    fn processes_mut(&mut self) -> impl Iterator<Item = &mut Process> {
        match &mut self.content {
            Shared::Process(p) => std::slice::from_mut(&mut **p).iter_mut(),
            Shared::Catalog(c) => c.processes.iter_mut(),
        }
    }

    /// Refuses a share holding an audit record ([`Process::audit`]; [`Share::to_json`]
    /// never writes one): its path and what is allowed.
    #[cfg(not(feature = "embed"))]
    fn no_audit(&self) -> Result<(), ImportError> {
        let at = match &self.content {
            Shared::Process(p) => p.audit.as_ref().map(|_| "content.process.audit".to_owned()),
            Shared::Catalog(c) => (c.processes.iter())
                .position(|p| p.audit.is_some())
                .map(|i| format!("content.catalog.processes[{i}].audit")),
        };
        match at {
            Some(path) => Err(ImportError::Field {
                path,
                problem: NO_AUDIT.into(),
            }),
            None => Ok(()),
        }
    }

    /// Reads a share from JSON text with every check a catalog file gets: the process (or
    /// catalog) goes through [`read_catalog`] (a single process as a one-process catalog), so
    /// a link can carry nothing an import would refuse.
    ///
    /// # Errors
    /// [`ImportError`] naming the field: `lang` missing (`Field`) or not `en` / `ja`
    /// (`OutOfRange`, the value cut to 40 characters); `content` missing or not exactly one
    /// of `process` / `catalog`; an unknown top-level field; then the catalog
    /// reader's errors, their paths prefixed with `content.catalog.` or `content.process.`.
    pub fn from_json(text: &str) -> Result<Share, ImportError> {
        let value = crate::domain::sheet::import::json_value(text)?;
        let Value::Object(mut top) = value else {
            return Err(field(
                "",
                "not an object; allowed: {\"lang\": …, \"content\": …}",
            ));
        };
        if let Some(k) = top.keys().find(|k| *k != "lang" && *k != "content") {
            return Err(field(k, "unknown field; allowed: lang, content"));
        }
        let lang = match top.get("lang") {
            None => {
                return Err(field(
                    "lang",
                    "missing; this field is required (allowed: en, ja)",
                ))
            }
            Some(v) => match v.as_str().map(Lang::parse) {
                Some(Ok(l)) => l,
                _ => {
                    return Err(ImportError::OutOfRange {
                        path: "lang".into(),
                        value: shown(v),
                        allowed: "en, ja".into(),
                    })
                }
            },
        };
        const CONTENT: &str = "{\"process\": …} or {\"catalog\": …}";
        let content = match top.remove("content") {
            Some(Value::Object(c)) if c.len() == 1 => c,
            None => {
                return Err(field(
                    "content",
                    &format!("missing; this field is required (allowed: {CONTENT})"),
                ))
            }
            Some(_) => {
                return Err(field(
                    "content",
                    &format!("not one object of one field; allowed: {CONTENT}"),
                ))
            }
        };
        let (kind, inner) = content.into_iter().next().unwrap_or_default();
        let (json, prefix) = match kind.as_str() {
            "catalog" => (inner, "content.catalog."),
            "process" => (
                serde_json::json!({"catalog_version": CATALOG_VERSION, "name": "", "processes": [inner]}),
                "content.process.",
            ),
            other => {
                return Err(field(
                    &format!("content.{other}"),
                    "unknown field; allowed: process, catalog",
                ))
            }
        };
        let mut catalog = read_catalog(&json.to_string()).map_err(|e| prefixed(e, prefix))?;
        let content = if kind == "catalog" {
            Shared::Catalog(catalog)
        } else {
            Shared::Process(Box::new(catalog.processes.remove(0)))
        };
        let share = Share { lang, content };
        #[cfg(not(feature = "embed"))]
        share.no_audit()?;
        Ok(share)
    }

    /// Reads a share with the models' own decoder (no path-naming reader), then the same
    /// meaning checks as a catalog file ([`check_catalog`]): what [`Share::from_json`]
    /// accepts, this accepts; it refuses the same shapes and meanings, with a shape error
    /// worded by line and column instead of the JSON path. One difference: simulator choices
    /// are read leniently here, as storage reads them (a part that does not check out takes
    /// its default; the card does not show them). For the embed page's size budget.
    ///
    /// # Errors
    /// [`ImportError::InvalidJson`] for text that is not a share of this shape (unknown
    /// fields included); then the first problem [`check_catalog`] finds.
    pub fn from_json_plain(text: &str) -> Result<Share, ImportError> {
        if text.len() > crate::domain::catalog::MAX_FILE_BYTES {
            return Err(ImportError::OutOfRange {
                path: "file".into(),
                value: format!("{} bytes", text.len()),
                allowed: format!("at most {} bytes", crate::domain::catalog::MAX_FILE_BYTES),
            });
        }
        let share: Share = serde_json::from_str(text).map_err(|e| ImportError::InvalidJson {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let catalog = match &share.content {
            Shared::Catalog(c) => std::borrow::Cow::Borrowed(c),
            Shared::Process(p) => {
                let mut c = Catalog::new("");
                c.processes.push((**p).clone());
                std::borrow::Cow::Owned(c)
            }
        };
        check_catalog(&catalog).map_err(|e| {
            let prefix = match share.content {
                Shared::Catalog(_) => "content.catalog.",
                Shared::Process(_) => "content.process.",
            };
            prefixed(e, prefix)
        })?;
        #[cfg(not(feature = "embed"))]
        share.no_audit()?;
        Ok(share)
    }

    /// The share without free-text notes, for a shorter link: no simulator choices, no
    /// edit times, and the sheet's prose that no check reads (how a dead job is re-run,
    /// what the user sees on a timeout, what a partial batch failure does, the facts'
    /// list of permanent errors — the sheet's non-retryable errors stay). Names, numbers,
    /// choices, the idempotency key and every text a finding reads are kept (a note holding
    /// a bidi control too), so the shared sheet shows the same findings.
    pub fn without_notes(&self) -> Share {
        let mut s = self.clone();
        match &mut s.content {
            Shared::Process(p) => strip(p),
            Shared::Catalog(c) => c.processes.iter_mut().for_each(strip),
        }
        s
    }

    /// The processes shared (one, or the catalog's in order).
    pub fn processes(&self) -> &[Process] {
        match &self.content {
            Shared::Process(p) => std::slice::from_ref(&**p),
            Shared::Catalog(c) => &c.processes,
        }
    }
}

fn strip(p: &mut Process) {
    p.sim = None;
    p.created_ms = 0;
    p.updated_ms = 0;
    if let Some(sheet) = &mut p.sheet {
        sheet.process.permanent_errors.retain(|e| flagged(e));
        if let Some(f) = &mut sheet.failure {
            drop_note(&mut f.rerun);
        }
        if let Some(b) = &mut sheet.batch {
            drop_note(&mut b.partial_failure);
        }
        if let Some(s) = &mut sheet.sync {
            drop_note(&mut s.on_timeout);
        }
    }
}

/// Whether the bidi check reads `text` (it holds a bidi control, which a finding names).
fn flagged(text: &str) -> bool {
    text.chars().any(crate::domain::bidi::is_control)
}

/// Clears a note, unless a finding reads it (so the short link shows the same findings).
fn drop_note(note: &mut String) {
    if !flagged(note) {
        note.clear();
    }
}

/// A JSON value as the message shows it: its text, cut to 40 characters.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

fn field(path: &str, problem: &str) -> ImportError {
    ImportError::Field {
        path: path.to_owned(),
        problem: problem.to_owned(),
    }
}

fn prefixed(e: ImportError, prefix: &str) -> ImportError {
    let fix = |path: String| {
        let path = match prefix {
            // A single process sits at `processes[0]` of the wrapping catalog.
            "content.process." => path
                .strip_prefix("processes[0]")
                .map(|rest| rest.trim_start_matches('.').to_owned())
                .unwrap_or(path),
            _ => path,
        };
        if path.is_empty() {
            prefix.trim_end_matches('.').to_owned()
        } else {
            format!("{prefix}{path}")
        }
    };
    e.map_path(fix)
}

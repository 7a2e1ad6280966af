//! File reading in the export worker: the sheet screen's and the catalog screen's imports
//! send the chosen file's text here, so the readers ([`import_json`], [`read_catalog`],
//! [`read_sheet_as_process`], with their path-naming decoder) stay out of the page's first
//! load. The reply is the read file in its saved form, or the typed [`ImportError`]; the
//! page decodes it with the plain model readers it has for storage and checks the meaning
//! again ([`ReadDone::from_reply`]).
//!
//! | direction | message | JSON |
//! |---|---|---|
//! | page → worker | [`ReadRequest`] | `{"id":2,"lang":"en","text":"…the file…","read":"Sheet"}` |
//! | page → worker | [`ReadRequest`] of a link | `{"id":3,"lang":"en","text":"#share-v1:…","read":"ShareLink"}` |
//! | worker → page | [`ExportReply`](super::protocol::ExportReply) whose `Ok` text is [`result_to_json`]'s list | `{"id":2,"result":{"Ok":"[\"Field\",\"retry.lease_ms\",\"…\"]"}}` |
//!
//! An `Err` in the reply itself means the request could not be read, as for an export; the
//! file's own problems are in the `Ok` text, typed, so a message follows a language switch.

use crate::domain::catalog::check::{check_catalog, read_catalog};
use crate::domain::catalog::import::read_sheet_as_process;
use crate::domain::catalog::{Catalog, ProcessId};
use crate::domain::lang::Lang;
use crate::domain::share::{Share, Shared};
use crate::domain::sheet::import::{check_sheet, import_json, ImportError};
use crate::domain::sheet::JobSheet;
use serde::{Deserialize, Serialize};

/// How to read a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadAs {
    /// A sheet file (the versioned sheet, or the short input file), as [`import_json`] reads it.
    Sheet,
    /// A catalog file (it has `catalog_version`: [`read_catalog`]), or a single sheet file
    /// (it has `schema_version` and no `catalog_version`) read as a catalog named
    /// `catalog_name` holding that one process ([`read_sheet_as_process`]).
    CatalogOrSheet {
        /// The catalog's name when the file is a single sheet (the current catalog's).
        catalog_name: String,
        /// The id the single sheet's process gets (unused in the current catalog).
        id: ProcessId,
        /// Its creation time, Unix milliseconds.
        now_ms: u64,
    },
    /// A share link's fragment (`text`), read as [`crate::domain::share::link::decode`]
    /// reads it: the shared process or catalog, or why the link cannot be opened.
    ShareLink,
    /// An existing queue configuration (Terraform, CloudFormation, a Kubernetes Job, a
    /// Celery task …), read by the audit in the document worker's targets handler (it holds
    /// the queue systems' formulas): one new process per job found ([`ReadDone::Audited`]), or why the
    /// file cannot be read ([`ReadDone::AuditRefused`]). The export protocol's own handler refuses it.
    Configuration {
        /// The file's name as chosen or typed (its extension tells the reader the kind,
        /// e.g. `main.tf`, `template.yaml`, `tasks.py`).
        file_name: String,
        /// The catalog's name (the current catalog's).
        catalog_name: String,
        /// The seed the new processes' ids are made from; the page gives them fresh ids
        /// in its own catalog before adding them.
        seed: u64,
        /// Their creation time, Unix milliseconds.
        now_ms: u64,
        /// Lock and requirement files given with the configuration, as (name, text)
        /// (`Gemfile.lock`, `package.json` …): they pin the queue systems' releases the jobs
        /// are audited for ([`crate::domain::audit::pins`]); none when absent.
        #[serde(default)]
        lock_files: Vec<(String, String)>,
    },
}

/// One file to read, page → worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadRequest {
    /// Echoed in the reply.
    pub id: u32,
    /// The language of texts a sheet file leaves out (pre-filled defaults).
    pub lang: Lang,
    /// The file's text (UTF-8; a leading byte-order mark is skipped).
    pub text: String,
    /// How to read it.
    pub read: ReadAs,
}

/// A file read and checked (in memory; it crosses as [`result_to_json`]'s list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadDone {
    /// A sheet ([`ReadAs::Sheet`]).
    Sheet(Box<JobSheet>),
    /// A catalog ([`ReadAs::CatalogOrSheet`]); `sheet`: the file was a single sheet.
    Catalog {
        /// The catalog the file holds (a sheet file: a catalog of that one process).
        catalog: Catalog,
        /// Whether the file was a single sheet.
        sheet: bool,
    },
    /// A share link read and checked ([`ReadAs::ShareLink`]).
    Shared(Box<Share>),
    /// A configuration read ([`ReadAs::Configuration`]): a catalog of one process per job
    /// found (its sheet what the file says), each with what the audit says about it
    /// ([`Process::audit`](crate::domain::catalog::Process::audit)).
    Audited {
        /// The new processes.
        catalog: Catalog,
    },
    /// A configuration that cannot be read, or holds no queue or job: why, naming the file
    /// and the line, in English and in Japanese.
    AuditRefused {
        /// The message in English.
        en: String,
        /// The message in Japanese.
        ja: String,
    },
    /// A text the worker refuses with its own words, in English and in Japanese: a share
    /// link that cannot be opened
    /// ([`LinkError::message`](crate::domain::share::link::LinkError::message)), or the
    /// command-line simulator's configuration given as a catalog or a sheet.
    Refused {
        /// The message in English.
        en: String,
        /// The message in Japanese.
        ja: String,
    },
}

/// What a read gives: the file, or why it cannot be read (naming the field).
pub type ReadResult = Result<ReadDone, ImportError>;

impl ReadRequest {
    /// The request as JSON text (what the page posts).
    pub fn to_json(&self) -> String {
        // Strings, numbers and enums only: serialising cannot fail.
        crate::domain::json::compact(self)
    }

    /// Reads the file as asked (in the worker).
    ///
    /// # Errors
    /// What [`import_json`], [`read_catalog`] or [`read_sheet_as_process`] refuse.
    pub fn run(&self) -> ReadResult {
        let as_file = matches!(self.read, ReadAs::Sheet | ReadAs::CatalogOrSheet { .. });
        if let (true, Some((en, ja))) = (as_file, super::not_read::simulator_config(&self.text)) {
            return Ok(ReadDone::Refused { en, ja });
        }
        match &self.read {
            ReadAs::Sheet => import_json(&self.text, self.lang).map(|s| ReadDone::Sheet(s.into())),
            ReadAs::CatalogOrSheet {
                catalog_name,
                id,
                now_ms,
            } => {
                if is_sheet_file(&self.text) {
                    let p = read_sheet_as_process(&self.text, self.lang, id.clone(), *now_ms)?;
                    let mut catalog = Catalog::new(catalog_name);
                    catalog.processes.push(p);
                    Ok(ReadDone::Catalog {
                        catalog,
                        sheet: true,
                    })
                } else {
                    read_catalog(&self.text).map(|catalog| ReadDone::Catalog {
                        catalog,
                        sheet: false,
                    })
                }
            }
            // Routed to the audit by the document worker (`doc_worker::handle` →
            // `target_worker::handle`); only a direct call of `run` gets here.
            ReadAs::Configuration { .. } => {
                let (en, ja) = crate::domain::audit::elsewhere::message();
                Ok(ReadDone::AuditRefused { en, ja })
            }
            ReadAs::ShareLink => Ok(match crate::domain::share::link::decode(&self.text) {
                Ok(share) => ReadDone::Shared(Box::new(share)),
                Err(e) => ReadDone::Refused {
                    en: e.message(Lang::En),
                    ja: e.message(Lang::Ja),
                },
            }),
        }
    }
}

/// A sheet file rather than a catalog file: a JSON object with `schema_version` and without
/// `catalog_version` (anything else is read, and refused, as a catalog).
fn is_sheet_file(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}'))
        .ok()
        .is_some_and(|v| v.get("schema_version").is_some() && v.get("catalog_version").is_none())
}

/// The reply's text for `result` (what the worker puts in the reply's `Ok`): a JSON list of
/// strings, its first the kind — `["Sheet", sheet JSON]`, `["Catalog", catalog JSON]`,
/// `["SheetAsCatalog", catalog JSON]`, or the [`ImportError`] variant's name and fields in
/// order (`["Field", path, problem]`, `["InvalidJson", line, column, message]`,
/// `["SchemaVersion"]` or `["SchemaVersion", found]`, `["OutOfRange", path, value, allowed]`,
/// `["Inconsistent", path, problem]`). Only strings cross, so the page reads them with the
/// decoders it already has (`Vec<String>` and, inside, the very `JobSheet` / `Catalog` readers
/// of storage) and links no second copy.
pub fn result_to_json(result: &ReadResult) -> String {
    let parts: Vec<String> = match result {
        Ok(ReadDone::Sheet(s)) => vec!["Sheet".into(), json(s)],
        Ok(ReadDone::Catalog {
            catalog,
            sheet: false,
        }) => vec!["Catalog".into(), json(catalog)],
        Ok(ReadDone::Catalog {
            catalog,
            sheet: true,
        }) => vec!["SheetAsCatalog".into(), json(catalog)],
        // A shared process crosses as a one-process catalog, so the page reads it with the
        // catalog reader it already has.
        Ok(ReadDone::Shared(share)) => {
            let (kind, catalog) = match &share.content {
                Shared::Process(p) => {
                    let mut c = Catalog::new("");
                    c.processes.push((**p).clone());
                    ("process", c)
                }
                Shared::Catalog(c) => ("catalog", c.clone()),
            };
            vec![
                "Shared".into(),
                share.lang.code().into(),
                kind.into(),
                json(&catalog),
            ]
        }
        Ok(ReadDone::Refused { en, ja }) => {
            vec!["Refused".into(), en.clone(), ja.clone()]
        }
        Ok(ReadDone::Audited { catalog }) => {
            vec!["Audited".into(), json(catalog)]
        }
        Ok(ReadDone::AuditRefused { en, ja }) => {
            vec!["AuditRefused".into(), en.clone(), ja.clone()]
        }
        Err(ImportError::InvalidJson {
            line,
            column,
            message,
        }) => vec![
            "InvalidJson".into(),
            line.to_string(),
            column.to_string(),
            message.clone(),
        ],
        #[cfg(not(feature = "embed"))]
        Err(ImportError::NotASheet { found }) => vec!["NotASheet".into(), found.clone()],
        Err(ImportError::SchemaVersion { found }) => std::iter::once("SchemaVersion".to_owned())
            .chain(found.clone())
            .collect(),
        Err(ImportError::Field { path, problem }) => {
            vec!["Field".into(), path.clone(), problem.clone()]
        }
        Err(ImportError::OutOfRange {
            path,
            value,
            allowed,
        }) => vec![
            "OutOfRange".into(),
            path.clone(),
            value.clone(),
            allowed.clone(),
        ],
        Err(ImportError::Inconsistent { path, problem }) => {
            vec!["Inconsistent".into(), path.clone(), problem.clone()]
        }
    };
    json(&parts)
}

/// A model's JSON text (the models hold strings, numbers, bools, lists and structs only:
/// serialising cannot fail).
fn json<T: Serialize>(model: &T) -> String {
    crate::domain::json::compact(model)
}

impl ReadDone {
    /// Reads the worker's answer ([`result_to_json`]'s list) with the plain model readers and
    /// checks the meaning again ([`check_sheet`], [`check_catalog`]), so the page takes in
    /// nothing it would not store.
    ///
    /// # Errors
    /// The outer `Err`: a message when `text` is not such a list (`serde_json`'s words for a
    /// model that does not decode). The inner `Err`: the file's problem, or the first problem
    /// the checks find.
    pub fn from_reply(text: &str) -> Result<ReadResult, String> {
        let parts: Vec<String> = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let catalog = |json: &str, sheet: bool| -> Result<ReadResult, String> {
            let catalog: Catalog = serde_json::from_str(json).map_err(|e| e.to_string())?;
            Ok(check_catalog(&catalog).map(|()| ReadDone::Catalog { catalog, sheet }))
        };
        let number = |s: &str| s.parse::<usize>().map_err(|e| e.to_string());
        let refused = |e: ImportError| Ok(Err(e));
        match parts.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["Sheet", json] => {
                let sheet: JobSheet = serde_json::from_str(json).map_err(|e| e.to_string())?;
                Ok(check_sheet(&sheet).map(|()| ReadDone::Sheet(Box::new(sheet))))
            }
            ["Catalog", json] => catalog(json, false),
            ["SheetAsCatalog", json] => catalog(json, true),
            ["Shared", lang, kind, json] => {
                let lang = Lang::parse(lang).map_err(|e| e.to_string())?;
                let mut catalog: Catalog = serde_json::from_str(json).map_err(|e| e.to_string())?;
                if let Err(e) = check_catalog(&catalog) {
                    return Ok(Err(e));
                }
                let content = match (kind, catalog.processes.len()) {
                    ("catalog", _) => Shared::Catalog(catalog),
                    ("process", 1) => Shared::Process(Box::new(catalog.processes.remove(0))),
                    _ => return Err(format!("not a shared process or catalog: {kind}")),
                };
                Ok(Ok(ReadDone::Shared(Box::new(Share { lang, content }))))
            }
            ["Audited", catalog_json] => {
                let catalog: Catalog =
                    serde_json::from_str(catalog_json).map_err(|e| e.to_string())?;
                if let Err(e) = check_catalog(&catalog) {
                    return Ok(Err(e));
                }
                if catalog.processes.iter().any(|p| p.audit.is_none()) {
                    return Err("a process of the audit holds no audit record".into());
                }
                Ok(Ok(ReadDone::Audited { catalog }))
            }
            ["AuditRefused", en, ja] => Ok(Ok(ReadDone::AuditRefused {
                en: en.to_owned(),
                ja: ja.to_owned(),
            })),
            ["Refused", en, ja] => Ok(Ok(ReadDone::Refused {
                en: en.to_owned(),
                ja: ja.to_owned(),
            })),
            ["InvalidJson", line, column, message] => refused(ImportError::InvalidJson {
                line: number(line)?,
                column: number(column)?,
                message: message.to_owned(),
            }),
            #[cfg(not(feature = "embed"))]
            ["NotASheet", found] => refused(ImportError::NotASheet {
                found: found.to_owned(),
            }),
            ["SchemaVersion"] => refused(ImportError::SchemaVersion { found: None }),
            ["SchemaVersion", found] => refused(ImportError::SchemaVersion {
                found: Some(found.to_owned()),
            }),
            ["Field", path, problem] => refused(ImportError::Field {
                path: path.to_owned(),
                problem: problem.to_owned(),
            }),
            ["OutOfRange", path, value, allowed] => refused(ImportError::OutOfRange {
                path: path.to_owned(),
                value: value.to_owned(),
                allowed: allowed.to_owned(),
            }),
            ["Inconsistent", path, problem] => refused(ImportError::Inconsistent {
                path: path.to_owned(),
                problem: problem.to_owned(),
            }),
            _ => Err(format!(
                "not an answer to a read: {}",
                parts.first().map_or("(empty)", String::as_str)
            )),
        }
    }
}

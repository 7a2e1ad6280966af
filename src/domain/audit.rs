//! Existing configurations read back (issue 27 item 2): `modality-advisor audit FILE…` and the
//! app's "Check an existing configuration". Readers per file kind turn a file into
//! [`found::Found`] jobs; each becomes a sheet (what the file does not say marked "not
//! stated"), the schedule the system really runs (the targets' own formulas,
//! [`crate::domain::queues`]) and the findings, each pointing at the file's line.
//!
//! | file | reader | system |
//! |---|---|---|
//! | `*.tf` (HCL) | [`terraform`] | `sqs` |
//! | Terraform JSON (`*.tf.json`, CDK for Terraform's output) | [`terraform_json`] | `sqs` |
//! | CloudFormation YAML / JSON (`Resources` of `AWS::` types) | [`cloudformation`] | `sqs` |
//! | Kubernetes `Job` / `CronJob` YAML (multi-document) | [`kubernetes`] | `kubernetes` |
//! | Cloud Tasks queue (API YAML / JSON, App Engine `queue.yaml`) | [`cloud_tasks`] | `cloud-tasks` |
//! | Celery / Sidekiq / Active Job / Oban / River / BullMQ / pg-boss / Temporal code (literal options) | [`code`] | the library's |
//!
//! Limits: [`found::MAX_FILE_BYTES`] per file, [`found::MAX_DEPTH`] levels of nesting, and
//! [`yaml::MAX_NODES`] YAML nodes with aliases counted expanded.

pub mod cloud_tasks;
pub mod cloudformation;
pub mod code;
mod code_defaults;
mod code_job;
pub mod elsewhere;
pub mod found;
pub mod job;
pub mod job_version;
pub mod kubernetes;
pub mod pins;
pub mod record;
pub mod schedule_line;
pub mod setting;
pub mod terraform;
pub mod terraform_json;
pub mod to_catalog;
pub mod traps;
pub mod tree;
pub mod unchecked;
pub mod yaml;

use crate::domain::lang::Lang;
use found::{Found, ReadError, MAX_FILE_BYTES};
pub use job::{audit_job, audit_job_for, AuditJob};

/// Which reader read a file (for "no queue or job found" and the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// Terraform HCL.
    Terraform,
    /// A CloudFormation template.
    CloudFormation,
    /// Kubernetes manifests.
    Kubernetes,
    /// A Cloud Tasks queue.
    CloudTasks,
    /// Queue code read by the literal scanners ([`code`]).
    Code,
}

/// The jobs `text` (the file `file_name`, whose extension picks the HCL reader) defines, and
/// which reader read it.
///
/// # Errors
/// [`ReadError::TooLarge`] past [`MAX_FILE_BYTES`]; [`ReadError::Binary`] for a NUL byte;
/// the readers' [`ReadError::Syntax`] / [`ReadError::TooDeep`]; [`ReadError::Unrecognised`]
/// when no reader knows the file.
pub fn read(file_name: &str, text: &str) -> Result<(FileKind, Vec<Found>), ReadError> {
    let text = found::readable_text(text)?;
    let lower = file_name.to_ascii_lowercase();
    // A name that says nothing (pasted text, "Empty: told from the text"): the text decides.
    let unnamed = !code::knows(file_name)
        && ![".tf", ".hcl", ".yaml", ".yml", ".template"]
            .iter()
            .any(|e| lower.ends_with(e));
    if lower.ends_with(".tf") || lower.ends_with(".hcl") || unnamed && looks_like_hcl(text) {
        return terraform::read(text).map(|j| (FileKind::Terraform, j));
    }
    let structured = [".yaml", ".yml", ".json", ".template"]
        .iter()
        .any(|e| lower.ends_with(e));
    // JSON is read by the YAML reader, which takes what JSON refuses (a trailing comma): a
    // JSON file is held to JSON first, as AWS and Terraform hold it; unnamed text that opens
    // as JSON is, once a configuration reader knows it (pasted code such as a BullMQ options
    // object is not JSON and goes to the code scanners).
    if lower.ends_with(".json") {
        pins::structured::json(text)?;
    }
    let json_error = || -> Result<(), ReadError> {
        if unnamed && text.trim_start().starts_with(['{', '[']) {
            pins::structured::json(text)?;
        }
        Ok(())
    };
    let mut yaml_error = None;
    match yaml::documents(text) {
        Ok(docs) => {
            if let Some(read) = configuration(&docs) {
                json_error()?;
                return read;
            }
        }
        Err(e) if structured => return Err(e),
        Err(e) => yaml_error = Some(e),
    }
    // A file none of the configuration readers recognises goes to the code scanners
    // (Celery, Sidekiq, Active Job, Oban, River, BullMQ, pg-boss, Temporal literals).
    match (code::read(file_name, text), yaml_error) {
        // Unnamed text laid out as YAML or JSON that none of them knows: its syntax error
        // (a mistake in a pasted manifest), not "not a configuration".
        (Err(ReadError::Unrecognised), _)
            if crate::domain::export::not_read::is_simulator_config(text) =>
        {
            Err(ReadError::SimulatorConfig)
        }
        (Err(ReadError::Unrecognised), Some(e)) if unnamed && looks_structured(text) => Err(e),
        (read, _) => read.map(|j| (FileKind::Code, j)),
    }
}

/// The jobs of YAML or JSON documents a configuration reader knows (CloudFormation,
/// Kubernetes, Cloud Tasks, Terraform JSON; a Kubernetes object that is no Job: none), and
/// which reader read them; `None` when none knows them.
fn configuration(docs: &[tree::Node]) -> Option<Result<(FileKind, Vec<Found>), ReadError>> {
    if docs.iter().any(cloudformation::is_template) {
        let jobs = docs
            .iter()
            .filter(|d| cloudformation::is_template(d))
            .map(cloudformation::read)
            .collect::<Result<Vec<_>, _>>()
            .map(|j| (FileKind::CloudFormation, j.into_iter().flatten().collect()));
        return Some(jobs);
    }
    if docs.iter().any(kubernetes::is_manifest) {
        return Some(kubernetes::read(docs).map(|j| (FileKind::Kubernetes, j)));
    }
    if docs.iter().any(cloud_tasks::is_queue) {
        return Some(cloud_tasks::read(docs).map(|j| (FileKind::CloudTasks, j)));
    }
    if docs.iter().any(terraform_json::is_config) {
        return Some(terraform_json::read(docs).map(|j| (FileKind::Terraform, j)));
    }
    // Another Kubernetes object (a Deployment, a Service …): a manifest with no Job or CronJob
    // in it, said as such rather than "not a configuration".
    docs.iter()
        .any(kubernetes::is_other_object)
        .then(|| Ok((FileKind::Kubernetes, Vec::new())))
}

/// Whether unnamed text reads as Terraform: a line opening one of its top-level blocks
/// (`resource "…"`, `provider "…"`, `terraform {` …).
fn looks_like_hcl(text: &str) -> bool {
    const BLOCKS: [&str; 8] = [
        "resource \"",
        "data \"",
        "provider \"",
        "module \"",
        "variable \"",
        "output \"",
        "terraform {",
        "locals {",
    ];
    text.lines()
        .any(|l| BLOCKS.iter().any(|b| l.trim_start().starts_with(b)))
}

/// Whether unnamed text is laid out as YAML or JSON: its first line that is neither blank
/// nor a comment opens a document (`---`), an object or a list (`{`, `[`), or a mapping key
/// (`name:`), which no code the scanners read begins with.
fn looks_structured(text: &str) -> bool {
    let Some(first) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    if ["---", "{", "[", "- "].iter().any(|p| first.starts_with(p)) {
        return true;
    }
    let key = first.split(':').next().unwrap_or_default();
    first.contains(':')
        && !key.is_empty()
        && key
            .trim_matches(|c| c == '"' || c == '\'')
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
}

/// The jobs of a file as bytes (the CLI's): refused when larger than [`MAX_FILE_BYTES`] or
/// not UTF-8 text, else [`read`].
///
/// # Errors
/// As [`read`]; [`ReadError::Binary`] for bytes that are not UTF-8.
pub fn read_bytes(file_name: &str, bytes: &[u8]) -> Result<(FileKind, Vec<Found>), ReadError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            bytes: bytes.len() as u64,
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| ReadError::Binary)?;
    read(file_name, text)
}

/// Every job of `text` audited (file named `file` in the reports), texts in `lang`.
///
/// # Errors
/// As [`read`].
pub fn audit(file: &str, text: &str, lang: Lang) -> Result<(FileKind, Vec<AuditJob>), ReadError> {
    let (kind, found) = read(file, text)?;
    Ok((
        kind,
        found.iter().map(|f| audit_job(file, f, lang)).collect(),
    ))
}

impl ReadError {
    /// The message in `lang`, naming the limit or the parser's complaint.
    pub fn message(&self, lang: Lang) -> String {
        use crate::text::t;
        let l = lang.code();
        match self {
            ReadError::TooLarge { bytes } => t!(
                "audit.error.too-large",
                locale = l,
                size = crate::domain::number::file_size(*bytes, lang),
                max = crate::domain::number::file_size(MAX_FILE_BYTES, lang)
            )
            .into_owned(),
            ReadError::Binary => t!("audit.error.binary", locale = l).into_owned(),
            // The complaint in plain words where the reader knows its kind; else the
            // parser's own (English) message.
            ReadError::Syntax {
                reason: Some(key), ..
            } => t!(
                "audit.error.syntax",
                locale = l,
                message = t!(key, locale = l)
            )
            .into_owned(),
            // Terraform's (hcl-edit's) messages are put into Japanese part by part; any
            // other stays as its parser wrote it.
            ReadError::Syntax { message, .. } => {
                let said = match lang {
                    Lang::Ja => terraform::words_ja(message),
                    Lang::En => None,
                };
                let message = said.as_deref().unwrap_or(message);
                t!("audit.error.syntax", locale = l, message = message).into_owned()
            }
            ReadError::TooDeep { .. } => t!(
                "audit.error.too-deep",
                locale = l,
                depth = found::MAX_DEPTH,
                nodes = yaml::MAX_NODES
            )
            .into_owned(),
            ReadError::Unrecognised => t!("audit.error.unrecognised", locale = l).into_owned(),
            ReadError::SimulatorConfig => {
                t!("audit.error.simulator-config", locale = l).into_owned()
            }
        }
    }

    /// Where, when known.
    pub fn at(&self) -> Option<found::Pos> {
        match self {
            ReadError::Syntax { at, .. } | ReadError::TooDeep { at } => Some(*at),
            _ => None,
        }
    }
}

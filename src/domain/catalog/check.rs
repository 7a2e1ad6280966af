//! Reading a catalog file: every limit checked, every problem an [`ImportError`] naming the
//! field (a JSON path such as `processes[2].sheet.retry.max_attempts`) and what is allowed.
//! Nothing is built from a file that does not check out.
//!
//! The order of the checks, each stopping at the first problem:
//!
//! 1. the size of the text, at most [`MAX_FILE_BYTES`] (before anything is parsed);
//! 2. JSON syntax (line and column), after skipping a byte-order mark;
//! 3. `catalog_version`, exactly [`CATALOG_VERSION`];
//! 4. the number of processes, at most [`MAX_PROCESSES`] (before any process is decoded);
//! 5. the shape: every field present, of its type, no unknown field anywhere (the decoder's
//!    path, e.g. `processes[3].sheet.retry.lease_ms`);
//! 6. the meaning ([`check_catalog`], which storage applies too): names, ids, times, answers,
//!    the stored outcome, each sheet with the sheet's own checks, the simulator's choices,
//!    the links (count, ids, actors' names; a link to a deleted process is kept).
//!
//! The simulator's choices are read **strictly** here (a session is lenient and replaces a
//! bad part by its default, [`SimChoice::from_value`]): a file is an exchange format, and a
//! value silently replaced would make the catalog read back different from the file. A
//! preset, variant, job count or knob the simulator would not take is an error naming it.

use crate::domain::catalog::origin::{AuditOrigin, MAX_FILE_CHARS, MAX_NOTES, MAX_NOTE_CHARS};
use crate::domain::catalog::system::{Link, Other, MAX_LINKS};
use crate::domain::catalog::{Catalog, Process, CATALOG_VERSION, MAX_FILE_BYTES};
use crate::domain::catalog::{MAX_NAME_CHARS, MAX_PROCESSES};
use crate::domain::flowchart::{evaluate, Outcome};
use crate::domain::number::group_thousands;
use crate::domain::session::{sim_presets, sim_variants, SimChoice};
use crate::domain::sheet::import::{check_sheet, check_v1, field_error, versions, ImportError};
use crate::domain::sheet::prefill::prefill;
use crate::domain::sheet::{DecisionAnswer, JobSheet, OLDEST_SCHEMA_VERSION, SCHEMA_VERSION};
use crate::domain::sim::runner::MAX_LOAD_JOBS;
use crate::domain::sim::setup::knobs::KnobError;
use crate::domain::{Lang, QuestionId, Timing};
use serde_json::Value;

/// Reads a catalog file (UTF-8 JSON text, a leading byte-order mark skipped).
///
/// # Errors
/// [`ImportError`] naming the field and what is allowed (see the module docs for the order):
/// `file` for a text over [`MAX_FILE_BYTES`]; [`ImportError::InvalidJson`] with line and
/// column; `catalog_version` missing or not [`CATALOG_VERSION`]; `processes` over
/// [`MAX_PROCESSES`]; a missing, unknown or mistyped field by its path; then the first
/// problem [`check_catalog`] finds.
pub fn read_catalog(json: &str) -> Result<Catalog, ImportError> {
    if json.len() > MAX_FILE_BYTES {
        return Err(ImportError::OutOfRange {
            path: "file".into(),
            value: format!("{} bytes", group_thousands(json.len() as u64)),
            allowed: format!("at most {} bytes", group_thousands(MAX_FILE_BYTES as u64)),
        });
    }
    let value: Value = crate::domain::sheet::import::file_value(json)?;
    #[cfg(not(feature = "embed"))]
    crate::domain::sheet::import::not_an_object(&value)?;
    match value.get("catalog_version") {
        Some(v) if v.as_u64() == Some(u64::from(CATALOG_VERSION)) => {}
        Some(v) => return Err(version_error(v.to_string())),
        None => {
            return Err(ImportError::Field {
                path: "catalog_version".into(),
                problem: format!("missing; this field is required (allowed: {CATALOG_VERSION})"),
            })
        }
    }
    if let Some(list) = value.get("processes").and_then(Value::as_array) {
        processes_count(list.len())?;
        for (i, p) in list.iter().enumerate() {
            if let Some(sheet) = p.get("sheet") {
                crate::domain::sheet::load::check_shape(sheet, &format!("processes[{i}].sheet."))?;
            }
        }
    }
    let catalog: Catalog = crate::domain::json::decode(&value)
        .map_err(|e| decode_error(e.path().to_string(), e.inner().to_string()))?;
    // Fields the model has no place for (serde drops unknown fields of the simulator's
    // choices, which a saved session reads leniently) would not read back: refuse them.
    // Written as text and read back rather than with `to_value`: the same keys, and no third
    // copy of the model's writer in the document worker (crate::domain::json).
    let written = serde_json::from_str::<Value>(&crate::domain::json::compact(&catalog))
        .unwrap_or(Value::Null);
    if let Some(path) = dropped_field(&value, &written, String::new()) {
        return Err(ImportError::Field {
            path,
            problem: "unknown field; allowed: the fields of the catalog format".into(),
        });
    }
    // The model reads simulator choices leniently (storage must never lose a catalog over
    // them); a file is held to them strictly, from its own text.
    for (i, raw) in value
        .get("processes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(raw) = raw.get("sim").filter(|v| !v.is_null()) {
            let at = format!("processes[{i}].sim");
            let strict: SimChoice = crate::domain::json::decode(raw)
                .map_err(|e| decode_error(format!("{at}.{}", e.path()), e.inner().to_string()))?;
            sim(&at, &strict)?;
        }
    }
    check_catalog(&catalog)?;
    Ok(catalog)
}

fn version_error(found: String) -> ImportError {
    ImportError::OutOfRange {
        path: "catalog_version".into(),
        value: found,
        allowed: CATALOG_VERSION.to_string(),
    }
}

fn processes_count(n: usize) -> Result<(), ImportError> {
    if n > MAX_PROCESSES {
        return Err(ImportError::OutOfRange {
            path: "processes".into(),
            value: format!("{} items", group_thousands(n as u64)),
            allowed: format!("at most {MAX_PROCESSES} items"),
        });
    }
    Ok(())
}

/// A decoder error, named by its full path; the number fields of a sheet
/// (`processes[i].sheet.…`) get the sheet's own ranges, as a sheet file's would.
fn decode_error(path: String, problem: String) -> ImportError {
    let split = path
        .find(".sheet.")
        .filter(|_| path.starts_with("processes["))
        .map(|i| i + ".sheet.".len());
    let Some(at) = split else {
        return field_error(path, problem);
    };
    let (prefix, rest) = path.split_at(at);
    match field_error(rest.to_owned(), problem) {
        ImportError::Field { path, problem } => ImportError::Field {
            path: format!("{prefix}{path}"),
            problem,
        },
        other => other,
    }
}

/// The path of the first object key of `read` that `written` does not hold (a `null` may be
/// left out: optional fields are written only when set).
fn dropped_field(read: &Value, written: &Value, path: String) -> Option<String> {
    match (read, written) {
        (Value::Object(r), Value::Object(w)) => r.iter().find_map(|(k, v)| {
            let here = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            match w.get(k) {
                Some(wv) => dropped_field(v, wv, here),
                None if v.is_null() => None,
                None => Some(here),
            }
        }),
        (Value::Array(r), Value::Array(w)) => r
            .iter()
            .zip(w)
            .enumerate()
            .find_map(|(i, (rv, wv))| dropped_field(rv, wv, format!("{path}[{i}]"))),
        _ => None,
    }
}

/// Checks every limit of a catalog already in memory: what [`read_catalog`] checks after
/// decoding (storage applies it to what it reads back).
///
/// # Errors
/// The first problem, naming the field: `catalog_version`; `name` over [`MAX_NAME_CHARS`]
/// characters; `processes` over [`MAX_PROCESSES`]; then per process `processes[i].…`: an id
/// not well formed ([`ProcessId::is_valid`](super::ProcessId::is_valid)) or used twice, a
/// name too long, `updated_ms` before `created_ms`, answers that do not hold together, an
/// `outcome` other than the one the answers give, a sheet that does not check out, simulator
/// choices the simulator would not take.
pub fn check_catalog(c: &Catalog) -> Result<(), ImportError> {
    if c.catalog_version != CATALOG_VERSION {
        return Err(version_error(c.catalog_version.to_string()));
    }
    name("name", &c.name)?;
    processes_count(c.processes.len())?;
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in c.processes.iter().enumerate() {
        let at = format!("processes[{i}]");
        if !super::ProcessId::is_valid(p.id.as_str()) {
            return Err(ImportError::OutOfRange {
                path: format!("{at}.id"),
                value: format!("{:?}", p.id.as_str()),
                allowed: "1 to 40 characters of a-z, 0-9 and -".into(),
            });
        }
        if !seen.insert(&p.id) {
            return Err(ImportError::Inconsistent {
                path: format!("{at}.id"),
                problem: format!(
                    "{} is used twice; allowed: an id unique in the catalog",
                    p.id
                ),
            });
        }
        check_process(&at, p)?;
    }
    Ok(())
}

fn name(path: &str, s: &str) -> Result<(), ImportError> {
    let n = s.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(ImportError::OutOfRange {
            path: path.to_owned(),
            value: format!("{} characters", group_thousands(n as u64)),
            allowed: format!("at most {MAX_NAME_CHARS} characters"),
        });
    }
    Ok(())
}

fn check_process(at: &str, p: &Process) -> Result<(), ImportError> {
    name(&format!("{at}.name"), &p.name)?;
    if p.updated_ms < p.created_ms {
        return Err(ImportError::Inconsistent {
            path: format!("{at}.updated_ms"),
            problem: format!(
                "{} is before created_ms {}; allowed: created_ms or later",
                p.updated_ms, p.created_ms
            ),
        });
    }
    answers(&format!("{at}.answers"), &p.answers)?;
    let given = evaluate(&p.answers()).outcome();
    if given != p.outcome {
        let word = |o: Option<Outcome>| o.map_or("null (undecided)", |o| o.id());
        return Err(ImportError::Inconsistent {
            path: format!("{at}.outcome"),
            problem: format!(
                "{} does not follow from the answers; they give {}",
                word(p.outcome),
                word(given)
            ),
        });
    }
    if let Some(s) = &p.sheet {
        sheet(&format!("{at}.sheet"), s)?;
    }
    // The embed page's build keeps no simulator choices (`session::skipped_sim`): nothing to
    // check, and its wasm does not carry the simulator's checks and their texts.
    #[cfg(not(feature = "embed"))]
    if let Some(s) = &p.sim {
        sim(&format!("{at}.sim"), s)?;
    }
    links(&format!("{at}.links"), &p.links)?;
    match p.audit_record() {
        Some(a) => audit(&format!("{at}.audit"), a),
        None => Ok(()),
    }
}

/// The audit record's limits ([`super::origin`]): the file name at most
/// [`MAX_FILE_CHARS`] characters, the line 1 or more, the system a target's name and the
/// version one of its ranges, as many notes in English as in Japanese (at most
/// [`MAX_NOTES`], each at most [`MAX_NOTE_CHARS`] characters), and no more findings counted
/// than notes.
fn audit(at: &str, a: &AuditOrigin) -> Result<(), ImportError> {
    let out = |field: &str, value: String, allowed: String| ImportError::OutOfRange {
        path: format!("{at}.{field}"),
        value,
        allowed,
    };
    let chars = |s: &str| format!("{} characters", group_thousands(s.chars().count() as u64));
    if a.file.chars().count() > MAX_FILE_CHARS {
        return Err(out(
            "file",
            chars(&a.file),
            format!(
                "at most {} characters",
                group_thousands(MAX_FILE_CHARS as u64)
            ),
        ));
    }
    if a.line == 0 {
        return Err(out("line", "0".into(), "1 to 4,294,967,295".into()));
    }
    let shown = |s: &str| format!("{:?}", s.chars().take(40).collect::<String>());
    let Some(target) = a.target() else {
        return Err(out(
            "system",
            shown(&a.system),
            "a queue system's name (see `targets`)".into(),
        ));
    };
    if let Some(v) = &a.version {
        if a.target_version().is_none() {
            let names: Vec<&str> = target.versions().iter().map(|v| v.name()).collect();
            let allowed = match names.is_empty() {
                true => format!("absent ({} has one version range)", target.name()),
                false => names.join(", "),
            };
            return Err(out("version", shown(v), allowed));
        }
    }
    for (field, notes) in [("en", &a.en), ("ja", &a.ja)] {
        if notes.len() > MAX_NOTES {
            let n = format!("{} items", notes.len());
            return Err(out(field, n, format!("at most {MAX_NOTES} items")));
        }
        if let Some(i) = notes
            .iter()
            .position(|n| n.chars().count() > MAX_NOTE_CHARS)
        {
            let allowed = format!(
                "at most {} characters",
                group_thousands(MAX_NOTE_CHARS as u64)
            );
            return Err(out(&format!("{field}[{i}]"), chars(&notes[i]), allowed));
        }
    }
    if a.en.len() != a.ja.len() {
        let n = |v: &Vec<String>| format!("{} items", v.len());
        return Err(out("ja", n(&a.ja), n(&a.en)));
    }
    let counted = u64::from(a.errors) + u64::from(a.warnings);
    if counted > a.en.len() as u64 {
        let value = format!("{} + {}", a.errors, a.warnings);
        return Err(out("errors", value, format!("0 to {}", a.en.len())));
    }
    Ok(())
}

/// The links' limits: at most [`MAX_LINKS`], each process id well formed, each actor's name
/// at most [`MAX_NAME_CHARS`] characters. A link to a process the catalog does not have is
/// kept (it is a finding, [`super::system::findings`], not an error: nothing is lost).
fn links(at: &str, list: &[Link]) -> Result<(), ImportError> {
    if list.len() > MAX_LINKS {
        return Err(ImportError::OutOfRange {
            path: at.to_owned(),
            value: format!("{} items", list.len()),
            allowed: format!("at most {MAX_LINKS} items"),
        });
    }
    for (i, link) in list.iter().enumerate() {
        match &link.other {
            Other::Process(id) if !super::ProcessId::is_valid(id.as_str()) => {
                return Err(ImportError::OutOfRange {
                    path: format!("{at}[{i}].other.process"),
                    value: format!("{:?}", id.as_str()),
                    allowed: "1 to 40 characters of a-z, 0-9 and -".into(),
                });
            }
            Other::Actor(a) => name(&format!("{at}[{i}].other.actor.name"), &a.name)?,
            Other::Process(_) => {}
        }
    }
    Ok(())
}

/// The checks a saved session applies to its answers: no question twice, timing numbers only
/// on `within-seconds`, in range and agreeing with the answer.
fn answers(at: &str, list: &[DecisionAnswer]) -> Result<(), ImportError> {
    let mut seen = Vec::new();
    for (i, a) in list.iter().enumerate() {
        if seen.contains(&a.question) {
            return Err(ImportError::Inconsistent {
                path: format!("{at}[{i}]"),
                problem: format!(
                    "{} is answered twice; allowed: one answer per question",
                    a.question.id()
                ),
            });
        }
        seen.push(a.question);
        let Some(t) = a.timing else { continue };
        if a.question != QuestionId::WithinSeconds {
            return Err(ImportError::Inconsistent {
                path: format!("{at}[{i}].timing"),
                problem: "timing is allowed on within-seconds only".into(),
            });
        }
        Timing::new(t.target_ms, t.p95_ms).map_err(|e| ImportError::Field {
            path: format!("{at}[{i}].timing"),
            problem: e.to_string(),
        })?;
        if t.within() != a.answer {
            return Err(ImportError::Inconsistent {
                path: format!("{at}[{i}].answer"),
                problem: format!("{} but the answer is {}", t.comparison(Lang::En), a.answer),
            });
        }
    }
    Ok(())
}

/// A sheet held by a process: the sheet's own ranges ([`check_sheet`]), its decision (a
/// complete walk giving its outcome) and its sections (exactly those of the outcome), as a
/// sheet file is checked on import. Paths are prefixed with `at` (`processes[i].sheet`).
fn sheet(at: &str, s: &JobSheet) -> Result<(), ImportError> {
    if !(OLDEST_SCHEMA_VERSION..=SCHEMA_VERSION).contains(&s.schema_version) {
        return Err(ImportError::OutOfRange {
            path: format!("{at}.schema_version"),
            value: s.schema_version.to_string(),
            allowed: versions(),
        });
    }
    if s.schema_version == 1 {
        check_v1(s.retry.as_ref()).map_err(|e| prefixed(at, e))?;
    }
    if s.schema_version < 3 && s.load.is_some() {
        return Err(ImportError::Inconsistent {
            path: format!("{at}.load"),
            problem: format!(
                "needs schema_version {SCHEMA_VERSION}; the sheet says {}",
                s.schema_version
            ),
        });
    }
    check_sheet(s).map_err(|e| prefixed(at, e))?;
    answers(&format!("{at}.decision.answers"), &s.decision.answers)?;
    let outcome = crate::domain::sheet::import::decided_outcome(
        &format!("{at}.decision"),
        &s.decision.answers,
    )?;
    if outcome != s.decision.outcome {
        return Err(ImportError::Inconsistent {
            path: format!("{at}.decision.outcome"),
            problem: format!(
                "{} does not follow from the answers; they give {}",
                s.decision.outcome.id(),
                outcome.id()
            ),
        });
    }
    let wanted = prefill(s.process.clone(), s.decision.clone(), Lang::En);
    for (section, present, needed) in [
        ("retry", s.retry.is_some(), wanted.retry.is_some()),
        ("failure", s.failure.is_some(), wanted.failure.is_some()),
        ("ticket", s.ticket.is_some(), wanted.ticket.is_some()),
        ("batch", s.batch.is_some(), wanted.batch.is_some()),
        ("sync", s.sync.is_some(), wanted.sync.is_some()),
        // An asynchronous sheet of schema 1 or 2 has no load section: "not sized yet".
        (
            "load",
            s.load.is_some(),
            wanted.load.is_some() && s.load.is_some(),
        ),
    ] {
        if present != needed {
            let allowed = if needed {
                "missing; required by outcome"
            } else {
                "does not apply to outcome"
            };
            let tail = if needed { "" } else { "; allowed: null" };
            return Err(ImportError::Inconsistent {
                path: format!("{at}.{section}"),
                problem: format!("{allowed} {}{tail}", outcome.id()),
            });
        }
    }
    Ok(())
}

/// `e` with its path under `at` (`processes[2].sheet` + `retry.lease_ms`).
fn prefixed(at: &str, e: ImportError) -> ImportError {
    e.map_path(|path| format!("{at}.{path}"))
}

/// The simulator's choices, strictly: each part must be one the simulator takes (what
/// [`SimChoice::from_value`] would keep rather than replace by its default).
fn sim(at: &str, s: &SimChoice) -> Result<(), ImportError> {
    let presets = sim_presets();
    if !presets.contains(&s.preset.as_str()) {
        return Err(ImportError::OutOfRange {
            path: format!("{at}.preset"),
            value: format!("{:?}", s.preset),
            allowed: format!("one of {}", presets.join(", ")),
        });
    }
    let variants = sim_variants(&s.preset);
    if !variants.contains(&s.variant.as_str()) {
        return Err(ImportError::OutOfRange {
            path: format!("{at}.variant"),
            value: format!("{:?}", s.variant),
            allowed: format!("one of {}", variants.join(", ")),
        });
    }
    if !(1..=MAX_LOAD_JOBS).contains(&s.jobs) {
        return Err(ImportError::OutOfRange {
            path: format!("{at}.jobs"),
            value: s.jobs.to_string(),
            allowed: format!("1 to {MAX_LOAD_JOBS}"),
        });
    }
    let knob = s.custom.as_ref().and_then(|c| {
        c.validate()
            .into_iter()
            .find(|e| matches!(e, KnobError::OutOfRange { .. }))
    });
    if let Some(e) = knob {
        return Err(ImportError::Inconsistent {
            path: format!("{at}.custom"),
            problem: format!("{} ({})", e.message(Lang::En), e.knob().id()),
        });
    }
    Ok(())
}

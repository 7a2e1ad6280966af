//! Bringing a file into the catalog: a single sheet file becomes a process
//! ([`read_sheet_as_process`]); a catalog file is previewed ([`plan_import`]: what would be
//! added, replaced, kept) and then merged or put in place of the current one
//! ([`apply_import`]). Pure: the page shows the plan and applies the user's choice; nothing is
//! changed on error.

use crate::domain::catalog::{Catalog, Process, ProcessId, MAX_NAME_CHARS, MAX_PROCESSES};
use crate::domain::number::group_thousands;
use crate::domain::sheet::import::{import_json, ImportError};
use crate::domain::Lang;

/// Reads a single sheet file (the sheet format, [`import_json`]) as a new process: named
/// after the sheet's process name (trimmed; `id` when empty), its answers the sheet's
/// decision, the sheet itself, created and last edited at `now_ms`.
///
/// # Errors
/// What [`import_json`] refuses (paths of the sheet file, e.g. `retry.lease_ms`), or
/// `process.process_name` over [`MAX_NAME_CHARS`] characters (a process name's limit).
pub fn read_sheet_as_process(
    json: &str,
    lang: Lang,
    id: ProcessId,
    now_ms: u64,
) -> Result<Process, ImportError> {
    let sheet = import_json(json, lang)?;
    let name = sheet.process.process_name.trim();
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(ImportError::OutOfRange {
            path: "process.process_name".into(),
            value: format!("{} characters", group_thousands(n as u64)),
            allowed: format!("at most {MAX_NAME_CHARS} characters"),
        });
    }
    let name = if name.is_empty() {
        id.as_str().to_owned()
    } else {
        name.to_owned()
    };
    let mut p = Process::new(id, &name, now_ms);
    p.set_answers(&sheet.decision.to_answers());
    p.sheet = Some(sheet);
    Ok(p)
}

/// A process as the preview lists it: its id and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The process's id.
    pub id: ProcessId,
    /// Its name in the incoming file (in the current catalog for [`ImportPlan::dropped`]).
    pub name: String,
}

/// What importing a catalog would do, for the preview (each list in the incoming order,
/// [`ImportPlan::dropped`] in the current order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ImportPlan {
    /// Ids the current catalog does not have: appended by a merge.
    pub added: Vec<Entry>,
    /// Ids the current catalog has, with different work ([`Process::same_work`]): replaced
    /// in place by a merge.
    pub replaced: Vec<Entry>,
    /// Ids the current catalog has with the same work: a merge leaves them as they are.
    pub unchanged: Vec<Entry>,
    /// Current processes the incoming file does not have: kept by a merge, gone after a
    /// replace.
    pub dropped: Vec<Entry>,
    /// Processes after a merge: more than [`MAX_PROCESSES`] means a merge is refused.
    pub merged_count: usize,
}

/// How an import is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportMode {
    /// Same id: the incoming process replaces the current one in place; new ids are appended
    /// in the incoming order; the current name and the other processes stay.
    Merge,
    /// The incoming catalog, whole (name and processes).
    Replace,
}

/// The preview of importing `incoming` into `current`.
pub fn plan_import(current: &Catalog, incoming: &Catalog) -> ImportPlan {
    let mut plan = ImportPlan::default();
    for p in &incoming.processes {
        let entry = Entry {
            id: p.id.clone(),
            name: p.name.clone(),
        };
        match current.get(&p.id) {
            None => plan.added.push(entry),
            Some(c) if c.same_work(p) => plan.unchanged.push(entry),
            Some(_) => plan.replaced.push(entry),
        }
    }
    plan.dropped = current
        .processes
        .iter()
        .filter(|c| incoming.get(&c.id).is_none())
        .map(|c| Entry {
            id: c.id.clone(),
            name: c.name.clone(),
        })
        .collect();
    plan.merged_count = current.processes.len() + plan.added.len();
    plan
}

/// The catalog after importing `incoming` into `current` with `mode` (both already checked,
/// e.g. by [`read_catalog`](super::check::read_catalog)).
///
/// # Errors
/// A merge that would hold more than [`MAX_PROCESSES`] processes: `processes`, the count and
/// the limit (nothing is changed; a replace never fails).
pub fn apply_import(
    current: &Catalog,
    incoming: &Catalog,
    mode: ImportMode,
) -> Result<Catalog, ImportError> {
    if mode == ImportMode::Replace {
        return Ok(incoming.clone());
    }
    let mut out = current.clone();
    for p in &incoming.processes {
        match out.get_mut(&p.id) {
            Some(c) if c.same_work(p) => {}
            Some(c) => *c = p.clone(),
            None => out.processes.push(p.clone()),
        }
    }
    if out.processes.len() > MAX_PROCESSES {
        return Err(ImportError::OutOfRange {
            path: "processes".into(),
            value: format!("{} items", out.processes.len()),
            allowed: format!("at most {MAX_PROCESSES} items"),
        });
    }
    Ok(out)
}

//! Two tabs, one process: the three-way merge of one process field by field
//! ([`merge_fields`]), used by [`super::sync`] when both tabs changed the same process, and the
//! name a person reads for a field ([`field_label`]).
//!
//! Each field of the process as this tab last saw it in storage (the *base*) is compared with
//! this tab's version (*mine*) and storage's (*theirs*): a field changed on one side only is
//! taken from that side; a field changed on both sides to different values is a *conflict*:
//! this tab shows its own value, storage keeps the other tab's, until the user chooses. A field
//! is a leaf of the process's JSON form (`sheet.failure.notify`, `name`, `answers`): objects
//! are merged key by key, anything else (a text, a number, a list) as a whole.

use super::{Catalog, Process, CATALOG_VERSION};
use crate::domain::sheet::inputs::label_of;
use crate::domain::Lang;
use crate::text::t;
use serde_json::{Map, Value};

/// What [`merge_fields`] decided for one process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldMerge {
    /// What this tab shows: both sides' changes, its own value where they conflict.
    pub mine: Process,
    /// What storage keeps: both sides' changes, the other tab's value where they conflict.
    pub theirs: Process,
    /// The fields changed on both sides to different values (dotted paths of the process's
    /// JSON form, e.g. `sheet.failure.notify`), in the process's field order.
    pub conflicts: Vec<String>,
}

/// Merges `mine` and `theirs` field by field against `base` (what this tab last saw in
/// storage). `held` are fields already in conflict: they stay in conflict (this tab's value
/// shown, storage's kept) until both sides hold the same value. `updated_ms` is never a
/// conflict: both results carry the later of the two. `None` when the merged process does not
/// check out as a process of a catalog (answers from one side that do not fit a sheet from the
/// other): the caller then holds the whole process.
pub fn merge_fields(
    base: &Process,
    mine: &Process,
    theirs: &Process,
    held: &[String],
) -> Option<FieldMerge> {
    // Through the JSON text the page already writes and reads (no second serialiser in the
    // page's wasm).
    let value = |p: &Process| serde_json::from_str::<Value>(&crate::domain::json::compact(p)).ok();
    let (b, m, t) = (value(base)?, value(mine)?, value(theirs)?);
    let mut conflicts = Vec::new();
    let (shown, kept) = merge(Some(&b), Some(&m), Some(&t), "", held, &mut conflicts);
    let process = |v: Option<Value>| -> Option<Process> {
        let mut p: Process = serde_json::from_str(&v?.to_string()).ok()?;
        p.updated_ms = mine.updated_ms.max(theirs.updated_ms);
        let one = Catalog {
            catalog_version: CATALOG_VERSION,
            name: String::new(),
            processes: vec![p],
        };
        super::check::check_catalog(&one).ok()?;
        one.processes.into_iter().next()
    };
    Some(FieldMerge {
        mine: process(shown)?,
        theirs: process(kept)?,
        conflicts,
    })
}

/// One field (at `path`) merged: (this tab's view, storage's), `None` for a field absent on
/// that side. Objects present on every side that has the field are merged key by key.
fn merge(
    b: Option<&Value>,
    m: Option<&Value>,
    t: Option<&Value>,
    path: &str,
    held: &[String],
    conflicts: &mut Vec<String>,
) -> (Option<Value>, Option<Value>) {
    match (b, m, t) {
        (Some(Value::Object(bo)), Some(Value::Object(mo)), Some(Value::Object(to))) => {
            object(Some(bo), mo, to, path, held, conflicts)
        }
        (None, Some(Value::Object(mo)), Some(Value::Object(to))) => {
            object(None, mo, to, path, held, conflicts)
        }
        _ => leaf(b, m, t, path, held, conflicts),
    }
}

fn object(
    b: Option<&Map<String, Value>>,
    m: &Map<String, Value>,
    t: &Map<String, Value>,
    path: &str,
    held: &[String],
    conflicts: &mut Vec<String>,
) -> (Option<Value>, Option<Value>) {
    let mut keys: Vec<&String> = Vec::new();
    for k in m
        .keys()
        .chain(t.keys())
        .chain(b.into_iter().flat_map(Map::keys))
    {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let (mut shown, mut kept) = (Map::new(), Map::new());
    for k in keys {
        let at = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        let (s, st) = if at == "updated_ms" {
            // Never a conflict: the caller sets the time of the write.
            (m.get(k).cloned(), t.get(k).cloned())
        } else {
            merge(
                b.and_then(|b| b.get(k)),
                m.get(k),
                t.get(k),
                &at,
                held,
                conflicts,
            )
        };
        if let Some(s) = s {
            shown.insert(k.clone(), s);
        }
        if let Some(st) = st {
            kept.insert(k.clone(), st);
        }
    }
    (Some(Value::Object(shown)), Some(Value::Object(kept)))
}

fn leaf(
    b: Option<&Value>,
    m: Option<&Value>,
    t: Option<&Value>,
    path: &str,
    held: &[String],
    conflicts: &mut Vec<String>,
) -> (Option<Value>, Option<Value>) {
    let own = |v: Option<&Value>| v.cloned();
    if m == t {
        return (own(m), own(t));
    }
    if !held.iter().any(|h| h == path) {
        if m == b {
            return (own(t), own(t));
        }
        if t == b {
            return (own(m), own(m));
        }
    }
    conflicts.push(path.to_owned());
    (own(m), own(t))
}

/// The name of the field at `path` ([`FieldMerge::conflicts`]) a person reads, in `lang`: the
/// sheet form's label of its input (`sheet.failure.notify` → "Notify"), "Process name" for the
/// name, and a word for the answers, the links, the simulator's choices and the audit's record.
pub fn field_label(path: &str, lang: Lang) -> String {
    let l = lang.code();
    let top = path.split('.').next().unwrap_or(path);
    match top {
        "name" => return label_of("process-name", lang),
        "answers" | "outcome" => return t!("keep.field-answers", locale = l).into_owned(),
        "links" => return t!("keep.field-links", locale = l).into_owned(),
        "sim" => return t!("keep.field-sim", locale = l).into_owned(),
        "audit" => return t!("keep.field-audit", locale = l).into_owned(),
        _ => {}
    }
    let last = path.rsplit('.').next().unwrap_or(path).replace('_', "-");
    label_of(&last, lang)
}

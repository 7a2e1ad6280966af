//! Two tabs, one storage: the catalog as the browser keeps it ([`Stored`], with revision
//! numbers) and the three-way merge every write goes through ([`sync`]).
//!
//! A tab remembers what storage held when it last read or wrote it (its *base*). Before it
//! writes, it reads storage again and merges per process:
//!
//! | this tab changed it (vs base) | another tab did (revision moved) | result |
//! |---|---|---|
//! | no | no / yes | storage's version (another tab's edit arrives here) |
//! | yes | no | this tab's version, at the new revision |
//! | yes | yes, to the same work | storage's version |
//! | yes | yes, differently | merged **field by field** ([`super::field_merge`]): a field changed on one side only comes from that side; a field changed on both sides differently is a **conflict**: storage keeps the other tab's value, this tab keeps its own on screen, until the user chooses |
//!
//! A process with conflicting fields is *held* ([`Held`], naming the fields): those fields
//! stay out of every write until the user resolves them ("load the other tab's version" or
//! "keep mine"); the rest of its fields merge as above. A process deleted in one tab and
//! changed (or open) in the other is held whole. The catalog's name and order merge likewise
//! (this tab's order wins when it changed it; processes only the other tab has are kept,
//! appended).

use super::field_merge::merge_fields;
use crate::domain::catalog::{Catalog, Process, ProcessId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The storage format written by this build (`store_version`).
pub const STORE_VERSION: u32 = 1;

/// The catalog as local storage keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stored {
    /// Always [`STORE_VERSION`].
    pub store_version: u32,
    /// Bumped by every write (0: never written).
    pub revision: u64,
    /// Per process, the revision of the write that last changed it.
    pub revisions: BTreeMap<ProcessId, u64>,
    /// The revision of the write that last changed the catalog's name or order.
    pub order_revision: u64,
    /// The catalog itself.
    pub catalog: Catalog,
}

impl Stored {
    /// What a browser that has stored nothing yet starts from: `catalog` at revision 0.
    pub fn initial(catalog: Catalog) -> Stored {
        Stored {
            store_version: STORE_VERSION,
            revision: 0,
            revisions: catalog
                .processes
                .iter()
                .map(|p| (p.id.clone(), 0))
                .collect(),
            order_revision: 0,
            catalog,
        }
    }

    /// As JSON (plain strings and numbers: serialising cannot fail).
    pub fn to_json(&self) -> String {
        crate::domain::json::compact(self)
    }

    /// Reads what storage holds; `None` when it is not this format (another version, broken
    /// JSON, or a catalog that does not check out: [`super::check::check_catalog`]).
    pub fn from_json(json: &str) -> Option<Stored> {
        let s: Stored = serde_json::from_str(json).ok()?;
        // A load section written as an array would read as an empty one: not this build's.
        if s.catalog
            .processes
            .iter()
            .any(|p| p.sheet.as_ref().is_some_and(|x| x.load.is_some()))
        {
            let v: serde_json::Value = serde_json::from_str(json).ok()?;
            let list = v["catalog"]["processes"].as_array()?;
            for p in list.iter().filter_map(|p| p.get("sheet")) {
                crate::domain::sheet::load::check_shape(p, "").ok()?;
            }
        }
        if s.store_version != STORE_VERSION {
            return None;
        }
        super::check::check_catalog(&s.catalog).ok()?;
        Some(s)
    }

    fn rev(&self, id: &ProcessId) -> Option<u64> {
        self.revisions.get(id).copied()
    }
}

/// A process this tab holds back from storage: changed here and in another tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// The process.
    pub id: ProcessId,
    /// The fields changed on both sides to different values (dotted paths,
    /// [`super::field_merge::FieldMerge::conflicts`]); empty when the whole process is held
    /// (deleted on one side, or a merge that does not check out).
    pub fields: Vec<String>,
}

/// What [`sync`] decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synced {
    /// What to write to storage; `None` when storage already holds everything this tab may
    /// write (nothing changed here, or only held processes did).
    pub write: Option<Stored>,
    /// What storage holds once `write` is written: the tab's new base.
    pub base: Stored,
    /// What the tab shows: the merged catalog, with held processes as this tab has them.
    pub catalog: Catalog,
    /// Processes this tab holds back (earlier conflicts still unresolved, and new ones), in
    /// catalog order, with their conflicting fields.
    pub held: Vec<Held>,
}

/// Merges this tab's catalog (`mine`) with what storage holds now (`stored`; `None` when
/// storage holds nothing readable: this tab's work is written whole), given what storage held
/// when this tab last synced (`base`). `held` are the processes already in conflict, `open`
/// the process on screen in this tab (held whole, not dropped, when another tab deletes it). Processes this tab
/// changed get `updated_ms = now_ms` (Unix milliseconds, from the caller's clock).
pub fn sync(
    stored: Option<&Stored>,
    base: &Stored,
    mine: &Catalog,
    held: &[Held],
    open: Option<&ProcessId>,
    now_ms: u64,
) -> Synced {
    let theirs = stored.unwrap_or(base);
    let next_rev = theirs.revision.max(base.revision) + 1;
    let (result, shown, now_held) = merge_processes(theirs, base, mine, held, open, now_ms);
    let order_changed_here = mine.name != base.catalog.name || order(mine) != order(&base.catalog);
    let (name, first) = if order_changed_here {
        (mine.name.clone(), mine)
    } else {
        (theirs.catalog.name.clone(), &theirs.catalog)
    };
    let ordered = |keys: Vec<&ProcessId>| merge_order(first, &theirs.catalog, keys);
    let result_order: Vec<ProcessId> = ordered(result.keys().collect())
        .into_iter()
        .filter(|id| result.contains_key(id))
        .collect();
    let shown_order: Vec<ProcessId> = ordered(shown.keys().collect())
        .into_iter()
        .filter(|id| shown.contains_key(id))
        .collect();
    let written = Stored {
        store_version: super::sync::STORE_VERSION,
        revision: next_rev,
        revisions: result.iter().map(|(id, (_, r))| (id.clone(), *r)).collect(),
        order_revision: if order_changed_here {
            next_rev
        } else {
            theirs.order_revision
        },
        catalog: Catalog {
            catalog_version: mine.catalog_version,
            name: name.clone(),
            processes: result_order
                .iter()
                .filter_map(|id| result.get(id).map(|(p, _)| p.clone()))
                .collect(),
        },
    };
    let needed = written.catalog != theirs.catalog
        || written.revisions != theirs.revisions
        || stored.is_none();
    let (write, base) = if needed {
        (Some(written.clone()), written)
    } else {
        (None, theirs.clone())
    };
    let catalog = Catalog {
        catalog_version: mine.catalog_version,
        name,
        processes: shown_order
            .iter()
            .filter_map(|id| shown.get(id).cloned())
            .collect(),
    };
    let held = catalog
        .processes
        .iter()
        .filter_map(|p| now_held.iter().find(|h| h.id == p.id).cloned())
        .collect();
    Synced {
        write,
        base,
        catalog,
        held,
    }
}

/// Per process: storage's version with its revision (what is written), this tab's view (what
/// is shown), and the processes held back.
type Merged = (
    BTreeMap<ProcessId, (Process, u64)>,
    BTreeMap<ProcessId, Process>,
    Vec<Held>,
);

/// The per-process table of the module's header, applied to every process any side has.
fn merge_processes(
    theirs: &Stored,
    base: &Stored,
    mine: &Catalog,
    held: &[Held],
    open: Option<&ProcessId>,
    now_ms: u64,
) -> Merged {
    let next_rev = theirs.revision.max(base.revision) + 1;
    let mut ids: Vec<&ProcessId> = Vec::new();
    for p in mine
        .processes
        .iter()
        .chain(&theirs.catalog.processes)
        .chain(&base.catalog.processes)
    {
        if !ids.contains(&&p.id) {
            ids.push(&p.id);
        }
    }
    let mut result: BTreeMap<ProcessId, (Process, u64)> = BTreeMap::new();
    let mut shown: BTreeMap<ProcessId, Process> = BTreeMap::new();
    let mut now_held = Vec::new();
    for id in ids {
        let (b, m, t) = (base.catalog.get(id), mine.get(id), theirs.catalog.get(id));
        // A write of this tab's that storage no longer shows (another tab wrote over it in the
        // same instant, from an older read) counts as this tab's change again.
        let lost = m.is_some()
            && base.rev(id).is_some_and(|mine_rev| match theirs.rev(id) {
                Some(r) => r < mine_rev,
                None => theirs.revision <= base.revision,
            });
        let mine_changed = !same(b, m) || lost;
        let theirs_changed =
            !lost && (base.rev(id) != theirs.rev(id) || b.is_some() != t.is_some());
        let keep_theirs = |result: &mut BTreeMap<ProcessId, (Process, u64)>| {
            if let (Some(t), Some(rev)) = (t, theirs.rev(id)) {
                result.insert(id.clone(), (t.clone(), rev));
            }
        };
        let was_held = held.iter().find(|h| h.id == *id);
        let fields = match (b, m, t) {
            (Some(b), Some(m), Some(t))
                if was_held.is_some_and(|h| !h.fields.is_empty())
                    || (was_held.is_none()
                        && mine_changed
                        && theirs_changed
                        && !same(Some(m), Some(t))) =>
            {
                let fields = was_held.map_or(&[][..], |h| &h.fields[..]);
                merge_fields(b, m, t, fields)
            }
            _ => None,
        };
        if let Some(f) = fields {
            if same(Some(&f.theirs), t) {
                keep_theirs(&mut result);
            } else {
                let mut kept = f.theirs.clone();
                kept.updated_ms = now_ms.max(kept.updated_ms);
                result.insert(id.clone(), (kept, next_rev));
            }
            shown.insert(id.clone(), f.mine);
            if !f.conflicts.is_empty() {
                now_held.push(Held {
                    id: id.clone(),
                    fields: f.conflicts,
                });
            }
            continue;
        }
        let conflict = was_held.is_some()
            || (mine_changed && theirs_changed && !same(m, t))
            || (!mine_changed && theirs_changed && open == Some(id) && m.is_some() && t.is_none());
        if conflict {
            keep_theirs(&mut result);
            match m {
                Some(m) => {
                    shown.insert(id.clone(), m.clone());
                    now_held.push(Held {
                        id: id.clone(),
                        fields: Vec::new(),
                    });
                }
                // Deleted here, edited elsewhere: the edit wins and comes back.
                None => {
                    if let Some(t) = t {
                        shown.insert(id.clone(), t.clone());
                    }
                }
            }
        } else if mine_changed && !theirs_changed {
            if let Some(m) = m {
                let mut m = m.clone();
                // Stamped with the time of the write, unless the change brought its own time
                // (a process added now, or imported with the file's times).
                if b.is_some_and(|b| b.updated_ms == m.updated_ms) {
                    m.updated_ms = now_ms;
                }
                shown.insert(id.clone(), m.clone());
                result.insert(id.clone(), (m, next_rev));
            }
        } else {
            keep_theirs(&mut result);
            if let Some(t) = t {
                shown.insert(id.clone(), t.clone());
            }
        }
    }
    (result, shown, now_held)
}

/// The order of the merged catalog: `first`'s order (this tab's when it reordered, added or
/// deleted, else storage's); processes it lacks go before their successor in storage's order
/// (at the end when none follows); any other `keys` at the end.
fn merge_order(first: &Catalog, theirs: &Catalog, keys: Vec<&ProcessId>) -> Vec<ProcessId> {
    let mut out: Vec<ProcessId> = order(first).into_iter().cloned().collect();
    let theirs_order = order(theirs);
    for (i, id) in theirs_order.iter().enumerate().rev() {
        if out.contains(id) {
            continue;
        }
        let before = theirs_order[i + 1..]
            .iter()
            .find_map(|next| out.iter().position(|o| o == *next));
        out.insert(before.unwrap_or(out.len()), (*id).clone());
    }
    for id in keys {
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    out
}

fn same(a: Option<&Process>, b: Option<&Process>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.same_work(b),
        _ => false,
    }
}

fn order(c: &Catalog) -> Vec<&ProcessId> {
    c.processes.iter().map(|p| &p.id).collect()
}

/// How a page starts ([`boot`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boot {
    /// What storage holds (or will hold after the first write): the tab's first base.
    pub base: Stored,
    /// The catalog to show.
    pub catalog: Catalog,
    /// Storage held a catalog this build cannot read: it must be set aside before the first
    /// write (nothing a user had is destroyed).
    pub set_aside: bool,
    /// The catalog was made from the single-process session of an older build.
    pub migrated: bool,
}

/// Where a page starts: the stored catalog (`stored_text`) when it reads; else the
/// single-process session older builds saved (`old_session`,
/// [`super::migrate::from_saved_session`]) as a one-process catalog; else one empty process named `first_name`. New ids come from `seed`,
/// times are `now_ms` (Unix ms), both from the caller.
pub fn boot(
    stored_text: Option<&str>,
    old_session: Option<&str>,
    first_name: &str,
    seed: u64,
    now_ms: u64,
) -> Boot {
    if let Some(stored) = stored_text.and_then(Stored::from_json) {
        return Boot {
            catalog: stored.catalog.clone(),
            base: stored,
            set_aside: false,
            migrated: false,
        };
    }
    let id = Catalog::default().fresh_id(seed);
    let migrated = old_session
        .and_then(|text| super::migrate::from_saved_session(text, id.clone(), first_name, now_ms));
    let session = migrated.is_some();
    let catalog = migrated.unwrap_or_else(|| {
        let mut c = Catalog::default();
        c.processes.push(Process::new(id, first_name, now_ms));
        c
    });
    Boot {
        base: Stored::initial(catalog.clone()),
        catalog,
        set_aside: stored_text.is_some(),
        migrated: session,
    }
}

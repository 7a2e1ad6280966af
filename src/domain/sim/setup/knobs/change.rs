//! Compare's one change to "Your settings" ([`Change`]): what it does to the settings and its
//! label, e.g. "Idempotency key: on → off".

use super::*;

/// One change for comparing "your settings" with a copy (B = A with this change).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Idempotency key switched (on → off or off → on).
    IdempotencyKey,
    /// Jitter switched (none → full, anything else → none).
    Jitter,
    /// Error classification switched.
    ClassifyErrors,
    /// B runs this many workers (brought into the knob's range, 1 ..=
    /// [`KNOB_WORKERS`](crate::domain::sim::setup::limits::KNOB_WORKERS)): 3 → 4 as well as
    /// 3 → 6.
    Workers(u32),
    /// Owner check switched.
    OwnerCheck,
    /// Acknowledge after the work ↔ before it.
    Ack,
}

impl Change {
    /// The changes of settings `a`, in menu order: the worker count's change is to one more
    /// worker than `a` runs (one fewer at the knob's maximum); Compare lets the count be
    /// edited ([`Change::Workers`]).
    pub fn all_for(a: &CustomRun) -> [Change; 6] {
        [
            Change::IdempotencyKey,
            Change::Jitter,
            Change::ClassifyErrors,
            Change::Workers(next_workers(a.workers)),
            Change::OwnerCheck,
            Change::Ack,
        ]
    }

    /// The stable id, e.g. `idempotency-key`, `workers` (locale keys, the worker's "why
    /// the same" line).
    pub fn id(self) -> &'static str {
        match self {
            Change::IdempotencyKey => "idempotency-key",
            Change::Jitter => "jitter",
            Change::ClassifyErrors => "classify-errors",
            Change::Workers(_) => "workers",
            Change::OwnerCheck => "owner-check",
            Change::Ack => "ack",
        }
    }
}

/// B's default worker count for A's `workers`: one more, or one fewer at the knob's maximum.
pub fn next_workers(workers: u32) -> u32 {
    let max = u32::try_from(crate::domain::sim::setup::limits::KNOB_WORKERS).unwrap_or(u32::MAX);
    if workers >= max {
        max.saturating_sub(1).max(1)
    } else {
        workers.saturating_add(1).max(1)
    }
}

impl CustomRun {
    /// A copy with one change, for comparing.
    pub fn changed(&self, change: Change) -> CustomRun {
        let mut c = self.clone();
        match change {
            Change::IdempotencyKey => c.idempotency_key = !c.idempotency_key,
            Change::Jitter => {
                c.jitter = if c.jitter == Jitter::None {
                    Jitter::Full
                } else {
                    Jitter::None
                }
            }
            Change::ClassifyErrors => c.classify_errors = !c.classify_errors,
            Change::Workers(n) => {
                let max = u32::try_from(crate::domain::sim::setup::limits::KNOB_WORKERS)
                    .unwrap_or(u32::MAX);
                c.workers = n.clamp(1, max);
            }
            Change::OwnerCheck => c.owner_check = !c.owner_check,
            Change::Ack => {
                c.ack = match c.ack {
                    Ack::After => Ack::Before,
                    Ack::Before => Ack::After,
                }
            }
        }
        c
    }

    /// What `change` does to these settings, e.g. "Idempotency key: on → off".
    pub fn change_label(&self, change: Change, lang: Lang) -> String {
        let b = self.changed(change);
        let l = lang.code();
        let onoff = |v: bool| t!(if v { "knobs.on" } else { "knobs.off" }, locale = l).into_owned();
        let (knob, from, to) = match change {
            Change::IdempotencyKey => (
                Knob::IdempotencyKey,
                onoff(self.idempotency_key),
                onoff(b.idempotency_key),
            ),
            Change::Jitter => (
                Knob::Jitter,
                jitter_name(self.jitter, lang),
                jitter_name(b.jitter, lang),
            ),
            Change::ClassifyErrors => (
                Knob::ClassifyErrors,
                onoff(self.classify_errors),
                onoff(b.classify_errors),
            ),
            Change::Workers(_) => (
                Knob::Workers,
                group_thousands(u64::from(self.workers)),
                group_thousands(u64::from(b.workers)),
            ),
            Change::OwnerCheck => (
                Knob::OwnerCheck,
                onoff(self.owner_check),
                onoff(b.owner_check),
            ),
            Change::Ack => {
                let name = |a: Ack| {
                    let id = if a == Ack::Before { "before" } else { "after" };
                    t!(format!("knobs.ack.{id}"), locale = l).into_owned()
                };
                (Knob::Ack, name(self.ack), name(b.ack))
            }
        };
        format!(
            "{}{}{from} → {to}",
            knob.label(lang),
            t!("ui.colon", locale = l)
        )
    }
}

/// A jitter's name in `lang` (`none`, `full`, …).
pub fn jitter_name(j: Jitter, lang: Lang) -> String {
    let id = serde_json::to_value(j)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    t!(format!("knobs.jitter.{id}"), locale = lang.code()).into_owned()
}

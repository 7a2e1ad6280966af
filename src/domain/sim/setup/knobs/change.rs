//! Compare's one change to "Your settings" ([`Change`]): what it does to the settings and its
//! label, e.g. "Idempotency key: on → off".

use super::*;

/// One change for comparing "your settings" with a copy (B = A with this change).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Idempotency key switched (on → off or off → on).
    IdempotencyKey,
    /// Jitter switched (none → full, anything else → none).
    Jitter,
    /// Error classification switched.
    ClassifyErrors,
    /// Twice the workers.
    DoubleWorkers,
    /// Owner check switched.
    OwnerCheck,
    /// Acknowledge after the work ↔ before it.
    Ack,
}

impl Change {
    /// All changes, in menu order.
    pub const ALL: [Change; 6] = [
        Change::IdempotencyKey,
        Change::Jitter,
        Change::ClassifyErrors,
        Change::DoubleWorkers,
        Change::OwnerCheck,
        Change::Ack,
    ];

    /// The stable id, e.g. `idempotency-key`.
    pub fn id(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
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
            Change::DoubleWorkers => c.workers = c.workers.saturating_mul(2).min(1_000),
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
            Change::DoubleWorkers => (
                Knob::Workers,
                self.workers.to_string(),
                b.workers.to_string(),
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

//! [`KnobError`]: a refused knob value, and its message naming the knob and the allowed
//! range in English or Japanese.

use super::*;

/// A refused knob value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KnobError {
    /// Outside the knob's [`Knob::range`] (or a mode's narrower range).
    OutOfRange {
        /// The knob.
        knob: Knob,
        /// The value given.
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// Must be shorter than another knob's value (a heartbeat shorter than the lease it
    /// renews).
    NotBelow {
        /// The knob.
        knob: Knob,
        /// The value given.
        value: u64,
        /// The knob it must stay below.
        other: Knob,
        /// That knob's value.
        ceiling: u64,
    },
    /// Must be at least another knob's value (cap ≥ base, p95 ≥ p50, max ≥ min).
    Below {
        /// The knob.
        knob: Knob,
        /// The value given.
        value: u64,
        /// The knob it must not be below.
        other: Knob,
        /// That knob's value.
        floor: u64,
    },
}

impl KnobError {
    /// The knob the finding is about.
    pub fn knob(&self) -> Knob {
        match self {
            KnobError::OutOfRange { knob, .. }
            | KnobError::Below { knob, .. }
            | KnobError::NotBelow { knob, .. } => *knob,
        }
    }

    /// The message in `lang`, naming the knob and the allowed range, e.g. "Max attempts: 0 is
    /// out of range; allowed 1 attempt – 100 attempts."
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        match *self {
            KnobError::OutOfRange {
                knob,
                value,
                min,
                max,
            } => {
                let unit = knob.range().map_or(Unit::Count("plain"), |r| r.0);
                t!(
                    "knobs.error.range",
                    locale = l,
                    knob = knob.label(lang),
                    value = with_unit(unit, value, lang),
                    min = with_unit(unit, min, lang),
                    max = with_unit(unit, max, lang)
                )
                .into_owned()
            }
            KnobError::NotBelow {
                knob,
                value,
                other,
                ceiling,
            } => t!(
                "knobs.error.not-below",
                locale = l,
                knob = knob.label(lang),
                value = with_unit(Unit::Ms, value, lang),
                other = other.label(lang),
                max = with_unit(Unit::Ms, ceiling.saturating_sub(1), lang)
            )
            .into_owned(),
            KnobError::Below {
                knob,
                value,
                other,
                floor,
            } => {
                let unit = knob.range().map_or(Unit::Count("plain"), |r| r.0);
                let max = knob.range().map_or(floor, |r| r.2);
                t!(
                    "knobs.error.below",
                    locale = l,
                    knob = knob.label(lang),
                    value = with_unit(unit, value, lang),
                    other = other.label(lang),
                    min = with_unit(unit, floor, lang),
                    max = with_unit(unit, max, lang)
                )
                .into_owned()
            }
        }
    }
}

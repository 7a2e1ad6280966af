//! The one mapping-row helper of the thirteen targets: a row of the field-by-field mapping, a
//! gap, and the row every target adds when the sheet names other layers that retry. Each
//! target gives its own keys, texts and values (a tidy test, `tests/it/tidy.rs`, holds the
//! targets' modules to these constructors).

use super::{Gap, Instead, MappingRow};
use crate::domain::sheet::{FieldId, RetrySpec};

/// A mapping row: the sheet's `field` with its value as text (`sheet`), the target's `key`,
/// the `value` written for it (empty when nothing is written) and the `note` (may be empty).
pub(crate) fn row(
    field: FieldId,
    sheet: String,
    key: &str,
    value: String,
    note: String,
) -> MappingRow {
    MappingRow {
        field,
        sheet,
        key: key.to_owned(),
        value,
        note,
        lease: false,
    }
}

/// The lease row of the sheet's `timeout` field (the lease / visibility timeout, as text in
/// `sheet`), with the target's `key`, `value` and `note` as in [`row`].
pub(crate) fn lease_row(sheet: String, key: &str, value: String, note: String) -> MappingRow {
    MappingRow {
        lease: true,
        ..row(FieldId::Timeout, sheet, key, value, note)
    }
}

/// A gap: what of the sheet's `field` the target cannot express (`what`), what the export does
/// `instead`, and how (`detail`, may be empty).
pub(crate) fn gap(field: FieldId, what: String, instead: Instead, detail: String) -> Gap {
    Gap {
        field,
        what,
        instead,
        detail,
        lease: false,
    }
}

/// A gap about the timeout field's lease (the visibility timeout: how long a claim holds),
/// shown under the lease's name rather than the attempt timeout's.
pub(crate) fn lease_gap(what: String, instead: Instead, detail: String) -> Gap {
    Gap {
        lease: true,
        ..gap(FieldId::Timeout, what, instead, detail)
    }
}

/// The retry-layers row, when the sheet names other layers that retry (`None` otherwise): the
/// layers as the target shows them (`sheet`, from `r`), the target's `key` (may be empty) and
/// its `note` on the total calls (`r.total_calls()`), each given as a function so a sheet
/// without layers costs no text.
pub(crate) fn layers_row(
    r: &RetrySpec,
    sheet: impl FnOnce(&RetrySpec) -> String,
    key: &str,
    note: impl FnOnce(u64) -> String,
) -> Option<MappingRow> {
    if r.layers.is_empty() {
        return None;
    }
    Some(row(
        FieldId::RetryLayers,
        sheet(r),
        key,
        String::new(),
        note(r.total_calls()),
    ))
}

//! The export worker's answer to a configuration read
//! ([`ReadAs::Configuration`](crate::domain::export::read::ReadAs::Configuration)): the audit
//! runs in the target worker, which holds the queue systems' formulas (the page sends it
//! there). Apart from the audit's other modules so the export worker links no reader.

use crate::text::t;

/// Why the export worker does not audit, in English and in Japanese.
pub fn message() -> (String, String) {
    (
        t!("export.worker.audit-elsewhere", locale = "en").into_owned(),
        t!("export.worker.audit-elsewhere", locale = "ja").into_owned(),
    )
}

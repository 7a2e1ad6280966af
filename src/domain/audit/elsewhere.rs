//! The export protocol's answer to a configuration read
//! ([`ReadAs::Configuration`](crate::domain::export::read::ReadAs::Configuration)): the audit
//! runs in the targets' handler, which holds the queue systems' formulas (the document worker
//! routes it there, [`doc_worker`](crate::domain::export::doc_worker)). Apart from the audit's
//! other modules.

use crate::text::t;

/// Why the export worker does not audit, in English and in Japanese.
pub fn message() -> (String, String) {
    (
        t!("export.worker.audit-elsewhere", locale = "en").into_owned(),
        t!("export.worker.audit-elsewhere", locale = "ja").into_owned(),
    )
}

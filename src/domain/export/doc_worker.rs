//! The document worker's handler (`serve_documents` in `src/bin/sim-ui.rs`: the simulator module started in a Web Worker by `static/doc-worker-start.js`, one worker for every document
//! the page asks for): a queue target's configuration panel and an existing configuration to
//! audit go to [`target_worker::handle`](super::target_worker::handle), everything else —
//! exports, file reads, share panels — to [`protocol::handle`](super::protocol::handle).
//! One module rather than two (issue 28): the export and target workers each carried their own
//! standard library, serde code, domain and texts, and anyone who configures a queue loaded
//! both. Apart from both handlers so neither imports the other.

/// The whole worker: routes `text` (a request as JSON) by what it asks for and returns the
/// reply as JSON text. Never panics; an unreadable request gets the export protocol's `Err`
/// reply.
pub fn handle(text: &str) -> String {
    if asks_for_targets(text) {
        super::target_worker::handle(text)
    } else {
        super::protocol::handle(text)
    }
}

/// Whether `text` asks for a queue target's panel (`{"subject":{"Target":…}}`) or the audit of
/// an existing configuration (`{"read":{"Configuration":…}}`).
fn asks_for_targets(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| {
        v.pointer("/subject/Target").is_some() || v.pointer("/read/Configuration").is_some()
    })
}

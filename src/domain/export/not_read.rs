//! Files the document worker names instead of reading: the command-line simulator's
//! configuration given where a catalog or a sheet is read. A leaf module (it imports nothing
//! of `export`), so that `read` can call it; its text is the worker's
//! (`locales/worker/import.yml`), reached only from
//! [`ReadRequest::run`](super::read::ReadRequest::run) in the document worker.

use crate::text::t;

/// What `text` is and where it runs, (English, Japanese), when it is the command-line
/// simulator's configuration (`simulate --config`, as in `static/examples/*.config.json`: a
/// JSON object with `kinds` and `arrivals` and neither a catalog's nor a sheet's version);
/// `None` for any other text. Read as a catalog it was refused as "catalog_version: missing",
/// which does not say what the file is.
pub fn simulator_config(text: &str) -> Option<(String, String)> {
    let say = |l: &str| t!("import.simulator-config", locale = l).into_owned();
    is_simulator_config(text).then(|| (say("en"), say("ja")))
}

/// Whether `text` is the command-line simulator's configuration ([`simulator_config`]'s
/// test), for a reader that words it itself (the audit: `ReadError::SimulatorConfig`).
pub fn is_simulator_config(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}')).is_ok_and(|v| {
        v.get("kinds").is_some()
            && v.get("arrivals").is_some()
            && v.get("schema_version").is_none()
            && v.get("catalog_version").is_none()
    })
}

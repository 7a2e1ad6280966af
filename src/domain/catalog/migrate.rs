//! Upgrading what builds before the catalog stored: one process's session (local storage key
//! `modality-advisor.session`, the [`Session`] JSON) becomes a one-process catalog, keeping
//! its answers, sheet and simulator choices.

use crate::domain::catalog::check::check_catalog;
use crate::domain::catalog::{Catalog, Process, ProcessId, MAX_NAME_CHARS};
use crate::domain::session::Session;

/// The one-process catalog holding a saved session (`session_json`, as
/// [`Session::to_json`] wrote it): the process gets `id`, the sheet's process name (or
/// `fallback_name` when there is no sheet or its name is empty; cut to [`MAX_NAME_CHARS`]
/// characters, the sheet keeps the whole name), and `now_ms` as its creation and edit time.
/// The catalog's name is empty (the user names the system).
///
/// `None` when the text is not a session this build would load ([`Session::from_json`]:
/// not JSON, another version, answers or a sheet that do not check out) or the result would
/// not check out ([`check_catalog`], e.g. an `id` that is not well formed) — the caller then
/// starts from an empty catalog, as today's build starts from an empty session.
pub fn from_saved_session(
    session_json: &str,
    id: ProcessId,
    fallback_name: &str,
    now_ms: u64,
) -> Option<Catalog> {
    let session = Session::from_json(session_json)?;
    let mut p = Process::from_session(id, &session, fallback_name, now_ms);
    if p.name.chars().count() > MAX_NAME_CHARS {
        p.name = p.name.chars().take(MAX_NAME_CHARS).collect();
    }
    let mut c = Catalog::new("");
    c.processes.push(p);
    check_catalog(&c).ok()?;
    Some(c)
}

//! The queue targets' handler in the document worker (`serve_documents` in `src/bin/sim-ui.rs`, routed by
//! [`doc_worker`](super::doc_worker)): reads an export request whose
//! subject is a queue target and answers with the configuration panel
//! ([`target_panel`](super::target_panel)), or a read request of an existing configuration
//! and answers with the audit's new processes ([`crate::domain::audit`]). Apart from [`protocol`](super::protocol) so the
//! protocol's module and the panel's do not import each other.

use crate::text::t;

/// The targets' part of the document worker: reads an [`ExportRequest`](super::protocol::ExportRequest) whose subject is
/// [`ExportSubject::Target`](super::protocol::ExportSubject::Target) and returns the [`ExportReply`](super::protocol::ExportReply) as JSON text, its `Ok` text the
/// target panel ([`render`](super::target_panel::render)). Any other request gets an `Err` reply ([`doc_worker`](super::doc_worker)
/// sends those to [`handle`](super::protocol::handle)). Never panics.
pub fn handle(text: &str) -> String {
    use super::protocol::{bad_request, ExportReply, ExportRequest, ExportSubject};
    use super::read::{result_to_json, ReadAs, ReadRequest};
    // A configuration to audit ([`ReadAs::Configuration`]) comes as a read request.
    use crate::domain::json::TextError;
    let value = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => v,
        Err(e) => return bad_request(text, &TextError::Syntax(e)).to_json(),
    };
    if let Ok(request) = crate::domain::json::decode::<ReadRequest>(&value) {
        let result = match &request.read {
            ReadAs::Configuration {
                file_name,
                catalog_name,
                seed,
                now_ms,
                lock_files,
            } => Ok(crate::domain::audit::to_catalog::read(
                file_name,
                &request.text,
                lock_files,
                catalog_name,
                *seed,
                *now_ms,
                request.lang,
            )),
            _ => Err(t!("export.worker.not-a-target", locale = request.lang.code()).into_owned()),
        };
        let reply = ExportReply {
            id: request.id,
            result: result.map(|done| result_to_json(&Ok(done))),
        };
        return reply.to_json();
    }
    let reply = match crate::domain::json::decode::<ExportRequest>(&value) {
        Ok(ExportRequest {
            id,
            lang,
            subject:
                ExportSubject::Target {
                    sheet,
                    target,
                    format,
                    version,
                },
            now_ms,
            ..
        }) => ExportReply {
            id,
            result: Ok(super::target_panel::render_at(
                &sheet,
                (target, format, version),
                lang,
                now_ms,
            )
            .to_json()),
        },
        Ok(other) => ExportReply {
            id: other.id,
            result: Err(t!("export.worker.not-a-target", locale = other.lang.code()).into_owned()),
        },
        Err(e) => bad_request(text, &TextError::Field(e)),
    };
    reply.to_json()
}

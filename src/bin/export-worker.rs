//! The document Web Worker (built by Trunk with `data-type="worker"` and the `export` feature,
//! fetched on the page's first export, import, share or choice of a queue target): receives
//! an `ExportRequest` as JSON text, renders the sheet or catalog document or a queue target's
//! configuration panel, posts the `ExportReply` back; it also reads imported files (a
//! `ReadRequest`: the sheet or catalog file's text, answered with the file read and checked,
//! or its typed error) and audits an existing queue configuration. The exporters, the thirteen
//! targets, the audit's readers and the file readers live here rather than in the page's
//! wasm, which keeps them out of the first load; one module rather than an export worker and a
//! target worker, which carried the same standard library, serde code, domain and texts twice.
//! All logic is in `modality_advisor::domain::export::doc_worker`; this only moves strings.

#[cfg(target_arch = "wasm32")]
fn main() {
    use modality_advisor::domain::export::{doc_worker, protocol};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post_scope = scope.clone();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            let reply = doc_worker::handle(&text);
            let _ = post_scope.post_message(&JsValue::from_str(&reply));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
    // Tell the page that requests can come (it holds them until then).
    let _ = scope.post_message(&JsValue::from_str(protocol::EXPORT_WORKER_READY));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the export worker builds for wasm32 only: run `make serve`");
    std::process::exit(2);
}

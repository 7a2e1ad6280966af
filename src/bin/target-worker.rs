//! The target Web Worker (built by Trunk with `data-type="worker"` and the `targets` feature,
//! fetched when the sheet's "Configuration for" chooser is first used): receives an
//! `ExportRequest` whose subject is a queue target as JSON text, renders the configuration and
//! everything shown beside it (`domain::export::target_panel`), posts the `ExportReply` back.
//! The thirteen targets' exporters and their texts live here, apart from the export worker,
//! so a first Markdown copy does not fetch them. All logic is in
//! `modality_advisor::domain::export::target_worker::handle`; this only moves strings.

#[cfg(target_arch = "wasm32")]
fn main() {
    use modality_advisor::domain::export::{protocol, target_worker};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post_scope = scope.clone();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            let reply = target_worker::handle(&text);
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
    eprintln!("the target worker builds for wasm32 only: run `make serve`");
    std::process::exit(2);
}

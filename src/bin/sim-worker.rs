//! The simulation Web Worker (built by Trunk with `data-type="worker"`): receives a
//! `RunRequest` as JSON text, runs the queue engine, posts progress and the result back; keeps
//! the last run's event log and answers `LogRequest`s with slices of it. Its answers go in
//! the compact form `runner::wire` writes (the page reads them with `wire::decode`).
//! All logic is in `modality_advisor::domain::sim::runner`; this only moves strings.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post_scope = scope.clone();
    // The last finished run's event log lives here, answering the page's slice requests.
    // Runs are timed with the worker's wall clock (the page says how long the computation took).
    let mut state =
        modality_advisor::domain::sim::runner::WorkerState::with_clock(js_sys::Date::now);
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            let post = |s: String| {
                let _ = post_scope.post_message(&JsValue::from_str(&s));
            };
            let done = state.handle_wire(&text, 20_000, post);
            let _ = post_scope.post_message(&JsValue::from_str(&done));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
    // Tell the page that requests can come (it holds them until then).
    let _ = scope.post_message(&JsValue::from_str(
        modality_advisor::domain::sim::runner::WORKER_READY,
    ));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the simulation worker builds for wasm32 only: run `make serve`");
    std::process::exit(2);
}

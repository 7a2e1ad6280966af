//! The Yew single-page app (wasm32 only). Renders domain values and dispatches
//! [`state::Action`]s; holds no business rules. Only [`browser`] touches the browser (storage, DOM, timers, clipboard, files, workers).

pub mod app;
pub mod browser;
pub mod catalog;
pub mod catalog_io;
pub mod decide;
pub mod keeper;
pub mod rescue;
pub mod share;
pub mod sheet;
pub mod simulate;
pub mod simulator;
pub mod state;
pub mod system;

/// Installs the panic hook (a page in the app's language with "Copy diagnostics" and the
/// reload actions; through Yew, which otherwise puts its own in place when it renders),
/// removes index.html's loading text and mounts the app on `<body>` (the first render follows
/// in the same task).
pub fn start() {
    yew::set_custom_panic_hook(Box::new(on_panic));
    browser::remove_boot();
    yew::Renderer::<app::App>::new().render();
}

/// The panic hook: the panic page in the app's language ([`browser::panic_page`]), then the
/// latest state stored as the keeper stores it ([`keeper::store`]; not where storage only
/// lives in memory) and the diagnostics ([`rescue::diagnostics`]). All of it synchronous:
/// the module traps when the hook returns. The page is drawn first, so a failure in the later
/// steps still leaves it readable.
fn on_panic(info: &std::panic::PanicHookInfo) {
    let text = info.to_string();
    let ja = rescue::lang() == crate::domain::Lang::Ja;
    let Some(page) = browser::panic_page::show(ja, &text) else {
        return;
    };
    let stored = match rescue::latest() {
        (Some(state), Some(base)) => {
            !matches!(
                state.keeping,
                crate::domain::app_state::Keeping::MemoryOnly(_)
            ) && keeper::store(
                &state.catalog_now(),
                &state.held,
                rescue::protected(&state),
                &base,
            )
            .is_ok()
        }
        // Not booted yet: what storage holds is all there is.
        _ => true,
    };
    page.saved(stored, ja);
    page.diagnostics(&rescue::diagnostics(&text));
}

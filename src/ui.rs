//! The Yew single-page app (wasm32 only). Renders domain values and dispatches
//! [`state::Action`]s; holds no business rules. Only [`browser`] touches the browser (storage, DOM, timers, clipboard, files, workers).

pub mod app;
pub mod browser;
pub mod catalog;
pub mod catalog_io;
pub mod decide;
pub mod keeper;
pub mod share;
pub mod sheet;
pub mod simulate;
pub mod state;

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<app::App>::new().render();
}

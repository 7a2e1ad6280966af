//! The Yew single-page app (wasm32 only). Renders domain values and dispatches
//! [`state::Action`]s; holds no business rules. Only [`glue`] touches browser storage.

pub mod app;
pub mod chart;
pub mod event_log;
pub mod export_bar;
pub mod form;
pub mod glue;
pub mod print_view;
pub mod result;
pub mod sheet;
pub mod sim_charts;
pub mod sim_compare;
pub mod sim_knobs;
pub mod sim_result;
pub mod simulate;
pub mod state;
pub mod state_machine;
pub mod stepper;
pub mod timeline;
pub mod wizard;

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<app::App>::new().render();
}

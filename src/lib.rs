//! modality-advisor: decide per process between synchronous, asynchronous (queued job or
//! ticket) and scheduled batch processing, and explain the decision.
//!
//! * [`domain`] is pure Rust (no browser APIs, no clock, no global RNG). It holds the decision
//!   engine, its texts in Japanese and English, the flowchart diagrams rendered at build
//!   time, and the app's state machine ([`domain::app_state`]). It is tested natively and
//!   also compiles to wasm32.
//! * `ui` (wasm32 only) is the Yew single-page app. It renders domain values and dispatches
//!   actions; it holds no business rules.
#![deny(missing_docs)]

// Texts: `locales/**/*.yml`, embedded at compile time as one table per build (see [`text`]:
// each build, by its feature, embeds only the texts it shows). Every lookup passes its locale
// explicitly (see `domain::Lang`).
pub mod domain;

pub mod text;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod ui;

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

// Translations: `locales/**/*.yml`, embedded at compile time. Every lookup passes its locale
// explicitly (see `domain::Lang`); the crate's global locale is never used. rust-i18n puts
// every file it loads into every binary, so the page (built with the `page` feature, see
// index.html) loads only `locales/page/`; the texts only the workers, the embed page and
// the CLI render (`locales/worker/`: share panel and cards, link errors, CLI) stay out of the
// page's first load. `tests/it/locale_keys.rs` holds the page away from those keys.
// The embed page (the `embed` feature, see embed.html) embeds `locales-embed/`: links to the
// files its card reads (decisions, sheet rows and findings, the card's and the link's texts).
// The simulation worker (the `sim` feature, see index.html) embeds `locales-sim/`: the texts
// of the charts and the worker timeline it draws (before it drew them it used no text, and
// the linker left the whole table out). The export worker (the `export` feature) embeds
// `locales-export/`: every file but the queue targets'; the target worker (the `targets`
// feature) embeds `locales-targets/`: the targets' texts and the sheet's field names.
#[cfg(feature = "page")]
rust_i18n::i18n!("locales/page", fallback = "en");
#[cfg(all(feature = "embed", not(feature = "page")))]
rust_i18n::i18n!("locales-embed", fallback = "en");
#[cfg(all(feature = "sim", not(any(feature = "page", feature = "embed"))))]
rust_i18n::i18n!("locales-sim", fallback = "en");
#[cfg(all(
    feature = "export",
    not(any(feature = "page", feature = "embed", feature = "sim"))
))]
rust_i18n::i18n!("locales-export", fallback = "en");
#[cfg(all(
    feature = "targets",
    not(any(
        feature = "page",
        feature = "embed",
        feature = "sim",
        feature = "export"
    ))
))]
rust_i18n::i18n!("locales-targets", fallback = "en");
#[cfg(not(any(
    feature = "page",
    feature = "embed",
    feature = "sim",
    feature = "export",
    feature = "targets"
)))]
rust_i18n::i18n!("locales", fallback = "en");

pub mod domain;

pub mod text;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod ui;

//! The one place that touches browser APIs beyond rendering: local storage, the
//! browser's language list, downloads, the clipboard, files, printing, the simulation worker,
//! the export worker ([`export`], [`read_file_in_worker`]), the playback timer and the worker
//! timeline's cursor. Every failure
//! (storage disabled, private mode, permission refused) degrades or returns a message instead of
//! failing.
//!
//! Why this file is long: it is the one file allowed to touch the window, storage and timers
//! (`tests/it/tidy.rs`), so every browser call the page makes lives here, each short.

use crate::domain::Lang;

const LANG_KEY: &str = "modality-advisor.lang";
const SESSION_KEY: &str = "modality-advisor.session";
const CATALOG_KEY: &str = "modality-advisor.catalog";
const OPEN_KEY: &str = "modality-advisor.open";
/// The local storage key of the queue system last chosen under "Configuration for" (its
/// name, e.g. `sidekiq`).
const TARGET_KEY: &str = "modality-advisor.target";

/// Local storage (`local`: kept across visits) or this tab's session storage, where the
/// browser gives it.
fn store_of(local: bool) -> Option<web_sys::Storage> {
    let w = web_sys::window()?;
    if local {
        w.local_storage()
    } else {
        w.session_storage()
    }
    .ok()
    .flatten()
}

/// The text kept under `key` in local or session storage ([`store_of`]); `None` when there
/// is none or storage is unavailable.
fn kept(local: bool, key: &str) -> Option<String> {
    store_of(local)?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key` in local or session storage ([`store_of`]), or forgets it
/// (`None`); silently nothing where storage is unavailable or refuses.
fn keep(local: bool, key: &str, value: Option<&str>) {
    if let Some(s) = store_of(local) {
        let _ = match value {
            Some(v) => s.set_item(key, v),
            None => s.remove_item(key),
        };
    }
}

/// The language to start in: the one remembered from an earlier visit, else the browser's
/// preference (`navigator.languages`), else English.
pub fn initial_lang() -> Lang {
    if let Some(saved) = kept(true, LANG_KEY) {
        if let Ok(lang) = Lang::parse(&saved) {
            return lang;
        }
    }
    let Some(window) = web_sys::window() else {
        return Lang::En;
    };
    let navigator = window.navigator();
    let tags: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .chain(navigator.language())
        .collect();
    Lang::from_browser_tags(tags.iter().map(String::as_str))
}

/// Remembers `lang` for the next visit and sets `<html lang>` and the page title. Silently
/// does nothing where storage is unavailable.
pub fn remember_lang(lang: Lang) {
    keep(true, LANG_KEY, Some(lang.code()));
    if let Some(d) = web_sys::window().and_then(|w| w.document()) {
        d.set_title(&crate::text::t!("ui.page-title", locale = lang.code()));
    }
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", lang.code());
    }
}

pub use crate::domain::export::{file_name, file_stem};

pub mod panic_page;
mod share;
pub mod simulator;
pub mod viewport;
mod workers;
pub use share::{
    copy_html, focus_by_id, load_stylesheet, page_url, scroll_to_id, share_click, share_in_worker,
    show_if_hidden, ShareClick,
};
pub use workers::{export, read_file_in_worker, SimWorker};

/// Offers `content` as a file download named `filename` (a Blob and a temporary link).
///
/// # Errors
/// A message when the browser refuses (no document, Blob or object URL).
pub fn download(filename: &str, mime: &str, content: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser refused to create the file".to_owned())?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser refused to create a download link".to_owned())?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| "no document".to_owned())?;
    let a = document
        .create_element("a")
        .map_err(|_| "cannot create a link".to_owned())?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "cannot create a link".to_owned())?;
    a.set_href(&url);
    a.set_download(filename);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Copies `text` to the clipboard.
///
/// # Errors
/// A message in `lang` when the clipboard is unavailable or refused ([`clipboard_refused`]).
pub async fn copy_text(text: String, lang: Lang) -> Result<(), String> {
    let window = web_sys::window().ok_or_else(|| clipboard_refused(lang))?;
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| clipboard_refused(lang))
}

/// Why a copy did not happen, in `lang`: the browser refused the clipboard, most often because
/// the text took a few seconds to prepare (the document module loading on a slow network) and
/// the press no longer counts as the user's; a second press copies.
pub fn clipboard_refused(lang: Lang) -> String {
    crate::text::t!("sheet.ui.copy-refused", locale = lang.code()).into_owned()
}

/// Reads a chosen file as UTF-8 text.
///
/// # Errors
/// A message when the file cannot be read.
pub async fn read_file(file: web_sys::File) -> Result<String, String> {
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|_| "the file could not be read".to_owned())?;
    text.as_string()
        .ok_or_else(|| "the file is not text".to_owned())
}

/// Opens the browser's print dialog (Print → PDF gives the sheet on its own).
pub fn print() {
    if let Some(w) = web_sys::window() {
        let _ = w.print();
    }
}

/// The single-process session saved by builds before the catalog (kept where it is: the
/// catalog is written under its own key, so going back to an older build loses nothing).
pub fn saved_session_text() -> Option<String> {
    kept(true, SESSION_KEY)
}

/// Why local storage cannot be used, in the browser's words (blocked in a cross-site frame,
/// disabled, private mode).
fn storage_or_why() -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or_else(|| "no window".to_owned())?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("localStorage is not available".to_owned()),
        Err(e) => Err(js_message(&e)),
    }
}

fn js_message(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser refused".to_owned())
}

/// The catalog as stored (`None`: nothing stored yet).
///
/// # Errors
/// The browser's words when storage cannot be read (blocked, disabled, throwing).
pub fn read_catalog_text() -> Result<Option<String>, String> {
    storage_or_why()?
        .get_item(CATALOG_KEY)
        .map_err(|e| js_message(&e))
}

/// Stores the catalog.
///
/// # Errors
/// The browser's words when storage refuses (full, blocked, disabled).
pub fn write_catalog_text(text: &str) -> Result<(), String> {
    storage_or_why()?
        .set_item(CATALOG_KEY, text)
        .map_err(|e| js_message(&e))
}

/// Keeps a stored catalog this build cannot read (another version, damaged) under a key of its
/// own before anything is written over it, so nothing a user had is destroyed.
pub fn set_aside_catalog_text(text: &str) {
    keep(true, &format!("{CATALOG_KEY}.unreadable"), Some(text));
}

/// The session storage key the browser tests set to provoke a panic through the page
/// ([`crate::ui::rescue::test_panic`]).
pub const TEST_PANIC_KEY: &str = "modality-advisor:test-panic";

/// Whether session storage's [`TEST_PANIC_KEY`] holds `value`; if so the key is removed.
pub fn take_test_panic(value: &str) -> bool {
    let armed = kept(false, TEST_PANIC_KEY).as_deref() == Some(value);
    if armed {
        keep(false, TEST_PANIC_KEY, None);
    }
    armed
}

/// Removes index.html's loading text (`#boot`), just before the app's first render (in the
/// same task: no paint shows both, none shows neither).
pub fn remove_boot() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        el.remove();
    }
}

/// The process this tab had open (session storage: a reload of this tab opens it again, a
/// new tab starts from the catalog).
pub fn open_process_id() -> Option<String> {
    kept(false, OPEN_KEY)
}

/// A listener of one window event (`storage`, `popstate`, `resize`, `beforeunload`),
/// registered while it lives: dropping it removes it. `E` is the event's type
/// (`web_sys::StorageEvent` …), `web_sys::Event` for any.
pub struct WindowListener {
    event: &'static str,
    closure: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>,
}

impl WindowListener {
    /// Starts calling `on_event` for each `event` the window fires (nothing without a window).
    pub fn new<E: wasm_bindgen::JsCast>(
        event: &'static str,
        mut on_event: impl FnMut(E) + 'static,
    ) -> WindowListener {
        use wasm_bindgen::JsCast;
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |e: web_sys::Event| on_event(e.unchecked_into::<E>()),
        );
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
        }
        WindowListener { event, closure }
    }
}

impl Drop for WindowListener {
    fn drop(&mut self) {
        use wasm_bindgen::JsCast;
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                self.event,
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

thread_local! {
    /// The `beforeunload` listener while edits are held ([`ask_before_leaving`]).
    static LEAVE_GUARD: std::cell::RefCell<Option<WindowListener>> =
        const { std::cell::RefCell::new(None) };
}

/// While `ask` (edits held back from storage are on screen only), leaving or reloading the
/// page asks first: the browser's own "Leave site?" dialog (`beforeunload`). Otherwise the
/// page leaves without asking.
pub fn ask_before_leaving(ask: bool) {
    LEAVE_GUARD.with(|guard| {
        *guard.borrow_mut() = ask.then(|| {
            WindowListener::new("beforeunload", |e: web_sys::Event| {
                e.prevent_default();
                // Older browsers ask only when `returnValue` is set.
                let _ = js_sys::Reflect::set(&e, &"returnValue".into(), &"".into());
            })
        });
    });
}

/// The queue system last chosen under "Configuration for" on this browser (its name as
/// written by [`remember_target`]; `None` when none or storage is unavailable).
pub fn remembered_target() -> Option<String> {
    kept(true, TARGET_KEY)
}

/// Remembers the queue system chosen under "Configuration for" (`None`: none chosen) for the
/// next visit. Silently does nothing where storage is unavailable.
pub fn remember_target(name: Option<&str>) {
    keep(true, TARGET_KEY, name);
}

/// Remembers the process this tab has open (nothing where session storage is refused).
pub fn remember_open_process(id: Option<&str>) {
    keep(false, OPEN_KEY, id);
}

/// Calls `on_change` whenever another tab writes the catalog, until dropped.
pub struct CatalogListener {
    _listener: WindowListener,
}

impl CatalogListener {
    /// Starts listening to `storage` events for the catalog's key.
    pub fn new(on_change: yew::Callback<()>) -> CatalogListener {
        let listener = WindowListener::new("storage", move |e: web_sys::StorageEvent| {
            if e.key().is_none_or(|k| k == CATALOG_KEY) {
                on_change.emit(());
            }
        });
        CatalogListener {
            _listener: listener,
        }
    }
}

/// A repeating timer (`setInterval`) that calls `tick` every `ms` milliseconds until it is
/// dropped (`clearInterval`). Used by the stepper's playback.
pub struct Interval {
    handle: Option<i32>,
    _tick: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl Interval {
    /// Starts the timer. Where the browser refuses, it simply never ticks.
    pub fn new(ms: u32, tick: impl FnMut() + 'static) -> Interval {
        use wasm_bindgen::JsCast;
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(tick);
        let handle = web_sys::window().and_then(|w| {
            w.set_interval_with_callback_and_timeout_and_arguments_0(
                closure.as_ref().unchecked_ref(),
                i32::try_from(ms).unwrap_or(i32::MAX),
            )
            .ok()
        });
        Interval {
            handle,
            _tick: closure,
        }
    }
}

impl Drop for Interval {
    fn drop(&mut self) {
        if let (Some(h), Some(w)) = (self.handle, web_sys::window()) {
            w.clear_interval_with_handle(h);
        }
    }
}

/// A one-shot timer (`setTimeout`) that calls `fire` once after `ms` milliseconds, unless it
/// is dropped first (`clearTimeout`). Used by the event log to ask for lines once scrolling
/// pauses.
pub struct Timeout {
    handle: Option<i32>,
    _fire: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl Timeout {
    /// Starts the timer. Where the browser refuses, it simply never fires.
    pub fn new(ms: u32, fire: impl FnOnce() + 'static) -> Timeout {
        use wasm_bindgen::JsCast;
        let mut fire = Some(fire);
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = fire.take() {
                f();
            }
        });
        let handle = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(
                closure.as_ref().unchecked_ref(),
                i32::try_from(ms).unwrap_or(i32::MAX),
            )
            .ok()
        });
        Timeout {
            handle,
            _fire: closure,
        }
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if let (Some(h), Some(w)) = (self.handle, web_sys::window()) {
            w.clear_timeout_with_handle(h);
        }
    }
}

/// Moves the worker timeline's "now" cursor to virtual time `t_us` (µs): sets the
/// `transform` of its `g.plot-now` from the drawing's `data-t0/t1` (µs) and `data-x0/x1`
/// (tenths of a unit) — one attribute, nothing redrawn. Does nothing without a timeline.
pub fn move_timeline_cursor(t_us: u64) {
    let Some(svg) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(".sim-result svg.plot-lanes")
            .ok()
            .flatten()
    }) else {
        return;
    };
    let num = |k: &str| -> i64 {
        svg.get_attribute(k)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let (t0, t1, x0, x1) = (
        num("data-t0"),
        num("data-t1"),
        num("data-x0"),
        num("data-x1"),
    );
    let t = (t_us as i64).clamp(t0, t1.max(t0));
    let x = x0 + (x1 - x0) * (t - t0) / (t1 - t0).max(1);
    if let Ok(Some(g)) = svg.query_selector("g.plot-now") {
        let _ = g.set_attribute("transform", &format!("translate({}.{} 0)", x / 10, x % 10));
    }
}

/// Scrolls the page back to its top (a new screen starts at its title, not where the
/// previous one was scrolled to).
pub fn scroll_to_top() {
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// The page URL's fragment (with its `#`; empty when there is none).
pub fn location_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Makes `fragment` (with its `#`) the URL's fragment: as a new history entry when `push`,
/// else in place of the current one. The query string and path stay. Where the browser
/// refuses (e.g. a sandboxed frame), nothing happens.
pub fn set_fragment(fragment: &str, push: bool) {
    let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else {
        return;
    };
    let state = wasm_bindgen::JsValue::NULL;
    let _ = if push {
        history.push_state_with_url(&state, "", Some(fragment))
    } else {
        history.replace_state_with_url(&state, "", Some(fragment))
    };
}

/// Calls `on_move` with the new fragment whenever the user moves through the history (Back,
/// Forward, or a changed fragment), until dropped.
pub struct HistoryListener {
    _listener: WindowListener,
}

impl HistoryListener {
    /// Starts listening to `popstate`.
    pub fn new(on_move: yew::Callback<String>) -> HistoryListener {
        let listener = WindowListener::new("popstate", move |_: web_sys::Event| {
            on_move.emit(location_fragment())
        });
        HistoryListener {
            _listener: listener,
        }
    }
}

/// The time now, Unix milliseconds (`Date.now()`; 0 if the clock reads before 1970).
pub fn now_ms() -> u64 {
    let ms = js_sys::Date::now();
    if ms.is_finite() && ms > 0.0 {
        ms as u64
    } else {
        0
    }
}

/// A random number for new ids: `Math.random()` scaled to 53 bits, XOR'd with the time, so
/// two tabs adding a process in the same millisecond still differ.
pub fn random_seed() -> u64 {
    let r = (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64;
    r ^ now_ms()
}

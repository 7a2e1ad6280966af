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

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The language to start in: the one remembered from an earlier visit, else the browser's
/// preference (`navigator.languages`), else English.
pub fn initial_lang() -> Lang {
    if let Some(saved) = storage().and_then(|s| s.get_item(LANG_KEY).ok().flatten()) {
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
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, lang.code());
    }
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
pub use share::{
    copy_html, focus_by_id, load_stylesheet, page_url, scroll_to_id, share_click, share_in_worker,
    ShareClick,
};

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
/// A message when the clipboard is unavailable or permission is refused.
pub async fn copy_text(text: String) -> Result<(), String> {
    let window = web_sys::window().ok_or_else(|| "no window".to_owned())?;
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| "the browser refused access to the clipboard".to_owned())
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
    storage()?.get_item(SESSION_KEY).ok().flatten()
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
    if let Some(s) = storage() {
        let _ = s.set_item(&format!("{CATALOG_KEY}.unreadable"), text);
    }
}

/// The session storage key the browser tests set to provoke a panic through the page
/// ([`crate::ui::rescue::test_panic`]).
pub const TEST_PANIC_KEY: &str = "modality-advisor:test-panic";

/// Whether session storage's [`TEST_PANIC_KEY`] holds `value`; if so the key is removed.
pub fn take_test_panic(value: &str) -> bool {
    let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) else {
        return false;
    };
    let armed = s.get_item(TEST_PANIC_KEY).ok().flatten().as_deref() == Some(value);
    if armed {
        let _ = s.remove_item(TEST_PANIC_KEY);
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
    web_sys::window()?
        .session_storage()
        .ok()
        .flatten()?
        .get_item(OPEN_KEY)
        .ok()
        .flatten()
}

/// A listener of window events, kept while it is registered.
type EventClosure = wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>;

thread_local! {
    /// The `beforeunload` listener while edits are held ([`ask_before_leaving`]).
    static LEAVE_GUARD: std::cell::RefCell<Option<EventClosure>> =
        const { std::cell::RefCell::new(None) };
}

/// While `ask` (edits held back from storage are on screen only), leaving or reloading the
/// page asks first: the browser's own "Leave site?" dialog (`beforeunload`). Otherwise the
/// page leaves without asking.
pub fn ask_before_leaving(ask: bool) {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else {
        return;
    };
    LEAVE_GUARD.with(|guard| {
        let mut guard = guard.borrow_mut();
        if let Some(old) = guard.take() {
            let _ =
                w.remove_event_listener_with_callback("beforeunload", old.as_ref().unchecked_ref());
        }
        if ask {
            let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
                |e: web_sys::Event| {
                    e.prevent_default();
                    // Older browsers ask only when `returnValue` is set.
                    let _ = js_sys::Reflect::set(&e, &"returnValue".into(), &"".into());
                },
            );
            let _ = w
                .add_event_listener_with_callback("beforeunload", closure.as_ref().unchecked_ref());
            *guard = Some(closure);
        }
    });
}

/// Remembers the process this tab has open (nothing where session storage is refused).
pub fn remember_open_process(id: Option<&str>) {
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = match id {
            Some(id) => s.set_item(OPEN_KEY, id),
            None => s.remove_item(OPEN_KEY),
        };
    }
}

/// Calls `on_change` whenever another tab writes the catalog, until dropped.
pub struct CatalogListener {
    closure: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::StorageEvent)>,
}

impl CatalogListener {
    /// Starts listening to `storage` events for the catalog's key.
    pub fn new(on_change: yew::Callback<()>) -> CatalogListener {
        use wasm_bindgen::JsCast;
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::StorageEvent)>::new(
            move |e: web_sys::StorageEvent| {
                if e.key().is_none_or(|k| k == CATALOG_KEY) {
                    on_change.emit(());
                }
            },
        );
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback("storage", closure.as_ref().unchecked_ref());
        }
        CatalogListener { closure }
    }
}

impl Drop for CatalogListener {
    fn drop(&mut self) {
        use wasm_bindgen::JsCast;
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                "storage",
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

/// The simulation Web Worker (`sim-worker`, built by Trunk). Requests sent before the worker
/// has loaded its wasm are held and sent when it says `ready`. Dropping it terminates the
/// worker, which is how a run is cancelled.
pub struct SimWorker {
    worker: web_sys::Worker,
    pending: std::rc::Rc<std::cell::RefCell<Option<String>>>,
    ready: std::rc::Rc<std::cell::Cell<bool>>,
    _onmessage: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>,
}

use crate::domain::sim::runner::WORKER_READY;

impl SimWorker {
    /// Starts the worker; `on_message` receives each message (JSON text) it posts.
    ///
    /// # Errors
    /// A message when the browser refuses to start the worker.
    pub fn spawn(on_message: yew::Callback<String>) -> Result<SimWorker, String> {
        use wasm_bindgen::JsCast;
        let worker = web_sys::Worker::new("./sim-worker_loader.js").map_err(|e| {
            e.as_string()
                .unwrap_or_else(|| "refused by the browser".into())
        })?;
        let pending = std::rc::Rc::new(std::cell::RefCell::new(None::<String>));
        let ready = std::rc::Rc::new(std::cell::Cell::new(false));
        let (p, r, w) = (pending.clone(), ready.clone(), worker.clone());
        let onmessage = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |e: web_sys::MessageEvent| {
                let Some(text) = e.data().as_string() else {
                    return;
                };
                if text == WORKER_READY {
                    r.set(true);
                    if let Some(req) = p.borrow_mut().take() {
                        let _ = w.post_message(&wasm_bindgen::JsValue::from_str(&req));
                    }
                } else {
                    on_message.emit(text);
                }
            },
        );
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        Ok(SimWorker {
            worker,
            pending,
            ready,
            _onmessage: onmessage,
        })
    }

    /// Whether the worker has loaded and takes messages.
    pub fn is_ready(&self) -> bool {
        self.ready.get()
    }

    /// Sends a request (JSON text), or holds it until the worker is ready.
    ///
    /// # Errors
    /// A message when the worker cannot take it.
    pub fn send(&self, text: &str) -> Result<(), String> {
        if !self.ready.get() {
            *self.pending.borrow_mut() = Some(text.to_owned());
            return Ok(());
        }
        self.worker
            .post_message(&wasm_bindgen::JsValue::from_str(text))
            .map_err(|_| "the simulation worker refused the request".to_owned())
    }
}

impl Drop for SimWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// How long the export worker may take to load its wasm before an export is given up, in
/// milliseconds (a slow connection fetches ~100 KB; a blocked fetch never answers).
const EXPORT_LOAD_TIMEOUT_MS: u32 = 30_000;

/// What the export worker's handlers and [`export`] share.
#[derive(Default)]
struct ExportShared {
    /// The worker said `ready`.
    ready: std::cell::Cell<bool>,
    /// The worker failed (did not load, or crashed): the next export starts a new one.
    broken: std::cell::Cell<bool>,
    /// Requests (JSON text) posted before `ready`.
    held: std::cell::RefCell<Vec<String>>,
    /// Requests waiting for their reply: id, language, their failure messages, and the
    /// promise's resolve and reject.
    waiting: std::cell::RefCell<Vec<Waiting>>,
}

/// A request waiting for its reply (see [`ExportShared::waiting`]).
type Waiting = (u32, Lang, Words, js_sys::Function, js_sys::Function);

/// The locale keys of a request's failure messages: the worker refused to start (`%{reason}`),
/// did not load, answered something unreadable (`%{reason}`).
type Words = [&'static str; 3];

/// An export's failure messages.
const EXPORT_WORDS: Words = [
    "export.worker.refused",
    "export.worker.not-loaded",
    "export.worker.bad-reply",
];

/// An import's failure messages.
const IMPORT_WORDS: Words = [
    "import.worker.refused",
    "import.worker.not-loaded",
    "import.worker.bad-reply",
];

impl ExportShared {
    /// Rejects every waiting request with its "did not load" message in its own language.
    fn fail_all(&self) {
        self.broken.set(true);
        self.held.borrow_mut().clear();
        let waiting = std::mem::take(&mut *self.waiting.borrow_mut());
        for (_, lang, words, _, reject) in waiting {
            let message = crate::text::t!(words[1], locale = lang.code());
            let _ = reject.call1(
                &wasm_bindgen::JsValue::NULL,
                &wasm_bindgen::JsValue::from_str(&message),
            );
        }
    }
}

/// The export Web Worker (`export-worker`, built by Trunk; it also reads imported files),
/// started on the first export or import and kept for the next ones. Requests sent before it
/// has loaded are held until it says `ready`; if it fails to load (blocked, offline,
/// [`EXPORT_LOAD_TIMEOUT_MS`] passed) every waiting request gets a message and the next one
/// starts a new worker.
struct ExportWorker {
    worker: web_sys::Worker,
    shared: std::rc::Rc<ExportShared>,
    next_id: std::cell::Cell<u32>,
    _onmessage: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>,
    _onerror: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>,
    _load_timer: Timeout,
}

thread_local! {
    static EXPORT_WORKER: std::cell::RefCell<Option<std::rc::Rc<ExportWorker>>> =
        const { std::cell::RefCell::new(None) };
    static TARGET_WORKER: std::cell::RefCell<Option<std::rc::Rc<ExportWorker>>> =
        const { std::cell::RefCell::new(None) };
}

/// Which worker answers: the export worker (documents, files, share panels) or the target
/// worker (a queue system's configuration; `target-worker`, same protocol, fetched on the
/// first choice of a target so a first Markdown copy does not load the targets).
#[derive(Clone, Copy)]
pub(super) enum Module {
    /// `export-worker`.
    Export,
    /// `target-worker`.
    Target,
}

impl Module {
    fn script(self) -> &'static str {
        match self {
            Module::Export => "./export-worker_loader.js",
            Module::Target => "./target-worker_loader.js",
        }
    }

    fn slot(
        self,
    ) -> &'static std::thread::LocalKey<std::cell::RefCell<Option<std::rc::Rc<ExportWorker>>>> {
        match self {
            Module::Export => &EXPORT_WORKER,
            Module::Target => &TARGET_WORKER,
        }
    }
}

impl ExportWorker {
    fn spawn(module: Module, lang: Lang, words: Words) -> Result<ExportWorker, String> {
        use crate::domain::export::protocol::{ExportReply, EXPORT_WORKER_READY};
        use wasm_bindgen::JsCast;
        let worker = web_sys::Worker::new(module.script()).map_err(|e| {
            let reason = e
                .as_string()
                .unwrap_or_else(|| format!("{e:?}").chars().take(200).collect());
            crate::text::t!(words[0], locale = lang.code(), reason = reason).into_owned()
        })?;
        let shared = std::rc::Rc::new(ExportShared::default());
        let (sh, w) = (shared.clone(), worker.clone());
        let onmessage = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |e: web_sys::MessageEvent| {
                let Some(text) = e.data().as_string() else {
                    return;
                };
                if text == EXPORT_WORKER_READY {
                    sh.ready.set(true);
                    for req in std::mem::take(&mut *sh.held.borrow_mut()) {
                        let _ = w.post_message(&wasm_bindgen::JsValue::from_str(&req));
                    }
                    return;
                }
                let (id, result) = match ExportReply::from_json(&text) {
                    Ok(reply) => (reply.id, reply.result),
                    Err(reason) => (0, Err(reason)),
                };
                let mut waiting = sh.waiting.borrow_mut();
                // An unreadable reply answers the oldest export: it is the one in flight.
                let at = if id == 0 {
                    (!waiting.is_empty()).then_some(0)
                } else {
                    waiting.iter().position(|(i, ..)| *i == id)
                };
                let Some(at) = at else {
                    return;
                };
                let (_, lang, words, resolve, reject) = waiting.remove(at);
                drop(waiting);
                let null = wasm_bindgen::JsValue::NULL;
                let _ = match result {
                    Ok(doc) => resolve.call1(&null, &wasm_bindgen::JsValue::from_str(&doc)),
                    Err(reason) => {
                        let message =
                            crate::text::t!(words[2], locale = lang.code(), reason = reason);
                        reject.call1(&null, &wasm_bindgen::JsValue::from_str(&message))
                    }
                };
            },
        );
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        // A script that cannot be fetched or run (404, blocked, a crash) fires `error`.
        let sh = shared.clone();
        let onerror = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |e: web_sys::Event| {
                e.prevent_default();
                sh.fail_all();
            },
        );
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        let sh = shared.clone();
        let load_timer = Timeout::new(EXPORT_LOAD_TIMEOUT_MS, move || {
            if !sh.ready.get() {
                sh.fail_all();
            }
        });
        Ok(ExportWorker {
            worker,
            shared,
            next_id: std::cell::Cell::new(1),
            _onmessage: onmessage,
            _onerror: onerror,
            _load_timer: load_timer,
        })
    }

    /// The kept worker, or a new one when there is none or the last one failed.
    fn get(module: Module, lang: Lang, words: Words) -> Result<std::rc::Rc<ExportWorker>, String> {
        module.slot().with(|slot| {
            let mut slot = slot.borrow_mut();
            if let Some(w) = slot.as_ref().filter(|w| !w.shared.broken.get()) {
                return Ok(w.clone());
            }
            // Drop (terminate) a failed worker before starting anew.
            *slot = None;
            let w = std::rc::Rc::new(ExportWorker::spawn(module, lang, words)?);
            *slot = Some(w.clone());
            Ok(w)
        })
    }
}

impl Drop for ExportWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Renders `request` in the export worker (started on the first call, then kept) and
/// returns the document's text. The request's `id` is replaced by the worker's own count.
///
/// # Errors
/// A sentence in `request.lang` when the worker cannot be started, does not load (blocked,
/// offline, or not within 30 s), crashes, or answers something unreadable.
pub async fn export(
    mut request: crate::domain::export::protocol::ExportRequest,
) -> Result<String, String> {
    use crate::domain::export::protocol::ExportSubject;
    let lang = request.lang;
    let module = match request.subject {
        ExportSubject::Target { .. } => Module::Target,
        _ => Module::Export,
    };
    ask(module, lang, EXPORT_WORDS, move |id| {
        request.id = id;
        request.to_json()
    })
    .await
}

/// Reads a file in the export worker (started on the first call, then kept): the file read
/// and checked, or the file's problem as a typed [`ImportError`](crate::domain::sheet::import::ImportError)
/// (whose message follows a language switch). The page takes the answer through the plain
/// model readers and the meaning checks ([`ReadDone::from_reply`](crate::domain::export::read::ReadDone::from_reply)).
///
/// # Errors
/// A sentence in `request.lang` when the worker cannot be started, does not load (blocked,
/// offline, or not within 30 s), crashes, or answers something unreadable.
pub async fn read_file_in_worker(
    mut request: crate::domain::export::read::ReadRequest,
) -> Result<crate::domain::export::read::ReadResult, String> {
    let lang = request.lang;
    // An existing configuration is audited where the queue systems' formulas are.
    let module = match request.read {
        crate::domain::export::read::ReadAs::Configuration { .. } => Module::Target,
        _ => Module::Export,
    };
    let text = ask(module, lang, IMPORT_WORDS, move |id| {
        request.id = id;
        request.to_json()
    })
    .await?;
    crate::domain::export::read::ReadDone::from_reply(&text).map_err(|reason| {
        crate::text::t!(IMPORT_WORDS[2], locale = lang.code(), reason = reason).into_owned()
    })
}

/// Posts the request `to_json` writes for the worker's next id and waits for the reply's text;
/// failures are worded with `words` in `lang`.
async fn ask(
    module: Module,
    lang: Lang,
    words: Words,
    to_json: impl FnOnce(u32) -> String,
) -> Result<String, String> {
    let worker = ExportWorker::get(module, lang, words)?;
    let id = worker.next_id.get();
    worker.next_id.set(id.wrapping_add(1).max(1));
    let text = to_json(id);
    let shared = worker.shared.clone();
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        shared
            .waiting
            .borrow_mut()
            .push((id, lang, words, resolve, reject));
    });
    if shared.ready.get() {
        if worker
            .worker
            .post_message(&wasm_bindgen::JsValue::from_str(&text))
            .is_err()
        {
            shared.fail_all();
        }
    } else {
        shared.held.borrow_mut().push(text);
    }
    // The worker handle is not held across the wait: a failed worker can be replaced meanwhile.
    drop(worker);
    let not_loaded = || crate::text::t!(words[1], locale = lang.code()).into_owned();
    match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(doc) => doc.as_string().ok_or_else(not_loaded),
        Err(message) => Err(message.as_string().unwrap_or_else(not_loaded)),
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
    closure: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>,
}

impl HistoryListener {
    /// Starts listening to `popstate`.
    pub fn new(on_move: yew::Callback<String>) -> HistoryListener {
        use wasm_bindgen::JsCast;
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |_: web_sys::Event| on_move.emit(location_fragment()),
        );
        if let Some(w) = web_sys::window() {
            let _ =
                w.add_event_listener_with_callback("popstate", closure.as_ref().unchecked_ref());
        }
        HistoryListener { closure }
    }
}

impl Drop for HistoryListener {
    fn drop(&mut self) {
        use wasm_bindgen::JsCast;
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                "popstate",
                self.closure.as_ref().unchecked_ref(),
            );
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

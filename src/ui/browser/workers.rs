//! The page's Web Workers: one port (started from Trunk's loader script, requests held until
//! the worker says it is ready, terminated when dropped, which is how a run is cancelled and a
//! failed worker replaced) under the simulation worker ([`SimWorker`]: one run at a time, a
//! newer request replacing a held one) and the document worker ([`export`],
//! [`read_file_in_worker`], the share panels: requests answered by id, failures worded in the
//! request's language).

use super::Timeout;
use crate::domain::Lang;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// What a worker's message handler and its senders share: whether it said `ready`, and the
/// requests (JSON text) held until then.
#[derive(Default)]
struct Gate {
    ready: Cell<bool>,
    held: RefCell<Vec<String>>,
}

/// How requests sent before the worker is ready are held.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hold {
    /// Only the newest (a newer run replaces the one not yet started).
    Latest,
    /// All of them, in order (each waits for its own reply).
    All,
}

/// A Web Worker started from a loader script (`./sim-worker-start.js` …) that posts
/// `ready_word` once its wasm has loaded: requests sent before are held ([`Hold`]) and posted
/// then, every other message goes to `on_message`. Dropping the port terminates the worker.
struct WorkerPort {
    worker: web_sys::Worker,
    gate: Rc<Gate>,
    hold: Hold,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl WorkerPort {
    /// Starts the worker.
    ///
    /// # Errors
    /// The browser's refusal (a bad script URL, workers disabled).
    fn spawn(
        script: &str,
        ready_word: &'static str,
        hold: Hold,
        gate: Rc<Gate>,
        mut on_message: impl FnMut(String) + 'static,
    ) -> Result<WorkerPort, JsValue> {
        let worker = web_sys::Worker::new(script)?;
        let (g, w) = (gate.clone(), worker.clone());
        let onmessage =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let Some(text) = e.data().as_string() else {
                    return;
                };
                if text != ready_word {
                    on_message(text);
                    return;
                }
                g.ready.set(true);
                for req in std::mem::take(&mut *g.held.borrow_mut()) {
                    let _ = w.post_message(&JsValue::from_str(&req));
                }
            });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        Ok(WorkerPort {
            worker,
            gate,
            hold,
            _onmessage: onmessage,
        })
    }

    /// Posts `text`, or holds it until the worker is ready.
    ///
    /// # Errors
    /// `()` when the worker refuses the message.
    fn send(&self, text: String) -> Result<(), ()> {
        if !self.gate.ready.get() {
            let mut held = self.gate.held.borrow_mut();
            if self.hold == Hold::Latest {
                held.clear();
            }
            held.push(text);
            return Ok(());
        }
        self.worker
            .post_message(&JsValue::from_str(&text))
            .map_err(|_| ())
    }
}

impl Drop for WorkerPort {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The simulation Web Worker (the simulator module `sim-ui` started in a worker by
/// `static/sim-worker-start.js`). Requests sent before the worker has loaded its wasm are held
/// (the newest only) and sent when it says `ready`. Dropping it terminates the worker, which is
/// how a run is cancelled.
pub struct SimWorker {
    port: WorkerPort,
}

impl SimWorker {
    /// Starts the worker; `on_message` receives each message (JSON text) it posts.
    ///
    /// # Errors
    /// A message when the browser refuses to start the worker.
    pub fn spawn(on_message: yew::Callback<String>) -> Result<SimWorker, String> {
        use crate::domain::sim::runner::WORKER_READY;
        let gate = Rc::new(Gate::default());
        let port = WorkerPort::spawn(
            "./sim-worker-start.js",
            WORKER_READY,
            Hold::Latest,
            gate,
            move |text| on_message.emit(text),
        )
        .map_err(|e| {
            e.as_string()
                .unwrap_or_else(|| "refused by the browser".into())
        })?;
        Ok(SimWorker { port })
    }

    /// Whether the worker has loaded and takes messages.
    pub fn is_ready(&self) -> bool {
        self.port.gate.ready.get()
    }

    /// Sends a request (JSON text), or holds it until the worker is ready.
    ///
    /// # Errors
    /// A message when the worker cannot take it.
    pub fn send(&self, text: &str) -> Result<(), String> {
        self.port
            .send(text.to_owned())
            .map_err(|()| "the simulation worker refused the request".to_owned())
    }
}

/// How long the export worker may take to load its wasm before an export is given up, in
/// milliseconds (a slow connection fetches ~100 KB; a blocked fetch never answers).
const EXPORT_LOAD_TIMEOUT_MS: u32 = 30_000;

/// What the export worker's handlers and [`export`] share.
struct ExportShared {
    /// Whether the worker said `ready`, and the requests (JSON text) held until then.
    gate: Rc<Gate>,
    /// The worker failed (did not load, or crashed): the next export starts a new one.
    broken: Cell<bool>,
    /// Requests waiting for their reply: id, language, their failure messages, and the
    /// promise's resolve and reject.
    waiting: RefCell<Vec<Waiting>>,
}

/// A request waiting for its reply (see [`ExportShared::waiting`]).
type Waiting = (u32, Lang, Words, js_sys::Function, js_sys::Function);

/// The locale keys of a request's failure messages: the worker refused to start (`%{reason}`),
/// did not load, answered something unreadable (`%{reason}`).
type Words = [&'static str; 3];

/// An export's failure messages.
pub(super) const EXPORT_WORDS: Words = [
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
        self.gate.held.borrow_mut().clear();
        let waiting = std::mem::take(&mut *self.waiting.borrow_mut());
        for (_, lang, words, _, reject) in waiting {
            let message = crate::text::t!(words[1], locale = lang.code());
            let _ = reject.call1(
                &wasm_bindgen::JsValue::NULL,
                &wasm_bindgen::JsValue::from_str(&message),
            );
        }
    }

    /// Settles the waiting request a reply (JSON text) answers: resolved with the document,
    /// or rejected with its "unreadable reply" message in its own language.
    fn answer(&self, text: &str) {
        use crate::domain::export::protocol::ExportReply;
        let (id, result) = match ExportReply::from_json(text) {
            Ok(reply) => (reply.id, reply.result),
            Err(reason) => (0, Err(reason)),
        };
        let mut waiting = self.waiting.borrow_mut();
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
        let null = JsValue::NULL;
        let _ = match result {
            Ok(doc) => resolve.call1(&null, &JsValue::from_str(&doc)),
            Err(reason) => {
                let message = crate::text::t!(words[2], locale = lang.code(), reason = reason);
                reject.call1(&null, &JsValue::from_str(&message))
            }
        };
    }
}

/// The document Web Worker (the simulator module `sim-ui` started in a worker by
/// `static/doc-worker-start.js`: exports, imported files, share panels, queue targets, the
/// audit), started on the first request and kept for the next ones. Requests sent before it
/// has loaded are held until it says `ready`; if it fails to load (blocked, offline,
/// [`EXPORT_LOAD_TIMEOUT_MS`] passed) every waiting request gets a message and the next one
/// starts a new worker.
struct ExportWorker {
    port: WorkerPort,
    shared: Rc<ExportShared>,
    next_id: Cell<u32>,
    _onerror: Closure<dyn FnMut(web_sys::Event)>,
    _load_timer: Timeout,
}

thread_local! {
    static EXPORT_WORKER: RefCell<Option<Rc<ExportWorker>>> = const { RefCell::new(None) };
}

/// The document worker's start script: the simulator module in a worker, serving documents
/// (exports, file reads, share panels, the queue targets' configurations and the audit; one
/// module with the simulator since 2026-12-05, docs/PERFORMANCE.md).
const EXPORT_WORKER_SCRIPT: &str = "./doc-worker-start.js";

impl ExportWorker {
    fn spawn(lang: Lang, words: Words) -> Result<ExportWorker, String> {
        use crate::domain::export::protocol::EXPORT_WORKER_READY;
        let gate = Rc::new(Gate::default());
        let shared = Rc::new(ExportShared {
            gate: gate.clone(),
            broken: Cell::new(false),
            waiting: RefCell::new(Vec::new()),
        });
        let sh = shared.clone();
        let port = WorkerPort::spawn(
            EXPORT_WORKER_SCRIPT,
            EXPORT_WORKER_READY,
            Hold::All,
            gate,
            move |text: String| sh.answer(&text),
        )
        .map_err(|e| {
            let reason = e
                .as_string()
                .unwrap_or_else(|| format!("{e:?}").chars().take(200).collect());
            crate::text::t!(words[0], locale = lang.code(), reason = reason).into_owned()
        })?;
        // A script that cannot be fetched or run (404, blocked, a crash) fires `error`.
        let sh = shared.clone();
        let onerror = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            sh.fail_all();
        });
        port.worker
            .set_onerror(Some(onerror.as_ref().unchecked_ref()));
        let sh = shared.clone();
        let load_timer = Timeout::new(EXPORT_LOAD_TIMEOUT_MS, move || {
            if !sh.gate.ready.get() {
                sh.fail_all();
            }
        });
        Ok(ExportWorker {
            port,
            shared,
            next_id: Cell::new(1),
            _onerror: onerror,
            _load_timer: load_timer,
        })
    }

    /// The kept worker, or a new one when there is none or the last one failed.
    fn get(lang: Lang, words: Words) -> Result<Rc<ExportWorker>, String> {
        EXPORT_WORKER.with(|slot| {
            let mut slot = slot.borrow_mut();
            if let Some(w) = slot.as_ref().filter(|w| !w.shared.broken.get()) {
                return Ok(w.clone());
            }
            // Drop (terminate) a failed worker before starting anew.
            *slot = None;
            let w = Rc::new(ExportWorker::spawn(lang, words)?);
            *slot = Some(w.clone());
            Ok(w)
        })
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
    let lang = request.lang;
    ask(lang, EXPORT_WORDS, move |id| {
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
    let text = ask(lang, IMPORT_WORDS, move |id| {
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
pub(super) async fn ask(
    lang: Lang,
    words: Words,
    to_json: impl FnOnce(u32) -> String,
) -> Result<String, String> {
    let worker = ExportWorker::get(lang, words)?;
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
    if worker.port.send(text).is_err() {
        shared.fail_all();
    }
    // The worker handle is not held across the wait: a failed worker can be replaced meanwhile.
    drop(worker);
    let not_loaded = || crate::text::t!(words[1], locale = lang.code()).into_owned();
    match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(doc) => doc.as_string().ok_or_else(not_loaded),
        Err(message) => Err(message.as_string().unwrap_or_else(not_loaded)),
    }
}

//! The simulator module (built by Trunk beside the document worker, fetched by the page when
//! the Simulate screen or a sheet is first shown: `src/ui/browser/simulator.rs`). On the page,
//! `mount` draws the simulator screen (`modality_advisor::ui::simulator::root::Root`) into the
//! page's element and `Simulator::update` hands it the page's state. A panic there stops this
//! module only: the page, its processes and its storage go on, and the screen says the
//! simulator stopped.
//!
//! The same module is both Web Workers the page starts (`mod workers`; a start script loads it
//! in the worker and calls one of its two serve functions): the simulation worker
//! (`static/sim-worker-start.js`: the queue engine, its progress and result in the compact form
//! `runner::wire` writes, the last run's event log for the page's slice requests) and the
//! document worker (`static/doc-worker-start.js`: exports, imported files, share panels, the
//! queue targets' configurations, the audit). One module since issue 28: a separate simulation
//! worker carried its own standard library, serde code, domain and texts (176.8 KB brotli), and
//! the separate document worker its own copy of them besides (the whole app −100 KB brotli
//! when it joined on 2026-12-05: docs/PERFORMANCE.md). The screen that starts a run has
//! always loaded this module first, and a sheet, where exports start, loads it too, so a
//! worker reuses the file the browser already holds.

#[cfg(target_arch = "wasm32")]
mod simulator {
    use modality_advisor::ui::simulator::root::{CapacityRoot, Root, RootProps};
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use yew::{AttrValue, Callback};

    thread_local! {
        /// The elements the module draws into, for the panic notice.
        static HOSTS: RefCell<Vec<web_sys::Element>> = const { RefCell::new(Vec::new()) };
    }

    /// What a mount drew: the simulator screen or the sheet's capacity panel.
    enum Drawn {
        Screen(yew::AppHandle<Root>),
        Capacity(yew::AppHandle<CapacityRoot>),
    }

    /// A mounted part (the simulator screen, or the sheet's capacity panel).
    #[wasm_bindgen]
    pub struct Simulator {
        drawn: Drawn,
        tell: Callback<String>,
    }

    #[wasm_bindgen]
    impl Simulator {
        /// The page's state changed: `view` is its `SimulatorView` as JSON.
        pub fn update(&mut self, view: String) {
            let props = RootProps {
                view: AttrValue::from(view),
                tell: self.tell.clone(),
            };
            match &mut self.drawn {
                Drawn::Screen(h) => h.update(props),
                Drawn::Capacity(h) => h.update(props),
            }
        }
    }

    /// Draws the sheet's capacity panel into `host` for `view` (the page's `SimulatorView`
    /// as JSON: its language and sheet); an answer the user uses in the sheet reaches `tell`
    /// as JSON (`SimulatorSays::Load`).
    #[wasm_bindgen]
    pub fn mount_capacity(
        host: web_sys::Element,
        view: String,
        tell: js_sys::Function,
    ) -> Simulator {
        HOSTS.with(|h| h.borrow_mut().push(host.clone()));
        let tell = Callback::from(move |text: String| {
            let _ = tell.call1(&JsValue::NULL, &JsValue::from_str(&text));
        });
        let props = RootProps {
            view: AttrValue::from(view),
            tell: tell.clone(),
        };
        let handle = yew::Renderer::<CapacityRoot>::with_root_and_props(host, props).render();
        Simulator {
            drawn: Drawn::Capacity(handle),
            tell,
        }
    }

    /// Draws the simulator screen into `host`, starting from `view` (the page's
    /// `SimulatorView` as JSON); the user's choices reach `tell` as JSON (`SimulatorSays`).
    #[wasm_bindgen]
    pub fn mount(host: web_sys::Element, view: String, tell: js_sys::Function) -> Simulator {
        HOSTS.with(|h| h.borrow_mut().push(host.clone()));
        let tell = Callback::from(move |text: String| {
            let _ = tell.call1(&JsValue::NULL, &JsValue::from_str(&text));
        });
        let props = RootProps {
            view: AttrValue::from(view),
            tell: tell.clone(),
        };
        let handle = yew::Renderer::<Root>::with_root_and_props(host, props).render();
        Simulator {
            drawn: Drawn::Screen(handle),
            tell,
        }
    }

    /// Replaces the simulator's drawing with a notice in both languages, and logs the panic.
    fn on_panic(info: &std::panic::PanicHookInfo) {
        web_sys::console::error_1(&JsValue::from_str(&info.to_string()));
        HOSTS.with(|h| {
            for host in h.borrow().iter() {
                notice(host);
            }
        });
    }

    /// Empties `host` and writes the module's "stopped" notice in it, in both languages.
    fn notice(host: &web_sys::Element) {
        let Some(doc) = host.owner_document() else {
            return;
        };
        host.set_text_content(None);
        for lang in ["en", "ja"] {
            if let Ok(p) = doc.create_element("p") {
                let _ = p.set_attribute("class", "notice");
                let _ = p.set_attribute("role", "alert");
                let _ = p.set_attribute("lang", lang);
                p.set_text_content(Some(&modality_advisor::text::lookup(
                    lang,
                    "ui.simulator-stopped",
                )));
                let _ = host.append_child(&p);
            }
        }
    }

    /// An app that draws nothing (see [`skip_the_page_tree_ids`]).
    #[yew::function_component]
    fn Nothing() -> yew::Html {
        yew::Html::default()
    }

    /// The tree ids the page's own Yew may use: the module's start above them.
    const PAGE_TREE_IDS: u32 = 63;

    /// Yew brands the element an app is mounted on with a tree id, counted from 1 in each
    /// wasm module, and delegates events by that brand from a listener on the page's root
    /// (the body, in the capture phase, so it sees the module's clicks first). With the same
    /// ids in the page and here, the page took the module's clicks for its own: a click on a
    /// preset pressed the page's language button. So the module uses up the ids the page has
    /// (its app is tree 1; portals would take the next ones) with empty apps on detached
    /// elements before it mounts anything: its own trees are then no page tree.
    fn skip_the_page_tree_ids() {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        for _ in 0..PAGE_TREE_IDS {
            if let Ok(div) = doc.create_element("div") {
                yew::Renderer::<Nothing>::with_root(div).render().destroy();
            }
        }
    }

    /// Runs when the module starts: the panic hook (before anything renders), and the page's
    /// tree ids skipped.
    pub fn start() {
        yew::set_custom_panic_hook(Box::new(on_panic));
        skip_the_page_tree_ids();
    }
}

/// The workers this module serves (started in a Web Worker by a start script, which calls one
/// of these once the wasm has loaded). All logic is in the domain; these only move strings.
#[cfg(target_arch = "wasm32")]
mod workers {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    /// The worker's scope, or `None` on the page (where these must not run).
    fn scope() -> Option<web_sys::DedicatedWorkerGlobalScope> {
        js_sys::global().dyn_into().ok()
    }

    /// Answers each message with `handle` (its text in, the texts it posts out), then tells the
    /// page that requests can come (`ready`: the page holds them until then).
    fn serve(
        scope: web_sys::DedicatedWorkerGlobalScope,
        ready: &str,
        mut handle: impl FnMut(String, &dyn Fn(String)) + 'static,
    ) {
        let post_scope = scope.clone();
        let onmessage =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let text = e.data().as_string().unwrap_or_default();
                let post = |s: String| {
                    let _ = post_scope.post_message(&JsValue::from_str(&s));
                };
                handle(text, &post);
            });
        scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        // The handler lives as long as the worker.
        onmessage.forget();
        let _ = scope.post_message(&JsValue::from_str(ready));
    }

    /// The simulation worker (`static/sim-worker-start.js`): receives a `RunRequest` as JSON
    /// text, runs the queue engine, posts progress and the result back in the compact form
    /// `runner::wire` writes, and keeps the last run's event log for the page's slice requests
    /// (`modality_advisor::domain::sim::runner`). Runs are timed with the worker's wall clock.
    #[wasm_bindgen]
    pub fn serve_simulations() {
        use modality_advisor::domain::sim::runner::{WorkerState, WORKER_READY};
        let Some(scope) = scope() else { return };
        let mut state = WorkerState::with_clock(js_sys::Date::now);
        serve(scope, WORKER_READY, move |text, post| {
            let done = state.handle_wire(&text, 20_000, post);
            post(done);
        });
    }

    /// The document worker (`static/doc-worker-start.js`): receives an `ExportRequest` or a
    /// `ReadRequest` as JSON text and posts the reply: the sheet and catalog documents, the
    /// queue targets' configurations, imported files read and checked, share panels, the
    /// audit (`modality_advisor::domain::export::doc_worker`).
    #[wasm_bindgen]
    pub fn serve_documents() {
        use modality_advisor::domain::export::{doc_worker, protocol};
        let Some(scope) = scope() else { return };
        serve(scope, protocol::EXPORT_WORKER_READY, |text, post| {
            post(doc_worker::handle(&text));
        });
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::JsCast;
    // In a worker the start script calls `serve_simulations` or `serve_documents`.
    if js_sys::global()
        .dyn_into::<web_sys::DedicatedWorkerGlobalScope>()
        .is_err()
    {
        simulator::start();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the simulator module builds for wasm32 only: run `make serve`");
    std::process::exit(2);
}

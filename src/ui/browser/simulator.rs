//! Fetching and starting the simulator module (`src/bin/sim-ui.rs`) when the Simulate screen
//! is first shown: two classic scripts (wasm-bindgen's glue `sim-ui.js`, then
//! `static/sim-ui-start.js`, which starts it and hands its exports to the page under
//! `globalThis.modalityAdvisorSimulator`), then `mount` into the screen's element.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The global name `static/sim-ui-start.js` gives the module's exports (a promise of them).
const EXPORTS: &str = "modalityAdvisorSimulator";

/// A started simulator: its `Simulator` object, and the page's function it tells its
/// choices to (kept alive as long as the module).
pub struct Module {
    simulator: JsValue,
    _tell: Closure<dyn FnMut(String)>,
}

impl Module {
    /// Hands the module the page's current view (JSON, `SimulatorView`). A refusal (a module
    /// that stopped after a panic) is written to the console: the module shows its own notice.
    pub fn update(&self, view: &str) {
        let update = js_sys::Reflect::get(&self.simulator, &JsValue::from_str("update"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        if let Some(update) = update {
            if let Err(e) = update.call1(&self.simulator, &JsValue::from_str(view)) {
                web_sys::console::error_2(&"the simulator refused an update:".into(), &e);
            }
        }
    }
}

/// Adds `<script src={src}>` to the head and waits for it to run; the error names the file
/// when the browser refuses it (a missing file, a policy that blocks it).
async fn script(src: &str) -> Result<(), String> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let head = doc.head().ok_or("no <head>")?;
    let el = doc
        .create_element("script")
        .map_err(|_| "cannot create a script element")?;
    let _ = el.set_attribute("src", src);
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        let _ = el.add_event_listener_with_callback("load", &resolve);
        let _ = el.add_event_listener_with_callback("error", &reject);
    });
    head.append_child(&el)
        .map_err(|_| format!("cannot add {src} to the page"))?;
    JsFuture::from(loaded)
        .await
        .map(|_| ())
        .map_err(|_| format!("the browser did not load {src}"))
}

/// The text of a JavaScript error (its message), or its debug form.
fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

thread_local! {
    /// The module's exports once asked for: every caller waits for the same fetch (the glue
    /// may run once per page: it declares a global).
    static EXPORTS_PROMISE: std::cell::RefCell<Option<js_sys::Promise>> =
        const { std::cell::RefCell::new(None) };
}

/// The module's exports: fetched and started on the first call, the same promise after.
async fn exports() -> Result<JsValue, String> {
    let promise = EXPORTS_PROMISE.with(|p| {
        p.borrow_mut()
            .get_or_insert_with(|| {
                wasm_bindgen_futures::future_to_promise(async {
                    script("./sim-ui.js").await.map_err(JsValue::from)?;
                    script("./sim-ui-start.js").await.map_err(JsValue::from)?;
                    let exports =
                        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(EXPORTS))?;
                    JsFuture::from(js_sys::Promise::resolve(&exports)).await
                })
            })
            .clone()
    });
    match JsFuture::from(promise).await {
        Ok(exports) => Ok(exports),
        Err(e) => {
            // A later visit may try again (a network that came back).
            EXPORTS_PROMISE.with(|p| p.borrow_mut().take());
            Err(format!(
                "the simulator module did not start: {}",
                message(&e)
            ))
        }
    }
}

/// What the module can draw: the simulator screen, or the sheet's capacity panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The Simulate screen (`mount`).
    Simulator,
    /// The sheet's "Load and capacity" answer (`mount_capacity`).
    Capacity,
}

/// Fetches the module (once per page), starts it and mounts `part` into `host` with `view`;
/// what the module says reaches `tell`. The error says which step failed, in English (the
/// page words the notice around it).
pub async fn load(
    part: Part,
    host: &web_sys::Element,
    view: &str,
    tell: yew::Callback<String>,
) -> Result<Module, String> {
    let exports = exports().await?;
    let name = match part {
        Part::Simulator => "mount",
        Part::Capacity => "mount_capacity",
    };
    let mount = js_sys::Reflect::get(&exports, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| format!("the simulator module has no {name} function"))?;
    let tell = Closure::<dyn FnMut(String)>::new(move |text: String| tell.emit(text));
    let simulator = mount
        .call3(
            &exports,
            host,
            &JsValue::from_str(view),
            tell.as_ref().unchecked_ref(),
        )
        .map_err(|e| format!("the simulator did not mount: {}", message(&e)))?;
    Ok(Module {
        simulator,
        _tell: tell,
    })
}

/// A `<div>` outside the document, for a part that must outlive the screen it is shown on
/// (the sheet's capacity panel keeps its answer and its run while another screen shows): the
/// screen moves it into its own element each time it is drawn ([`place_only`]).
pub fn detached_div(class: &str) -> Option<web_sys::Element> {
    let doc = web_sys::window().and_then(|w| w.document())?;
    let div = doc.create_element("div").ok()?;
    let _ = div.set_attribute("class", class);
    Some(div)
}

/// Makes `child` the only element in `slot` (moved from wherever it was; another process's
/// panel leaves the document, kept by its owner).
pub fn place_only(slot: &web_sys::Element, child: &web_sys::Element) {
    while let Some(other) = slot.first_element_child() {
        if &other == child {
            break;
        }
        other.remove();
    }
    if child.parent_element().as_ref() != Some(slot) {
        let _ = slot.append_child(child);
    }
}

//! The window's width, for layouts drawn in SVG that CSS media queries cannot reach (the
//! job-state diagram stacks its states when narrow).

use wasm_bindgen::JsCast;

/// Whether the window's viewport is at most `px` CSS pixels wide (at 200 % zoom a 1 280 px
/// window is 640 CSS px wide). `false` when there is no window.
pub fn at_most(px: f64) -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .is_some_and(|w| w <= px)
}

/// Calls `on_resize` whenever the window is resized (a phone turned, a zoom change), until
/// dropped.
pub struct ResizeListener {
    closure: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl ResizeListener {
    /// Starts listening to the window's `resize` events.
    pub fn new(on_resize: impl FnMut() + 'static) -> ResizeListener {
        let closure = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(on_resize);
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback("resize", closure.as_ref().unchecked_ref());
        }
        ResizeListener { closure }
    }
}

impl Drop for ResizeListener {
    fn drop(&mut self) {
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                "resize",
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

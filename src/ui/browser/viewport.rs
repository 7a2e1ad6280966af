//! The window's width, for layouts drawn in SVG that CSS media queries cannot reach (the
//! job-state diagram stacks its states when narrow).

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
    _listener: super::WindowListener,
}

impl ResizeListener {
    /// Starts listening to the window's `resize` events.
    pub fn new(mut on_resize: impl FnMut() + 'static) -> ResizeListener {
        ResizeListener {
            _listener: super::WindowListener::new("resize", move |_: web_sys::Event| on_resize()),
        }
    }
}

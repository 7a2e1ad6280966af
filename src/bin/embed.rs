//! The embed page's entry point (`embed.html`, wasm32 only, built by Trunk through
//! `Trunk.embed.toml`): a read-only view of a share link for wiki iframes.
//!
//! It reads `location.hash`, decodes it ([`modality_advisor::domain::share::link::decode_plain`])
//! and puts the card's HTML ([`modality_advisor::domain::share::card::html`]) in `#embed`
//! (replacing the static fallback text), in the share's language; a missing or bad fragment
//! shows [`modality_advisor::domain::share::embed::error_view`] (the link error's message in
//! the browser's language and a link to the app).
//! `hashchange` renders again. When framed it posts its height to the parent
//! (`{type: "modality-advisor:height", height}`, CSS px, an integer) after each render and
//! whenever the content's height changes; nothing else crosses the frame. It uses no storage,
//! no forms and no clipboard, and no Yew (the page stays small).

#[cfg(target_arch = "wasm32")]
mod page {
    use modality_advisor::domain::plot::escape;
    use modality_advisor::domain::share::link;
    use modality_advisor::domain::share::{card, embed};
    use modality_advisor::domain::Lang;
    use std::cell::Cell;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{Document, Element, Event, Window};

    /// The `type` of the only message the page sends to its parent.
    const HEIGHT_MESSAGE: &str = "modality-advisor:height";

    thread_local! {
        /// The last height posted (CSS px), so an unchanged height is not posted again.
        static LAST_HEIGHT: Cell<i32> = const { Cell::new(-1) };
    }

    /// Renders the fragment, then keeps the page current: `hashchange` renders again, a
    /// `ResizeObserver` on the document element (content, fonts, images, the frame's width)
    /// and the window's `load` / `resize` post the height.
    pub fn start() {
        let Some(window) = web_sys::window() else {
            return;
        };
        render(&window);
        let on_hash = Closure::<dyn Fn()>::new(|| {
            if let Some(w) = web_sys::window() {
                if !in_page_target(&w) {
                    render(&w);
                }
            }
        });
        let _ =
            window.add_event_listener_with_callback("hashchange", on_hash.as_ref().unchecked_ref());
        on_hash.forget();
        let on_click = Closure::<dyn Fn(Event)>::new(jump_in_page);
        if let Some(document) = window.document() {
            let _ = document
                .add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
        }
        on_click.forget();
        let on_size = Closure::<dyn Fn()>::new(|| {
            if let Some(w) = web_sys::window() {
                post_height(&w);
            }
        });
        let callback: &js_sys::Function = on_size.as_ref().unchecked_ref();
        let _ = window.add_event_listener_with_callback("load", callback);
        let _ = window.add_event_listener_with_callback("resize", callback);
        if let (Ok(observer), Some(root)) = (
            web_sys::ResizeObserver::new(callback),
            window.document().and_then(|d| d.document_element()),
        ) {
            observer.observe(&root);
        }
        on_size.forget();
    }

    /// Shows the share named by `location.hash`, or why it cannot be shown.
    fn render(window: &Window) {
        let Some(document) = window.document() else {
            return;
        };
        let location = window.location();
        let href = location.href().unwrap_or_default();
        let hash = location.hash().unwrap_or_default();
        let (lang, title, html) = match link::decode_plain(&hash) {
            Ok(share) => {
                // The fragment it was given, not the share encoded again: the same link
                // (the test checks it), and the embed carries no encoder (deflate, the
                // model's serialisers: −9 KB brotli, issue 28).
                let open = format!("{}{}", link::app_folder(&href), hash.trim());
                let title = embed::frame_title(&share, share.lang);
                // The page's own level-one heading (the card starts at level two), for
                // screen readers only: it says what the frame shows.
                let html = format!(
                    "<h1 class=\"visually-hidden\">{}</h1>{}",
                    escape(&title),
                    card::html(&share, share.lang, &open)
                );
                (share.lang, title, html)
            }
            Err(e) => {
                let lang = browser_lang(window);
                let view = embed::error_view(&e, lang, &link::app_folder(&href));
                (lang, embed::error_title(lang), view)
            }
        };
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.code());
        }
        document.set_title(&title);
        let Some(main) = document.get_element_by_id("embed") else {
            return;
        };
        main.set_inner_html(&html);
        let _ = main.set_attribute("data-state", "shown");
        post_height(window);
    }

    /// A click on a link to a place on the card (a catalog's summary links each name to
    /// `#sc-<id>`) scrolls there without changing the fragment, which holds the share.
    fn jump_in_page(event: Event) {
        let Some(link) = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|e| e.closest("a[href^='#']").ok().flatten())
        else {
            return;
        };
        let id = link.get_attribute("href").unwrap_or_default();
        let id = id.trim_start_matches('#');
        if link::is_share_fragment(id) {
            return;
        }
        let target = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id));
        if let Some(target) = target {
            event.prevent_default();
            target.scroll_into_view();
        }
    }

    /// Whether the fragment names a place on the page rather than a share (a jump the page
    /// did not catch): then nothing is rendered again.
    fn in_page_target(window: &Window) -> bool {
        let hash = window.location().hash().unwrap_or_default();
        let id = hash.trim_start_matches('#');
        !id.is_empty()
            && !link::is_share_fragment(id)
            && window
                .document()
                .and_then(|d| d.get_element_by_id(id))
                .is_some()
    }

    /// The language of the browser (`navigator.languages`), for messages about a link that
    /// carries none.
    fn browser_lang(window: &Window) -> Lang {
        let tags: Vec<String> = window
            .navigator()
            .languages()
            .iter()
            .filter_map(|v| v.as_string())
            .collect();
        Lang::from_browser_tags(tags.iter().map(String::as_str))
    }

    /// Posts the document's height (CSS px, rounded up) to the parent when framed and when it
    /// changed since the last post. Only `{type, height}` is sent.
    fn post_height(window: &Window) {
        let Ok(Some(parent)) = window.parent() else {
            return;
        };
        if js_sys::Object::is(&parent, window) {
            return;
        }
        let Some(height) = window.document().as_ref().and_then(content_height) else {
            return;
        };
        if LAST_HEIGHT.with(|last| last.replace(height)) == height {
            return;
        }
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into());
        let _ = js_sys::Reflect::set(&message, &"height".into(), &JsValue::from(height));
        let _ = parent.post_message(&message, "*");
    }

    /// The height of the document's content (the root element's box, which unlike
    /// `scrollHeight` does not grow to the frame's height), CSS px rounded up.
    fn content_height(document: &Document) -> Option<i32> {
        let rect = document.document_element()?.get_bounding_client_rect();
        let h = rect.height().ceil();
        (h.is_finite() && h >= 0.0).then_some(h.min(1_000_000.0) as i32)
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    page::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the embed page builds for wasm32 only: run `make build`");
    std::process::exit(2);
}

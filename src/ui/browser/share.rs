//! The browser side of sharing: the page's URL, share renderings in the export worker, the
//! share panel's buttons, copying HTML for rich-text editors, focus.

use super::workers::{ask, EXPORT_WORDS};
use crate::domain::share::panel::ShareRequest;

/// The page's URL as the browser shows it (links are made relative to its folder).
pub fn page_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Renders a share request in the export worker (started on the first call, then kept) and
/// returns the text.
///
/// # Errors
/// A sentence in `request.lang` when the worker cannot be started, does not load, crashes,
/// or answers something unreadable.
pub async fn share_in_worker(mut request: ShareRequest) -> Result<String, String> {
    let lang = request.lang;
    ask(lang, EXPORT_WORDS, move |id| {
        request.id = id;
        request.to_json()
    })
    .await
}

/// A click on one of the share panel's buttons.
pub enum ShareClick {
    /// Copy the item under this key.
    Copy(String),
    /// An action: `save`, `close` (the shared view) or `close-panel`.
    Action(String),
    /// A jump to a section of the card (`href="#id"`): scrolled to, the address bar keeps
    /// the link (its default was prevented).
    Jump(String),
    /// Download the item under `key` as `file` of type `mime`.
    Download {
        /// The item's key.
        key: String,
        /// The suggested file name.
        file: String,
        /// Its media type.
        mime: String,
    },
}

/// The share button (`data-share-copy` / `data-share-download` / `data-share-action`) the
/// click `e` landed on,
/// if any.
pub fn share_click(e: &web_sys::MouseEvent) -> Option<ShareClick> {
    use wasm_bindgen::JsCast;
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    if let Some(id) = target
        .closest("a[href^='#']")
        .ok()
        .flatten()
        .and_then(|a| a.get_attribute("href"))
    {
        e.prevent_default();
        return Some(ShareClick::Jump(id.trim_start_matches('#').to_owned()));
    }
    let button = target
        .closest("[data-share-copy],[data-share-download],[data-share-action]")
        .ok()??;
    if let Some(key) = button.get_attribute("data-share-copy") {
        return Some(ShareClick::Copy(key));
    }
    if let Some(action) = button.get_attribute("data-share-action") {
        return Some(ShareClick::Action(action));
    }
    Some(ShareClick::Download {
        key: button.get_attribute("data-share-download")?,
        file: button.get_attribute("data-file")?,
        mime: button.get_attribute("data-mime")?,
    })
}

/// Puts `html` on the clipboard as `text/html`, with `plain` as its `text/plain` twin (for
/// editors that take only text).
///
/// # Errors
/// A message when the clipboard is unavailable or permission is refused.
pub async fn copy_html(
    html: String,
    plain: String,
    lang: crate::domain::Lang,
) -> Result<(), String> {
    let refused = |_| super::clipboard_refused(lang);
    let window = web_sys::window().ok_or_else(|| super::clipboard_refused(lang))?;
    let record = js_sys::Object::new();
    for (mime, text) in [("text/html", html), ("text/plain", plain)] {
        let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&text));
        let options = web_sys::BlobPropertyBag::new();
        options.set_type(mime);
        let blob =
            web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(refused)?;
        js_sys::Reflect::set(&record, &mime.into(), &blob).map_err(refused)?;
    }
    let item = web_sys::ClipboardItem::new_with_record_from_str_to_blob_promise(&record)
        .map_err(refused)?;
    let promise = window
        .navigator()
        .clipboard()
        .write(&js_sys::Array::of1(&item));
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(refused)
}

/// Moves focus to the element with this id (if it is there).
pub fn focus_by_id(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Adds `<link rel="stylesheet" href={href}>` to the document's head once (a stylesheet the
/// first screen does not need, e.g. the share card's, loaded when first shown).
pub fn load_stylesheet(href: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = format!("link[href=\"{href}\"]");
    if doc.query_selector(&selector).ok().flatten().is_some() {
        return;
    }
    if let (Ok(link), Some(head)) = (doc.create_element("link"), doc.head()) {
        let _ = link.set_attribute("rel", "stylesheet");
        let _ = link.set_attribute("href", href);
        let _ = head.append_child(&link);
    }
}

/// Scrolls the element with this id into view (a section of a shared card).
pub fn scroll_to_id(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.scroll_into_view();
    }
}

/// Scrolls the element with this id into view when none of it is in the window (a notice at
/// the top of a long screen, answering a button at its bottom); one in view stays put.
pub fn show_if_hidden(id: &str) {
    let Some(w) = web_sys::window() else { return };
    let Some(el) = w.document().and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    let r = el.get_bounding_client_rect();
    let height = w
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if r.bottom() <= 0.0 || r.top() >= height {
        el.scroll_into_view();
    }
}

//! The panic page: what replaces the app when its code panics ([`crate::ui::start`] installs
//! the hook). Built with plain DOM calls, never Yew: after a panic Yew's own state may be
//! borrowed or half-updated, and the wasm module traps as soon as the hook returns
//! (`panic = "abort"`). So the hook draws everything synchronously ([`show`], then
//! [`PanicPage::saved`] and [`PanicPage::diagnostics`]), and the buttons are one forgotten
//! closure that touches only the DOM, storage, the clipboard and the location:
//! - "Reload keeping my work": the hook has already stored the latest state; the reload drops
//!   the URL's fragment (a place or a share link that may be what panicked) and reloads;
//! - "Copy diagnostics": the `<pre>`'s text to the clipboard (when the browser refuses, the
//!   `<details>` opens so it can be selected by hand);
//! - "Reload without the stored work": the stored catalog (and an older build's session) are
//!   moved to keys ending `.before-crash.<Unix ms>` and the open process forgotten, then the
//!   page reloads empty — for stored work that makes the app panic as it starts.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The page's texts, English then Japanese. A table of its own rather than `t!`: rust-i18n
/// looks texts up through its global backend, and a panic raised inside a lookup (or while
/// its state is borrowed) would make the hook panic too — and a panic inside the hook aborts
/// before anything is shown.
const TEXTS: [[&str; 12]; 2] = [
    [
        "Something went wrong",
        "The app stopped because of an error in its code, not because of anything you did. Nothing has been sent anywhere.",
        "Your work is stored in this browser up to your last change.",
        "Your latest changes could not be stored in this browser. The diagnostics below contain your work (the catalog): copy them before you reload.",
        "Reload keeping my work",
        "Copy diagnostics",
        "Reload without the stored work",
        "If the error comes back after a reload, your stored work may be what causes it. “Reload without the stored work” moves it aside in this browser's storage, under a key starting with modality-advisor.catalog.before-crash, and starts empty.",
        "Diagnostics: the error and the app's state, as JSON (it stays on this computer)",
        "Copied.",
        "The browser refused the clipboard: open “Diagnostics”, select the text and copy it.",
        "The stored work could not be moved aside (storage refused): copy the diagnostics, they contain it.",
    ],
    [
        "問題が発生しました",
        "アプリのコードのエラーで停止しました。操作が原因ではありません。何も送信していません。",
        "最後の変更までの作業は、このブラウザーに保存されています。",
        "最新の変更をこのブラウザーに保存できませんでした。下の診断情報に作業内容（カタログ）が含まれています。再読み込みの前にコピーしてください。",
        "作業を残して再読み込み",
        "診断情報をコピー",
        "保存された作業なしで再読み込み",
        "再読み込みしてもエラーが再発する場合は、保存された作業が原因かもしれません。「保存された作業なしで再読み込み」は、それをこのブラウザーのストレージ内の modality-advisor.catalog.before-crash で始まるキーに移して、空の状態で始めます。",
        "診断情報：エラーとアプリの状態（JSON。この端末から出ません）",
        "コピーしました。",
        "ブラウザーがクリップボードを拒否しました。「診断情報」を開き、テキストを選択してコピーしてください。",
        "保存された作業を移せませんでした（ストレージが拒否）。診断情報に含まれているのでコピーしてください。",
    ],
];

const SAVED: usize = 2;
const NOT_SAVED: usize = 3;
const COPIED: usize = 9;
const COPY_REFUSED: usize = 10;
const NOT_MOVED: usize = 11;

thread_local! {
    /// Whether the page is on show (a later panic, e.g. from a timer, leaves it as it is).
    static SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The panic page on show, to be completed by the hook.
pub struct PanicPage {
    document: web_sys::Document,
}

/// Writes the `panic` text to the console and replaces the page's content with the panic page
/// in Japanese (`ja`) or English, its buttons working. `None` when it is already on show, or
/// there is no document.
pub fn show(ja: bool, panic: &str) -> Option<PanicPage> {
    web_sys::console::error_1(&JsValue::from_str(panic));
    if SHOWN.with(|s| s.replace(true)) {
        return None;
    }
    let document = web_sys::window()?.document()?;
    let t = TEXTS[usize::from(ja)];
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", if ja { "ja" } else { "en" });
    }
    document.set_title(t[0]);
    let html = format!(
        "<main class=\"boot panic\" id=\"panic\"><h1>{}</h1><p role=\"alert\">{}</p>\
         <p id=\"panic-saved\"></p><div class=\"actions panic-actions\">\
         <button type=\"button\" class=\"primary\" id=\"panic-reload\">{}</button>\
         <button type=\"button\" class=\"secondary\" id=\"panic-copy\">{}</button>\
         <button type=\"button\" class=\"secondary\" id=\"panic-fresh\">{}</button></div>\
         <p id=\"panic-status\" role=\"status\"></p><p class=\"help\">{}</p>\
         <details id=\"panic-details\"><summary>{}</summary><pre id=\"panic-diagnostics\"></pre></details></main>",
        t[0], t[1], t[4], t[5], t[6], t[7], t[8]
    );
    document.body()?.set_inner_html(&html);
    let on_click = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
        let id = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|el| el.id())
            .unwrap_or_default();
        match id.as_str() {
            "panic-reload" => reload(),
            "panic-copy" => copy(ja),
            "panic-fresh" => match move_aside() {
                Ok(()) => reload(),
                Err(()) => say("panic-status", t[NOT_MOVED]),
            },
            _ => {}
        }
    });
    if let Some(main) = document.get_element_by_id("panic") {
        let _ = main.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    }
    on_click.forget();
    Some(PanicPage { document })
}

impl PanicPage {
    /// Says whether the latest state is stored (`true`) or could not be (then the
    /// diagnostics are the way to keep it, and they are opened).
    pub fn saved(&self, stored: bool, ja: bool) {
        let t = TEXTS[usize::from(ja)];
        say("panic-saved", t[if stored { SAVED } else { NOT_SAVED }]);
        if !stored {
            open_details();
        }
    }

    /// Puts the diagnostics (JSON text) in the `<pre>`.
    pub fn diagnostics(&self, text: &str) {
        if let Some(pre) = self.document.get_element_by_id("panic-diagnostics") {
            pre.set_text_content(Some(text));
        }
    }
}

/// Writes `text` into the element with this id.
fn say(id: &str, text: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.set_text_content(Some(text));
    }
}

/// Opens the diagnostics' `<details>`.
fn open_details() {
    if let Some(d) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("panic-details"))
    {
        let _ = d.set_attribute("open", "");
    }
}

/// Reloads the page without its fragment.
fn reload() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let location = w.location();
    let here = format!(
        "{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&here));
    }
    let _ = location.reload();
}

/// Copies the diagnostics to the clipboard and says whether it worked (the `<details>` opens
/// when the browser refuses).
fn copy(ja: bool) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let text = w
        .document()
        .and_then(|d| d.get_element_by_id("panic-diagnostics"))
        .and_then(|pre| pre.text_content())
        .unwrap_or_default();
    let t = TEXTS[usize::from(ja)];
    let answer = |text: &'static str, open: bool| {
        Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
            say("panic-status", text);
            if open {
                open_details();
            }
        })
    };
    let (done, refused) = (answer(t[COPIED], false), answer(t[COPY_REFUSED], true));
    let _ = w
        .navigator()
        .clipboard()
        .write_text(&text)
        .then2(&done, &refused);
    done.forget();
    refused.forget();
}

/// Moves the stored catalog and an older build's session to `<key>.before-crash.<Unix ms>`
/// and forgets the open process, so the next start is empty. `Err` when storage refuses the
/// copy (then nothing is removed).
fn move_aside() -> Result<(), ()> {
    let w = web_sys::window().ok_or(())?;
    let storage = w.local_storage().ok().flatten().ok_or(())?;
    let stamp = super::now_ms();
    for key in [super::CATALOG_KEY, super::SESSION_KEY] {
        if let Some(text) = storage.get_item(key).map_err(|_| ())? {
            storage
                .set_item(&format!("{key}.before-crash.{stamp}"), &text)
                .map_err(|_| ())?;
            storage.remove_item(key).map_err(|_| ())?;
        }
    }
    if let Some(s) = w.session_storage().ok().flatten() {
        let _ = s.remove_item(super::OPEN_KEY);
    }
    Ok(())
}

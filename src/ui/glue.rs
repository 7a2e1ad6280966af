//! The one place that touches browser APIs beyond rendering: local storage and the
//! browser's language list. Every failure (storage disabled, private mode) degrades to a
//! default instead of failing.

use crate::domain::Lang;

const LANG_KEY: &str = "modality-advisor.lang";

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

/// Remembers `lang` for the next visit and sets `<html lang>`. Silently does nothing where
/// storage is unavailable.
pub fn remember_lang(lang: Lang) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, lang.code());
    }
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", lang.code());
    }
}

//! The product's texts and the `t!` macro that looks them up.
//!
//! The texts are `locales/**/*.yml` (rust-i18n's v2 format), read at build time by `build.rs`
//! with rust-i18n's own loader into one table: the keys once, sorted, and each language's
//! texts in the same order. Each build embeds only the files `locales/modules.txt` lists for
//! its feature: the page (`page`, see index.html) `locales/page/`, so the texts only the
//! workers, the embed page and the CLI render (`locales/worker/`) stay out of its first load
//! (`tests/it/locale_keys.rs` holds the page away from those keys); the embed page (`embed`),
//! the simulation worker (`sim`) and the document worker (`export`: exports, queue targets,
//! the audit) the texts they show; the CLI and the tests every text.
//!
//! The same texts as `rust_i18n::i18n!` with `rust_i18n::t!` gave, for less of the page's
//! first load (measured 2026-12-02): one shared lookup instead of the lookup, the fallbacks
//! and the formatting of every argument expanded at each of the ~580 places that name a text
//! (−6.1 KB brotli), and each key stored once instead of once per language with its lengths
//! in decimal, without rust-i18n's backend of hash maps.

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::LazyLock;

// The generated strings are joined by NUL, which `{:?}` writes as `\0`: before a digit
// clippy reads that as an octal escape, but `\0` is always NUL in Rust.
#[allow(clippy::octal_escapes)]
mod table {
    include!(concat!(env!("OUT_DIR"), "/texts.rs"));
}

/// The table split once: the keys, and each locale's texts in the keys' order.
struct Table {
    keys: Vec<&'static str>,
    texts: Vec<Vec<&'static str>>,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| Table {
    keys: table::KEYS.split('\0').collect(),
    texts: table::TEXTS
        .iter()
        .map(|t| t.split('\0').collect())
        .collect(),
});

/// The text of `key` in `locale`, else in the locale it narrows (`ja-JP` → `ja`), else in
/// English; `None` for a key no locale has.
fn find(locale: &str, key: &str) -> Option<&'static str> {
    let table = &*TABLE;
    let i = table.keys.binary_search(&key).ok()?;
    let mut current = locale;
    loop {
        if let Some(l) = table::LOCALES.iter().position(|name| *name == current) {
            return Some(table.texts[l][i]);
        }
        match current.rfind('-') {
            Some(n) => current = current[..n].trim_end_matches("-x"),
            None => break,
        }
    }
    let en = table::LOCALES.iter().position(|name| *name == "en")?;
    Some(table.texts[en][i])
}

/// The text of `key` in `locale` (`"en"` / `"ja"`), falling back to English; the key itself
/// when neither language has it (as `rust_i18n::t!` did; `tests/it/locale_keys.rs` keeps
/// that from happening).
#[inline(never)]
pub fn lookup(locale: &str, key: &str) -> Cow<'static, str> {
    match find(locale, key) {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(key.to_owned()),
    }
}

/// [`lookup`], then each `%{name}` of `args` replaced by its value's `Display`.
#[inline(never)]
pub fn fill(locale: &str, key: &str, args: &[(&str, &dyn Display)]) -> Cow<'static, str> {
    let names: Vec<&str> = args.iter().map(|(name, _)| *name).collect();
    let values: Vec<Cow<'_, str>> = args
        .iter()
        .map(|(_, value)| Cow::Owned(value.to_string()))
        .collect();
    let text = lookup(locale, key);
    Cow::Owned(rust_i18n::replace_patterns_cow(&text, &names, &values))
}

/// `t!(key, locale = l)` and `t!(key, locale = l, name = value, …)`: the text of `key` (a
/// `&str` or `String`) in locale `l`, with each `%{name}` replaced by `value` (any
/// `Display`). A `Cow<'static, str>`, like `rust_i18n::t!`'s.
macro_rules! t {
    ($key:expr, locale = $locale:expr $(,)?) => {
        $crate::text::lookup(
            ::core::convert::AsRef::<str>::as_ref(&$locale),
            ::core::convert::AsRef::<str>::as_ref(&$key),
        )
    };
    ($key:expr, locale = $locale:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::text::fill(
            ::core::convert::AsRef::<str>::as_ref(&$locale),
            ::core::convert::AsRef::<str>::as_ref(&$key),
            &[$((stringify!($name), &$value as &dyn ::core::fmt::Display)),+],
        )
    };
}
pub(crate) use t;

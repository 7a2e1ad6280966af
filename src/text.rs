//! The texts' lookup behind the crate's `t!` macro: the same result as `rust_i18n::t!`, in
//! one shared function instead of the lookup, the fallbacks and the formatting of every
//! argument expanded at each of the ~580 places that name a text (that expansion was
//! ≈ 10 KB brotli of the page's first load).

use std::borrow::Cow;
use std::fmt::Display;

/// The text of `key` in `locale` (`"en"` / `"ja"`), falling back to English; the key itself
/// when neither language has it (as `rust_i18n::t!` does; `tests/it/locale_keys.rs` keeps
/// that from happening).
#[inline(never)]
pub fn lookup(locale: &str, key: &str) -> Cow<'static, str> {
    crate::_rust_i18n_try_translate(locale, key).unwrap_or_else(|| Cow::Owned(key.to_owned()))
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

//! One way to read the model out of JSON in the document worker and the CLI: the text parsed
//! into a [`serde_json::Value`] once, then the type decoded from that value with the path of
//! the field that failed ([`serde_path_to_error`] over `&Value`).
//!
//! Why one way: serde's derived readers are compiled once per kind of reader. A catalog read
//! from text, from a borrowed value, from an owned value and through the path tracker is four
//! copies of the same code in the wasm (measured with twiggy on the document worker,
//! 2026-12-04: the readers of the model were about 0.5 MB of its 1.6 MB of code before this
//! module). Files (sheets, catalogs, simulator settings) and the page's requests to the worker
//! now share one copy. The page and the embed page read their own storage and the worker's
//! replies with serde_json's plain reader (no paths needed there), which is their one copy.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A value that did not decode: the dotted path of the field (`processes[0].sheet.retry`;
/// `.` for the whole value) and serde_json's message without a position (a value has none).
pub type DecodeError = serde_path_to_error::Error<serde_json::Error>;

/// Decodes `T` from `value`, naming the field that failed.
///
/// # Errors
/// [`DecodeError`]: the path and serde_json's message (missing field, unknown variant,
/// invalid type, out of range for the field's type).
pub fn decode<T: DeserializeOwned>(value: &Value) -> Result<T, DecodeError> {
    serde_path_to_error::deserialize(value)
}

/// A JSON text that did not give a `T`.
#[derive(Debug)]
pub enum TextError {
    /// Not JSON: serde_json's message with its 1-based line and column.
    Syntax(serde_json::Error),
    /// JSON, but not a `T`: the field's path and the problem.
    Field(DecodeError),
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Syntax(e) => e.fmt(f),
            TextError::Field(e) => write!(f, "{}: {}", e.path(), e.inner()),
        }
    }
}

impl std::error::Error for TextError {}

/// Parses `text` as JSON, then [`decode`]s `T` from it.
///
/// # Errors
/// [`TextError::Syntax`] when `text` is not JSON; [`TextError::Field`] when it is JSON but not
/// a `T`.
pub fn from_text<T: DeserializeOwned>(text: &str) -> Result<T, TextError> {
    let value: Value = serde_json::from_str(text).map_err(TextError::Syntax)?;
    decode(&value).map_err(TextError::Field)
}

/// How [`to_text`] lays the JSON out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// On one line, no spaces: what `serde_json::to_string` writes (requests, replies,
    /// storage, share links).
    Compact,
    /// Two-space indents, one field per line: what `serde_json::to_string_pretty` writes
    /// (the files a person downloads and reads).
    Pretty,
}

/// serde_json's two formatters behind one type, chosen at run time, so that each model type's
/// writer is compiled once rather than once per layout.
struct Formatter(Option<serde_json::ser::PrettyFormatter<'static>>);

macro_rules! either {
    ($($name:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            use serde_json::ser::CompactFormatter;
            match &mut self.0 {
                Some(pretty) => pretty.$name(w $(, $arg)*),
                None => CompactFormatter.$name(w $(, $arg)*),
            }
        }
    )*};
}

impl serde_json::ser::Formatter for Formatter {
    either!(
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        begin_object_value(),
        end_object_value(),
    );
}

/// `value` as JSON text laid out as `layout` asks: the same bytes as `serde_json::to_string`
/// ([`Layout::Compact`]) or `serde_json::to_string_pretty` ([`Layout::Pretty`]). Infallible for
/// the app's types (their maps have string keys): an error gives the empty string, as the
/// callers' `unwrap_or_default` did.
pub fn to_text<T: serde::Serialize + ?Sized>(value: &T, layout: Layout) -> String {
    let formatter = Formatter(match layout {
        Layout::Compact => None,
        Layout::Pretty => Some(serde_json::ser::PrettyFormatter::new()),
    });
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    if value.serialize(&mut ser).is_err() {
        return String::new();
    }
    // serde_json writes only valid UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// [`to_text`] on one line.
pub fn compact<T: serde::Serialize + ?Sized>(value: &T) -> String {
    to_text(value, Layout::Compact)
}

/// [`to_text`] indented.
pub fn pretty<T: serde::Serialize + ?Sized>(value: &T) -> String {
    to_text(value, Layout::Pretty)
}

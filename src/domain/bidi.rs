//! Bidirectional control characters in user text (Unicode UAX #9): the one rule every
//! document the app writes follows, and the test behind the sheet's `bidi-control` finding.
//!
//! A right-to-left override (U+202E) typed into a field reverses how the text after it reads
//! ("Trojan Source", CVE-2021-42574): `abc` + U+202E + `def` shows as `abcfed` and can make a key, a
//! command or a comment say something else than it holds. Two places, two rules:
//!
//! - **The page** (and its print view) shows user text isolated: `<bdi>` or the `user-text`
//!   class (`unicode-bidi: isolate`), so a control never reaches past its own field.
//! - **Documents** leave the page, where nothing isolates them. Every export — Markdown, TSV,
//!   CSV, the queue configurations and SQL, the ADR, the share cards (SVG, HTML, rich text) —
//!   shows each control **visibly** as its code point, `<U+202E>` ([`show`] with
//!   [`Shown::Text`]; `&lt;U+202E&gt;` inside HTML and SVG, [`Shown::Markup`]). JSON (the
//!   sheet and catalog files, the SVG card's metadata) writes the escape `\u202E`
//!   ([`Shown::Json`]), which reads back as the same character: the data is kept, the raw
//!   character is not in the file.
//!
//! The controls ([`is_control`]): LRE, RLE, PDF, LRO, RLO (U+202A–U+202E), LRI, RLI, FSI, PDI
//! (U+2066–U+2069), LRM, RLM (U+200E, U+200F) and the Arabic letter mark (U+061C).
//!
//! **Other control characters** ([`is_raw_control`]) go the same way through [`show`]: the C0
//! controls U+0000–U+001F other than tab, line feed and carriage return (which every format
//! holds as text and each writer already places: a cell's line break as `<br>`, a quoted CSV
//! field …), DEL (U+007F) and the C1 controls U+0080–U+009F (U+0085, NEXT LINE, among them).
//! Typed or pasted into a field they would make git call a Markdown file binary, and a
//! Markdown or HTML renderer copy them on; shown as `<U+0007>` they are visible and harmless.

use std::borrow::Cow;
use std::fmt::Write;

/// True for a bidi control character (see the module docs for the list).
pub fn is_control(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
    )
}

/// True for a control character no document holds raw (see the module docs): C0 except tab,
/// line feed and carriage return, DEL, and C1.
pub fn is_raw_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// True for a character [`show`] rewrites: a bidi control or a raw control character.
pub fn is_shown(c: char) -> bool {
    is_control(c) || is_raw_control(c)
}

/// The bidi controls in `text`, each once, in order of first appearance, as `U+202E`.
pub fn controls(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in text.chars().filter(|c| is_control(*c)) {
        let name = format!("U+{:04X}", c as u32);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// How [`show`] writes a control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// `<U+202E>`: plain text, TSV, CSV, code, SQL and Markdown with code spans.
    Text,
    /// `&lt;U+202E&gt;`: inside HTML or XML text and attribute values, and the sheet's
    /// Markdown (the same to the eye).
    Markup,
    /// `\u202E`: inside a JSON document (reads back as the character itself).
    Json,
}

/// `text` with every bidi control and raw control character ([`is_shown`]) written as `how`
/// says; the text itself when it has none. Applied to a whole document after it is written:
/// such a character can only stand in user text (no template holds one), and each form is
/// plain text in its own syntax.
pub fn show(text: &str, how: Shown) -> Cow<'_, str> {
    if !text.chars().any(is_shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !is_shown(c) {
            out.push(c);
            continue;
        }
        let code = c as u32;
        let _ = match how {
            Shown::Text => write!(out, "<U+{code:04X}>"),
            Shown::Markup => write!(out, "&lt;U+{code:04X}&gt;"),
            Shown::Json => write!(out, "\\u{code:04X}"),
        };
    }
    Cow::Owned(out)
}

/// `text` between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: the plain
/// text form of `<bdi>`, for a user text put into a sentence the page shows (a notice, a
/// caption, a label). A control inside cannot reach past the closing U+2069. Never for data
/// or documents.
pub fn isolate(text: &str) -> String {
    format!("\u{2068}{text}\u{2069}")
}

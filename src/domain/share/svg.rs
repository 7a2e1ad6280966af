//! The decision card as a self-contained SVG image, for wikis that take images but no iframe
//! (GitHub `![]()`, Confluence and MediaWiki uploads).
//!
//! ```text
//! <svg width height viewBox role="img" xml:lang>
//!   <title/> <desc/>                         the name and outcome, the summary and reasons
//!   <metadata><share xmlns="urn:modality-advisor:share:1">…canonical JSON…</share></metadata>
//!   <style/>                                 a system font stack, fixed colours
//!   caption · name · outcome band (title, summary) · reasons · sheet facts · permalink text
//! </svg>
//! ```
//! A catalog's card shows its name and a table of processes and outcomes (at most
//! [`MAX_ROWS`] rows, then "… and N more"); the metadata always holds the whole share.
//!
//! **Safe as an image anywhere.** No script, no event attribute, no link, no external font or
//! image: only `<text>`, `<rect>` and `<line>` with an internal `<style>`. Every text goes
//! through [`escape`], each in its own `<text>` element, and a bidi control is shown as
//! `<U+202E>` ([`bidi::show`]; `\u202E` in the metadata's JSON, which reads back the same). Colours: text `#1f2328` on white or light tints (contrast ≥ 12:1),
//! muted text `#57606a` on white (≥ 6:1), both above WCAG AA's 4.5:1.
//!
//! **Re-opening.** [`metadata`] reads the share back from a card's `<metadata>` through
//! [`Share::from_json`] (the card is untrusted input), as draw.io keeps a diagram inside its
//! exported image.
//!
//! **Text width.** The image is drawn without measuring fonts (the viewer's sans-serif draws
//! it), so each character is given the widest advance measured over the common sans-serif
//! fonts, bold included ([`em_width`]: `W` 1.12 em, CJK 1 em, emoji 1.5 em …), and long words
//! are broken where they must be: no line runs past the card's edge whichever font draws it.

use super::{Share, Shared};
use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::export::{display_name, key, outcome_text};
use crate::domain::catalog::{Process, MAX_FILE_BYTES};
use crate::domain::duration::exact;
use crate::domain::flowchart::{evaluate, Outcome};
use crate::domain::plot::escape;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::import::ImportError;
use crate::domain::Lang;
use std::fmt::Write;

/// The card's width, px.
pub const WIDTH: u32 = 640;
/// The most processes a catalog card lists; the rest are counted in one line.
pub const MAX_ROWS: usize = 20;
/// The most lines of the permalink printed; a longer link is cut with a line saying so (the
/// metadata still holds everything).
pub const MAX_LINK_LINES: usize = 40;

/// The namespace of the `<share>` element in the card's `<metadata>`.
pub const METADATA_NS: &str = "urn:modality-advisor:share:1";

const PAD: f64 = 24.0;
const INNER: f64 = WIDTH as f64 - 2.0 * PAD;
const FONTS: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', \
                     'Hiragino Sans', 'Yu Gothic', 'Noto Sans CJK JP', sans-serif";
const MONO: &str = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Noto Sans Mono', monospace";

fn tr(key: &str, lang: Lang) -> String {
    crate::text::t!(key, locale = lang.code()).into_owned()
}

/// The card of `share` in `lang`, with `link` (the permalink) printed on it.
pub fn card(share: &Share, lang: Lang, link: &str) -> String {
    let mut c = Canvas::new();
    c.line(&tr("share.svg.caption", lang), "cap", 12.0, PAD, INNER);
    c.gap(6.0);
    let (title, desc) = match &share.content {
        Shared::Process(p) => process_body(&mut c, p, lang),
        Shared::Catalog(cat) => {
            let name = if cat.name.trim().is_empty() {
                tr("catalog.export.untitled", lang)
            } else {
                cat.name.trim().to_owned()
            };
            catalog_body(&mut c, &name, &cat.processes, lang)
        }
    };
    permalink(&mut c, link, lang);
    c.finish(&title, &desc, lang, &share.to_json())
}

/// The name, outcome band, reasons and sheet facts of one process; returns the title and
/// description for `<title>` / `<desc>`.
fn process_body(c: &mut Canvas, p: &Process, lang: Lang) -> (String, String) {
    let name = display_name(p);
    c.block(&name, "name", 20.0, PAD, INNER, 3);
    c.gap(8.0);
    let eval = evaluate(&p.answers());
    let outcome_title = outcome_text(p.outcome, lang);
    let mut desc = Vec::new();
    match p.outcome {
        Some(o) => {
            let summary = o.summary(lang);
            c.band(o, &outcome_title, &summary);
            desc.push(summary);
        }
        None => {
            let text = crate::text::t!(
                "catalog.export.undecided-section",
                locale = lang.code(),
                count = p.answers.len()
            )
            .into_owned();
            c.block(&outcome_title, "h", 16.0, PAD, INNER, 1);
            c.block(&text, "t", 14.0, PAD, INNER, 3);
            desc.push(text);
        }
    }
    let reasons = eval.reasons(lang);
    if !reasons.is_empty() {
        c.gap(12.0);
        c.line(&tr("share.svg.why", lang), "h", 14.0, PAD, INNER);
        for r in &reasons {
            c.bullet(r, 14.0, 6);
        }
        desc.extend(reasons);
    }
    let facts = facts(p, lang);
    if !facts.is_empty() {
        c.gap(12.0);
        c.line(&tr("share.svg.sheet", lang), "h", 14.0, PAD, INNER);
        for (label, value) in &facts {
            c.fact(label, value);
        }
    }
    (format!("{name} — {outcome_title}"), desc.join(" "))
}

/// The sheet's key settings as (label, value) pairs, in the order of the catalog's summary
/// table; empty without a sheet.
fn facts(p: &Process, lang: Lang) -> Vec<(String, String)> {
    if p.sheet.is_none() {
        return Vec::new();
    }
    let k = key(p, lang);
    let col = |c: &str| tr(&format!("catalog.export.col.{c}"), lang);
    let mut out = Vec::new();
    if let Some(a) = k.attempts {
        out.push((col("attempts"), a.to_string()));
    }
    if let Some(b) = &k.backoff {
        out.push((col("wait"), describe_backoff(b, lang)));
    }
    if let (Some(t), Some(l)) = (k.attempt_timeout_ms, k.lease_ms) {
        out.push((
            col("timeout-lease"),
            format!("{} / {}", exact(t, lang), exact(l, lang)),
        ));
    }
    if let Some(key) = k.idempotency_key.filter(|s| !s.is_empty()) {
        out.push((col("key"), key));
    }
    if let Some(s) = k.schedule.filter(|s| !s.is_empty()) {
        out.push((col("schedule"), s));
    }
    if let Some(ms) = k.call_timeout_ms {
        out.push((col("call-timeout"), exact(ms, lang)));
    }
    out
}

/// The catalog's name and its table of processes; returns the title and description.
fn catalog_body(c: &mut Canvas, name: &str, processes: &[Process], lang: Lang) -> (String, String) {
    c.block(name, "name", 20.0, PAD, INNER, 3);
    let count = crate::text::t!(
        "share.svg.count",
        locale = lang.code(),
        count = processes.len()
    )
    .into_owned();
    c.line(&count, "cap", 12.0, PAD, INNER);
    c.gap(10.0);
    let split = PAD + INNER * 0.5;
    c.row(
        &tr("catalog.export.col.process", lang),
        &tr("catalog.export.col.outcome", lang),
        split,
        RowStyle::Header,
    );
    let mut desc = vec![count];
    for (i, p) in processes.iter().enumerate() {
        let outcome = outcome_text(p.outcome, lang);
        desc.push(format!("{}: {outcome}.", display_name(p)));
        if i < MAX_ROWS {
            let style = if i % 2 == 0 {
                RowStyle::Even
            } else {
                RowStyle::Odd
            };
            c.row(&display_name(p), &outcome, split, style);
        }
    }
    if processes.len() > MAX_ROWS {
        let more = crate::text::t!(
            "share.svg.more",
            locale = lang.code(),
            count = processes.len() - MAX_ROWS
        )
        .into_owned();
        c.gap(4.0);
        c.line(&more, "cap", 12.0, PAD, INNER);
    }
    (name.to_owned(), desc.join(" "))
}

/// The permalink as monospace text broken into lines (at most [`MAX_LINK_LINES`]).
fn permalink(c: &mut Canvas, link: &str, lang: Lang) {
    c.gap(14.0);
    c.rule();
    c.gap(10.0);
    c.line(&tr("share.svg.open", lang), "cap", 12.0, PAD, INNER);
    let size = 10.0;
    let per_line = ((INNER / (0.62 * size)).floor() as usize).max(8);
    let chars: Vec<char> = link.chars().collect();
    let lines: Vec<String> = chars
        .chunks(per_line)
        .map(|ch| ch.iter().collect())
        .collect();
    for l in lines.iter().take(MAX_LINK_LINES) {
        c.raw_line(l, "link", size);
    }
    if lines.len() > MAX_LINK_LINES {
        let shown = per_line * MAX_LINK_LINES;
        let note = crate::text::t!(
            "share.svg.link-cut",
            locale = lang.code(),
            shown = shown,
            total = chars.len()
        )
        .into_owned();
        c.block(&note, "cap", 12.0, PAD, INNER, 3);
    }
}

/// The light tint and its border for an outcome's band (text on it is `#1f2328`).
fn tint(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Batch => ("#ddf4ff", "#54aeff"),
        Outcome::AsyncEnqueue => ("#fbefff", "#c297ff"),
        Outcome::AsyncTicket => ("#fff1e5", "#fb8f44"),
        Outcome::Sync => ("#dafbe1", "#4ac26b"),
        Outcome::SyncTimeout => ("#fff8c5", "#d4a72c"),
    }
}

#[derive(Clone, Copy)]
enum RowStyle {
    Header,
    Even,
    Odd,
}

/// Elements laid out top to bottom; `y` is the next baseline's top.
struct Canvas {
    body: String,
    y: f64,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas {
            body: String::new(),
            y: PAD,
        }
    }

    fn gap(&mut self, px: f64) {
        self.y += px;
    }

    /// One line of text, shortened with "…" to fit.
    fn line(&mut self, text: &str, class: &str, size: f64, x: f64, width: f64) {
        self.block(text, class, size, x, width, 1);
    }

    /// Text wrapped to `width`, at most `max` lines (the last ends with "…" when cut).
    fn block(&mut self, text: &str, class: &str, size: f64, x: f64, width: f64, max: usize) {
        for l in wrap(text, width / size, max) {
            self.text_at(&l, class, size, x);
        }
    }

    fn text_at(&mut self, text: &str, class: &str, size: f64, x: f64) {
        let lh = size * 1.4;
        let base = self.y + size * 1.05;
        let _ = writeln!(
            self.body,
            r#"<text class="{class}" x="{x}" y="{base:.1}" font-size="{size}">{}</text>"#,
            escape(text)
        );
        self.y += lh;
    }

    /// Monospace text, not wrapped (the caller cut it to the width).
    fn raw_line(&mut self, text: &str, class: &str, size: f64) {
        self.text_at(text, class, size, PAD);
    }

    fn bullet(&mut self, text: &str, size: f64, max: usize) {
        let indent = size * 1.2;
        let lines = wrap(text, (INNER - indent) / size, max);
        for (i, l) in lines.iter().enumerate() {
            if i == 0 {
                let base = self.y + size * 1.05;
                let _ = writeln!(
                    self.body,
                    r#"<text class="t" x="{PAD}" y="{base:.1}" font-size="{size}">•</text>"#
                );
            }
            self.text_at(l, "t", size, PAD + indent);
        }
        self.gap(2.0);
    }

    /// A label (muted) and its value (wrapped, at most 2 lines) side by side.
    fn fact(&mut self, label: &str, value: &str) {
        let size = 13.0;
        let split = 190.0;
        let top = self.y;
        self.block(label, "cap", size, PAD, split - 8.0, 2);
        let after_label = self.y;
        self.y = top;
        self.block(value, "t", size, PAD + split, INNER - split, 2);
        self.y = self.y.max(after_label);
    }

    /// The outcome band: a tinted box with the title and the summary.
    fn band(&mut self, o: Outcome, title: &str, summary: &str) {
        let (fill, stroke) = tint(o);
        let top = self.y;
        let start = self.body.len();
        self.gap(10.0);
        self.block(title, "h", 17.0, PAD + 14.0, INNER - 28.0, 2);
        self.gap(2.0);
        self.block(summary, "t", 14.0, PAD + 14.0, INNER - 28.0, 4);
        self.gap(10.0);
        let rect = format!(
            r#"<rect x="{PAD}" y="{top:.1}" width="{INNER}" height="{:.1}" rx="8" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>
"#,
            self.y - top
        );
        self.body.insert_str(start, &rect);
    }

    /// A table row: two cells of one line each.
    fn row(&mut self, left: &str, right: &str, split: f64, style: RowStyle) {
        let size = 13.0;
        let h = size * 1.9;
        let fill = match style {
            RowStyle::Header => "#eaeef2",
            RowStyle::Even => "#ffffff",
            RowStyle::Odd => "#f6f8fa",
        };
        let class = if matches!(style, RowStyle::Header) {
            "th"
        } else {
            "t"
        };
        let _ = writeln!(
            self.body,
            r#"<rect x="{PAD}" y="{:.1}" width="{INNER}" height="{h:.1}" fill="{fill}"/>"#,
            self.y
        );
        let base = self.y + h / 2.0 + size * 0.35;
        for (text, x, width) in [
            (left, PAD + 8.0, split - PAD - 16.0),
            (right, split + 8.0, PAD + INNER - split - 16.0),
        ] {
            let cut = wrap(text, width / size, 1).join("");
            let _ = writeln!(
                self.body,
                r#"<text class="{class}" x="{x}" y="{base:.1}" font-size="{size}">{}</text>"#,
                escape(&cut)
            );
        }
        self.y += h;
    }

    fn rule(&mut self) {
        let _ = writeln!(
            self.body,
            r##"<line x1="{PAD}" y1="{y:.1}" x2="{x2}" y2="{y:.1}" stroke="#d0d7de" stroke-width="1"/>"##,
            y = self.y,
            x2 = PAD + INNER
        );
    }

    fn finish(self, title: &str, desc: &str, lang: Lang, json: &str) -> String {
        let height = (self.y + PAD).ceil() as u32;
        let mut s = String::with_capacity(self.body.len() + json.len() + 1024);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="card-title card-desc" xml:lang="{}">"#,
            lang.code()
        );
        let _ = writeln!(s, r#"<title id="card-title">{}</title>"#, escape(title));
        let _ = writeln!(s, r#"<desc id="card-desc">{}</desc>"#, escape(desc));
        let _ = writeln!(
            s,
            r#"<metadata><share xmlns="{METADATA_NS}">{}</share></metadata>"#,
            escape(&json_for_xml(json))
        );
        let _ = writeln!(
            s,
            "<style>text{{font-family:{FONTS};fill:#1f2328}}.name,.h,.th{{font-weight:700}}\
             .cap{{fill:#57606a}}.link{{font-family:{MONO}}}</style>"
        );
        let _ = writeln!(
            s,
            r##"<rect x="0.5" y="0.5" width="{}" height="{}" rx="10" fill="#ffffff" stroke="#d0d7de"/>"##,
            WIDTH - 1,
            height - 1
        );
        s.push_str(&self.body);
        s.push_str("</svg>\n");
        bidi::show(&s, Shown::Markup).into_owned()
    }
}

/// JSON text that survives XML: the two noncharacters XML 1.0 forbids (U+FFFE, U+FFFF),
/// which serde_json writes raw, become `\u` escapes (valid anywhere they can occur: inside
/// JSON strings), so [`escape`] need not replace them and the round trip is exact; so do
/// bidi controls ([`bidi::show`]), which the card shows nowhere raw.
fn json_for_xml(json: &str) -> String {
    bidi::show(json, Shown::Json)
        .replace('\u{fffe}', "\\ufffe")
        .replace('\u{ffff}', "\\uffff")
}

/// Each printable ASCII character's widest advance, em, over DejaVu Sans, Liberation Sans,
/// Lato and Noto Sans CJK JP, regular and bold, as Chromium measures them (rounded up by at
/// least 0.01): `W` 1.12 (DejaVu Sans Bold), `m` 1.06, `@` 1.03 (Liberation Sans), `%` 1.02.
/// `tests/e2e/hostile.test.mjs` draws cards of such names in each font and checks every line
/// ends inside the card.
const ASCII_EM: [f64; 95] = [
    //  !"#$%&'()*+,-./
    0.36, 0.47, 0.59, 0.85, 0.71, 1.02, 0.89, 0.34, 0.47, 0.47, 0.54, 0.85, 0.39, 0.43, 0.39, 0.48,
    // 0123456789:;<=>?
    0.71, 0.71, 0.71, 0.71, 0.71, 0.71, 0.71, 0.71, 0.71, 0.71, 0.41, 0.41, 0.85, 0.85, 0.85, 0.63,
    // @ABCDEFGHIJKLMNO
    1.03, 0.79, 0.78, 0.75, 0.84, 0.70, 0.70, 0.84, 0.85, 0.39, 0.58, 0.79, 0.65, 1.01, 0.85, 0.86,
    // PQRSTUVWXYZ[\]^_
    0.75, 0.86, 0.78, 0.73, 0.70, 0.83, 0.79, 1.12, 0.79, 0.74, 0.74, 0.47, 0.48, 0.47, 0.85, 0.58,
    // `abcdefghijklmno
    0.64, 0.69, 0.73, 0.61, 0.73, 0.69, 0.45, 0.73, 0.73, 0.36, 0.36, 0.68, 0.36, 1.06, 0.73, 0.70,
    // pqrstuvwxyz{|}~
    0.73, 0.73, 0.51, 0.61, 0.49, 0.73, 0.67, 0.94, 0.66, 0.67, 0.60, 0.73, 0.38, 0.73, 0.85,
];

/// How wide `c` may be drawn, em, in any common sans-serif font, bold or not (the card names no
/// font it carries, so the widest is assumed): ASCII from `ASCII_EM`; East Asian wide
/// characters 1 em; emoji and dingbats 1.5; Latin-1 and Latin Extended-A/B 1.2 but the
/// digraph letters `Ǆ`…`ǌ`, `Ǳ`…`ǳ` 1.6; Greek and Cyrillic 1.45; anything else 2 em (the
/// widest measured glyphs outside these: `‱` 1.89, Canadian syllabics 2.02, Khmer 2; the
/// two- and three-em dashes U+2E3A/B 2.5); zero for zero-width characters, combining
/// diacritical marks and controls.
pub fn em_width(c: char) -> f64 {
    let u = c as u32;
    match u {
        0..=0x1f | 0x7f..=0x9f | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064 => 0.0,
        0x300..=0x36f | 0xfe00..=0xfe0f => 0.0,
        0x20..=0x7e => ASCII_EM[(u - 0x20) as usize],
        _ if is_wide(c) => 1.0,
        0x1f000..=0x1faff | 0x2600..=0x27ff => 1.5,
        0x1c4..=0x1cc | 0x1f1..=0x1f3 => 1.6,
        0xa0..=0x24f => 1.2,
        0x370..=0x52f => 1.45,
        0x2e3a..=0x2e3b => 2.5,
        _ => 2.0,
    }
}

/// An East Asian wide character (CJK, kana, Hangul, full-width forms): 1 em, and a place the
/// wrap may break a line.
fn is_wide(c: char) -> bool {
    matches!(
        c as u32,
        0x1100..=0x115f
            | 0x2e80..=0xa4cf
            | 0xac00..=0xd7a3
            | 0xf900..=0xfaff
            | 0xfe30..=0xfe4f
            | 0xff00..=0xff60
            | 0xffe0..=0xffe6
            | 0x20000..=0x3fffd
    )
}

/// `text` wrapped to lines of at most `width_em` (em of the font size): breaks at spaces and
/// around wide characters, inside a word only when the word alone is too long; explicit line
/// breaks kept. At most `max` lines (≥ 1): the last of a longer text ends with "…".
pub fn wrap(text: &str, width_em: f64, max: usize) -> Vec<String> {
    // A bidi control is shown (`<U+202E>`) before measuring: it takes room on the card.
    let text = bidi::show(text, Shown::Text);
    let max = max.max(1);
    let mut lines: Vec<(String, f64)> = Vec::new();
    for para in text.split(['\n', '\r']) {
        let mut cur = String::new();
        let mut cur_w = 0.0;
        for token in tokens(para) {
            if token.trim().is_empty() {
                if !cur.is_empty() {
                    cur.push(' ');
                    cur_w += em_width(' ');
                }
                continue;
            }
            let w: f64 = token.chars().map(em_width).sum();
            if cur_w + w > width_em && !cur.trim().is_empty() {
                lines.push((cur.trim_end().to_owned(), cur_w));
                cur = String::new();
                cur_w = 0.0;
            }
            for ch in token.chars() {
                let cw = em_width(ch);
                if cur_w + cw > width_em && !cur.is_empty() {
                    lines.push((std::mem::take(&mut cur), cur_w));
                    cur_w = 0.0;
                }
                cur.push(ch);
                cur_w += cw;
            }
            if lines.len() > max {
                break;
            }
        }
        let rest = cur.trim_end().to_owned();
        if !rest.is_empty() {
            lines.push((rest, cur_w));
        }
        if lines.len() > max {
            break;
        }
    }
    if lines.is_empty() {
        return vec![String::new()];
    }
    if lines.len() > max {
        lines.truncate(max);
        if let Some((last, w)) = lines.last_mut() {
            let ellipsis = 1.0;
            while *w + ellipsis > width_em {
                match last.pop() {
                    Some(c) => *w -= em_width(c),
                    None => break,
                }
            }
            *last = format!("{}…", last.trim_end());
        }
    }
    lines.into_iter().map(|(l, _)| l).collect()
}

/// Break units: runs of spaces, single wide characters, and runs of anything else.
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut kind = 0u8;
    for (i, c) in s.char_indices() {
        let k = if c.is_whitespace() {
            1
        } else if is_wide(c) {
            2
        } else {
            3
        };
        if i > start && (k != kind || k == 2) {
            out.push(&s[start..i]);
            start = i;
        }
        kind = k;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Why a card's metadata could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataError {
    /// No `<share xmlns="urn:modality-advisor:share:1">` element (not a card of this tool, or
    /// an editor dropped the metadata).
    Missing,
    /// The metadata is larger than a catalog file may be ([`MAX_FILE_BYTES`]).
    TooLarge,
    /// The metadata is not a share this build accepts (the field and the allowed range).
    Invalid(ImportError),
}

impl MetadataError {
    /// The message in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            MetadataError::Missing => {
                crate::text::t!("share.svg.no-metadata", locale = l).into_owned()
            }
            MetadataError::TooLarge => crate::text::t!(
                "share.svg.metadata-too-large",
                locale = l,
                max = crate::domain::number::group_thousands(MAX_FILE_BYTES as u64)
            )
            .into_owned(),
            MetadataError::Invalid(e) => {
                crate::text::t!("share.link.invalid", locale = l, problem = e.message(lang))
                    .into_owned()
            }
        }
    }
}

/// Reads the share back from a card made by [`card`]: the text of the first
/// `<share xmlns="urn:modality-advisor:share:1">` element, XML entities decoded, read by
/// [`Share::from_json`] (every check of an import).
///
/// # Errors
/// [`MetadataError`]: no such element, over [`MAX_FILE_BYTES`], or what the reader refuses.
pub fn metadata(svg: &str) -> Result<Share, MetadataError> {
    let open = format!(r#"<share xmlns="{METADATA_NS}">"#);
    let start = svg.find(&open).ok_or(MetadataError::Missing)? + open.len();
    let len = svg[start..]
        .find("</share>")
        .ok_or(MetadataError::Missing)?;
    let raw = &svg[start..start + len];
    if raw.len() > MAX_FILE_BYTES {
        return Err(MetadataError::TooLarge);
    }
    Share::from_json(&unescape(raw)).map_err(MetadataError::Invalid)
}

/// XML text with its entity and character references decoded (`&amp;` `&lt;` `&gt;`
/// `&quot;` `&apos;` `&#N;` `&#xN;`); anything else is kept as written.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let decoded = rest.find(';').filter(|&e| e <= 12).and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => name
                    .strip_prefix("#x")
                    .map(|h| u32::from_str_radix(h, 16))
                    .or_else(|| name.strip_prefix('#').map(str::parse::<u32>))
                    .and_then(Result::ok)
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, used)) => {
                out.push(c);
                rest = &rest[used..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

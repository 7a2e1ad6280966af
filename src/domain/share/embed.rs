//! The "Copy embed code" snippet: the `<iframe>` a wiki page pastes to show a share on the
//! embed page (`embed.html#share-v1:…`), read-only.
//!
//! The embed page posts its height to the host (`{type: "modality-advisor:height", height}`,
//! see docs/HOSTING.md), but most wikis run no listener, so the snippet carries
//! a fixed height ([`recommended_height`]) measured from the real page.

use super::link::{embed_url, LinkError};
use super::{Share, Shared};
use crate::domain::bidi::{self, Shown};
use crate::domain::plot::escape;
use crate::domain::Lang;

/// The class the snippet's `<iframe>` carries, for the host's stylesheet (no inline style: many
/// wikis strip `style` attributes, and a strict CSP forbids them).
pub const IFRAME_CLASS: &str = "modality-advisor-embed";

/// The `sandbox` tokens of the snippet, each needed and nothing more:
/// * `allow-scripts`: the page is a wasm module; without it only the fallback text shows.
/// * `allow-same-origin`: keeps the page's own origin, so its module script, wasm and CSS load
///   without the host having to send CORS headers (without it the origin is `null`). The page
///   uses no storage, so this grants it nothing else it would use. (Combined with
///   `allow-scripts` a frame of the *host's own* origin could lift its sandbox; the embed page
///   is served from the app's origin, not the wiki's.)
/// * `allow-popups`: the "Open in the app" link opens a new tab (`target="_blank"`).
/// * `allow-popups-to-escape-sandbox`: that tab is the full app, which needs storage and forms;
///   without it the new tab would inherit this sandbox.
///
/// Not given: `allow-forms` (nothing is submitted), `allow-top-navigation` (the frame never
/// navigates the wiki page), `allow-modals`, `allow-downloads`.
pub const SANDBOX: &str =
    "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";

/// The smallest and largest height [`recommended_height`] gives, CSS px. Both a process card
/// with its sheet (3 209 px measured at 700 px) and a catalog (the example's seven processes,
/// 23 200 px) get the height of their content, so the frame does not scroll inside itself; only
/// a catalog of well over a hundred processes reaches the largest.
pub const HEIGHT_RANGE: std::ops::RangeInclusive<u32> = 320..=30_000;

/// Heights measured in Chromium on the embed page in a frame 700 px wide (CSS px, English;
/// Japanese runs 5–13 % shorter), from the fixtures of `tests/e2e/links/` (2026-12-05): the
/// example's mail process with its sheet and untouched load section 3 209 px (2 999 at 800,
/// 3 393 at 640), with every number of its load section stated 4 773 (4 148 at 800), without
/// its sheet 1 703, the undecided process 1 385, the seven-process catalog 23 200 (19 831 at
/// 800). 700 px is the narrowest content column of the usual wikis (Notion's default page is
/// 708 px wide; Confluence's fixed width about 760, GitHub's and MediaWiki's wider): a frame
/// there does not scroll inside itself, and a wider one has blank space below the card
/// (`tests/e2e/embed.test.mjs` holds the fixtures to both).
mod measured {
    /// A decided process: the link bar, the outcome, the reasons, the trade-offs and the lit
    /// flowchart.
    pub const PROCESS_CARD: u32 = 1_720;
    /// What the job sheet (its table and findings) adds below the card, its load section
    /// aside: 1 366 px measured for the example, with room for a name in code, a trigger and
    /// findings a little longer (a walk's process with them measured 4 888 px where the
    /// constants said 4 820).
    pub const SHEET: u32 = 1_460;
    /// An untouched load section's one row ("not sized yet: needs …").
    pub const LOAD_UNTOUCHED: u32 = 140;
    /// A stated load section's rows (every number stated: 1 704 px measured, with room for
    /// longer values).
    pub const LOAD_STATED: u32 = 1_800;
    /// A process whose walk is incomplete: the answers so far and the partly lit flowchart,
    /// no outcome.
    pub const UNDECIDED: u32 = 1_390;
    /// A catalog: its heading, the summary table's head and the link bar.
    pub const CATALOG_BASE: u32 = 250;
    /// Each process of a catalog besides its card and sheet: its row of the summary table
    /// and its section's heading and spacing (the seven-process catalog: 146 px each at
    /// 700 px).
    pub const CATALOG_ROW: u32 = 160;
}

/// One process's section: the card, plus the sheet when it has one.
fn process_height(p: &crate::domain::catalog::Process) -> u32 {
    let card = if p.outcome.is_some() {
        measured::PROCESS_CARD
    } else {
        measured::UNDECIDED
    };
    let load = |s: &crate::domain::sheet::JobSheet| {
        use crate::domain::sheet::load_text::{load_of, load_stated};
        match (load_of(s).is_some(), load_stated(s)) {
            (_, true) => measured::LOAD_STATED,
            (true, false) => measured::LOAD_UNTOUCHED,
            (false, _) => 0,
        }
    };
    card + p.sheet.as_ref().map_or(0, |s| measured::SHEET + load(s))
}

/// The frame height to recommend for `share`, CSS px, within [`HEIGHT_RANGE`]: a process
/// card with its flowchart (plus the sheet when it has one, and its load section's rows); a catalog's summary table by its
/// row count plus each process's section (so any catalog of a decided process reaches the
/// largest height and scrolls). Calibrated from the embed page at 700 px width, the narrowest
/// of a wiki's usual content widths and so the tallest (`measured`), rounded up to 20 px.
pub fn recommended_height(share: &Share) -> u32 {
    let raw = match &share.content {
        Shared::Process(p) => process_height(p),
        Shared::Catalog(c) => c.processes.iter().fold(measured::CATALOG_BASE, |h, p| {
            h.saturating_add(measured::CATALOG_ROW)
                .saturating_add(process_height(p))
        }),
    };
    let rounded = raw.div_ceil(20).saturating_mul(20);
    rounded.clamp(*HEIGHT_RANGE.start(), *HEIGHT_RANGE.end())
}

/// The frame's accessible name in `lang`, e.g. "Send the confirmation mail: Asynchronous:
/// enqueue a job — Sync / Async / Batch Advisor" (plain text; the caller escapes it).
pub fn frame_title(share: &Share, lang: Lang) -> String {
    let l = lang.code();
    let what = match &share.content {
        Shared::Process(p) => match p.outcome {
            Some(o) => format!("{}: {}", p.name, o.title(lang)),
            None => p.name.clone(),
        },
        Shared::Catalog(c) => {
            // A catalog without a system name is named as the card names it (the title
            // started with a space: " (8 processes) — …").
            let name = match c.name.trim() {
                "" => crate::text::t!("share.card.untitled", locale = l),
                name => name.into(),
            };
            crate::text::t!(
                "embed.title.catalog",
                locale = l,
                name = name,
                count = c.processes.len()
            )
            .into_owned()
        }
    };
    crate::text::t!("embed.title.frame", locale = l, what = what).into_owned()
}

/// The `<iframe>` HTML offered by "Copy embed code": `src` = [`embed_url`]`(base, share)`, the
/// [`frame_title`] in `lang`, `width="100%"`, `height` = [`recommended_height`], lazy
/// loading, no referrer, the [`SANDBOX`] tokens and the [`IFRAME_CLASS`] hook. Every attribute
/// value is escaped (`&`, `<`, `>`, `"`, `'`), so hostile names and URLs stay inside their
/// attribute, and a bidi control in the title is shown as `&lt;U+202E&gt;`
/// ([`bidi::show`]). One line, no trailing newline.
pub fn snippet(share: &Share, base: &str, lang: Lang) -> String {
    format!(
        r#"<iframe class="{IFRAME_CLASS}" src="{src}" title="{title}" width="100%" height="{height}" loading="lazy" referrerpolicy="no-referrer" sandbox="{SANDBOX}"></iframe>"#,
        src = escape(&embed_url(base, share)),
        title = bidi::show(&escape(&frame_title(share, lang)), Shown::Markup),
        height = recommended_height(share),
    )
}

/// The embed page's title (the document's `<title>`) when a link cannot be shown, in `lang`.
pub fn error_title(lang: Lang) -> String {
    crate::text::t!("embed.error-heading", locale = lang.code()).into_owned()
}

/// The embed page's view of a fragment that cannot be shown, in `lang` (the browser's: a
/// bad link carries no language): a heading, [`LinkError::message`] and a link to the app
/// (`app`, usually [`super::link::app_folder`] of the page's URL) that opens a new tab. An
/// HTML fragment; every text and the link escaped (an unknown field's name in the message
/// comes from the link).
pub fn error_view(e: &LinkError, lang: Lang, app: &str) -> String {
    let l = lang.code();
    format!(
        r#"<section class="embed-error" role="alert"><h1>{}</h1><p>{}</p><p><a class="embed-open" href="{}" target="_blank" rel="noopener">{}</a></p></section>"#,
        escape(&error_title(lang)),
        escape(&e.message(lang)),
        escape(app),
        escape(&crate::text::t!("embed.open-app", locale = l)),
    )
}

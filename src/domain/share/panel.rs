//! The share panel: everything the page offers for sharing one process or the catalog,
//! rendered in the export worker ([`ShareRequest`]) so none of the renderers weighs on the
//! page's first load. The page inserts [`Panel::html`] and, on a click, copies or downloads
//! the text [`Panel::items`] holds under the button's `data-share-copy` /
//! `data-share-download` key.
//!
//! | key | what | renderer |
//! |---|---|---|
//! | `link` | the app permalink | [`link::app_url`] |
//! | `short` | the permalink without notes | [`Share::without_notes`] |
//! | `embed` | the `<iframe>` code for wiki pages that allow it | [`embed::snippet`] |
//! | `svg` | the SVG decision card (an image: GitHub, Confluence, MediaWiki) | [`svg::card`] |
//! | `md` / `md-azure` | Markdown, GitHub/GitLab and Azure DevOps (`::: mermaid`) | [`markdown::markdown`] |
//! | `rich` / `rich-plain` | HTML for rich-text editors, and its plain-text twin | [`card::rich_text`] |
//! | `adr` | an Architecture Decision Record (MADR) | [`adr::adr`] |
//! | `copied`, `downloaded` | the status words the page shows after a click | locales |

use super::{adr, card, embed, link, markdown, svg, Share, Shared};
use crate::domain::export::file_stem;
use crate::domain::number::group_thousands;
use crate::domain::plot::escape;
use crate::domain::Lang;
use crate::text::t;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What the page wants rendered for a share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShareWant {
    /// The share panel ([`panel`]).
    Panel,
    /// The app's read-only view of an opened link ([`shared_view`]: a bar with "Save to my
    /// catalog" and "Close", then [`card::html`] without the "open in the app" link).
    Card,
}

/// One share rendering, page → worker:
/// `{"id":4,"lang":"ja","base":"https://…/","want":"Panel","share":{…}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareRequest {
    /// Echoed in the reply.
    pub id: u32,
    /// The language of every text rendered (the share's own `lang` goes into the links).
    pub lang: Lang,
    /// The page's URL (its folder is where links point: [`link::app_folder`]).
    pub base: String,
    /// What to render.
    pub want: ShareWant,
    /// What is shared.
    pub share: Share,
}

impl ShareRequest {
    /// The request as JSON text (what the page posts).
    pub fn to_json(&self) -> String {
        crate::domain::json::compact(self)
    }

    /// The rendered [`Panel`] as JSON ([`Panel::to_json`]).
    pub fn render(&self) -> String {
        match self.want {
            ShareWant::Panel => panel(&self.share, &self.base, self.lang).to_json(),
            ShareWant::Card => shared_view(&self.share, self.lang).to_json(),
        }
    }
}

/// The rendered panel: its HTML (every user text escaped; no script, no inline style, no
/// event attribute) and the texts its buttons copy or download, by key (module table).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Panel {
    /// The panel's HTML fragment.
    pub html: String,
    /// The texts behind the buttons, (key, text) in key order.
    pub items: Vec<(String, String)>,
}

impl Panel {
    /// The text under `key` (empty when there is none).
    pub fn item(&self, key: &str) -> &str {
        self.items
            .iter()
            .find(|(k, _)| k == key)
            .map_or("", |(_, v)| v.as_str())
    }

    /// The panel as JSON text (the worker's reply): a flat list of strings, the HTML first,
    /// then key, text, key, text… — the page reads it with the string-list reader it already
    /// has (no map decoder in its first load).
    pub fn to_json(&self) -> String {
        let mut flat = vec![self.html.as_str()];
        for (k, v) in &self.items {
            flat.push(k);
            flat.push(v);
        }
        crate::domain::json::compact(&flat)
    }

    /// Reads [`Panel::to_json`]'s text.
    ///
    /// # Errors
    /// `serde_json`'s words when `text` is not a list of strings; a message when a key has no
    /// text.
    pub fn from_json(text: &str) -> Result<Panel, String> {
        let flat: Vec<String> = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut it = flat.into_iter();
        let html = it.next().unwrap_or_default();
        let mut items = Vec::new();
        while let Some(k) = it.next() {
            let v = it.next().ok_or_else(|| format!("no text for {k}"))?;
            items.push((k, v));
        }
        Ok(Panel { html, items })
    }
}

/// A name in the panel's title: escaped and isolated (`<bdi>`).
fn isolated(name: &str) -> String {
    format!("<bdi>{}</bdi>", escape(name))
}

/// The share panel for `share`, links pointing at `base`'s folder, texts in `lang`.
pub fn panel(share: &Share, base: &str, lang: Lang) -> Panel {
    let l = lang.code();
    let full = link::app_url(base, share);
    let short_share = share.without_notes();
    let short = link::app_url(base, &short_share);
    let (title, stem) = match &share.content {
        Shared::Process(p) => (
            t!(
                "share-ui.title-process",
                locale = l,
                name = isolated(&p.name)
            )
            .into_owned(),
            file_stem(&p.name),
        ),
        Shared::Catalog(c) if c.name.trim().is_empty() => (
            t!("share-ui.title-catalog-unnamed", locale = l).into_owned(),
            String::new(),
        ),
        Shared::Catalog(c) => (
            t!(
                "share-ui.title-catalog",
                locale = l,
                name = isolated(&c.name)
            )
            .into_owned(),
            file_stem(&c.name),
        ),
    };
    let stem = if stem.is_empty() {
        "modality-advisor".to_owned()
    } else {
        stem
    };
    let mut items = BTreeMap::new();
    let plain = markdown::markdown(share, lang, &full, markdown::Flavour::GitHub);
    items.insert("md".into(), plain.clone());
    items.insert(
        "md-azure".into(),
        markdown::markdown(share, lang, &full, markdown::Flavour::Azure),
    );
    items.insert("rich".into(), card::rich_text(share, lang, &full));
    items.insert("rich-plain".into(), plain);
    items.insert("svg".into(), svg::card(share, lang, &full));
    items.insert("adr".into(), adr::adr(share, lang, &full));
    items.insert("embed".into(), embed::snippet(share, base, lang));
    items.insert(
        "copied".into(),
        t!("share-ui.copied", locale = l).into_owned(),
    );
    items.insert(
        "downloaded".into(),
        t!("share-ui.downloaded", locale = l).into_owned(),
    );
    let chars = |s: &str| group_thousands(s.chars().count() as u64);
    let mut html = format!(
        "<h2 class=\"share-title\" id=\"share-title\" tabindex=\"-1\">{title}</h2>\
         <p class=\"hint\">{}</p>",
        t!("share-ui.private", locale = l)
    );
    html.push_str(&link_row(
        "link",
        &t!("share-ui.link", locale = l),
        &full,
        &chars(&full),
        l,
    ));
    if full.chars().count() > link::LONG_LINK_CHARS {
        // The shorter link is advised only when it is short enough itself.
        let key = if short.chars().count() > link::LONG_LINK_CHARS {
            "share-ui.long-both"
        } else {
            "share-ui.long"
        };
        html.push_str(&format!(
            "<p class=\"warn\" role=\"note\">{}</p>",
            t!(
                key,
                locale = l,
                max = group_thousands(link::LONG_LINK_CHARS as u64)
            )
        ));
    }
    if short != full {
        html.push_str(&link_row(
            "short",
            &t!("share-ui.short", locale = l),
            &short,
            &chars(&short),
            l,
        ));
        html.push_str(&format!(
            "<p class=\"hint\">{}</p>",
            t!("share-ui.short-leaves-out", locale = l)
        ));
    }
    items.insert("link".into(), full);
    items.insert("short".into(), short);
    html.push_str(&ways_html(share, &stem, l));
    Panel {
        html,
        items: items.into_iter().collect(),
    }
}

/// One way to put a share on a wiki page: the item's key, the button's text key, the file it
/// downloads as (name, media type; `None`: copied), the hint.
type Way<'a> = (&'a str, &'a str, Option<(String, &'a str)>, String);

/// The list of ways to put the share on a wiki page: a button (copy, or download as a file
/// named from `stem`) and a hint each.
fn ways_html(share: &Share, stem: &str, l: &str) -> String {
    let mut html = format!(
        "<h3>{}</h3><ul class=\"share-ways\">",
        t!("share-ui.wikis", locale = l)
    );
    let height = embed::recommended_height(share);
    let ways: [Way; 6] = [
        (
            "embed",
            "share-ui.embed",
            None,
            t!("share-ui.embed-hint", locale = l, height = height).into_owned(),
        ),
        (
            "svg",
            "share-ui.svg",
            Some((format!("{stem}.svg"), "image/svg+xml")),
            t!("share-ui.svg-hint", locale = l).into_owned(),
        ),
        (
            "md",
            "share-ui.md",
            None,
            t!("share-ui.md-hint", locale = l).into_owned(),
        ),
        (
            "md-azure",
            "share-ui.md-azure",
            None,
            t!("share-ui.md-azure-hint", locale = l).into_owned(),
        ),
        (
            "rich",
            "share-ui.rich",
            None,
            t!("share-ui.rich-hint", locale = l).into_owned(),
        ),
        (
            "adr",
            "share-ui.adr",
            Some((format!("{stem}-adr.md"), "text/markdown")),
            t!("share-ui.adr-hint", locale = l).into_owned(),
        ),
    ];
    for (key, label, file, hint) in ways {
        let button = match file {
            None => format!(
                "<button type=\"button\" data-share-copy=\"{key}\">{}</button>",
                t!(label, locale = l)
            ),
            Some((name, mime)) => format!(
                "<button type=\"button\" data-share-download=\"{key}\" data-file=\"{}\" \
                 data-mime=\"{mime}\">{}</button>",
                escape(&name),
                t!(label, locale = l)
            ),
        };
        html.push_str(&format!(
            "<li>{button} <span class=\"hint\">{hint}</span></li>"
        ));
    }
    let _ = write!(
        html,
        "</ul><p><button type=\"button\" class=\"link\" data-share-action=\"close-panel\" \
         id=\"share-close\">{}</button></p>",
        t!("share-ui.close", locale = l)
    );
    html
}

/// The app's read-only view of a shared process or catalog: what it is, "Save to my catalog"
/// (`data-share-action="save"`) and "Close" (`close`), then the card. No items: nothing to
/// copy.
pub fn shared_view(share: &Share, lang: Lang) -> Panel {
    let l = lang.code();
    let what = match &share.content {
        Shared::Process(_) => t!("share-ui.shared-process", locale = l).into_owned(),
        Shared::Catalog(c) => {
            t!("share-ui.shared-catalog", locale = l, n = c.processes.len()).into_owned()
        }
    };
    let html = format!(
        "<div class=\"shared-bar\" role=\"region\" aria-label=\"{what}\">\
         <p><strong>{what}</strong> {}</p>\
         <button type=\"button\" class=\"primary\" id=\"shared-save\" \
         data-share-action=\"save\">{}</button>\
         <button type=\"button\" class=\"secondary\" id=\"shared-close\" \
         data-share-action=\"close\">{}</button></div><div class=\"shared-card\">{}</div>",
        t!("share-ui.read-only", locale = l),
        t!("share-ui.save", locale = l),
        t!("share-ui.close-shared", locale = l),
        card::html(share, lang, ""),
    );
    Panel {
        html,
        items: Vec::new(),
    }
}

/// A link's row: label, the link in a read-only field, its length, Copy and Open.
fn link_row(key: &str, label: &str, url: &str, chars: &str, l: &str) -> String {
    format!(
        "<div class=\"share-link\"><label for=\"share-{key}\">{label}</label>\
         <input id=\"share-{key}\" type=\"text\" readonly=\"\" value=\"{url}\"/>\
         <span class=\"hint\" data-share-length=\"{key}\">{len}</span>\
         <button type=\"button\" data-share-copy=\"{key}\">{copy}</button>\
         <a href=\"{url}\" target=\"_blank\" rel=\"noopener\">{open}</a></div>",
        url = escape(url),
        len = t!("share-ui.chars", locale = l, n = chars),
        copy = t!("share-ui.copy", locale = l),
        open = t!("share-ui.open", locale = l),
    )
}

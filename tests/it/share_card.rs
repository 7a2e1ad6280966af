//! The share card (`domain::share::card`): well-formed, script-free HTML for every process of
//! the example catalog and for the whole catalog, in both languages; hostile text escaped;
//! the rich-text HTML for the clipboard.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::bidi::{self, Shown};
use modality_advisor::domain::catalog::Process;
use modality_advisor::domain::flowchart::evaluate;
use modality_advisor::domain::share::card::{html, rich_text};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::Lang;

const OPEN: &str = "https://wiki.example/advisor/#share-v1:abc";

fn process_share(p: &Process, lang: Lang) -> Share {
    Share {
        lang,
        content: Shared::Process(Box::new(p.clone())),
    }
}

fn catalog_share(lang: Lang) -> Share {
    Share {
        lang,
        content: Shared::Catalog(example_catalog()),
    }
}

/// Every share the tests render: each example process alone, then the whole catalog.
fn all_shares(lang: Lang) -> Vec<Share> {
    let mut out: Vec<Share> = example_catalog()
        .processes
        .iter()
        .map(|p| process_share(p, lang))
        .collect();
    out.push(catalog_share(lang));
    out
}

/// Parses `fragment` as XML inside a root element and returns the concatenated text.
/// Panics (failing the test) when it is not well-formed, or holds a `script` element, a
/// `style` attribute or an `on…` event attribute.
fn checked(fragment: &str) -> String {
    assert!(!fragment.contains("<script"), "a <script in the card");
    assert!(
        !fragment.contains("style="),
        "a style attribute in the card"
    );
    let wrapped = format!("<root>{fragment}</root>");
    let doc = match roxmltree::Document::parse(&wrapped) {
        Ok(d) => d,
        Err(e) => panic!("not well-formed: {e}"),
    };
    let mut text = String::new();
    for node in doc.descendants() {
        if node.is_element() {
            let name = node.tag_name().name().to_ascii_lowercase();
            assert!(name != "script" && name != "style", "<{name}> element");
            for a in node.attributes() {
                let n = a.name().to_ascii_lowercase();
                assert!(!n.starts_with("on"), "event attribute {n}");
                assert!(n != "style", "style attribute");
                if n == "href" {
                    assert!(
                        !a.value().to_ascii_lowercase().contains("javascript:"),
                        "javascript: link"
                    );
                }
            }
        }
        if let Some(t) = node.text() {
            if node.is_text() {
                text.push_str(t);
            }
        }
    }
    text
}

#[test]
fn every_card_is_well_formed_and_script_free_in_both_languages() {
    for lang in [Lang::En, Lang::Ja] {
        for share in all_shares(lang) {
            let out = html(&share, lang, OPEN);
            let text = checked(&out);
            assert!(out.contains(&format!(
                "<a class=\"sc-open\" href=\"{OPEN}\" target=\"_blank\" rel=\"noopener\">"
            )));
            for p in share.processes() {
                let eval = evaluate(&p.answers());
                assert!(out.contains(&format!("id=\"sc-{}\"", p.id)), "{}", p.id);
                if let Some(o) = eval.outcome() {
                    assert!(text.contains(&o.title(lang)), "{} {lang:?}", p.id);
                }
                for r in eval.reasons(lang) {
                    assert!(text.contains(&r), "{}: reason {r}", p.id);
                }
                for t in eval.tradeoffs(lang) {
                    assert!(text.contains(&t), "{}: trade-off {t}", p.id);
                }
                assert!(out.contains("on-path"), "the path is lit");
            }
            // Each inlined chart keeps its ids to itself.
            let mut ids: Vec<&str> = out.split(" id=\"").skip(1).collect();
            ids.iter_mut()
                .for_each(|s| *s = s.split('"').next().unwrap_or_default());
            let n = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), n, "duplicate ids");
        }
    }
}

#[test]
fn the_catalog_card_links_each_summary_row_to_its_section() {
    let out = html(&catalog_share(Lang::En), Lang::En, OPEN);
    let c = example_catalog();
    for p in &c.processes {
        assert!(
            out.contains(&format!("<a href=\"#sc-{}\">", p.id)),
            "{}",
            p.id
        );
    }
    assert!(out.contains("Reservation system"));
    // Processes sit one heading level down in a catalog.
    assert!(out.contains("<h3 class=\"sc-name\""));
    assert!(!out.contains("<h2 class=\"sc-name\""));
}

#[test]
fn an_undecided_process_says_so_and_a_process_without_sheet_too() {
    let c = example_catalog();
    let undecided = c
        .processes
        .iter()
        .find(|p| p.outcome.is_none())
        .expect("the example has an undecided process");
    for lang in [Lang::En, Lang::Ja] {
        let out = html(&process_share(undecided, lang), lang, OPEN);
        let text = checked(&out);
        let expected = rust_i18n_text(lang, "Not decided yet", "まだ決まっていません");
        assert!(text.contains(expected), "{lang:?}");
        assert!(out.contains("is-current"), "the pending question is marked");
        if undecided.sheet.is_none() {
            let none = rust_i18n_text(
                lang,
                "There is no job definition sheet",
                "ジョブ定義書はまだありません",
            );
            assert!(text.contains(none));
        }
    }
}

fn rust_i18n_text(lang: Lang, en: &'static str, ja: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Ja => ja,
    }
}

const SCRIPT: &str = "<script>alert(1)</script>";

/// Hostile texts: markup, quotes and ampersands, a right-to-left override, a huge name.
fn hostile_texts() -> Vec<String> {
    vec![
        SCRIPT.to_owned(),
        "\"'& <b>x</b> &amp; ]]> <!-- c -->".to_owned(),
        "abc\u{202E}fdp.exe".to_owned(),
        "x".repeat(10_000),
    ]
}

/// The example's first process whose sheet has a retry section (queued: the most rows).
fn queued_process() -> Process {
    let c = example_catalog();
    let found = c
        .processes
        .iter()
        .find(|p| p.sheet.as_ref().is_some_and(|s| s.retry.is_some()));
    found.expect("a queued process in the example").clone()
}

/// [`queued_process`] with `bad` in its name and in its sheet's free-text fields.
fn hostile_process(bad: &str) -> Process {
    let mut p = queued_process();
    p.name = bad.to_owned();
    let sheet = p.sheet.as_mut().expect("a sheet");
    sheet.process.process_name = bad.to_owned();
    sheet.process.code_name = bad.to_owned();
    sheet.process.trigger = bad.to_owned();
    sheet.process.arguments = vec![bad.to_owned()];
    if let Some(r) = &mut sheet.retry {
        r.idempotency_key = bad.to_owned();
    }
    if let Some(f) = &mut sheet.failure {
        f.notify = bad.to_owned();
        f.dead_letter = bad.to_owned();
    }
    p
}

#[test]
fn hostile_text_comes_out_escaped() {
    for bad in hostile_texts() {
        for lang in [Lang::En, Lang::Ja] {
            let p = hostile_process(&bad);
            let mut c = example_catalog();
            c.name = bad.clone();
            c.processes[0] = p.clone();
            for share in [
                process_share(&p, lang),
                Share {
                    lang,
                    content: Shared::Catalog(c),
                },
            ] {
                // The card keeps the text as typed; the rich text, pasted into editors that
                // may drop `<bdi>`, shows a bidi control as `<U+202E>` instead.
                let shown = bidi::show(&bad, Shown::Text);
                for (out, typed) in [
                    (html(&share, lang, OPEN), bad.as_str()),
                    (rich_text(&share, lang, OPEN), &*shown),
                ] {
                    let text = checked(&out);
                    assert!(!out.contains(SCRIPT));
                    assert!(!out.contains("<b>"));
                    // The reader sees the text as typed.
                    assert!(text.contains(typed), "{} chars", bad.len());
                    if bad.contains('\u{202E}') {
                        // The override is shut in a <bdi> and cannot turn the rest around.
                        for piece in out.split('\u{202E}').skip(1) {
                            let next_tag = piece.find('<').map(|i| &piece[i..]);
                            assert!(
                                next_tag.is_none_or(|t| t.starts_with("</bdi>")),
                                "{piece:.40}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_hostile_open_link_is_neutralised() {
    let share = catalog_share(Lang::En);
    for link in [
        "javascript:alert(1)",
        " JavaScript:alert(1)",
        "data:text/html,x",
    ] {
        let out = html(&share, Lang::En, link);
        checked(&out);
        assert!(out.contains("class=\"sc-open\" href=\"#\""), "{link}");
        let rich = rich_text(&share, Lang::En, link);
        checked(&rich);
        assert!(rich.contains("<a href=\"#\">"), "{link}");
    }
    let out = html(
        &share,
        Lang::En,
        "https://x.example/a?b=1&c=\"2\"#share-v1:x",
    );
    assert!(out.contains("href=\"https://x.example/a?b=1&amp;c=&quot;2&quot;#share-v1:x\""));
}

#[test]
fn rich_text_has_the_outcome_reasons_rows_and_link() {
    for lang in [Lang::En, Lang::Ja] {
        for share in all_shares(lang) {
            let out = rich_text(&share, lang, OPEN);
            let text = checked(&out);
            assert!(!out.contains("<svg"));
            assert!(!out.contains("class="));
            assert!(out.contains(&format!("<a href=\"{OPEN}\">{OPEN}</a>")));
            let has_table = match &share.content {
                Shared::Process(p) => p.sheet.is_some(),
                Shared::Catalog(_) => true,
            };
            assert_eq!(out.contains("<table>") && out.contains("<th>"), has_table);
            if let Shared::Process(p) = &share.content {
                let eval = evaluate(&p.answers());
                if let Some(o) = eval.outcome() {
                    assert!(text.contains(&o.title(lang)));
                }
                for r in eval.reasons(lang) {
                    assert!(text.contains(&r), "{}: reason {r}", p.id);
                }
            }
        }
    }
}

/// The card with the flowchart's SVG body cut out (its own snapshot lives in `diagram`) and a
/// line break between tags, for reading.
fn readable(out: &str) -> String {
    let mut s = String::new();
    let mut rest = out;
    while let Some(start) = rest.find("<svg") {
        s.push_str(&rest[..start]);
        let end = rest[start..]
            .find("</svg>")
            .map_or(rest.len(), |e| start + e + 6);
        let head_end = rest[start..].find('>').map_or(end, |e| start + e + 1);
        s.push_str(&rest[start..head_end]);
        let on_path: Vec<&str> = rest[head_end..end]
            .split("data-node=\"")
            .skip(1)
            .filter_map(|n| n.split('"').next())
            .collect();
        let lit: Vec<&str> = rest[head_end..end]
            .split("class=\"fc-node on-path")
            .skip(1)
            .filter_map(|n| n.split("data-node=\"").nth(1)?.split('"').next())
            .collect();
        s.push_str(&format!(
            "…{} nodes, lit: {}…</svg>",
            on_path.len(),
            lit.join(", ")
        ));
        rest = &rest[end..];
    }
    s.push_str(rest);
    s.replace("><", ">\n<")
}

#[test]
fn snapshot_of_one_process_card() {
    let p = &queued_process();
    insta::assert_snapshot!(
        "share_card_process_en",
        readable(&html(&process_share(p, Lang::En), Lang::En, OPEN))
    );
    insta::assert_snapshot!(
        "share_card_process_ja",
        readable(&html(&process_share(p, Lang::Ja), Lang::Ja, OPEN))
    );
}

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn every_card_class_is_styled_and_the_flowchart_rules_live_in_one_file() {
    let css = read("static/share-card.css");
    let mut classes = std::collections::BTreeSet::new();
    for lang in [Lang::En, Lang::Ja] {
        for share in all_shares(lang) {
            let out = html(&share, lang, OPEN);
            for attr in out.split("class=\"").skip(1) {
                let value = attr.split('"').next().unwrap_or_default();
                classes.extend(
                    value
                        .split_whitespace()
                        .filter(|c| c.starts_with("sc-") && !c.starts_with("sc-outcome-"))
                        .map(str::to_owned),
                );
            }
        }
    }
    assert!(classes.len() > 20, "{classes:?}");
    for c in &classes {
        assert!(css.contains(&format!(".{c}")), "no rule for .{c}");
    }
    assert!(!css.contains("var(--fg") && !css.contains("var(--accent"));
    let app = read("static/style.css");
    let chart = read("static/flowchart.css");
    assert!(!app.contains(".fc-") && !app.contains("svg.flowchart"));
    for rule in ["fc-node.on-path", "fc-node.is-current", "fc-edge.on-path"] {
        assert!(chart.contains(rule), "{rule}");
    }
    for var in chart.split("var(--").skip(1) {
        let inside = var.split(')').next().unwrap_or_default();
        assert!(inside.contains(','), "var(--{inside}) has no fallback");
    }
    let index = read("index.html");
    let style = index.find("href=\"static/style.css\"");
    let flow = index.find("href=\"static/flowchart.css\"");
    assert!(style.is_some() && flow.is_some() && style < flow);
}

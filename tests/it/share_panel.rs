//! The share panel (`domain::share::panel`) through the worker's path: the request the page
//! posts (`ShareRequest::to_json`), the worker's `protocol::handle`, the reply the page reads
//! (`ExportReply` → `Panel`). Its HTML is well-formed and script-free with hostile names, its
//! links decode to what was shared, the length shown is the link's, long links warn.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::export::protocol::{handle, ExportReply};
use modality_advisor::domain::share::link::{decode, LONG_LINK_CHARS};
use modality_advisor::domain::share::panel::{Panel, ShareRequest, ShareWant};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::Lang;

const BASE: &str = "https://wiki.example/advisor/index.html#sheet";

/// What the page gets back for `share` in `lang`.
fn panel_for(share: &Share, lang: Lang) -> Panel {
    let request = ShareRequest {
        id: 7,
        lang,
        base: BASE.into(),
        want: ShareWant::Panel,
        share: share.clone(),
    };
    let reply = ExportReply::from_json(&handle(&request.to_json())).expect("a reply");
    assert_eq!(reply.id, 7);
    Panel::from_json(&reply.result.expect("rendered")).expect("a panel")
}

/// The panel's HTML as XML (well-formed, no script, no inline style or handler); its text.
fn checked(html: &str) -> String {
    let xml = format!("<root>{html}</root>");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert_ne!(node.tag_name().name(), "script");
        for a in node.attributes() {
            assert!(!a.name().starts_with("on"), "event attribute {}", a.name());
            assert_ne!(a.name(), "style");
        }
    }
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

fn field_value(html: &str, id: &str) -> String {
    let xml = format!("<root>{html}</root>");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    doc.descendants()
        .find(|n| n.attribute("id") == Some(id))
        .and_then(|n| n.attribute("value"))
        .expect("the field")
        .to_owned()
}

#[test]
fn every_process_and_the_catalog_get_links_that_open_what_was_shared() {
    let mut shares: Vec<Share> = example_catalog()
        .processes
        .into_iter()
        .map(|p| Share {
            lang: Lang::Ja,
            content: Shared::Process(Box::new(p)),
        })
        .collect();
    shares.push(Share {
        lang: Lang::En,
        content: Shared::Catalog(example_catalog()),
    });
    let mut both_long = 0;
    for share in &shares {
        for lang in Lang::ALL {
            let panel = panel_for(share, lang);
            let text = checked(&panel.html);
            let link = panel.item("link");
            assert!(
                link.starts_with("https://wiki.example/advisor/#share-v1:"),
                "{link}"
            );
            assert_eq!(field_value(&panel.html, "share-link"), link);
            let fragment = link.split_once('#').expect("a fragment").1;
            assert_eq!(decode(fragment).as_ref(), Ok(share));
            let short = panel.item("short");
            let short_share = decode(short.split_once('#').expect("#").1).expect("opens");
            assert_eq!(short_share, share.without_notes());
            // The length shown is the link's, grouped as the page writes numbers.
            let n = link.chars().count();
            let grouped = modality_advisor::domain::number::group_thousands(n as u64);
            assert!(text.contains(&grouped), "{grouped} in {text}");
            assert_eq!(
                text.contains("2,000") || text.contains("2 000"),
                n > LONG_LINK_CHARS,
                "warning iff long: {n}"
            );
            // The shorter link is advised only where it is short enough; else both are
            // said to be long (a catalog's links both pass 2,000 characters).
            let short_long = short.chars().count() > LONG_LINK_CHARS;
            if n > LONG_LINK_CHARS {
                let (advice, both) = match lang {
                    Lang::En => ("Use the shorter link", "Both links are longer"),
                    Lang::Ja => ("短いリンク、", "どちらのリンクも"),
                };
                assert_eq!(text.contains(advice), !short_long, "{text}");
                assert_eq!(text.contains(both), short_long, "{text}");
                both_long += usize::from(short_long);
            }
            for key in [
                "svg",
                "md",
                "md-azure",
                "rich",
                "rich-plain",
                "adr",
                "copied",
                "downloaded",
            ] {
                assert!(!panel.item(key).is_empty(), "{key}");
            }
            assert!(panel.item("md-azure").contains("::: mermaid"));
            assert!(panel.html.contains("data-share-download=\"svg\""));
        }
    }
    assert!(both_long > 0, "the catalog's two links are both long");
}

#[test]
fn hostile_names_stay_text_in_the_panel_and_its_file_names() {
    let mut p = example_catalog().processes[2].clone();
    p.name = "<script>alert(1)</script> \"quoted\" & 'x' \u{202e}evil".into();
    if let Some(sheet) = p.sheet.as_mut() {
        sheet.process.process_name = p.name.clone();
    }
    let share = Share {
        lang: Lang::En,
        content: Shared::Process(Box::new(p.clone())),
    };
    let panel = panel_for(&share, Lang::En);
    let text = checked(&panel.html);
    assert!(
        text.contains("<script>alert(1)</script>"),
        "shown as text: {text}"
    );
    let xml = format!("<root>{}</root>", panel.html);
    let doc = roxmltree::Document::parse(&xml).expect("xml");
    for n in doc
        .descendants()
        .filter(|n| n.attribute("data-file").is_some())
    {
        let file = n.attribute("data-file").expect("a name");
        assert!(
            file.chars()
                .all(|c| c.is_alphanumeric() || "-_.".contains(c)),
            "{file}"
        );
        assert!(file.chars().count() <= 70, "{file}");
    }
}

#[test]
fn a_request_the_worker_cannot_read_is_answered_with_a_message() {
    let reply =
        ExportReply::from_json(&handle(r#"{"id":3,"lang":"ja","want":"Panel"}"#)).expect("a reply");
    assert_eq!(reply.id, 3);
    assert!(reply.result.is_err());
}

#[test]
fn the_shared_view_offers_save_and_close_above_the_card() {
    use modality_advisor::domain::share::panel::shared_view;
    for lang in Lang::ALL {
        let share = Share {
            lang,
            content: Shared::Catalog(example_catalog()),
        };
        let request = ShareRequest {
            id: 2,
            lang,
            base: BASE.into(),
            want: ShareWant::Card,
            share: share.clone(),
        };
        let reply = ExportReply::from_json(&handle(&request.to_json())).expect("a reply");
        let view = Panel::from_json(&reply.result.expect("rendered")).expect("a view");
        assert_eq!(view, shared_view(&share, lang));
        let text = checked(&view.html);
        assert!(view.html.contains("data-share-action=\"save\""));
        assert!(view.html.contains("data-share-action=\"close\""));
        assert!(
            !view.html.contains("sc-open"),
            "no 'open in the app' inside the app"
        );
        assert!(text.contains(&example_catalog().processes.len().to_string()));
    }
}

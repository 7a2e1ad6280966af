//! The share formats for wikis without iframes (`domain::share::{svg, adr, markdown}`): the
//! SVG card is well-formed, inert XML for every process, the catalog and hostile text, and
//! carries its share in its metadata; the decision record and both Markdown flavours as
//! snapshots.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::catalog::{Catalog, Process};
use modality_advisor::domain::share::adr::adr;
use modality_advisor::domain::share::markdown::{markdown, md_url, Flavour};
use modality_advisor::domain::share::svg::{self, card, wrap, MetadataError};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::Lang;

/// A fixed stand-in for the permalink, so snapshots do not change with the codec's bytes.
const LINK: &str = "https://tools.example/advisor/#share-v1:eNqrVspMUbJSUkrOzy0oSi0uzs9TqgUAQ7gHBg";

fn of_process(p: &Process, lang: Lang) -> Share {
    Share {
        lang,
        content: Shared::Process(Box::new(p.clone())),
    }
}

fn of_catalog(c: Catalog, lang: Lang) -> Share {
    Share {
        lang,
        content: Shared::Catalog(c),
    }
}

fn process(id: &str) -> Process {
    let c = example_catalog();
    match c.processes.into_iter().find(|p| p.id.as_str() == id) {
        Some(p) => p,
        None => panic!("no example process {id}"),
    }
}

/// Parses `svg` as XML and checks it is inert as an image: no script, no event attribute,
/// no link of any kind, no external resource.
fn assert_inert(svg: &str) {
    let doc = match roxmltree::Document::parse(svg) {
        Ok(d) => d,
        Err(e) => panic!("not well-formed XML: {e}\n{}", &svg[..svg.len().min(2000)]),
    };
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert!(root.attribute("viewBox").is_some() && root.attribute("width").is_some());
    let mut titles = 0;
    for node in doc.descendants().filter(|n| n.is_element()) {
        let tag = node.tag_name().name().to_ascii_lowercase();
        assert!(
            !matches!(
                tag.as_str(),
                "script" | "a" | "image" | "use" | "foreignobject" | "iframe"
            ),
            "element <{tag}>"
        );
        titles += usize::from(tag == "title" || tag == "desc");
        for a in node.attributes() {
            let name = a.name().to_ascii_lowercase();
            assert!(!name.starts_with("on"), "event attribute {name}");
            assert!(name != "href", "href attribute ({:?})", a.namespace());
            assert!(!a.value().contains("url("), "url() in {name}");
        }
    }
    assert!(titles >= 2, "a <title> and a <desc>");
    let lower = svg.to_ascii_lowercase();
    for bad in [
        "<script",
        "href",
        "@import",
        "url(",
        "<!doctype",
        "<!entity",
    ] {
        assert!(!lower.contains(bad), "{bad} in the SVG");
    }
}

#[test]
fn every_example_process_and_the_catalog_make_an_inert_card_that_reopens() {
    let catalog = example_catalog();
    for lang in [Lang::En, Lang::Ja] {
        for p in &catalog.processes {
            let share = of_process(p, lang);
            let svg = card(&share, lang, LINK);
            assert_inert(&svg);
            assert_eq!(svg::metadata(&svg), Ok(share), "{}", p.id);
        }
        let share = of_catalog(catalog.clone(), lang);
        let svg = card(&share, lang, LINK);
        assert_inert(&svg);
        assert_eq!(svg::metadata(&svg), Ok(share));
    }
}

#[test]
fn hostile_text_stays_text() {
    let hostile = [
        "<script>alert(1)</script>",
        "]]><svg onload=alert(1)>",
        "\"'&amp;&lt; \" onload=\"x",
        "\u{202e}evil\u{202d} name",
        "😀🎉👩‍👩‍👧 emoji 🚀",
        "\u{fffe}\u{ffff} noncharacters",
        "&#x3c;script&#x3e; <!-- --> <![CDATA[ x ]]>",
    ];
    for h in hostile {
        let mut p = process("confirmation-mail");
        p.name = h.to_owned();
        if let Some(s) = &mut p.sheet {
            s.process.process_name = h.to_owned();
            if let Some(r) = &mut s.retry {
                r.idempotency_key = h.to_owned();
            }
        }
        let share = of_process(&p, Lang::En);
        let svg = card(&share, Lang::En, &format!("{LINK}{h}"));
        assert_inert(&svg);
        assert_eq!(svg::metadata(&svg), Ok(share), "{h:?}");
        let mut c = example_catalog();
        c.name = h.to_owned();
        let at = c.position(&p.id).expect("the example has it");
        c.processes[at] = p.clone();
        let share = of_catalog(c, Lang::Ja);
        let svg = card(&share, Lang::Ja, LINK);
        assert_inert(&svg);
        assert_eq!(svg::metadata(&svg), Ok(share), "{h:?}");
        for text in [
            adr(&of_process(&p, Lang::En), Lang::En, LINK),
            markdown(&of_process(&p, Lang::En), Lang::En, LINK, Flavour::GitHub),
        ] {
            assert!(!text.contains("<script"), "{h:?}: {text}");
        }
    }
    // Ten thousand characters: the card stays bounded (cut with "…"), the XML well-formed.
    let long: String = "長い名前 long name ".repeat(800);
    let mut p = process("charge-card");
    p.name = long.clone();
    if let Some(s) = &mut p.sheet {
        s.process.trigger = long.clone();
    }
    let svg = card(&of_process(&p, Lang::Ja), Lang::Ja, &long);
    assert_inert(&svg);
    assert!(svg.contains('…'));
    let height: f64 = roxmltree::Document::parse(&svg)
        .ok()
        .and_then(|d| d.root_element().attribute("height").map(str::to_owned))
        .and_then(|h| h.parse().ok())
        .unwrap_or(f64::MAX);
    assert!(height < 1600.0, "height {height}");
}

#[test]
fn a_catalog_card_caps_its_rows() {
    let mut c = example_catalog();
    let template = c.processes[0].clone();
    for i in 0..40 {
        let mut p = template.clone();
        p.id = modality_advisor::domain::catalog::ProcessId(format!("copy-{i}"));
        c.processes.push(p);
    }
    let n = c.processes.len();
    let share = of_catalog(c, Lang::En);
    let svg = card(&share, Lang::En, LINK);
    assert_inert(&svg);
    assert!(svg.contains(&format!("… and {} more", n - svg::MAX_ROWS)));
    assert_eq!(svg::metadata(&svg), Ok(share));
}

#[test]
fn a_card_without_metadata_or_with_bad_metadata_is_refused() {
    assert_eq!(
        svg::metadata("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
        Err(MetadataError::Missing)
    );
    let svg = card(
        &of_process(&process("charge-card"), Lang::En),
        Lang::En,
        LINK,
    );
    let tampered = svg.replacen(
        "&quot;lang&quot;:&quot;en&quot;",
        "&quot;lang&quot;:&quot;fr&quot;",
        1,
    );
    match svg::metadata(&tampered) {
        Err(e @ MetadataError::Invalid(_)) => assert!(e.message(Lang::En).contains("lang")),
        other => panic!("{other:?}"),
    }
    assert!(!MetadataError::Missing.message(Lang::Ja).is_empty());
}

#[test]
fn wrapping_counts_wide_characters_double() {
    fn check(text: &str, width_em: f64, max: usize, expected: &[&str]) {
        assert_eq!(wrap(text, width_em, max), expected, "{text:?}");
    }
    check("short", 10.0, 3, &["short"]);
    check(
        "one two three four",
        3.5,
        5,
        &["one", "two", "three", "four"],
    );
    check("one two three four", 6.0, 5, &["one two", "three four"]);
    check("予約確認メール", 4.0, 5, &["予約確認", "メール"]);
    // Each letter at its widest in the common sans-serif fonts, bold included (a 0.69,
    // b 0.73, c 0.61, d 0.73 …): four fit in 2.9 em.
    check("abcdefghij", 2.9, 9, &["abcd", "efgh", "ij"]);
    // `W` is the widest Latin letter (1.12 em in DejaVu Sans Bold).
    check("WWWWWW", 2.5, 9, &["WW", "WW", "WW"]);
    check("one two three four", 3.5, 2, &["one", "two…"]);
    check("line\nbreak", 20.0, 3, &["line", "break"]);
}

#[test]
fn a_markdown_url_cannot_break_out_of_its_link() {
    assert_eq!(
        md_url("https://a.example/x y/(z)#s"),
        "https://a.example/x%20y/%28z%29#s"
    );
    assert_eq!(
        md_url("https://a.example/<é>"),
        "https://a.example/%3C%C3%A9%3E"
    );
}

#[test]
fn decision_records() {
    let p = process("confirmation-mail");
    insta::assert_snapshot!(
        "adr_process_en",
        adr(&of_process(&p, Lang::En), Lang::En, LINK)
    );
    insta::assert_snapshot!(
        "adr_process_ja",
        adr(&of_process(&p, Lang::Ja), Lang::Ja, LINK)
    );
    let c = of_catalog(example_catalog(), Lang::En);
    insta::assert_snapshot!("adr_catalog_en", adr(&c, Lang::En, LINK));
}

#[test]
fn markdown_in_both_flavours() {
    let p = of_process(&process("confirmation-mail"), Lang::En);
    insta::assert_snapshot!(
        "markdown_process_en",
        markdown(&p, Lang::En, LINK, Flavour::GitHub)
    );
    insta::assert_snapshot!(
        "markdown_process_ja",
        markdown(&p, Lang::Ja, LINK, Flavour::GitHub)
    );
    let azure = markdown(&p, Lang::En, LINK, Flavour::Azure);
    insta::assert_snapshot!("markdown_azure_process_en", azure);
    let c = of_catalog(example_catalog(), Lang::En);
    insta::assert_snapshot!(
        "markdown_catalog_en",
        markdown(&c, Lang::En, LINK, Flavour::GitHub)
    );
    let azure_catalog = markdown(&c, Lang::En, LINK, Flavour::Azure);
    for doc in [&azure, &azure_catalog] {
        assert!(!doc.contains("```mermaid"), "{doc}");
        assert!(!doc.contains("flowchart TD"));
        assert_eq!(
            doc.matches("::: mermaid\ngraph TD\n").count(),
            doc.matches("\n:::\n").count()
        );
        assert!(doc.contains("::: mermaid"));
    }
    assert_eq!(azure_catalog.matches("::: mermaid").count(), 6);
}

#[test]
fn a_process_without_a_sheet_still_gets_its_decision() {
    let mut p = process("partner-hold");
    p.sheet = None;
    let md = markdown(&of_process(&p, Lang::En), Lang::En, LINK, Flavour::GitHub);
    let outcome = p.outcome.map(|o| o.title(Lang::En)).unwrap_or_default();
    assert!(md.contains(&outcome), "{md}");
    assert!(
        md.contains("## Reasons") && md.contains("```mermaid"),
        "{md}"
    );
    assert!(md.contains("No job definition sheet yet."));
    let record = adr(&of_process(&p, Lang::En), Lang::En, LINK);
    assert!(record.contains("status: accepted") && record.contains("No job definition sheet"));
    let waiting = process("waitlist-promotion");
    let record = adr(&of_process(&waiting, Lang::En), Lang::En, LINK);
    assert!(record.contains("status: proposed"), "{record}");
}

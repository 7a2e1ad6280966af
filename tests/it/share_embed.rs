//! The embed code (`domain::share::embed`): the `<iframe>` snippet keeps hostile names inside
//! their attributes, its height stays in range, and its `src` decodes back to the share. Also
//! writes and checks the browser tests' fixture fragments
//! (`tests/e2e/links/embed-fragments.json`), made from the example catalog file read as an
//! import reads it: `UPDATE_EMBED_FIXTURES=1 cargo test --locked --test it embed_fixtures`
//! rewrites them after a deliberate change.

use crate::catalog_support::{example_catalog, EXAMPLE_PATH};
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::{Catalog, Process};
use modality_advisor::domain::share::embed::{
    error_view, frame_title, recommended_height, snippet, HEIGHT_RANGE, IFRAME_CLASS, SANDBOX,
};
use modality_advisor::domain::share::link::{decode, encode, LinkError};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::sheet::import::ImportError;
use modality_advisor::domain::Lang;

fn process_share(p: &Process, lang: Lang) -> Share {
    Share {
        lang,
        content: Shared::Process(Box::new(p.clone())),
    }
}

/// The value of attribute `name` in the single tag `html` (attributes are double-quoted).
fn attr<'a>(html: &'a str, name: &str) -> &'a str {
    let start = html
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + name.len()
        + 3;
    let len = html[start..].find('"').expect("closed");
    &html[start..start + len]
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn the_snippet_is_one_iframe_whose_src_decodes_back_to_the_share() {
    let catalog = example_catalog();
    let base = "https://tools.example/advisor/index.html#catalog";
    let mut shares: Vec<Share> = catalog
        .processes
        .iter()
        .flat_map(|p| [process_share(p, Lang::En), process_share(p, Lang::Ja)])
        .collect();
    shares.push(Share {
        lang: Lang::En,
        content: Shared::Catalog(catalog.clone()),
    });
    for share in &shares {
        let html = snippet(share, base, share.lang);
        assert!(
            html.starts_with("<iframe ") && html.ends_with("></iframe>"),
            "{html}"
        );
        assert_eq!(html.matches('<').count(), 2, "one element: {html}");
        let src = unescape(attr(&html, "src"));
        let (page, fragment) = src.split_once('#').expect("a fragment");
        assert_eq!(page, "https://tools.example/advisor/embed.html");
        assert_eq!(decode(fragment).as_ref(), Ok(share));
        assert_eq!(attr(&html, "class"), IFRAME_CLASS);
        assert_eq!(attr(&html, "width"), "100%");
        assert_eq!(attr(&html, "loading"), "lazy");
        assert_eq!(attr(&html, "referrerpolicy"), "no-referrer");
        assert_eq!(attr(&html, "sandbox"), SANDBOX);
        assert_eq!(
            unescape(attr(&html, "title")),
            frame_title(share, share.lang)
        );
        let height: u32 = attr(&html, "height").parse().expect("a number");
        assert_eq!(height, recommended_height(share));
        assert!(!html.contains("style="), "a class, not an inline style");
    }
}

#[test]
fn a_catalog_without_a_name_is_titled_as_its_card_names_it() {
    let mut catalog = example_catalog();
    catalog.name = "  ".into();
    for (lang, want) in [
        (Lang::En, "Shared processes ("),
        (Lang::Ja, "共有されたプロセス（"),
    ] {
        let share = Share {
            lang,
            content: Shared::Catalog(catalog.clone()),
        };
        let title = frame_title(&share, lang);
        assert!(title.starts_with(want), "{title}");
    }
}

#[test]
fn hostile_names_stay_inside_the_title_attribute() {
    let mut catalog = example_catalog();
    let hostile = r#""><script>alert(1)</script><img src=x onerror='alert(2)'> & co"#;
    catalog.processes[0].name = hostile.into();
    if let Some(sheet) = &mut catalog.processes[0].sheet {
        sheet.process.process_name = hostile.into();
    }
    catalog.name = hostile.into();
    let shares = [
        process_share(&catalog.processes[0], Lang::En),
        process_share(&catalog.processes[0], Lang::Ja),
        Share {
            lang: Lang::Ja,
            content: Shared::Catalog(catalog),
        },
    ];
    for share in &shares {
        let html = snippet(share, "https://x.example/a\"b'<c>&d/", share.lang);
        assert_eq!(html.matches('<').count(), 2, "{html}");
        assert_eq!(html.matches('>').count(), 2, "{html}");
        assert!(
            !html.contains("<script") && !html.contains("<img"),
            "{html}"
        );
        let title = unescape(attr(&html, "title"));
        assert!(title.contains(hostile), "{title}");
        assert!(
            unescape(attr(&html, "src")).starts_with("https://x.example/a\"b'<c>&d/embed.html#")
        );
    }
}

#[test]
fn the_error_view_escapes_what_the_link_brought_and_links_to_the_app() {
    let hostile = LinkError::Invalid(ImportError::Field {
        path: "content.process.<img src=x onerror=alert(1)>".into(),
        problem: "unknown field; allowed: id, name".into(),
    });
    for (e, lang, words) in [
        (&hostile, Lang::En, "cannot be shown"),
        (&hostile, Lang::Ja, "表示できません"),
        (&LinkError::Corrupt, Lang::En, "cut or changed"),
        (&LinkError::NotAShareLink, Lang::Ja, "共有されたプロセス"),
    ] {
        let html = error_view(e, lang, "https://tools.example/advisor/?a=1&b=\"2\"");
        assert!(html.contains(words), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;") || e != &hostile);
        assert_eq!(html.matches("<a ").count(), 1, "{html}");
        assert_eq!(
            unescape(attr(&html[html.find("<a ").expect("a link")..], "href")),
            "https://tools.example/advisor/?a=1&b=\"2\""
        );
        assert!(html.contains(r#"target="_blank" rel="noopener""#));
    }
}

#[test]
fn the_recommended_height_fits_the_content_and_stays_in_range() {
    let catalog = example_catalog();
    let decided = &catalog.processes[2];
    assert!(decided.outcome.is_some() && decided.sheet.is_some());
    let mut card_only = decided.clone();
    card_only.sheet = None;
    let mut undecided = card_only.clone();
    undecided.answers.clear();
    undecided.outcome = None;
    let h = |p: &Process| recommended_height(&process_share(p, Lang::En));
    assert!(h(&undecided) < h(&card_only), "no flowchart is shorter");
    assert!(h(&card_only) < h(decided), "the sheet adds height");
    let catalog_of = |n: usize| {
        let mut c = Catalog::new("c");
        c.processes = std::iter::repeat_n(decided.clone(), n).collect();
        recommended_height(&Share {
            lang: Lang::En,
            content: Shared::Catalog(c),
        })
    };
    assert!(catalog_of(0) < catalog_of(1));
    // A catalog gets its content's height, not a process card's: the example's seven
    // processes measure 19 831 px at 800 px (docs/HOSTING.md).
    assert!(catalog_of(7) > 7 * h(decided), "{}", catalog_of(7));
    assert!(catalog_of(7) < *HEIGHT_RANGE.end(), "{}", catalog_of(7));
    for height in [
        h(&undecided),
        h(&card_only),
        h(decided),
        catalog_of(0),
        catalog_of(500),
    ] {
        assert!(HEIGHT_RANGE.contains(&height), "{height}");
        assert_eq!(height % 20, 0, "{height}");
    }
    assert_eq!(catalog_of(500), *HEIGHT_RANGE.end());
}

/// The fixture the browser tests embed: fragments of the example catalog file (read through
/// the import's reader), with the texts each must show.
fn fixtures_json() -> String {
    let text = std::fs::read_to_string(EXAMPLE_PATH).expect("the example file");
    let catalog = read_catalog(&text).expect("the example reads");
    let mail = catalog
        .processes
        .iter()
        .find(|p| p.id.as_str() == "confirmation-mail")
        .expect("the example's mail process");
    let undecided = catalog
        .processes
        .iter()
        .find(|p| p.outcome.is_none())
        .expect("the example's undecided process");
    let mut card_only = mail.clone();
    card_only.sheet = None;
    // The tallest a process card grows: every number of the load section stated, so all its
    // rows show (the frame height is recommended for them too).
    let mut loaded = mail.clone();
    if let Some(sheet) = loaded.sheet.as_mut() {
        sheet.schema_version = modality_advisor::domain::sheet::SCHEMA_VERSION;
        sheet.load = Some(
            serde_json::from_value(serde_json::json!({
                "arrival": { "count": 2, "per": "second" },
                "peak": { "count": 20, "per": "second" },
                "burst": { "at-once": { "count": 500 } },
                "handler": { "lognormal": { "p50_ms": 80, "p95_ms": 300 } },
                "failure_bp": 250,
                "downstream": { "rate": { "count": 10, "per": "second" }, "rate_burst": 20, "concurrency": 5 },
                "our_limit": { "count": 8, "per": "second" },
                "target_wait_p95_ms": 5000,
                "drain_within_ms": 120_000,
                "workers": 4,
                "concurrency": 2
            }))
            .expect("a load section"),
        );
    }
    let entry = |share: &Share| {
        let titles: Vec<String> = share
            .processes()
            .iter()
            .filter_map(|p| p.outcome.map(|o| o.title(share.lang)))
            .collect();
        serde_json::json!({
            "lang": share.lang.code(),
            "fragment": encode(share),
            "names": share.processes().iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "outcome_titles": titles,
            "recommended_height": recommended_height(share),
        })
    };
    let value = serde_json::json!({
        "source": "static/examples/reservation-system.catalog.json; written by tests/it/share_embed.rs (UPDATE_EMBED_FIXTURES=1)",
        "process_en": entry(&process_share(mail, Lang::En)),
        "process_ja": entry(&process_share(mail, Lang::Ja)),
        "card_only_en": entry(&process_share(&card_only, Lang::En)),
        "loaded_en": entry(&process_share(&loaded, Lang::En)),
        "loaded_ja": entry(&process_share(&loaded, Lang::Ja)),
        "undecided_en": entry(&process_share(undecided, Lang::En)),
        "catalog_en": entry(&Share { lang: Lang::En, content: Shared::Catalog(catalog.clone()) }),
        "catalog_ja": entry(&Share { lang: Lang::Ja, content: Shared::Catalog(catalog) }),
    });
    serde_json::to_string_pretty(&value).expect("plain data") + "\n"
}

#[test]
fn embed_fixtures_are_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/e2e/links/embed-fragments.json"
    );
    let want = fixtures_json();
    if std::env::var_os("UPDATE_EMBED_FIXTURES").is_some() {
        std::fs::create_dir_all(std::path::Path::new(path).parent().expect("a folder"))
            .expect("the links folder");
        std::fs::write(path, &want).expect("writable");
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "{path} is stale: run UPDATE_EMBED_FIXTURES=1 cargo test --locked --test it embed_fixtures"
    );
}

/// The catalog fragments the browser tests embed carry simulator choices, which the embed
/// page's build reads over without keeping (`session::skipped_sim`): tests/e2e/embed.test.mjs
/// renders those fragments, so a reader that stumbled on the choices would fail there.
#[test]
fn the_embedded_catalog_carries_simulator_choices() {
    let fixtures: serde_json::Value =
        serde_json::from_str(&fixtures_json()).expect("the fixtures are JSON");
    for key in ["catalog_en", "catalog_ja"] {
        let fragment = fixtures[key]["fragment"].as_str().expect("a fragment");
        let share = decode(fragment).expect("the fragment decodes");
        assert!(
            share.processes().iter().any(|p| p.sim.is_some()),
            "{key}: no process with simulator choices"
        );
    }
}

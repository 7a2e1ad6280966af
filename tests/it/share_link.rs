//! The permalink codec (`domain::share::link`): round trips through the user's path (a catalog
//! file read as an import reads it, encoded, decoded), and every way a fragment can be wrong.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::share::link::{app_url, decode, encode, LinkError, PREFIX_V1};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::Lang;

#[test]
fn every_process_of_the_example_round_trips_alone_and_together() {
    let catalog = example_catalog();
    for p in &catalog.processes {
        let share = Share {
            lang: Lang::Ja,
            content: Shared::Process(Box::new(p.clone())),
        };
        let fragment = encode(&share);
        assert!(fragment.starts_with(PREFIX_V1));
        assert_eq!(decode(&format!("#{fragment}")), Ok(share.clone()));
        let short = share.without_notes();
        assert_eq!(decode(&encode(&short)), Ok(short.clone()));
        println!(
            "{} {} → {} / short {}",
            p.id,
            p.name,
            fragment.len(),
            encode(&short).len()
        );
    }
    let share = Share {
        lang: Lang::En,
        content: Shared::Catalog(catalog),
    };
    let link = app_url("https://example.org/app/index.html#catalog", &share);
    assert!(link.starts_with("https://example.org/app/#share-v1:"));
    println!("catalog link {}", link.len());
    assert_eq!(decode(link.split_once('#').unwrap().1), Ok(share));
}

#[test]
fn a_plain_place_fragment_is_not_a_share_link() {
    assert_eq!(decode("#catalog"), Err(LinkError::NotAShareLink));
    assert_eq!(
        decode("#share-v2:abc"),
        Err(LinkError::UnknownVersion { found: "2".into() })
    );
}

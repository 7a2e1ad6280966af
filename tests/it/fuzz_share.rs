//! Property: no fragment makes [`decode`] panic, and whatever opens is a share that survives
//! the encoder again. Four families, 10 500 fragments by default (under twenty seconds in a
//! debug build on a shared two-core machine):
//!
//! - any text (the base64url alphabet mostly, then padding, the standard alphabet's `+` and
//!   `/`, spaces, percent signs and any character) behind any prefix — 4 000;
//! - real links with characters changed, inserted, deleted and the end cut — 4 000;
//! - real links with the *compressed bytes* changed (so base64 passes and inflate and the
//!   checksum are what stop them) or the *JSON* changed and packed again (so the strict reader
//!   is what stops them) — 2 000;
//! - random shares (any catalog or process, either language), full and short, which must round
//!   trip exactly, the short one keeping every finding — 250 × 2.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::catalog_roundtrip::{catalog, process};
use crate::catalog_support::example_catalog;
use crate::fuzz_support::{apply, apply_bytes, byte_edits, cases, edit_from};
use crate::share_link::{hostile, japanese, process_share, undecided};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use modality_advisor::domain::share::link::{decode, decode_plain, encode, LinkError, PREFIX_V1};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::sheet::check::validate;
use modality_advisor::domain::sheet::import::ImportError;
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use std::sync::LazyLock;

/// Real links: each process of the example and the extra ones, full and short, in both
/// languages, and the whole catalog.
static LINKS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let c = example_catalog();
    let mut shares: Vec<Share> = c
        .processes
        .iter()
        .chain(&[undecided(), japanese(), hostile()])
        .flat_map(|p| [process_share(p, Lang::En), process_share(p, Lang::Ja)])
        .collect();
    shares.push(Share {
        lang: Lang::En,
        content: Shared::Catalog(c),
    });
    let short: Vec<Share> = shares.iter().map(Share::without_notes).collect();
    shares.iter().chain(&short).map(encode).collect()
});

/// The fragment either opens — in the app and in the embed page, and then the share survives
/// encode → decode unchanged — or is refused by both with a message in both languages.
fn opens_or_is_refused(fragment: &str) -> Result<(), TestCaseError> {
    // The embed page's reader (no JSON paths, a smaller decoder) opens the same links.
    let plain = decode_plain(fragment);
    match &plain {
        Ok(share) => match decode(fragment) {
            // The one documented difference (`Share::from_json_plain`): the embed page reads
            // the simulator's choices leniently, as storage does (it does not show them), so
            // a link the app refuses only for its `sim` part opens there.
            Err(LinkError::Invalid(
                ImportError::Field { path, .. }
                | ImportError::OutOfRange { path, .. }
                | ImportError::Inconsistent { path, .. },
            )) if path.contains(".sim") => {}
            app => prop_assert_eq!(app.as_ref(), Ok(share)),
        },
        Err(e) => {
            prop_assert!(decode(fragment).is_err(), "the embed refuses: {:?}", e);
            prop_assert!(!e.message(Lang::En).is_empty() && !e.message(Lang::Ja).is_empty());
        }
    }
    match decode(fragment) {
        Ok(share) => {
            prop_assert_eq!(decode(&encode(&share)), Ok(share));
        }
        Err(e) => {
            prop_assert!(!e.message(Lang::En).is_empty());
            prop_assert!(!e.message(Lang::Ja).is_empty());
        }
    }
    Ok(())
}

fn any_text() -> impl Strategy<Value = String> {
    const B64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let ch = prop_oneof![
        12 => prop::sample::select(B64URL.chars().collect::<Vec<_>>()),
        2 => prop::sample::select(vec!['=', '+', '/', ' ', '%', '#', ':', '\n', '\u{202E}']),
        1 => any::<char>(),
    ];
    let head = prop::sample::select(vec![
        "",
        PREFIX_V1,
        "#share-v1:",
        " share-v1:",
        "share-v2:",
        "share-v",
        "eJ",
    ]);
    (head, prop::collection::vec(ch, 0..300))
        .prop_map(|(head, body)| format!("{head}{}", String::from_iter(body)))
}

fn pack(bytes: &[u8]) -> String {
    format!("{PREFIX_V1}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// `s` without the processes' audit records (what a link carries of it).
fn without_audit(s: &Share) -> Share {
    let mut s = s.clone();
    match &mut s.content {
        Shared::Process(p) => p.audit = None,
        Shared::Catalog(c) => c.processes.iter_mut().for_each(|p| p.audit = None),
    }
    s
}

/// A random share; some of its processes hold an audit record, which a link leaves out.
fn random_share() -> impl Strategy<Value = Share> {
    let content = prop_oneof![
        process().prop_map(|p| Shared::Process(Box::new(p))),
        catalog().prop_map(Shared::Catalog),
    ];
    (any::<bool>(), content).prop_map(|(ja, content)| Share {
        lang: if ja { Lang::Ja } else { Lang::En },
        content,
    })
}

proptest! {
    #![proptest_config(cases(4_000))]

    #[test]
    fn any_text_opens_or_is_refused(text in any_text()) {
        opens_or_is_refused(&text)?;
    }
}

proptest! {
    #![proptest_config(cases(4_000))]

    #[test]
    fn an_edited_real_link_opens_as_itself_or_is_refused(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from("AZaz09-_QgwBC"), 1..4),
    ) {
        let link = &LINKS[which.index(LINKS.len())];
        let mut chars: Vec<char> = link.chars().collect();
        for e in &edits {
            apply(&mut chars, e);
        }
        let edited = String::from_iter(chars);
        opens_or_is_refused(&edited)?;
        // A link cut or changed in its data never opens as something else: the checksum
        // stops it (a change to the prefix is another kind of link).
        if edited != *link && edited.starts_with(PREFIX_V1) {
            if let Ok(share) = decode(&edited) {
                prop_assert_eq!(Ok(share), decode(link), "{} → {}", link, edited);
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(1_000))]

    #[test]
    fn a_link_with_edited_compressed_bytes_opens_as_itself_or_is_refused(
        which in any::<prop::sample::Index>(),
        edits in byte_edits(),
    ) {
        let link = &LINKS[which.index(LINKS.len())];
        let data = link.strip_prefix(PREFIX_V1).unwrap_or_default();
        let mut bytes = URL_SAFE_NO_PAD.decode(data).unwrap_or_default();
        let original = bytes.clone();
        apply_bytes(&mut bytes, &edits);
        let edited = pack(&bytes);
        opens_or_is_refused(&edited)?;
        if bytes != original {
            if let Ok(share) = decode(&edited) {
                prop_assert_eq!(Ok(share), decode(link));
            }
        }
    }

    #[test]
    fn a_link_with_edited_json_opens_or_is_refused(
        which in any::<prop::sample::Index>(),
        edits in byte_edits(),
    ) {
        let link = &LINKS[which.index(LINKS.len())];
        let share = decode(link);
        prop_assert!(share.is_ok());
        let mut json = share.map(|s| s.to_json()).unwrap_or_default().into_bytes();
        apply_bytes(&mut json, &edits);
        let edited = pack(&miniz_oxide::deflate::compress_to_vec_zlib(&json, 1));
        match decode(&edited) {
            Err(LinkError::NotText) => prop_assert!(std::str::from_utf8(&json).is_err()),
            Err(LinkError::Corrupt | LinkError::TooLarge | LinkError::NotBase64 { .. }) => {
                prop_assert!(false, "packed by the codec's own steps: {:?}", decode(&edited));
            }
            _ => opens_or_is_refused(&edited)?,
        }
    }
}

proptest! {
    #![proptest_config(cases(250))]

    #[test]
    fn a_random_share_round_trips_full_and_short(share in random_share()) {
        let full = encode(&share);
        prop_assert_eq!(decode(&full), Ok(without_audit(&share)));
        let short = share.without_notes();
        let cut = encode(&short);
        prop_assert_eq!(decode(&cut), Ok(without_audit(&short)));
        prop_assert!(cut.len() <= full.len());
        for (a, b) in share.processes().iter().zip(short.processes()) {
            if let (Some(a), Some(b)) = (&a.sheet, &b.sheet) {
                prop_assert_eq!(validate(a, share.lang), validate(b, share.lang));
            }
        }
    }
}

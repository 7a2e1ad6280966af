//! Every way a fragment can be wrong, each with its exact [`LinkError`] and a message in both
//! languages that names the problem (for a share that does not check out: the JSON path and
//! what is allowed). Nothing here may panic, and nothing but the identical link may open.

use crate::catalog_support::example_catalog;
use crate::share_link::process_share;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use modality_advisor::domain::number::group_thousands;
use modality_advisor::domain::share::link::{
    decode, encode, is_share_fragment, LinkError, MAX_DECODED_BYTES, MAX_FRAGMENT_CHARS, PREFIX_V1,
};
use modality_advisor::domain::share::Share;
use modality_advisor::domain::sheet::import::ImportError;
use modality_advisor::domain::Lang;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A v1 fragment carrying `bytes` as they are (zlib, base64url): the codec's own steps with
/// any content.
fn packed(bytes: &[u8]) -> String {
    let z = miniz_oxide::deflate::compress_to_vec_zlib(bytes, 9);
    format!("{PREFIX_V1}{}", URL_SAFE_NO_PAD.encode(z))
}

/// The confirmation-mail process (async enqueue, a full sheet with a retry policy) shared in
/// English, as JSON.
fn confirmation_mail_json() -> Value {
    let p = example_catalog().processes[2].clone();
    serde_json::from_str(&process_share(&p, Lang::En).to_json()).expect("JSON")
}

/// The error of `fragment`, with both messages checked to name the problem: each contains
/// every one of `words` (numbers, paths, limits), and the two languages differ.
fn error_of(fragment: &str, words: &[&str]) -> LinkError {
    let e = match decode(fragment) {
        Ok(s) => panic!("{fragment:.60} opened: {}", s.to_json()),
        Err(e) => e,
    };
    let (en, ja) = (e.message(Lang::En), e.message(Lang::Ja));
    assert_ne!(en, ja, "{e:?}");
    assert!(!ja.is_ascii(), "{ja}");
    for w in words {
        assert!(en.contains(w), "{en} lacks {w}");
        assert!(ja.contains(w), "{ja} lacks {w}");
    }
    e
}

#[test]
fn fragments_that_are_no_share_link_say_so() {
    for f in [
        "",
        "#",
        "   ",
        "catalog",
        "#catalog",
        "share",
        "share-",
        "SHARE-v1:abc",
    ] {
        assert_eq!(error_of(f, &[]), LinkError::NotAShareLink, "{f:?}");
        assert!(!is_share_fragment(f), "{f:?}");
    }
    assert_eq!(
        error_of("#share-v2:abc", &["share-v2", "share-v1"]),
        LinkError::UnknownVersion { found: "2".into() }
    );
    assert_eq!(
        error_of("share-v2:", &["share-v2"]),
        LinkError::UnknownVersion { found: "2".into() }
    );
    // A link cut inside its prefix.
    assert_eq!(
        error_of("share-v", &[]),
        LinkError::UnknownVersion { found: "".into() }
    );
    assert_eq!(
        error_of("share-v1", &[]),
        LinkError::UnknownVersion { found: "1".into() }
    );
    // Whatever follows `share-v` is cut to 12 characters in the message.
    assert_eq!(
        error_of("share-v123456789012345:x", &[]),
        LinkError::UnknownVersion {
            found: "123456789012".into()
        }
    );
}

#[test]
fn a_v1_prefix_with_nothing_after_it_is_a_cut_link() {
    assert_eq!(error_of("share-v1:", &[]), LinkError::Corrupt);
    assert_eq!(error_of("#share-v1:  ", &[]), LinkError::Corrupt);
}

#[test]
fn a_character_outside_base64url_is_named_by_its_position() {
    let link = encode(&process_share(&example_catalog().processes[0], Lang::En));
    let data_len = link.len() - PREFIX_V1.len();
    for (at, bad) in [
        (0, '+'),
        (3, '/'),
        (10, '$'),
        (data_len / 2, '%'),
        (20, '予'),
    ] {
        let mut broken = link.clone();
        let i = PREFIX_V1.len() + at;
        broken.replace_range(i..i + 1, &bad.to_string());
        let shown = (at + 1).to_string();
        assert_eq!(
            error_of(&broken, &[&shown]),
            LinkError::NotBase64 { at: Some(at) },
            "{bad} at {at}"
        );
    }
    // A length base64 cannot have (4n + 1 characters).
    let mut cut = PREFIX_V1.to_owned();
    cut.push_str(&"A".repeat(4 * 5 + 1));
    assert_eq!(error_of(&cut, &[]), LinkError::NotBase64 { at: None });
}

#[test]
fn a_real_link_cut_at_every_seventh_length_never_opens() {
    let catalog = example_catalog();
    let links = [
        encode(&process_share(&catalog.processes[1], Lang::En)),
        encode(&process_share(&catalog.processes[6], Lang::Ja)),
    ];
    for link in &links {
        for len in (0..link.len()).step_by(7) {
            let cut = &link[..len];
            match decode(cut) {
                Err(LinkError::NotBase64 { .. } | LinkError::Corrupt) => {}
                Err(LinkError::NotAShareLink | LinkError::UnknownVersion { .. })
                    if len < PREFIX_V1.len() => {}
                other => panic!("cut at {len} of {}: {other:?}", link.len()),
            }
        }
        // One character short of the whole link, too.
        let cut = &link[..link.len() - 1];
        assert!(matches!(
            decode(cut),
            Err(LinkError::NotBase64 { .. } | LinkError::Corrupt)
        ));
    }
}

#[test]
fn a_changed_character_in_the_middle_fails_the_checksum() {
    let link = encode(&process_share(&example_catalog().processes[1], Lang::En));
    let start = PREFIX_V1.len() + 8;
    let end = link.len() - 8;
    for i in (start..end).step_by(3) {
        let c = link.as_bytes()[i];
        let other = if c == b'A' { 'B' } else { 'A' };
        let mut broken = link.clone();
        broken.replace_range(i..i + 1, &other.to_string());
        match decode(&broken) {
            Err(LinkError::Corrupt | LinkError::Invalid(_)) => {}
            other => panic!("changed at {i}: {other:?}"),
        }
    }
    let mid = (start + end) / 2;
    let mut broken = link.clone();
    let c = if link.as_bytes()[mid] == b'x' {
        "y"
    } else {
        "x"
    };
    broken.replace_range(mid..mid + 1, c);
    assert_eq!(error_of(&broken, &[]), LinkError::Corrupt);
}

#[test]
fn content_that_is_not_text_or_not_json_is_refused() {
    assert_eq!(
        error_of(&packed(&[0xff, 0xfe, b'{', 0x80]), &[]),
        LinkError::NotText
    );
    let e = error_of(&packed(b"hello"), &["1"]);
    assert!(
        matches!(
            e,
            LinkError::Invalid(ImportError::InvalidJson {
                line: 1,
                column: 1,
                ..
            })
        ),
        "{e:?}"
    );
    assert!(e.message(Lang::En).contains("JSON"));
    let e = error_of(&packed(b"[1, 2]"), &[]);
    assert!(matches!(&e, LinkError::Invalid(ImportError::Field { path, .. }) if path.is_empty()));
    assert!(e.message(Lang::En).contains("lang"));
}

/// The error of `value` as a share's JSON, which must be `Invalid` with this path; both
/// messages name the path and each of `words`.
fn invalid_at(value: &Value, path: &str, words: &[&str]) -> ImportError {
    let mut all = vec![path];
    all.extend_from_slice(words);
    match error_of(&packed(value.to_string().as_bytes()), &all) {
        LinkError::Invalid(e) => {
            let p = match &e {
                ImportError::Field { path, .. }
                | ImportError::OutOfRange { path, .. }
                | ImportError::Inconsistent { path, .. } => path.clone(),
                other => panic!("{other:?}"),
            };
            assert_eq!(p, path, "{e:?}");
            e
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_share_that_does_not_check_out_names_the_field_and_the_allowed_range() {
    let good = confirmation_mail_json();
    assert!(decode(&packed(good.to_string().as_bytes())).is_ok());

    let mut v = good.clone();
    v["extra"] = json!(1);
    invalid_at(&v, "extra", &["lang", "content"]);

    let mut v = good.clone();
    v["content"]["process"]["colour"] = json!("red");
    invalid_at(&v, "content.process.colour", &[]);

    let mut v = good.clone();
    v["content"]["diagram"] = json!({});
    invalid_at(&v, "content", &["process", "catalog"]);

    let mut v = good.clone();
    v["content"] = json!({"diagram": {}});
    invalid_at(&v, "content.diagram", &["process", "catalog"]);

    for lang in [json!("fr"), json!("EN"), json!(null), json!(1)] {
        let mut v = good.clone();
        v["lang"] = lang;
        invalid_at(&v, "lang", &["en", "ja"]);
    }
    let mut v = good.clone();
    v.as_object_mut().expect("object").remove("lang");
    invalid_at(&v, "lang", &[]);

    for attempts in [0, 101, 1_000_000] {
        let mut v = good.clone();
        v["content"]["process"]["sheet"]["retry"]["max_attempts"] = json!(attempts);
        let e = invalid_at(
            &v,
            "content.process.sheet.retry.max_attempts",
            &["1", "100"],
        );
        assert!(matches!(e, ImportError::OutOfRange { .. }), "{e:?}");
    }
    let mut v = good.clone();
    v["content"]["process"]["outcome"] = json!("batch");
    invalid_at(&v, "content.process.outcome", &["batch", "async-enqueue"]);
}

#[test]
fn a_catalog_share_is_held_to_the_catalog_limits() {
    let process = confirmation_mail_json()["content"]["process"].clone();
    let catalog = |processes: Vec<Value>| {
        json!({"lang": "ja", "content": {"catalog": {
            "catalog_version": 1, "name": "x", "processes": processes
        }}})
    };
    let many: Vec<Value> = (0..501)
        .map(|i| {
            let mut p = process.clone();
            p["id"] = json!(format!("p-{i}"));
            p
        })
        .collect();
    let e = invalid_at(&catalog(many), "content.catalog.processes", &["501", "500"]);
    assert!(matches!(e, ImportError::OutOfRange { .. }), "{e:?}");

    let e = invalid_at(
        &catalog(vec![process.clone(), process.clone()]),
        "content.catalog.processes[1].id",
        &["confirmation-mail"],
    );
    assert!(matches!(e, ImportError::Inconsistent { .. }), "{e:?}");

    let mut v = catalog(vec![process.clone()]);
    v["content"]["catalog"]["processes"][0]["sheet"]["retry"]["max_attempts"] = json!(0);
    invalid_at(
        &v,
        "content.catalog.processes[0].sheet.retry.max_attempts",
        &["1", "100"],
    );

    let mut v = catalog(vec![process]);
    v["content"]["catalog"]["catalog_version"] = json!(2);
    invalid_at(&v, "content.catalog.catalog_version", &["2", "1"]);
}

#[test]
fn a_small_fragment_that_inflates_past_the_limit_stops_at_the_limit() {
    // 5 MiB of spaces: valid JSON whitespace, compressed to a few kilobytes.
    let bomb = packed(&vec![b' '; MAX_DECODED_BYTES + (1 << 20)]);
    assert!(bomb.len() < 16 * 1024, "{} characters", bomb.len());
    let started = Instant::now();
    let max = group_thousands(MAX_DECODED_BYTES as u64);
    assert_eq!(error_of(&bomb, &[&max]), LinkError::TooLarge);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // Just at the limit, it inflates and is read as the JSON it is (blank: not a share).
    let at_limit = packed(&vec![b' '; MAX_DECODED_BYTES]);
    assert!(matches!(
        decode(&at_limit),
        Err(LinkError::Invalid(ImportError::InvalidJson { .. }))
    ));
}

#[test]
fn an_over_long_fragment_is_refused_before_it_is_decoded() {
    // Not base64 and not even a known version: the length is checked first.
    for head in [PREFIX_V1, "share-v9:", "anything"] {
        let mut f = head.to_owned();
        f.push_str(&"$".repeat(MAX_FRAGMENT_CHARS));
        let chars = f.chars().count();
        let started = Instant::now();
        let e = error_of(&f, &[]);
        assert_eq!(e, LinkError::TooLong { chars });
        assert!(started.elapsed() < Duration::from_secs(2));
        let shown = group_thousands(chars as u64);
        assert!(e.message(Lang::En).contains(&shown));
        assert!(e.message(Lang::Ja).contains(&shown));
    }
    // Exactly at the limit it is decoded (and here refused as base64, at its first `$`).
    let mut f = PREFIX_V1.to_owned();
    f.push_str(&"$".repeat(MAX_FRAGMENT_CHARS - PREFIX_V1.len()));
    assert_eq!(decode(&f), Err(LinkError::NotBase64 { at: Some(0) }));
}

#[test]
fn padded_base64_and_surrounding_whitespace_are_accepted() {
    let share: Share = process_share(&example_catalog().processes[5], Lang::Ja);
    let link = encode(&share);
    let data = link.len() - PREFIX_V1.len();
    let mut padded = link.clone();
    padded.push_str(&"=".repeat((4 - data % 4) % 4));
    assert_eq!(decode(&padded), Ok(share.clone()));
    assert_eq!(decode(&format!(" #{link}\n")), Ok(share.clone()));
    // The standard alphabet's `+` and `/` are not base64url.
    let data = &link[PREFIX_V1.len()..];
    let std_alphabet = format!("{PREFIX_V1}{}", data.replace('-', "+").replace('_', "/"));
    if std_alphabet != link {
        assert!(matches!(
            decode(&std_alphabet),
            Err(LinkError::NotBase64 { at: Some(_) })
        ));
    }
}

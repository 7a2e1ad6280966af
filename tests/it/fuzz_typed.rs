//! Property: the small readers of typed or addressed text never panic and round-trip — the
//! address bar's place ([`Place::parse`], the fragment Back and Forward move between), the
//! ids a URL, storage or the CLI names ([`QuestionId::parse`], [`Lang::parse`],
//! [`Scenario::parse`], [`TargetId::parse`]), and a whole number as people type it
//! ([`parse_whole`], [`Timing::parse_field`]: ASCII or full-width digits, grouped by threes).
//! Each family 10 000 texts by default:
//!
//! - places: any text behind `#` or `#q/`, and real fragments with characters changed;
//! - ids: any text, and real ids with characters changed; a refusal names what is allowed;
//! - numbers: any text of digits, separators and signs, and every `u64` written grouped.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::fuzz_support::{apply_edits, cases, edit_from};
use modality_advisor::domain::number::{group_thousands, parse_whole};
use modality_advisor::domain::place::Place;
use modality_advisor::domain::queues::TargetId;
use modality_advisor::domain::sim::Scenario;
use modality_advisor::domain::{Lang, QuestionId, Timing, TimingField};
use proptest::prelude::*;

/// Every place, by its fragment.
fn places() -> Vec<Place> {
    let mut all = vec![Place::Result, Place::Sheet, Place::Simulate, Place::Catalog];
    all.extend(QuestionId::ALL.map(Place::Question));
    all
}

/// Every id a reader takes.
fn ids() -> Vec<String> {
    let mut all: Vec<String> = QuestionId::ALL.iter().map(|q| q.id().to_owned()).collect();
    all.extend(["en", "ja"].map(str::to_owned));
    all.extend(Scenario::ALL.iter().map(|s| s.id().to_owned()));
    all.extend(TargetId::ALL.iter().map(|t| t.name().to_owned()));
    all
}

fn text(alphabet: &'static str) -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        6 => prop::sample::select(alphabet.chars().collect::<Vec<_>>()),
        1 => any::<char>(),
    ];
    prop::collection::vec(ch, 0..40).prop_map(String::from_iter)
}

/// The place a fragment names is the one whose fragment it is.
fn place_read(fragment: &str) -> Result<(), TestCaseError> {
    if let Some(p) = Place::parse(fragment) {
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        prop_assert_eq!(format!("#{f}"), p.fragment());
        prop_assert_eq!(Place::parse(&p.fragment()), Some(p));
    }
    Ok(())
}

/// An id is read as itself, or refused naming what is allowed.
fn id_read(s: &str) -> Result<(), TestCaseError> {
    match QuestionId::parse(s) {
        Ok(q) => prop_assert_eq!(q.id(), s),
        Err(e) => prop_assert!(e.to_string().contains("within-seconds"), "{}", e),
    }
    match Lang::parse(s) {
        Ok(l) => prop_assert_eq!(l.code(), s),
        Err(e) => prop_assert!(e.to_string().contains("en, ja"), "{}", e),
    }
    match Scenario::parse(s) {
        Ok(x) => prop_assert_eq!(x.id(), s),
        Err(e) => {
            prop_assert_eq!(e.field(), "scenario");
            let (en, ja) = (e.message(Lang::En), e.message(Lang::Ja));
            prop_assert!(en.contains(Scenario::ALL[0].id()) && ja.contains(Scenario::ALL[0].id()));
        }
    }
    match TargetId::parse(s) {
        Ok(t) => prop_assert_eq!(t.name(), s.trim()),
        Err(e) => {
            let (en, ja) = (e.message(Lang::En), e.message(Lang::Ja));
            prop_assert!(en.contains("sqs") && ja.contains("sqs"), "{} / {}", en, ja);
        }
    }
    Ok(())
}

/// A number read is the digits typed; a number in range is what the timing fields take.
fn number_read(raw: &str) -> Result<(), TestCaseError> {
    let n = parse_whole(raw);
    if let Some(n) = n {
        let digits: String = raw
            .chars()
            .filter_map(|c| match c {
                '0'..='9' => Some(c),
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
                _ => None,
            })
            .collect();
        let read = n.to_string();
        prop_assert_eq!(digits.trim_start_matches('0'), read.trim_start_matches('0'));
    }
    // The wizard's fields read durations (a bare number is milliseconds; "2 s", "1.5 min"
    // too): whatever the duration reader accepts within the field's range, and nothing else.
    let ms = modality_advisor::domain::duration::parse(raw, 1).ok();
    if let Some(n) = n {
        prop_assert_eq!(
            ms,
            Some(n),
            "a whole number reads as that many milliseconds"
        );
    }
    for field in [TimingField::Target, TimingField::P95] {
        let v = Timing::parse_field(field, raw);
        prop_assert_eq!(v, ms.filter(|v| (field.min()..=Timing::MAX_MS).contains(v)));
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(10_000))]

    #[test]
    fn fuzz_typed_any_fragment_is_a_place_or_ignored(
        head in prop::sample::select(vec!["", "#", "#q/", "q/", "##", "#q"]),
        body in text("qresultsheimucatlog/-dnw#"),
    ) {
        place_read(&format!("{head}{body}"))?;
    }

    #[test]
    fn fuzz_typed_an_edited_fragment_is_a_place_or_ignored(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from("qresultsheimucatlog/-#"), 1..3),
    ) {
        let all = places();
        let fragment = all[which.index(all.len())].fragment();
        place_read(&apply_edits(&fragment, &edits))?;
    }

    #[test]
    fn fuzz_typed_any_id_is_read_or_refused(s in text("abcdeijklmnopqrstuvwxyz-_ ")) {
        id_read(&s)?;
    }

    #[test]
    fn fuzz_typed_an_edited_id_is_read_or_refused(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from("abcdeijklmnopqrstuvwxyz-_ "), 1..3),
    ) {
        let all = ids();
        id_read(&apply_edits(&all[which.index(all.len())], &edits))?;
    }

    #[test]
    fn fuzz_typed_any_number_text_is_read_or_refused(s in text("0123456789０９, _，\u{3000}-+.e")) {
        number_read(&s)?;
    }

    #[test]
    fn fuzz_typed_a_grouped_number_reads_back(n in any::<u64>(), sep in prop::sample::select(vec![" ", ",", "_", "，", "\u{3000}"])) {
        let grouped = group_thousands(n);
        prop_assert_eq!(parse_whole(&grouped), Some(n));
        let other = grouped.replace([' ', ','], sep);
        prop_assert_eq!(parse_whole(&other), Some(n));
        let wide: String = n
            .to_string()
            .chars()
            .map(|c| char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c))
            .collect();
        prop_assert_eq!(parse_whole(&wide), Some(n));
        number_read(&other)?;
    }
}

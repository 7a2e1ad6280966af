//! The URL fragments that Back / Forward move between.

use modality_advisor::domain::place::Place;
use modality_advisor::domain::QuestionId;

fn check(fragment: &str, want: Option<Place>) {
    assert_eq!(Place::parse(fragment), want, "{fragment:?}");
    if let Some(p) = want {
        assert_eq!(Place::parse(&p.fragment()), Some(p), "round trip of {p:?}");
    }
}

#[test]
fn fragments_parse_and_round_trip() {
    check("#result", Some(Place::Result));
    check("sheet", Some(Place::Sheet));
    check("#simulate", Some(Place::Simulate));
    check(
        "#q/time-triggered",
        Some(Place::Question(QuestionId::TimeTriggered)),
    );
    check(
        "#q/needs-result-now",
        Some(Place::Question(QuestionId::NeedsResultNow)),
    );
    check("", None);
    check("#", None);
    check("#q/", None);
    check("#q/no-such-question", None);
    check("#SHEET", None);
    check("#sheet/extra", None);
    check("#q/time-triggered/x", None);
}

#[test]
fn every_question_has_its_own_fragment() {
    let mut seen: Vec<String> = QuestionId::ALL
        .iter()
        .map(|&q| Place::Question(q).fragment())
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), QuestionId::ALL.len());
}

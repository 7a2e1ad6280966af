//! The simulator's choices survive a reload through the saved session; bad saved parts are
//! dropped quietly, part by part.

use modality_advisor::domain::session::{Session, SimChoice, SimEdit, CUSTOM_PRESET};
use modality_advisor::domain::sim::setup::knobs::CustomRun;
use modality_advisor::domain::{Answers, QuestionId};

fn session_with(sim: Option<SimChoice>) -> Session {
    let mut answers = Answers::new();
    answers.set(QuestionId::TimeTriggered, false);
    let mut s = Session::new(&answers, None, false);
    s.on_simulate = true;
    s.sim = sim;
    s
}

#[test]
fn the_simulator_choices_round_trip_through_the_session() {
    let choice = SimChoice {
        preset: CUSTOM_PRESET.into(),
        variant: "your-settings".into(),
        seed: u64::MAX,
        jobs: 250_000,
        custom: Some(CustomRun {
            workers: 9,
            ..CustomRun::default()
        }),
    };
    let s = session_with(Some(choice.clone()));
    let back = Session::from_json(&s.to_json()).expect("reads back");
    assert_eq!(back.sim, Some(choice));
    assert_eq!(back, s);
}

#[test]
fn older_sessions_without_the_simulator_choices_still_load() {
    let old = r#"{"version":1,"answers":[{"question":"time-triggered","answer":false}],"sheet":null,"on_sheet":false,"on_simulate":true}"#;
    let s = Session::from_json(old).expect("an older session loads");
    assert_eq!(s.sim, None);
    assert!(s.on_simulate);
    let older = r#"{"version":1,"answers":[],"sheet":null,"on_sheet":false}"#;
    assert!(Session::from_json(older).is_some());
}

#[test]
fn bad_saved_choices_are_dropped_part_by_part_and_the_session_stays() {
    let good = session_with(Some(SimChoice {
        preset: "claim-race".into(),
        variant: "atomic".into(),
        seed: 99,
        jobs: 5,
        custom: Some(CustomRun {
            workers: 9,
            ..CustomRun::default()
        }),
    }))
    .to_json();
    let read = |json: &str| {
        let s = Session::from_json(json).unwrap_or_else(|| panic!("session kept: {json}"));
        assert_eq!(s.answers.len(), 1, "answers kept: {json}");
        s.sim.expect("choices read")
    };
    // A variant the preset does not have: its first variant.
    let c = read(&good.replace("\"atomic\"", "\"nowait\""));
    assert_eq!(
        (c.preset.as_str(), c.variant.as_str(), c.seed),
        ("claim-race", "two-statement", 99)
    );
    // An unknown preset: the default preset and variant; the rest stays.
    let c = read(&good.replace("\"claim-race\"", "\"gone-preset\""));
    assert_eq!(
        (c.preset.as_str(), c.variant.as_str()),
        ("retry-dead-letter", "seed")
    );
    assert_eq!((c.seed, c.jobs), (99, 5));
    // A seed that is not a u64, jobs out of range, knobs out of range or unreadable.
    assert_eq!(read(&good.replace("\"seed\":99", "\"seed\":-1")).seed, 1);
    assert_eq!(
        read(&good.replace("\"seed\":99", "\"seed\":\"abc\"")).seed,
        1
    );
    assert_eq!(
        read(&good.replace("\"jobs\":5", "\"jobs\":0")).jobs,
        100_000
    );
    assert_eq!(
        read(&good.replace("\"jobs\":5", "\"jobs\":1000001")).jobs,
        100_000
    );
    let c = read(&good.replace("\"workers\":9", "\"workers\":5000"));
    assert_eq!((c.custom, c.seed), (None, 99));
    assert_eq!(
        read(&good.replace("\"workers\":9", "\"workers\":\"nine\"")).custom,
        None
    );
    assert_eq!(read(&good.replace("\"workers\":9,", "")).custom, None);
    // Not an object at all.
    let whole = good.replace(
        &good[good.find("\"sim\":").expect("sim saved")..good.len() - 1],
        "\"sim\":42",
    );
    assert_eq!(read(&whole), SimChoice::default());
    // Null: as if absent.
    let null = good.replace(
        &good[good.find("\"sim\":").expect("sim saved")..good.len() - 1],
        "\"sim\":null",
    );
    assert_eq!(Session::from_json(&null).and_then(|s| s.sim), None);
}

#[test]
fn edits_keep_the_choices_consistent() {
    let c = SimChoice::default();
    let c = c.apply(SimEdit::Preset("pg-row-locks".into()));
    assert_eq!(
        c.variant, "skip-locked",
        "a new preset starts on its first variant"
    );
    let c = c.apply(SimEdit::Variant("nowait".into()));
    assert_eq!(c.variant, "nowait");
    assert_eq!(c.apply(SimEdit::Variant("atomic".into())).variant, "nowait");
    assert_eq!(c.apply(SimEdit::Preset("nope".into())), c);
    assert_eq!(c.apply(SimEdit::Jobs(0)).jobs, c.jobs);
    assert_eq!(c.apply(SimEdit::Seed(u64::MAX)).seed, u64::MAX);
    let k = c.apply(SimEdit::Custom(Some(Box::default())));
    assert_eq!(k.apply(SimEdit::Custom(None)).custom, None);
}

/// The handler time's "none" and the rate limit's burst are saved with the other knobs;
/// settings saved before them load with the old behaviour (the burst as many as the rate);
/// a burst out of range drops only the edited knobs.
#[test]
fn the_handler_time_and_the_burst_are_saved_and_older_settings_still_load() {
    use modality_advisor::domain::sim::setup::knobs::{DurationMode, Knob};
    let check = |custom: serde_json::Value, want: Option<(DurationMode, Option<u64>, u64)>| {
        let json = serde_json::json!({"preset": CUSTOM_PRESET, "variant": "your-settings", "seed": 7, "jobs": 5, "custom": custom});
        let c = SimChoice::from_value(&json);
        assert_eq!(c.seed, 7, "{json}");
        let got = c.custom.map(|k| {
            (
                k.duration,
                k.rate_limit_burst,
                k.get(Knob::RateBurst).unwrap_or(0),
            )
        });
        assert_eq!(got, want, "{json}");
    };
    let mut old = serde_json::to_value(CustomRun {
        rate_limit_per_s: 10,
        ..CustomRun::default()
    })
    .expect("JSON");
    // As an older build wrote it: no burst field at all.
    assert!(old.get("rate_limit_burst").is_none(), "{old}");
    check(old.clone(), Some((DurationMode::Lognormal, None, 10)));
    old["duration"] = "none".into();
    old["rate_limit_burst"] = 3.into();
    check(old.clone(), Some((DurationMode::None, Some(3), 3)));
    old["rate_limit_burst"] = 0.into();
    check(old.clone(), None);
    old["rate_limit_burst"] = "lots".into();
    check(old.clone(), None);
    // Through the whole session, edited, and back.
    let choice = SimChoice::default().apply(SimEdit::Custom(Some(Box::new(CustomRun {
        duration: DurationMode::None,
        rate_limit_burst: Some(25),
        ..CustomRun::default()
    }))));
    let s = session_with(Some(choice.clone()));
    let back = Session::from_json(&s.to_json()).expect("reads back");
    assert_eq!(back.sim, Some(choice));
}

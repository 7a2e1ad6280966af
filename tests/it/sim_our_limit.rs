//! "Our limiter (pacing)" in "Your settings" (issue 25): a sheet's `load.our_limit` pre-fills
//! it with its reason, it reaches the config file the CLI runs (and back), it is checked
//! naming the knob and its range, and a run paced at the downstream's rate is never refused
//! and never passes more calls in a second than the limiter allows.

use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::load::{LoadSpec, Per, Rate};
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::sim::setup::config_file::{load_config, parse_file};
use modality_advisor::domain::sim::setup::knobs::{our_limit_reason, CustomRun, Knob};

fn partner_sheet() -> JobSheet {
    import_json(
        include_str!("../../static/examples/partner-inventory-sync.json"),
        Lang::En,
    )
    .unwrap_or_else(|e| panic!("imports: {e}"))
}

fn with_our_limit(count: u64, per: Per) -> JobSheet {
    let mut sheet = partner_sheet();
    let load = sheet.load.as_mut().expect("the example has a load section");
    load.our_limit = Some(Rate { count, per });
    sheet
}

fn reason(sheet: &JobSheet, lang: Lang) -> Option<String> {
    our_limit_reason(sheet.load.as_ref(), lang)
}

#[test]
fn the_sheets_limiter_pre_fills_the_knob_with_its_reason() {
    let sheet = partner_sheet();
    let c = CustomRun::from_sheet(&sheet);
    assert_eq!(c.our_limit_per_s, Some(10));
    assert!(c.downstream && c.active(Knob::OurLimit));
    assert_eq!(c.get(Knob::OurLimit), Some(10));
    assert!(c.validate().is_empty(), "{:?}", c.validate());
    assert_eq!(
        reason(&sheet, Lang::En).as_deref(),
        Some("From the sheet’s Load and capacity: the workers pace themselves at 10/s (all together).")
    );
    assert_eq!(
        reason(&sheet, Lang::Ja).as_deref(),
        Some("定義書の「負荷とキャパシティ」から：ワーカー全体で10件/秒に抑える。")
    );

    // 90 a minute is 1.5/s: rounded down, so the run never calls faster than the sheet says.
    let s = with_our_limit(90, Per::Minute);
    assert_eq!(CustomRun::from_sheet(&s).our_limit_per_s, Some(1));
    assert!(reason(&s, Lang::En).is_some_and(|r| r.contains("rounded down")));
    // 30 a minute is slower than the field holds: left empty, and the page says why.
    let s = with_our_limit(30, Per::Minute);
    assert_eq!(CustomRun::from_sheet(&s).our_limit_per_s, None);
    assert!(
        reason(&s, Lang::En).is_some_and(|r| r.contains("left empty")),
        "{:?}",
        reason(&s, Lang::En)
    );

    // A limiter alone (no downstream limit stated) still turns the downstream on: it paces
    // the calls, with no limit of the downstream's own invented.
    let mut alone = partner_sheet();
    if let Some(l) = alone.load.as_mut() {
        l.downstream = Default::default();
    }
    let c = CustomRun::from_sheet(&alone);
    assert!(c.downstream);
    assert_eq!(
        (c.our_limit_per_s, c.rate_limit_per_s, c.capacity),
        (Some(10), 0, 0)
    );

    // No limiter stated: none, and no reason shown.
    let mut none = partner_sheet();
    if let Some(l) = none.load.as_mut() {
        l.our_limit = None;
    }
    assert_eq!(CustomRun::from_sheet(&none).our_limit_per_s, None);
    assert_eq!(reason(&none, Lang::En), None);
    assert_eq!(our_limit_reason(None::<&LoadSpec>, Lang::En), None);
}

#[test]
fn the_limiter_reaches_the_config_file_and_comes_back() {
    let c = CustomRun::from_sheet(&partner_sheet());
    let file = c.to_file(7);
    let text = serde_json::to_string_pretty(&file).expect("JSON");
    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(value["pacing"], serde_json::json!({"rate_per_s": 10.0}));
    // Round trip: the file read back is the file written, and the engine gets the limiter.
    assert_eq!(parse_file(&text).expect("parses"), file);
    let cfg = load_config(&text).expect("loads");
    assert_eq!(cfg.pacing.map(|p| p.rate_per_s), Some(10.0));

    // Without a limiter the key is left out, so older files and newer ones read alike.
    let plain = c.with(Knob::OurLimit, 0);
    assert_eq!(plain.our_limit_per_s, None);
    let old = serde_json::to_string(&plain.to_file(7)).expect("JSON");
    assert!(!old.contains("pacing"), "{old}");
    assert_eq!(load_config(&old).expect("an older file loads").pacing, None);
    // Nor without a downstream: the limiter paces downstream calls only.
    let off = CustomRun {
        downstream: false,
        ..c.clone()
    };
    assert!(!off.active(Knob::OurLimit));
    assert_eq!(off.to_file(7).pacing, None);

    // Settings saved before the knob existed load with no limiter.
    let mut saved = serde_json::to_value(&plain).expect("JSON");
    assert!(saved.get("our_limit_per_s").is_none());
    saved["our_limit_per_s"] = serde_json::json!(10);
    let back: CustomRun = serde_json::from_value(saved).expect("reads");
    assert_eq!(back.our_limit_per_s, Some(10));

    // A bad rate in a file is refused naming its field and range.
    let bad = text.replace(
        "\"rate_per_s\": 10.0\n  }\n}",
        "\"rate_per_s\": 0.0\n  }\n}",
    );
    assert_ne!(bad, text, "the pacing object is the file's last one");
    let errs = load_config(&bad).expect_err("a zero rate is refused");
    let said: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(
        said.iter().any(|m| m.contains("pacing.rate_per_s")),
        "{said:?}"
    );
    let unknown = text.replace(
        "\"rate_per_s\": 10.0\n  }\n}",
        "\"rate_per_s\": 10.0, \"burst\": 3\n  }\n}",
    );
    assert_ne!(unknown, text);
    let errs = load_config(&unknown).expect_err("an unknown field is refused");
    assert!(
        errs.iter().any(|e| e.to_string().contains("pacing")),
        "{errs:?}"
    );
}

#[test]
fn the_limiter_is_checked_naming_the_knob_and_its_range() {
    let c = CustomRun::from_sheet(&partner_sheet());
    let errs = c.with(Knob::OurLimit, 200_000).validate();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].knob(), Knob::OurLimit);
    assert_eq!(
        errs[0].message(Lang::En),
        "Our limiter (pacing): 200,000 /s is out of range; allowed 1 /s to 100,000 /s."
    );
    assert_eq!(
        errs[0].message(Lang::Ja),
        "自前のレート制限（ペース配分）：毎秒200,000 は範囲外です。毎秒1〜毎秒100,000 の範囲で指定してください。"
    );
    // An empty field (0) is no limiter, not a refused value.
    assert!(c.with(Knob::OurLimit, 0).validate().is_empty());
    assert!(c.with(Knob::OurLimit, 1).validate().is_empty());
}

/// The partner's sheet: 500 updates at once to a partner allowing 10 calls/s, our workers
/// pacing themselves at 10/s. Paced, no call is refused and no second of the calls chart
/// passes more than 10; without the limiter the same settings are refused and retried.
#[test]
fn a_run_paced_at_the_partners_rate_is_never_refused() {
    let c = CustomRun::from_sheet(&partner_sheet());
    let paced = crate::sim_support::settings_view(&c, 1);
    assert_eq!(paced.key.calls_ok, 500, "{:?}", paced.key);
    assert_eq!((paced.key.calls_busy, paced.key.calls_failed), (0, 0));
    let (width, [ok, busy, failed]) = paced.charts.calls.rates();
    assert_eq!(width, 1.0);
    let most = ok.iter().copied().fold(0.0, f64::max);
    assert!(most <= 10.0, "a second with {most} calls");
    assert!(busy.iter().chain(&failed).all(|&v| v == 0.0));
    assert_eq!(paced.charts.our_limit_per_s, Some(10.0));
    // The chart draws the limiter's line and says what it does, in both languages.
    let en = &paced.drawn.charts[0];
    assert!(
        en.contains(r#"data-rule="our-limit""#),
        "the limiter's line"
    );
    assert!(en.contains("our limiter 10/s"));
    // The line is drawn inside the chart, below its top grid line, not on the top edge
    // (the bars reach the limit, and the scale used to end there).
    let at = en
        .find(r#"data-rule="our-limit""#)
        .expect("the limiter's line");
    let svg = &en[en[..at].rfind("<svg").expect("its chart")..];
    let svg = &svg[..svg.find("</svg>").expect("its end") + 6];
    let doc = roxmltree::Document::parse(svg).expect("the chart is XML");
    let y1 = |n: roxmltree::Node| n.attribute("y1").and_then(|y| y.parse::<f64>().ok());
    let rule = doc
        .descendants()
        .find(|n| n.attribute("data-rule") == Some("our-limit"))
        .and_then(y1)
        .expect("the limiter's line");
    let top = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("plot-grid"))
        .filter_map(y1)
        .fold(f64::INFINITY, f64::min);
    assert!(
        rule > top + 5.0,
        "the line at y {rule}, the top grid line at {top}"
    );
    assert!(en.contains(r#"data-our-limit="10""#));
    assert!(en.contains("The dashed line is our limiter: it paces"));
    assert!(!en.contains("The dashed line is the downstream"));
    assert!(paced.drawn.charts[1].contains("自前のレート制限 毎秒10件"));
    // The 500 calls at 10/s take 50 s at the least.
    assert!(paced.key.end_s >= 49.9, "{} s", paced.key.end_s);

    let unpaced = crate::sim_support::settings_view(&c.with(Knob::OurLimit, 0), 1);
    assert!(
        unpaced.key.calls_failed > 0,
        "without the limiter the partner refuses: {:?}",
        unpaced.key
    );
    assert_eq!(unpaced.charts.our_limit_per_s, None);
    assert!(!unpaced.drawn.charts[0].contains("data-our-limit"));
}

/// The limiter is kept with the other knobs in the saved session; settings saved before it
/// existed load with no limiter, and a saved limiter out of range drops only the edited knobs.
#[test]
fn the_limiter_is_saved_with_the_knobs_and_older_settings_still_load() {
    use modality_advisor::domain::session::{SimChoice, CUSTOM_PRESET};
    let read = |custom: serde_json::Value| {
        let json = serde_json::json!({"preset": CUSTOM_PRESET, "variant": "your-settings", "seed": 7, "jobs": 5, "custom": custom});
        SimChoice::from_value(&json)
            .custom
            .map(|c| c.our_limit_per_s)
    };
    let c = CustomRun::from_sheet(&partner_sheet());
    let mut saved = serde_json::to_value(&c).expect("JSON");
    assert_eq!(read(saved.clone()), Some(Some(10)));
    saved.as_object_mut().map(|o| o.remove("our_limit_per_s"));
    assert_eq!(read(saved.clone()), Some(None), "an older save: no limiter");
    saved["our_limit_per_s"] = 200_000.into();
    assert_eq!(
        read(saved),
        None,
        "out of range: the edited knobs are dropped"
    );
}

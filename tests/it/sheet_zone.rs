//! The batch schedule's time zone (issue 26, item 3): the page's list of names is the bundled
//! database's, a name it does not have is a finding in both languages that keeps what was
//! typed, files without the field read as UTC, and the daylight-saving findings name the days
//! of the coming year on which a run is skipped or doubled.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::export::markdown::to_markdown_at;
use modality_advisor::domain::export::protocol::{
    ExportFormat, ExportReply, ExportRequest, ExportSubject,
};
use modality_advisor::domain::export::target_worker::handle;
use modality_advisor::domain::queues::TargetId;
use modality_advisor::domain::sheet::check::{validate, Severity};
use modality_advisor::domain::sheet::dst::{dst_findings, shift_days, Shift};
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::prefill::{default_reason, prefill};
use modality_advisor::domain::sheet::zone::names;
use modality_advisor::domain::sheet::{Decision, DecisionAnswer, FieldId, JobSheet, ProcessFacts};
use modality_advisor::domain::{Lang, Outcome, QuestionId};
use serde_json::Value;

/// 2027-01-01T00:00:00Z in Unix milliseconds: the coming year is 2027.
const JAN_2027_MS: i64 = 1_798_761_600_000;

fn batch_sheet(lang: Lang) -> JobSheet {
    let question = QuestionId::parse("time-triggered").expect("question");
    prefill(
        ProcessFacts {
            process_name: "nightly inventory sync".to_owned(),
            code_name: "sync_inventory".to_owned(),
            ..ProcessFacts::default()
        },
        Decision {
            answers: vec![DecisionAnswer {
                question,
                answer: true,
                timing: None,
            }],
            outcome: Outcome::Batch,
        },
        lang,
    )
}

fn with(mut s: JobSheet, schedule: &str, zone: &str) -> JobSheet {
    let b = s.batch.as_mut().expect("a batch sheet");
    b.schedule = schedule.to_owned();
    b.time_zone = zone.to_owned();
    s
}

#[test]
fn each_zones_kept_rule_gives_the_databases_transitions() {
    // build.rs keeps a zone's POSIX rule alone only where it gives what the full data does;
    // held here against jiff's whole bundled database, every name, 2026 to 2040: the offset
    // at the start and every transition (instant and new offset).
    use modality_advisor::domain::sheet::zone_rules;
    let start = jiff::Timestamp::from_second(1_767_225_600).unwrap(); // 2026-01-01
    let end = jiff::Timestamp::from_second(2_208_988_800).unwrap(); // 2040-01-01
    let seen = |tz: &jiff::tz::TimeZone| -> Vec<(i64, i32)> {
        tz.following(start)
            .take_while(|t| t.timestamp() <= end)
            .map(|t| (t.timestamp().as_second(), t.offset().seconds()))
            .collect()
    };
    let (mut rules, mut shifting) = (0, 0);
    for name in names() {
        let ours = zone_rules::get(name).unwrap_or_else(|| panic!("{name} is kept"));
        let theirs = jiff::tz::db().get(name).expect("in the database");
        assert_eq!(ours.to_offset(start), theirs.to_offset(start), "{name}");
        let transitions = seen(&theirs);
        assert_eq!(seen(&ours), transitions, "{name}");
        rules += 1;
        shifting += usize::from(!transitions.is_empty());
    }
    assert!(
        rules > 400 && shifting > 100,
        "{rules} zones, {shifting} with daylight saving"
    );
    // Looked up as jiff's database is: ASCII case ignored; an unknown name is none.
    assert!(zone_rules::get("america/new_york").is_some());
    assert!(zone_rules::get("Mars/Olympus_Mons").is_none());
    assert!(zone_rules::get("").is_none());
}

#[test]
fn the_pages_names_are_the_databases() {
    let mut ours: Vec<&str> = names().collect();
    let mut theirs: Vec<String> = jiff::tz::db()
        .available()
        .map(|n| n.as_str().to_owned())
        .collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert!(ours.len() > 400, "{}", ours.len());
    assert_eq!(
        ours, theirs,
        "src/domain/sheet/zone_names.txt differs from jiff's database"
    );
}

#[test]
fn default_is_utc_and_says_why() {
    for lang in [Lang::En, Lang::Ja] {
        let s = batch_sheet(lang);
        assert_eq!(s.batch.as_ref().expect("batch").time_zone, "UTC");
        let why = default_reason(FieldId::TimeZone, &s.decision, lang).expect("a reason");
        assert!(why.contains("UTC"), "{why}");
        assert!(validate(&s, lang)
            .iter()
            .all(|f| f.field != FieldId::TimeZone));
    }
}

#[test]
fn an_unknown_zone_is_an_error_naming_the_field_in_both_languages_and_is_kept() {
    let s = SheetEdit::TimeZone("Asia/Tokio".to_owned())
        .apply(&batch_sheet(Lang::En))
        .expect("any text is kept");
    assert_eq!(s.batch.as_ref().expect("batch").time_zone, "Asia/Tokio");
    let en = validate(&s, Lang::En);
    let f = en
        .iter()
        .find(|f| f.code == "batch-time-zone-unknown")
        .expect("a finding");
    assert_eq!((f.severity, f.field), (Severity::Error, FieldId::TimeZone));
    assert!(
        f.message.contains("Time zone “Asia/Tokio”"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("Asia/Tokyo"),
        "how to fix: {}",
        f.message
    );
    let ja = validate(&s, Lang::Ja);
    let f = ja
        .iter()
        .find(|f| f.code == "batch-time-zone-unknown")
        .expect("a finding");
    assert!(
        f.message.contains("タイムゾーン「Asia/Tokio」"),
        "{}",
        f.message
    );
    assert!(f.message.contains("IANA"), "{}", f.message);

    // Only the case differs: the database's spelling is named.
    let s = with(batch_sheet(Lang::En), "0 3 * * *", "america/new_york");
    let msg = validate(&s, Lang::En)
        .into_iter()
        .find(|f| f.field == FieldId::TimeZone)
        .expect("a finding")
        .message;
    assert!(msg.contains("write “America/New_York”"), "{msg}");
    // Blank: said so.
    let s = with(batch_sheet(Lang::Ja), "0 3 * * *", " ");
    let msg = validate(&s, Lang::Ja)
        .into_iter()
        .find(|f| f.field == FieldId::TimeZone)
        .expect("a finding")
        .message;
    assert!(msg.contains("タイムゾーンが空です"), "{msg}");
}

/// Removes every `time_zone` key, as in a file written before the field existed.
fn strip_zone(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("time_zone");
            m.values_mut().for_each(strip_zone);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_zone),
        _ => {}
    }
}

#[test]
fn files_without_the_zone_read_as_utc() {
    let s = with(batch_sheet(Lang::En), "15 2 * * *", "UTC");
    let mut v = serde_json::to_value(&s).expect("json");
    strip_zone(&mut v);
    assert!(!v.to_string().contains("time_zone"));
    let back = import_json(&v.to_string(), Lang::En).expect("an older sheet imports");
    assert_eq!(back, s);

    let c = example_catalog();
    let mut v: Value = serde_json::from_str(&c.to_json()).expect("json");
    strip_zone(&mut v);
    let back = read_catalog(&v.to_string()).expect("an older catalog reads");
    assert_eq!(back, c);
}

#[test]
fn new_york_skips_the_2_30_run_in_march_and_repeats_1_30_in_november() {
    let days = shift_days("30 2 * * *", "America/New_York", JAN_2027_MS);
    assert_eq!(days.len(), 1, "{days:?}");
    assert_eq!(days[0].shift, Shift::Skipped);
    assert_eq!(days[0].date, "2027-03-14");
    assert_eq!(days[0].window, ("02:00".to_owned(), "03:00".to_owned()));
    assert_eq!(days[0].runs, ["02:30"]);

    let days = shift_days("30 1 * * *", "America/New_York", JAN_2027_MS);
    assert_eq!(days.len(), 1, "{days:?}");
    assert_eq!(
        (days[0].shift, days[0].date.as_str()),
        (Shift::Repeated, "2027-11-07")
    );
    assert_eq!(days[0].window, ("01:00".to_owned(), "02:00".to_owned()));

    // Every 20 minutes: both days, three runs each.
    let days = shift_days("*/20 * * * *", "Europe/London", JAN_2027_MS);
    let got: Vec<(Shift, &str, usize)> = days
        .iter()
        .map(|d| (d.shift, d.date.as_str(), d.runs.len()))
        .collect();
    assert_eq!(
        got,
        [
            (Shift::Skipped, "2027-03-28", 3),
            (Shift::Repeated, "2027-10-31", 3)
        ]
    );
    // Weekdays only: 2027-03-14 is a Sunday, so New York's skipped hour misses the run.
    assert!(shift_days("30 2 * * 1-5", "America/New_York", JAN_2027_MS).is_empty());
    // No daylight saving, a run outside the shifted hour, or no clock time: nothing.
    assert!(shift_days("30 2 * * *", "Asia/Tokyo", JAN_2027_MS).is_empty());
    assert!(shift_days("30 2 * * *", "UTC", JAN_2027_MS).is_empty());
    assert!(shift_days("0 4 * * *", "America/New_York", JAN_2027_MS).is_empty());
    assert!(shift_days("@reboot", "America/New_York", JAN_2027_MS).is_empty());
    assert!(shift_days("30 2 * * *", "Mars/Olympus", JAN_2027_MS).is_empty());
}

#[test]
fn dst_findings_in_both_languages_and_in_the_documents() {
    let s = with(batch_sheet(Lang::En), "30 2 * * *", "America/New_York");
    let en = dst_findings(&s, Lang::En, JAN_2027_MS);
    assert_eq!(en.len(), 1, "{en:?}");
    assert_eq!(
        (en[0].code, en[0].severity, en[0].field),
        ("batch-dst-skipped", Severity::Warning, FieldId::TimeZone)
    );
    assert!(
        en[0].message.contains("2027-03-14 (02:00–03:00)") && en[0].message.contains("02:30"),
        "{}",
        en[0].message
    );
    let ja = dst_findings(&s, Lang::Ja, JAN_2027_MS);
    assert!(ja[0].message.contains("夏時間"), "{}", ja[0].message);
    assert!(ja[0].message.contains("2027-03-14"), "{}", ja[0].message);

    // The Markdown written at a moment lists it; without a moment (the domain has no clock)
    // it cannot.
    let md = to_markdown_at(&s, Lang::En, Some(JAN_2027_MS));
    assert!(md.contains("2027-03-14 (02:00–03:00)"), "{md}");
    assert!(md.contains("| Time zone |"), "{md}");
    assert!(!to_markdown_at(&s, Lang::En, None).contains("2027-03-14"));

    // Through the target worker's protocol, with the page's clock: the configuration panel
    // of the CronJob lists it.
    let request = ExportRequest {
        id: 7,
        lang: Lang::Ja,
        format: ExportFormat::Json,
        subject: ExportSubject::Target {
            sheet: Box::new(s.clone()),
            target: TargetId::Kubernetes,
            format: None,
            version: None,
        },
        now_ms: Some(JAN_2027_MS),
    };
    let reply: ExportReply = serde_json::from_str(&handle(&request.to_json())).expect("reply");
    let panel = reply.result.expect("a panel");
    assert!(panel.contains("batch-dst-skipped"), "{panel}");
    assert!(panel.contains("2027-03-14 (02:00–03:00)"), "{panel}");
    assert!(panel.contains("America/New_York"), "{panel}");
}

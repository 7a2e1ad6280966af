//! The sheet's "Load and capacity" section in the sheet's documents and form: its rows (with
//! the analytic capacity row, or what it still needs), the form's inputs read into the section
//! or refused with a message naming the field and the range, the one-field edit, and the
//! catalog's capacity cells.

use crate::sheet_edit::sheet;
use crate::sheet_roundtrip::load;
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::fields::rows;
use modality_advisor::domain::sheet::load::{Burst, HandlerTime, LoadSpec, Per, Rate};
use modality_advisor::domain::sheet::load_form::{parse_percent_bp, Part};
use modality_advisor::domain::sheet::load_text::catalog_cells;
use modality_advisor::domain::sheet::{FieldId, JobSheet};
use modality_advisor::domain::{Lang, QuestionId};
use proptest::prelude::*;

fn enqueue() -> JobSheet {
    sheet(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, false),
    ])
}

/// 10 jobs/s, p50 200 ms / p95 800 ms, 5 % failing, 2 processes × 2 at once, 500 at once.
fn sized() -> JobSheet {
    let mut s = enqueue();
    s.load = Some(LoadSpec {
        arrival: Some(Rate {
            count: 10,
            per: Per::Second,
        }),
        burst: Some(Burst::AtOnce { count: 500 }),
        handler: Some(HandlerTime::Lognormal {
            p50_ms: 200,
            p95_ms: 800,
        }),
        failure_bp: Some(500),
        workers: Some(2),
        concurrency: Some(2),
        ..LoadSpec::default()
    });
    s
}

fn value(s: &JobSheet, field: FieldId, lang: Lang) -> String {
    rows(s, lang)
        .into_iter()
        .find(|r| r.field == field)
        .map(|r| r.value)
        .unwrap_or_else(|| panic!("no {field:?} row"))
}

#[test]
fn an_asynchronous_sheet_has_a_row_per_load_field_then_the_capacity() {
    let fields: Vec<FieldId> = rows(&enqueue(), Lang::En)
        .iter()
        .map(|r| r.field)
        .skip_while(|f| *f != FieldId::ArrivalRate)
        .collect();
    assert_eq!(
        fields,
        [
            FieldId::ArrivalRate,
            FieldId::Burst,
            FieldId::HandlerTime,
            FieldId::FailureRate,
            FieldId::DownstreamLimits,
            FieldId::OurLimit,
            FieldId::CapacityTargets,
            FieldId::Workers,
            FieldId::Capacity,
        ]
    );
    // A synchronous sheet has no load section and no such rows.
    let sync = sheet(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, true),
        (QuestionId::WithinSeconds, true),
        (QuestionId::ExternalCall, false),
    ]);
    assert!(rows(&sync, Lang::En)
        .iter()
        .all(|r| r.field != FieldId::Capacity));
}

#[test]
fn the_rows_say_the_numbers_in_both_languages() {
    let s = sized();
    let check = |field, en: &str, ja: &str| {
        assert_eq!(value(&s, field, Lang::En), en, "{field:?}");
        assert_eq!(value(&s, field, Lang::Ja), ja, "{field:?}");
    };
    check(
        FieldId::ArrivalRate,
        "mean 10/s; peak not stated",
        "平均 10件/秒、ピーク 未記入",
    );
    check(FieldId::Burst, "500 jobs at once", "500件が同時に");
    check(
        FieldId::HandlerTime,
        "p50 200 ms, p95 800 ms (lognormal)",
        "p50 200ミリ秒、p95 800ミリ秒（対数正規）",
    );
    check(
        FieldId::FailureRate,
        "5 % of attempts fail transiently",
        "試行の5%が一時的に失敗",
    );
    check(FieldId::DownstreamLimits, "not stated", "未記入");
    check(
        FieldId::Workers,
        "2 processes × 2 at once each = 4 jobs at once",
        "2プロセス × 各2件 = 同時4件",
    );
    // Offered load 10/s × 1.05 attempts × 285 ms ≈ 3 Erlangs; 4 at once: ρ 75 %, ceiling
    // 4 / (1.05 × 0.285 s) ≈ 13.3/s; the burst drains in 500 / (13.3 − 10) ≈ 150 s.
    check(
        FieldId::Capacity,
        "offered load 3.00 Erlangs (10.0/s × 1.05 attempts × mean 285 ms); at 4 at once: the workers' utilisation 75 %, throughput ceiling 13.3/s, bottleneck: the workers; a burst of 500 drains in ≈ 2.5 min (analytic)",
        "提供負荷 3.00 アーラン（10.0件/秒 × 試行1.05回 × 平均285ミリ秒）。同時4件でワーカーの稼働率75%、スループット上限 13.3件/秒、ボトルネック：ワーカー数。500件のバーストは約2.5分で処理し終えます（解析）",
    );
}

/// A burst with no steady arrivals offers no load: the row leaves out "offered load 0.00
/// Erlangs" and "utilisation 0 %" and says the ceiling and the burst's drain.
#[test]
fn a_burst_alone_says_the_ceiling_and_the_drain_not_a_zero_load() {
    let mut s = sized();
    if let Some(l) = s.load.as_mut() {
        l.arrival = None;
    }
    // 4 at once, 1.05 attempts × 285 ms each: a ceiling of 13.3/s; the 500 drain in
    // 500 ÷ 13.3 ≈ 37.5 s.
    assert_eq!(
        value(&s, FieldId::Capacity, Lang::En),
        "no steady arrivals (a burst only); at 4 at once: throughput ceiling 13.3/s, bottleneck: the workers; a burst of 500 drains in ≈ 37.5 s (analytic)"
    );
    assert_eq!(
        value(&s, FieldId::Capacity, Lang::Ja),
        "定常の到着なし（バーストのみ）。同時4件でスループット上限 13.3件/秒、ボトルネック：ワーカー数。500件のバーストは約37.5秒で処理し終えます（解析）"
    );
}

#[test]
fn missing_numbers_leave_the_section_not_sized_yet() {
    let mut s = enqueue();
    assert_eq!(
        value(&s, FieldId::Capacity, Lang::En),
        "not sized yet: needs the arrival rate (or a burst), the handler's time"
    );
    // A schema 2 sheet without the section reads as an empty one.
    s.load = None;
    assert_eq!(
        value(&s, FieldId::Capacity, Lang::Ja),
        "未見積もり：到着率（またはバースト）、処理時間が必要です"
    );
    assert_eq!(value(&s, FieldId::ArrivalRate, Lang::En), "not stated");
    // The wait target comes from the acceptable wait, and says so.
    s.process.acceptable_wait_ms = Some(600_000);
    assert_eq!(
        value(&s, FieldId::CapacityTargets, Lang::En),
        "wait p95 ≤ 10 min (from the acceptable wait)"
    );
}

#[test]
fn a_limit_below_the_workers_is_the_bottleneck_and_a_burst_can_never_drain() {
    let mut s = sized();
    let l = s.load.as_mut().expect("a load section");
    l.downstream.rate = Some(Rate {
        count: 600,
        per: Per::Minute,
    });
    // 600/min is 10 calls/s for 10 jobs/s × 1.05 attempts: the limit caps the jobs at 9.5/s.
    assert!(value(&s, FieldId::Capacity, Lang::En).contains(
        "throughput ceiling 9.50/s, bottleneck: the downstream's rate limit — the queue grows without end; a burst of 500 never drains"
    ));
    assert_eq!(
        catalog_cells(Some(&s), Lang::En),
        [
            Some("10/s".into()),
            Some("2 × 2".into()),
            Some("the downstream's rate limit".into()),
            Some("never drains".into())
        ]
    );
    assert_eq!(
        catalog_cells(Some(&enqueue()), Lang::Ja),
        [None, None, Some("未見積もり".into()), None]
    );
}

/// Workers too few for the load: their utilisation from 1 on is ρ, not a share of time past
/// 100 % (a fresh walk read "the workers' utilisation 238 %"), and the queue grows.
#[test]
fn workers_too_few_read_as_rho_not_a_share_past_100_percent() {
    let mut s = sized();
    let l = s.load.as_mut().expect("a load section");
    (l.workers, l.concurrency) = (Some(1), Some(1));
    // 10/s × 1.05 attempts × 285 ms at 1 at once: ρ = 3.00.
    let en = value(&s, FieldId::Capacity, Lang::En);
    assert!(
        en.contains("; at 1 at once: the workers' utilisation ρ = 3.00, throughput ceiling 3.33/s, bottleneck: the workers — the queue grows without end"),
        "{en}"
    );
    assert!(!en.contains('%'), "{en}");
    let ja = value(&s, FieldId::Capacity, Lang::Ja);
    assert!(
        ja.contains("。同時1件でワーカーの稼働率ρ = 3.00、スループット上限 3.33件/秒"),
        "{ja}"
    );
    // Below 1 still a share of their time.
    let l = s.load.as_mut().expect("a load section");
    l.concurrency = Some(4);
    assert!(value(&s, FieldId::Capacity, Lang::En).contains("the workers' utilisation 75 %, "));
}

/// A partner that takes one call an hour caps the jobs at 0.00026/s: said with its significant
/// digits, not "at most 0.00/s" (a ceiling of nothing).
#[test]
fn a_tiny_ceiling_keeps_its_significant_digits() {
    let mut s = sized();
    let l = s.load.as_mut().expect("a load section");
    l.downstream.rate = Some(Rate {
        count: 1,
        per: Per::Hour,
    });
    // 1/h = 0.000278 calls/s, over 1.05 attempts a job: 0.000265 jobs/s.
    let en = value(&s, FieldId::Capacity, Lang::En);
    assert!(
        en.contains("throughput ceiling 0.00026/s, bottleneck: the downstream's rate limit"),
        "{en}"
    );
    let ja = value(&s, FieldId::Capacity, Lang::Ja);
    assert!(ja.contains("スループット上限 0.00026件/秒"), "{ja}");
}

/// Reads `raws` into `part` of an empty section: the section, or each refused input's
/// (index, message) in English.
fn read(
    part: Part,
    raws: &[&str],
    wizard_p95: Option<u64>,
) -> Result<LoadSpec, Vec<(usize, String)>> {
    let raws: Vec<String> = raws.iter().map(|s| (*s).to_owned()).collect();
    part.read(&raws, &LoadSpec::default(), wizard_p95, Lang::En)
}

fn refused(part: Part, raws: &[&str], want: &[(usize, &str)]) {
    let want: Vec<(usize, String)> = want.iter().map(|(i, m)| (*i, (*m).to_owned())).collect();
    assert_eq!(read(part, raws, None), Err(want), "{part:?} {raws:?}");
}

#[test]
fn the_form_refuses_a_value_naming_the_field_and_the_range() {
    refused(
        Part::Handler,
        &["lognormal", "200", "100", "", ""],
        &[(
            2,
            "Handler p95: 100 ms is below the median (p50) 200 ms; enter a p95 of at least the median.",
        )],
    );
    // Past the top the range is said, from the median.
    refused(
        Part::Handler,
        &["lognormal", "200", "2d", "", ""],
        &[(2, "Handler p95: 2 d is out of range; allowed 200 ms – 1 d.")],
    );
    let raws: Vec<String> = ["lognormal", "200", "100", "", ""].map(String::from).into();
    let ja = Part::Handler.read(&raws, &LoadSpec::default(), None, Lang::Ja);
    let Err(ja) = ja else {
        panic!("refused in Japanese too")
    };
    assert!(
        ja[0]
            .1
            .contains("100ミリ秒は中央値（p50）200ミリ秒より小さくなっています"),
        "{ja:?}"
    );
    refused(
        Part::Arrival,
        &["0", "second"],
        &[(
            0,
            "Mean arrival rate: enter a whole number from 1 to 1,000,000 jobs.",
        )],
    );
    refused(
        Part::Workers,
        &["ten"],
        &[(
            0,
            "Worker processes: enter a whole number from 1 to 1,000 processes.",
        )],
    );
    refused(
        Part::Failure,
        &["120"],
        &[(
            0,
            "Transient failure rate: enter a percentage from 0 to 99 (up to two decimals).",
        )],
    );
    refused(
        Part::Handler,
        &["lognormal", "200", "", "", ""],
        &[(
            2,
            "Handler p95: needed with Handler p50 (median) (or leave both empty).",
        )],
    );
    refused(
        Part::Burst,
        &["rate", "", "1000", "second", "1 h"],
        &[(4, "Burst lasting: the burst would be 3,600,000 jobs (rate × duration); allowed at most 100,000, the simulator's limit.")],
    );
    refused(
        Part::Burst,
        &["rate", "", "", "second", "10 min"],
        &[(
            2,
            "Burst rate: needed with Burst lasting (or leave both empty).",
        )],
    );
}

#[test]
fn the_form_reads_what_is_typed_and_empty_means_not_stated() {
    let handler = |raws: &[&str], wizard| read(Part::Handler, raws, wizard).map(|l| l.handler);
    assert_eq!(
        handler(&["lognormal", "200", "1.5 s", "", ""], None),
        Ok(Some(HandlerTime::Lognormal {
            p50_ms: 200,
            p95_ms: 1_500
        }))
    );
    // The median alone takes the wizard's p95.
    assert_eq!(
        handler(&["lognormal", "２００", "", "", ""], Some(8_000)),
        Ok(Some(HandlerTime::Lognormal {
            p50_ms: 200,
            p95_ms: 8_000
        }))
    );
    assert_eq!(
        handler(&["lognormal", "", "", "", ""], Some(8_000)),
        Ok(None)
    );
    assert_eq!(
        handler(&["fixed", "200", "", "300", ""], None),
        Ok(Some(HandlerTime::Fixed { ms: 300 }))
    );
    assert_eq!(
        read(Part::Peak, &["1,200", "minute"], None).map(|l| l.peak),
        Ok(Some(Rate {
            count: 1_200,
            per: Per::Minute
        }))
    );
    assert_eq!(
        read(Part::TargetWait, &["30"], None).map(|l| l.target_wait_p95_ms),
        Ok(Some(30_000))
    );
    assert_eq!(
        read(Part::Workers, &[""], None).map(|l| l.workers),
        Ok(None)
    );
    for (raw, bp) in [
        ("2.5", Some(250)),
        ("12 %", Some(1_200)),
        ("0.05", Some(5)),
        (".5", Some(50)),
        ("1.234", None),
        ("-1", None),
        ("", None),
    ] {
        assert_eq!(parse_percent_bp(raw), bp, "{raw:?}");
    }
}

#[test]
fn the_edit_takes_the_section_only_on_an_asynchronous_sheet_and_checks_it() {
    let mut l = LoadSpec {
        workers: Some(4),
        ..LoadSpec::default()
    };
    let s = SheetEdit::Load(l).apply(&enqueue()).expect("taken");
    assert_eq!(s.load, Some(l));
    l.workers = Some(0);
    assert_eq!(
        SheetEdit::Load(l)
            .apply(&enqueue())
            .map_err(|e| e.to_string()),
        Err("load.workers: 0 is out of range; allowed: 1 to 1000".into())
    );
    let batch = sheet(&[(QuestionId::TimeTriggered, true)]);
    assert!(SheetEdit::Load(LoadSpec::default()).apply(&batch).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// What the form shows for a section reads back as that section, in every part.
    #[test]
    fn every_part_shows_what_reads_back(l in load(), ja in any::<bool>()) {
        let lang = if ja { Lang::Ja } else { Lang::En };
        for part in Part::ALL {
            let texts = part.texts(&l);
            prop_assert_eq!(part.read(&texts, &l, None, lang), Ok(l), "{:?} {:?}", part, texts);
        }
    }

    /// Any text in any input is read or refused, never a panic, and a refusal names a field.
    #[test]
    fn any_text_is_read_or_refused(raws in prop::collection::vec(".{0,12}", 5), i in 0usize..13) {
        let part = Part::ALL[i];
        if let Err(errors) = part.read(&raws, &LoadSpec::default(), Some(1_000), Lang::Ja) {
            prop_assert!(!errors.is_empty());
            for (at, m) in errors {
                prop_assert!(at < part.inputs().len() && m.contains('：'), "{}", m);
            }
        }
    }
}

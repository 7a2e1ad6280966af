//! Numbers and durations as people read and type them: thousands grouped with commas in
//! both languages, the same parsed back; durations typed with units (`2 s`, `１．５分`)
//! read as whole milliseconds, and refused with the reason otherwise.

use modality_advisor::domain::duration::{self, DurationParseError};
use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::number::{
    file_size, group_thousands, group_thousands_signed, parse_whole,
};
use proptest::prelude::*;

/// A file's size in the audit's refusals: MiB to one decimal, rounded half up, the bytes
/// grouped, in each language's punctuation.
#[test]
fn file_sizes_read_in_mib_with_the_bytes_grouped() {
    assert_eq!(
        file_size(6 * 1024 * 1024, Lang::En),
        "6.0 MiB (6,291,456 bytes)"
    );
    assert_eq!(
        file_size(5 * 1024 * 1024, Lang::Ja),
        "5.0 MiB（5,242,880 バイト）"
    );
    assert_eq!(file_size(512, Lang::En), "0.0 MiB (512 bytes)");
    // 1.05 MiB rounds up, 1.04 MiB down.
    assert_eq!(file_size(1_101_005, Lang::En), "1.1 MiB (1,101,005 bytes)");
    assert_eq!(file_size(1_090_519, Lang::En), "1.0 MiB (1,090,519 bytes)");
    assert_eq!(file_size(u64::MAX, Lang::En).split(' ').nth(1), Some("MiB"));
}

#[test]
fn thousands_are_grouped_with_commas() {
    let check = |n: u64, want: &str| assert_eq!(group_thousands(n), want, "{n}");
    check(0, "0");
    check(999, "999");
    check(1_000, "1,000");
    check(8_000, "8,000");
    check(1_234_567, "1,234,567");
    check(u64::MAX, "18,446,744,073,709,551,615");
    let signed = |n: i64, want: &str| assert_eq!(group_thousands_signed(n), want, "{n}");
    signed(0, "0");
    signed(-999, "−999");
    signed(-1_900, "−1,900");
    signed(i64::MIN, "−9,223,372,036,854,775,808");
    signed(i64::MAX, "9,223,372,036,854,775,807");
}

/// The computed numbers' formatter: grouped from 100, one decimal from 10, two below, and two
/// significant digits under 0.01 (a tiny rate is not "0.00").
#[test]
fn computed_numbers_keep_two_significant_digits_when_tiny() {
    use modality_advisor::domain::number::num;
    for (v, text) in [
        (1682.5, "1,683"),
        (12.34, "12.3"),
        (3.0, "3.00"),
        (0.5, "0.50"),
        (0.01, "0.01"),
        (0.0042, "0.0042"),
        (0.009, "0.0090"),
        (1.0 / 3600.0, "0.00028"),
        (0.0, "0.00"),
        (f64::INFINITY, "∞"),
    ] {
        assert_eq!(num(v), text, "{v}");
    }
}

#[test]
fn durations_group_with_commas_in_both_languages() {
    let check = |ms: u64, en: &str, ja: &str| {
        assert_eq!(duration::exact(ms, Lang::En), en, "{ms}");
        assert_eq!(duration::exact(ms, Lang::Ja), ja, "{ms}");
    };
    check(0, "0 s", "0秒");
    check(999, "999 ms", "999ミリ秒");
    check(1_500, "1,500 ms", "1,500ミリ秒");
    check(1_000_000, "1,000 s", "1,000秒");
    check(86_400_000 * 1_000, "1,000 d", "1,000日");
}

#[test]
fn whole_numbers_are_read_grouped_or_not() {
    let check = |raw: &str, want: Option<u64>| assert_eq!(parse_whole(raw), want, "{raw:?}");
    check("1000", Some(1_000));
    check("1,000", Some(1_000));
    check("1 000", Some(1_000));
    check("1_000", Some(1_000));
    check("１，０００", Some(1_000));
    check("１０００", Some(1_000));
    check("1\u{3000}000", Some(1_000));
    check("18,446,744,073,709,551,615", Some(u64::MAX));
    check("18,446,744,073,709,551,616", None);
    check("1,5", None);
    check("-1", None);
    check("", None);
}

#[test]
fn durations_are_read_with_or_without_a_unit() {
    use DurationParseError as E;
    let check = |raw: &str, default: u64, want: Result<u64, DurationParseError>| {
        assert_eq!(duration::parse(raw, default), want, "{raw:?}");
    };
    let ms = 1;
    check("2 s", ms, Ok(2_000));
    check("2s", ms, Ok(2_000));
    check("1.5 min", ms, Ok(90_000));
    check("500ms", ms, Ok(500));
    check("500 ms", ms, Ok(500));
    check("2 h", ms, Ok(7_200_000));
    check("1 d", ms, Ok(86_400_000));
    check("2 seconds", ms, Ok(2_000));
    check("3 Min", ms, Ok(180_000));
    check("1,500ms", ms, Ok(1_500));
    check("1,500", ms, Ok(1_500));
    check("1 500", ms, Ok(1_500));
    check("２秒", ms, Ok(2_000));
    check("１．５分", ms, Ok(90_000));
    check("1.5分", ms, Ok(90_000));
    check("500ミリ秒", ms, Ok(500));
    check("2時間", ms, Ok(7_200_000));
    check("1日", ms, Ok(86_400_000));
    check("２\u{3000}秒", ms, Ok(2_000));
    check("ｍｓ", ms, Err(E::NotANumber("ms".into())));
    check("１０ｍｓ", ms, Ok(10));
    check(" 2 s ", ms, Ok(2_000));
    check("0", ms, Ok(0));
    check("0.001 s", ms, Ok(1));
    check(".5 s", ms, Ok(500));
    // A bare number is in the field's unit.
    check("30", 1_000, Ok(30_000));
    check("1.5", 1_000, Ok(1_500));
    check("30", 60_000, Ok(1_800_000));
    check("2 s", 60_000, Ok(2_000));
    // Refused, each with its reason.
    check("", ms, Err(E::Empty));
    check("   ", ms, Err(E::Empty));
    check("\u{3000}", ms, Err(E::Empty));
    check("-1 s", ms, Err(E::Negative));
    check("−1 s", ms, Err(E::Negative));
    check("－１秒", ms, Err(E::Negative));
    check("1e3 s", ms, Err(E::NotANumber("1e3 s".into())));
    check("NaN", ms, Err(E::NotANumber("NaN".into())));
    check("inf s", ms, Err(E::NotANumber("inf s".into())));
    check("1,5 s", ms, Err(E::NotANumber("1,5".into())));
    check("1.2.3 s", ms, Err(E::NotANumber("1.2.3".into())));
    check("2. s", ms, Err(E::NotANumber("2.".into())));
    check("2 s 5", ms, Err(E::NotANumber("2 s 5".into())));
    check("5 weeks", ms, Err(E::UnknownUnit("weeks".into())));
    check("5 m", ms, Err(E::UnknownUnit("m".into())));
    check("1.5 ms", ms, Err(E::NotWholeMs("1.5 ms".into())));
    check("0.0001 s", ms, Err(E::NotWholeMs("0.0001 s".into())));
    check("0.5", ms, Err(E::NotWholeMs("0.5".into())));
    check("18446744073709551615", ms, Ok(u64::MAX));
    check("18446744073709551616", ms, Err(E::TooLarge));
    check("18446744073709552 s", ms, Err(E::TooLarge));
    check(&"9".repeat(400), ms, Err(E::TooLarge));
    check(
        &format!("0.{}1 s", "0".repeat(400)),
        ms,
        Err(E::NotWholeMs(format!("0.{}1 s", "0".repeat(400)))),
    );
}

#[test]
fn a_refused_duration_says_why_in_both_languages() {
    let en = |e: DurationParseError| e.message(Lang::En);
    let ja = |e: DurationParseError| e.message(Lang::Ja);
    let unit = DurationParseError::UnknownUnit("weeks".into());
    assert_eq!(
        en(unit.clone()),
        "unknown unit “weeks”: use ms, s, min, h or d"
    );
    assert_eq!(
        ja(unit),
        "単位「weeks」は使えません（ミリ秒・秒・分・時間・日）"
    );
    assert_eq!(
        en(DurationParseError::NotWholeMs("1.5 ms".into())),
        "“1.5 ms” is not a whole number of milliseconds"
    );
    for e in [
        DurationParseError::Empty,
        DurationParseError::Negative,
        DurationParseError::NotANumber("x".into()),
        DurationParseError::TooLarge,
        DurationParseError::NotWholeMs("x".into()),
    ] {
        assert!(!en(e.clone()).contains("duration.error"), "{e:?}");
        assert!(!ja(e.clone()).contains("duration.error"), "{e:?}");
        assert_ne!(en(e.clone()), ja(e), "translated");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// What the product writes, a person can type back: grouped numbers and durations.
    #[test]
    fn formatted_numbers_and_durations_read_back(n in any::<u64>(), lang in prop_oneof![Just(Lang::En), Just(Lang::Ja)]) {
        prop_assert_eq!(parse_whole(&group_thousands(n)), Some(n));
        prop_assert_eq!(duration::parse(&group_thousands(n), 1), Ok(n));
        let ms = n % (1 << 50);
        prop_assert_eq!(duration::parse(&duration::exact(ms, lang), 1), Ok(ms));
    }

    /// Any text: a value or a reason, never a panic.
    #[test]
    fn any_text_is_a_duration_or_a_reason(raw in "\\PC{0,24}", unit in 1u64..100_000_000) {
        let _ = duration::parse(&raw, unit);
    }
}

/// A grouped number in an export: CSV quotes the cell (a reader gets it back whole, three
/// cells a row), TSV and Markdown write it as is, JSON writes the plain number.
#[test]
fn grouped_numbers_in_exports_stay_one_cell_and_json_stays_plain() {
    use modality_advisor::domain::export::{to_csv, to_json, to_tsv};
    for lang in [Lang::En, Lang::Ja] {
        let mut sheet = crate::sheet_support::example(lang);
        let retry = sheet.retry.as_mut().expect("the example retries");
        retry.attempt_timeout_ms = 1_500;
        retry.lease_ms = 61_500;
        let csv = to_csv(&sheet, lang, false);
        let grouped = duration::exact(61_500, lang);
        assert!(grouped.contains("61,500"), "{grouped}");
        assert!(
            csv.contains(&format!("\"{}", duration::exact(1_500, lang))),
            "quoted: {csv}"
        );
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let mut found = false;
        for record in reader.records() {
            let record = record.expect("a CSV record");
            assert_eq!(record.len(), 3, "{record:?}");
            found |= record[2].contains(&grouped);
        }
        assert!(found, "the lease reads back whole: {csv}");
        let tsv = to_tsv(&sheet, lang);
        // Read as a spreadsheet reads it: the decision's reasons and path are quoted cells
        // over several lines.
        let records: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
            .delimiter(b'\t')
            .has_headers(false)
            .from_reader(tsv.as_bytes())
            .records()
            .map(|r| r.expect("a TSV record"))
            .collect();
        assert!(records.iter().all(|r| r.len() == 3), "{tsv}");
        assert!(records.iter().any(|r| r[2].contains(&grouped)), "{tsv}");
        assert!(tsv.contains(&grouped), "{tsv}");
        let json = to_json(&sheet);
        assert!(json.contains("1500") && json.contains("61500"), "{json}");
        assert!(
            !json.contains("1,500") && !json.contains("61,500"),
            "{json}"
        );
    }
}

/// The CLI's duration flags take units too; a refused one names the flag, why and the range.
#[test]
fn the_clis_duration_flags_take_units() {
    let cli = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
            .args(args)
            .output()
            .expect("the CLI runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let missing = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-config.json");
    let config = missing.to_string_lossy();
    // Read: the run then stops at the missing file, not at the flag.
    let (_, err) = cli(&["simulate", "--config", &config, "--heartbeat-ms", "1.5 s"]);
    assert!(!err.contains("--heartbeat-ms"), "{err}");
    assert!(err.contains("no-such-config.json"), "{err}");
    let (code, err) = cli(&["simulate", "--config", &config, "--heartbeat-ms", "0 s"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--heartbeat-ms") && err.contains("from 1 to "),
        "{err}"
    );
    let (code, err) = cli(&["simulate", "--config", &config, "--duplicate-after-ms=-1 s"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--duplicate-after-ms")
            && err.contains("a duration cannot be negative; expected"),
        "{err}"
    );
}

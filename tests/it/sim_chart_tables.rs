//! Each simulator chart's data as a table (`results::chart_tables`): behind "Show data", column
//! headers with units in both languages, one row per value up to the cap, sampled past it
//! with a caption saying so; the worker's charts section carries one table per drawn chart.

use modality_advisor::domain::sim::results::chart_tables::{sample, table_html, MAX_TABLE_ROWS};
use modality_advisor::domain::sim::results::charts::{CallSeries, ChartData};
use modality_advisor::domain::sim::results::drawn::{charts_html, pick};
use modality_advisor::domain::sim::results::report::Percentiles;
use modality_advisor::domain::Lang;

/// Headers, rows (cell texts) and caption of the one table in `html`.
struct Parsed {
    heads: Vec<String>,
    rows: Vec<Vec<String>>,
    caption: String,
    region: (String, String, String),
    summary: String,
}

fn parse(html: &str) -> Parsed {
    let doc = roxmltree::Document::parse(html).expect("well-formed");
    let text = |n: roxmltree::Node| -> String {
        n.descendants()
            .filter(|d| d.is_text())
            .filter_map(|d| d.text())
            .collect()
    };
    let all = |tag: &'static str| doc.descendants().filter(move |n| n.has_tag_name(tag));
    let wrap = all("div").next().expect("a scroll box");
    Parsed {
        heads: all("th")
            .map(|h| {
                assert_eq!(h.attribute("scope"), Some("col"));
                text(h)
            })
            .collect(),
        rows: all("tbody")
            .flat_map(|b| b.children().filter(|r| r.has_tag_name("tr")))
            .map(|r| {
                r.children()
                    .filter(|c| c.has_tag_name("td"))
                    .map(text)
                    .collect()
            })
            .collect(),
        caption: all("caption").map(text).next().unwrap_or_default(),
        region: (
            wrap.attribute("role").unwrap_or_default().to_owned(),
            wrap.attribute("tabindex").unwrap_or_default().to_owned(),
            wrap.attribute("aria-label").unwrap_or_default().to_owned(),
        ),
        summary: all("summary").map(text).next().unwrap_or_default(),
    }
}

fn pct(p50: f64, p95: f64, p99: f64, max: f64) -> Percentiles {
    Percentiles {
        count: 40,
        mean: p50,
        p50,
        p95,
        p99,
        max,
    }
}

fn small() -> ChartData {
    ChartData {
        depth: vec![(0.0, 0), (0.5, 3), (1.25, 2), (4.0, 0)],
        calls: CallSeries {
            bucket_s: 1.0,
            buckets: vec![[2, 1, 0], [0, 0, 3]],
        },
        attempts: vec![[0, 0, 0], [5, 0, 0], [2, 1, 0], [0, 1, 1]],
        latency_ms: Some(pct(120.0, 480.0, 900.0, 950.0)),
        wait_ms: None,
        rate_limit: None,
        our_limit_per_s: None,
    }
}

#[test]
fn each_table_has_its_headers_units_and_rows_in_english() {
    let d = small();
    let t = parse(&table_html(&d, "depth", Lang::En));
    assert_eq!(t.summary, "Show data");
    assert_eq!(t.heads, ["Time (s)", "Queue depth (jobs)"]);
    assert_eq!(
        t.rows,
        [["0", "0"], ["0.5", "3"], ["1.25", "2"], ["4", "0"]]
    );
    assert_eq!(t.caption, "Queue depth over time");
    assert_eq!(
        t.region,
        (
            "region".into(),
            "0".into(),
            "Queue depth over time: data".into()
        )
    );
    // Attempts from 1 (every job was claimed), as the chart draws them.
    let t = parse(&table_html(&d, "attempts", Lang::En));
    assert_eq!(
        t.heads,
        [
            "Attempts",
            "done (jobs)",
            "dead (jobs)",
            "queued / running (jobs)"
        ]
    );
    assert_eq!(
        t.rows,
        [
            ["1", "5", "0", "0"],
            ["2", "2", "1", "0"],
            ["3", "0", "1", "1"]
        ]
    );
    // Under a second: milliseconds; a series the run lacks reads "–".
    let t = parse(&table_html(&d, "latency", Lang::En));
    assert_eq!(
        t.heads,
        [
            "Percentile",
            "enqueue → done (ms)",
            "enqueue → first claim (ms)"
        ]
    );
    assert_eq!(
        t.rows,
        [
            ["p50", "120", "–"],
            ["p95", "480", "–"],
            ["p99", "900", "–"],
            ["max", "950", "–"]
        ]
    );
    let t = parse(&table_html(&d, "calls", Lang::En));
    assert_eq!(
        t.heads,
        [
            "Bar start (s)",
            "ok (calls/s)",
            "busy (calls/s)",
            "failed (calls/s)"
        ]
    );
    assert_eq!(t.rows, [["0", "2", "1", "0"], ["1", "0", "0", "3"]]);
}

#[test]
fn the_tables_speak_japanese() {
    let d = small();
    let t = parse(&table_html(&d, "depth", Lang::Ja));
    assert_eq!(t.summary, "データを表で見る");
    assert_eq!(t.heads, ["時間 (秒)", "キューの長さ (件)"]);
    assert_eq!(t.region.2, "キューの長さの推移：データ");
    let t = parse(&table_html(&d, "latency", Lang::Ja));
    assert_eq!(t.heads[1], "投入 → done (ミリ秒)");
    let t = parse(&table_html(&d, "calls", Lang::Ja));
    assert_eq!(t.heads[0], "棒の開始時刻 (秒)");
    assert_eq!(t.heads[1], "ok（成功） (件/秒)");
}

#[test]
fn a_long_series_is_sampled_to_the_cap_and_the_caption_says_so() {
    // 4 097 points, one peak of 900 jobs in the middle.
    let mut depth: Vec<(f64, u64)> = (0..4_097)
        .map(|i| (i as f64 * 0.25, (i % 7) as u64))
        .collect();
    depth[2_000].1 = 900;
    let d = ChartData {
        depth,
        ..ChartData::default()
    };
    for (lang, note) in [(Lang::En, "Showing 50 of 4"), (Lang::Ja, "行のうち 50 行")] {
        let t = parse(&table_html(&d, "depth", lang));
        assert_eq!(t.rows.len(), MAX_TABLE_ROWS, "{lang:?}");
        assert!(t.caption.contains(note), "{lang:?}: {}", t.caption);
        assert!(
            t.caption.contains("4 097") || t.caption.contains("4,097"),
            "{}",
            t.caption
        );
        // The peak survives the sampling; times stay in order.
        assert!(t.rows.iter().any(|r| r[1] == "900"));
        let times: Vec<f64> = t
            .rows
            .iter()
            .map(|r| r[0].replace([',', ' '], "").parse().unwrap())
            .collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
    }
    // At the cap, every row and no note.
    let short = ChartData {
        depth: (0..MAX_TABLE_ROWS).map(|i| (i as f64, 1)).collect(),
        ..ChartData::default()
    };
    let t = parse(&table_html(&short, "depth", Lang::En));
    assert_eq!(
        (t.rows.len(), t.caption.as_str()),
        (MAX_TABLE_ROWS, "Queue depth over time")
    );
}

#[test]
fn sampling_keeps_the_highest_of_each_stretch_in_order() {
    assert_eq!(sample(3, |_| 0.0), [0, 1, 2]);
    let v: Vec<f64> = (0..101).map(|i| if i == 57 { 10.0 } else { 1.0 }).collect();
    let kept = sample(v.len(), |i| v[i]);
    assert!(kept.len() <= MAX_TABLE_ROWS);
    assert!(kept.contains(&57));
    assert!(kept.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(sample(0, |_| 0.0), Vec::<usize>::new());
}

#[test]
fn the_worker_charts_section_holds_one_table_per_drawn_chart() {
    let mut d = small();
    // Enough finished jobs for the latency chart.
    d.latency_ms = Some(Percentiles {
        count: 40,
        ..pct(120.0, 480.0, 900.0, 950.0)
    });
    let both = charts_html(&d, "custom");
    for lang in Lang::ALL {
        let html = pick(&both, lang);
        let drawn = html.matches("class=\"sim-chart\"").count();
        assert_eq!(
            html.matches("<details class=\"chart-data\"").count(),
            drawn,
            "{lang:?}"
        );
        assert_eq!(
            html.matches("class=\"chart-box\" role=\"region\" tabindex=\"0\"")
                .count(),
            drawn
        );
        assert!(drawn >= 3, "{lang:?}: {drawn}");
    }
}

#[test]
fn numbers_keep_up_to_three_decimals_without_trailing_zeros() {
    use modality_advisor::domain::sim::results::chart_tables::format_value;
    assert_eq!(format_value(0.5), "0.5");
    assert_eq!(format_value(1.25), "1.25");
    assert_eq!(format_value(2.0), "2");
    assert_eq!(format_value(0.0004), "0");
    assert_eq!(format_value(0.1234), "0.123");
    assert_eq!(format_value(-1.5), "−1.5");
    assert_eq!(format_value(f64::NAN), "–");
    assert_eq!(format_value(f64::INFINITY), "–");
    let big = format_value(12_000.5);
    assert!(big == "12 000.5" || big == "12,000.5", "{big}");
}

//! The SVG chart module (`domain::plot`) and the simulator's four charts
//! (`domain::sim::results::charts`): ticks, escaping, degenerate series, the downstream-calls series.

use crate::sim_support::preset_view as view;
use modality_advisor::domain::plot::{
    bars, escape, format_tick, lines, nice_ticks, Axis, Bars, Frame, Layout, Limits, Line, Slots,
    MAX_LINE_POINTS,
};
use modality_advisor::domain::sim::results::charts::{self, CallSeries, ChartData};
use modality_advisor::domain::sim::runner::{run, RunRequest, LOAD_SCENARIO};
use modality_advisor::domain::sim::{Scenario, SimDuration, Simulation, TokenBucket};
use modality_advisor::domain::Lang;

/// Checks that `svg` is one well-formed `<svg>` element: tags balance, attribute values are
/// quoted, `&` only starts an entity, no `<` in text or attributes, no inline style.
fn well_formed(svg: &str) -> Result<(), String> {
    let ok_entity = |rest: &str| {
        ["amp;", "lt;", "gt;", "quot;", "#39;"]
            .iter()
            .any(|e| rest.starts_with(e))
    };
    let mut stack: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut i = 0;
    let b = svg.as_bytes();
    while i < b.len() {
        match b[i] {
            b'<' => {
                let end = svg[i..].find('>').ok_or("unclosed tag")? + i;
                let tag = &svg[i + 1..end];
                if tag.contains('<') {
                    return Err(format!("'<' inside tag {tag}"));
                }
                if let Some(name) = tag.strip_prefix('/') {
                    let open = stack.pop().ok_or(format!("stray </{name}>"))?;
                    if open != name {
                        return Err(format!("<{open}> closed by </{name}>"));
                    }
                } else {
                    let self_closing = tag.ends_with('/');
                    let body = tag.trim_end_matches('/');
                    let name = body.split(' ').next().unwrap_or("");
                    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric()) {
                        return Err(format!("bad tag name in <{tag}>"));
                    }
                    // Attributes: name="value" pairs.
                    let mut rest = body[name.len()..].trim_start();
                    while !rest.is_empty() {
                        let eq = rest
                            .find("=\"")
                            .ok_or(format!("unquoted attribute in <{tag}>"))?;
                        let attr = &rest[..eq];
                        if attr == "style"
                            || !attr
                                .bytes()
                                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b':')
                        {
                            return Err(format!("bad attribute {attr} in <{tag}>"));
                        }
                        let close = rest[eq + 2..].find('"').ok_or("unclosed value")? + eq + 2;
                        let value = &rest[eq + 2..close];
                        for (k, _) in value.match_indices('&') {
                            if !ok_entity(&value[k + 1..]) {
                                return Err(format!("raw & in {attr}"));
                            }
                        }
                        rest = rest[close + 1..].trim_start();
                    }
                    if stack.is_empty() {
                        roots += 1;
                    }
                    if !self_closing {
                        stack.push(name);
                    }
                }
                i = end + 1;
            }
            b'&' => {
                if !ok_entity(&svg[i + 1..]) {
                    return Err("raw & in text".into());
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed {stack:?}"));
    }
    if roots != 1 || !svg.starts_with("<svg ") {
        return Err(format!("{roots} root elements"));
    }
    Ok(())
}

fn assert_svg(svg: &str, what: &str) {
    if let Err(e) = well_formed(svg) {
        panic!("{what}: {e}\n{}", &svg[..svg.len().min(2_000)]);
    }
    for banned in ["style=", "fill=\"#", "stroke=\"#", "NaN", "inf"] {
        assert!(!svg.contains(banned), "{what} contains {banned}");
    }
}

const FRAME: Frame = Frame {
    title: "Title",
    desc: "What it shows",
    x: Axis {
        label: "Time",
        unit: "s",
    },
    y: Axis {
        label: "Jobs",
        unit: "jobs",
    },
    empty: "nothing",
    limits: Limits::NONE,
    compact: false,
};

#[test]
fn well_formed_check_can_fail() {
    for bad in [
        "<svg><g></svg>",
        "<svg a=b></svg>",
        "<svg>&x</svg>",
        "<svg style=\"x\"></svg>",
        "<svg></svg><svg></svg>",
        "<svg><text>a < b</text></svg>",
    ] {
        assert!(well_formed(bad).is_err(), "{bad}");
    }
    assert!(well_formed("<svg a=\"1\"><g/><text>&amp;</text></svg>").is_ok());
}

#[test]
fn ticks_are_1_2_5_steps_covering_the_data() {
    fn check(lo: f64, hi: f64, target: usize, want: &str) {
        let t = nice_ticks(lo, hi, target);
        let got = format!(
            "{} … {} by {}: {}",
            format_tick(t.lo, t.step),
            format_tick(t.hi, t.step),
            format_tick(t.step, t.step),
            t.values
                .iter()
                .map(|&v| format_tick(v, t.step))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        assert_eq!(got, want, "nice_ticks({lo}, {hi}, {target})");
    }
    check(
        0.0,
        0.0,
        5,
        "0.0 … 1.0 by 0.2: 0.0 | 0.2 | 0.4 | 0.6 | 0.8 | 1.0",
    );
    check(
        0.0,
        1.0,
        5,
        "0.0 … 1.0 by 0.2: 0.0 | 0.2 | 0.4 | 0.6 | 0.8 | 1.0",
    );
    check(0.0, 9.0, 5, "0 … 10 by 2: 0 | 2 | 4 | 6 | 8 | 10");
    check(0.0, 10.0, 5, "0 … 10 by 2: 0 | 2 | 4 | 6 | 8 | 10");
    check(0.0, 3.0, 5, "0 … 3 by 1: 0 | 1 | 2 | 3");
    check(0.0, 97.0, 5, "0 … 100 by 20: 0 | 20 | 40 | 60 | 80 | 100");
    check(
        0.0,
        12_000.0,
        5,
        "0 … 15,000 by 5,000: 0 | 5,000 | 10,000 | 15,000",
    );
    check(
        0.0,
        0.07,
        5,
        "0.00 … 0.08 by 0.02: 0.00 | 0.02 | 0.04 | 0.06 | 0.08",
    );
    check(0.0, 2.5, 2, "0 … 4 by 2: 0 | 2 | 4");
    check(-7.0, 7.0, 4, "-10 … 10 by 5: -10 | -5 | 0 | 5 | 10");
    check(5.0, 5.0, 5, "0 … 5 by 1: 0 | 1 | 2 | 3 | 4 | 5");
    check(3.0, 0.0, 3, "0 … 3 by 1: 0 | 1 | 2 | 3");
    check(
        f64::NAN,
        1.0,
        5,
        "0.0 … 1.0 by 0.2: 0.0 | 0.2 | 0.4 | 0.6 | 0.8 | 1.0",
    );
    check(
        0.0,
        f64::INFINITY,
        5,
        "0.0 … 1.0 by 0.2: 0.0 | 0.2 | 0.4 | 0.6 | 0.8 | 1.0",
    );
    check(0.0, 1.0, 0, "0 … 1 by 1: 0 | 1");
    check(0.0, 1e-320, 5, "0.000000000 … 0.000000000 by 0.000000000: 0.000000000 | 0.000000000 | 0.000000000 | 0.000000000");
    // Every step is 1, 2 or 5 times a power of ten, and the ticks cover the data.
    for hi in [0.3, 1.7, 42.0, 999.0, 1_234_567.0, 3e12] {
        for target in 1..=10 {
            let t = nice_ticks(0.0, hi, target);
            let mant = t.step / 10f64.powf(t.step.log10().floor());
            assert!(
                [1.0, 2.0, 5.0, 10.0]
                    .iter()
                    .any(|m| (mant - m).abs() < 1e-6),
                "{hi} {target}: step {}",
                t.step
            );
            assert!(t.lo <= 0.0 && t.hi >= hi, "{hi} {target}: {t:?}");
            assert!(t.values.len() - 1 <= target.max(1), "{hi} {target}: {t:?}");
        }
    }
}

#[test]
fn tick_labels_group_thousands_and_keep_needed_decimals() {
    fn check(v: f64, step: f64, want: &str) {
        assert_eq!(format_tick(v, step), want, "format_tick({v}, {step})");
    }
    check(12_000.0, 1_000.0, "12,000");
    check(1_000_000.0, 500_000.0, "1,000,000");
    check(0.25, 0.05, "0.25");
    check(2.5, 0.5, "2.5");
    check(1_234.5, 0.5, "1,234.5");
    check(-0.0, 1.0, "0");
    check(-0.000_000_1, 0.1, "0.0");
    check(-5.0, 1.0, "-5");
    check(1e16, 1e15, "1.00e16");
    check(f64::NAN, 1.0, "");
}

#[test]
fn hostile_labels_are_escaped() {
    let evil = "<script>alert(\"x\")</script> & 'q' \u{1}\u{ffff}";
    let names = [evil.to_owned(), "ok".to_owned()];
    let frame = Frame {
        title: evil,
        desc: evil,
        x: Axis {
            label: evil,
            unit: evil,
        },
        y: Axis {
            label: evil,
            unit: evil,
        },
        empty: evil,
        compact: true,
        limits: Limits::NONE,
    };
    let l = lines(
        &frame,
        &[Line {
            name: evil,
            key: "a\"><script>",
            points: &[(0.0, 1.0), (1.0, 2.0)],
            step: false,
        }],
    );
    let b = bars(
        &frame,
        Slots::Categories(&names),
        Layout::Grouped,
        &[Bars {
            name: evil,
            key: "k' onload='x",
            values: &[1.0, 2.0],
        }],
    );
    for svg in [&l, &b] {
        assert_svg(svg, "hostile");
        assert!(!svg.contains("<script"), "{svg}");
        assert!(svg.contains(
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &lt;U+0001&gt;\u{fffd}"
        ));
    }
    assert_eq!(
        escape("a<b>&\"'\u{0}\u{7f}\u{85}\n\u{ffff}"),
        "a&lt;b&gt;&amp;&quot;&#39;&lt;U+0000&gt;&lt;U+007F&gt;&lt;U+0085&gt;\n\u{fffd}"
    );
}

#[test]
fn empty_single_and_huge_series_never_panic() {
    let huge: Vec<(f64, f64)> = (0..1_000_000)
        .map(|i| (i as f64, (i % 977) as f64))
        .collect();
    let odd = [
        (f64::NAN, 1.0),
        (1.0, f64::INFINITY),
        (2.0, -3.0),
        (3.0, 1e300),
    ];
    let point_sets: [&[(f64, f64)]; 6] = [
        &[],
        &[(0.0, 0.0)],
        &[(5.0, 5.0)],
        &odd,
        &huge,
        &[(1e9, 0.0), (1e9, 0.0)],
    ];
    for pts in point_sets {
        for step in [false, true] {
            let svg = lines(
                &FRAME,
                &[Line {
                    name: "q",
                    key: "depth",
                    points: pts,
                    step,
                }],
            );
            assert_svg(&svg, &format!("{} points", pts.len()));
            let drawn = svg.matches(['L', 'H']).count();
            assert!(
                drawn <= 2 * MAX_LINE_POINTS + 40,
                "{} points drew {drawn}",
                pts.len()
            );
            assert_eq!(svg.contains(">nothing<"), pts.is_empty());
        }
    }
    let assert_no_series = lines(&FRAME, &[]);
    assert_svg(&assert_no_series, "no series");
    let many: Vec<f64> = (0..20_000).map(|i| (i % 7) as f64).collect();
    let weird = [f64::NAN, -1.0, f64::INFINITY, 3.0];
    let one = ["only".to_owned()];
    let cases: [(Slots, &[f64]); 6] = [
        (Slots::Categories(&[]), &[]),
        (Slots::Categories(&one), &[4.0]),
        (Slots::Categories(&one), &[]),
        (
            Slots::Buckets {
                start: 0.0,
                width: 0.0,
                count: 4,
            },
            &weird,
        ),
        (
            Slots::Buckets {
                start: f64::NAN,
                width: 1.0,
                count: 20_000,
            },
            &many,
        ),
        (
            Slots::Buckets {
                start: 0.0,
                width: 1e300,
                count: 3,
            },
            &[1e300, 1.0, 0.0],
        ),
    ];
    for (slots, values) in cases {
        for layout in [Layout::Grouped, Layout::Stacked] {
            let svg = bars(
                &FRAME,
                slots,
                layout,
                &[
                    Bars {
                        name: "a",
                        key: "ok",
                        values,
                    },
                    Bars {
                        name: "b",
                        key: "busy",
                        values,
                    },
                ],
            );
            assert_svg(&svg, &format!("{slots:?} {layout:?}"));
        }
    }
}

#[test]
fn bars_carry_their_values_and_the_legend_its_series() {
    let names = ["p50".to_owned(), "p95".to_owned()];
    let svg = bars(
        &FRAME,
        Slots::Categories(&names),
        Layout::Grouped,
        &[
            Bars {
                name: "latency",
                key: "latency",
                values: &[12.5, 1_500.0],
            },
            Bars {
                name: "wait",
                key: "wait",
                values: &[0.0, 3.0],
            },
        ],
    );
    assert_svg(&svg, "grouped");
    for want in [
        r#"data-series="latency" data-slot="0" data-value="12.5""#,
        r#"data-series="latency" data-slot="1" data-value="1500""#,
        r#"data-series="wait" data-slot="1" data-value="3""#,
        r#"<text class="plot-value""#,
        r#"<g data-series="latency"><rect class="plot-swatch s-latency""#,
        ">1,500</text>",
        r#"aria-label="Title""#,
        "<title>Title</title><desc>What it shows</desc>",
        ">Jobs (jobs)</text>",
        ">Time (s)</text>",
    ] {
        assert!(svg.contains(want), "missing {want}\n{svg}");
    }
}

#[test]
fn burst_leveling_calls_per_bucket() {
    // Direct: ten calls at t = 0, one served (answer at 300 ms), nine busy (20 ms).
    let direct = view("burst-leveling", "direct").charts;
    assert_eq!(direct.calls.bucket_s, 1.0);
    assert_eq!(direct.calls.buckets, [[1, 9, 0]]);
    // Two-tier jitter: every one of the ten gets through in the end.
    let jitter = view("burst-leveling", "two-tier-jitter").charts;
    assert_eq!(jitter.calls.totals()[0], 10);
    assert!(jitter.calls.totals()[1] > 0);
    assert_eq!(
        jitter.calls.buckets[0],
        [3, 32, 0],
        "{:?}",
        jitter.calls.buckets
    );
    // Fixed redelivery: one per 30 s delivery round.
    let fixed = view("burst-leveling", "queue-redelivery").charts;
    let ok_at: Vec<usize> = fixed
        .calls
        .buckets
        .iter()
        .enumerate()
        .filter(|(_, b)| b[0] > 0)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ok_at, [0, 30, 60, 90, 120]);
    assert_eq!(
        fixed.attempts,
        [
            [0, 0, 0],
            [1, 0, 0],
            [1, 0, 0],
            [1, 0, 0],
            [1, 0, 0],
            [1, 5, 0]
        ]
    );
}

/// Each scenario's config with a rate limit and an outage added to its downstream (if any).
fn sims() -> Vec<(String, Simulation)> {
    let mut out = Vec::new();
    for sc in Scenario::ALL {
        for v in sc.variants() {
            let Ok(Some(cfg)) = sc.config(Some(v), 1) else {
                continue;
            };
            let mut strained = cfg.clone();
            if let Some(d) = strained.downstream.as_mut() {
                d.rate_limit = Some(TokenBucket {
                    rate_per_s: 2.0,
                    burst: 3,
                });
                d.outage = Some((
                    modality_advisor::domain::sim::SimTime::from_ms(40_000),
                    modality_advisor::domain::sim::SimTime::from_ms(70_000),
                ));
            }
            let mut fine_buckets = cfg.clone();
            fine_buckets.series_bucket = SimDuration::from_ms(1);
            for (tag, c) in [("", cfg), ("+limits", strained), ("+1ms", fine_buckets)] {
                let mut sim = Simulation::new(c).unwrap_or_else(|e| panic!("{v}: {e:?}"));
                sim.run();
                out.push((format!("{}/{v}{tag}", sc.id()), sim));
            }
        }
    }
    out
}

#[test]
fn the_calls_series_sums_to_the_counters() {
    let mut failed_seen = false;
    let mut doubled = false;
    for (name, sim) in sims() {
        let c = sim.counters();
        let s = CallSeries::of_sim(&sim);
        assert_eq!(
            s.totals(),
            [
                c.calls_ok,
                c.calls_busy,
                c.calls_rate_limited + c.calls_unavailable
            ],
            "{name}"
        );
        assert!(s.buckets.len() <= 4_096, "{name}: {}", s.buckets.len());
        failed_seen |= s.totals()[2] > 0;
        doubled |= name.ends_with("+1ms") && s.bucket_s > 0.001;
        // The histogram counts every row once.
        let d = ChartData::of_sim(&sim);
        let t = sim.table();
        let [done, dead, other] = d.attempt_totals();
        assert_eq!((done + dead + other) as usize, t.rows().len(), "{name}");
    }
    assert!(failed_seen, "no run had a refused call");
    assert!(doubled, "no run doubled its bucket");
}

#[test]
fn charts_render_in_both_languages_for_every_preset() {
    let mut runs: Vec<ChartData> = Vec::new();
    for sc in Scenario::ALL {
        for v in sc.variants() {
            runs.push(view(sc.id(), v).charts);
        }
    }
    let load = view(LOAD_SCENARIO, "bench").charts;
    assert!(!load.is_empty());
    assert!(load.depth.len() <= 4_098);
    assert!(serde_json::to_string(&load).map_or(0, |s| s.len()) < 200_000);
    runs.push(load);
    runs.push(ChartData::default());
    for lang in Lang::ALL {
        let text = charts::text(lang);
        for key in [
            "depth.title",
            "calls.caption",
            "series.failed",
            "unit.calls-per-s",
            "axis.duration",
            "empty",
        ] {
            assert!(!text(key).starts_with("charts."), "{lang:?}: {key} missing");
        }
        for (i, d) in runs.iter().enumerate() {
            let svgs = charts::render(d, i % 2 == 0, &text);
            let ids: Vec<&str> = svgs.iter().map(|(id, _)| *id).collect();
            assert_eq!(ids, ["depth", "attempts", "latency", "calls"]);
            for (id, svg) in &svgs {
                assert_svg(svg, &format!("{lang:?} run {i} {id}"));
                assert!(
                    !svg.contains("charts."),
                    "{lang:?} {id}: a key is missing\n{svg}"
                );
            }
        }
    }
    assert_eq!(charts::text(Lang::Ja)("unit.s"), "秒");
}

#[test]
fn calls_chart_snapshots_direct_vs_two_tier_jitter() {
    let text = charts::text(Lang::En);
    let calls = |v: &str| {
        let svgs = charts::render(&view("burst-leveling", v).charts, false, &text);
        svgs.into_iter()
            .find(|(id, _)| *id == "calls")
            .map(|(_, s)| s)
            .unwrap_or_default()
    };
    let direct = calls("direct");
    assert!(direct.contains(r#"data-series="ok" data-slot="0" data-value="1""#));
    assert!(direct.contains(r#"data-series="busy" data-slot="0" data-value="9""#));
    assert!(direct.contains(">ok (1)</text>") && direct.contains(">busy (9)</text>"));
    // One element per line, so a change reads as a small diff.
    let lined = |s: &str| s.replace("><", ">\n<");
    insta::assert_snapshot!("calls_direct_svg", lined(&direct));
    insta::assert_snapshot!(
        "calls_two_tier_jitter_svg",
        lined(&calls("two-tier-jitter"))
    );
}

#[test]
fn a_custom_run_from_a_sheet_has_charts_too() {
    let path = format!("{}/static/examples/", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&path).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let Ok(sheet) = modality_advisor::domain::sheet::import::import_json(&text, Lang::En)
        else {
            continue;
        };
        let req = RunRequest {
            id: 2,
            scenario: String::new(),
            variant: None,
            seed: 1,
            jobs: None,
            custom: Some(
                modality_advisor::domain::sim::setup::knobs::CustomRun::from_sheet(&sheet),
            ),
        };
        let v = run(&req, 1_000, |_| {}).unwrap_or_else(|e| panic!("{:?}: {e:?}", entry.path()));
        let [done, dead, _] = v.charts.attempt_totals();
        assert_eq!(
            (done, dead),
            (v.counts[0], v.counts[1]),
            "{:?}",
            entry.path()
        );
        assert!(v.charts.latency_ms.is_some() || done == 0);
        seen += 1;
    }
    assert!(seen > 0, "no example sheet in {path}");
}

/// The `y` attributes of the `<text class="{class}" …>` elements of `svg`.
fn text_ys(svg: &str, class: &str) -> Vec<f64> {
    svg.split(&format!(r#"<text class="{class}""#))
        .skip(1)
        .filter_map(|rest| {
            let y = rest.split(" y=\"").nth(1)?;
            y.split('"').next()?.parse().ok()
        })
        .collect()
}

#[test]
fn grouped_bar_values_stay_clear_of_the_y_axis_title() {
    // The tallest bar reaches the top tick: its value label sits above the plot, where the
    // y axis title is (the latency chart's "Time (ms)" over its "400").
    let names = ["p50".to_owned(), "p95".to_owned()];
    for layout in [Layout::Grouped] {
        let svg = bars(
            &FRAME,
            Slots::Categories(&names),
            layout,
            &[Bars {
                name: "latency",
                key: "latency",
                values: &[400.0, 200.0],
            }],
        );
        let title = text_ys(&svg, "plot-unit")[0];
        // Text of 11 px: the title's descent ends ~3 px below its baseline, a value's cap
        // height starts ~9 px above its own.
        for v in text_ys(&svg, "plot-value") {
            assert!(
                v - 9.0 >= title + 3.0,
                "{layout:?}: value at {v}, title at {title}\n{svg}"
            );
        }
    }
}

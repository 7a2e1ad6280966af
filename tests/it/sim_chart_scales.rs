//! Compare's charts share their scales (`ChartScale::shared`), the latency chart picks its
//! unit from the data (`TimeUnit`), and a run without downstream calls says so.

use crate::sim_support::preset_view as view;
use modality_advisor::domain::sim::results::charts::{self, render_scaled, ChartScale, TimeUnit};
use modality_advisor::domain::Lang;

/// The text of the first `<g class="{class}">…</g>` group: the axis ticks.
fn group<'a>(svg: &'a str, class: &str) -> &'a str {
    let open = format!(r#"<g class="{class}">"#);
    let Some(from) = svg.find(&open) else {
        return "";
    };
    let rest = &svg[from..];
    &rest[..rest.find("</g>").unwrap_or(rest.len())]
}

fn svg<'a>(svgs: &'a [(&str, String)], id: &str) -> &'a str {
    svgs.iter()
        .find(|(i, _)| *i == id)
        .map_or("", |(_, s)| s.as_str())
}

#[test]
fn compared_charts_share_their_axes() {
    let text = charts::text(Lang::En);
    for (sc, a, b) in [
        ("claim-race", "two-statement", "atomic"),
        ("burst-leveling", "direct", "queue-redelivery"),
        ("burst-leveling", "queue-redelivery", "two-tier-jitter"),
        ("retry-dead-letter", "seed", "classified"),
    ] {
        let (va, vb) = (view(sc, a), view(sc, b));
        let shared = ChartScale::shared(&ChartScale::of(&va.charts), &ChartScale::of(&vb.charts));
        let sa = render_scaled(&va.charts, true, &shared, &text);
        let sb = render_scaled(&vb.charts, true, &shared, &text);
        for id in ["depth", "attempts", "latency", "calls"] {
            let (x, y) = (svg(&sa, id), svg(&sb, id));
            if x.contains("plot-note") || y.contains("plot-note") {
                continue;
            }
            assert_eq!(
                group(x, "plot-y"),
                group(y, "plot-y"),
                "{sc} {a}/{b} {id}: y axes"
            );
            // A run without jobs (burst-leveling direct) has no attempt slots to align.
            let no_slots = id == "attempts"
                && (va.charts.attempts.is_empty() || vb.charts.attempts.is_empty());
            if id != "latency" && !no_slots {
                assert_eq!(
                    group(x, "plot-x"),
                    group(y, "plot-x"),
                    "{sc} {a}/{b} {id}: x axes"
                );
            }
        }
    }
    // Their own scales would differ (the test can fail): claim-race's latency 0–250 vs 0–100 ms.
    let (va, vb) = (
        view("claim-race", "two-statement"),
        view("claim-race", "atomic"),
    );
    let (oa, ob) = (
        charts::render(&va.charts, true, &text),
        charts::render(&vb.charts, true, &text),
    );
    assert_ne!(
        group(svg(&oa, "latency"), "plot-y"),
        group(svg(&ob, "latency"), "plot-y")
    );
}

#[test]
fn the_latency_unit_follows_the_data() {
    let cases = [
        (0.0, TimeUnit::Ms),
        (999.9, TimeUnit::Ms),
        (1_000.0, TimeUnit::S),
        (119_999.0, TimeUnit::S),
        (120_000.0, TimeUnit::Min),
        (1_031_000.0, TimeUnit::Min),
        (7_200_000.0, TimeUnit::H),
        (f64::NAN, TimeUnit::Ms),
    ];
    for (ms, want) in cases {
        assert_eq!(TimeUnit::for_max_ms(ms), want, "{ms} ms");
    }
    // duplicate-execution waits 1 000 s for its claim: minutes, not "1 031 000 ms".
    let v = view("duplicate-execution", "plain");
    let svgs = charts::render(&v.charts, false, &charts::text(Lang::En));
    let lat = svg(&svgs, "latency");
    assert!(lat.contains("(min)</text>"), "{lat}");
    assert!(!lat.contains("(ms)"), "{lat}");
    assert!(
        lat.contains(r#"data-series="latency" data-slot="3" data-value="17.2""#),
        "{lat}"
    );
    let ja = charts::render(&v.charts, false, &charts::text(Lang::Ja));
    assert!(svg(&ja, "latency").contains("（分）") || svg(&ja, "latency").contains("(分)"));
    // A short run stays in ms.
    let c = view("claim-race", "atomic");
    let svgs = charts::render(&c.charts, false, &charts::text(Lang::En));
    assert!(svg(&svgs, "latency").contains("(ms)</text>"));
}

#[test]
fn a_run_without_downstream_calls_says_so() {
    for lang in Lang::ALL {
        let text = charts::text(lang);
        let v = view("claim-race", "two-statement");
        let svgs = charts::render(&v.charts, true, &text);
        let calls = svg(&svgs, "calls");
        assert!(calls.contains(&text("calls.none")), "{calls}");
        assert!(!calls.contains("plot-axis"), "no axes: {calls}");
        // A run with calls still draws its bars.
        let b = view("burst-leveling", "direct");
        let svgs = charts::render(&b.charts, true, &text);
        assert!(svg(&svgs, "calls").contains("plot-bar"));
    }
}

#[test]
fn count_axes_tick_in_whole_jobs() {
    let text = charts::text(Lang::En);
    let v = view("duplicate-execution", "plain");
    let svgs = charts::render(&v.charts, false, &text);
    let ticks = |id: &str| -> Vec<String> {
        let g = group(svg(&svgs, id), "plot-y");
        g.split("</text>")
            .filter_map(|t| t.rsplit('>').next())
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect()
    };
    assert_eq!(
        ticks("depth"),
        ["0", "1"],
        "one queued job: 0 and 1, no 0.2 steps"
    );
    assert_eq!(ticks("attempts"), ["0", "1"]);
    // Latency is not a count: fractions stay allowed there.
    assert!(ticks("latency").len() >= 3);
}

/// Issue 25: with a 10/s limit the calls chart showed 11–12 calls in some seconds and nothing
/// said the limit allows a burst. A rate-limited downstream's calls chart draws the rate as a
/// line (the y axis reaching it) and the figure says how many calls pass in one second after
/// an idle spell, in both languages; a chart without a limit draws neither.
#[test]
fn the_calls_chart_draws_the_rate_limit_and_explains_the_burst() {
    use modality_advisor::domain::sim::results::drawn::charts_html;
    use modality_advisor::domain::sim::setup::knobs::{CustomRun, Knob};
    let check = |c: CustomRun, rule: Option<&str>, note: Option<[&str; 2]>| {
        let v = crate::sim_support::settings_view(&c, 1);
        let text = charts::text(Lang::En);
        let svgs = charts::render(&v.charts, false, &text);
        let calls = svg(&svgs, "calls");
        match rule {
            Some(r) => {
                assert!(calls.contains(r), "{calls}");
                assert!(ChartScale::of(&v.charts).calls.y_hi >= 10.0);
            }
            None => assert!(!calls.contains("plot-rule"), "{calls}"),
        }
        let [en, ja] = charts_html(&v.charts, &v.scenario);
        match note {
            Some([want_en, want_ja]) => {
                assert!(en.contains(want_en), "{en}");
                assert!(ja.contains(want_ja), "{ja}");
            }
            None => assert!(!en.contains("chart-note"), "{en}"),
        }
    };
    let p = crate::sim_support::partner;
    check(
        p(),
        Some(r#"<line class="plot-rule s-rate-limit" data-rule="rate-limit" data-value="10""#),
        Some([
            r#"data-rate-limit="10" data-burst="10" data-most="20">The dashed line is the downstream’s rate limit, 10 calls/s. Its token bucket holds 10 calls: after an idle spell up to 20 calls can pass within one second"#,
            "破線は下流のレート制限（毎秒10件）です。トークンバケットには10件まで貯まるため、しばらく呼び出しがないと1秒の間に最大20件",
        ]),
    );
    check(
        p().with(Knob::RateBurst, 1),
        Some(r#"data-rule="rate-limit" data-value="10""#),
        Some([r#"data-burst="1" data-most="11""#, "最大11件"]),
    );
    check(p().with(Knob::RateLimit, 0), None, None);
    // The rule's label is in the chart.
    let v = crate::sim_support::settings_view(&p(), 1);
    let ja = charts::render(&v.charts, false, &charts::text(Lang::Ja));
    assert!(svg(&ja, "calls").contains("レート制限 毎秒10件"));
}

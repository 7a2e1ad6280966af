//! The worker timeline and the charts the worker draws for the page: built from the event
//! log, drawn in both languages, only the charts that carry meaning, Compare naming the charts
//! both runs drew the same.

use crate::sim_support::preset_view;
use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sim::results::drawn::{compared, pick, why_hidden};
use modality_advisor::domain::sim::results::timeline::{Mark, RowStatus, RunEnd, Timeline};
use modality_advisor::domain::sim::runner::{CompareRequest, RunRequest, WorkerState};
use modality_advisor::domain::sim::SimTime;

/// The timeline of a preset, from its whole log.
fn timeline(scenario: &str, variant: &str) -> Timeline {
    let req = RunRequest {
        id: 1,
        scenario: scenario.into(),
        variant: Some(variant.into()),
        seed: 1,
        jobs: None,
        custom: None,
    };
    let (view, log) =
        modality_advisor::domain::sim::runner::run_with_log(&req, 1_000, |_| {}).expect("runs");
    let lease = modality_advisor::domain::sim::SimDuration::from_secs(30);
    Timeline::build(
        log.iter(),
        &view.log_names,
        lease,
        SimTime((view.key.end_s * 1e6).round() as u64),
    )
}

#[test]
fn duplicate_execution_two_lanes_two_runs_two_side_effects() {
    let t = timeline("duplicate-execution", "plain");
    assert_eq!(t.workers, ["A", "B"]);
    let runs: Vec<(u16, u32, u32, u64, u64, RunEnd)> = t
        .runs
        .iter()
        .map(|r| (r.worker, r.job, r.attempt, r.from.0, r.to.0, r.end))
        .collect();
    assert_eq!(
        runs,
        [
            (0, 1, 1, 1_000_000_000, 1_000_000_000, RunEnd::Crashed),
            (1, 1, 2, 1_031_000_000, 1_031_000_000, RunEnd::Done),
        ]
    );
    let marks: Vec<(u16, u64, Mark)> = t.marks.iter().map(|m| (m.0, m.1 .0, m.2)).collect();
    assert_eq!(
        marks,
        [
            (0, 1_000_000_000, Mark::SideEffect),
            (0, 1_000_000_000, Mark::Crash),
            (0, 1_030_000_000, Mark::LeaseExpired),
            (1, 1_031_000_000, Mark::SideEffect),
        ]
    );
    // The row: queued from 0 s, running at A's claim, claimable again when A's lease ran
    // out, running again at B's claim, done.
    let statuses: Vec<u64> = t.rows[0].1.iter().map(|c| c.0 .0 / 1_000_000).collect();
    assert_eq!(statuses, [0, 1000, 1030, 1031, 1031]);
    assert_eq!(t.overlaps(), 0, "A had died when B claimed");
}

#[test]
fn the_timeline_svg_has_a_lane_per_worker_and_says_what_happens_in_both_languages() {
    let v = preset_view("duplicate-execution", "plain");
    let en = pick(&v.drawn.timeline, Lang::En);
    let ja = pick(&v.drawn.timeline, Lang::Ja);
    for html in [en, ja] {
        let doc = roxmltree::Document::parse(html).expect("well-formed");
        let svg = doc
            .descendants()
            .find(|n| n.has_tag_name("svg"))
            .expect("svg");
        assert!(svg
            .attribute("class")
            .is_some_and(|c| c.contains("plot-lanes")));
        let count = |class: &str| {
            svg.descendants()
                .filter(|n| {
                    n.attribute("class")
                        .is_some_and(|c| c.split(' ').any(|x| x == class))
                })
                .count()
        };
        assert_eq!(count("plot-lane"), 2, "lanes A and B");
        assert_eq!(count("plot-strip"), 1, "job#1's status");
        // Two side effects on the lanes, one more in the legend.
        assert_eq!(count("s-effect"), 3);
        assert_eq!(count("plot-now"), 1);
        assert!(!html.contains("style="), "classes only (CSP)");
        for k in ["data-t0", "data-t1", "data-x0", "data-x1"] {
            assert!(
                svg.attribute(k).is_some_and(|v| v.parse::<i64>().is_ok()),
                "{k}"
            );
        }
    }
    assert!(en.contains("Worker timeline"));
    assert!(en.contains("A runs job#1 attempt 1 from 1,000 s to 1,000 s (the worker died): side effect applied (1,000 s), worker died (1,000 s), lease expired (1,030 s)."), "{en}");
    assert!(
        en.contains(
            "B runs job#1 attempt 2 from 1,031 s to 1,031 s (done): side effect applied (1,031 s)."
        ),
        "{en}"
    );
    assert!(ja.contains("ワーカーのタイムライン"));
    assert!(ja.contains("A が job#1 の試行 1 を"), "{ja}");
}

#[test]
fn charts_appear_only_when_they_carry_meaning() {
    let hidden = |scenario: &str, variant: &str| -> Vec<&'static str> {
        let v = preset_view(scenario, variant);
        ["depth", "attempts", "latency", "calls"]
            .into_iter()
            .filter(|id| why_hidden(&v.charts, id, Lang::En).is_some())
            .collect()
    };
    // One job: no queue to drain, no percentiles.
    assert_eq!(
        hidden("duplicate-execution", "plain"),
        ["depth", "latency", "calls"]
    );
    // Three rows, one claim: the depth falls once and stays at 2.
    assert_eq!(
        hidden("pg-row-locks", "skip-locked"),
        ["depth", "latency", "calls"]
    );
    // Two rows taken out by two claims: a queue drained.
    assert_eq!(hidden("claim-race", "atomic"), ["latency", "calls"]);
    // No queue at all.
    assert_eq!(
        hidden("burst-leveling", "direct"),
        ["depth", "attempts", "latency"]
    );
    assert_eq!(hidden("mmc-load", "bench"), ["calls"]);
    let v = preset_view("duplicate-execution", "plain");
    let why = why_hidden(&v.charts, "latency", Lang::En).expect("hidden");
    assert!(
        why.contains("20 finished jobs") && why.ends_with("this run finished 1."),
        "{why}"
    );
    let html = pick(&v.drawn.charts, Lang::Ja);
    assert!(html.contains(r#"data-chart="latency" data-empty="true""#));
    assert!(html.contains("完了したジョブが 20 件以上"), "{html}");
}

#[test]
fn each_preset_speaks_about_itself() {
    let v = preset_view("duplicate-execution", "plain");
    assert!(pick(&v.drawn.timeline, Lang::En).contains("two diamonds, one job"));
    assert!(pick(&v.drawn.charts, Lang::En).contains("One job, claimed twice"));
    let b = preset_view("burst-leveling", "two-tier-jitter");
    assert!(pick(&b.drawn.charts, Lang::Ja).contains("同じ時刻に ok は1件だけ"));
}

#[test]
fn a_run_that_never_uses_the_queue_has_no_states_to_step_through() {
    let v = preset_view("burst-leveling", "direct");
    assert!(v.frames.is_empty());
    assert!(v.jobs.is_empty());
    assert!(!preset_view("duplicate-execution", "plain")
        .frames
        .is_empty());
}

#[test]
fn compare_names_the_charts_both_runs_drew_the_same() {
    let a = preset_view("duplicate-execution", "plain");
    let b = preset_view("duplicate-execution", "idempotency-key");
    let c = compared((&a.charts, &a.scenario), (&b.charts, &b.scenario));
    let same = pick(&c.same, Lang::En);
    assert!(
        same.contains(r#"data-same-charts="depth attempts latency calls""#),
        "{same}"
    );
    assert!(!pick(&c.a, Lang::En).contains("<figure"));
    let b = preset_view("claim-race", "atomic");
    let a = preset_view("claim-race", "two-statement");
    let c = compared((&a.charts, &a.scenario), (&b.charts, &b.scenario));
    assert!(pick(&c.a, Lang::En).contains(r#"data-chart="depth""#));
    assert!(pick(&c.b, Lang::Ja).contains(r#"data-chart="depth""#));
}

#[test]
fn the_worker_draws_the_comparison_when_the_request_names_the_previous_run() {
    let mut w = WorkerState::new();
    let req = |id: u64, variant: &str, with: Option<u64>| {
        let run = RunRequest {
            id,
            scenario: "claim-race".into(),
            variant: Some(variant.into()),
            seed: 1,
            jobs: None,
            custom: None,
        };
        match with {
            Some(with) => serde_json::to_string(&CompareRequest {
                run,
                with,
                same_why: None,
            }),
            None => serde_json::to_string(&run),
        }
        .expect("json")
    };
    let done = |m| match m {
        modality_advisor::domain::sim::runner::RunMessage::Done { view, .. } => view,
        other => panic!("{other:?}"),
    };
    let a = done(w.answer(&req(1, "two-statement", None), 1_000, |_| {}));
    assert!(a.drawn.compared.is_none());
    let b = done(w.answer(&req(2, "atomic", Some(1)), 1_000, |_| {}));
    assert!(b.drawn.compared.is_some());
    // A stale id draws nothing.
    let c = done(w.answer(&req(3, "atomic", Some(1)), 1_000, |_| {}));
    assert!(c.drawn.compared.is_none());
}

#[test]
fn the_sim_worker_carries_every_text_it_draws_with() {
    // The worker is the simulator module, built with only the `[simui]` texts of
    // locales/modules.txt: each key its
    // drawing code names must be defined there, and each key it builds at run time must start
    // with a prefix whose keys all live there.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut defined = std::collections::BTreeSet::new();
    for file in crate::locale_keys::module_texts("simui") {
        let text = std::fs::read_to_string(root.join("locales").join(file)).expect("reads");
        for line in text.lines() {
            if let Some((key, _)) = line.split_once(':') {
                if !line.starts_with([' ', '#']) && key != "_version" {
                    defined.insert(key.to_owned());
                }
            }
        }
    }
    let prefixes = ["charts.", "timeline.", "hints.", "compare."];
    for file in ["drawn.rs", "timeline.rs", "charts.rs", "compare_html.rs"] {
        let code =
            std::fs::read_to_string(root.join("src/domain/sim/results").join(file)).expect("reads");
        for (i, _) in code.match_indices("t!(") {
            // Not the tail of `format!(`.
            if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = code[i + 3..].trim_start();
            let rest = rest.strip_prefix("format!(").unwrap_or(rest).trim_start();
            let Some(lit) = rest.strip_prefix('"') else {
                continue; // a key built beforehand (`&key`), checked through its format! below
            };
            let key = &lit[..lit.find('"').expect("closed")];
            assert!(
                prefixes.iter().any(|p| key.starts_with(p)),
                "{file}: {key} is not among the worker's texts"
            );
            if !key.contains('{') {
                assert!(
                    defined.contains(key),
                    "{file}: {key} missing from the [simui] texts"
                );
            }
        }
    }
    // The runtime-built keys' prefixes: every key of these families is in the [simui] texts.
    assert!(defined.contains("hints.duplicate-execution.timeline"));
    assert!(defined.contains("charts.latency.caption") && defined.contains("timeline.end.crashed"));
    // Compare's figures (`compare.<DiffLine id>`), its reasons and the log lines it renders.
    assert!(
        defined.contains("compare.overlapping-runs") && defined.contains("compare.same-why.ack")
    );
    assert!(defined.contains("sim-log.enqueued") && defined.contains("sim-log.call.busy"));
}

#[test]
fn a_preset_without_its_own_caption_gets_the_generic_one() {
    // retry-dead-letter has no caption of its own for the depth chart.
    let v = preset_view("retry-dead-letter", "seed");
    let html = pick(&v.drawn.charts, Lang::En);
    assert!(
        html.contains(r#"data-chart="depth"><figcaption>"#),
        "{html}"
    );
    assert!(
        html.contains("Look for the queue draining back to zero"),
        "{html}"
    );
    assert!(!html.contains("hints."), "no bare key: {html}");
}

#[test]
fn the_lease_preset_shows_the_overlap_the_refusal_and_the_renewed_lease() {
    // Naive: three runs of one job allowed two, two of them overlapping A's.
    let naive = timeline("lease-shorter-than-handler", "naive");
    assert_eq!(naive.runs.len(), 3);
    assert_eq!(naive.overlaps(), 2, "{:?}", naive.runs);
    assert!(
        naive.runs.iter().any(|r| r.attempt == 3),
        "attempt 3/2 drawn"
    );
    // Each lease that ran out had been superseded by a newer claim (with its own lease) or the
    // row was dead: the row is never drawn "lease expired" here.
    assert!(
        naive.rows[0].1.iter().all(|c| c.1 != RowStatus::Expired),
        "{:?}",
        naive.rows[0].1
    );
    // Owner check: A's and B's late errors are refused marks, their runs end refused.
    let owner = timeline("lease-shorter-than-handler", "owner-check");
    let refused: Vec<(u16, u64)> = owner
        .marks
        .iter()
        .filter(|m| m.2 == Mark::Refused)
        .map(|m| (m.0, m.1 .0 / 1_000_000))
        .collect();
    assert_eq!(refused, [(0, 40), (1, 70)]);
    assert!(owner.runs.iter().all(|r| r.end == RunEnd::Refused));
    // Heartbeats: each run's lease window reaches past the run's end, so no lease-expired mark.
    let beat = timeline("lease-shorter-than-handler", "heartbeat");
    assert_eq!(beat.runs.len(), 2);
    assert_eq!(beat.overlaps(), 0);
    assert!(
        beat.runs.iter().all(|r| r.lease_until > r.to),
        "{:?}",
        beat.runs
    );
    assert!(!beat.marks.iter().any(|m| m.2 == Mark::LeaseExpired));
    // Each variant's caption speaks about that variant.
    for (variant, en, ja) in [
        ("naive", "3/2", "3/2"),
        (
            "owner-check",
            "refused by the owner check",
            "所有者の確認で拒否",
        ),
        (
            "heartbeat",
            "extends its lease every 10 s",
            "10 秒ごとにリースを延長",
        ),
    ] {
        let v = preset_view("lease-shorter-than-handler", variant);
        assert!(pick(&v.drawn.timeline, Lang::En).contains(en), "{variant}");
        assert!(pick(&v.drawn.timeline, Lang::Ja).contains(ja), "{variant}");
    }
    let v = preset_view("duplicate-execution", "same-order-order-key");
    assert!(pick(&v.drawn.timeline, Lang::En).contains("balance 100"));
}

#[test]
fn a_run_the_limits_or_missing_workers_stopped_says_so() {
    assert_eq!(
        preset_view("duplicate-execution", "plain").cut_short,
        None,
        "drained"
    );
    // Worker A finishes its one claim and B only probes: jobs 2 and 3 stay queued.
    let v = preset_view("pg-row-locks", "skip-locked");
    assert_eq!(v.cut_short.as_deref(), Some("no-workers"), "{:?}", v.counts);
}

#[test]
fn compare_names_the_lease_counts_that_differ() {
    use modality_advisor::domain::sim::results::compare::diff;
    let naive = preset_view("lease-shorter-than-handler", "naive");
    let beat = preset_view("lease-shorter-than-handler", "heartbeat");
    let lines: Vec<String> = diff(&naive.key, &beat.key)
        .iter()
        .filter(|d| d.differs)
        .map(ToString::to_string)
        .collect();
    for want in [
        "overlapping-runs: 2 → 0",
        "stale-results: 3 → 0",
        "claims-over-max: 1 → 0",
        "lease-renewals: 0 → 6",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} in {lines:#?}");
    }
}

#[test]
fn the_axis_ends_with_the_runs_not_with_leases_they_no_longer_hold() {
    // The documents' retries: six attempts within 0.4 s under a 30 s lease. The axis ran to
    // the last lease's end (30.4 s), so the runs were slivers at its left edge.
    let t = timeline("retry-dead-letter", "seed");
    assert_eq!(t.axis_s().1, 0.4, "0.4 s of runs on a 0.4 s axis");
    let svg = t.svg(Lang::En);
    let ticks: Vec<f64> = svg
        .split(r#"class="plot-tick""#)
        .filter(|p| p.contains(r#"text-anchor="middle">"#))
        .filter_map(|p| p.split('>').nth(1)?.split('<').next()?.parse().ok())
        .collect();
    assert!(
        ticks.last().is_some_and(|t| (0.4..0.5).contains(t)),
        "the time axis' ticks: {ticks:?}"
    );
    // Every preset: the axis holds every run, every crashed run's lease (its job can be
    // claimed again only then) and the run's end; and the lease of a run that ended
    // otherwise does not stretch it (the runs whose leases outlive the axis are the ones
    // drawn cut at its edge).
    use modality_advisor::domain::sim::setup::scenario::Scenario;
    let mut cut = 0;
    for s in Scenario::ALL {
        for v in s.variants() {
            let t = timeline(s.id(), v);
            let (lo, hi) = t.axis_s();
            assert!(hi >= t.end.as_secs_f64(), "{} {v}", s.id());
            for r in &t.runs {
                assert!(
                    lo <= r.from.as_secs_f64() && r.to.as_secs_f64() <= hi,
                    "{} {v}",
                    s.id()
                );
                if r.end == RunEnd::Crashed {
                    assert!(r.lease_until.as_secs_f64() <= hi, "{} {v}", s.id());
                } else if r.lease_until.as_secs_f64() > hi {
                    cut += 1;
                }
            }
        }
    }
    assert!(cut > 0, "some presets' runs end well within their leases");
    // A crashed run's lease still sets the axis: A's claim ran out at 1,030 s, B claimed at
    // 1,031 s, and both are on it.
    let d = timeline("duplicate-execution", "plain");
    assert!(d.axis_s().1 >= 1_030.0);
}

//! The event log's time column: one precision per log. A log whose times and waits are all
//! whole milliseconds writes three decimals (the source documents' printed runs: `1031.000s`); a log with
//! any sub-millisecond value writes six everywhere (`0.127000s` beside `1.265801s`), so the
//! column lines up and no value is rounded.

use modality_advisor::domain::sim::reference::erlang::MmcModel;
use modality_advisor::domain::sim::runner::{run, RunRequest};
use modality_advisor::domain::sim::{run_scenario, Scenario, Simulation};
use modality_advisor::domain::Lang;

/// The decimals of every time written in `line` (the head's time and any `… 1.5s` value).
fn decimals(line: &str) -> Vec<usize> {
    line.split([' ', '(', ')', ':', '（', '）'])
        .filter_map(|w| w.strip_suffix('s'))
        .filter_map(|n| {
            let (whole, frac) = n.split_once('.')?;
            (!whole.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && frac.bytes().all(|b| b.is_ascii_digit()))
            .then_some(frac.len())
        })
        .collect()
}

fn precisions(lines: &[String]) -> Vec<usize> {
    let mut all: Vec<usize> = lines.iter().flat_map(|l| decimals(l)).collect();
    all.sort_unstable();
    all.dedup();
    all
}

#[test]
fn every_scenario_log_has_one_precision() {
    for sc in Scenario::ALL {
        for v in sc.variants() {
            let report = run_scenario(sc.id(), Some(v), 1).expect("runs");
            if report.events.is_empty() {
                continue;
            }
            let want: &[usize] = if (sc.id(), *v) == ("burst-leveling", "two-tier-jitter") {
                &[6]
            } else {
                &[3]
            };
            assert_eq!(precisions(&report.events), want, "{}/{v}", sc.id());
        }
    }
}

#[test]
fn the_page_renders_the_cli_precision_in_both_languages() {
    let req = RunRequest {
        id: 1,
        scenario: "burst-leveling".into(),
        variant: Some("two-tier-jitter".into()),
        seed: 1,
        jobs: None,
        custom: None,
    };
    let view = run(&req, 1_000, |_| {}).expect("runs");
    assert!(view.log_micros);
    for lang in Lang::ALL {
        let lines: Vec<String> = view
            .log_head
            .iter()
            .map(|e| view.log_line(e).render(lang))
            .collect();
        assert_eq!(precisions(&lines), [6], "{lang:?}");
        // The first line is at 0 s: written 0.000000s, not 0.000s.
        assert!(lines[0].starts_with("0.000000s "), "{lang:?}: {}", lines[0]);
    }
    // An entry on its own never loses its microseconds.
    let e = view
        .log_head
        .iter()
        .find(|e| e.time.as_micros() % 1_000 != 0)
        .expect("a sub-millisecond time");
    assert_eq!(decimals(&view.log_names.line(e).to_string())[0], 6);
}

#[test]
fn a_log_in_whole_milliseconds_keeps_three_decimals() {
    let lines = run_scenario("retry-dead-letter", Some("seed"), 1)
        .expect("runs")
        .events;
    assert!(lines[0].starts_with("0.000s "), "{}", lines[0]);
    assert!(
        lines.iter().any(|l| l.contains("queued until 0.200s")),
        "{lines:?}"
    );
}

#[test]
fn the_mmc_bench_log_is_in_microseconds() {
    let mut cfg = MmcModel::bench(50, 1).config();
    cfg.log = true;
    let mut sim = Simulation::new(cfg).expect("valid");
    sim.run();
    let lines: Vec<String> = sim.log().iter().map(|l| l.to_string()).collect();
    assert_eq!(precisions(&lines), [6]);
}

//! A finished run's key facts and jobs table as the simulation worker draws them
//! (`domain::sim::results::run_html`): both languages, the classes and `data-*` attributes the
//! page and its browser tests read, and every text from the run (job names, errors, worker
//! names) kept as text.

use modality_advisor::domain::sim::results::run_html::{facts_html, jobs_html};
use modality_advisor::domain::sim::runner::{Preset, RunMessage, RunRequest, RunSpec, WorkerState};

const EVIL: &str = r#"<img src=x onerror="alert(1)">&'"#;
const EVIL_TEXT: &str = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;";

#[test]
fn the_facts_and_the_jobs_table_in_both_languages() {
    let v = crate::sim_support::preset_view("duplicate-execution", "plain");
    let [en, ja] = facts_html(&v);
    for html in [&en, &ja] {
        assert!(html.starts_with(r#"<dl class="facts">"#), "{html}");
        assert!(html.ends_with("</dl>"), "{html}");
        for fact in [
            "trace-hash",
            "events",
            "elapsed",
            "rows",
            "balance",
            "duplicates",
        ] {
            assert!(
                html.contains(&format!(r#"data-fact="{fact}""#)),
                "{fact}: {html}"
            );
        }
        assert!(html.contains(&v.trace_hash), "{html}");
        assert!(!html.contains("run-result."), "no bare key: {html}");
        assert!(!html.contains("style="), "CSP: no inline style");
    }
    assert!(en.contains("<dt>Trace hash</dt>"), "{en}");
    assert!(ja.contains("<dt>トレースハッシュ</dt>"), "{ja}");
    let [en, ja] = jobs_html(&v);
    for html in [&en, &ja] {
        assert!(html.contains(r#"<table class="jobs">"#), "{html}");
        assert_eq!(
            html.matches("<tr data-job=").count(),
            v.jobs.len(),
            "{html}"
        );
        assert!(!html.contains("data-rows-cut"), "every row shown: {html}");
        assert!(!html.contains("run-result."), "no bare key: {html}");
    }
    let j = &v.jobs[0];
    let row = format!(r#"<tr data-job="{}" data-status="{}">"#, j.id, j.status);
    assert!(en.contains(&row), "{en}");
    assert!(en.contains("<h4>Jobs table</h4>") && en.contains("<th>last_error</th>"));
    assert!(ja.contains("<h4>jobs テーブル</h4>"), "{ja}");
    // The table scrolls in a box a keyboard can reach, named in each language.
    assert!(
        en.contains(
            r#"<div class="table-wrap" tabindex="0" role="region" aria-label="Jobs table">"#
        ),
        "{en}"
    );
    assert!(
        ja.contains(
            r#"<div class="table-wrap" tabindex="0" role="region" aria-label="jobs テーブル">"#
        ),
        "{ja}"
    );
}

#[test]
fn hostile_job_names_errors_and_workers_stay_text() {
    let mut v = crate::sim_support::preset_view("claim-race", "two-statement");
    for j in &mut v.jobs {
        j.name = EVIL.to_owned();
        j.status = EVIL.to_owned();
        j.last_error = Some(EVIL.to_owned());
    }
    v.claims = vec![(EVIL.to_owned(), 1)];
    v.errors = vec![(EVIL.to_owned(), EVIL.to_owned())];
    v.trace_hash = EVIL.to_owned();
    v.cut_short = Some(EVIL.to_owned());
    for html in facts_html(&v).iter().chain(jobs_html(&v).iter()) {
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains(r#"onerror=""#), "{html}");
        assert!(html.contains(EVIL_TEXT), "{html}");
    }
}

#[test]
fn cut_rows_are_said_and_a_run_without_rows_draws_no_table() {
    let mut v = crate::sim_support::preset_view("duplicate-execution", "plain");
    v.counts[0] += 5_000;
    let [en, ja] = jobs_html(&v);
    assert!(
        en.contains(r#"<p class="hint" data-rows-cut="true">Showing the first"#),
        "{en}"
    );
    assert!(
        en.contains("rows (the counts above cover every row)"),
        "{en}"
    );
    assert!(ja.contains(r#"data-rows-cut="true""#), "{ja}");
    v.jobs.clear();
    assert_eq!(jobs_html(&v), [String::new(), String::new()]);
    assert!(!facts_html(&v)[0].contains(r#"data-fact="rows""#));
}

#[test]
fn the_worker_draws_them_into_the_finished_view() {
    let spec = RunSpec {
        preset: Preset::Scenario {
            name: "duplicate-execution".into(),
            variant: Some("plain".into()),
        },
        seed: Some(7),
    };
    let req = RunRequest::new(3, &spec).expect("a preset the worker runs");
    let json = serde_json::to_string(&req).expect("json");
    let out = WorkerState::new().handle(&json, 1_000, |_| {});
    let view = match serde_json::from_str(&out).expect("a message") {
        RunMessage::Done { view, .. } => *view,
        other => panic!("expected a run, got {other:?}"),
    };
    assert_eq!(view.drawn.facts, facts_html(&view));
    assert_eq!(view.drawn.jobs, jobs_html(&view));
    assert!(view.drawn.facts[1].contains(r#"data-fact="trace-hash""#));
    assert!(view.drawn.jobs[0].contains(r#"<table class="jobs">"#));
}

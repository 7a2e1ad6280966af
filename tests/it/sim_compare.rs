//! Compare's key numbers (`domain::sim::results::compare`): each preset pair calls out the fact its
//! lesson is about, and large changes read as a factor; the worker draws them, with both event
//! logs, as escaped HTML with the first difference marked (`compare_html`).

use modality_advisor::domain::sim::results::compare::{change, diff, KeyNumbers};

fn key(
    scenario: &str,
    variant: &str,
) -> modality_advisor::domain::sim::results::compare::KeyNumbers {
    crate::sim_support::preset_view(scenario, variant).key
}

/// Data-driven: for each preset pair, the lines that differ (in order).
#[test]
fn each_preset_pair_calls_out_its_lesson() {
    let cases: &[(&str, &str, &str, &[&str])] = &[
        // Both workers took job 1 vs jobs 1 and 2.
        (
            "claim-race",
            "two-statement",
            "atomic",
            &[
                "claims: A: #1, B: #1 → A: #1, B: #2",
                "runs: 4 → 2 (−50 %)",
                // The double claim's second runs overlap the first, and their `complete` is stale.
                "overlapping-runs: 2 → 0",
                "stale-results: 2 → 0",
                "p95: 202 ms → 100 ms (−50 %)",
                "end: 0.2 s → 0.1 s (−50 %)",
            ],
        ),
        // Accepted 1 → 10, failed back to the user 9 → 0.
        (
            "burst-leveling",
            "direct",
            "queue-redelivery",
            &[
                "done: 0 → 5",
                "dead: 0 → 5",
                "runs: 0 → 40",
                "calls: 10 → 40 (+300 %)",
                "calls-ok: 1 → 5",
                "calls-busy: 9 → 35",
                "accepted: 1 → 10",
                "failed-to-user: 9 → 0",
                "p95: – → 2.0 min",
                "end: 0.3 s → 120 s (×401)",
            ],
        ),
        (
            "burst-leveling",
            "queue-redelivery",
            "two-tier-jitter",
            &[
                "done: 5 → 10",
                "dead: 5 → 0",
                "runs: 40 → 14 (−65 %)",
                "calls: 40 → 48 (+20 %)",
                "calls-ok: 5 → 10",
                "calls-busy: 35 → 38",
                "p95: 2.0 min → 0.56 min (−72 %)",
                "end: 120 s → 33.6 s (−72 %)",
            ],
        ),
        // SKIP LOCKED takes the next row; NOWAIT / lock_timeout report an error instead.
        (
            "pg-row-locks",
            "skip-locked",
            "nowait",
            &["claims: A: #1, B: #2 → A: #1", "lock-errors: 0 → 1 (B)"],
        ),
        (
            "pg-row-locks",
            "skip-locked",
            "lock-timeout",
            &["claims: A: #1, B: #2 → A: #1", "lock-errors: 0 → 1 (B)"],
        ),
        (
            "duplicate-execution",
            "plain",
            "idempotency-key",
            &[
                "balance: 200 → 100",
                "duplicates: 1 → 0",
                "prevented: 0 → 1",
            ],
        ),
        (
            "retry-dead-letter",
            "seed",
            "classified",
            &["runs: 6 → 4 (−33 %)"],
        ),
    ];
    for (sc, a, b, want) in cases {
        let got: Vec<String> = diff(&key(sc, a), &key(sc, b))
            .iter()
            .filter(|l| l.differs)
            .map(ToString::to_string)
            .collect();
        assert_eq!(got, *want, "{sc}: {a} → {b}");
    }
}

/// The rule: a whole percentage while B is below ten times A, a rounded factor from ten
/// times on; nothing when A is zero or the values are equal.
#[test]
fn large_changes_read_as_a_factor() {
    let cases: &[(f64, f64, Option<&str>)] = &[
        (100.0, 25.0, Some("−75 %")),
        (1.0, 2.0, Some("+100 %")),
        (10.0, 99.0, Some("+890 %")),
        (10.0, 100.0, Some("×10")),
        (0.3, 120.38, Some("×401")),
        (1.0, 12_000.0, Some("×12,000")),
        (0.0, 5.0, None),
        (5.0, 5.0, None),
        (f64::NAN, 5.0, None),
        // Small changes keep their sign and say how small (was "+-0 %").
        (5_062.0, 5_054.0, Some("−0.2 %")),
        (5_054.0, 5_062.0, Some("+0.2 %")),
        (100_000.0, 99_999.0, Some("−<0.1 %")),
        (100_000.0, 100_001.0, Some("+<0.1 %")),
        (100.0, 99.4, Some("−0.6 %")),
        (100.0, 99.5, Some("−0.5 %")),
        (100.0, 101.0, Some("+1 %")),
    ];
    for &(a, b, want) in cases {
        assert_eq!(change(a, b).as_deref(), want, "{a} → {b}");
    }
}

/// Latency lines take one unit for both runs, chosen from the larger value as the latency
/// chart does (`TimeUnit::for_max_ms`): a 17-minute p95 is not `1 031 000 ms`.
#[test]
fn times_share_the_charts_unit() {
    let k = |p95: Option<f64>| KeyNumbers {
        queue: true,
        p95_ms: p95,
        end_s: 1_031.0,
        ..KeyNumbers::default()
    };
    let p95 = |a, b| {
        diff(&k(a), &k(b))
            .into_iter()
            .find(|l| l.id == "p95")
            .map(|l| (l.a, l.b))
            .expect("a p95 line")
    };
    let s = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(
        p95(Some(1_031_000.0), Some(1_031_000.0)),
        s("17.2 min", "17.2 min")
    );
    assert_eq!(p95(Some(900.0), Some(30_000.0)), s("0.90 s", "30.0 s"));
    assert_eq!(p95(Some(202.0), Some(100.0)), s("202 ms", "100 ms"));
    assert_eq!(p95(None, Some(9_000_000.0)), s("–", "2.5 h"));
    let jitter = |at: f64| KeyNumbers {
        contention: Some((3.0, at)),
        ..KeyNumbers::default()
    };
    let line = diff(&jitter(150_000.0), &jitter(1_200.0))
        .into_iter()
        .find(|l| l.id == "mean-completion")
        .expect("a completion line");
    assert_eq!((line.a, line.b), s("2.5 min", "0.02 min"));
}

#[test]
fn times_are_written_in_the_language() {
    use modality_advisor::domain::sim::results::compare::diff_in;
    use modality_advisor::domain::Lang;
    let (a, b) = (
        key("duplicate-execution", "plain"),
        key("duplicate-execution", "idempotency-key"),
    );
    let p95 = |lang| {
        diff_in(&a, &b, lang)
            .into_iter()
            .find(|l| l.id == "p95")
            .map(|l| l.a)
            .expect("a p95 line")
    };
    assert_eq!(p95(Lang::En), "17.2 min");
    assert_eq!(p95(Lang::Ja), "17.2分");
}

/// The worker's comparison HTML (`domain::sim::results::compare_html`) of two preset runs.
fn compare_html_of(
    a: &modality_advisor::domain::sim::runner::RunView,
    b: &modality_advisor::domain::sim::runner::RunView,
    same_why: Option<&str>,
) -> [String; 2] {
    use modality_advisor::domain::sim::results::compare_html::compare_html;
    compare_html(side(a), side(b), same_why)
}

/// The comparison side of `v`.
fn side(
    v: &modality_advisor::domain::sim::runner::RunView,
) -> modality_advisor::domain::sim::results::compare_html::Side<'_> {
    modality_advisor::domain::sim::results::compare_html::Side {
        key: &v.key,
        log: &v.log_head,
        names: &v.log_names,
        total: v.log_total,
        micros: v.log_micros,
    }
}

#[test]
fn the_worker_marks_the_first_difference_in_both_languages() {
    let a = crate::sim_support::preset_view("duplicate-execution", "plain");
    let b = crate::sim_support::preset_view("duplicate-execution", "idempotency-key");
    let [en, ja] = compare_html_of(&a, &b, None);
    for html in [&en, &ja] {
        assert!(html.contains(r#"<table class="compare-diff">"#), "{html}");
        assert!(html.contains(r#"<th scope="row">"#), "{html}");
        assert!(html.contains(r#"data-first-diff="true""#), "{html}");
        assert_eq!(html.matches(r#"data-first="true""#).count(), 1, "{html}");
        assert!(html.contains(r#"class="differs first-diff" data-first="true""#));
        // The log's scroll box is a region with a name of its own (the section around it
        // has the heading's); every header cell of the differences has a text.
        assert!(
            html.contains(r#"tabindex="0" role="region" aria-label=""#),
            "{html}"
        );
        assert!(!html.contains("<th></th>"), "no empty header cell: {html}");
        assert_eq!(
            html.matches(r#"<span class="visually-hidden">"#).count(),
            2,
            "{html}"
        );
        assert!(!html.contains("data-no-difference"), "{html}");
        assert!(!html.contains("compare."), "no bare key: {html}");
        assert!(!html.contains("style="), "CSP: no inline style");
    }
    // The row differing on the balance, and the first line where the logs part.
    assert!(en.contains(r#"<tr data-diff="balance" data-line="balance: "#));
    assert!(en.contains("<th scope=\"row\">Balance</th>"), "{en}");
    assert!(ja.contains("<th scope=\"row\">残高</th>"), "{ja}");
    assert!(en.contains("Event logs side by side"), "{en}");
    assert!(ja.contains("イベントログを並べて表示"), "{ja}");
    assert!(en.contains(r#"aria-label="Event logs of A and B, line by line""#));
    assert!(ja.contains(r#"aria-label="A と B のイベントログ（行ごと）""#));
    assert!(en.contains(r#"<span class="visually-hidden">Key number</span>"#));
    assert!(ja.contains(r#"<span class="visually-hidden">変化</span>"#));
    let first = &en[en.find(r#"data-first-diff="true""#).expect("called out")..];
    let first = &first[..first.find("</div>").expect("closed")];
    assert!(first.contains("side effect applied"), "{first}");
    assert!(first.contains("already recorded"), "{first}");
}

#[test]
fn the_same_runs_say_so_and_why() {
    let a = crate::sim_support::preset_view("claim-race", "atomic");
    let [en, ja] = compare_html_of(&a, &a, Some("idempotency-key"));
    assert!(en.contains(r#"data-no-difference="true""#), "{en}");
    assert!(en.contains("The key numbers are the same. An idempotency key only matters"));
    assert!(
        ja.contains("主要な数値は同じです。 冪等キーが効くのは"),
        "{ja}"
    );
    assert!(en.contains(r#"data-first-diff="false""#), "{en}");
    assert!(!en.contains(r#"data-first="true""#), "{en}");
    // An id without a reason adds nothing (and never shows the bare key).
    let [en, _] = compare_html_of(&a, &a, Some("<b>nope"));
    assert!(en.contains("The key numbers are the same.</p>"), "{en}");
    assert!(!en.contains("nope"), "{en}");
}

#[test]
fn hostile_names_stay_text() {
    let a = crate::sim_support::preset_view("claim-race", "two-statement");
    let mut b = crate::sim_support::preset_view("claim-race", "atomic");
    let evil = r#"<img src=x onerror="alert(1)">&'"#;
    b.key.claims[0].0 = evil.to_owned();
    for w in &mut b.log_names.workers {
        *w = evil.to_owned();
    }
    for k in &mut b.log_names.kinds {
        k.name = evil.to_owned();
    }
    for html in compare_html_of(&a, &b, None) {
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains(r#"onerror=""#), "{html}");
        assert!(
            html.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;"),
            "{html}"
        );
    }
}

/// Compare as the page runs it: A in the worker, then B as a [`CompareRequest`] naming A;
/// returns B's comparison HTML `[en, ja]` and both views.
fn compared_in_worker(
    a: &modality_advisor::domain::sim::setup::knobs::CustomRun,
    b: &modality_advisor::domain::sim::setup::knobs::CustomRun,
) -> ([String; 2], (f64, f64)) {
    use modality_advisor::domain::sim::runner::{
        CompareRequest, RunMessage, RunRequest, WorkerState,
    };
    let req = |id, c: &modality_advisor::domain::sim::setup::knobs::CustomRun| RunRequest {
        id,
        scenario: String::new(),
        variant: None,
        seed: 1,
        jobs: None,
        custom: Some(c.clone()),
    };
    let mut state = WorkerState::new();
    let done = |m| match m {
        RunMessage::Done { view, .. } => *view,
        other => panic!("{other:?}"),
    };
    let va = done(state.answer(
        &serde_json::to_string(&req(1, a)).expect("JSON"),
        1_000,
        |_| {},
    ));
    let compare = CompareRequest {
        run: req(2, b),
        with: 1,
        same_why: Some("workers".into()),
    };
    let vb = done(state.answer(
        &serde_json::to_string(&compare).expect("JSON"),
        1_000,
        |_| {},
    ));
    let table = vb.drawn.compared.expect("compared with A").table;
    (table, (va.key.end_s, vb.key.end_s))
}

/// Issue 25: two runs that ended at 103 s and 52 s were called "the same, line for line"
/// because only the first 200 lines (the burst's enqueues) were compared. The worker now
/// compares both whole logs: the first line that differs is found wherever it is, the text
/// says how many lines before it are the same, and "the same, line for line" needs every
/// line of both logs.
#[test]
fn the_worker_compares_the_whole_logs() {
    use modality_advisor::domain::sim::setup::knobs::Change;
    let p = crate::sim_support::partner();
    // (B, the marker of the verdict, at least this many lines the same before it, en, ja)
    let check = |b: &modality_advisor::domain::sim::setup::knobs::CustomRun,
                 verdict: &str,
                 same_before: usize,
                 en_has: &str,
                 ja_has: &str| {
        let ([en, ja], ends) = compared_in_worker(&p, b);
        for html in [&en, &ja] {
            assert!(html.contains(verdict), "{ends:?}: {html}");
            assert!(!html.contains("compare."), "no bare key: {html}");
        }
        assert!(en.contains(en_has), "{en}");
        assert!(ja.contains(ja_has), "{ja}");
        if let Some(at) = en.find("data-same-before=\"") {
            let n: usize = en[at + 18..]
                .split('"')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a count");
            assert!(n >= same_before, "{n} lines the same before the difference");
        }
        ends
    };
    // 3 → 4 workers: the logs part after the burst's 500 enqueues, far past the first 200.
    let (a_end, b_end) = check(
        &p.changed(Change::Workers(4)),
        r#"data-first-diff="true""#,
        500,
        "The runs part here — the first ",
        "2つの実行はここで分かれます。",
    );
    assert!(b_end < a_end, "{a_end} → {b_end}");
    check(
        &p.changed(Change::Workers(6)),
        r#"data-first-diff="true""#,
        500,
        "lines are the same in both",
        "最初に違う行",
    );
    // The same settings: every line compared, and said.
    check(
        &p,
        r#"data-first-diff="false""#,
        0,
        "Both event logs are the same, line for line: all ",
        "2つのイベントログは1行ずつすべて同じです（それぞれ全 ",
    );
}

/// With only the first lines of each log at hand (the page's heads), no difference among them
/// is never "the same": the text says how many were compared, and that the key numbers differ.
#[test]
fn logs_compared_only_in_part_are_never_called_the_same() {
    use modality_advisor::domain::sim::results::compare_html::compare_html;
    let side_head = side;
    let p = crate::sim_support::partner();
    let a = crate::sim_support::settings_view(&p, 1);
    let b = crate::sim_support::settings_view(
        &p.changed(modality_advisor::domain::sim::setup::knobs::Change::Workers(6)),
        1,
    );
    assert!(a.log_total > 1_000 && a.log_head.len() == 200);
    let [en, ja] = compare_html(side_head(&a), side_head(&b), None);
    assert!(en.contains(r#"data-first-diff="unknown""#), "{en}");
    assert!(!en.contains("line for line"), "{en}");
    assert!(!ja.contains("1行ずつすべて同じ"), "{ja}");
    // The 200 lines at hand are all at 0 s, the instant where the heads were cut.
    assert!(
        en.contains("The logs were not compared line by line: only their first lines are at hand"),
        "{en}"
    );
    assert!(en.contains("(A’s log has 2,500 lines, B’s 2,518). The key numbers above differ, so the runs part later."), "{en}");
    assert!(ja.contains("ログは1行ずつ比べていません。"), "{ja}");
    // Heads cut later than their first instant: the lines before the cut are compared.
    let (a, b) = (
        crate::sim_support::preset_view("duplicate-execution", "plain"),
        crate::sim_support::preset_view("duplicate-execution", "plain"),
    );
    fn cut(
        v: &modality_advisor::domain::sim::runner::RunView,
    ) -> modality_advisor::domain::sim::results::compare_html::Side<'_> {
        modality_advisor::domain::sim::results::compare_html::Side {
            log: &v.log_head[..v.log_head.len().min(4)],
            ..side(v)
        }
    }
    let [en, ja] = compare_html(cut(&a), cut(&b), None);
    assert!(en.contains(r#"data-first-diff="unknown""#), "{en}");
    assert!(
        en.contains("lines are the same; the rest was not compared"),
        "{en}"
    );
    assert!(!en.contains("key numbers above differ"), "{en}");
    assert!(ja.contains("行は同じです。残りは比べていません"), "{ja}");
}

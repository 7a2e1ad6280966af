//! The capacity answer through the simulation worker (`runner/capacity.rs`): a request is
//! answered with progress (runs done of the total, in order, ending at the total) and then
//! the answer drawn in both languages — the recommendation, the points table, both charts
//! with their data tables — or a typed refusal naming the field in both languages. The
//! compact form the worker posts reads back as the same messages; ρ ≥ 1 is an answer that
//! says the queue grows without end and charts the backlog growing; missing numbers are
//! "not sized yet" naming them.

use modality_advisor::domain::capacity::{not_sized_text, CapacityInput, RetryWaits};
use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sheet::load::{Burst, HandlerTime, LoadSpec, Per, Rate};
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::sim::runner::{wire, CapacityRequest, RunMessage, WorkerState};

/// The CLI's example: 2/s, lognormal 80 / 300 ms, a burst of 500 to drain within 2 min,
/// a partner's 10/s, 5 attempts.
fn partner() -> CapacityInput {
    CapacityInput {
        arrival_per_s: 2.0,
        handler: HandlerTime::Lognormal {
            p50_ms: 80,
            p95_ms: 300,
        },
        failure_p: 0.0,
        max_attempts: 5,
        backoff: RetryWaits::default(),
        burst: Some(Burst::AtOnce { count: 500 }),
        drain_within_ms: Some(120_000),
        target_wait_p95_ms: Some(5_000),
        downstream_rate: Some((10.0, 1)),
        our_limit_per_s: None,
        downstream_concurrency: None,
        lock: false,
        workers_max: 200,
        attempt_timeout_ms: Some(1_000),
        lease_ms: None,
        chosen: None,
    }
}

/// What a request must give.
enum Expect<'a> {
    /// An answer: its recommendation (`None`: none), whether the queue grows without end,
    /// and texts each language's HTML holds (`(en, ja)`).
    Sized(Option<u32>, bool, &'a [(&'a str, &'a str)]),
    /// A refusal: the message in English and in Japanese each holds these.
    Refused(&'a [(&'a str, &'a str)]),
}

/// Sends `request` to a worker answering in JSON and one answering in the compact form; both
/// give the same messages: progress `1..=total` in order, then what `expect` says.
fn check(request: &str, expect: Expect) {
    let (mut by_json, mut by_wire) = (Vec::new(), Vec::new());
    let last_json = WorkerState::new().handle(request, 1_000, |m| by_json.push(m));
    let last_wire = WorkerState::new().handle_wire(request, 1_000, |m| by_wire.push(m));
    by_json.push(last_json);
    by_wire.push(last_wire);
    assert_eq!(by_json.len(), by_wire.len(), "{request}");
    let messages: Vec<RunMessage> = by_wire
        .iter()
        .zip(&by_json)
        .map(|(c, j)| {
            let m = wire::decode(c).unwrap_or_else(|e| panic!("{e}: {request}"));
            assert_eq!(serde_json::to_string(&m).unwrap(), *j, "{request}");
            m
        })
        .collect();
    let (last, progress) = messages.split_last().expect("a final message");
    let mut seen = 0;
    for m in progress {
        let RunMessage::SizeProgress { done, total, .. } = m else {
            panic!("only progress before the answer: {m:?}");
        };
        assert_eq!(*done, seen + 1, "progress counts runs one by one");
        assert!(done <= total);
        seen = *done;
    }
    match (expect, last) {
        (Expect::Sized(workers, grows, texts), RunMessage::Sized { id, view }) => {
            assert_eq!(*id, 7);
            assert!(seen > 0, "progress before the answer");
            assert_eq!(view.workers, workers, "{}", view.html[0]);
            assert_eq!(view.grows, grows, "{}", view.html[0]);
            for (i, html) in view.html.iter().enumerate() {
                for chart in ["wait", "backlog"] {
                    assert!(
                        html.contains(&format!(r#"data-chart="{chart}""#)),
                        "{chart}"
                    );
                }
                assert!(html.contains("<table class=\"cap-points\">"));
                assert!(!html.contains("<script"));
                for (en, ja) in texts {
                    let want = if i == 0 { en } else { ja };
                    assert!(html.contains(want), "{want} in {html}");
                }
            }
        }
        (Expect::Refused(texts), RunMessage::SizeFailed { error, .. }) => {
            for (en, ja) in texts {
                assert!(error.message(Lang::En).contains(en), "{en}: {error:?}");
                assert!(error.message(Lang::Ja).contains(ja), "{ja}: {error:?}");
            }
        }
        (_, other) => panic!("unexpected answer to {request}: {other:?}"),
    }
}

/// The request for `input`, as the page writes it.
fn request(input: CapacityInput, seeds: u32) -> String {
    CapacityRequest {
        id: 7,
        input,
        seed: 1,
        seeds,
        jobs: Some(300),
    }
    .to_json()
}

/// The partner's numbers as a sheet's load section: 2/s, lognormal 80 / 300 ms, a burst of 500
/// to drain within 2 min, a p95 wait of 5 s.
fn partner_load() -> LoadSpec {
    LoadSpec {
        arrival: Some(Rate {
            count: 2,
            per: Per::Second,
        }),
        handler: Some(HandlerTime::Lognormal {
            p50_ms: 80,
            p95_ms: 300,
        }),
        burst: Some(Burst::AtOnce { count: 500 }),
        drain_within_ms: Some(120_000),
        target_wait_p95_ms: Some(5_000),
        ..LoadSpec::default()
    }
}

/// The worked example with `load` as its load section.
fn example_with(load: Option<LoadSpec>) -> JobSheet {
    let mut s = modality_advisor::domain::sheet::example::example(Lang::En).expect("example");
    s.load = load;
    s
}

#[test]
fn a_request_is_answered_with_progress_then_the_drawn_answer() {
    let both_charts_drawn: &[(&str, &str)] = &[
        (
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot""#,
            "class=\"plot\"",
        ),
        (r#"data-chart-data="wait""#, r#"data-chart-data="wait""#),
        (
            r#"data-chart-data="backlog""#,
            r#"data-chart-data="backlog""#,
        ),
        ("Show data", "データを表で見る"),
        ("class=\"plot-band s-band\"", "class=\"plot-band s-band\""),
        (r#"data-rule="y""#, r#"data-rule="y""#),
    ];
    // Our own limiter paces the calls at 10/s (none refused): 500 jobs need ≥ 50 s whatever
    // the workers; the deadline (2 min) is met from few workers up, the burst chart marks it.
    let paced = CapacityInput {
        downstream_rate: None,
        our_limit_per_s: Some(10.0),
        ..partner()
    };
    check(
        &request(paced, 3),
        Expect::Sized(
            Some(1),
            false,
            &[
                ("1 at once", "同時1件"),
                (r#"data-rule="x""#, r#"data-rule="x""#),
                ("Deadline 2 min", "期限2分"),
                (
                    "Backlog over time: the burst at 1 at once",
                    "同時1件でのバースト",
                ),
            ],
        ),
    );
    check(
        &request(paced, 3),
        Expect::Sized(Some(1), false, both_charts_drawn),
    );
}

#[test]
fn rho_at_or_above_one_is_an_answer_the_queue_grows_without_end() {
    // 40/s against a partner that takes 10/s: no worker count keeps up.
    let over = CapacityInput {
        arrival_per_s: 40.0,
        burst: None,
        drain_within_ms: None,
        ..partner()
    };
    check(
        &request(over, 2),
        Expect::Sized(
            None,
            true,
            &[
                ("the queue grows without end", "キューは際限なく伸びます"),
                ("Backlog growing at", "伸び続けるバックログ"),
                ("ρ ≥ 1", "ρ ≥ 1"),
            ],
        ),
    );
    // The workers alone too slow at the sheet's count: said for that count.
    let chosen = CapacityInput {
        arrival_per_s: 20.0,
        downstream_rate: None,
        burst: None,
        drain_within_ms: None,
        handler: HandlerTime::Fixed { ms: 500 },
        chosen: Some(5),
        ..partner()
    };
    check(
        &request(chosen, 2),
        Expect::Sized(
            Some(11),
            false,
            &[(
                "5 at once, ρ = 2.00 ≥ 1",
                "定義書の同時5件では ρ = 2.00 ≥ 1",
            )],
        ),
    );
}

/// ρ is never rounded onto or across 1: a count at 0.999 keeps up and one at 1.004 does not,
/// and the table said "1.00" for both (seen by a newcomer's walk of the sizing).
#[test]
fn rho_near_one_is_not_rounded_onto_it() {
    for (arrival, shown, grows) in [(0.999, "0.999", false), (1.004, "1.004", true)] {
        let near = CapacityInput {
            arrival_per_s: arrival,
            downstream_rate: None,
            burst: None,
            drain_within_ms: None,
            handler: HandlerTime::Fixed { ms: 1_000 },
            chosen: Some(1),
            ..partner()
        };
        let cell = format!("<td>{shown}</td>");
        // Below 1 nothing grows; above 1 the sentence about the sheet's count says ρ the same.
        let grows_said = [
            format!("1 at once, ρ = {shown} ≥ 1: the queue grows"),
            format!("定義書の同時1件では ρ = {shown} ≥ 1"),
        ];
        for (page, said) in sized_html(&request(near, 2)).iter().zip(&grows_said) {
            let row = page
                .split(r#"<tr data-workers="1""#)
                .nth(1)
                .and_then(|r| r.split("</tr>").next())
                .unwrap_or_else(|| panic!("a row for 1 at once: {page}"));
            assert!(row.contains(&cell), "{arrival}: {row}");
            assert!(!row.contains("<td>1.00</td>"), "{arrival}: {row}");
            assert_eq!(page.contains(said.as_str()), grows, "{arrival}: {page}");
            // A row at ρ ≥ 1 says its simulated figures are a finite run's.
            assert_eq!(row.starts_with(r#" data-grows="true""#), grows, "{row}");
            assert_eq!(row.contains("ρ ≥ 1"), grows, "{row}");
        }
    }
}

/// The drawn answer's HTML in both languages for `request` (panics on a refusal).
fn sized_html(request: &str) -> Vec<String> {
    let last = WorkerState::new().handle(request, 1_000, |_| {});
    match serde_json::from_str::<RunMessage>(&last) {
        Ok(RunMessage::Sized { view, .. }) => view.html.to_vec(),
        other => panic!("not sized: {other:?}"),
    }
}

#[test]
fn the_page_sizes_the_sheets_own_numbers() {
    let load = partner_load();
    let input = CapacityInput::from_sheet(&example_with(Some(load))).expect("sized");
    check(
        &request(input, 2),
        Expect::Sized(
            Some(2),
            false,
            &[("2 at once: p95 wait", "同時2件：待ち時間p95")],
        ),
    );
}

#[test]
fn refused_requests_name_the_field_in_both_languages() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            &request(
                CapacityInput {
                    failure_p: 1.5,
                    ..partner()
                },
                2,
            ),
            &[("failure_rate", "failure_rate"), ("0 to 0.99", "0〜0.99")],
        ),
        (
            &request(
                CapacityInput {
                    arrival_per_s: 0.0,
                    burst: None,
                    ..partner()
                },
                2,
            ),
            &[("arrivals", "arrivals"), ("out of range", "範囲外")],
        ),
        // 100,000 jobs at once × 3 (the burst run's budget) × 50 runs × 8 counts: over the
        // sweep's budget; the message names the runs per count and the range that fits.
        (
            &request(
                CapacityInput {
                    burst: Some(Burst::AtOnce { count: 100_000 }),
                    ..partner()
                },
                50,
            ),
            &[
                ("seeds", "seeds"),
                // The range first in Japanese too (it read 「指定できるのは この数値では1〜8」).
                (
                    "1 to 8 with these numbers",
                    "指定できるのは 1〜8（この数値の場合",
                ),
                ("20,000,000 simulated jobs", "20,000,000"),
            ],
        ),
        (
            &request(partner(), 0),
            &[("seeds", "seeds"), ("1 to 50", "1〜50")],
        ),
        (
            r#"{"capacity": {"id": 3, "seed": 1, "seeds": 2}}"#,
            &[("request", "request"), ("input", "input")],
        ),
    ];
    for (req, texts) in cases {
        check(req, Expect::Refused(texts));
    }
}

#[test]
fn missing_numbers_leave_the_sheet_not_sized_yet() {
    let sheet = example_with;
    let rate = Rate {
        count: 2,
        per: Per::Second,
    };
    let cases: [(Option<LoadSpec>, &str, &str); 3] = [
        (
            None,
            "Not sized yet: needs the arrival rate (mean or peak) or a burst and the handler time",
            "未算定：到着率（平均かピーク）またはバーストと処理時間",
        ),
        (
            Some(LoadSpec {
                arrival: Some(rate),
                ..LoadSpec::default()
            }),
            "Not sized yet: needs the handler time",
            "未算定：処理時間",
        ),
        (
            Some(LoadSpec {
                handler: Some(HandlerTime::Fixed { ms: 80 }),
                ..LoadSpec::default()
            }),
            "Not sized yet: needs the arrival rate",
            "未算定：到着率",
        ),
    ];
    for (load, en, ja) in cases {
        let missing = CapacityInput::from_sheet(&sheet(load)).expect_err("not sized yet");
        let (text_en, text_ja) = (
            not_sized_text(&missing, Lang::En),
            not_sized_text(&missing, Lang::Ja),
        );
        assert!(text_en.starts_with(en), "{text_en}");
        assert!(text_ja.starts_with(ja), "{text_ja}");
    }
    // With both, the sheet is sized from its own retry section.
    let full = sheet(Some(LoadSpec {
        arrival: Some(rate),
        handler: Some(HandlerTime::Fixed { ms: 80 }),
        ..LoadSpec::default()
    }));
    let input = CapacityInput::from_sheet(&full).expect("sized");
    assert_eq!(
        input.max_attempts,
        full.retry.as_ref().map_or(1, |r| r.max_attempts)
    );
}

/// "Use in the sheet" (the sheet's capacity panel): the count the worker recommends, as the
/// page gets it back, becomes the sheet's worker processes over its concurrency — sent as the
/// page reads it (`SimulatorSays`), applied as the form's edit is, and shown where the sheet
/// is read (the section's own line, the catalog's row). Nothing else in the sheet changes.
#[test]
fn a_recommended_count_used_in_the_sheet_becomes_its_worker_processes() {
    use modality_advisor::domain::catalog::import::read_sheet_as_process;
    use modality_advisor::domain::catalog::ProcessId;
    use modality_advisor::domain::catalog_rows::row;
    use modality_advisor::domain::session::simulator::SimulatorSays;
    use modality_advisor::domain::sheet::edit::SheetEdit;

    let load = LoadSpec {
        concurrency: Some(4),
        ..partner_load()
    };
    let sheet = example_with(Some(load));
    let input = CapacityInput::from_sheet(&sheet).expect("sized");
    let mut answer = None;
    let last = WorkerState::new().handle(&request(input, 3), 1_000, |_| {});
    if let RunMessage::Sized { view, .. } =
        serde_json::from_str::<RunMessage>(&last).expect("a message")
    {
        answer = view.workers;
    }
    let slots = answer.expect("a count is recommended");
    // The panel's button: processes = ⌈slots / 4⌉.
    let next = load.with_slots(slots).expect("a change");
    assert_eq!(next.workers, Some(slots.div_ceil(4)));
    assert_eq!(
        LoadSpec {
            workers: None,
            ..next
        },
        load,
        "nothing else changes"
    );
    let said = SimulatorSays::from_json(&SimulatorSays::Load(next).to_json());
    let Some(SimulatorSays::Load(got)) = said else {
        panic!("the page reads it back: {said:?}");
    };
    let edited = SheetEdit::Load(got)
        .apply(&sheet)
        .expect("applied as a form edit");
    assert_eq!(
        edited.load.and_then(|l| l.slots()),
        Some(slots.div_ceil(4) * 4)
    );
    assert!(
        edited.load.expect("a section").slots() >= Some(slots),
        "at least as many at once"
    );
    // Once used, there is nothing left to use; the catalog's row shows the count.
    assert_eq!(edited.load.expect("a section").with_slots(slots), None);
    // The sheet as a catalog's process, read as a sheet file added to the catalog is.
    let text = serde_json::to_string(&edited).expect("written");
    let p = read_sheet_as_process(&text, Lang::En, ProcessId("p1".into()), 0).expect("a process");
    let r = row(&p, Lang::En);
    assert_eq!(
        r.capacity[1],
        format!("{} × 4", slots.div_ceil(4)),
        "{:?}",
        r.capacity
    );
    // A count past the sheet's range is kept within it.
    assert_eq!(
        load.with_slots(u32::MAX).and_then(|l| l.workers),
        Some(1_000)
    );
}

/// A burst with no steady arrivals: the points table has no ρ to give (a dash, not 0.00), and
/// its intervals are written as the answer's sentence writes them (ja: 〜 in full-width
/// brackets).
#[test]
fn a_burst_alone_shows_no_rho_and_the_japanese_intervals_as_the_sentence_writes_them() {
    let burst_only = CapacityInput {
        arrival_per_s: 0.0,
        target_wait_p95_ms: None,
        ..partner()
    };
    let last = WorkerState::new().handle(&request(burst_only, 2), 1_000, |_| {});
    let view = match serde_json::from_str::<RunMessage>(&last).expect("a message") {
        RunMessage::Sized { view, .. } => view,
        other => panic!("not an answer: {other:?}"),
    };
    for html in &view.html {
        let body = &html[html.find("<tbody>").expect("the points table")..];
        let first_row = &body[..body.find("</tr>").expect("a row")];
        let cells: Vec<&str> = first_row
            .split("<td>")
            .skip(1)
            .map(|c| c.trim_end_matches("</td>"))
            .collect();
        assert_eq!(cells.first(), Some(&"—"), "ρ of a burst alone: {first_row}");
    }
    let ja = &view.html[1];
    let body = &ja[ja.find("<tbody>").expect("the points table")..];
    let body = &body[..body.find("</table>").expect("its end")];
    assert!(body.contains("〜") && body.contains("（"), "{body}");
    assert!(!body.contains("–"), "{body}");
}

/// The largest count the sheet's sizing considers follows the load (it stood at 200, or the
/// sheet's own count): 2,000/s of a handler of 200 / 800 ms (570 Erlangs) was "no count up to
/// 200 keeps up" with the sheet's count unset and "571 at once" with 100 × 7; a sheet of
/// 50 × 25 at once was refused as "workers_max: out of range". Through the page's request.
#[test]
fn the_counts_considered_follow_the_load_not_only_the_sheets_count() {
    let heavy = LoadSpec {
        arrival: Some(Rate {
            count: 2_000,
            per: Per::Second,
        }),
        handler: Some(HandlerTime::Lognormal {
            p50_ms: 200,
            p95_ms: 800,
        }),
        target_wait_p95_ms: Some(5_000),
        ..LoadSpec::default()
    };
    let answer = |load: LoadSpec| {
        // As the page's "Size it" sends it.
        let input = CapacityInput::from_sheet(&example_with(Some(load)))
            .expect("sized")
            .with_room_for_load();
        let last = WorkerState::new().handle(&request(input, 1), 1_000, |_| {});
        match serde_json::from_str::<RunMessage>(&last).expect("a message") {
            RunMessage::Sized { view, .. } => (input, view),
            other => panic!("not sized: {other:?}"),
        }
    };
    let (input, view) = answer(heavy);
    let a = input.offered_load();
    assert!((560.0..580.0).contains(&a), "{a} Erlangs");
    assert!(input.workers_max > 600, "{}", input.workers_max);
    let workers = view.workers.unwrap_or_else(|| panic!("{}", view.html[0]));
    assert!(f64::from(workers) > a, "{workers} at once for {a} Erlangs");
    assert!(!view.grows);
    assert!(!view.html[0].contains("No count up to"), "{}", view.html[0]);

    // A fleet of 50 processes × 25 threads: sized, the largest count capped at 1,000.
    let fleet = LoadSpec {
        workers: Some(50),
        concurrency: Some(25),
        ..heavy
    };
    let (input, view) = answer(fleet);
    assert_eq!(input.workers_max, 1_000);
    assert_eq!(input.chosen, Some(1_250));
    assert!(view.workers.is_some(), "{}", view.html[0]);

    // A light load keeps the default 200.
    let input = CapacityInput::from_sheet(&example_with(Some(partner_load())))
        .expect("sized")
        .with_room_for_load();
    assert_eq!(input.workers_max, 200);
}

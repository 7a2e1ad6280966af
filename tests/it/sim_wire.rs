//! The worker's compact answers (`runner::wire`): every message the worker posts reads back
//! as the same message its JSON form is (progress, a finished run with and without frames,
//! charts and log, the load preset, a refused config, log slices and log errors), and
//! anything else is an error, never a panic.

use modality_advisor::domain::sim::runner::{
    wire, LogRequest, Preset, RunMessage, RunRequest, RunSpec, WorkerState, LOAD_SCENARIO,
};
use modality_advisor::domain::sim::setup::knobs::CustomRun;

/// Sends `request` to two workers, one answering in JSON and one in the compact form, and
/// checks that every message (progress, then the final one) reads back the same.
fn same_answers(w: &TwoWorkers, request: &str) -> RunMessage {
    let (mut by_json, mut by_wire) = (Vec::new(), Vec::new());
    let last_json = w.0.borrow_mut().handle(request, 500, |m| by_json.push(m));
    let last_wire =
        w.1.borrow_mut()
            .handle_wire(request, 500, |m| by_wire.push(m));
    by_json.push(last_json);
    by_wire.push(last_wire);
    assert_eq!(by_json.len(), by_wire.len(), "as many messages: {request}");
    let mut last = None;
    for (j, c) in by_json.iter().zip(&by_wire) {
        let from_wire = wire::decode(c).unwrap_or_else(|e| panic!("{e}: {request}"));
        // The same message: written as JSON, it is the JSON text the worker would post.
        // (Compared as text: reading JSON back may round a float's last bit; the compact
        // form keeps every bit.)
        assert_eq!(
            serde_json::to_string(&from_wire).expect("json"),
            *j,
            "{request}"
        );
        // The compact form is a string of byte-sized chars and never the bare "ready".
        assert!(c.chars().all(|ch| u32::from(ch) <= 0xFF));
        assert_ne!(c, "ready");
        last = Some(from_wire);
    }
    last.expect("a final message")
}

/// Two workers fed the same requests.
struct TwoWorkers(
    std::cell::RefCell<WorkerState>,
    std::cell::RefCell<WorkerState>,
);

fn workers() -> TwoWorkers {
    TwoWorkers(
        std::cell::RefCell::new(WorkerState::new()),
        std::cell::RefCell::new(WorkerState::new()),
    )
}

fn run_json(id: u64, preset: Preset) -> String {
    let spec = RunSpec {
        preset,
        seed: Some(11),
    };
    serde_json::to_string(&RunRequest::new(id, &spec).expect("runs in the worker")).expect("json")
}

fn scenario(name: &str, variant: Option<&str>) -> Preset {
    Preset::Scenario {
        name: name.into(),
        variant: variant.map(str::to_owned),
    }
}

#[test]
fn every_run_kind_reads_back_the_same_in_the_compact_form() {
    let w = workers();
    let runs = [
        // Frames, charts, a log with names and errors.
        scenario("retry-dead-letter", None),
        scenario("claim-race", Some("atomic")),
        // No charts, no frames: the contention figures.
        scenario("jitter-contention", None),
        // Progress messages, a summarised table, no log.
        Preset::Load { jobs: 3_000 },
        Preset::YourSettings(CustomRun {
            jobs: 200,
            ..CustomRun::default()
        }),
    ];
    for (i, preset) in runs.into_iter().enumerate() {
        let id = i as u64 + 1;
        match same_answers(&w, &run_json(id, preset.clone())) {
            RunMessage::Done { id: done, view } => {
                assert_eq!(done, id);
                assert_eq!(view.run_id, id, "{preset:?}");
            }
            other => panic!("{preset:?} did not finish: {other:?}"),
        }
    }
}

#[test]
fn refused_runs_and_log_answers_read_back_the_same() {
    let w = workers();
    // Findings, typed: a bad config, an unknown scenario, a request that is not JSON.
    let bad = RunRequest {
        custom: Some(CustomRun {
            max_attempts: 0,
            ..CustomRun::default()
        }),
        ..serde_json::from_str::<RunRequest>(&run_json(3, scenario("claim-race", None)))
            .expect("a request")
    };
    for request in [
        serde_json::to_string(&bad).expect("json"),
        run_json(4, scenario("no-such-scenario", None)),
        "not json".to_owned(),
    ] {
        assert!(
            matches!(same_answers(&w, &request), RunMessage::Failed { ref errors, .. } if !errors.is_empty()),
            "{request}"
        );
    }
    let log = |log_of: u64, from: u64, count: u32| {
        serde_json::to_string(&LogRequest {
            log_of,
            from,
            count,
        })
        .expect("json")
    };
    // No log held yet, then a run's log in slices, then out of range.
    assert!(matches!(
        same_answers(&w, &log(5, 0, 10)),
        RunMessage::LogError { .. }
    ));
    let load = serde_json::to_string(&RunRequest {
        id: 5,
        scenario: LOAD_SCENARIO.into(),
        variant: None,
        seed: 3,
        jobs: Some(500),
        custom: None,
    })
    .expect("json");
    assert!(matches!(same_answers(&w, &load), RunMessage::Done { .. }));
    match same_answers(&w, &log(5, 100, 50)) {
        RunMessage::LogSlice { from, entries, .. } => {
            assert_eq!(from, 100);
            assert_eq!(entries.len(), 50);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        same_answers(&w, &log(5, u64::MAX, 1)),
        RunMessage::LogError { .. }
    ));
}

#[test]
fn anything_else_is_an_error_not_a_panic() {
    let done =
        WorkerState::new().handle_wire(&run_json(1, scenario("claim-race", None)), 500, |_| {});
    assert!(wire::decode(&done).is_ok());
    // Cut anywhere, or with a byte more: refused.
    let chars: Vec<char> = done.chars().collect();
    for cut in [0, 1, chars.len() / 2, chars.len() - 1] {
        let text: String = chars[..cut].iter().collect();
        assert!(wire::decode(&text).is_err(), "cut at {cut}");
    }
    assert!(wire::decode(&format!("{done}\u{0}")).is_err());
    for text in [
        "ready",
        "{\"done\":{\"id\":1}}",
        "\u{3042}",
        "\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}",
        "\u{1}\u{1}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}",
    ] {
        assert!(wire::decode(text).is_err(), "{text:?}");
    }
}

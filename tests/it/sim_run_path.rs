//! The one run path: the CLI and the worker run the same typed description ([`RunSpec`]) and
//! agree on the trace; every run kind's view carries the run id its log requests name (the
//! "Your settings" log could not be read past its head when it did not); a refused config
//! stays typed across the worker boundary and reads in Japanese and English.

use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sim::runner::{
    execute, LogRequest, Preset, Purpose, RunMessage, RunRequest, RunSpec, WorkerState,
    LOAD_SCENARIO, LOG_HEAD,
};
use modality_advisor::domain::sim::setup::knobs::CustomRun;
use modality_advisor::domain::sim::ConfigError;

/// Sends `json` to `state` and reads the final answer.
fn answer(state: &mut WorkerState, json: &str) -> RunMessage {
    let out = state.handle(json, 1_000, |_| {});
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not a message ({e}): {out}"))
}

/// Runs `spec` in `state` as request `id`; the finished view.
fn run_in_worker(
    state: &mut WorkerState,
    id: u64,
    spec: &RunSpec,
) -> modality_advisor::domain::sim::runner::RunView {
    let req = RunRequest::new(id, spec).expect("a preset the worker runs");
    match answer(state, &serde_json::to_string(&req).expect("json")) {
        RunMessage::Done { id: done, view } => {
            assert_eq!(done, id);
            *view
        }
        other => panic!("expected a run, got {other:?}"),
    }
}

fn your_settings(jobs: u64) -> CustomRun {
    CustomRun {
        jobs,
        ..CustomRun::default()
    }
}

fn specs() -> Vec<RunSpec> {
    let spec = |preset| RunSpec {
        preset,
        seed: Some(7),
    };
    vec![
        spec(Preset::Scenario {
            name: "claim-race".into(),
            variant: Some("atomic".into()),
        }),
        spec(Preset::Scenario {
            name: "jitter-contention".into(),
            variant: None,
        }),
        spec(Preset::Load { jobs: 3_000 }),
        spec(Preset::YourSettings(your_settings(300))),
    ]
}

#[test]
fn the_cli_and_the_worker_give_the_same_trace_for_the_same_preset_and_seed() {
    let mut state = WorkerState::new();
    for (i, spec) in specs().iter().enumerate() {
        let (_, cli_hash) = execute(spec, Purpose::Report, |_| {})
            .expect("runs")
            .report();
        let view = run_in_worker(&mut state, i as u64 + 1, spec);
        assert_eq!(view.trace_hash, cli_hash, "{spec:?}");
    }
}

#[test]
fn the_cli_binary_prints_the_workers_hash() {
    // The settings as the page downloads them, run by the CLI process with the same seed.
    let settings = your_settings(300);
    let spec = RunSpec {
        preset: Preset::YourSettings(settings.clone()),
        seed: Some(11),
    };
    let view = run_in_worker(&mut WorkerState::new(), 1, &spec);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("run-path.config.json");
    let file = serde_json::to_string(&settings.to_file(11)).expect("json");
    std::fs::write(&path, file).expect("writes");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(["simulate", "--config", path.to_str().expect("utf-8")])
        .output()
        .expect("runs the CLI");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with(&format!("trace hash: {}\n", view.trace_hash)),
        "{text}"
    );
    // The load preset by name, as the page runs it.
    let load = RunSpec {
        preset: Preset::Load { jobs: 2_500 },
        seed: Some(3),
    };
    let view = run_in_worker(&mut WorkerState::new(), 9, &load);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(["simulate", "--scenario", LOAD_SCENARIO, "--jobs", "2500"])
        .args(["--seed", "3", "--log-lines", "0"])
        .output()
        .expect("runs the CLI");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&view.trace_hash), "{text}");
}

#[test]
fn every_run_kind_carries_its_run_id() {
    let mut state = WorkerState::new();
    for (i, spec) in specs().iter().enumerate() {
        let id = 40 + i as u64;
        assert_eq!(run_in_worker(&mut state, id, spec).run_id, id, "{spec:?}");
    }
}

#[test]
fn a_your_settings_log_reads_past_its_head_with_the_id_the_run_returned() {
    let mut state = WorkerState::new();
    let spec = RunSpec {
        preset: Preset::YourSettings(your_settings(2_000)),
        seed: Some(1),
    };
    // Not 0 and not 1: an id the page's counter reaches after a few runs.
    let view = run_in_worker(&mut state, 17, &spec);
    assert!(view.log_total > 2 * LOG_HEAD as u64, "{}", view.log_total);
    let ask = |state: &mut WorkerState, from: u64| {
        let req = LogRequest {
            log_of: view.run_id,
            from,
            count: 50,
        };
        match answer(state, &serde_json::to_string(&req).expect("json")) {
            RunMessage::LogSlice {
                id,
                from: f,
                entries,
                ..
            } => {
                assert_eq!((id, f), (view.run_id, from));
                entries
            }
            other => panic!("the log of the run shown must be readable: {other:?}"),
        }
    };
    let middle = ask(&mut state, view.log_total * 6 / 10);
    let end = ask(&mut state, view.log_total - 10);
    assert_eq!(end.len(), 10);
    assert_eq!(middle.len(), 50);
    // Real lines of the middle and the end, not the head again.
    let head_line = view.log_line(&view.log_head[0]).to_string();
    let mid_line = view.log_line(&middle[0]).to_string();
    let end_line = view.log_line(&end[9]).to_string();
    assert_ne!(mid_line, head_line);
    assert_ne!(end_line, mid_line);
    assert!(middle[0].time >= view.log_head[LOG_HEAD - 1].time);
}

#[test]
fn a_refused_config_stays_typed_across_the_worker_and_reads_in_both_languages() {
    let bad = CustomRun {
        max_attempts: 0,
        ..CustomRun::default()
    };
    let spec = RunSpec {
        preset: Preset::YourSettings(bad),
        seed: Some(1),
    };
    let req = RunRequest::new(5, &spec).expect("a request");
    let out = WorkerState::new().handle(&serde_json::to_string(&req).expect("json"), 100, |_| {});
    let RunMessage::Failed { id, errors } = serde_json::from_str(&out).expect("a message") else {
        panic!("expected a refusal: {out}");
    };
    assert_eq!(id, 5);
    let e = errors
        .iter()
        .find(|e| e.field() == "kinds[0].max_attempts")
        .expect("the field is named");
    assert!(matches!(e, ConfigError::OutOfRange { .. }), "{e:?}");
    // The message round-trips as JSON unchanged.
    let again: RunMessage = serde_json::from_str(
        &serde_json::to_string(&RunMessage::Failed {
            id,
            errors: errors.clone(),
        })
        .expect("json"),
    )
    .expect("reads back");
    assert_eq!(
        again,
        RunMessage::Failed {
            id,
            errors: errors.clone()
        }
    );
    assert_eq!(e.message(Lang::En), e.to_string());
    assert_eq!(
        e.message(Lang::En),
        "kinds[0].max_attempts is 0; allowed: 1 to 1000"
    );
    assert_eq!(
        e.message(Lang::Ja),
        "kinds[0].max_attempts が 0 です。1〜1000 の範囲で指定してください"
    );
}

#[test]
fn every_config_error_reads_in_japanese_and_as_the_cli_prints_it_in_english() {
    use modality_advisor::domain::sim::Reason;
    let all = [
        ConfigError::Parse {
            field: "request".into(),
            message: "expected value at line 1 column 1".into(),
        },
        ConfigError::int_range("workers.count", 20_000, 0, 10_000),
        ConfigError::CapBelowBase {
            field: "retry".into(),
            base_ms: 10.0,
            cap_ms: 5.0,
        },
        ConfigError::NoWorkers { jobs: 3 },
        ConfigError::LoadJobs { jobs: 0 },
        ConfigError::Invalid {
            field: "scenario".into(),
            reason: Reason::UnknownScenario {
                got: "nope".into(),
                allowed: vec!["claim-race".into()],
            },
        },
        ConfigError::Invalid {
            field: "variant".into(),
            reason: Reason::UnknownVariant {
                got: "x".into(),
                scenario: "claim-race".into(),
                allowed: vec!["skip-locked".into()],
            },
        },
        ConfigError::Invalid {
            field: "kinds[0].calls_downstream".into(),
            reason: Reason::NoDownstream,
        },
        ConfigError::Invalid {
            field: "kinds".into(),
            reason: Reason::NoKind,
        },
        ConfigError::Invalid {
            field: "downstream.outage".into(),
            reason: Reason::OutageBackwards {
                from_ms: 5,
                until_ms: 1,
            },
        },
        ConfigError::Invalid {
            field: "kinds[0].duration.max_ms".into(),
            reason: Reason::MaxBelowMin {
                min_ms: 5,
                max_ms: 1,
            },
        },
    ];
    for e in &all {
        let back: ConfigError =
            serde_json::from_str(&serde_json::to_string(e).expect("json")).expect("reads back");
        assert_eq!(&back, e);
        assert_eq!(e.message(Lang::En), e.to_string());
        // The English translations in the locale file say the same as the CLI.
        let ja = e.message(Lang::Ja);
        assert!(ja.contains(e.field()), "{ja}");
        assert!(
            ja.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c)),
            "Japanese: {ja}"
        );
        assert_ne!(ja, e.to_string());
    }
    assert_eq!(
        all[4].to_string(),
        "jobs: 0 is out of range; allowed: 1 to 1000000"
    );
}

#[test]
fn the_cli_words_a_refused_config_in_japanese_with_lang_ja_only() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("run-path-bad.config.json");
    let bad = CustomRun {
        max_attempts: 0,
        ..CustomRun::default()
    };
    std::fs::write(&path, serde_json::to_string(&bad.to_file(1)).expect("json")).expect("writes");
    let file = path.to_str().expect("utf-8");
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
            .args(["simulate", "--config", file])
            .args(extra)
            .output()
            .expect("runs the CLI");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let en = run(&[]);
    assert!(
        en.contains("kinds[0].max_attempts is 0; allowed: 1 to 1000"),
        "{en}"
    );
    assert_eq!(run(&["--lang", "en"]), en);
    let ja = run(&["--lang", "ja"]);
    assert!(
        ja.contains("kinds[0].max_attempts が 0 です。1〜1000 の範囲で指定してください"),
        "{ja}"
    );
}

#[test]
fn compares_alternatives_are_chosen_in_the_domain_and_each_run_has_its_id() {
    use modality_advisor::domain::sim::runner::{alternatives, Alternative};
    use modality_advisor::domain::sim::setup::knobs::Change;
    let preset = RunSpec {
        preset: Preset::Scenario {
            name: "duplicate-execution".into(),
            variant: Some("plain".into()),
        },
        seed: Some(1),
    };
    let alts = alternatives(&preset);
    assert_eq!(alts[0], Alternative::Variant("idempotency-key"));
    assert!(!alts.contains(&Alternative::Variant("plain")));
    let settings = RunSpec {
        preset: Preset::YourSettings(your_settings(300)),
        seed: Some(4),
    };
    assert_eq!(
        alternatives(&settings),
        Change::all_for(&your_settings(300))
            .map(Alternative::Change)
            .to_vec()
    );
    assert!(alternatives(&RunSpec {
        preset: Preset::Load { jobs: 10 },
        seed: Some(1),
    })
    .is_empty());
    // A then B in one worker, as Compare runs them: B on A's seed, each view named by its id.
    let mut state = WorkerState::new();
    for a in [&preset, &settings] {
        let b = alternatives(a)[0].apply(a);
        assert_eq!(b.seed, a.seed);
        assert_ne!(&b, a);
        let va = run_in_worker(&mut state, 70, a);
        let vb = run_in_worker(&mut state, 71, &b);
        assert_eq!((va.run_id, vb.run_id), (70, 71));
        assert_eq!(va.seed, vb.seed);
    }
}

//! "Your settings": pre-filled from the sheet, checked knob by knob (ja and en), mapped to the
//! CLI's config file with the same trace; the key-number diff of two runs.

use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sim::results::compare::{default_alternative, diff, KeyNumbers};
use modality_advisor::domain::sim::runner::{handle, run, RunMessage, RunRequest};
use modality_advisor::domain::sim::setup::knobs::{
    Ack, ArrivalMode, Change, CrashPoint, CustomRun, DurationMode, KeyFrom, Knob, KnobError,
};
use modality_advisor::domain::sim::{Growth, Jitter, Scenario};
use std::process::Command;

fn example(name: &str) -> CustomRun {
    let path = format!("{}/static/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sheet = import_json(&text, Lang::En).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    CustomRun::from_sheet(&sheet)
}

#[test]
fn the_example_sheets_prefill_the_sheet_knobs() {
    for (name, permanent) in [
        ("reservation-mail.json", "宛先アドレスの形式エラー"),
        ("reservation-mail.en.json", "malformed address"),
    ] {
        let c = example(name);
        assert!(c.from_sheet, "{name}");
        assert_eq!(c.max_attempts, 5, "{name}");
        assert_eq!(c.growth, Growth::Exponential, "{name}");
        assert_eq!((c.base_ms, c.cap_ms), (10_000, 600_000), "{name}");
        assert_eq!(c.jitter, Jitter::Full, "{name}");
        assert_eq!(c.lease_ms, 60_000, "{name}");
        assert!(c.idempotency_key, "{name}: the sheet names a key");
        assert!(
            c.classify_errors,
            "{name}: the sheet lists permanent errors"
        );
        assert_eq!(c.permanent_error, permanent, "{name}");
        // Load knobs are the defaults.
        assert_eq!((c.workers, c.jobs), (2, 20), "{name}");
        assert!(c.validate().is_empty(), "{name}: {:?}", c.validate());
    }
}

#[test]
fn an_edited_sheet_carries_its_values_and_no_key_means_off() {
    let path = format!(
        "{}/static/examples/reservation-mail.en.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("example");
    let mut sheet = import_json(&text, Lang::En).expect("imports");
    if let Some(r) = sheet.retry.as_mut() {
        r.max_attempts = 3;
        r.backoff.kind = modality_advisor::domain::sheet::BackoffKind::Fixed;
        r.backoff.base_ms = 200;
        r.backoff.cap_ms = 200;
        r.backoff.jitter = Jitter::None;
        r.lease_ms = 45_000;
        r.idempotency_key = "  ".into();
        r.non_retryable_errors.clear();
    }
    let c = CustomRun::from_sheet(&sheet);
    assert_eq!(
        (c.max_attempts, c.growth, c.base_ms, c.cap_ms, c.jitter),
        (3, Growth::Fixed, 200, 200, Jitter::None)
    );
    assert_eq!(c.lease_ms, 45_000);
    assert!(!c.idempotency_key);
    assert!(!c.classify_errors);
    // A sheet without a retry section (a synchronous outcome) gives the defaults, unmarked.
    sheet.retry = None;
    let d = CustomRun::from_sheet(&sheet);
    assert!(!d.from_sheet);
    assert_eq!(d, CustomRun::default());
}

/// One finding per line: knob, value given, expected message (en, ja).
#[test]
fn validate_names_the_knob_and_the_allowed_range_in_both_languages() {
    let base = CustomRun::default();
    let cases: [(Knob, u64, &str, &str); 8] = [
        (
            Knob::MaxAttempts,
            0,
            "Max attempts: 0 attempts is out of range; allowed 1 attempts to 100 attempts.",
            "最大試行回数：0回 は範囲外です。1回〜100回 の範囲で指定してください。",
        ),
        (
            Knob::Workers,
            5_000,
            "Workers: 5,000 workers is out of range; allowed 1 workers to 1,000 workers.",
            "ワーカー数：5,000台 は範囲外です。1台〜1,000台 の範囲で指定してください。",
        ),
        (
            Knob::Jobs,
            100_001,
            "Jobs: 100,001 jobs is out of range; allowed 1 jobs to 100,000 jobs.",
            "ジョブ数：100,001件 は範囲外です。1件〜100,000件 の範囲で指定してください。",
        ),
        (
            Knob::FailurePercent,
            101,
            "Failure probability: 101 % is out of range; allowed 0 % to 100 %.",
            "失敗の確率：101% は範囲外です。0%〜100% の範囲で指定してください。",
        ),
        (
            Knob::Lease,
            0,
            "Lease / visibility timeout: 0 s is out of range; allowed 1 ms to 1 d.",
            "リース（可視性タイムアウト）：0秒 は範囲外です。1ミリ秒〜1日 の範囲で指定してください。",
        ),
        // The rate limit's burst: a bucket of no call lets nothing through.
        (
            Knob::RateBurst,
            0,
            "Rate limit burst: 0 calls is out of range; allowed 1 calls to 1,000,000 calls.",
            "レート制限のバースト：0件 は範囲外です。1件〜1,000,000件 の範囲で指定してください。",
        ),
        // The handler time's p95 names the p50 it must reach.
        (
            Knob::DurationHiMs,
            100,
            "Handler time (max / p95): 100 ms is below Handler time (fixed / min / mean / p50); allowed 200 ms to 1 h.",
            "処理時間（最大・p95）：100ミリ秒 は「処理時間（固定・最小・平均・p50）」より小さくなっています。200ミリ秒〜1時間 の範囲で指定してください。",
        ),
        (
            Knob::CapWait,
            5_000,
            "Longest wait: 5 s is below First wait; allowed 10 s to 7 d.",
            "待ち時間の上限：5秒 は「最初の待ち時間」より小さくなっています。10秒〜7日 の範囲で指定してください。",
        ),
    ];
    for (knob, v, en, ja) in cases {
        let errs = base.with(knob, v).validate();
        assert_eq!(errs.len(), 1, "{knob:?}: {errs:?}");
        assert_eq!(errs[0].knob(), knob);
        assert_eq!(errs[0].message(Lang::En), en);
        assert_eq!(errs[0].message(Lang::Ja), ja);
    }
    // Every finding at once; a lognormal needs a median of at least 1 ms.
    let bad = base
        .with(Knob::MaxAttempts, 0)
        .with(Knob::DurationMs, 0)
        .with(Knob::CrashPercent, 300);
    let knobs: Vec<Knob> = bad.validate().iter().map(KnobError::knob).collect();
    assert_eq!(
        knobs,
        [Knob::MaxAttempts, Knob::DurationMs, Knob::CrashPercent]
    );
}

#[test]
fn every_knob_has_a_label_and_help_in_both_languages() {
    for k in Knob::ALL {
        for lang in [Lang::En, Lang::Ja] {
            for text in [k.label(lang), k.help(lang)] {
                assert!(!text.starts_with("knobs."), "{k:?} {lang:?}: {text}");
            }
        }
        assert_ne!(k.label(Lang::En), k.label(Lang::Ja), "{k:?}");
    }
}

fn cli_json(path: &std::path::Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(["simulate", "--config"])
        .arg(path)
        .args(["--format", "json"])
        .output()
        .expect("runs the CLI");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn custom_req(c: &CustomRun, seed: u64) -> RunRequest {
    RunRequest {
        id: 4,
        scenario: String::new(),
        variant: None,
        seed,
        jobs: None,
        custom: Some(c.clone()),
    }
}

#[test]
fn a_custom_run_downloaded_as_json_gives_the_clis_trace() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let mut configs = vec![
        example("reservation-mail.json"),
        CustomRun {
            crash_percent: 30,
            idempotency_key: false,
            ..CustomRun::default()
        },
    ];
    // Poisson arrivals, uniform durations, a downstream with a rate limit and an outage.
    configs.push(CustomRun {
        arrivals: ArrivalMode::Poisson,
        duration: DurationMode::Uniform,
        duration_ms: 10,
        duration_hi_ms: 50,
        downstream: true,
        rate_limit_per_s: 3,
        outage_from_ms: 1_000,
        outage_for_ms: 2_000,
        ..CustomRun::default()
    });
    // The lease knobs: a handler longer than the lease with the owner check and heartbeats;
    // acknowledging before the work with crashes before the side effect.
    configs.push(CustomRun {
        duration: DurationMode::Fixed,
        duration_ms: 1_500,
        lease_ms: 1_000,
        owner_check: true,
        heartbeat_ms: 400,
        ..CustomRun::default()
    });
    configs.push(CustomRun {
        crash_percent: 40,
        crash_point: CrashPoint::BeforeEffect,
        ack: Ack::Before,
        ..CustomRun::default()
    });
    configs.push(CustomRun {
        duplicate_after_ms: 1_500,
        key_from: KeyFrom::JobId,
        ..CustomRun::default()
    });
    for (i, c) in configs.iter().enumerate() {
        assert!(c.validate().is_empty(), "{i}: {:?}", c.validate());
        let seed = 11 + i as u64;
        let view = run(&custom_req(c, seed), 1_000, |_| {}).expect("runs");
        let path = dir.join(format!("custom-{i}.json"));
        let text = serde_json::to_string_pretty(&c.to_file(seed)).expect("serialises");
        std::fs::write(&path, text).expect("writes");
        let cli = cli_json(&path);
        assert_eq!(
            cli["trace_hash"].as_str(),
            Some(view.trace_hash.as_str()),
            "config {i}"
        );
        assert_eq!(
            (view.scenario.as_str(), view.variant.as_str()),
            ("config", "file")
        );
        assert_eq!(view.seed, seed);
        let rows = if c.duplicate_after_ms > 0 { 2 } else { 1 } * c.jobs;
        assert_eq!(
            view.counts.iter().sum::<u64>(),
            rows,
            "config {i}: every job (and resubmission) is in the table"
        );
    }
}

#[test]
fn a_refused_config_fails_naming_the_fields_without_a_panic() {
    // The page refuses these before sending; the worker refuses them too.
    let bad = CustomRun {
        max_attempts: 0,
        crash_percent: 300,
        ..CustomRun::default()
    };
    let req = custom_req(&bad, 1);
    let out = handle(
        &serde_json::to_string(&req).expect("serialises"),
        100,
        |_| {},
    );
    match serde_json::from_str::<RunMessage>(&out).expect("a message") {
        RunMessage::Failed { id, errors } => {
            assert_eq!(id, 4);
            let all = errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n");
            assert!(all.contains("workers.crash_probability"), "{all}");
            assert!(all.contains("kinds[0].max_attempts"), "{all}");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn the_idempotency_key_and_crashes_show_in_the_key_numbers() {
    let a = CustomRun {
        crash_percent: 50,
        idempotency_key: false,
        failure_percent: 0,
        ..CustomRun::default()
    };
    let b = a.changed(Change::IdempotencyKey);
    assert!(b.idempotency_key);
    let ka = run(&custom_req(&a, 5), 1_000, |_| {}).expect("runs").key;
    let kb = run(&custom_req(&b, 5), 1_000, |_| {}).expect("runs").key;
    assert!(
        ka.duplicates > 0,
        "crashes after the effect duplicate it: {ka:?}"
    );
    assert_eq!(ka.balance, Some(100 * (20 + ka.duplicates as i64)));
    assert_eq!(kb.duplicates, 0);
    assert_eq!(kb.balance, Some(2_000), "the key keeps one effect per job");
    assert!(kb.prevented > 0);
}

fn k(f: impl FnOnce(&mut KeyNumbers)) -> KeyNumbers {
    let mut k = KeyNumbers {
        queue: true,
        ..KeyNumbers::default()
    };
    f(&mut k);
    k
}

/// Data-driven: two sets of key numbers and the lines their diff shows.
#[test]
fn diff_lines_call_out_the_changes() {
    let check = |a: KeyNumbers, b: KeyNumbers, want: &[&str]| {
        let got: Vec<String> = diff(&a, &b).iter().map(ToString::to_string).collect();
        assert_eq!(got, want);
    };
    check(
        k(|k| {
            k.done = 1;
            k.runs = 2;
            k.balance = Some(200);
            k.duplicates = 1;
            k.end_s = 1031.0;
        }),
        k(|k| {
            k.done = 1;
            k.runs = 2;
            k.balance = Some(100);
            k.prevented = 1;
            k.end_s = 1031.0;
        }),
        &[
            "done: 1 = 1",
            "dead: 0 = 0",
            "runs: 2 = 2",
            "balance: 200 → 100",
            "duplicates: 1 → 0",
            "prevented: 0 → 1",
            "end: 1,031 s = 1,031 s",
        ],
    );
    check(
        k(|k| {
            k.done = 5;
            k.dead = 5;
            k.runs = 40;
            k.calls = 40;
            k.calls_ok = 5;
            k.calls_busy = 35;
            k.p95_ms = Some(120_300.0);
            k.end_s = 120.5;
        }),
        k(|k| {
            k.done = 10;
            k.runs = 10;
            k.calls = 10;
            k.calls_ok = 10;
            k.p95_ms = Some(2_960.0);
            k.end_s = 3.0;
        }),
        &[
            "done: 5 → 10",
            "dead: 5 → 0",
            "runs: 40 → 10 (−75 %)",
            "calls: 40 → 10 (−75 %)",
            "calls-ok: 5 → 10",
            "calls-busy: 35 → 0",
            "p95: 2.0 min → 0.05 min (−98 %)",
            "end: 121 s → 3.0 s (−98 %)",
        ],
    );
    // The jitter study: only its two means.
    check(
        KeyNumbers {
            contention: Some((3.4, 1200.0)),
            ..KeyNumbers::default()
        },
        KeyNumbers {
            contention: Some((1.7, 900.0)),
            ..KeyNumbers::default()
        },
        &[
            "mean-calls: 3.4 → 1.7 (−50 %)",
            "mean-completion: 1.2 s → 0.90 s (−25 %)",
        ],
    );
}

#[test]
fn presets_compare_with_their_teaching_variant_and_the_seed_numbers_show() {
    let pairs = [
        ("duplicate-execution", "plain", "idempotency-key"),
        ("duplicate-execution", "idempotency-key", "plain"),
        ("jitter-contention", "none", "full"),
        ("burst-leveling", "queue-redelivery", "two-tier-jitter"),
        ("claim-race", "two-statement", "atomic"),
        ("retry-dead-letter", "seed", "classified"),
    ];
    for (sc, a, b) in pairs {
        let variants = Scenario::parse(sc).expect("known").variants();
        assert_eq!(default_alternative(sc, a, variants), Some(b), "{sc} {a}");
    }
    let view = |v: &str| {
        run(
            &RunRequest {
                id: 1,
                scenario: "duplicate-execution".into(),
                variant: Some(v.into()),
                seed: 1,
                jobs: None,
                custom: None,
            },
            1_000,
            |_| {},
        )
        .expect("runs")
        .key
    };
    let lines: Vec<String> = diff(&view("plain"), &view("idempotency-key"))
        .iter()
        .filter(|l| l.differs)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        [
            "balance: 200 → 100",
            "duplicates: 1 → 0",
            "prevented: 0 → 1"
        ]
    );
}

#[test]
fn change_labels_say_what_changes() {
    let check = |workers: u32, change: Change, lang: Lang, want: &str| {
        let c = CustomRun {
            workers,
            ..CustomRun::default()
        };
        assert_eq!(c.change_label(change, lang), want, "{workers} {change:?}");
    };
    check(
        2,
        Change::IdempotencyKey,
        Lang::En,
        "Idempotency key: on → off",
    );
    check(2, Change::Jitter, Lang::Ja, "ジッター：フル → なし");
    // The worker count changes by any amount, not only twice (3 → 4, as issue 25 asked),
    // and is brought into the knob's range 1 ..= 1,000.
    check(3, Change::Workers(4), Lang::En, "Workers: 3 → 4");
    check(3, Change::Workers(6), Lang::En, "Workers: 3 → 6");
    check(3, Change::Workers(2), Lang::Ja, "ワーカー数：3 → 2");
    check(3, Change::Workers(0), Lang::En, "Workers: 3 → 1");
    check(3, Change::Workers(u32::MAX), Lang::En, "Workers: 3 → 1,000");
}

#[test]
fn compare_offers_one_more_worker_by_default() {
    use modality_advisor::domain::sim::setup::knobs::next_workers;
    let check = |a: u32, b: u32| {
        let c = CustomRun {
            workers: a,
            ..CustomRun::default()
        };
        assert_eq!(next_workers(a), b, "{a}");
        assert!(Change::all_for(&c).contains(&Change::Workers(b)), "{a}");
        assert_eq!(c.changed(Change::Workers(b)).workers, b, "{a}");
    };
    check(3, 4);
    check(1, 2);
    check(999, 1_000);
    // At the knob's maximum, one fewer.
    check(1_000, 999);
}

#[test]
fn the_lease_knobs_reach_the_run_and_a_heartbeat_must_beat_the_lease() {
    // A handler of 1.5 s under a 1 s lease: without heartbeats a second worker takes the job
    // while the first still runs; beating every 400 ms keeps the lease, so it runs once.
    let base = CustomRun {
        jobs: 1,
        workers: 2,
        duration: DurationMode::Fixed,
        duration_ms: 1_500,
        lease_ms: 1_000,
        failure_percent: 0,
        idempotency_key: false,
        ..CustomRun::default()
    };
    let runs = |c: &CustomRun| {
        let view = run(&custom_req(c, 3), 1_000, |_| {}).expect("runs");
        (view.key.runs, view.key.duplicates)
    };
    assert_eq!(runs(&base), (2, 1), "the lease runs out under the handler");
    let beating = CustomRun {
        heartbeat_ms: 400,
        ..base.clone()
    };
    assert!(beating.validate().is_empty(), "{:?}", beating.validate());
    assert_eq!(runs(&beating), (1, 0), "heartbeats keep the lease");
    // A heartbeat as long as the lease cannot keep it: refused, naming the range.
    let late = CustomRun {
        heartbeat_ms: 1_000,
        ..base.clone()
    };
    let errs = late.validate();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].knob(), Knob::HeartbeatMs);
    let en = errs[0].message(Lang::En);
    assert!(en.contains("Heartbeat") && en.contains("999 ms"), "{en}");
    assert!(errs[0].message(Lang::Ja).contains("ハートビート"));
    // Settings saved before these knobs existed still load, with them off.
    let mut old = serde_json::to_value(&base).expect("serialises");
    for k in ["owner_check", "heartbeat_ms", "ack", "crash_point"] {
        old.as_object_mut().expect("an object").remove(k);
    }
    let back: CustomRun = serde_json::from_value(old).expect("old settings load");
    assert_eq!(back, base);
}

#[test]
fn the_same_request_twice_is_caught_by_a_key_from_the_request_not_from_the_job_id() {
    let base = CustomRun {
        jobs: 1,
        failure_percent: 0,
        duplicate_after_ms: 2_000,
        ..CustomRun::default()
    };
    let balance = |c: &CustomRun| {
        assert!(c.validate().is_empty(), "{:?}", c.validate());
        let view = run(&custom_req(c, 1), 1_000, |_| {}).expect("runs");
        (view.balance, view.key.prevented)
    };
    assert_eq!(
        balance(&base),
        (Some(100), 1),
        "the order's key stops the second"
    );
    let by_job = CustomRun {
        key_from: KeyFrom::JobId,
        ..base.clone()
    };
    assert_eq!(
        balance(&by_job),
        (Some(200), 0),
        "a new key per row lets it through"
    );
    assert!(base.active(Knob::KeyFrom));
    let no_key = CustomRun {
        idempotency_key: false,
        ..base
    };
    assert!(
        !no_key.active(Knob::KeyFrom),
        "no key: nothing to make it from"
    );
}

/// A polynomial sheet runs as exponential backoff from its first wait (the simulator has no
/// polynomial growth), its waits brought into the knobs' ranges: River's `n⁴` (first wait
/// 1 s, constant 0) with a 30-day cap becomes exponential from 1 s capped at 7 days.
#[test]
fn a_polynomial_sheet_runs_as_exponential_from_its_first_wait() {
    use modality_advisor::domain::sheet::{BackoffKind, Polynomial};
    let path = format!(
        "{}/static/examples/reservation-mail.en.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the example");
    let mut sheet = import_json(&text, Lang::En).expect("imports");
    let r = sheet.retry.as_mut().expect("retry");
    r.backoff.kind = BackoffKind::Polynomial(Polynomial {
        exponent: 4,
        first_n: 1,
    });
    r.backoff.base_ms = 0;
    r.backoff.cap_ms = 30 * 86_400_000;
    let run = CustomRun::from_sheet(&sheet);
    assert_eq!(
        (run.growth, run.base_ms, run.cap_ms),
        (Growth::Exponential, 1_000, 7 * 86_400_000)
    );
    assert_eq!(run.validate(), Vec::<KnobError>::new());
}

/// The handler time and the rate limit's burst are settings shown with the knobs, never
/// hidden defaults: each reaches the config file the CLI runs (issue 25: "the simulator
/// silently adds a default handler time on top of the call").
#[test]
fn the_handler_time_and_the_burst_reach_the_config_file() {
    use serde_json::json;
    let check = |c: CustomRun, duration: serde_json::Value, rate_limit: serde_json::Value| {
        assert!(c.validate().is_empty(), "{c:?}");
        let file = serde_json::to_value(c.to_file(1)).expect("JSON");
        assert_eq!(file["kinds"][0]["duration"], duration, "{c:?}");
        assert_eq!(file["downstream"]["rate_limit"], rate_limit, "{c:?}");
    };
    let p = crate::sim_support::partner;
    let ten = json!({"rate_per_s": 10.0, "burst": 10});
    let lognormal = json!({"type": "lognormal", "p50_ms": 200, "p95_ms": 1000});
    let none = json!({"type": "fixed", "ms": 0});
    check(p(), lognormal.clone(), ten.clone());
    check(
        CustomRun {
            duration: DurationMode::None,
            ..p()
        },
        none.clone(),
        ten.clone(),
    );
    check(
        CustomRun {
            duration: DurationMode::Fixed,
            duration_ms: 0,
            ..p()
        },
        none,
        ten,
    );
    check(
        p().with(Knob::RateBurst, 1),
        lognormal.clone(),
        json!({"rate_per_s": 10.0, "burst": 1}),
    );
    // A burst never edited follows the rate; once edited it stays.
    check(
        p().with(Knob::RateLimit, 20),
        lognormal.clone(),
        json!({"rate_per_s": 20.0, "burst": 20}),
    );
    check(
        p().with(Knob::RateBurst, 5).with(Knob::RateLimit, 20),
        lognormal,
        json!({"rate_per_s": 20.0, "burst": 5}),
    );
    // The burst knob shows only with a rate limit; the handler's figures not for "none".
    assert!(p().active(Knob::RateBurst));
    assert!(!p().with(Knob::RateLimit, 0).active(Knob::RateBurst));
    let no_handler = CustomRun {
        duration: DurationMode::None,
        ..p()
    };
    assert!(!no_handler.active(Knob::DurationMs) && !no_handler.active(Knob::DurationHiMs));
}

/// What a run takes is said beside the downstream in both languages, and the handler time
/// really adds to each call: the 500 updates at 10/s on 3 workers end near 50 s with
/// no handler time and far later with the default one.
#[test]
fn the_handler_time_adds_to_each_call_and_the_page_says_so() {
    let p = crate::sim_support::partner();
    let check = |c: &CustomRun, en: &str, ja: &str| {
        assert_eq!(c.run_time(Lang::En).as_deref(), Some(en));
        assert_eq!(c.run_time(Lang::Ja).as_deref(), Some(ja));
    };
    check(
        &p,
        "Each run: the handler time (lognormal, p50 200 ms, p95 1 s, set under Load), then the call (300 ms).",
        "1回の実行：ハンドラーの処理時間（対数正規、p50 200ミリ秒・p95 1秒、「負荷」で設定）の後に呼び出し（300ミリ秒）。",
    );
    let none = CustomRun {
        duration: DurationMode::None,
        ..p.clone()
    };
    check(
        &none,
        "Each run: the handler time (none (0 ms), set under Load), then the call (300 ms).",
        "1回の実行：ハンドラーの処理時間（なし（0ミリ秒）、「負荷」で設定）の後に呼び出し（300ミリ秒）。",
    );
    assert_eq!(CustomRun::default().run_time(Lang::En), None);
    assert_eq!(
        p.rate_limit_text(Lang::En).as_deref(),
        Some("10 calls/s with a burst of 10: after an idle spell up to 20 calls can pass within one second (the bucket’s 10 plus 10 refilled), never more than 10/s on average.")
    );
    let with = crate::sim_support::settings_view(&p, 1).key.end_s;
    let without = crate::sim_support::settings_view(&none, 1).key.end_s;
    assert!(
        (45.0..56.0).contains(&without),
        "no handler time: {without} s"
    );
    assert!(
        with > without * 1.5,
        "handler time {with} s vs none {without} s"
    );
}

/// "Your settings" from a sheet with a "Load and capacity" section take its numbers (one
/// number, entered once): the handler time, workers × jobs at once, the failure rate, the
/// burst, the downstream's rate limit with its burst allowance.
#[test]
fn your_settings_take_the_sheets_load_numbers() {
    use modality_advisor::domain::sim::setup::knobs::{ArrivalMode, CustomRun, DurationMode};
    let sheet = match modality_advisor::domain::sheet::import::import_json(
        include_str!("../../static/examples/partner-inventory-sync.json"),
        modality_advisor::domain::Lang::En,
    ) {
        Ok(s) => s,
        Err(e) => panic!("imports: {e}"),
    };
    let c = CustomRun::from_sheet(&sheet);
    assert_eq!(
        (c.duration, c.duration_ms, c.duration_hi_ms),
        (DurationMode::Lognormal, 80, 300)
    );
    assert_eq!(c.workers, 4, "2 processes × 2 at once");
    assert_eq!(
        (c.arrivals, c.jobs, c.burst_at_ms),
        (ArrivalMode::Burst, 500, 0)
    );
    assert_eq!(c.failure_percent, 1);
    assert!(c.downstream);
    assert_eq!((c.rate_limit_per_s, c.rate_limit_burst), (10, Some(10)));
    // The sheet states no concurrency limit and no call time of its own: none is invented
    // (the knobs' defaults, capacity 1 and 300 ms per call, dead-lettered 155 of the 500).
    assert_eq!((c.capacity, c.call_ms), (0, 0));
    assert!(c.validate().is_empty(), "{:?}", c.validate());
    // Without a load section the defaults stay.
    let mut bare = sheet.clone();
    bare.load = None;
    let d = CustomRun::from_sheet(&bare);
    assert_eq!(
        (d.workers, d.jobs),
        (CustomRun::default().workers, CustomRun::default().jobs)
    );
}

//! The typed event log: English rendering is byte for byte the text of the source documents' runs
//! (pinned by `trace_digest`), Japanese rendering of every kind of line, and the worker's
//! log-slice protocol (bounds, errors as values).

use modality_advisor::domain::sim::trace_digest;

#[test]
fn english_lines_are_unchanged_so_the_trace_digest_is_too() {
    // bench/RESULTS.md: `trace_digest(1)` before the log became typed. It hashes the JSON
    // report (with every English log line) of each scenario and variant and of a 2 000-job
    // M/M/c run with the log on. Changed once since (was bf3d63179feca729) when
    // `queue_depth` became a step series with every change: the log, jobs and counters
    // stayed the same; and once more (was 846b7b1a0194eaaa) when the generator became
    // Xoshiro256++ (src/domain/sim/rng.rs): every random draw changed (485516cb69a6a6a9).
    // Then again when a log with any sub-millisecond time began writing all its times with
    // six decimals (`0.000000s` beside `0.066988s`): only the two-tier-jitter run's and the
    // M/M/c run's lines changed, in formatting only; the seed runs' logs are in
    // milliseconds and unchanged. Then (was 5715650dd8e97c37) when a direct submission's
    // line lost the colon after its time (`0.020s submission 2: …`, as `0.020s job#2 …: …`):
    // only the burst-leveling `direct` run's submission lines changed, in formatting only.
    // Then (was a637140df5af4417) when the engine began counting and logging overlapping
    // runs and stale results (issue 15): only the claim-race `two-statement` run changed (its
    // second claim overlaps the first run, and the first worker's `complete` is stale: two
    // new lines per job and `overlapping_runs` / `stale_results` in its metrics); no default
    // rule change touched any scenario's events, and the M/M/c run is as it was (that value
    // was e7ef0e090e1609a5). Then with the presets added with issue 15 (the digest covers
    // every scenario and variant): lease-shorter-than-handler and duplicate-execution's two
    // same-order variants; the other runs' reports are as they were.
    // Then (was c6672d169d429069) when the jitter study began following the AWS study's own
    // simulator (attempts numbered from 1, "no backoff" waits nothing) and averaging 100 runs
    // instead of 20: only the five `jitter-contention` reports changed; no log line did.
    // Then (was 9f321880d1a62c5a) when the same request applied twice by two rows began to
    // count as a duplicate effect: only duplicate-execution `same-order-job-key` changed.
    assert_eq!(format!("{:016x}", trace_digest(1)), "d2f3fde720f72903");
}

use modality_advisor::domain::lang::Lang;
use modality_advisor::domain::sim::results::log::{
    ClaimHow, KindNames, LockError, LogEntry, LogEvent, LogNames, NO_WORKER,
};
use modality_advisor::domain::sim::runner::{
    run, LogRequest, RunMessage, RunRequest, WorkerState, LOAD_SCENARIO, LOG_HEAD, LOG_MAX_JOBS,
    MAX_SLICE,
};
use modality_advisor::domain::sim::{
    run_scenario, CallResult, ErrorId, Scenario, SimDuration, SimTime,
};

fn req(id: u64, scenario: &str, variant: Option<&str>, jobs: Option<u64>) -> RunRequest {
    RunRequest {
        id,
        scenario: scenario.into(),
        variant: variant.map(String::from),
        seed: 1,
        jobs,
        custom: None,
    }
}

#[test]
fn the_worker_view_renders_the_same_english_lines_as_the_report() {
    for sc in Scenario::ALL {
        for v in sc.variants() {
            let view = run(&req(1, sc.id(), Some(v), None), 1_000, |_| {}).expect("runs");
            let report = run_scenario(sc.id(), Some(v), 1).expect("runs");
            assert_eq!(
                view.log_total,
                report.events.len() as u64,
                "{}/{v}",
                sc.id()
            );
            let lines: Vec<String> = view
                .log_head
                .iter()
                .map(|e| view.log_line(e).render(Lang::En))
                .collect();
            let n = lines.len();
            assert_eq!(n, report.events.len().min(LOG_HEAD));
            assert_eq!(lines, report.events[..n], "{}/{v}", sc.id());
        }
    }
}

fn ja(scenario: &str, variant: &str) -> String {
    let view = run(&req(1, scenario, Some(variant), None), 1_000, |_| {}).expect("runs");
    view.log_head
        .iter()
        .map(|e| view.log_names.line(e).render(Lang::Ja))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_seed_run_in_japanese() {
    insta::assert_snapshot!(ja("duplicate-execution", "idempotency-key"), @r"
    0.000s job#1 add_points 0/3: キューに投入（enqueued）
    1000.000s A job#1 add_points 1/3: 取得（UPDATE … RETURNING）
    1000.000s A job#1 add_points 1/3: 副作用を適用：残高 0 → 100
    1000.000s A job#1 add_points 1/3: complete() の前にワーカーが停止
    1031.000s B job#1 add_points 2/3: 取得（UPDATE … RETURNING）
    1031.000s B job#1 add_points 2/3: 冪等キー order-1001-points は記録済み（一意制約）→ ROLLBACK、残高は 100 のまま
    1031.000s B job#1 add_points 2/3: 完了（done）
    ");
}

#[test]
fn retry_and_dead_letter_in_japanese() {
    insta::assert_snapshot!(ja("retry-dead-letter", "seed"), @r"
    0.000s job#1 send_mail 0/5: キューに投入（enqueued）
    0.000s job#2 resize_image 0/3: キューに投入（enqueued）
    0.000s A job#1 send_mail 1/5: 取得（UPDATE … RETURNING）
    0.000s A job#1 send_mail 1/5: エラー TimeoutError: mail server did not respond → 0.200s まで待って再試行（queued）
    0.000s A job#2 resize_image 1/3: 取得（UPDATE … RETURNING）
    0.000s A job#2 resize_image 1/3: エラー ValueError: not an image: memo.txt → 0.200s まで待って再試行（queued）
    0.200s A job#1 send_mail 2/5: 取得（UPDATE … RETURNING）
    0.200s A job#1 send_mail 2/5: エラー TimeoutError: mail server did not respond → 0.400s まで待って再試行（queued）
    0.200s A job#2 resize_image 2/3: 取得（UPDATE … RETURNING）
    0.200s A job#2 resize_image 2/3: エラー ValueError: not an image: memo.txt → 0.400s まで待って再試行（queued）
    0.400s A job#1 send_mail 3/5: 取得（UPDATE … RETURNING）
    0.400s A job#1 send_mail 3/5: 完了（done）
    0.400s A job#2 resize_image 3/3: 取得（UPDATE … RETURNING）
    0.400s A job#2 resize_image 3/3: エラー ValueError: not an image: memo.txt → 試行回数を使い切りデッドレター（dead）
    ");
}

/// One entry of every kind, with names that exercise each placeholder.
fn every_kind() -> (LogNames, Vec<LogEntry>) {
    let names = LogNames {
        kinds: vec![KindNames {
            name: "add_points".into(),
            max_attempts: 3,
            amount: 100,
            key: Some("order-{n}-points".into()),
        }],
        workers: vec!["A".into()],
        errors: vec![
            "TimeoutError: mail server did not respond".into(),
            "lease expired on the last attempt (worker lost)".into(),
            "busy: downstream is locked by another write".into(),
            "rate limited: too many requests".into(),
            "unavailable: downstream is down".into(),
        ],
        builtin_errors: 1,
    };
    let ms = SimDuration::from_ms;
    let events = vec![
        LogEvent::Enqueued,
        LogEvent::Claimed(ClaimHow::Atomic),
        LogEvent::Claimed(ClaimHow::ById),
        LogEvent::Claimed(ClaimHow::ForUpdate),
        LogEvent::Claimed(ClaimHow::Nowait),
        LogEvent::Claimed(ClaimHow::SkipLocked),
        LogEvent::Picked { job: 1 },
        LogEvent::NothingToClaim,
        LogEvent::ProbeRollback,
        LogEvent::Done,
        LogEvent::ErrorQueued {
            err: ErrorId(0),
            until: SimTime::from_ms(200),
        },
        LogEvent::ErrorQueued {
            err: ErrorId(2),
            until: SimTime::from_ms(1_250),
        },
        LogEvent::ErrorDead { err: ErrorId(1) },
        LogEvent::ErrorPermanent { err: ErrorId(0) },
        LogEvent::SideEffect { before: 100 },
        LogEvent::KeyRejected {
            arrival: 1001,
            balance: 100,
        },
        LogEvent::Crash,
        LogEvent::RowLockWait { job: 1 },
        LogEvent::SkipLocked {
            jobs: Box::new(vec![1, 3]),
        },
        LogEvent::LockError(LockError::Nowait),
        LogEvent::LockError(LockError::Timeout),
        LogEvent::DownstreamOk,
        LogEvent::InWorkerRetry {
            result: CallResult::Busy,
            wait: ms(250),
        },
        LogEvent::SubmissionFallback { n: 4 },
        LogEvent::SubmissionFailed { n: 5 },
        LogEvent::SubmissionAccepted { n: 6 },
        LogEvent::SubmissionRetry {
            n: 7,
            result: CallResult::RateLimited,
            wait: ms(1_500),
        },
        LogEvent::SubmissionGaveUp {
            n: 8,
            result: CallResult::Unavailable,
        },
    ];
    let entries = events
        .into_iter()
        .enumerate()
        .map(|(i, event)| {
            let on_job = !matches!(
                event,
                LogEvent::Picked { .. }
                    | LogEvent::NothingToClaim
                    | LogEvent::RowLockWait { .. }
                    | LogEvent::SkipLocked { .. }
                    | LogEvent::LockError(_)
                    | LogEvent::SubmissionFallback { .. }
                    | LogEvent::SubmissionFailed { .. }
                    | LogEvent::SubmissionAccepted { .. }
                    | LogEvent::SubmissionRetry { .. }
                    | LogEvent::SubmissionGaveUp { .. }
            );
            let by_worker = !matches!(event, LogEvent::Enqueued)
                && !format!("{event:?}").starts_with("Submission");
            LogEntry {
                time: SimTime(1_000 * i as u64),
                event,
                job: if on_job { 1 } else { 0 },
                kind: 0,
                attempt: if on_job { 2 } else { 0 },
                worker: if by_worker { 0 } else { NO_WORKER },
            }
        })
        .collect();
    (names, entries)
}

#[test]
fn every_kind_of_line_in_english() {
    let (names, entries) = every_kind();
    let text: Vec<String> = entries.iter().map(|e| names.line(e).to_string()).collect();
    insta::assert_snapshot!(text.join("\n"), @r#"
    0.000s job#1 add_points 2/3: enqueued
    0.001s A job#1 add_points 2/3: claimed (UPDATE … RETURNING)
    0.002s A job#1 add_points 2/3: claimed (UPDATE by id)
    0.003s A job#1 add_points 2/3: claimed (SELECT … FOR UPDATE)
    0.004s A job#1 add_points 2/3: claimed (FOR UPDATE NOWAIT)
    0.005s A job#1 add_points 2/3: claimed (FOR UPDATE SKIP LOCKED)
    0.006s A: SELECT picks job#1
    0.007s A: nothing to claim
    0.008s A job#1 add_points 2/3: ROLLBACK (the probe only looks)
    0.009s A job#1 add_points 2/3: done
    0.010s A job#1 add_points 2/3: error TimeoutError: mail server did not respond → queued until 0.200s
    0.011s A job#1 add_points 2/3: error busy: downstream is locked by another write → queued until 1.250s
    0.012s A job#1 add_points 2/3: error lease expired on the last attempt (worker lost) → dead
    0.013s A job#1 add_points 2/3: error TimeoutError: mail server did not respond (permanent) → dead
    0.014s A job#1 add_points 2/3: side effect applied: balance 100 → 200
    0.015s A job#1 add_points 2/3: idempotency key order-1001-points already recorded (unique constraint) → ROLLBACK, balance stays 100
    0.016s A job#1 add_points 2/3: worker dies before complete()
    0.017s A: FOR UPDATE waits for the row lock on job#1
    0.018s A: SKIP LOCKED passes over job#1, job#3
    0.019s A: error: could not obtain lock on row in relation "jobs"
    0.020s A: error: canceling statement due to lock timeout
    0.021s A job#1 add_points 2/3: downstream ok
    0.022s A job#1 add_points 2/3: busy: downstream is locked by another write → retry in the worker in 0.250s
    0.023s submission 4: publish failed, calling the downstream directly
    0.024s submission 5: failed back to the user
    0.025s submission 6: downstream ok → accepted
    0.026s submission 7: rate limited: too many requests → call again in 1.500s
    0.027s submission 8: unavailable: downstream is down → failed back to the user
    "#);
}

#[test]
fn every_kind_of_line_in_japanese() {
    let (names, entries) = every_kind();
    let text: Vec<String> = entries
        .iter()
        .map(|e| names.line(e).render(Lang::Ja))
        .collect();
    insta::assert_snapshot!(text.join("\n"), @r#"
    0.000s job#1 add_points 2/3: キューに投入（enqueued）
    0.001s A job#1 add_points 2/3: 取得（UPDATE … RETURNING）
    0.002s A job#1 add_points 2/3: 取得（UPDATE by id）
    0.003s A job#1 add_points 2/3: 取得（SELECT … FOR UPDATE）
    0.004s A job#1 add_points 2/3: 取得（FOR UPDATE NOWAIT）
    0.005s A job#1 add_points 2/3: 取得（FOR UPDATE SKIP LOCKED）
    0.006s A: SELECT が job#1 を選択
    0.007s A: 取得できるジョブなし
    0.008s A job#1 add_points 2/3: ROLLBACK（プローブは見るだけ）
    0.009s A job#1 add_points 2/3: 完了（done）
    0.010s A job#1 add_points 2/3: エラー TimeoutError: mail server did not respond → 0.200s まで待って再試行（queued）
    0.011s A job#1 add_points 2/3: エラー busy：下流システムは別の書き込みでロック中 → 1.250s まで待って再試行（queued）
    0.012s A job#1 add_points 2/3: エラー 最後の試行でリース（可視性タイムアウト）が切れた（ワーカー喪失） → 試行回数を使い切りデッドレター（dead）
    0.013s A job#1 add_points 2/3: エラー TimeoutError: mail server did not respond（恒久的エラー）→ 再試行せずデッドレター（dead）
    0.014s A job#1 add_points 2/3: 副作用を適用：残高 100 → 200
    0.015s A job#1 add_points 2/3: 冪等キー order-1001-points は記録済み（一意制約）→ ROLLBACK、残高は 100 のまま
    0.016s A job#1 add_points 2/3: complete() の前にワーカーが停止
    0.017s A: FOR UPDATE が job#1 の行ロックを待機
    0.018s A: SKIP LOCKED がロック中の job#1, job#3 を飛ばす
    0.019s A: エラー：could not obtain lock on row in relation "jobs"
    0.020s A: エラー：canceling statement due to lock timeout
    0.021s A job#1 add_points 2/3: 下流システムの呼び出し成功
    0.022s A job#1 add_points 2/3: busy：下流システムは別の書き込みでロック中 → 0.250s 後にワーカー内で再試行
    0.023s 受付 4：キューへの発行に失敗、下流システムを直接呼び出し
    0.024s 受付 5：利用者にエラーを返却
    0.025s 受付 6：下流システムの呼び出し成功 → 受付完了
    0.026s 受付 7：rate limited：リクエストが多すぎる（レート制限） → 1.500s 後に再度呼び出し
    0.027s 受付 8：unavailable：下流システムが停止中 → 利用者にエラーを返却
    "#);
}

#[test]
fn the_english_column_of_the_locale_file_matches_the_engine() {
    // The yml's `en:` texts document the English lines; they must say what the engine says.
    let (names, entries) = every_kind();
    for e in &entries {
        let line = names.line(e);
        assert_eq!(line.render(Lang::En), line.to_string());
    }
    let yml = include_str!("../../locales/simulator/sim-log.yml");
    for needle in [
        "en: \"enqueued\"",
        "en: \"claimed (%{sql})\"",
        "en: \"error %{error} → queued until %{until}\"",
        "en: \"idempotency key %{key} already recorded (unique constraint) → ROLLBACK, balance stays %{balance}\"",
        "en: \"submission %{n}: %{result} → call again in %{wait}\"",
    ] {
        assert!(yml.contains(needle), "{needle}");
    }
}

fn answer(state: &mut WorkerState, json: &str) -> RunMessage {
    serde_json::from_str(&state.handle(json, 1_000, |_| {})).expect("a message")
}

fn log_req(of: u64, from: u64, count: u32) -> String {
    serde_json::to_string(&LogRequest {
        log_of: of,
        from,
        count,
    })
    .expect("json")
}

#[test]
fn the_worker_answers_slices_of_the_last_runs_log() {
    let mut state = WorkerState::new();
    // Nothing run yet: an error value.
    match answer(&mut state, &log_req(1, 0, 10)) {
        RunMessage::LogError { id: 1, error } => assert!(error.contains("not held"), "{error}"),
        other => panic!("{other:?}"),
    }
    let run_json = serde_json::to_string(&req(5, LOAD_SCENARIO, None, Some(2_000))).expect("json");
    let RunMessage::Done { view, .. } = answer(&mut state, &run_json) else {
        panic!("the run finishes");
    };
    let total = view.log_total;
    assert!(total > 6_000, "about 3.2 lines per job: {total}");
    assert_eq!(view.log_head.len(), LOG_HEAD);
    // A slice in the middle, equal to the head where they overlap.
    match answer(&mut state, &log_req(5, 150, 100)) {
        RunMessage::LogSlice {
            id: 5,
            from: 150,
            total: t,
            entries,
        } => {
            assert_eq!(t, total);
            assert_eq!(entries.len(), 100);
            assert_eq!(entries[..50], view.log_head[150..]);
        }
        other => panic!("{other:?}"),
    }
    // The end: fewer lines, then none at `from == total`.
    match answer(&mut state, &log_req(5, total - 3, 100)) {
        RunMessage::LogSlice { entries, .. } => {
            assert_eq!(entries.len(), 3);
            let last = view.log_names.line(&entries[2]).to_string();
            assert!(last.contains(": done") || last.contains("→ dead"), "{last}");
        }
        other => panic!("{other:?}"),
    }
    match answer(&mut state, &log_req(5, total, 10)) {
        RunMessage::LogSlice { entries, .. } => assert!(entries.is_empty()),
        other => panic!("{other:?}"),
    }
    // Out of range, and huge counts, never panic.
    match answer(&mut state, &log_req(5, total + 1, 10)) {
        RunMessage::LogError { error, .. } => {
            assert_eq!(
                error,
                format!("from: {} is out of range; allowed: 0 to {total}", total + 1)
            )
        }
        other => panic!("{other:?}"),
    }
    match answer(&mut state, &log_req(5, u64::MAX, u32::MAX)) {
        RunMessage::LogError { .. } => {}
        other => panic!("{other:?}"),
    }
    match answer(&mut state, &log_req(5, 0, u32::MAX)) {
        RunMessage::LogSlice { entries, .. } => assert_eq!(entries.len(), MAX_SLICE as usize),
        other => panic!("{other:?}"),
    }
    // Another run's id, or a malformed request: error values.
    assert!(matches!(
        answer(&mut state, &log_req(4, 0, 10)),
        RunMessage::LogError { id: 4, .. }
    ));
    assert!(matches!(
        answer(&mut state, r#"{"log_of":5,"from":-1,"count":1}"#),
        RunMessage::Failed { .. }
    ));
    // A failed run keeps the previous log.
    let bad = serde_json::to_string(&req(6, "nope", None, None)).expect("json");
    assert!(matches!(
        answer(&mut state, &bad),
        RunMessage::Failed { id: 6, .. }
    ));
    assert!(matches!(
        answer(&mut state, &log_req(5, 0, 1)),
        RunMessage::LogSlice { .. }
    ));
    // A new run replaces it.
    let next = serde_json::to_string(&req(7, "claim-race", Some("atomic"), None)).expect("json");
    assert!(matches!(
        answer(&mut state, &next),
        RunMessage::Done { id: 7, .. }
    ));
    assert!(matches!(
        answer(&mut state, &log_req(5, 0, 1)),
        RunMessage::LogError { .. }
    ));
    assert!(matches!(
        answer(&mut state, &log_req(7, 0, 1)),
        RunMessage::LogSlice { .. }
    ));
}

#[test]
fn the_load_preset_logs_up_to_its_bound() {
    let small = run(&req(1, LOAD_SCENARIO, None, Some(30_000)), 10_000, |_| {}).expect("runs");
    assert_eq!(small.log_bound, None);
    let big = run(
        &req(1, LOAD_SCENARIO, None, Some(LOG_MAX_JOBS + 1)),
        1_000_000,
        |_| {},
    )
    .expect("runs");
    assert_eq!((big.log_total, big.log_bound), (0, Some(LOG_MAX_JOBS)));
    let per_job = small.log_total as f64 / 30_000.0;
    // ≈ 3.2 lines per job: LOG_MAX_JOBS jobs give well over a million lines.
    assert!((3.1..3.6).contains(&per_job), "{per_job}");
    assert!(per_job * LOG_MAX_JOBS as f64 > 1.5e6);
    let bytes = per_job * LOG_MAX_JOBS as f64 * std::mem::size_of::<LogEntry>() as f64;
    assert!(
        bytes < 80e6,
        "the log of the largest logged run stays under 80 MB: {bytes}"
    );
}

#[test]
fn entries_travel_as_integer_arrays_and_bad_ones_are_refused() {
    let (_, entries) = every_kind();
    let json = serde_json::to_string(&entries).expect("json");
    assert!(
        json.starts_with("[[0,1,0,2,65535,0],[1000,1,0,2,0,1,0],"),
        "{}",
        &json[..60]
    );
    let back: Vec<LogEntry> = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, entries);
    // Negative balances survive as their bits.
    let e = LogEntry {
        event: LogEvent::SideEffect { before: -5 },
        ..entries[0].clone()
    };
    assert_eq!(LogEntry::from_words(&e.to_words()), Some(e));
    for bad in [
        &[][..],
        &[0, 0, 0, 0, 0][..],
        // The first tag past the last variant (30 = `EnqueuedAgain`).
        &[0, 0, 0, 0, 0, 31][..],
        &[0, 0, 0, 0, 70_000, 0][..],
        &[0, 1 << 40, 0, 0, 0, 0][..],
        &[0, 0, 0, 0, 0, 1, 9][..],
        &[0, 0, 0, 0, 0, 6, 1][..],
        &[0, 0, 0, 0, 0, 13, 1 << 33][..],
        &[0, 0, 0, 0, 0, 14, 2][..],
        &[0, 0, 0, 0, 0, 16, 4, 1][..],
        &[0, 0, 0, 0, 0, 21, 1][..],
    ] {
        assert_eq!(LogEntry::from_words(bad), None, "{bad:?}");
    }
    assert!(serde_json::from_str::<LogEntry>("[0,0,0,0,0,99]").is_err());
    assert!(serde_json::from_str::<LogEntry>("{\"t\":0}").is_err());
}

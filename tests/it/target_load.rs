//! The sheet's load numbers in every target's configuration (`domain::queues::knobs` and each
//! target's module): the knobs each target writes for workers × jobs at once and our own limit
//! (snapshots of what the load numbers add to each export, in English and Japanese), the
//! per-target mapping of the numbers (Celery's per-worker division, SQS's 2–1,000 clamp,
//! Cloud Tasks' 500/s and 5,000, BullMQ's limiter, …) one case per line, the gaps a target
//! cannot express, and the regression guard: a sheet whose load section gives none of these
//! numbers exports exactly what a sheet without the section does. The real parsers read the
//! same exports in `target_tools.rs`.

use crate::target_kit::example;
use modality_advisor::domain::queues::{
    celery, knobs, report, sqs, Format, Instead, TargetId, TargetReport,
};
use modality_advisor::domain::sheet::load::{DownstreamLimits, HandlerTime, LoadSpec, Per, Rate};
use modality_advisor::domain::sheet::{FieldId, JobSheet};
use modality_advisor::domain::{Lang, Outcome};
use std::fmt::Write;

const fn per_s(count: u64) -> Rate {
    Rate {
        count,
        per: Per::Second,
    }
}

/// The brief's numbers: 3 workers × 4 at once, our limit 10/s, the downstream 10/s (burst
/// 20) and 5 at once.
fn numbers() -> LoadSpec {
    LoadSpec {
        workers: Some(3),
        concurrency: Some(4),
        our_limit: Some(per_s(10)),
        downstream: DownstreamLimits {
            rate: Some(per_s(10)),
            rate_burst: Some(20),
            concurrency: Some(5),
            exclusive_lock: false,
        },
        ..LoadSpec::default()
    }
}

fn with_load(mut sheet: JobSheet, load: LoadSpec) -> JobSheet {
    sheet.load = Some(load);
    sheet
}

/// The nightly batch of `examples/sheets` (for the Kubernetes CronJob).
fn batch(_lang: Lang) -> JobSheet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/sheets/nightly-report.sheet.json");
    let text = std::fs::read_to_string(path).expect("the batch example reads");
    let s: JobSheet = serde_json::from_str(&text).expect("the batch example is a sheet");
    assert_eq!(s.decision.outcome, Outcome::Batch);
    s
}

fn rep(sheet: &JobSheet, target: TargetId, format: Format, lang: Lang) -> TargetReport {
    match report(sheet, target, Some(format), lang) {
        Ok(r) => r,
        Err(e) => panic!(
            "{} {}: {}",
            target.name(),
            format.name(),
            e.message(Lang::En)
        ),
    }
}

/// What the load numbers add to an export: a line diff of the texts (`+` added, `-` gone,
/// by the longest common subsequence, unchanged lines left out), then the mapping rows and
/// gaps of the load section's fields.
fn added(plain: &TargetReport, loaded: &TargetReport) -> String {
    let mut s = String::new();
    let old: Vec<&str> = plain.built.text.lines().collect();
    let new: Vec<&str> = loaded.built.text.lines().collect();
    // lcs[i][j]: the longest common subsequence of old[i..] and new[j..].
    let mut lcs = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            i += 1;
            j += 1;
        } else if j < new.len() && (i == old.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            let _ = writeln!(s, "+ {}", new[j]);
            j += 1;
        } else {
            let _ = writeln!(s, "- {}", old[i]);
            i += 1;
        }
    }
    let load_field = |f: FieldId| {
        matches!(
            f,
            FieldId::Workers | FieldId::OurLimit | FieldId::DownstreamLimits
        )
    };
    s.push_str("\nfield | sheet | key | value | note\n");
    for m in loaded.built.mapping.iter().filter(|m| load_field(m.field)) {
        let _ = writeln!(
            s,
            "{} | {} | {} | {} | {}",
            m.field.id(),
            m.sheet,
            m.key,
            m.value,
            m.note
        );
    }
    s.push_str("\ngap | instead | what | detail\n");
    for g in loaded.built.gaps.iter().filter(|g| load_field(g.field)) {
        let _ = writeln!(
            s,
            "{} | {:?} | {} | {}",
            g.field.id(),
            g.instead,
            g.what,
            g.detail
        );
    }
    s
}

/// Every target × format with the brief's numbers: what they add, as a snapshot per target,
/// format and language (the Kubernetes CronJob from the batch sheet too).
#[test]
fn every_target_writes_its_knobs() {
    for lang in [Lang::En, Lang::Ja] {
        let lang_name = if lang == Lang::En { "en" } else { "ja" };
        for target in TargetId::ALL {
            for &format in target.formats() {
                let plain = rep(&example(lang), target, format, lang);
                let loaded = rep(&with_load(example(lang), numbers()), target, format, lang);
                insta::assert_snapshot!(
                    format!("load_{}_{}_{lang_name}", target.name(), format.name()),
                    added(&plain, &loaded)
                );
            }
        }
        let plain = rep(&batch(lang), TargetId::Kubernetes, Format::Yaml, lang);
        let loaded = rep(
            &with_load(batch(lang), numbers()),
            TargetId::Kubernetes,
            Format::Yaml,
            lang,
        );
        insta::assert_snapshot!(
            format!("load_kubernetes_cronjob_{lang_name}"),
            added(&plain, &loaded)
        );
    }
}

/// A load section without workers, jobs at once, our limit or downstream limits (only the
/// arrivals and the handler, or nothing) changes no export: text, mapping and gaps alike.
#[test]
fn a_sheet_without_load_numbers_exports_as_before() {
    let arrivals_only = LoadSpec {
        arrival: Some(per_s(5)),
        handler: Some(HandlerTime::Lognormal {
            p50_ms: 800,
            p95_ms: 3_000,
        }),
        failure_bp: Some(200),
        target_wait_p95_ms: Some(10_000),
        ..LoadSpec::default()
    };
    for lang in [Lang::En, Lang::Ja] {
        for sheet in [example(lang), batch(lang)] {
            for target in TargetId::ALL {
                for &format in target.formats() {
                    let plain = report(&sheet, target, Some(format), lang);
                    for load in [LoadSpec::default(), arrivals_only] {
                        let other =
                            report(&with_load(sheet.clone(), load), target, Some(format), lang);
                        assert_eq!(
                            plain,
                            other,
                            "{} {} {lang:?} with {load:?}",
                            target.name(),
                            format.name()
                        );
                    }
                }
            }
        }
    }
}

/// The value `target` writes for `key` (its mapping row's value; the row's key contains
/// `key`), and whether the text holds `text`.
fn check(
    target: TargetId,
    format: Format,
    load: LoadSpec,
    key: &str,
    value: Option<&str>,
    text: &str,
) {
    let sheet = if target == TargetId::Kubernetes {
        with_load(batch(Lang::En), load)
    } else {
        with_load(example(Lang::En), load)
    };
    let r = rep(&sheet, target, format, Lang::En);
    let row = r.built.mapping.iter().find(|m| m.key.contains(key));
    assert_eq!(
        row.map(|m| m.value.as_str()),
        value,
        "{} {key}: {:?}",
        target.name(),
        r.built.mapping
    );
    assert!(
        r.built.text.contains(text),
        "{} lacks {text:?}:\n{}",
        target.name(),
        r.built.text
    );
}

fn load(workers: Option<u32>, each: Option<u32>, limit: Option<Rate>) -> LoadSpec {
    LoadSpec {
        workers,
        concurrency: each,
        our_limit: limit,
        ..LoadSpec::default()
    }
}

const fn per(count: u64, per: Per) -> Rate {
    Rate { count, per }
}

// One case per line: rustfmt would spread each over seven.
#[rustfmt::skip]
#[test]
fn each_target_maps_the_numbers_to_its_own_knob() {
    use Format as F;
    use TargetId as T;
    let (s, m, h) = (Per::Second, Per::Minute, Per::Hour);
    let n = numbers();
    // Celery: rate_limit per worker instance = the global limit ÷ workers, rounded down,
    // in a longer unit when the share is below 1.
    let celery = |w, r, v: Option<&str>, t: &str| check(T::Celery, F::Python, load(w, None, Some(r)), "rate_limit", v, t);
    celery(Some(3), per(10, s), Some("3/s"), "    rate_limit=\"3/s\",\n");
    celery(Some(3), per(1, s), Some("20/m"), "rate_limit=\"20/m\"");
    celery(None, per(10, s), Some("10/s"), "rate_limit=\"10/s\"");
    celery(Some(7), per(7, m), Some("1/m"), "rate_limit=\"1/m\"");
    celery(Some(8), per(7, m), Some("52/h"), "rate_limit=\"52/h\"");
    celery(Some(2), per(1, h), None, "");
    check(T::Celery, F::Python, n, "worker_concurrency", Some("4"), "    worker_concurrency=4,\n");
    // SQS: MaximumConcurrency = workers × at once, clamped to 2–1,000.
    let sqs = |w, e, v: &str, t: &str| check(T::Sqs, F::CloudFormation, load(Some(w), Some(e), None), "MaximumConcurrency", Some(v), t);
    sqs(3, 4, "12", "      ScalingConfig:\n        MaximumConcurrency: 12\n");
    sqs(1, 1, "2", "MaximumConcurrency: 2\n");
    sqs(2, 1, "2", "MaximumConcurrency: 2\n");
    sqs(100, 20, "1000", "MaximumConcurrency: 1000\n");
    sqs(1000, 1000, "1000", "MaximumConcurrency: 1000\n");
    check(T::Sqs, F::Terraform, n, "MaximumConcurrency", Some("12"), "  scaling_config {\n    maximum_concurrency = 12\n  }\n");
    check(T::Sqs, F::Terraform, load(Some(1), None, None), "MaximumConcurrency", Some("2"), "maximum_concurrency = 2\n");
    // Sidekiq, Oban, River, pg-boss: jobs at once per process.
    check(T::Sidekiq, F::Ruby, n, "config.concurrency", Some("4"), "  config.concurrency = 4\n");
    check(T::Sidekiq, F::Ruby, load(Some(3), None, None), "config.concurrency", Some("1"), "config.concurrency = 1\n");
    check(T::Sidekiq, F::Ruby, load(None, Some(8), None), "config.concurrency", Some("8"), "config.concurrency = 8\n");
    // Our limit alone writes no concurrency (Sidekiq keeps its default 5).
    check(T::Sidekiq, F::Ruby, load(None, None, Some(per(10, s))), "config.concurrency", None, "");
    check(T::Oban, F::Elixir, n, "queues", Some("[send_reservation_mail: 4]"), "  queues: [send_reservation_mail: 4],\n");
    check(T::River, F::Go, n, "MaxWorkers", Some("4"), "{MaxWorkers: 4}}");
    check(T::PgBoss, F::JavaScript, n, "localConcurrency", Some("4"), "boss.work(QUEUE, { localConcurrency: 4 }, async");
    // BullMQ: concurrency per Worker, limiter global for the queue.
    check(T::Bullmq, F::TypeScript, n, "concurrency", Some("4"), "    concurrency: 4,\n");
    check(T::Bullmq, F::TypeScript, n, "limiter", Some("{ max: 10, duration: 1000 }"), "    limiter: { max: 10, duration: 1000 },\n");
    check(T::Bullmq, F::TypeScript, load(None, None, Some(per(600, m))), "limiter", Some("{ max: 600, duration: 60000 }"), "duration: 60000");
    check(T::Bullmq, F::TypeScript, load(None, None, Some(per(5, h))), "limiter", Some("{ max: 5, duration: 3600000 }"), "duration: 3600000");
    // Active Job / Solid Queue: threads and processes in config/queue.yml.
    check(T::ActiveJob, F::Ruby, n, "threads", Some("4"), "#       threads: 4\n#       processes: 3\n");
    check(T::ActiveJob, F::Ruby, n, "processes", Some("3"), "#     - queues: send_reservation_mail\n");
    // Temporal: activities at once per worker, the task queue's activities per second.
    check(T::Temporal, F::Go, n, "MaxConcurrentActivityExecutionSize", Some("4"), "\t\tMaxConcurrentActivityExecutionSize: 4,\n\t\tTaskQueueActivitiesPerSecond:       10,\n");
    check(T::Temporal, F::Go, load(None, None, Some(per(1, m))), "TaskQueueActivitiesPerSecond", Some("0.016666666666666666"), "\"go.temporal.io/sdk/worker\"");
    check(T::Temporal, F::TypeScript, n, "maxConcurrentActivityTaskExecutions", Some("4"), "  maxConcurrentActivityTaskExecutions: 4,\n  maxTaskQueueActivitiesPerSecond: 10,\n");
    check(T::Temporal, F::TypeScript, load(None, None, Some(per(30, m))), "maxTaskQueueActivitiesPerSecond", Some("0.5"), "maxTaskQueueActivitiesPerSecond: 0.5,");
    // Cloud Tasks: rate (maxDispatchesPerSecond ≤ 500) and max_concurrent_requests (≤ 5,000).
    let ct = |l, key, v: &str, t: &str| check(T::CloudTasks, F::Yaml, l, key, Some(v), t);
    ct(n, "rate (", "10/s", "    rate: 10/s  #");
    ct(n, "max_concurrent_requests", "12", "    max_concurrent_requests: 12  #");
    ct(load(None, None, Some(per(90, m))), "rate (", "90/m", "--max-dispatches-per-second=1.5");
    ct(load(None, None, Some(per(1_000, s))), "rate (", "500/s", "    rate: 500/s  #");
    ct(load(Some(100), Some(100), None), "max_concurrent_requests", "5000", "--max-concurrent-dispatches=5000");
    // Kubernetes: a CronJob's parallelism is the worker pods.
    check(T::Kubernetes, F::Yaml, n, "parallelism", Some("3"), "      parallelism: 3  #");
}

/// The pure mappings, at their edges.
#[test]
fn the_mapping_functions_at_their_edges() {
    assert_eq!(sqs::maximum_concurrency(0), 2);
    assert_eq!(sqs::maximum_concurrency(1), 2);
    assert_eq!(sqs::maximum_concurrency(2), 2);
    assert_eq!(sqs::maximum_concurrency(999), 999);
    assert_eq!(sqs::maximum_concurrency(1_000), 1_000);
    assert_eq!(sqs::maximum_concurrency(1_001), 1_000);
    let k = |workers, limit| knobs::Knobs {
        workers: Some(workers),
        per_worker: None,
        our_limit: Some(limit),
        downstream: DownstreamLimits::default(),
    };
    let rl = |w, r| celery::rate_limit(&k(w, r));
    assert_eq!(rl(3, per_s(10)).as_deref(), Some("3/s"));
    assert_eq!(rl(10, per_s(10)).as_deref(), Some("1/s"));
    assert_eq!(rl(11, per_s(10)).as_deref(), Some("54/m"));
    assert_eq!(rl(1_000, per_s(1)).as_deref(), Some("3/h"));
    assert_eq!(rl(1_000, per(1, Per::Minute)), None);
    assert_eq!(rl(1, per(1, Per::Hour)).as_deref(), Some("1/h"));
    assert_eq!(
        knobs::rate_text(per(1_000, Per::Minute), Lang::En),
        "1,000/min"
    );
    // The sheet's words for a rate (one function since 2026-12-05; this copy wrote "5件/時").
    assert_eq!(knobs::rate_text(per(5, Per::Hour), Lang::Ja), "5件/時間");
    assert_eq!(knobs::per_s_literal(per(90, Per::Minute)), "1.5");
    assert_eq!(knobs::per_s_literal(per(1, Per::Second)), "1");
    let sized = |workers, per_worker| knobs::Knobs {
        workers,
        per_worker,
        our_limit: None,
        downstream: DownstreamLimits::default(),
    };
    let words = |k: knobs::Knobs, lang| knobs::workers_text(&k, lang);
    assert_eq!(
        words(sized(Some(3), Some(4)), Lang::En),
        "workers 3 × 4 at once each = 12"
    );
    assert_eq!(
        words(sized(Some(1_000), None), Lang::En),
        "workers 1,000 × 1 at once each = 1,000"
    );
    assert_eq!(
        words(sized(None, Some(8)), Lang::En),
        "8 at once per worker (workers not given)"
    );
    assert_eq!(
        words(sized(Some(3), Some(4)), Lang::Ja),
        "ワーカー3 × 同時4件 = 12件"
    );
}

/// Which targets cannot express what, and what the export does instead.
#[test]
fn the_gaps_name_what_a_target_cannot_express() {
    use TargetId as T;
    let gaps = |target: TargetId, l: LoadSpec| {
        let sheet = with_load(example(Lang::En), l);
        let r = rep(&sheet, target, target.formats()[0], Lang::En);
        r.built
            .gaps
            .iter()
            .filter(|g| matches!(g.field, FieldId::Workers | FieldId::OurLimit))
            .map(|g| (g.field, g.instead))
            .collect::<Vec<_>>()
    };
    let n = numbers();
    let rate = (FieldId::OurLimit, Instead::Comment);
    for t in [
        T::Sqs,
        T::Sidekiq,
        T::Oban,
        T::River,
        T::PgBoss,
        T::SqlSqlite,
        T::SqlPostgres,
    ] {
        assert_eq!(gaps(t, n), vec![rate], "{}", t.name());
    }
    // A global limiter: nothing missing.
    for t in [T::Bullmq, T::Temporal, T::CloudTasks] {
        assert_eq!(gaps(t, n), vec![], "{}", t.name());
    }
    assert_eq!(gaps(T::Celery, n), vec![rate]);
    assert_eq!(
        gaps(T::Celery, load(Some(2), None, Some(per(1, Per::Hour)))),
        vec![(FieldId::OurLimit, Instead::Nothing)]
    );
    assert_eq!(
        gaps(T::ActiveJob, n),
        vec![(FieldId::Workers, Instead::Comment), rate]
    );
    // One Job per enqueued job: no knob for the jobs at once.
    assert_eq!(
        gaps(T::Kubernetes, n),
        vec![(FieldId::Workers, Instead::Comment), rate]
    );
    // SQS below 2 and above 1,000; Cloud Tasks above 5,000 and 500/s.
    assert_eq!(
        gaps(T::Sqs, load(Some(1), Some(1), None)),
        vec![(FieldId::Workers, Instead::Comment)]
    );
    assert_eq!(
        gaps(T::Sqs, load(Some(1_000), Some(2), None)),
        vec![(FieldId::Workers, Instead::Comment)]
    );
    assert_eq!(
        gaps(T::CloudTasks, load(Some(100), Some(51), Some(per_s(501)))),
        vec![
            (FieldId::Workers, Instead::Nothing),
            (FieldId::OurLimit, Instead::Nothing)
        ]
    );
    assert_eq!(
        gaps(T::CloudTasks, load(Some(100), Some(50), Some(per_s(500)))),
        vec![]
    );
}

//! The literal scanners on hand-written configurations in the style of each system's own
//! docs (`tests/fixtures/audit/code/`): every job found, each setting with its line and
//! column, stated in the sheet's units or unresolved with the expression as written
//! (snapshots) — and on hostile input: bidi controls, unterminated strings, nesting 10 000
//! deep, a 6 MB file, NUL bytes, invalid UTF-8, a file with no known call shape.

use modality_advisor::domain::audit::code::{read, read_bytes};
use modality_advisor::domain::audit::found::{
    Fact, Found, Pos, ReadError, Value, MAX_DEPTH, MAX_FILE_BYTES,
};
use modality_advisor::domain::queues::TargetId;
use modality_advisor::domain::sheet::{BackoffKind, Jitter};
use std::fmt::Write;
use std::path::Path;

const DIR: &str = "tests/fixtures/audit/code";

fn fixture(name: &str) -> Vec<Found> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_bytes(name, &bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The jobs as text: one line per job, one per setting.
fn shown(found: &[Found]) -> String {
    let mut s = String::new();
    for f in found {
        let _ = writeln!(
            s,
            "{} {:?} @{}:{}",
            f.system.name(),
            f.name,
            f.at.line,
            f.at.column
        );
        for x in &f.settings {
            let v = match &x.value {
                Value::Stated(fact) => format!("{fact:?}"),
                Value::Unresolved { fact, expression } => {
                    format!("unresolved {fact}: {expression}")
                }
            };
            let _ = writeln!(s, "  {} @{}:{} = {v}", x.key, x.at.line, x.at.column);
        }
    }
    s
}

fn stated(f: &Found, key: &str) -> Vec<Fact> {
    f.settings
        .iter()
        .filter(|s| s.key == key)
        .filter_map(|s| match &s.value {
            Value::Stated(x) => Some(x.clone()),
            Value::Unresolved { .. } => None,
        })
        .collect()
}

fn unresolved(f: &Found, key: &str) -> Option<String> {
    f.settings.iter().find_map(|s| match &s.value {
        Value::Unresolved { expression, .. } if s.key == key => Some(expression.clone()),
        _ => None,
    })
}

#[test]
fn each_fixture_reads_as_its_snapshot() {
    for name in [
        "celery_tasks.py",
        "sidekiq_jobs.rb",
        "active_jobs.rb",
        "oban_workers.ex",
        "river_jobs.go",
        "temporal_activities.go",
        "bullmq_queue.ts",
        "pgboss_queue.mjs",
        "temporal_activities.ts",
        "temporal_retry_policy.json",
        "hostile_bidi.py",
        "celery_retry_kwargs.py",
        "sidekiq_bare_jobs.rb",
        "bullmq_worker_defaults.ts",
    ] {
        insta::assert_snapshot!(format!("audit_code_{name}"), shown(&fixture(name)));
    }
}

#[test]
fn celery_counts_retries_and_leaves_computed_values_unresolved() {
    let found = fixture("celery_tasks.py");
    let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
    // The task in a comment and the one in a string are not tasks.
    assert_eq!(
        names,
        [
            "send_twitter_status",
            "refresh_timeline",
            "from_the_environment",
            "forever",
            "BaseTaskWithRetry"
        ]
    );
    // A class-based task: its own attributes, not a method's locals.
    assert_eq!(stated(&found[4], "max_retries"), [Fact::Attempts(Some(6))]);
    let twitter = &found[0];
    assert_eq!(
        twitter.at,
        Pos {
            line: 12,
            column: 1
        }
    );
    assert_eq!(stated(twitter, "max_retries"), [Fact::Attempts(Some(6))]);
    assert_eq!(
        stated(twitter, "default_retry_delay"),
        [Fact::BaseMs(1_800_000)]
    );
    assert_eq!(
        stated(twitter, "visibility_timeout"),
        [Fact::LeaseMs(3_600_000)]
    );
    let timeline = &found[1];
    assert_eq!(
        stated(timeline, "retry_backoff"),
        [
            Fact::BackoffKind(BackoffKind::Exponential),
            Fact::BaseMs(1_000)
        ]
    );
    assert_eq!(
        stated(timeline, "retry_jitter"),
        [Fact::Jitter(Jitter::None)]
    );
    // A module constant bound once to a literal is that literal.
    assert_eq!(
        stated(timeline, "time_limit"),
        [Fact::AttemptTimeoutMs(30_000)]
    );
    let env = &found[2];
    assert_eq!(
        unresolved(env, "max_retries").as_deref(),
        Some("int(os.environ[\"RETRIES\"])")
    );
    assert_eq!(
        unresolved(env, "soft_time_limit").as_deref(),
        Some("f\"{TIMEOUT_S}\"")
    );
    // Celery truncates a float factor: 2.5 → 2 s.
    assert!(stated(env, "retry_backoff").contains(&Fact::BaseMs(2_000)));
    assert_eq!(stated(&found[3], "max_retries"), [Fact::Attempts(None)]);
    assert_eq!(
        unresolved(&found[3], "countdown").as_deref(),
        Some("backoff(self.request.retries)")
    );
}

#[test]
fn ruby_jobs_count_as_each_system_does() {
    let sidekiq = fixture("sidekiq_jobs.rb");
    assert!(sidekiq.iter().all(|f| f.system == TargetId::Sidekiq));
    assert_eq!(stated(&sidekiq[0], "retry"), [Fact::Attempts(Some(6))]);
    assert_eq!(stated(&sidekiq[0], "dead"), [Fact::KeepDead(false)]);
    assert!(unresolved(&sidekiq[0], "sidekiq_retry_in").is_some());
    assert_eq!(
        stated(&sidekiq[1], "retry"),
        [Fact::Attempts(Some(1)), Fact::KeepDead(false)]
    );
    assert_eq!(stated(&sidekiq[2], "retry"), [Fact::Attempts(Some(26))]);
    assert_eq!(
        stated(&sidekiq[2], "sidekiq_retry_in"),
        [Fact::BackoffKind(BackoffKind::Fixed), Fact::BaseMs(30_000)]
    );
    assert!(unresolved(&sidekiq[3], "retry").is_some());
    assert_eq!(sidekiq.len(), 4, "{}", shown(&sidekiq));

    let aj = fixture("active_jobs.rb");
    assert!(aj.iter().all(|f| f.system == TargetId::ActiveJob));
    assert_eq!(aj.len(), 6, "{}", shown(&aj));
    assert_eq!(stated(&aj[2], "attempts"), [Fact::Attempts(Some(3))]);
    assert_eq!(stated(&aj[2], "wait")[1], Fact::BaseMs(5_000));
    assert_eq!(stated(&aj[3], "attempts"), [Fact::Attempts(Some(10))]);
    assert_eq!(unresolved(&aj[3], "jitter").as_deref(), Some("0.15"));
    assert_eq!(stated(&aj[4], "attempts"), [Fact::Attempts(None)]);
    assert!(unresolved(&aj[1], "wait").is_some());
    assert_eq!(
        stated(&aj[0], "discard_on"),
        [Fact::NonRetryable(vec![
            "ActiveJob::DeserializationError".into()
        ])]
    );
    assert_eq!(aj[5].name, "OnlyDiscards");
}

#[test]
fn hostile_text_is_read_without_a_panic() {
    // Nesting 10 000 deep: refused at the limit, with the place.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    for name in ["a.py", "a.rb", "a.ex", "a.go", "a.ts", "a.json", "noext"] {
        match read(name, &deep) {
            Err(ReadError::TooDeep { at }) => {
                assert_eq!(at.column as usize, MAX_DEPTH + 1, "{name}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    // 6 MB: refused before reading.
    let big = "#".repeat(6 * 1024 * 1024);
    assert_eq!(
        read("big.py", &big),
        Err(ReadError::TooLarge {
            bytes: 6 * 1024 * 1024
        })
    );
    const { assert!(MAX_FILE_BYTES < 6 * 1024 * 1024) };
    // NUL bytes and invalid UTF-8: binary.
    assert_eq!(
        read("a.py", "@app.task(max_retries=1)\0"),
        Err(ReadError::Binary)
    );
    assert_eq!(
        read_bytes("a.rb", b"sidekiq_options retry: \xff\xfe"),
        Err(ReadError::Binary)
    );
    // Nothing known: says so.
    assert_eq!(
        read("notes.py", "print('hello')\n"),
        Err(ReadError::Unrecognised)
    );
    assert_eq!(read("empty.ts", ""), Err(ReadError::Unrecognised));
    // Unterminated strings and bidi controls: the jobs before and after are still found.
    let found = fixture("hostile_bidi.py");
    assert!(found
        .iter()
        .any(|f| stated(f, "max_retries") == [Fact::Attempts(Some(8))]));
    for cut in ["'", "\"", "\"\"\"", "`", "/*", "#{", "${"] {
        for name in ["a.py", "a.rb", "a.ex", "a.go", "a.ts", "a.json"] {
            let text = format!("sidekiq_options retry: 1\n{cut}@app.task(max_retries=1)\n");
            let _ = read(name, &text);
        }
    }
}

#[test]
fn a_file_near_the_size_limit_reads_in_reasonable_time() {
    // 5 MiB of real-looking code, nested objects and all: read whole, every job found.
    for (name, unit) in [
        ("big.ts", "const q = new Queue('q', { defaultJobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 10, x: [{ a: { b: { c: 1 } } }] } } });\n"),
        ("big.py", "@app.task(max_retries=3, retry_backoff=True, x={'a': {'b': [1, (2, 3)]}})\ndef t(self):\n    s = 'x'  # c\n"),
        ("big.rb", "class J\n  sidekiq_options retry: 5, x: { a: [1, { b: 2 }] }\nend\n"),
    ] {
        let n = (MAX_FILE_BYTES as usize - 1) / unit.len();
        let text = unit.repeat(n);
        let start = std::time::Instant::now();
        let found = read(name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let settings: usize = found.iter().map(|f| f.settings.len()).sum();
        eprintln!("{name}: {} jobs, {settings} settings in {:?}", found.len(), start.elapsed());
        // Jobs of one queue name are one job (BullMQ's Queue and Worker); every setting kept.
        assert!(settings >= n, "{name}: {settings} settings of {n} units");
    }
}

#[test]
fn an_unresolved_value_says_why_in_both_languages() {
    use modality_advisor::domain::audit::code::unresolved_reason;
    use modality_advisor::domain::Lang;
    let aj = fixture("active_jobs.rb");
    let jitter = aj[3]
        .settings
        .iter()
        .find_map(|s| match &s.value {
            Value::Unresolved { fact, expression } => Some((*fact, expression.clone())),
            Value::Stated(_) => None,
        })
        .unwrap_or_else(|| panic!("{}", shown(&aj)));
    assert_eq!(jitter, ("jitter", "0.15".to_owned()));
    let en = unresolved_reason(jitter.0, &jitter.1, Lang::En);
    assert!(en.contains("no equivalent") && en.contains("0.15"), "{en}");
    let ja = unresolved_reason(jitter.0, &jitter.1, Lang::Ja);
    assert!(
        ja.contains("対応する値がありません") && ja.contains("0.15"),
        "{ja}"
    );
    let env = unresolved_reason("attempts", "ENV[\"RETRIES\"]", Lang::En);
    assert!(
        env.contains("computed at run time") && env.contains("ENV[\"RETRIES\"]"),
        "{env}"
    );
    assert!(unresolved_reason("attempts", "ENV", Lang::Ja).contains("実行時に計算"));
    let big = unresolved_reason("attempts", "18446744073709551616", Lang::En);
    assert!(big.contains("allowed range"), "{big}");
}

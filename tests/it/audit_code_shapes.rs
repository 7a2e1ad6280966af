//! Shapes of queue code a newcomer writes that the audit used to misread (issue 27 item 2):
//! Celery's `retry_kwargs` (a dict literal or `dict(…)`, with Celery's own precedence from
//! celery/app/autoretry.py and task.py), Sidekiq job classes without `sidekiq_options`,
//! BullMQ Workers and `add` calls without retry options, and BullMQ's `removeOnFail` /
//! `removeOnComplete`. Each goes through `domain::audit::audit`, as the CLI does.

use modality_advisor::domain::audit::{self, AuditJob};
use modality_advisor::domain::queues::TargetId;
use modality_advisor::domain::sheet::{BackoffKind, Keep};
use modality_advisor::domain::Lang;

/// Every job `text` (the file `name`) defines, audited in `lang`.
fn jobs(name: &str, text: &str, lang: Lang) -> Vec<AuditJob> {
    audit::audit(name, text, lang)
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
        .1
}

/// The one job `text` defines.
fn one(name: &str, text: &str) -> AuditJob {
    let mut all = jobs(name, text, Lang::En);
    assert_eq!(all.len(), 1, "{name}: {all:#?}");
    all.remove(0)
}

fn stated_not(job: &AuditJob, path: &str) -> bool {
    job.not_stated.iter().all(|n| n.path != path)
}

fn attempts(job: &AuditJob) -> u32 {
    job.sheet.retry.as_ref().map_or(0, |r| r.max_attempts)
}

const CELERY: &str = "from celery import Celery\napp = Celery('shop')\n\n";

#[test]
fn celery_retry_kwargs_as_in_celerys_docs_give_attempts_and_the_backoff() {
    // The docs' form: retry_backoff set, so autoretry computes the countdown from the
    // backoff and the given countdown is overridden (autoretry.py L47–54).
    let text = format!(
        "{CELERY}@app.task(autoretry_for=(ConnectionError,), retry_kwargs={{\"max_retries\": 7, \"countdown\": 10}}, retry_backoff=5)\ndef ship(order_id):\n    pass\n"
    );
    let job = one("tasks.py", &text);
    assert_eq!(attempts(&job), 8, "max_retries 7 = 8 attempts");
    assert!(
        stated_not(&job, "retry.max_attempts"),
        "{:#?}",
        job.not_stated
    );
    let r = job.sheet.retry.as_ref().expect("a retry section");
    assert_eq!(r.backoff.kind, BackoffKind::Exponential);
    assert_eq!(
        r.backoff.base_ms, 5_000,
        "the backoff, not the countdown, is the wait"
    );
    assert_eq!(job.schedule.attempts, Some(8));
    assert_eq!(job.schedule.delays.len(), 7);
    // Full jitter on min(600, 5 · 2^r): the largest first wait is 5 s.
    assert_eq!(job.schedule.delays[0].max_s, 5.0);
}

#[test]
fn celery_retry_kwargs_countdown_is_the_fixed_wait_without_backoff() {
    for kwargs in [
        "{'max_retries': 2, 'countdown': 10}",
        "dict(max_retries=2, countdown=10)",
    ] {
        let text = format!(
            "{CELERY}@app.task(autoretry_for=(IOError,), default_retry_delay=60, retry_kwargs={kwargs})\ndef ship(order_id):\n    pass\n"
        );
        let job = one("tasks.py", &text);
        assert_eq!(attempts(&job), 3, "{kwargs}");
        let r = job.sheet.retry.as_ref().expect("a retry section");
        assert_eq!(r.backoff.kind, BackoffKind::Fixed, "{kwargs}");
        // retry(countdown=10) is used as given; default_retry_delay only when it is None.
        assert_eq!(r.backoff.base_ms, 10_000, "{kwargs}");
        let waits: Vec<f64> = job.schedule.delays.iter().map(|d| d.max_s).collect();
        assert_eq!(waits, [10.0, 10.0], "{kwargs}");
    }
}

#[test]
fn celery_retry_kwargs_max_retries_wins_over_the_decorators() {
    // autoretry calls task.retry(**retry_kwargs); retry() prefers its own max_retries.
    let text = format!(
        "{CELERY}@app.task(max_retries=1, autoretry_for=(IOError,), retry_kwargs={{'max_retries': 5}})\ndef ship(order_id):\n    pass\n"
    );
    assert_eq!(attempts(&one("tasks.py", &text)), 6);
    // `None` in retry_kwargs is "the task's own" (task.py), not unlimited.
    let text = format!(
        "{CELERY}@app.task(max_retries=1, autoretry_for=(IOError,), retry_kwargs={{'max_retries': None}})\ndef ship(order_id):\n    pass\n"
    );
    let job = one("tasks.py", &text);
    assert_eq!(attempts(&job), 2);
    assert_eq!(job.schedule.attempts, Some(2));
    // On a class-based task too.
    let text = format!(
        "{CELERY}class Base(Task):\n    autoretry_for = (IOError,)\n    retry_kwargs = {{'max_retries': 4}}\n"
    );
    assert_eq!(attempts(&one("tasks.py", &text)), 5);
}

#[test]
fn celery_retry_kwargs_from_elsewhere_is_not_resolved_never_guessed() {
    let text = "from celery import Celery\nfrom settings import RETRY\napp = Celery('shop')\n\n@app.task(autoretry_for=(IOError,), retry_kwargs=RETRY)\ndef ship(order_id):\n    pass\n";
    let job = one("tasks.py", text);
    let facts: Vec<_> = job
        .unresolved
        .iter()
        .filter(|u| u.key == "retry_kwargs")
        .map(|u| (u.fact, u.expression.as_str(), u.line))
        .collect();
    // One setting as written is listed once, though it stands for the attempts and the wait
    // (both fields are unknown).
    assert_eq!(facts, [("attempts", "RETRY", 5)], "{:#?}", job.unresolved);
    let unknown: Vec<_> = job.unknown.iter().map(|u| u.path).collect();
    assert_eq!(
        unknown,
        ["retry.max_attempts", "retry.backoff"],
        "{unknown:?}"
    );
    // Listed as unresolved, so not as "not stated (default: 3 retries)".
    assert!(
        stated_not(&job, "retry.max_attempts"),
        "{:#?}",
        job.not_stated
    );
    let text = format!(
        "{CELERY}@app.task(autoretry_for=(IOError,), retry_kwargs={{'max_retries': int(os.environ['N'])}})\ndef ship(order_id):\n    pass\n"
    );
    let job = one("tasks.py", &text);
    assert!(
        job.unresolved
            .iter()
            .any(|u| u.key == "retry_kwargs.max_retries" && u.fact == "attempts"),
        "{:#?}",
        job.unresolved
    );
}

#[test]
fn a_sidekiq_job_without_sidekiq_options_runs_with_sidekiqs_defaults() {
    for module in ["Sidekiq::Job", "Sidekiq::Worker"] {
        let text = format!(
            "class HardJob\n  include {module}\n\n  def perform(name, count)\n  end\nend\n"
        );
        for lang in [Lang::En, Lang::Ja] {
            let all = jobs("hard_job.rb", &text, lang);
            assert_eq!(all.len(), 1, "{module}: {all:#?}");
            let job = &all[0];
            assert_eq!(job.system, TargetId::Sidekiq);
            assert_eq!((job.name.as_str(), job.line), ("HardJob", 1));
            assert_eq!(attempts(job), 26, "25 retries");
            let said = job
                .not_stated
                .iter()
                .find(|n| n.path == "retry.max_attempts")
                .map(|n| n.default.as_str());
            assert!(said.is_some_and(|d| d.contains("25")), "{said:?}");
            assert!(job.not_stated.iter().any(|n| n.path == "retry.backoff"));
        }
    }
    // An Active Job class is not a Sidekiq job, whatever its adapter.
    let text = "class RemoteJob < ApplicationJob\n  queue_as :default\n\n  def perform(*args)\n  end\nend\n";
    assert!(audit::audit("remote_job.rb", text, Lang::En).map_or(true, |(_, j)| j.is_empty()));
}

#[test]
fn a_bullmq_worker_or_add_without_options_retries_nothing_and_says_so() {
    let text = "import { Queue, Worker } from 'bullmq';\nconst queue = new Queue('mail');\nawait queue.add('welcome', { to: 'a@b.c' });\nconst worker = new Worker('mail', async job => {});\n";
    let all = jobs("mail.ts", text, Lang::En);
    let names: Vec<_> = all.iter().map(|j| (j.name.as_str(), j.line)).collect();
    assert_eq!(names, [("welcome", 3), ("mail", 4)], "{all:#?}");
    for job in &all {
        assert_eq!(job.system, TargetId::Bullmq);
        assert_eq!(attempts(job), 1);
        assert!(
            job.findings.iter().any(|f| f.code == "bullmq-no-retries"),
            "{:#?}",
            job.findings
        );
    }
    // Where the file gives attempts (here to the queue's jobs), a bare Worker is not
    // reported as retrying nothing.
    let text = "import { Queue, Worker } from 'bullmq';\nconst queue = new Queue('mail', { defaultJobOptions: { attempts: 5 } });\nawait queue.add('welcome', {});\nconst worker = new Worker('mail', async job => {});\n";
    let all = jobs("mail.ts", text, Lang::En);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(attempts(&all[0]), 5);
}

#[test]
fn bullmq_remove_on_fail_and_complete_are_read() {
    let job_with = |opts: &str| {
        let text = format!(
            "import {{ Queue }} from 'bullmq';\nconst queue = new Queue('mail', {{ defaultJobOptions: {{ attempts: 3, {opts} }} }});\n"
        );
        one("mail.ts", &text)
    };
    let dead = |job: &AuditJob| {
        job.sheet
            .failure
            .as_ref()
            .map(|f| (f.dead_letter.clone(), f.retention))
            .expect("a failure section")
    };
    // A number keeps the newest that many failed jobs: the dead letter's retention.
    let job = job_with("removeOnFail: 5000");
    assert!(
        stated_not(&job, "failure.dead_letter"),
        "{:#?}",
        job.not_stated
    );
    assert!(dead(&job).0.contains("5000"), "{:?}", dead(&job));
    assert!(!dead(&job).0.contains("forever"));
    // An age of whole days is the dead letter's retention in the sheet.
    let job = job_with("removeOnFail: { age: 7 * 24 * 3600, count: 1000 }");
    let (words, retention) = dead(&job);
    assert_eq!(retention.dead, Keep::Days(7));
    assert!(words.contains("1000") && words.contains("7 d"), "{words}");
    // `true` removes a failed job at once: nobody can look at it, said at its line.
    let job = job_with("removeOnFail: true");
    assert!(dead(&job).0.contains("removes"), "{:?}", dead(&job));
    let f = job
        .findings
        .iter()
        .find(|f| f.field == "failure.dead_letter")
        .expect("a finding for removed failed jobs");
    assert_eq!((f.code, f.line), ("setting-not-in-sheet", 2));
    // Completed jobs: whole days are the done jobs' retention; a count is said at its line.
    let job = job_with("removeOnComplete: { age: 86400 }");
    assert_eq!(dead(&job).1.done, Keep::Days(1));
    let job = job_with("removeOnComplete: 100");
    assert!(job
        .findings
        .iter()
        .any(|f| f.field == "failure.retention.done" && f.message.contains("100")));
    // Not a literal: unresolved, not "kept forever".
    let job = job_with("removeOnFail: KEEP");
    assert!(job.unresolved.iter().any(|u| u.key == "removeOnFail"));
    assert!(stated_not(&job, "failure.dead_letter"));
    // In Japanese too.
    let text = "import { Queue } from 'bullmq';\nconst queue = new Queue('mail', { defaultJobOptions: { attempts: 3, removeOnFail: 5000 } });\n";
    let ja = &jobs("mail.ts", text, Lang::Ja)[0];
    let words = &ja.sheet.failure.as_ref().expect("failure").dead_letter;
    assert!(words.contains("5000") && words.contains("保持"), "{words}");
}

/// The shapes' fixtures (`tests/fixtures/audit/code/`), hostile lines included.
const FIXTURES: [&str; 3] = [
    "celery_retry_kwargs.py",
    "sidekiq_bare_jobs.rb",
    "bullmq_worker_defaults.ts",
];

#[test]
fn the_shapes_fixtures_print_through_the_cli() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit/code");
    for format in ["text", "json"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
            .arg("audit")
            .args(FIXTURES)
            .args(["--format", format, "--fail-level", "none"])
            .current_dir(&dir)
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .expect("the CLI runs");
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        insta::assert_snapshot!(format!("audit_code_shapes_{format}"), text);
    }
}

/// A computed `sidekiq_retry_in` block (as the Sidekiq export writes it, with a comment
/// line) is not resolved, and the expression shown is its code without the comment.
#[test]
fn a_computed_block_is_shown_without_its_comments() {
    let text = "class MailJob\n  include Sidekiq::Job\n  sidekiq_options retry: 4\n\n  sidekiq_retry_in do |count, exception, job|\n    # the sheet's wait before retry count, in whole seconds\n    wait = rand * [10 * 2**count, 600].min\n    [wait.round, 1].max\n  end\nend\n";
    let job = one("mail_job.rb", text);
    let shown: Vec<&str> = job
        .unresolved
        .iter()
        .filter(|u| u.key == "sidekiq_retry_in")
        .map(|u| u.expression.as_str())
        .collect();
    assert_eq!(
        shown,
        ["wait = rand * [10 * 2**count, 600].min [wait.round, 1].max"],
        "{:#?}",
        job.unresolved
    );
}

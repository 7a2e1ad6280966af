//! The audit's sheet and schedule for queue code (issue 27 item 2): for Celery, Sidekiq,
//! Active Job, Oban, River, BullMQ, pg-boss and Temporal, a file that states nothing about
//! the retries gets that system's own defaults (listed as not stated, in both languages) and
//! the schedule `queues::defaults` computes; a file that states the retries gets those
//! values and no "not stated" for them; our own export of a generated sheet, audited, gives
//! the sheet's attempts again and, where the export writes its wait as literals, the same
//! `built.actual` schedule. The eight doc-style fixtures are snapshotted as the CLI prints
//! them (text and JSON).

use crate::target_queue_support::{example, retry_sheet};
use modality_advisor::domain::audit::{self, found::Value, AuditJob};
use modality_advisor::domain::queues::{self, Schedule, TargetId};
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::{BackoffKind, JobSheet};
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

/// The one job `text` (the file `name`) defines, audited in `lang`.
fn one(name: &str, text: &str, lang: Lang) -> AuditJob {
    let (_, found) = audit::read(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    assert_eq!(found.len(), 1, "{name}: {found:#?}");
    audit::audit_job(name, &found[0], lang)
}

/// Each system with a file that states nothing about its retries.
const MINIMAL: [(TargetId, &str, &str); 8] = [
    (
        TargetId::Celery,
        "tasks.py",
        "from celery import Celery\napp = Celery('shop')\n\n@app.task\ndef ship(order_id):\n    pass\n",
    ),
    (
        TargetId::Sidekiq,
        "hard_job.rb",
        "class HardJob\n  include Sidekiq::Job\n  sidekiq_options queue: 'critical'\n\n  def perform(id)\n  end\nend\n",
    ),
    (
        TargetId::ActiveJob,
        "remote_job.rb",
        "class RemoteServiceJob < ApplicationJob\n  retry_on CustomAppException\n\n  def perform(*args)\n  end\nend\n",
    ),
    (
        TargetId::Oban,
        "business.ex",
        "defmodule MyApp.Business do\n  use Oban.Worker, queue: :events\n\n  @impl Oban.Worker\n  def perform(_job), do: :ok\nend\n",
    ),
    (
        TargetId::River,
        "sort.go",
        "package main\n\ntype SortArgs struct{}\n\nfunc (SortArgs) Kind() string { return \"sort\" }\n\nfunc (SortArgs) InsertOpts() river.InsertOpts {\n\treturn river.InsertOpts{Queue: \"q\"}\n}\n",
    ),
    (
        TargetId::Bullmq,
        "worker.ts",
        "import { Worker } from 'bullmq';\nconst worker = new Worker('foo', async job => {}, { concurrency: 5 });\n",
    ),
    (
        TargetId::PgBoss,
        "queue.mjs",
        "import PgBoss from 'pg-boss';\nconst boss = new PgBoss(url);\nawait boss.createQueue('email', { expireInSeconds: 900 });\n",
    ),
    (
        TargetId::Temporal,
        "workflow.ts",
        "import { proxyActivities } from '@temporalio/workflow';\nconst { job } = proxyActivities({ startToCloseTimeout: '1 minute' });\n",
    ),
];

/// What the minimal file's not-stated retry fields must say: each system's own default.
fn default_words(system: TargetId) -> (&'static str, &'static str) {
    match system {
        TargetId::Celery => ("max_retries = 3", "180 s"),
        TargetId::Sidekiq => ("25 retries", "c⁴ + 15"),
        TargetId::ActiveJob => ("5 attempts", "3 s"),
        TargetId::Oban => ("20 attempts", "15 + 2^attempt"),
        TargetId::River => ("25 attempts", "n⁴"),
        TargetId::Bullmq => ("1 attempt", "at once"),
        TargetId::PgBoss => ("retryLimit = 2", "0 s"),
        _ => ("unlimited", "1 s, doubling"),
    }
}

fn default_of<'a>(job: &'a AuditJob, path: &str) -> &'a str {
    job.not_stated
        .iter()
        .find(|n| n.path == path)
        .map_or("", |n| n.default.as_str())
}

fn importable(job: &AuditJob) {
    let json = serde_json::to_string(&job.sheet).expect("a sheet serialises");
    if let Err(e) = import_json(&json, Lang::En) {
        panic!("{:?}: the sheet does not import: {e:?}\n{json}", job.system);
    }
}

#[test]
fn a_file_that_states_nothing_gets_its_systems_defaults_and_schedule() {
    for (system, name, text) in MINIMAL {
        let job = one(name, text, Lang::En);
        assert_eq!(job.system, system, "{name}");
        let (attempts, backoff) = default_words(system);
        let said = default_of(&job, "retry.max_attempts");
        assert!(said.contains(attempts), "{system:?}: {said}");
        let said = default_of(&job, "retry.backoff");
        assert!(said.contains(backoff), "{system:?}: {said}");
        let ja = one(name, text, Lang::Ja);
        assert_ne!(
            default_of(&ja, "retry.max_attempts"),
            default_of(&job, "retry.max_attempts"),
            "{system:?}: the default in Japanese"
        );
        let want = queues::defaults(system, Lang::En);
        assert_eq!(job.schedule, want.schedule, "{system:?}");
        let r = job.sheet.retry.as_ref().expect("a retry section");
        assert_eq!(
            r.max_attempts,
            want.attempts.unwrap_or(100).min(100),
            "{system:?}"
        );
        importable(&job);
        let no_retries = job.findings.iter().any(|f| f.code == "bullmq-no-retries");
        assert_eq!(no_retries, system == TargetId::Bullmq, "{system:?}");
    }
}

/// Each system with a file that states its attempts and wait (a computed wait where the
/// system has no literal one), and the retry fields the system has no setting for.
const STATED: [(TargetId, &str, &str, u32, &[&str]); 8] = [
    (
        TargetId::Celery,
        "tasks.py",
        "from celery import Celery\napp = Celery('shop')\napp.conf.broker_transport_options = {'visibility_timeout': 7200}\n\n@app.task(max_retries=5, retry_backoff=2, retry_backoff_max=300, retry_jitter=False, time_limit=60)\ndef ship(order_id):\n    pass\n",
        6,
        &[],
    ),
    (
        TargetId::Sidekiq,
        "hard_job.rb",
        "class HardJob\n  include Sidekiq::Job\n  sidekiq_options retry: 5\n  sidekiq_retry_in { |count| 30 }\n\n  def perform(id)\n  end\nend\n",
        6,
        &["retry.attempt_timeout_ms", "retry.lease_ms"],
    ),
    (
        TargetId::ActiveJob,
        "remote_job.rb",
        "class RemoteServiceJob < ApplicationJob\n  retry_on CustomAppException, wait: 5.seconds, attempts: 3, jitter: 0\n\n  def perform(*args)\n  end\nend\n",
        3,
        &["retry.attempt_timeout_ms", "retry.lease_ms"],
    ),
    (
        TargetId::Oban,
        "business.ex",
        "defmodule MyApp.Business do\n  use Oban.Worker, queue: :events, max_attempts: 10\n\n  @impl Oban.Worker\n  def backoff(%Oban.Job{attempt: attempt}), do: attempt * 10\n\n  @impl Oban.Worker\n  def timeout(_job), do: :timer.seconds(30)\n\n  @impl Oban.Worker\n  def perform(_job), do: :ok\nend\n",
        10,
        &["retry.lease_ms"],
    ),
    (
        TargetId::River,
        "sort.go",
        "package main\n\ntype SortArgs struct{}\n\nfunc (SortArgs) Kind() string { return \"sort\" }\n\nfunc (SortArgs) InsertOpts() river.InsertOpts {\n\treturn river.InsertOpts{MaxAttempts: 5}\n}\n\ntype SortWorker struct {\n\triver.WorkerDefaults[SortArgs]\n}\n\nfunc (w *SortWorker) NextRetry(job *river.Job[SortArgs]) time.Time {\n\treturn time.Now().Add(10 * time.Second)\n}\n\nfunc NewConfig(workers *river.Workers) *river.Config {\n\treturn &river.Config{\n\t\tJobTimeout:           2 * time.Minute,\n\t\tRescueStuckJobsAfter: 30 * time.Minute,\n\t}\n}\n",
        5,
        &[],
    ),
    (
        TargetId::Bullmq,
        "queue.ts",
        "import { Queue } from 'bullmq';\nconst q = new Queue('foo', {\n  defaultJobOptions: { attempts: 4, backoff: { type: 'exponential', delay: 1000, jitter: 1 } },\n});\nconst w = new Worker('foo', async job => {}, { lockDuration: 60000 });\n",
        4,
        &["retry.attempt_timeout_ms", "retry.backoff.cap_ms"],
    ),
    (
        TargetId::PgBoss,
        "queue.mjs",
        "import PgBoss from 'pg-boss';\nconst boss = new PgBoss(url);\nawait boss.createQueue('email', { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 900, retentionDays: 7 });\n",
        6,
        &[],
    ),
    (
        TargetId::Temporal,
        "workflow.ts",
        "import { proxyActivities } from '@temporalio/workflow';\nconst { job } = proxyActivities({\n  startToCloseTimeout: '1 minute',\n  heartbeatTimeout: '10 seconds',\n  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 6 },\n});\n",
        6,
        &["retry.backoff.jitter"],
    ),
];

#[test]
fn a_file_that_states_its_retries_gets_them_and_no_not_stated_for_them() {
    for (system, name, text, attempts, none_in_system) in STATED {
        let job = one(name, text, Lang::En);
        assert_eq!(job.system, system, "{name}");
        let r = job.sheet.retry.as_ref().expect("a retry section");
        assert_eq!(r.max_attempts, attempts, "{system:?}");
        for n in &job.not_stated {
            assert!(
                !n.path.starts_with("retry.") || none_in_system.contains(&n.path),
                "{system:?}: {} not stated ({})",
                n.path,
                n.default
            );
        }
        assert_eq!(job.schedule.attempts, Some(attempts), "{system:?}");
        assert_ne!(
            job.schedule,
            queues::defaults(system, Lang::En).schedule,
            "{system:?}"
        );
        importable(&job);
    }
    let celery = one(STATED[0].1, STATED[0].2, Lang::En);
    let r = celery.sheet.retry.as_ref().expect("a retry section");
    assert_eq!(r.backoff.kind, BackoffKind::Exponential);
    assert_eq!((r.backoff.base_ms, r.backoff.cap_ms), (2_000, 300_000));
    assert_eq!((r.attempt_timeout_ms, r.lease_ms), (60_000, 7_200_000));
    // Celery's own formula: min(300, 2 · 2^r) s, no jitter.
    let waits: Vec<f64> = celery.schedule.delays.iter().map(|d| d.max_s).collect();
    assert_eq!(waits, [2.0, 4.0, 8.0, 16.0, 32.0]);
}

#[test]
fn what_the_sheet_cannot_hold_is_said_at_its_line() {
    let text = "from celery import Celery\napp = Celery('shop')\n\n@app.task(max_retries=None, acks_late=False)\ndef ship(order_id):\n    pass\n";
    let job = one("tasks.py", text, Lang::En);
    let said: Vec<_> = job
        .findings
        .iter()
        .filter(|f| f.code == "setting-not-in-sheet")
        .collect();
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(said.iter().all(|f| f.line == 4 && f.stated));
    assert_eq!(job.schedule.attempts, None);
    assert_eq!(job.sheet.retry.as_ref().map(|r| r.max_attempts), Some(100));
    let temporal = "import { proxyActivities } from '@temporalio/workflow';\nconst { job } = proxyActivities({\n  startToCloseTimeout: '1 minute',\n  retry: { initialInterval: '1s', backoffCoefficient: 3, maximumAttempts: 4 },\n});\n";
    let job = one("workflow.ts", temporal, Lang::En);
    let f = job
        .findings
        .iter()
        .find(|f| f.code == "setting-not-in-sheet")
        .expect("the coefficient is named");
    assert_eq!(f.line, 4);
    // Temporal's schedule with its own coefficient: 1 s, 3 s, 9 s.
    let waits: Vec<f64> = job.schedule.delays.iter().map(|d| d.max_s).collect();
    assert_eq!(waits, [1.0, 3.0, 9.0]);
    importable(&job);
}

#[test]
fn celerys_app_wide_task_defaults_are_read_and_a_tasks_own_option_wins() {
    // A settings file without a task: its time limit was reported "not stated: no limit"
    // while the file says 300 s.
    let settings = "from celery import Celery\n\napp = Celery('shop')\napp.conf.update(\n    task_acks_late=True,\n    worker_concurrency=8,\n    task_time_limit=300,\n    broker_transport_options={'visibility_timeout': 3600},\n)\n";
    let job = one("celeryconfig.py", settings, Lang::En);
    let r = job.sheet.retry.as_ref().expect("a retry section");
    assert_eq!((r.attempt_timeout_ms, r.lease_ms), (300_000, 3_600_000));
    assert!(
        !job.not_stated
            .iter()
            .any(|n| n.path == "retry.attempt_timeout_ms"),
        "stated by task_time_limit: {:?}",
        job.not_stated
    );
    // acks_late=True is what the sheet assumes: no "not in the sheet" finding for it.
    assert!(
        !job.findings
            .iter()
            .any(|f| f.code == "setting-not-in-sheet"),
        "{:#?}",
        job.findings
    );
    // Written `app.conf.task_time_limit = …` beside a task that sets its own: the task's wins;
    // a task without one gets the app's; `task_acks_late = False` is said at its own line.
    let tasks = "from celery import Celery\napp = Celery('shop')\napp.conf.task_time_limit = 120\napp.conf.task_acks_late = False\n\n@app.task(time_limit=30)\ndef ship(order_id):\n    pass\n\n@app.task\ndef mail(order_id):\n    pass\n";
    let (_, found) = audit::read("tasks.py", tasks).expect("reads");
    let jobs: Vec<AuditJob> = found
        .iter()
        .map(|f| audit::audit_job("tasks.py", f, Lang::En))
        .collect();
    let timeouts: Vec<(String, u64)> = jobs
        .iter()
        .map(|j| {
            let r = j.sheet.retry.as_ref().expect("retries");
            (j.name.clone(), r.attempt_timeout_ms)
        })
        .collect();
    assert_eq!(
        timeouts,
        [("ship".to_owned(), 30_000), ("mail".to_owned(), 120_000)]
    );
    for j in &jobs {
        let acks = j
            .findings
            .iter()
            .find(|f| f.code == "setting-not-in-sheet")
            .unwrap_or_else(|| panic!("{}: acks_late=False said", j.name));
        assert_eq!(acks.line, 4, "{}", j.name);
        assert!(acks.message.contains("task_acks_late"), "{}", acks.message);
    }
}

#[test]
fn a_bullmq_job_added_to_a_queue_gets_the_queues_defaults_and_its_workers_lease() {
    // The job `add` puts on queue `mail` ran with the Worker's lockDuration of 5 min, but the
    // audit gave it BullMQ's default 30 s (and a lease shorter than the timeout the sheet
    // prefills from it). Its own `backoff` replaces the queue's whole `backoff`, as BullMQ
    // merges options one level deep: the queue's full jitter does not reach it.
    let file = "import { Queue, Worker } from 'bullmq';\nconst mail = new Queue('mail', {\n  defaultJobOptions: { attempts: 4, backoff: { type: 'exponential', delay: 2000, jitter: 1 }, removeOnFail: 100 },\n});\nawait mail.add('receipt', { id: 1 }, { backoff: { type: 'fixed', delay: 500 } });\nawait mail.add('welcome', { id: 2 }, { attempts: 2 });\nnew Worker('mail', async (job) => {}, { lockDuration: 300000, concurrency: 8 });\n";
    let (_, found) = audit::read("mail.ts", file).expect("reads");
    let jobs: Vec<AuditJob> = found
        .iter()
        .map(|f| audit::audit_job("mail.ts", f, Lang::En))
        .collect();
    let shown: Vec<(String, u32, u64, BackoffKind, u64)> = jobs
        .iter()
        .map(|j| {
            let r = j.sheet.retry.as_ref().expect("retries");
            (
                j.name.clone(),
                r.max_attempts,
                r.lease_ms,
                r.backoff.kind,
                r.backoff.base_ms,
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            (
                "mail".to_owned(),
                4,
                300_000,
                BackoffKind::Exponential,
                2_000
            ),
            ("receipt".to_owned(), 4, 300_000, BackoffKind::Fixed, 500),
            (
                "welcome".to_owned(),
                2,
                300_000,
                BackoffKind::Exponential,
                2_000
            ),
        ]
    );
    let receipt = &jobs[1];
    assert_eq!(
        receipt.sheet.retry.as_ref().map(|r| r.backoff.jitter),
        Some(modality_advisor::domain::sheet::Jitter::None),
        "the queue's jitter is not the job's: {:#?}",
        receipt.sheet.retry
    );
    for j in &jobs {
        assert!(
            !j.not_stated.iter().any(|n| n.path == "retry.lease_ms"),
            "{}: the Worker states the lease: {:?}",
            j.name,
            j.not_stated
        );
    }
}

/// Each BullMQ job of `file` as (name, line, attempts, lease ms); `None` where not resolved.
fn bullmq_jobs(file: &str) -> Vec<(String, u32, Option<u32>, Option<u64>)> {
    let (_, found) = audit::read("queue.ts", file).expect("reads");
    found
        .iter()
        .map(|f| {
            let j = audit::audit_job("queue.ts", f, Lang::En);
            let unresolved = |path: &str| j.unresolved.iter().any(|u| u.path == Some(path));
            let r = j.sheet.retry.as_ref().expect("retries");
            (
                j.name.clone(),
                j.line,
                (!unresolved("retry.max_attempts")).then_some(r.max_attempts),
                (!unresolved("retry.lease_ms")).then_some(r.lease_ms),
            )
        })
        .collect()
}

#[test]
fn a_bullmq_job_runs_on_the_queue_its_add_names_and_stays_a_job_of_its_own() {
    // A name bound twice: the nearest binding before the `add` is its queue (it took the first).
    let shadowed = "import { Queue, Worker } from 'bullmq';\nfunction mailQueue() {\n  const q = new Queue('mail', { defaultJobOptions: { attempts: 5 } });\n  return q;\n}\nexport async function sms(data) {\n  const q = new Queue('sms', { defaultJobOptions: { attempts: 9 } });\n  await q.add('otp', data, { backoff: { type: 'fixed', delay: 2000 } });\n}\nnew Worker('mail', mailProc, { lockDuration: 120000 });\nnew Worker('sms', smsProc, { lockDuration: 45000 });\n";
    let otp = bullmq_jobs(shadowed)
        .into_iter()
        .find(|j| j.0 == "otp")
        .expect("the otp job");
    assert_eq!((otp.2, otp.3), (Some(9), Some(45_000)));
    // A job named like another queue, or like its own: a job of its own at its `add`; the
    // queues keep their own defaults and Workers.
    let named = "import { Queue, Worker } from 'bullmq';\nconst mail = new Queue('mail', { defaultJobOptions: { attempts: 5 } });\nconst sms = new Queue('sms', { defaultJobOptions: { attempts: 9 } });\nnew Worker('sms', smsProc, { lockDuration: 45000 });\nnew Worker('mail', mailProc, { lockDuration: 120000 });\nexport async function go(data) {\n  await mail.add('sms', data, { backoff: { type: 'fixed', delay: 3000 } });\n  await mail.add('mail', data, { attempts: 2 });\n}\n";
    assert_eq!(
        bullmq_jobs(named),
        [
            ("mail".to_owned(), 2, Some(5), Some(120_000)),
            ("sms".to_owned(), 3, Some(9), Some(45_000)),
            ("sms".to_owned(), 7, Some(5), Some(120_000)),
            ("mail".to_owned(), 8, Some(2), Some(120_000)),
        ]
    );
    // `addBulk` merges each element's `opts` over the queue's defaults as `add` does; a queue
    // bound to `this.queue`, or named by a constant, is found the same way.
    let bulk = "import { Queue, Worker } from 'bullmq';\nconst MAIL = 'mail';\nclass Mailer {\n  constructor() {\n    this.queue = new Queue(MAIL, { defaultJobOptions: { attempts: 5, backoff: { type: 'fixed', delay: 1000 } } });\n  }\n  async send(data) {\n    await this.queue.addBulk([\n      { name: 'receipt', data, opts: { backoff: { type: 'fixed', delay: 3000 } } },\n    ]);\n    await this.queue.add('welcome', data, { attempts: 2 });\n  }\n}\nnew Worker(MAIL, async (job) => send(job.data), { lockDuration: 120000 });\n";
    let jobs = bullmq_jobs(bulk);
    let find = |n: &str| {
        jobs.iter()
            .find(|j| j.0 == n)
            .unwrap_or_else(|| panic!("{n}: {jobs:?}"))
    };
    assert_eq!(
        (find("receipt").2, find("receipt").3),
        (Some(5), Some(120_000))
    );
    assert_eq!(
        (find("welcome").2, find("welcome").3),
        (Some(2), Some(120_000))
    );
    // Defaults the reader cannot evaluate leave the added job's attempts not resolved, as
    // the queue's own, instead of BullMQ's one attempt and a "no retries" warning.
    let unread = "import { Queue, Worker } from 'bullmq';\nconst q = new Queue('mail', { defaultJobOptions: jobDefaults });\nconst r = new Queue('sms', queueOpts);\nawait q.add('receipt', data, { backoff: { type: 'fixed', delay: 3000 } });\nawait r.add('otp', data, { backoff: { type: 'fixed', delay: 3000 } });\n";
    let jobs = bullmq_jobs(unread);
    for name in ["receipt", "otp"] {
        let j = jobs
            .iter()
            .find(|j| j.0 == name)
            .unwrap_or_else(|| panic!("{name}: {jobs:?}"));
        assert_eq!(j.2, None, "{name}: attempts not resolved: {jobs:?}");
    }
    // A spread in a job's options may carry its attempts and backoff: not resolved, unless a
    // key after it states them; a Worker's spread carries neither.
    let spread = "import { Queue, Worker } from 'bullmq';\nconst q = new Queue('mail', { defaultJobOptions: { attempts: 5 } });\nawait q.add('a', data, { ...retryOpts, removeOnComplete: true });\nawait q.add('b', data, { ...retryOpts, attempts: 3 });\nawait q.add('c', data, { attempts: 3, ...retryOpts });\nnew Worker('mail', proc, { ...workerOpts, lockDuration: 60000 });\n";
    let jobs = bullmq_jobs(spread);
    let attempts: Vec<(&str, Option<u32>)> = jobs.iter().map(|j| (j.0.as_str(), j.2)).collect();
    assert_eq!(
        attempts,
        [("mail", Some(5)), ("a", None), ("b", Some(3)), ("c", None)]
    );
    let (_, found) = audit::read("queue.ts", unread).expect("reads");
    for f in &found {
        let j = audit::audit_job("queue.ts", f, Lang::En);
        assert!(
            !j.findings.iter().any(|x| x.code == "bullmq-no-retries"),
            "{}: {:?}",
            j.name,
            j.findings
        );
    }
}

/// Whether two schedules agree to a microsecond.
fn same(a: &Schedule, b: &Schedule) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-6 * x.abs().max(1.0);
    let opt = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => close(x, y),
        (x, y) => x == y,
    };
    a.attempts == b.attempts
        && a.delays.len() == b.delays.len()
        && a.delays.iter().zip(&b.delays).all(|(x, y)| {
            close(x.min_s, y.min_s) && close(x.expected_s, y.expected_s) && close(x.max_s, y.max_s)
        })
        && opt(a.window_s.min, b.window_s.min)
        && opt(a.window_s.max, b.window_s.max)
}

const WAIT_FACTS: [&str; 5] = ["attempts", "backoff-kind", "base-ms", "cap-ms", "jitter"];

/// Our export of `sheet` to every code target, audited: the sheet's attempts, and the same
/// schedule where the export writes the wait as literals. The number of schedules compared.
fn round_trip(sheet: &JobSheet) -> Result<usize, TestCaseError> {
    let Some(r) = sheet.retry.as_ref() else {
        return Ok(0);
    };
    let mut compared = 0;
    for target in crate::audit_code_roundtrip::CODE_TARGETS {
        for &format in target.formats() {
            let Ok(rep) = queues::report(sheet, target, Some(format), Lang::En) else {
                continue;
            };
            let (_, found) = audit::read(&rep.file_name, &rep.built.text)
                .map_err(|e| TestCaseError::fail(format!("{target:?}: {e:?}")))?;
            let f = found
                .iter()
                .find(|f| f.system == target)
                .ok_or_else(|| TestCaseError::fail(format!("{target:?}: no job")))?;
            let job = audit::audit_job(&rep.file_name, f, Lang::En);
            let got = job.sheet.retry.as_ref().map(|x| x.max_attempts);
            prop_assert_eq!(
                got,
                Some(r.max_attempts),
                "{:?}\n{}",
                target,
                rep.built.text
            );
            let computed = f.settings.iter().any(
                |s| matches!(&s.value, Value::Unresolved { fact, .. } if WAIT_FACTS.contains(fact)),
            );
            if computed {
                continue;
            }
            prop_assert!(
                same(&job.schedule, &rep.built.actual),
                "{:?} {:?}: audited {:#?}\nexported {:#?}\n{}",
                target,
                format,
                job.schedule,
                rep.built.actual,
                rep.built.text
            );
            compared += 1;
        }
    }
    Ok(compared)
}

#[test]
fn the_worked_example_audits_back_to_its_schedule() {
    let n = round_trip(&example(Lang::En)).unwrap_or_else(|e| panic!("{e}"));
    assert!(n >= 2, "{n} schedules compared");
}

proptest! {
    #![proptest_config(crate::fuzz_support::cases(128))]

    #[test]
    fn generated_sheets_audit_back_to_their_schedules(sheet in retry_sheet()) {
        round_trip(&sheet)?;
    }
}

/// The doc-style fixtures of the eight systems (`tests/fixtures/audit/code/`).
const FIXTURES: [&str; 10] = [
    "celery_tasks.py",
    "sidekiq_jobs.rb",
    "active_jobs.rb",
    "oban_workers.ex",
    "river_jobs.go",
    "bullmq_queue.ts",
    "pgboss_queue.mjs",
    "temporal_activities.go",
    "temporal_activities.ts",
    "temporal_retry_policy.json",
];

#[test]
fn the_doc_style_fixtures_print_as_before() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit/code");
    for format in ["text", "json"] {
        let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
            .arg("audit")
            .args(FIXTURES)
            .args(["--format", format, "--fail-level", "none"])
            .current_dir(&dir)
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .expect("the CLI runs");
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        insta::assert_snapshot!(format!("audit_code_{format}"), text);
    }
}

//! What a reader finds in an existing configuration, before it becomes a sheet (issue 27
//! item 2): one [`Found`] per job, queue or task the file defines, with every setting the
//! file states, where it states it, and the settings it names but does not give a literal
//! value for ([`Value::Unresolved`]).
//!
//! Every reader (CloudFormation, Terraform, Kubernetes, Cloud Tasks, and the literal scanners
//! for Celery, Sidekiq, Active Job, Oban, River, BullMQ, pg-boss and Temporal) returns
//! `Result<Vec<Found>, ReadError>`; [`crate::domain::audit`] turns each `Found` into a sheet
//! (what the file does not say marked "not stated"), the schedule the system really runs and
//! the findings. Readers already convert each system's own units and counting into the
//! sheet's (`brief/QUEUES.md`: retries vs attempts, seconds vs milliseconds, index bases);
//! they never guess a value the file does not give.

use crate::domain::queues::TargetId;
use crate::domain::sheet::{BackoffKind, Jitter};
use serde::Serialize;

/// A place in the file: 1-based line and column (columns count characters, as SARIF's
/// default `columnKind` "unicodeCodePoints" does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// One fact about a job that a configuration can state, in the sheet's units.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "fact", content = "value")]
pub enum Fact {
    /// Runs in all, the first included (`RetrySpec::max_attempts`); a system that counts
    /// retries is converted (Sidekiq `retry: 5` → 6). `None`: unlimited (River, Cloud Tasks
    /// `-1`, Temporal `0`).
    Attempts(Option<u32>),
    /// How the wait grows (`BackoffPolicy::kind`).
    BackoffKind(BackoffKind),
    /// The first wait (or a polynomial's constant), in ms.
    BaseMs(u64),
    /// The growth factor of an exponential backoff, in thousandths (2.0 → 2 000), where a
    /// system lets it differ from 2 (Temporal `backoffCoefficient`, Cloud Tasks'
    /// doublings).
    FactorMilli(u64),
    /// The largest wait, in ms.
    CapMs(u64),
    /// How many times the wait doubles before it grows linearly (Cloud Tasks
    /// `maxDoublings` / `max_doublings`).
    MaxDoublings(u32),
    /// How the wait is randomised.
    Jitter(Jitter),
    /// Time allowed for one attempt, in ms (a function's timeout, `activeDeadlineSeconds`,
    /// `startToCloseTimeout`, Celery `time_limit` …).
    AttemptTimeoutMs(u64),
    /// The lease / visibility timeout, in ms.
    LeaseMs(u64),
    /// How long the queue keeps a message, in ms (SQS `MessageRetentionPeriod` …).
    RetentionMs(u64),
    /// The longest retry window the system allows, in ms (Cloud Tasks `maxRetryDuration`,
    /// Temporal `scheduleToCloseTimeout`).
    MaxRetryDurationMs(u64),
    /// Where exhausted jobs go (a DLQ's name or ARN as written; empty: the system's own
    /// dead set).
    DeadLetter(String),
    /// How many times the queue delivers before dead-lettering (SQS `maxReceiveCount`):
    /// the queue's redelivery layer.
    MaxReceiveCount(u32),
    /// Jobs run at once (workers × concurrency, `parallelism`, `maxConcurrentDispatches`,
    /// a mapping's `MaximumConcurrency`).
    Concurrency(u32),
    /// Dispatches per second the system allows (Cloud Tasks `maxDispatchesPerSecond`, a
    /// limiter), in thousandths of a call per second.
    RatePerSecMilli(u64),
    /// Messages per batch (an event source mapping's `BatchSize`).
    BatchSize(u32),
    /// How long a batch is gathered, in ms (`MaximumBatchingWindowInSeconds`).
    BatchWindowMs(u64),
    /// Whether failed items of a batch are reported one by one
    /// (`FunctionResponseTypes: [ReportBatchItemFailures]`).
    PartialBatchResponse(bool),
    /// Whether the job is acknowledged after it runs (Celery `acks_late`): `false` acks it
    /// before it runs, so a crash loses it.
    AcksLate(bool),
    /// Whether exhausted jobs are kept in the system's own dead set (Sidekiq `dead: false`,
    /// or `retry: false`, drops them).
    KeepDead(bool),
    /// Errors the system does not retry, as written (Temporal `nonRetryableErrorTypes`,
    /// Active Job `discard_on`).
    NonRetryable(Vec<String>),
    /// Errors the system retries, as written (Celery `autoretry_for`, Active Job
    /// `retry_on`).
    Retryable(Vec<String>),
    /// A batch's schedule as written (a CronJob's `schedule`).
    Cron(String),
    /// A batch's time zone as written (`timeZone`).
    TimeZone(String),
    /// A CronJob's `concurrencyPolicy` as written (`Allow`, `Forbid`, `Replace`).
    ConcurrencyPolicy(String),
    /// A Job's pod `restartPolicy` as written (`Never`: the controller replaces a failed pod
    /// after its pod backoff; `OnFailure`: the kubelet restarts the container in place).
    RestartPolicy(String),
    /// A CronJob's `startingDeadlineSeconds`, in ms.
    StartingDeadlineMs(u64),
    /// The built-in wait a system names, as written without the colon (Active Job
    /// `:polynomially_longer`, which Rails before 7.1 does not know, or
    /// `:exponentially_longer`): whether the release audited for knows it.
    WaitName(String),
    /// How long the system keeps finished jobs in its own sets (BullMQ `removeOnFail` /
    /// `removeOnComplete`): `count` the newest kept (0: removed at once), `age_ms` how long
    /// each is kept; both `None`: kept forever.
    KeepJobs {
        /// Failed (exhausted) jobs; `false`: completed ones.
        failed: bool,
        /// How many of the newest are kept.
        count: Option<u32>,
        /// How long each is kept, in ms.
        age_ms: Option<u64>,
    },
}

/// A setting's value: stated as a literal, or named with a value the reader cannot know
/// (a variable, a reference to another resource, a value computed at run time).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// The file states it.
    Stated(Fact),
    /// The file sets it from something the reader does not evaluate; the text is the
    /// expression as written (e.g. `var.visibility_timeout`, `!GetAtt Dlq.Arn`,
    /// `ENV["RETRIES"]`), shortened to 120 characters.
    Unresolved {
        /// Which fact it would be, as the fact's kebab-case name (e.g. `"lease-ms"`).
        fact: &'static str,
        /// The expression as written.
        expression: String,
    },
}

/// One setting read from the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting {
    /// The key as the file writes it (e.g. `VisibilityTimeout`, `max_retries`,
    /// `spec.backoffLimit`), for messages and for the reader's user.
    pub key: String,
    /// Where the value is (for a finding's line and column).
    pub at: Pos,
    /// The value.
    pub value: Value,
}

/// One job, queue or task the file defines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Found {
    /// The system whose semantics apply (its schedule formula, defaults and traps).
    pub system: TargetId,
    /// The job's name as the file writes it (a resource's logical id, a class or function
    /// name, a `metadata.name`); empty when the file gives none.
    pub name: String,
    /// Where the job's definition starts.
    pub at: Pos,
    /// Every setting read, in file order.
    pub settings: Vec<Setting>,
    /// Version the file itself states, as written (a Kubernetes manifest's `apiVersion`);
    /// the release a project pins is in its lock files, read by [`super::pins`].
    pub version: Option<String>,
    /// Settings of another resource of the file the job relies on (an SQS queue's
    /// dead-letter queue), keyed `resource.key` as written: not the job's facts, held only to
    /// the system's own limits ([`super::traps`]). Empty for most jobs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub elsewhere: Vec<Setting>,
}

/// Why a file could not be read. Every reader returns this, never panics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum ReadError {
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// The file's size in bytes.
        bytes: u64,
    },
    /// Not text (a NUL byte, or not UTF-8).
    Binary,
    /// A syntax error of the file's language, at a place.
    Syntax {
        /// Where.
        at: Pos,
        /// The parser's message.
        message: String,
        /// The locale key that says the parser's complaint in plain words, where the reader
        /// knows its kind (YAML's `audit.yaml.*`, JSON's `import.json-*`); `None` (Terraform's
        /// parser) shows `message`. Not in the JSON report, which keeps the parser's message.
        #[serde(skip)]
        reason: Option<&'static str>,
    },
    /// Nested deeper than [`MAX_DEPTH`], or more aliases / nodes than the reader accepts
    /// (a YAML bomb).
    TooDeep {
        /// Where the limit was reached.
        at: Pos,
    },
    /// No reader recognises the file (not a CloudFormation template, Terraform file,
    /// Kubernetes manifest, Cloud Tasks queue or a known call shape).
    Unrecognised,
    /// The command-line simulator's own configuration (`simulate --config`,
    /// `static/examples/*.config.json`), which no queue system reads: said as what it is.
    SimulatorConfig,
}

/// The largest file a reader accepts: 5 MiB (real configurations are far smaller; a 50 MB
/// file is refused before parsing).
pub const MAX_FILE_BYTES: u64 = 5 * 1024 * 1024;

/// A file's text as every reader takes it (configurations and lock files alike): refused past
/// [`MAX_FILE_BYTES`] or with a NUL byte, a leading byte-order mark dropped.
///
/// # Errors
/// [`ReadError::TooLarge`], [`ReadError::Binary`].
pub fn readable_text(text: &str) -> Result<&str, ReadError> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            bytes: text.len() as u64,
        });
    }
    if text.contains('\0') {
        return Err(ReadError::Binary);
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// The deepest nesting a reader follows (YAML / JSON / HCL blocks and brackets).
pub const MAX_DEPTH: usize = 64;

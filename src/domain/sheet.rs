//! The job definition sheet: one per job, written before the code (source document `000`, "ジョブ定義書";
//! docs/DOMAIN.md §6). It holds the process facts, the decision it came from, and the fields that
//! say how the job behaves when things go wrong. Sections that do not apply to the outcome
//! are `None` and are shown as "does not apply", never hidden.
//!
//! All durations are integers in **milliseconds** (`*_ms`) or whole **days** / **hours** where
//! the name says so. The JSON form of [`JobSheet`] is the versioned file format
//! ([`SCHEMA_VERSION`]); see [`crate::domain::sheet::import`] for reading it back.

pub mod check;
pub mod cron;
pub mod dst;
pub mod edit;
pub mod example;
pub mod fields;
pub mod import;
pub mod import_error;
pub mod inputs;
pub mod load;
pub mod load_form;
pub mod load_text;
pub mod prefill;
pub mod retry_window;
pub mod zone;
pub mod zone_rules;

use crate::domain::flowchart::{evaluate, Answer, Answers, Outcome, QuestionId, Timing};
use crate::domain::lang::Lang;
use serde::{Deserialize, Serialize};

/// The version of the sheet's JSON format written by this build. Import reads this and every
/// older version ([`OLDEST_SCHEMA_VERSION`]..=[`SCHEMA_VERSION`]).
///
/// - 1: the source documents' fields.
/// - 2: polynomial backoff (`kind: {"polynomial": {...}}`), caps up to 30 days, the other
///   layers that retry (`retry.layers`), the queue's retention (`retry.queue_retention_ms`).
///   A version-1 file reads unchanged (the new fields are absent: no layers, retention not
///   stated).
/// - 3: the "Load and capacity" section (`load`, [`load::LoadSpec`]): arrivals, bursts,
///   handler time, failure rate, the downstream's limits, our own limiter, the targets and the
///   workers chosen. Version-1 and -2 files read unchanged (an asynchronous sheet gets an
///   empty section: "not sized yet").
///
///   Also optional within version 3 (absent in older files, which read unchanged): the
///   synchronous call's side effect, idempotency key and unknown-outcome handling
///   (`sync.call`, [`ExternalCall`]; `sync-timeout` only). A file without it says nothing
///   about the call, and the checks ask for it.
pub const SCHEMA_VERSION: u32 = 3;

/// The oldest sheet JSON version import still reads.
pub const OLDEST_SCHEMA_VERSION: u32 = 1;

/// A whole job definition sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSheet {
    /// Always [`SCHEMA_VERSION`] when written by this build.
    pub schema_version: u32,
    /// The language the sheet's texts are written in: pre-filled defaults use it, and the
    /// CLI renders in it unless `--lang` says otherwise. `None` in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Lang>,
    /// What the process is (feeds job name, trigger, arguments, key and the wait check).
    pub process: ProcessFacts,
    /// The answers the recommendation came from, and the outcome.
    pub decision: Decision,
    /// Attempts, waits, timeouts, idempotency and error classes (asynchronous outcomes).
    pub retry: Option<RetrySpec>,
    /// Where exhausted jobs go, who is told, how to re-run, how long to keep (async, batch).
    pub failure: Option<FailureSpec>,
    /// The ticket a user gets back (`async-ticket` only).
    pub ticket: Option<TicketSpec>,
    /// Schedule and run policy (`batch` only).
    pub batch: Option<BatchSpec>,
    /// The call's timeout and what the user sees (`sync`, `sync-timeout`).
    pub sync: Option<SyncSpec>,
    /// Load and capacity (asynchronous outcomes; schema 3): the numbers the queue is sized
    /// from. `None` where it does not apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<load::LoadSpec>,
}

/// The facts about the process that the sheet is filled from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcessFacts {
    /// The human name, e.g. "send reservation confirmation mail".
    pub process_name: String,
    /// The name in code, e.g. `send_reservation_mail`.
    pub code_name: String,
    /// Which operation or data creates the job, e.g. "the user confirms a reservation".
    pub trigger: String,
    /// The values passed to the job, e.g. `["reservation id"]`.
    pub arguments: Vec<String>,
    /// What identifies the real-world event, e.g. "reservation id" (the basis of the
    /// idempotency key; never the queue's job id).
    pub business_key: String,
    /// The purpose part of the idempotency key, e.g. `confirm-mail` (empty: derived from the
    /// code name).
    #[serde(default)]
    pub key_purpose: String,
    /// Inputs that can never succeed, however often retried, e.g. "malformed address" (they
    /// become the non-retryable errors).
    #[serde(default)]
    pub permanent_errors: Vec<String>,
    /// The longest the user can be made to wait for the job's effect, in milliseconds
    /// (`None`: not stated; the retry-window check is then skipped).
    #[serde(default)]
    pub acceptable_wait_ms: Option<u64>,
}

/// The decision the sheet came from: the answers on the path and the outcome they give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// The answered questions, in the order asked.
    pub answers: Vec<DecisionAnswer>,
    /// The outcome; on import it must be the one the answers give.
    pub outcome: Outcome,
}

/// One answer of a [`Decision`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionAnswer {
    /// The question.
    pub question: QuestionId,
    /// Yes (`true`) or no.
    pub answer: bool,
    /// For `within-seconds` answered from numbers: the target and p95 it was derived from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

impl Decision {
    /// The decision of a complete evaluation of `answers`; `None` while incomplete.
    pub fn from_answers(answers: &Answers) -> Option<Decision> {
        let eval = evaluate(answers);
        let outcome = eval.outcome()?;
        let answers = eval
            .path
            .iter()
            .map(|s| DecisionAnswer {
                question: s.question,
                answer: s.yes(),
                timing: match s.answer {
                    Answer::Derived(t) => Some(t),
                    Answer::Given(_) => None,
                },
            })
            .collect();
        Some(Decision { answers, outcome })
    }

    /// The answers as the engine's [`Answers`].
    pub fn to_answers(&self) -> Answers {
        let mut a = Answers::new();
        for d in &self.answers {
            match d.timing {
                Some(t) => a.set_timing(t),
                None => a.set(d.question, d.answer),
            };
        }
        a
    }
}

/// How the wait between attempts grows. JSON: `"fixed"`, `"exponential"` or
/// `{"polynomial": {"exponent": 4, "first_n": 0}}`.
///
/// Fixed and exponential mean exactly what the simulator's
/// [`Growth`](crate::domain::sim::core::backoff::Growth) runs (docs/DOMAIN.md §5). Polynomial
/// is the family real job systems use by default (`brief/QUEUES.md` §1: Sidekiq `c⁴ + 15`,
/// Active Job `n⁴ + 2`, River `n⁴`, Hangfire, Faktory): see [`Polynomial`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackoffKind {
    /// Always `base_ms`.
    Fixed,
    /// `min(cap, base·2ⁿ)`, n = 0 at the first retry.
    Exponential,
    /// `min(cap, base + (n + first_n)^exponent seconds)`, n = 0 at the first retry.
    Polynomial(Polynomial),
}

/// The shape of a polynomial backoff: the wait before retry `r` (r = 0 for the first retry)
/// is `base_ms + (r + first_n)^exponent × 1 000 ms`, capped at `cap_ms`.
///
/// Examples (`brief/QUEUES.md` §4, §9, §7): Sidekiq `c⁴ + 15` is `exponent 4, first_n 0,
/// base 15 s` (15, 16, 31, 96 s …, before Sidekiq's own additive jitter); Active Job
/// `:polynomially_longer` `n⁴ + 2` is `exponent 4, first_n 1, base 2 s` (3, 18, 83 s …);
/// River `n⁴` is `exponent 4, first_n 1, base 0` (1, 16, 81 s …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Polynomial {
    /// The power `k` (1 ..= 8).
    pub exponent: u32,
    /// The value of `n` at the first retry: 0 or 1 (the systems' index base).
    pub first_n: u32,
}

/// The largest cap on one wait, and the longest retry window a sheet may describe: 30 days,
/// in ms (Sidekiq's default 25 retries last about 20 days; Cloud Tasks keeps a task 31 days).
pub const MAX_CAP_MS: u64 = 30 * 86_400_000;
/// Randomisation of the wait (`none` | `full` | `equal` | `decorrelated`; AWS Architecture
/// Blog, "Exponential Backoff And Jitter"): the simulator's
/// [`Jitter`].
pub use crate::domain::sim::core::backoff::Jitter;

/// The wait strategy between attempts. Units: milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackoffPolicy {
    /// Fixed or exponential.
    pub kind: BackoffKind,
    /// The first wait, in ms (1 ..= 86 400 000); for polynomial backoff the constant added to
    /// every wait (0 ..= 86 400 000).
    pub base_ms: u64,
    /// The largest wait, in ms (`base_ms` ..= [`MAX_CAP_MS`], 30 days).
    pub cap_ms: u64,
    /// How the wait is randomised.
    pub jitter: Jitter,
}

/// Attempts, waits, timeouts, idempotency and error classes of an asynchronous job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetrySpec {
    /// How many times the job runs at most, including the first (1 ..= 100).
    pub max_attempts: u32,
    /// The wait between attempts.
    pub backoff: BackoffPolicy,
    /// Time allowed for one attempt, in ms (1 ..= 86 400 000).
    pub attempt_timeout_ms: u64,
    /// The lease / visibility timeout: how long a claimed job stays invisible to other
    /// workers, in ms (1 ..= 86 400 000). Must exceed `attempt_timeout_ms`.
    pub lease_ms: u64,
    /// What the idempotency key is made of, parts joined by `+`, e.g.
    /// `reservation id + confirm-mail`.
    pub idempotency_key: String,
    /// Errors treated as transient (retried).
    pub retryable_errors: Vec<String>,
    /// Errors that send the job to the dead-letter queue at once.
    pub non_retryable_errors: Vec<String>,
    /// The other layers that retry the same work besides this job's own attempts (the
    /// queue's redelivery, a framework, an SDK inside the handler): each multiplies the
    /// calls. Empty: none (schema 1 files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<RetryLayer>,
    /// How long the queue keeps a message before deleting it, in ms (60 000 ..=
    /// [`MAX_CAP_MS`]; e.g. SQS `MessageRetentionPeriod`, 4 days by default). `None`: not
    /// stated (a target's default is used when exporting to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_retention_ms: Option<u64>,
}

/// Who retries, besides the job's own attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayerKind {
    /// The queue redelivers (SQS `maxReceiveCount`, a lease that expires).
    Queue,
    /// A framework around the handler retries (Celery `autoretry_for`, Temporal activity
    /// retries).
    Framework,
    /// A client library inside the handler retries its own call (AWS SDK retry modes, an
    /// HTTP client's retries).
    Sdk,
}

/// Another layer that retries the same work (docs/DOMAIN.md §6, "who retries").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetryLayer {
    /// Which kind of layer.
    pub layer: LayerKind,
    /// How many tries this layer makes per try of the layer around it, including the first
    /// (1 ..= 100).
    pub attempts: u32,
    /// What it is, e.g. "AWS SDK standard retry mode" (may be empty).
    #[serde(default)]
    pub what: String,
}

impl RetrySpec {
    /// The most calls the work can make: `max_attempts × Π layer.attempts` (saturating),
    /// e.g. 4 attempts × 3 SDK tries = 12.
    pub fn total_calls(&self) -> u64 {
        self.layers
            .iter()
            .fold(u64::from(self.max_attempts), |acc, l| {
                acc.saturating_mul(u64::from(l.attempts))
            })
    }
}

/// How long finished jobs are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Keep {
    /// Kept this many days (1 ..= 3650).
    Days(u32),
    /// Kept until someone has handled it.
    UntilHandled,
}

/// Retention per final status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retention {
    /// Jobs that completed.
    pub done: Keep,
    /// Jobs in the dead-letter queue.
    pub dead: Keep,
}

/// What `complete` does with the error of an earlier attempt (the source documents' job 1 is `done` yet
/// still shows its timeout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastErrorOnDone {
    /// Keep it as history.
    Keep,
    /// Clear it on completion.
    Clear,
}

/// Where exhausted jobs go and what happens then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureSpec {
    /// Where exhausted jobs stay (the dead-letter destination).
    pub dead_letter: String,
    /// Who learns of a dead job, and how (empty: nobody).
    pub notify: String,
    /// How soon someone acts on a notification, in hours (1 ..= 8760).
    pub notice_within_h: u32,
    /// How a dead job is put back.
    pub rerun: String,
    /// How long finished jobs are kept.
    pub retention: Retention,
    /// Whether a done job keeps the error of an earlier attempt.
    pub last_error_on_done: LastErrorOnDone,
}

/// The ticket returned at once by an `async-ticket` process (Asynchronous Request-Reply).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicketSpec {
    /// The states a ticket goes through, in order (e.g. accepted, processing, done, failed).
    pub states: Vec<String>,
    /// How completion reaches the user.
    pub completion: String,
    /// How often clients may poll the status endpoint, in ms (100 ..= 86 400 000).
    pub poll_interval_ms: u64,
}

/// What happens when a run is due while the previous one still runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Overlap {
    /// Skip the new run (the default: overlapping runs double-process).
    Forbid,
    /// Stop the running one and start the new one.
    Replace,
    /// Run both.
    Allow,
}

impl Overlap {
    /// The key of its words in the sheet (`locales/page/sheet.yml`).
    pub fn text_key(self) -> &'static str {
        match self {
            Overlap::Forbid => "sheet.overlap.forbid",
            Overlap::Replace => "sheet.overlap.replace",
            Overlap::Allow => "sheet.overlap.allow",
        }
    }
}

/// What happens to a run that was missed (machine down at the scheduled time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissedRun {
    /// Run once as soon as possible.
    RunOnce,
    /// Skip it; the next run picks up the work.
    Skip,
}

impl MissedRun {
    /// The key of its words in the sheet (`locales/page/sheet.yml`).
    pub fn text_key(self) -> &'static str {
        match self {
            MissedRun::RunOnce => "sheet.missed.run-once",
            MissedRun::Skip => "sheet.missed.skip",
        }
    }
}

/// Schedule and run policy of a scheduled batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchSpec {
    /// When it runs, e.g. a cron expression `0 3 * * *`, as text.
    pub schedule: String,
    /// The IANA time zone the schedule is read in, e.g. `Asia/Tokyo` (checked against the
    /// database's names, [`zone::check_zone`]). Absent from the JSON when it is `UTC`
    /// ([`zone::DEFAULT_TIME_ZONE`]), so files and share links written before it existed read
    /// the same and a UTC sheet writes the same file as before; every export and document
    /// still states it.
    #[serde(
        default = "zone::default_time_zone",
        skip_serializing_if = "zone::is_default"
    )]
    pub time_zone: String,
    /// Overlapping runs.
    pub overlap: Overlap,
    /// Missed runs.
    pub missed_run: MissedRun,
    /// Time allowed for one run, in ms (1 ..= 604 800 000).
    pub run_timeout_ms: u64,
    /// What happens when some items fail and others succeed.
    pub partial_failure: String,
}

/// The synchronous call's limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyncSpec {
    /// Timeout on the call, in ms (1 ..= 600 000).
    pub call_timeout_ms: u64,
    /// What the user sees when it trips. For a call that changes something in an external
    /// system, a timeout leaves the outcome unknown: this is what the user is told then.
    pub on_timeout: String,
    /// The external call (`sync-timeout` only): whether it changes something, its
    /// idempotency key and how the provider takes it, and how an unknown outcome is resolved.
    /// `None`: not described (files written before it existed; never for `sync`, which has no
    /// external call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<ExternalCall>,
}

/// The external call a synchronous process makes, and what makes a retry of it safe
/// (issue 26: a payment whose outcome is unknown after a timeout must not be charged twice).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalCall {
    /// Whether the call changes something on the other side.
    pub effect: CallEffect,
    /// What the call's idempotency key is made of, parts joined by `+`, e.g.
    /// `reservation id + charge-card` (empty: none; at most 10 000 characters).
    #[serde(default)]
    pub idempotency_key: String,
    /// How the provider takes the key.
    pub key_via: KeyVia,
    /// The header or body field the key is sent in, e.g. `Idempotency-Key` (for
    /// [`KeyVia::Header`]: an HTTP field name, 1 to [`KEY_NAME_CHARS`] token characters,
    /// RFC 9110 §5.1; for [`KeyVia::Field`]: 1 to [`KEY_NAME_CHARS`] characters without spaces
    /// or control characters; not read for [`KeyVia::NotSupported`]).
    #[serde(default)]
    pub key_name: String,
    /// How an outcome left unknown by a timeout is resolved.
    pub resolve: Resolve,
}

/// What an external call does to the system it calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallEffect {
    /// It changes something (a charge, a booking, a message sent): done twice, it is done
    /// twice.
    Changes,
    /// It only reads: repeating it is harmless.
    ReadsOnly,
}

/// The longest header or field name a provider's key is sent in, in characters.
pub const KEY_NAME_CHARS: usize = 100;

/// How the provider takes an idempotency key (the name is [`ExternalCall::key_name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyVia {
    /// A request header, e.g. `Idempotency-Key` (Stripe, Adyen; IETF draft "The
    /// Idempotency-Key HTTP Header Field") or `PayPal-Request-Id`.
    Header,
    /// A field of the request body, e.g. Square's `idempotency_key`.
    Field,
    /// The provider takes no key: a repeated call is a new call.
    NotSupported,
}

/// How an outcome left unknown by a timeout is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resolve {
    /// Send the same call again with the same key: the provider returns the first call's
    /// result instead of doing it again.
    RetrySameKey,
    /// Ask the provider for the call's status (by the key or our reference) before anything
    /// is repeated.
    QueryStatus,
    /// Nothing is repeated now; a later reconciliation (the provider's report or webhook)
    /// settles it.
    ReconcileLater,
}

impl JobSheet {
    /// The idempotency key the sheet states (trimmed): the job's (`retry`), else the external
    /// call's when it changes something. `None`: the sheet has neither.
    pub fn idempotency_key(&self) -> Option<&str> {
        match (
            &self.retry,
            self.sync.as_ref().and_then(|s| s.call.as_ref()),
        ) {
            (Some(r), _) => Some(r.idempotency_key.trim()),
            (None, Some(c)) if c.effect == CallEffect::Changes => Some(c.idempotency_key.trim()),
            _ => None,
        }
    }
}

/// A field of the sheet that findings and the UI refer to. The source documents' 13 template
/// rows come in its order (with the business key, a process fact, after the arguments); the
/// rest belong to the outcome-specific sections or are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldId {
    /// Code name + human name.
    JobName,
    /// Which operation or data creates the job.
    Trigger,
    /// Values passed to the job.
    Arguments,
    /// What identifies the real-world event (the basis of the idempotency key).
    BusinessKey,
    /// Including the first attempt.
    MaxAttempts,
    /// Interval method and cap.
    WaitStrategy,
    /// Time allowed for one attempt (and the lease).
    Timeout,
    /// What the key is composed of.
    IdempotencyKey,
    /// Treated as transient.
    RetryableErrors,
    /// Dead-lettered at once.
    NonRetryableErrors,
    /// Where exhausted jobs stay.
    DeadLetter,
    /// Who learns of a dead job, and how.
    Notify,
    /// How a dead job is put back.
    Rerun,
    /// How long done / dead jobs are kept.
    Retention,
    /// Ticket states.
    TicketStates,
    /// How completion reaches the user.
    TicketCompletion,
    /// Status endpoint polling interval.
    PollInterval,
    /// Batch schedule.
    Schedule,
    /// The time zone the schedule is read in (IANA name).
    TimeZone,
    /// Overlap policy.
    Overlap,
    /// Missed-run policy.
    MissedRun,
    /// Per-run timeout.
    RunTimeout,
    /// Partial-failure handling.
    PartialFailure,
    /// Timeout on the synchronous call.
    CallTimeout,
    /// What the user sees when the call times out.
    OnTimeout,
    /// Whether the external call changes something (`sync.call.effect`).
    CallEffect,
    /// The external call's idempotency key and how the provider takes it.
    CallKey,
    /// How an outcome left unknown by a timeout is resolved.
    CallResolve,
    /// The user's acceptable wait (a process fact).
    AcceptableWait,
    /// The retry window (min / expected / max), computed from attempts, waits and timeout.
    RetryWindow,
    /// The other layers that retry, and the total calls.
    RetryLayers,
    /// How long the queue keeps a message.
    QueueRetention,
    /// Arrival rate: mean and peak.
    ArrivalRate,
    /// A burst on top of the arrivals.
    Burst,
    /// The handler's time (p50 / p95, or fixed).
    HandlerTime,
    /// Transient failure rate per attempt.
    FailureRate,
    /// The downstream's limits: rate (with its burst allowance), concurrency, exclusive lock.
    DownstreamLimits,
    /// Our own limiter (workers pace themselves).
    OurLimit,
    /// The targets: wait p95, burst drained within.
    CapacityTargets,
    /// The workers chosen (processes × jobs at once each).
    Workers,
    /// The capacity answer (computed: offered load, utilisation, bottleneck, drain time).
    Capacity,
}

impl FieldId {
    /// The stable id, e.g. `"max-attempts"` (used in JSON errors, the UI and exports).
    pub fn id(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

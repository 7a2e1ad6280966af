//! The rule catalogue: every finding the sheet and catalog checks produce, under a stable rule
//! id (`MA-` and the finding's code, e.g. `MA-lease-not-longer-than-timeout`), with its
//! severity, the JSON path of the field it is about, a title, why it matters, how to fix it and
//! the document it comes from. One table, read by `modality-advisor check` (text, JSON, SARIF,
//! GitHub annotations, JUnit) and by `docs/FINDINGS.md` ([`findings_markdown`]), so the two
//! cannot drift. The texts are in `locales/worker/rules.yml` (English and Japanese); the page
//! does not carry them.

use crate::domain::lang::Lang;
use crate::domain::sheet::check::{Finding, Severity, BIDI_CONTROL};
use crate::domain::sheet::FieldId;
use crate::text::t;

/// What a rule checks: one sheet (alone, or each process's sheet in a catalog), or the links
/// between a catalog's processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A job definition sheet.
    Sheet,
    /// A catalog's links (`processes[i].links[j]`).
    Catalog,
    /// A queue system's configuration read by `audit` (the sheet it gives, and the system's
    /// own traps).
    Audit,
}

/// Where a rule comes from: a section of the repository's docs, or a public source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// The document: a path from the repository's root (`docs/DOMAIN.md`) or a web address.
    pub doc: &'static str,
    /// The heading's anchor in it (GitHub's slug), or `""`.
    pub anchor: &'static str,
    /// How the docs name it, e.g. `DOMAIN.md §6, the job definition sheet`.
    pub label: &'static str,
}

/// One rule of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The finding's code (stable; the rule id is `MA-` and this).
    pub code: &'static str,
    /// The most serious level the rule reports at (a few report a warning in milder cases:
    /// each finding carries its own).
    pub severity: Severity,
    /// The JSON path of the field the finding is about, in a sheet file
    /// (`retry.lease_ms`); `None` when it depends on the finding's field ([`json_path`]).
    pub path: Option<&'static str>,
    /// What it checks.
    pub scope: Scope,
    /// Where the rule comes from.
    pub source: Source,
}

/// The prefix of every rule id.
pub const RULE_PREFIX: &str = "MA-";

/// The code of the catalog finding "a link names a process the catalog does not have".
pub const LINK_TO_MISSING_PROCESS: &str = "link-to-missing-process";
/// The code of the catalog finding "the links make a cycle".
pub const LINK_CYCLE: &str = "link-cycle";
/// The one rule for every `bidi-control-<field>` finding (the field is in its path).
pub const BIDI_RULE: &str = "bidi-control";

const fn src(doc: &'static str, anchor: &'static str, label: &'static str) -> Source {
    Source { doc, anchor, label }
}

const SHEET: Source = src(
    "docs/DOMAIN.md",
    "6-the-job-definition-sheet",
    "DOMAIN.md §6, the job definition sheet",
);
const QUEUE: Source = src(
    "docs/DOMAIN.md",
    "2-the-job-queue-the-engine-reproduces",
    "DOMAIN.md §2, the job queue",
);
const BACKOFF: Source = src(
    "docs/DOMAIN.md",
    "5-backoff-formulas-and-the-jitter-study-aws-architecture-blog",
    "DOMAIN.md §5, backoff and the jitter study (AWS Architecture Blog)",
);
const REAL_QUEUES: Source = src(
    "docs/DOMAIN.md",
    "what-real-queue-systems-add-sheet-schema-2",
    "DOMAIN.md §6, what real queue systems add",
);
const KEYS: Source = src(
    "docs/DOMAIN.md",
    "keys-that-are-real-and-synchronous-calls-with-side-effects",
    "DOMAIN.md §6, keys that are real, and synchronous calls",
);
const NUMBERS: Source = src(
    "docs/DOMAIN.md",
    "from-the-questions-numbers",
    "DOMAIN.md §6, from the questions' numbers",
);
const ZONE: Source = src(
    "docs/DOMAIN.md",
    "the-batch-schedules-time-zone",
    "DOMAIN.md §6, the batch schedule's time zone",
);
const CAPACITY: Source = src(
    "docs/DOMAIN.md",
    "8-sizing-a-queue-capacity",
    "DOMAIN.md §8, sizing a queue",
);
const CATALOG: Source = src(
    "docs/DOMAIN.md",
    "6a-the-catalog-file",
    "DOMAIN.md §6a, the catalog file",
);
const TROJAN_SOURCE: Source = src(
    "https://trojansource.codes/",
    "",
    "Boucher & Anderson, Trojan Source (CVE-2021-42574)",
);

const fn rule(code: &'static str, severity: Severity, path: &'static str, source: Source) -> Rule {
    Rule {
        code,
        severity,
        path: Some(path),
        scope: Scope::Sheet,
        source,
    }
}

use Severity::{Error as E, Warning as W};

/// Every rule, in the order of the sheet's sections, then the catalog's.
pub const RULES: [Rule; 39] = [
    rule("no-process-name", W, "process.process_name", SHEET),
    rule("no-code-name", W, "process.code_name", SHEET),
    rule("no-trigger", W, "process.trigger", SHEET),
    rule("retry-window-exceeds-wait", E, "retry.backoff", BACKOFF),
    rule("retryable-but-one-attempt", W, "retry.max_attempts", SHEET),
    rule("lease-not-longer-than-timeout", E, "retry.lease_ms", QUEUE),
    rule(
        "attempt-timeout-under-p95",
        E,
        "retry.attempt_timeout_ms",
        NUMBERS,
    ),
    rule("no-idempotency-key", W, "retry.idempotency_key", KEYS),
    Rule {
        code: "key-placeholder",
        severity: E,
        path: None,
        scope: Scope::Sheet,
        source: KEYS,
    },
    rule(
        "idempotency-key-uses-job-id",
        E,
        "retry.idempotency_key",
        KEYS,
    ),
    rule("key-per-delivery", E, "retry.idempotency_key", KEYS),
    rule("key-without-business-key", E, "retry.idempotency_key", KEYS),
    rule(
        "no-non-retryable-errors",
        W,
        "retry.non_retryable_errors",
        SHEET,
    ),
    rule(
        "exponential-without-jitter",
        W,
        "retry.backoff.jitter",
        BACKOFF,
    ),
    rule(
        "window-over-retention",
        E,
        "retry.queue_retention_ms",
        REAL_QUEUES,
    ),
    rule("window-over-30-days", W, "retry.backoff", REAL_QUEUES),
    rule("dead-letter-nobody-notified", W, "failure.notify", SHEET),
    rule(
        "dead-retention-shorter-than-notice",
        E,
        "failure.retention.dead",
        SHEET,
    ),
    rule(
        "call-timeout-exceeds-wait",
        W,
        "sync.call_timeout_ms",
        NUMBERS,
    ),
    rule(
        "call-timeout-exceeds-target",
        W,
        "sync.call_timeout_ms",
        NUMBERS,
    ),
    rule("call-timeout-under-p95", W, "sync.call_timeout_ms", NUMBERS),
    rule("call-not-described", W, "sync.call", KEYS),
    rule("call-retry-without-key", E, "sync.call.resolve", KEYS),
    rule("call-without-key", E, "sync.call.idempotency_key", KEYS),
    rule("batch-no-schedule", W, "batch.schedule", SHEET),
    rule("batch-schedule-not-cron", W, "batch.schedule", SHEET),
    rule("batch-time-zone-unknown", E, "batch.time_zone", ZONE),
    rule("batch-dst-skipped", W, "batch.time_zone", ZONE),
    rule("batch-dst-repeated", W, "batch.time_zone", ZONE),
    rule("batch-overlap-allowed", W, "batch.overlap", SHEET),
    rule("ticket-no-completion", W, "ticket.completion", SHEET),
    Rule {
        code: BIDI_RULE,
        severity: W,
        path: None,
        scope: Scope::Sheet,
        source: TROJAN_SOURCE,
    },
    rule(
        "our-limit-above-downstream-rate",
        W,
        "load.our_limit",
        CAPACITY,
    ),
    rule(
        "lease-not-above-handler-tail",
        W,
        "retry.lease_ms",
        CAPACITY,
    ),
    rule(
        "drain-deadline-unreachable",
        E,
        "load.drain_within_ms",
        CAPACITY,
    ),
    rule("workers-cannot-keep-up", E, "load.workers", CAPACITY),
    rule("workers-miss-wait-target", W, "load.workers", CAPACITY),
    Rule {
        code: LINK_TO_MISSING_PROCESS,
        severity: W,
        path: None,
        scope: Scope::Catalog,
        source: CATALOG,
    },
    Rule {
        code: LINK_CYCLE,
        severity: W,
        path: None,
        scope: Scope::Catalog,
        source: CATALOG,
    },
];

const LAMBDA_SQS: Source = src(
    "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html",
    "",
    "AWS Lambda Developer Guide, configuring an SQS event source",
);
const SQS_DLQ: Source = src(
    "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html",
    "",
    "Amazon SQS Developer Guide, dead-letter queues",
);
const CLOUD_TASKS_RETRY: Source = src(
    "https://cloud.google.com/tasks/docs/reference/rest/v2/projects.locations.queues#RetryConfig",
    "",
    "Cloud Tasks API reference, RetryConfig (google/cloud/tasks/v2/queue.proto)",
);

const KUBERNETES_JOB: Source = src(
    "https://kubernetes.io/docs/concepts/workloads/controllers/job/",
    "job-termination-and-cleanup",
    "Kubernetes documentation, Jobs: job termination and cleanup",
);

const fn audit_rule(
    code: &'static str,
    severity: Severity,
    path: &'static str,
    source: Source,
) -> Rule {
    Rule {
        code,
        severity,
        path: Some(path),
        scope: Scope::Audit,
        source,
    }
}

/// The rules only `audit` reports: a target's findings and the queue systems' traps (the
/// sheet it builds from a configuration is checked by [`RULES`] too). Texts in
/// `locales/worker/audit.yml`.
pub const AUDIT_RULES: [Rule; 11] = [
    audit_rule(
        "visibility-under-function-timeout",
        E,
        "retry.lease_ms",
        LAMBDA_SQS,
    ),
    audit_rule("lease-under-target-factor", W, "retry.lease_ms", LAMBDA_SQS),
    audit_rule(
        "window-over-target-retention",
        E,
        "retry.queue_retention_ms",
        REAL_QUEUES,
    ),
    audit_rule(
        "cloud-tasks-both-limits",
        W,
        "retry.max_attempts",
        CLOUD_TASKS_RETRY,
    ),
    audit_rule("no-dead-letter-queue", W, "failure.dead_letter", SQS_DLQ),
    audit_rule(
        "job-deadline-before-retries",
        W,
        "retry.max_attempts",
        KUBERNETES_JOB,
    ),
    audit_rule(
        "bullmq-no-retries",
        W,
        "retry.max_attempts",
        BULLMQ_RETRYING,
    ),
    audit_rule("setting-not-in-sheet", W, "retry", SHEET),
    audit_rule("value-out-of-range", E, "retry", SHEET),
    audit_rule("version-not-followed", W, "retry", VERSIONS),
    audit_rule("wait-unknown-to-release", E, "retry.backoff", VERSIONS),
];

const VERSIONS: Source = src(
    "docs/CLI.md",
    "sheet---target-and-targets",
    "CLI.md, the releases each target follows",
);

const BULLMQ_RETRYING: Source = src(
    "https://docs.bullmq.io/guide/retrying-failing-jobs",
    "",
    "BullMQ guide, retrying failing jobs",
);

/// The JSON path, in a sheet, of each text field the bidi check reads, by the part of the
/// finding's code after [`BIDI_CONTROL`].
const BIDI_PATHS: [(&str, &str); 19] = [
    ("process-name", "process.process_name"),
    ("code-name", "process.code_name"),
    ("trigger", "process.trigger"),
    ("arguments", "process.arguments"),
    ("business-key", "process.business_key"),
    ("idempotency-key", "retry.idempotency_key"),
    ("retryable-errors", "retry.retryable_errors"),
    ("non-retryable-errors", "retry.non_retryable_errors"),
    ("layers", "retry.layers"),
    ("dead-letter", "failure.dead_letter"),
    ("notify", "failure.notify"),
    ("rerun", "failure.rerun"),
    ("ticket-states", "ticket.states"),
    ("ticket-completion", "ticket.completion"),
    ("schedule", "batch.schedule"),
    ("time-zone", "batch.time_zone"),
    ("partial-failure", "batch.partial_failure"),
    ("on-timeout", "sync.on_timeout"),
    ("call-key", "sync.call.idempotency_key"),
];

impl Rule {
    /// The rule id: `MA-` and the code.
    pub fn id(&self) -> String {
        format!("{RULE_PREFIX}{}", self.code)
    }

    /// The anchor of the rule's heading in `docs/FINDINGS.md` (GitHub's slug of the id).
    pub fn anchor(&self) -> String {
        self.id().to_lowercase()
    }

    fn text(&self, part: &str, lang: Lang) -> String {
        t!(format!("rule.{}.{part}", self.code), locale = lang.code()).into_owned()
    }

    /// The one-line title, in `lang`.
    pub fn title(&self, lang: Lang) -> String {
        self.text("title", lang)
    }

    /// Why it matters, in `lang`.
    pub fn why(&self, lang: Lang) -> String {
        self.text("why", lang)
    }

    /// How to fix it, in `lang`.
    pub fn fix(&self, lang: Lang) -> String {
        self.text("fix", lang)
    }
}

/// The rule of a finding's code (every `bidi-control-<field>` code is [`BIDI_RULE`]'s);
/// `None` for a code the catalogue does not know (a test holds that none exists).
pub fn rule_of(code: &str) -> Option<&'static Rule> {
    let code = if code.starts_with(BIDI_CONTROL) {
        BIDI_RULE
    } else {
        code
    };
    let rules = RULES.iter();
    // The embed page shows a shared sheet's own findings, never an audit's: its build leaves
    // the audit's rules (their texts and sources) out of its 155 KB.
    #[cfg(not(feature = "embed"))]
    let rules = rules.chain(AUDIT_RULES.iter());
    rules.into_iter().find(|r| r.code == code)
}

/// The JSON path, in a sheet file, of the field a sheet finding is about, e.g.
/// `retry.lease_ms`: the rule's path, else (a bidi control, a key still holding placeholder
/// words) the field the finding names. `None` for a code the catalogue does not know.
pub fn json_path(f: &Finding) -> Option<&'static str> {
    if let Some(field) = f.code.strip_prefix(BIDI_CONTROL) {
        return BIDI_PATHS
            .iter()
            .find(|(k, _)| *k == field)
            .map(|(_, path)| *path);
    }
    let rule = rule_of(f.code)?;
    rule.path.or(match f.field {
        FieldId::CallKey => Some("sync.call.idempotency_key"),
        _ => Some("retry.idempotency_key"),
    })
}

/// `docs/FINDINGS.md`: every rule with its id (the heading, so SARIF's `helpUri` can point at
/// it), severity, field, title, why, how to fix and source, in English.
pub fn findings_markdown() -> String {
    use std::fmt::Write;
    let lang = Lang::En;
    let mut s = String::from(
        "# Findings\n\n\
         <!-- Generated from src/domain/rules.rs and locales/worker/rules.yml; do not edit.\n\
         \x20    Regenerate: UPDATE_FINDINGS=1 cargo test --test it check_rules -->\n\n\
         Every finding `modality-advisor check` reports, by its stable rule id. The id is `MA-` and the finding's code; SARIF's \
         `ruleId`, the JSON's `rule` and the GitHub annotations' title use it. \
         The severity is the most serious level the rule reports at; `check --fail-level` \
         decides which fail the run (see [CLI.md](CLI.md#check)). \
         The field is the JSON path in a sheet file (in a catalog, under \
         `processes[i].sheet`).\n\n",
    );
    for (i, r) in RULES.iter().chain(AUDIT_RULES.iter()).enumerate() {
        if i == RULES.len() {
            s.push_str(
                "## Audit\n\n\
                 `modality-advisor audit` reports the rules above for the sheet it builds from a \
                 queue configuration (only those about what a configuration states: attempts, \
                 waits, timeouts, lease, retention, dead letter, a batch's schedule), and these, \
                 about the queue systems themselves. The field is the JSON path in that sheet; \
                 the finding points at the configuration's line.\n\n",
            );
        }
        let sev = match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let field = match (r.scope, r.path) {
            (Scope::Catalog, _) => "`processes[i].links[j]` (catalog)".to_owned(),
            (_, Some(p)) => format!("`{p}`"),
            (_, None) if r.code == BIDI_RULE => "the text field that holds them".to_owned(),
            (_, None) => "`retry.idempotency_key` or `sync.call.idempotency_key`".to_owned(),
        };
        let source = if r.source.doc.contains("://") {
            format!("[{}]({})", r.source.label, r.source.doc)
        } else {
            let doc = r.source.doc.strip_prefix("docs/").unwrap_or(r.source.doc);
            format!("[{}]({doc}#{})", r.source.label, r.source.anchor)
        };
        let _ = write!(
            s,
            "## {id}\n\n**{title}**\n\nSeverity: {sev}. Field: {field}.\n\n\
             Why: {why}\n\nFix: {fix}\n\nSource: {source}.\n\n",
            id = r.id(),
            title = r.title(lang),
            why = r.why(lang),
            fix = r.fix(lang),
        );
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}

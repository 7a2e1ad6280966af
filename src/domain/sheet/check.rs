//! Live checks on a sheet: each finding names the field it concerns, its severity, and a
//! message in either language. `validate` returns every finding, not only the first, section
//! by section (one function each), sorted by field.

use crate::domain::bidi::{self, Shown};
use crate::domain::duration::{approx, exact};
use crate::domain::lang::Lang;
use crate::domain::sheet::cron::{check_cron, CronError};
use crate::domain::sheet::prefill::timing::{timeout_for_p95, timing_of};
use crate::domain::sheet::retry_window::{retry_window, RetryWindow};
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, Keep, RetrySpec, MAX_CAP_MS};
use crate::text::t;
use serde::Serialize;

mod bidi_fields;
mod key_findings;
mod load_findings;
use bidi_fields::bidi_findings;
pub use key_findings::KEY_PLACEHOLDER;
use key_findings::{call_findings, key_findings};
use load_findings::load_findings;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Will cause wrong behaviour (duplicates, lost jobs).
    Error,
    /// Likely a mistake; decide consciously.
    Warning,
}

/// One problem found in a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Stable code, e.g. `"lease-not-longer-than-timeout"`.
    pub code: &'static str,
    /// How serious.
    pub severity: Severity,
    /// The field it concerns.
    pub field: FieldId,
    /// The message in the requested language, with the numbers that triggered it.
    pub message: String,
}

/// Parts of an idempotency key that mean "the queue's job id" (compared whole, after
/// [`normalise`]).
const JOB_ID_WORDS: [&str; 9] = [
    "jobid",
    "jobsid",
    "queueid",
    "messageid",
    "taskid",
    "id",
    "ジョブid",
    "ジョブ番号",
    "タスクid",
];

/// Parts of a key that are new on every delivery or run (compared whole, after [`normalise`]):
/// delivery ids, run and attempt ids and numbers, a UUID made in the handler, the time.
const PER_DELIVERY_WORDS: [&str; 33] = [
    "deliveryid",
    "deliverytag",
    "runid",
    "executionid",
    "attemptid",
    "attempt",
    "attempts",
    "attemptnumber",
    "attemptno",
    "attemptcount",
    "retrycount",
    "uuid",
    "guid",
    "uuid4",
    "uuidv4",
    "newuuid",
    "randomuuid",
    "generateduuid",
    "now",
    "now()",
    "time",
    "currenttime",
    "配信id",
    "配信タグ",
    "メッセージid",
    "実行id",
    "試行id",
    "試行回数",
    "試行番号",
    "時刻",
    "生成したuuid",
    "新しいuuid",
    "ハンドラで生成したuuid", // glossary-allow: words a user types, matched as typed
];

/// Per-delivery words that are never part of a business value, found anywhere in a part.
const PER_DELIVERY_INSIDE: [&str; 9] = [
    "receipthandle",
    "timestamp",
    "random",
    "currenttime",
    "受信ハンドル",
    "乱数",
    "ランダム",
    "タイムスタンプ",
    "現在時刻",
];

/// `text` for comparing key parts: lower case, full-width letters and digits as ASCII, without
/// spaces and `_` `-` `.` `・`.
pub fn normalise(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            _ => c,
        })
        .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-' | '.' | '・'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Why a key part identifies a delivery rather than the real-world event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerDelivery {
    /// The queue's job (or message, task) id: the same request enqueued twice gets two.
    JobId,
    /// A value new on every delivery or run: a receipt handle, a delivery or run id, the
    /// attempt, a UUID made in the handler, the time.
    Delivery,
}

/// The first part of `key` (parts joined by `+` or `＋`) made from a per-delivery value, with
/// why; `None` when there is none. Case, width and spacing do not matter.
pub fn per_delivery_part(key: &str) -> Option<(PerDelivery, String)> {
    key.split(['+', '＋']).find_map(|part| {
        let norm = normalise(part);
        let why = if JOB_ID_WORDS.contains(&norm.as_str()) {
            PerDelivery::JobId
        } else if PER_DELIVERY_WORDS.contains(&norm.as_str())
            || PER_DELIVERY_INSIDE.iter().any(|w| norm.contains(w))
        {
            PerDelivery::Delivery
        } else {
            return None;
        };
        Some((why, part.trim().to_owned()))
    })
}

/// True when the key (parts joined by `+` or `＋`) uses the queue's job id.
pub fn key_uses_job_id(key: &str) -> bool {
    matches!(per_delivery_part(key), Some((PerDelivery::JobId, _)))
}

/// True when every part of `business_key` (parts joined by `+` or `＋`) is in `key`, compared
/// [`normalise`]d; true when the business key is blank.
pub fn key_has_business_key(key: &str, business_key: &str) -> bool {
    let key = normalise(key);
    business_key
        .split(['+', '＋'])
        .map(normalise)
        .filter(|p| !p.is_empty())
        .all(|p| key.contains(&p))
}

/// The placeholder words `key` still holds — "business key" / "業務キー", the words the form
/// shows in an empty key field (and earlier builds wrote as the value) — as the locale writes
/// them; `None` when it holds none, or when the business key itself contains them (then they
/// are the value). Case, width and spacing do not matter.
pub fn placeholder_words(key: &str, business_key: &str) -> Option<String> {
    let (key, business) = (normalise(key), normalise(business_key));
    [Lang::En, Lang::Ja]
        .into_iter()
        .map(|lang| t!("sheet.default.business-key", locale = lang.code()).into_owned())
        .find(|words| {
            let w = normalise(words);
            !w.is_empty() && key.contains(&w) && !business.contains(&w)
        })
}

/// Every finding for `sheet`, messages in `lang`, in field order.
pub fn validate(sheet: &JobSheet, lang: Lang) -> Vec<Finding> {
    let mut out = Findings {
        lang,
        list: Vec::new(),
    };
    required_fields(&mut out, sheet);
    retry_findings(&mut out, sheet);
    failure_findings(&mut out, sheet);
    sync_findings(&mut out, sheet);
    call_findings(&mut out, sheet);
    batch_findings(&mut out, sheet);
    ticket_findings(&mut out, sheet);
    bidi_findings(&mut out, sheet);
    load_findings(&mut out, sheet);
    let mut out = out.list;
    out.sort_by_key(|f| f.field);
    out
}

/// The findings so far, and the language of their messages.
struct Findings {
    lang: Lang,
    list: Vec<Finding>,
}

impl Findings {
    /// Adds a finding; a bidi control in the user text it quotes is shown as `<U+202E>`
    /// ([`bidi::show`]), so it cannot reorder the message.
    fn add(&mut self, code: &'static str, severity: Severity, field: FieldId, message: String) {
        let message = bidi::show(&message, Shown::Text).into_owned();
        self.list.push(Finding {
            code,
            severity,
            field,
            message,
        });
    }
}

/// The start of the code of a finding about bidi control characters in a text field: the
/// code is this prefix and the field's input id, e.g. `bidi-control-code-name`.
pub const BIDI_CONTROL: &str = "bidi-control-";

/// The fields no sheet can do without (docs/DOMAIN.md §6: the job name, code + human, and the
/// trigger); a blank sheet must not read as "no problems".
fn required_fields(out: &mut Findings, sheet: &JobSheet) {
    let l = out.lang.code();
    let p = &sheet.process;
    for (code, empty, field, key) in [
        (
            "no-process-name",
            p.process_name.trim().is_empty(),
            FieldId::JobName,
            "sheet.finding.no-process-name",
        ),
        (
            "no-code-name",
            p.code_name.trim().is_empty(),
            FieldId::JobName,
            "sheet.finding.no-code-name",
        ),
        (
            "no-trigger",
            p.trigger.trim().is_empty(),
            FieldId::Trigger,
            "sheet.finding.no-trigger",
        ),
    ] {
        if empty {
            out.add(
                code,
                Severity::Warning,
                field,
                t!(key, locale = l).into_owned(),
            );
        }
    }
}

/// The retry section: the retry window against the acceptable wait, attempts, lease,
/// idempotency key and permanent errors.
fn retry_findings(out: &mut Findings, sheet: &JobSheet) {
    let (lang, l) = (out.lang, out.lang.code());
    if let Some(r) = &sheet.retry {
        let w = retry_window(&r.backoff, r.max_attempts, r.attempt_timeout_ms);
        window_findings(out, r, &w);
        if let Some(acceptable) = sheet.process.acceptable_wait_ms {
            if w.worst_case_ms > acceptable as f64 {
                let severity = if w.total_wait.min_ms + w.attempts_ms > acceptable as f64 {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                out.add(
                    "retry-window-exceeds-wait",
                    severity,
                    FieldId::WaitStrategy,
                    t!(
                        "sheet.finding.retry-window",
                        locale = l,
                        worst = approx(w.worst_case_ms, lang),
                        expected = approx(w.total_wait.expected_ms + w.attempts_ms, lang),
                        acceptable = exact(acceptable, lang)
                    )
                    .into_owned(),
                );
            }
        }
        if r.max_attempts == 1 && !r.retryable_errors.is_empty() {
            out.add(
                "retryable-but-one-attempt",
                Severity::Warning,
                FieldId::MaxAttempts,
                t!("sheet.finding.one-attempt", locale = l).into_owned(),
            );
        }
        if r.lease_ms <= r.attempt_timeout_ms {
            out.add(
                "lease-not-longer-than-timeout",
                Severity::Error,
                FieldId::Timeout,
                t!(
                    "sheet.finding.lease",
                    locale = l,
                    lease = exact(r.lease_ms, lang),
                    timeout = exact(r.attempt_timeout_ms, lang)
                )
                .into_owned(),
            );
        }
        // The handler's p95: the one typed in Load and capacity, else the questions' one.
        let load_p95 = sheet.load.and_then(|l| l.handler).map(|h| {
            (
                h.p95_ms().ceil() as u64,
                "sheet.finding.timeout-under-load-p95",
            )
        });
        let wizard_p95 =
            timing_of(&sheet.decision).map(|t| (t.p95_ms, "sheet.finding.timeout-under-p95"));
        if let Some((p95, key)) = load_p95
            .or(wizard_p95)
            .filter(|&(p95, _)| r.attempt_timeout_ms < p95)
        {
            out.add(
                "attempt-timeout-under-p95",
                Severity::Error,
                FieldId::Timeout,
                t!(
                    key,
                    locale = l,
                    timeout = exact(r.attempt_timeout_ms, lang),
                    p95 = exact(p95, lang),
                    suggested = exact(timeout_for_p95(p95), lang)
                )
                .into_owned(),
            );
        }
        key_findings(out, sheet, r);
        if r.non_retryable_errors.iter().all(|e| e.trim().is_empty()) {
            out.add(
                "no-non-retryable-errors",
                Severity::Warning,
                FieldId::NonRetryableErrors,
                t!(
                    "sheet.finding.no-permanent",
                    locale = l,
                    attempts = r.max_attempts
                )
                .into_owned(),
            );
        }
    }
}

/// The retry window against the queue's retention and the 30-day limit, and exponential
/// (or polynomial) backoff without jitter.
fn window_findings(out: &mut Findings, r: &RetrySpec, w: &RetryWindow) {
    let (lang, l) = (out.lang, out.lang.code());
    if r.max_attempts > 1
        && r.backoff.jitter == Jitter::None
        && !matches!(r.backoff.kind, BackoffKind::Fixed)
    {
        let first: Vec<String> = w
            .waits
            .iter()
            .take(3)
            .map(|x| approx(x.max_ms, lang))
            .collect();
        out.add(
            "exponential-without-jitter",
            Severity::Warning,
            FieldId::WaitStrategy,
            t!(
                "sheet.finding.no-jitter",
                locale = l,
                waits = crate::domain::sheet::fields::join_list(&first, lang)
            )
            .into_owned(),
        );
    }
    if let Some(kept) = r.queue_retention_ms.filter(|k| w.worst_case_ms > *k as f64) {
        out.add(
            "window-over-retention",
            Severity::Error,
            FieldId::QueueRetention,
            t!(
                "sheet.finding.window-over-retention",
                locale = l,
                window = approx(w.worst_case_ms, lang),
                kept = exact(kept, lang)
            )
            .into_owned(),
        );
    }
    if w.worst_case_ms > MAX_CAP_MS as f64 {
        out.add(
            "window-over-30-days",
            Severity::Warning,
            FieldId::RetryWindow,
            t!(
                "sheet.finding.window-over-30-days",
                locale = l,
                window = approx(w.worst_case_ms, lang)
            )
            .into_owned(),
        );
    }
}

/// The failure section: who is notified, and how long dead jobs are kept.
fn failure_findings(out: &mut Findings, sheet: &JobSheet) {
    let (lang, l) = (out.lang, out.lang.code());
    if let Some(f) = &sheet.failure {
        if f.notify.trim().is_empty() {
            out.add(
                "dead-letter-nobody-notified",
                Severity::Warning,
                FieldId::Notify,
                t!("sheet.finding.nobody", locale = l).into_owned(),
            );
        }
        if let Keep::Days(days) = f.retention.dead {
            let kept_h = u64::from(days) * 24;
            if kept_h < u64::from(f.notice_within_h) {
                out.add(
                    "dead-retention-shorter-than-notice",
                    Severity::Error,
                    FieldId::Retention,
                    t!(
                        "sheet.finding.retention",
                        locale = l,
                        kept = exact(kept_h * 3_600_000, lang),
                        notice = exact(u64::from(f.notice_within_h) * 3_600_000, lang)
                    )
                    .into_owned(),
                );
            }
        }
    }
}

/// The sync section: the call timeout against the acceptable wait, and against the
/// response-time target and p95 the questions were answered from.
fn sync_findings(out: &mut Findings, sheet: &JobSheet) {
    let (lang, l) = (out.lang, out.lang.code());
    let Some(s) = &sheet.sync else {
        return;
    };
    let acceptable = sheet.process.acceptable_wait_ms;
    if let Some(acceptable) = acceptable {
        if s.call_timeout_ms > acceptable {
            out.add(
                "call-timeout-exceeds-wait",
                Severity::Warning,
                FieldId::CallTimeout,
                t!(
                    "sheet.finding.call-timeout",
                    locale = l,
                    timeout = exact(s.call_timeout_ms, lang),
                    acceptable = exact(acceptable, lang)
                )
                .into_owned(),
            );
        }
    }
    let Some(timing) = timing_of(&sheet.decision) else {
        return;
    };
    // An acceptable wait no longer than the target already says the timeout is too long.
    let said = acceptable.is_some_and(|a| a <= timing.target_ms);
    if s.call_timeout_ms > timing.target_ms && !said {
        out.add(
            "call-timeout-exceeds-target",
            Severity::Warning,
            FieldId::CallTimeout,
            t!(
                "sheet.finding.call-timeout-over-target",
                locale = l,
                timeout = exact(s.call_timeout_ms, lang),
                target = exact(timing.target_ms, lang)
            )
            .into_owned(),
        );
    }
    if s.call_timeout_ms < timing.p95_ms {
        out.add(
            "call-timeout-under-p95",
            Severity::Warning,
            FieldId::CallTimeout,
            t!(
                "sheet.finding.call-timeout-under-p95",
                locale = l,
                timeout = exact(s.call_timeout_ms, lang),
                p95 = exact(timing.p95_ms, lang)
            )
            .into_owned(),
        );
    }
}

/// The batch section: the schedule and overlapping runs.
fn batch_findings(out: &mut Findings, sheet: &JobSheet) {
    let (lang, l) = (out.lang, out.lang.code());
    if let Some(b) = &sheet.batch {
        if b.schedule.trim().is_empty() {
            out.add(
                "batch-no-schedule",
                Severity::Warning,
                FieldId::Schedule,
                t!("sheet.finding.no-schedule", locale = l).into_owned(),
            );
        } else if let Err(e) = check_cron(&b.schedule) {
            out.add(
                "batch-schedule-not-cron",
                Severity::Warning,
                FieldId::Schedule,
                cron_message(&b.schedule, &e, lang),
            );
        }
        if let Err(e) = crate::domain::sheet::zone::check_zone(&b.time_zone) {
            out.add(
                "batch-time-zone-unknown",
                Severity::Error,
                FieldId::TimeZone,
                zone_message(&b.time_zone, &e, lang),
            );
        }
        if b.overlap == crate::domain::sheet::Overlap::Allow {
            out.add(
                "batch-overlap-allowed",
                Severity::Warning,
                FieldId::Overlap,
                t!("sheet.finding.overlap", locale = l).into_owned(),
            );
        }
    }
}

/// The ticket section: how the caller learns of completion.
fn ticket_findings(out: &mut Findings, sheet: &JobSheet) {
    let l = out.lang.code();
    if let Some(tk) = &sheet.ticket {
        if tk.completion.trim().is_empty() {
            out.add(
                "ticket-no-completion",
                Severity::Warning,
                FieldId::TicketCompletion,
                t!("sheet.finding.no-completion", locale = l).into_owned(),
            );
        }
    }
}

/// What is wrong with `zone` as the schedule's time zone, in `lang`: the field, the value and
/// how to write one (with the database's spelling when only the case or spaces differ).
fn zone_message(zone: &str, e: &crate::domain::sheet::zone::ZoneError, lang: Lang) -> String {
    use crate::domain::sheet::zone::ZoneError;
    let l = lang.code();
    match e {
        ZoneError::Empty => t!("sheet.finding.time-zone.empty", locale = l),
        ZoneError::Unknown {
            suggestion: Some(name),
        } => t!(
            "sheet.finding.time-zone.spelling",
            locale = l,
            zone = zone.trim(),
            name = name
        ),
        ZoneError::Unknown { suggestion: None } => t!(
            "sheet.finding.time-zone.unknown",
            locale = l,
            zone = zone.trim()
        ),
    }
    .into_owned()
}

/// What is wrong with `schedule` as a cron expression, in `lang`: the field, the value and
/// what the field allows.
fn cron_message(schedule: &str, e: &CronError, lang: Lang) -> String {
    let l = lang.code();
    let name = |f: crate::domain::sheet::cron::CronField| {
        t!(format!("sheet.cron.field.{}", f.id()), locale = l).into_owned()
    };
    let schedule = schedule.trim();
    match e {
        CronError::FieldCount { found } => t!(
            "sheet.finding.cron.fields",
            locale = l,
            schedule = schedule,
            found = found
        ),
        CronError::UnknownMacro { word } => {
            t!("sheet.finding.cron.macro", locale = l, word = word)
        }
        CronError::OutOfRange { field, value } => {
            let (min, max) = field.range();
            t!(
                "sheet.finding.cron.range",
                locale = l,
                field = name(*field),
                value = value,
                min = min,
                max = max
            )
        }
        CronError::Backwards { field, range } => t!(
            "sheet.finding.cron.backwards",
            locale = l,
            field = name(*field),
            range = range
        ),
        CronError::BadStep { field, step } => {
            let (min, max) = field.range();
            t!(
                "sheet.finding.cron.step",
                locale = l,
                field = name(*field),
                step = step,
                span = max - min + 1
            )
        }
        CronError::Syntax { field, text } => t!(
            "sheet.finding.cron.syntax",
            locale = l,
            field = name(*field),
            text = text
        ),
    }
    .into_owned()
}

//! One edit of one field of a sheet, checked before it is applied, so the form can refuse a
//! bad value with a message and leave the sheet as it was.

use crate::domain::flowchart::Outcome;
use crate::domain::sheet::import::{check_range, limits, ImportError};
use crate::domain::sheet::{
    BackoffKind, BatchSpec, FailureSpec, Jitter, JobSheet, Keep, LastErrorOnDone, MissedRun,
    Overlap, RetrySpec, SyncSpec, TicketSpec,
};

/// The allowed first wait (or, for a polynomial backoff, the constant) of `kind`, in ms:
/// [`limits::POLY_BASE_MS`] for polynomial, else [`limits::BASE_MS`].
pub fn base_range(kind: BackoffKind) -> (u64, u64) {
    match kind {
        BackoffKind::Polynomial(_) => limits::POLY_BASE_MS,
        BackoffKind::Fixed | BackoffKind::Exponential => limits::BASE_MS,
    }
}

/// An edit of one field. Durations in milliseconds, notice in hours, retention in days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SheetEdit {
    /// `process.process_name`.
    ProcessName(String),
    /// `process.code_name`.
    CodeName(String),
    /// `process.trigger`.
    Trigger(String),
    /// `process.arguments`.
    Arguments(Vec<String>),
    /// `process.business_key`.
    BusinessKey(String),
    /// `process.acceptable_wait_ms` (`None`: not stated).
    AcceptableWait(Option<u64>),
    /// `retry.max_attempts`.
    MaxAttempts(u64),
    /// `retry.backoff.kind`.
    BackoffKind(BackoffKind),
    /// `retry.backoff.base_ms`.
    BaseMs(u64),
    /// `retry.backoff.cap_ms`.
    CapMs(u64),
    /// `retry.backoff.jitter`.
    Jitter(Jitter),
    /// `retry.attempt_timeout_ms`.
    AttemptTimeoutMs(u64),
    /// `retry.lease_ms`.
    LeaseMs(u64),
    /// `retry.idempotency_key`.
    IdempotencyKey(String),
    /// `retry.retryable_errors`.
    RetryableErrors(Vec<String>),
    /// `retry.non_retryable_errors`.
    NonRetryableErrors(Vec<String>),
    /// `retry.layers` (the whole list: the form adds, edits and removes rows).
    Layers(Vec<crate::domain::sheet::RetryLayer>),
    /// `retry.queue_retention_ms` (`None`: not stated).
    QueueRetentionMs(Option<u64>),
    /// `failure.dead_letter`.
    DeadLetter(String),
    /// `failure.notify`.
    Notify(String),
    /// `failure.notice_within_h`.
    NoticeWithinH(u64),
    /// `failure.rerun`.
    Rerun(String),
    /// `failure.retention.done`.
    RetentionDone(Keep),
    /// `failure.retention.dead`.
    RetentionDead(Keep),
    /// `failure.last_error_on_done`.
    LastErrorOnDone(LastErrorOnDone),
    /// `ticket.states`.
    TicketStates(Vec<String>),
    /// `ticket.completion`.
    TicketCompletion(String),
    /// `ticket.poll_interval_ms`.
    PollIntervalMs(u64),
    /// `batch.schedule`.
    Schedule(String),
    /// `batch.time_zone`.
    TimeZone(String),
    /// `batch.overlap`.
    Overlap(Overlap),
    /// `batch.missed_run`.
    MissedRun(MissedRun),
    /// `batch.run_timeout_ms`.
    RunTimeoutMs(u64),
    /// `batch.partial_failure`.
    PartialFailure(String),
    /// `sync.call_timeout_ms`.
    CallTimeoutMs(u64),
    /// `sync.on_timeout`.
    OnTimeout(String),
    /// `sync.call`, the whole external call (the form changes one part of it at a time;
    /// `sync-timeout` sheets only). A header or field name is checked
    /// ([`check_call`](crate::domain::sheet::import::check_call)).
    Call(crate::domain::sheet::ExternalCall),
    /// `load`, the whole section (the form edits one part of it at a time:
    /// [`load_form::Part::read`](crate::domain::sheet::load_form::Part::read)). Asynchronous
    /// sheets only; a schema 1 or 2 sheet without the section gets it.
    Load(crate::domain::sheet::load::LoadSpec),
}

fn days(path: &str, k: Keep) -> Result<(), ImportError> {
    match k {
        Keep::Days(d) => check_range(path, u64::from(d), limits::RETENTION_DAYS),
        Keep::UntilHandled => Ok(()),
    }
}

impl SheetEdit {
    /// Applies the edit to a copy of `sheet` if the value is allowed.
    ///
    /// # Errors
    /// [`ImportError::OutOfRange`] naming the field's JSON path and the allowed range (e.g.
    /// `retry.backoff.cap_ms` must be at least `base_ms`); [`ImportError::Inconsistent`] when
    /// the field's section does not apply to the sheet's outcome. `sheet` is never changed.
    pub fn apply(self, sheet: &JobSheet) -> Result<JobSheet, ImportError> {
        let mut s = sheet.clone();
        let na = |path: &str| ImportError::Inconsistent {
            path: path.to_owned(),
            problem: format!("does not apply to outcome {}", sheet.decision.outcome.id()),
        };
        match self {
            SheetEdit::ProcessName(v) => s.process.process_name = v,
            SheetEdit::CodeName(v) => s.process.code_name = v,
            SheetEdit::Trigger(v) => s.process.trigger = v,
            SheetEdit::Arguments(v) => s.process.arguments = v,
            SheetEdit::BusinessKey(v) => s.process.business_key = v,
            SheetEdit::AcceptableWait(v) => {
                if let Some(ms) = v {
                    check_range("process.acceptable_wait_ms", ms, limits::ACCEPTABLE_WAIT_MS)?;
                }
                s.process.acceptable_wait_ms = v;
            }
            SheetEdit::MaxAttempts(_)
            | SheetEdit::BackoffKind(_)
            | SheetEdit::BaseMs(_)
            | SheetEdit::CapMs(_)
            | SheetEdit::Jitter(_)
            | SheetEdit::AttemptTimeoutMs(_)
            | SheetEdit::LeaseMs(_)
            | SheetEdit::IdempotencyKey(_)
            | SheetEdit::RetryableErrors(_)
            | SheetEdit::NonRetryableErrors(_)
            | SheetEdit::Layers(_)
            | SheetEdit::QueueRetentionMs(_) => {
                self.apply_retry(s.retry.as_mut().ok_or_else(|| na("retry"))?)?;
            }
            SheetEdit::DeadLetter(_)
            | SheetEdit::Notify(_)
            | SheetEdit::NoticeWithinH(_)
            | SheetEdit::Rerun(_)
            | SheetEdit::RetentionDone(_)
            | SheetEdit::RetentionDead(_)
            | SheetEdit::LastErrorOnDone(_) => {
                self.apply_failure(s.failure.as_mut().ok_or_else(|| na("failure"))?)?;
            }
            SheetEdit::TicketStates(_)
            | SheetEdit::TicketCompletion(_)
            | SheetEdit::PollIntervalMs(_) => {
                self.apply_ticket(s.ticket.as_mut().ok_or_else(|| na("ticket"))?)?;
            }
            SheetEdit::Schedule(_)
            | SheetEdit::TimeZone(_)
            | SheetEdit::Overlap(_)
            | SheetEdit::MissedRun(_)
            | SheetEdit::RunTimeoutMs(_)
            | SheetEdit::PartialFailure(_) => {
                self.apply_batch(s.batch.as_mut().ok_or_else(|| na("batch"))?)?;
            }
            SheetEdit::CallTimeoutMs(_) | SheetEdit::OnTimeout(_) => {
                self.apply_sync(s.sync.as_mut().ok_or_else(|| na("sync"))?)?;
            }
            SheetEdit::Call(c) => {
                let sync = s
                    .sync
                    .as_mut()
                    .filter(|_| sheet.decision.outcome == Outcome::SyncTimeout)
                    .ok_or_else(|| na("sync.call"))?;
                crate::domain::sheet::import::check_call(&c)?;
                sync.call = Some(c);
            }
            SheetEdit::Load(l) => {
                if s.retry.is_none() {
                    return Err(na("load"));
                }
                crate::domain::sheet::load::check_load(&l)?;
                s.load = Some(l);
            }
        }
        // What was pre-filled from the facts (the keys, the notice) follows them.
        crate::domain::sheet::prefill::follow_facts(sheet, &mut s);
        crate::domain::sheet::import::check_sheet(&s)?;
        // An edited sheet is written in this build's format (a version-1 sheet read from a
        // catalog may now hold schema 2's fields).
        s.schema_version = crate::domain::sheet::SCHEMA_VERSION;
        Ok(s)
    }

    /// Applies an edit of the retry section to `r` (an edit of another section: nothing).
    ///
    /// # Errors
    /// [`ImportError::OutOfRange`] as [`SheetEdit::apply`].
    fn apply_retry(self, r: &mut RetrySpec) -> Result<(), ImportError> {
        match self {
            SheetEdit::MaxAttempts(v) => {
                check_range("retry.max_attempts", v, limits::MAX_ATTEMPTS)?;
                r.max_attempts = u32::try_from(v).unwrap_or(u32::MAX);
            }
            SheetEdit::BackoffKind(v) => {
                // A polynomial's constant may be 0; the other kinds' first wait may not: they
                // start from 1 s (within the cap) rather than refuse the change of kind.
                if !matches!(v, BackoffKind::Polynomial(_)) && r.backoff.base_ms == 0 {
                    r.backoff.base_ms = 1_000.min(r.backoff.cap_ms).max(1);
                }
                r.backoff.kind = v;
            }
            SheetEdit::BaseMs(v) => {
                let (min, max) = base_range(r.backoff.kind);
                check_range("retry.backoff.base_ms", v, (min, max.min(r.backoff.cap_ms)))?;
                r.backoff.base_ms = v;
            }
            SheetEdit::CapMs(v) => {
                check_range(
                    "retry.backoff.cap_ms",
                    v,
                    (r.backoff.base_ms.max(limits::CAP_MS.0), limits::CAP_MS.1),
                )?;
                r.backoff.cap_ms = v;
            }
            SheetEdit::Jitter(v) => r.backoff.jitter = v,
            SheetEdit::AttemptTimeoutMs(v) => {
                check_range("retry.attempt_timeout_ms", v, limits::TIMEOUT_MS)?;
                r.attempt_timeout_ms = v;
            }
            SheetEdit::LeaseMs(v) => {
                check_range("retry.lease_ms", v, limits::TIMEOUT_MS)?;
                r.lease_ms = v;
            }
            SheetEdit::IdempotencyKey(v) => r.idempotency_key = v,
            SheetEdit::RetryableErrors(v) => r.retryable_errors = v,
            SheetEdit::NonRetryableErrors(v) => r.non_retryable_errors = v,
            SheetEdit::Layers(v) => r.layers = v,
            SheetEdit::QueueRetentionMs(v) => {
                if let Some(ms) = v {
                    check_range("retry.queue_retention_ms", ms, limits::QUEUE_RETENTION_MS)?;
                }
                r.queue_retention_ms = v;
            }
            _ => {}
        }
        Ok(())
    }

    /// Applies an edit of the failure section to `f` (an edit of another section: nothing).
    ///
    /// # Errors
    /// [`ImportError::OutOfRange`] as [`SheetEdit::apply`].
    fn apply_failure(self, f: &mut FailureSpec) -> Result<(), ImportError> {
        match self {
            SheetEdit::DeadLetter(v) => f.dead_letter = v,
            SheetEdit::Notify(v) => f.notify = v,
            SheetEdit::NoticeWithinH(v) => {
                check_range("failure.notice_within_h", v, limits::NOTICE_H)?;
                f.notice_within_h = u32::try_from(v).unwrap_or(u32::MAX);
            }
            SheetEdit::Rerun(v) => f.rerun = v,
            SheetEdit::RetentionDone(k) => {
                days("failure.retention.done.days", k)?;
                f.retention.done = k;
            }
            SheetEdit::RetentionDead(k) => {
                days("failure.retention.dead.days", k)?;
                f.retention.dead = k;
            }
            SheetEdit::LastErrorOnDone(v) => f.last_error_on_done = v,
            _ => {}
        }
        Ok(())
    }

    /// Applies an edit of the ticket section to `t` (an edit of another section: nothing).
    ///
    /// # Errors
    /// [`ImportError::OutOfRange`] as [`SheetEdit::apply`].
    fn apply_ticket(self, t: &mut TicketSpec) -> Result<(), ImportError> {
        match self {
            SheetEdit::TicketStates(v) => {
                if v.is_empty() {
                    return Err(ImportError::OutOfRange {
                        path: "ticket.states".into(),
                        value: "0 items".into(),
                        allowed: format!("1 to {} items", limits::LIST_ITEMS),
                    });
                }
                t.states = v;
            }
            SheetEdit::TicketCompletion(v) => t.completion = v,
            SheetEdit::PollIntervalMs(v) => {
                check_range("ticket.poll_interval_ms", v, limits::POLL_MS)?;
                t.poll_interval_ms = v;
            }
            _ => {}
        }
        Ok(())
    }

    /// Applies an edit of the batch section to `b` (an edit of another section: nothing).
    ///
    /// # Errors
    /// [`ImportError::OutOfRange`] as [`SheetEdit::apply`].
    fn apply_batch(self, b: &mut BatchSpec) -> Result<(), ImportError> {
        match self {
            SheetEdit::Schedule(v) => b.schedule = v,
            SheetEdit::TimeZone(v) => b.time_zone = v,
            SheetEdit::Overlap(v) => b.overlap = v,
            SheetEdit::MissedRun(v) => b.missed_run = v,
            SheetEdit::RunTimeoutMs(v) => {
                check_range("batch.run_timeout_ms", v, limits::RUN_TIMEOUT_MS)?;
                b.run_timeout_ms = v;
            }
            SheetEdit::PartialFailure(v) => b.partial_failure = v,
            _ => {}
        }
        Ok(())
    }

    /// Applies an edit of the sync section to `y` (an edit of another section: nothing).
    ///
    /// # Errors
    /// [`ImportError::OutOfRange`] as [`SheetEdit::apply`].
    fn apply_sync(self, y: &mut SyncSpec) -> Result<(), ImportError> {
        match self {
            SheetEdit::CallTimeoutMs(v) => {
                check_range("sync.call_timeout_ms", v, limits::CALL_TIMEOUT_MS)?;
                y.call_timeout_ms = v;
            }
            SheetEdit::OnTimeout(v) => y.on_timeout = v,
            _ => {}
        }
        Ok(())
    }
}

//! The sheet form's inputs: which control (by its DOM id) edits which field of the sheet, what
//! it is called, and in what order the page shows them. One table ([`INPUTS`]) for the form, its
//! checks panel, the links from findings, and the notice that names refused fields, so the
//! browser side never keeps its own list.

use crate::domain::lang::Lang;
use crate::domain::sheet::check::{Finding, BIDI_CONTROL};
use crate::domain::sheet::FieldId;
use crate::text::t;

/// How an input's label is worded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    /// The field's item name (`sheet.field.<field>.item`): the input is the whole field.
    Item,
    /// Its own label (`sheet.ui.<key>`): one of several inputs of the field.
    Own(&'static str),
    /// The day count of a retention choice: "<choice's label>: Days" (`sheet.ui.<choice>` and
    /// `sheet.ui.days`).
    Days(&'static str),
}

/// One input of the sheet form: a text box, list, whole number, duration, choice or switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetInput {
    /// The DOM id of the control (and its `data-field`), e.g. `"max-attempts"`. A duration's
    /// unit select is `<id>-unit`.
    pub id: &'static str,
    /// The sheet field it edits.
    pub field: FieldId,
    label: Label,
}

const fn input(id: &'static str, field: FieldId, label: Label) -> SheetInput {
    SheetInput { id, field, label }
}

/// Every input of the sheet form, in page order: the process facts, retry, failure, the
/// ticket, batch or sync section (only one of the three is on a page), then load and capacity
/// (its rate units' selects never refuse a value and are not listed:
/// [`load_form`](crate::domain::sheet::load_form)).
pub const INPUTS: [SheetInput; 67] = {
    use FieldId as F;
    use Label::{Days, Item, Own};
    [
        input("process-name", F::JobName, Own("process-name")),
        input("code-name", F::JobName, Own("code-name")),
        input("trigger", F::Trigger, Item),
        input("arguments", F::Arguments, Item),
        input("business-key", F::BusinessKey, Own("business-key")),
        input(
            "acceptable-wait-stated",
            F::AcceptableWait,
            Own("wait-stated"),
        ),
        input("acceptable-wait", F::AcceptableWait, Item),
        input("max-attempts", F::MaxAttempts, Item),
        input("backoff-kind", F::WaitStrategy, Own("backoff-kind")),
        input("jitter", F::WaitStrategy, Own("jitter")),
        input("base", F::WaitStrategy, Own("base")),
        input("cap", F::WaitStrategy, Own("cap")),
        input("poly-exponent", F::WaitStrategy, Own("poly-exponent")),
        input("poly-first-n", F::WaitStrategy, Own("poly-first-n")),
        input("attempt-timeout", F::Timeout, Own("attempt-timeout")),
        input("lease", F::Timeout, Own("lease")),
        input("idempotency-key", F::IdempotencyKey, Item),
        input(
            "queue-retention-stated",
            F::QueueRetention,
            Own("retention-stated"),
        ),
        input("queue-retention", F::QueueRetention, Item),
        input("retryable-errors", F::RetryableErrors, Item),
        input("non-retryable-errors", F::NonRetryableErrors, Item),
        input("dead-letter", F::DeadLetter, Item),
        input("notify", F::Notify, Item),
        input("notice-within", F::Notify, Own("notice-within")),
        input("rerun", F::Rerun, Item),
        input("retention-done", F::Retention, Own("retention-done")),
        input("retention-done-days", F::Retention, Days("retention-done")),
        input("retention-dead", F::Retention, Own("retention-dead")),
        input("retention-dead-days", F::Retention, Days("retention-dead")),
        input("last-error", F::Retention, Own("last-error")),
        input("ticket-states", F::TicketStates, Item),
        input("ticket-completion", F::TicketCompletion, Item),
        input("poll-interval", F::PollInterval, Item),
        input("schedule", F::Schedule, Item),
        input("time-zone", F::TimeZone, Item),
        input("overlap", F::Overlap, Item),
        input("missed-run", F::MissedRun, Item),
        input("run-timeout", F::RunTimeout, Item),
        input("partial-failure", F::PartialFailure, Item),
        input("call-timeout", F::CallTimeout, Item),
        input("on-timeout", F::OnTimeout, Item),
        input("call-effect", F::CallEffect, Item),
        input("call-key", F::CallKey, Item),
        input("call-key-via", F::CallKey, Own("call-key-via")),
        input("call-key-name", F::CallKey, Own("call-key-name")),
        input("call-resolve", F::CallResolve, Item),
        input("arrival", F::ArrivalRate, Own("load-arrival")),
        input("peak", F::ArrivalRate, Own("load-peak")),
        input("burst-kind", F::Burst, Own("load-burst-kind")),
        input("burst-count", F::Burst, Own("load-burst-count")),
        input("burst-rate", F::Burst, Own("load-burst-rate")),
        input("burst-for", F::Burst, Own("load-burst-for")),
        input("handler-kind", F::HandlerTime, Own("load-handler-kind")),
        input("handler-p50", F::HandlerTime, Own("load-handler-p50")),
        input("handler-p95", F::HandlerTime, Own("load-handler-p95")),
        input("handler-ms", F::HandlerTime, Own("load-handler-ms")),
        input("handler-mean", F::HandlerTime, Own("load-handler-mean")),
        input("failure-rate", F::FailureRate, Own("load-failure-rate")),
        input(
            "downstream-rate",
            F::DownstreamLimits,
            Own("load-downstream-rate"),
        ),
        input(
            "downstream-rate-burst",
            F::DownstreamLimits,
            Own("load-downstream-rate-burst"),
        ),
        input(
            "downstream-concurrency",
            F::DownstreamLimits,
            Own("load-downstream-concurrency"),
        ),
        input(
            "downstream-lock",
            F::DownstreamLimits,
            Own("load-downstream-lock"),
        ),
        input("our-limit", F::OurLimit, Own("load-our-limit")),
        input("target-wait", F::CapacityTargets, Own("load-target-wait")),
        input("drain-within", F::CapacityTargets, Own("load-drain-within")),
        input("workers", F::Workers, Own("load-workers")),
        input("concurrency", F::Workers, Own("load-concurrency")),
    ]
};

/// The code of the finding about a missing process name: it is shown under (and links to) the
/// process-name input; the job name's other findings go to the name in code.
pub const NO_PROCESS_NAME: &str = "no-process-name";

impl SheetInput {
    /// The input with DOM id `id`, if the sheet form has one.
    pub fn find(id: &str) -> Option<SheetInput> {
        INPUTS.iter().copied().find(|i| i.id == id)
    }

    /// Its position in [`INPUTS`] (page order).
    fn position(self) -> usize {
        INPUTS
            .iter()
            .position(|i| *i == self)
            .unwrap_or(INPUTS.len())
    }

    /// Its label in `lang`, e.g. "Max attempts", "First wait", "Kept after done: Days".
    pub fn label(self, lang: Lang) -> String {
        let l = lang.code();
        match self.label {
            Label::Item => t!(format!("sheet.field.{}.item", self.field.id()), locale = l),
            Label::Own(key) => t!(format!("sheet.ui.{key}"), locale = l),
            Label::Days(choice) => {
                let sep = if lang == Lang::Ja { "：" } else { ": " };
                return format!(
                    "{}{sep}{}",
                    t!(format!("sheet.ui.{choice}"), locale = l),
                    t!("sheet.ui.days", locale = l)
                );
            }
        }
        .into_owned()
    }

    /// The input a finding links to: the process name or the name in code for the job name's
    /// findings, the input a fix starts at for the retry fields (the first wait, the lease,
    /// the dead-letter retention), the field's own input otherwise. `None`: the field has no
    /// single input to jump to (the link goes to the sheet's title).
    pub fn for_finding(f: &Finding) -> Option<SheetInput> {
        if let Some(id) = f.code.strip_prefix(BIDI_CONTROL) {
            return SheetInput::find(id);
        }
        let id = match f.field {
            FieldId::JobName if f.code == NO_PROCESS_NAME => "process-name",
            FieldId::JobName => "code-name",
            FieldId::Trigger => "trigger",
            FieldId::BusinessKey => "business-key",
            FieldId::MaxAttempts => "max-attempts",
            FieldId::WaitStrategy => "base",
            FieldId::Timeout => "lease",
            FieldId::IdempotencyKey => "idempotency-key",
            FieldId::NonRetryableErrors => "non-retryable-errors",
            FieldId::RetryableErrors => "retryable-errors",
            FieldId::Notify => "notify",
            FieldId::Retention => "retention-dead",
            FieldId::CallTimeout => "call-timeout",
            // An undescribed call's finding goes to the button that describes it (same id).
            FieldId::CallEffect => "call-effect",
            FieldId::CallKey => "call-key",
            FieldId::CallResolve => "call-resolve",
            FieldId::QueueRetention => "queue-retention",
            FieldId::RetryWindow => "max-attempts",
            _ => return None,
        };
        SheetInput::find(id)
    }
}

/// Why an output waits for the inputs `ids` (DOM ids, page order) that show a value they
/// refused, naming them by their labels ([`label_of`]): "Mean arrival rate: the field shows a
/// value it refused, … Correct it first." Said after Copy's, Download's, Print's and
/// Simulate's own words, and under "Could not size it:".
pub fn refused_text(ids: &[String], lang: Lang) -> String {
    let sep = if lang == Lang::Ja { "、" } else { ", " };
    let fields = ids
        .iter()
        .map(|id| label_of(id, lang))
        .collect::<Vec<_>>()
        .join(sep);
    let key = if ids.len() > 1 {
        "sheet.refused.fields"
    } else {
        "sheet.refused.field"
    };
    t!(key, locale = lang.code(), fields = fields).into_owned()
}

/// The label of the input with DOM id `id` in `lang`; the id itself when the sheet form has no
/// such input.
pub fn label_of(id: &str, lang: Lang) -> String {
    SheetInput::find(id).map_or_else(|| id.to_owned(), |i| i.label(lang))
}

/// Of `reports` — (DOM id, message) pairs of form inputs that show a value they refused, in
/// the order reported — those of the sheet form, in page order (each once).
pub fn in_page_order(reports: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(SheetInput, &(String, String))> = reports
        .iter()
        .filter_map(|r| SheetInput::find(&r.0).map(|i| (i, r)))
        .collect();
    out.sort_by_key(|(i, _)| i.position());
    out.dedup_by_key(|(i, _)| i.id);
    out.into_iter().map(|(_, r)| r.clone()).collect()
}

//! The bidi check: a warning for each text field holding bidi control characters
//! ([`crate::domain::bidi`]), naming the field.

use super::{Findings, Severity};
use crate::domain::bidi;
use crate::domain::sheet::{FieldId, JobSheet, RetrySpec};
use crate::text::t;

/// A text field the bidi check reads: the finding's code, its field, the locale key of its
/// label (`None`: the field's item name) and its texts.
type TextField<'a> = (&'static str, FieldId, Option<&'static str>, Vec<&'a str>);

/// The texts of a list field.
fn all(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The retry section's text fields.
fn retry_fields(r: &RetrySpec) -> [TextField<'_>; 4] {
    [
        (
            "bidi-control-idempotency-key",
            FieldId::IdempotencyKey,
            None,
            vec![r.idempotency_key.as_str()],
        ),
        (
            "bidi-control-retryable-errors",
            FieldId::RetryableErrors,
            None,
            all(&r.retryable_errors),
        ),
        (
            "bidi-control-non-retryable-errors",
            FieldId::NonRetryableErrors,
            None,
            all(&r.non_retryable_errors),
        ),
        (
            "bidi-control-layers",
            FieldId::RetryLayers,
            None,
            r.layers.iter().map(|l| l.what.as_str()).collect(),
        ),
    ]
}

/// Every text field of `sheet` a user types, in page order (see [`TextField`]).
fn text_fields(sheet: &JobSheet) -> Vec<TextField<'_>> {
    let p = &sheet.process;
    let mut out: Vec<TextField<'_>> = vec![
        (
            "bidi-control-process-name",
            FieldId::JobName,
            Some("sheet.field.job-name.process-name"),
            vec![&p.process_name],
        ),
        (
            "bidi-control-code-name",
            FieldId::JobName,
            Some("sheet.field.job-name.code-name"),
            vec![&p.code_name],
        ),
        (
            "bidi-control-trigger",
            FieldId::Trigger,
            None,
            vec![&p.trigger],
        ),
        (
            "bidi-control-arguments",
            FieldId::Arguments,
            None,
            all(&p.arguments),
        ),
        (
            "bidi-control-business-key",
            FieldId::BusinessKey,
            None,
            vec![&p.business_key],
        ),
    ];
    if let Some(r) = &sheet.retry {
        out.extend(retry_fields(r));
    }
    if let Some(f) = &sheet.failure {
        out.extend([
            (
                "bidi-control-dead-letter",
                FieldId::DeadLetter,
                None,
                vec![f.dead_letter.as_str()],
            ),
            (
                "bidi-control-notify",
                FieldId::Notify,
                None,
                vec![f.notify.as_str()],
            ),
            (
                "bidi-control-rerun",
                FieldId::Rerun,
                None,
                vec![f.rerun.as_str()],
            ),
        ]);
    }
    if let Some(t) = &sheet.ticket {
        out.extend([
            (
                "bidi-control-ticket-states",
                FieldId::TicketStates,
                None,
                all(&t.states),
            ),
            (
                "bidi-control-ticket-completion",
                FieldId::TicketCompletion,
                None,
                vec![t.completion.as_str()],
            ),
        ]);
    }
    if let Some(b) = &sheet.batch {
        out.extend([
            (
                "bidi-control-schedule",
                FieldId::Schedule,
                None,
                vec![b.schedule.as_str()],
            ),
            (
                "bidi-control-time-zone",
                FieldId::TimeZone,
                None,
                vec![b.time_zone.as_str()],
            ),
            (
                "bidi-control-partial-failure",
                FieldId::PartialFailure,
                None,
                vec![b.partial_failure.as_str()],
            ),
        ]);
    }
    if let Some(s) = &sheet.sync {
        out.push((
            "bidi-control-on-timeout",
            FieldId::OnTimeout,
            None,
            vec![&s.on_timeout],
        ));
        if let Some(c) = &s.call {
            out.push((
                "bidi-control-call-key",
                FieldId::CallKey,
                None,
                vec![&c.idempotency_key],
            ));
        }
    }
    out
}

/// A warning for each text field holding bidi control characters (a right-to-left override
/// reverses how the text after it reads; [`bidi`]), naming the field and the characters.
pub(super) fn bidi_findings(out: &mut Findings, sheet: &JobSheet) {
    let l = out.lang.code();
    for (code, field, label, texts) in text_fields(sheet) {
        let mut chars: Vec<String> = Vec::new();
        for c in texts.iter().flat_map(|t| bidi::controls(t)) {
            if !chars.contains(&c) {
                chars.push(c);
            }
        }
        if chars.is_empty() {
            continue;
        }
        let label = match label {
            Some(key) => t!(key, locale = l),
            None => t!(format!("sheet.field.{}.item", field.id()), locale = l),
        };
        out.add(
            code,
            Severity::Warning,
            field,
            t!(
                "sheet.finding.bidi",
                locale = l,
                field = label,
                chars = chars.join(", ")
            )
            .into_owned(),
        );
    }
}

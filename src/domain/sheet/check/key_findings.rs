//! The idempotency keys' findings: the job's key (missing, still holding placeholder words,
//! made from a per-delivery value, not from the business key) and the external call's of a
//! synchronous sheet (not described, no key for a call that changes something, a retry with
//! a key the provider does not take).

use super::{
    key_has_business_key, per_delivery_part, placeholder_words, Findings, PerDelivery, Severity,
};
use crate::domain::flowchart::Outcome;
use crate::domain::lang::Lang;
use crate::domain::sheet::{CallEffect, FieldId, JobSheet, KeyVia, Resolve, RetrySpec};
use crate::text::t;

/// The idempotency key: missing, still holding placeholder words, made from a per-delivery
/// value, or not from the business key.
pub(super) fn key_findings(out: &mut Findings, sheet: &JobSheet, r: &RetrySpec) {
    let l = out.lang.code();
    let key = r.idempotency_key.trim();
    let business = sheet.process.business_key.trim();
    if key.is_empty() {
        let message = if business.is_empty() {
            no_key_yet(FieldId::IdempotencyKey, out.lang)
        } else {
            t!("sheet.finding.no-key", locale = l).into_owned()
        };
        out.add(
            "no-idempotency-key",
            Severity::Warning,
            FieldId::IdempotencyKey,
            message,
        );
        return;
    }
    if placeholder_finding(out, FieldId::IdempotencyKey, key, business) {
        return;
    }
    let (code, message) = match per_delivery_part(key) {
        Some((PerDelivery::JobId, _)) => (
            "idempotency-key-uses-job-id",
            t!("sheet.finding.job-id-key", locale = l),
        ),
        Some((PerDelivery::Delivery, part)) => (
            "key-per-delivery",
            t!("sheet.finding.key-per-delivery", locale = l, part = part),
        ),
        None if !key_has_business_key(key, business) => (
            "key-without-business-key",
            t!(
                "sheet.finding.key-without-business-key",
                locale = l,
                key = key,
                business = business
            ),
        ),
        None => return,
    };
    out.add(
        code,
        Severity::Error,
        FieldId::IdempotencyKey,
        message.into_owned(),
    );
}

/// The code of the finding about a key that still holds placeholder words.
pub const KEY_PLACEHOLDER: &str = "key-placeholder";

/// An error when `key` (of `field`) still holds placeholder words ([`placeholder_words`]),
/// naming the field and the words; true when it was added.
fn placeholder_finding(out: &mut Findings, field: FieldId, key: &str, business: &str) -> bool {
    let Some(words) = placeholder_words(key, business) else {
        return false;
    };
    let l = out.lang.code();
    let message = t!(
        "sheet.finding.key-placeholder",
        locale = l,
        field = t!(format!("sheet.field.{}.item", field.id()), locale = l),
        key = key,
        words = words
    )
    .into_owned();
    out.add(KEY_PLACEHOLDER, Severity::Error, field, message);
    true
}

/// "No idempotency key yet: type the business key …", naming `field`.
fn no_key_yet(field: FieldId, lang: Lang) -> String {
    let l = lang.code();
    t!(
        "sheet.finding.no-key-yet",
        locale = l,
        field = t!(format!("sheet.field.{}.item", field.id()), locale = l)
    )
    .into_owned()
}

/// The external call of a synchronous sheet: a `sync-timeout` sheet that does not describe it
/// (warning: nothing says whether a retry is safe), a call that changes something without a
/// key (error: after a timeout its outcome is unknown, and a retry — by the user or the code —
/// does it twice, e.g. charges the card twice: a duplicate, which is what an error means
/// here), a key still holding placeholder words, and "retry with the same key" with a provider
/// that takes no key (error, for the same reason).
pub(super) fn call_findings(out: &mut Findings, sheet: &JobSheet) {
    let Some(s) = &sheet.sync else {
        return;
    };
    let l = out.lang.code();
    let Some(c) = &s.call else {
        if sheet.decision.outcome == Outcome::SyncTimeout {
            out.add(
                "call-not-described",
                Severity::Warning,
                FieldId::CallEffect,
                t!("sheet.finding.call-not-described", locale = l).into_owned(),
            );
        }
        return;
    };
    if c.effect == CallEffect::ReadsOnly {
        return;
    }
    let key = c.idempotency_key.trim();
    let business = sheet.process.business_key.trim();
    if c.key_via == KeyVia::NotSupported {
        if c.resolve == Resolve::RetrySameKey {
            out.add(
                "call-retry-without-key",
                Severity::Error,
                FieldId::CallResolve,
                t!("sheet.finding.call-retry-without-key", locale = l).into_owned(),
            );
        }
    } else if key.is_empty() {
        let mut message = t!("sheet.finding.call-without-key", locale = l).into_owned();
        if business.is_empty() {
            message = format!("{message} {}", no_key_yet(FieldId::CallKey, out.lang));
        }
        out.add(
            "call-without-key",
            Severity::Error,
            FieldId::CallKey,
            message,
        );
    } else {
        placeholder_finding(out, FieldId::CallKey, key, business);
    }
}

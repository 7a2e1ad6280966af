//! Pre-filling a sheet from the process facts and the decision, each default with a one-line
//! reason (the UI shows it beside the field).
//!
//! Queue defaults follow the source documents' worked example (source document `000`, the reservation confirmation
//! mail): 5 attempts; exponential backoff from 10 s capped at 10 min with full jitter; 30 s per
//! attempt; key = business key + purpose; dead jobs kept until handled; done kept 30 days.
//! When the questions were answered from numbers, the timeouts and the acceptable wait come
//! from them instead ([`timing`]).

pub mod timing;

use crate::domain::flowchart::Outcome;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::rows;
use crate::domain::sheet::{
    BackoffKind, BackoffPolicy, BatchSpec, CallEffect, Decision, ExternalCall, FailureSpec,
    FieldId, Jitter, JobSheet, Keep, KeyVia, LastErrorOnDone, MissedRun, Overlap, ProcessFacts,
    Resolve, Retention, RetrySpec, SyncSpec, TicketSpec, SCHEMA_VERSION,
};
use crate::text::t;

/// The purpose part of the idempotency key: the fact when given, else the code name in
/// kebab case (`send_reservation_mail` → `send-reservation-mail`).
pub fn key_purpose(facts: &ProcessFacts) -> String {
    if facts.key_purpose.trim().is_empty() {
        facts.code_name.trim().replace('_', "-")
    } else {
        facts.key_purpose.trim().to_owned()
    }
}

/// The idempotency key pre-filled for `facts`: the business key + the purpose
/// ([`key_purpose`]) in `lang`'s plus sign; empty while the business key is blank (a key of
/// the purpose alone would be the same for every event, and placeholder words are never
/// written as a value: the form shows [`key_placeholder`] instead).
pub fn default_key(facts: &ProcessFacts, lang: Lang) -> String {
    let business = facts.business_key.trim();
    if business.is_empty() {
        return String::new();
    }
    join_key(&[business, &key_purpose(facts)], lang)
}

/// What the form shows in an empty key field, as a placeholder only (never a value):
/// "business key + send-mail" / "業務キー＋send-mail".
pub fn key_placeholder(facts: &ProcessFacts, lang: Lang) -> String {
    join_key(
        &[&tr("sheet.default.business-key", lang), &key_purpose(facts)],
        lang,
    )
}

/// The external call pre-filled for a `sync-timeout` sheet: it changes something (the safe
/// assumption: a call that only reads is said so by the user), keyed by [`default_key`] sent
/// as an `Idempotency-Key` header, and an unknown outcome is resolved by retrying with the
/// same key.
pub fn default_call(facts: &ProcessFacts, lang: Lang) -> ExternalCall {
    ExternalCall {
        effect: CallEffect::Changes,
        idempotency_key: default_key(facts, lang),
        key_via: KeyVia::Header,
        key_name: "Idempotency-Key".to_owned(),
        resolve: Resolve::RetrySameKey,
    }
}

/// The notice pre-filled for `facts`: what the ops chat is sent, naming the business key
/// (by those words until it is typed: they say what the message carries, not a value).
pub fn default_notify(facts: &ProcessFacts, lang: Lang) -> String {
    let business = facts.business_key.trim();
    let key = if business.is_empty() {
        tr("sheet.default.business-key", lang)
    } else {
        business.to_owned()
    };
    t!("sheet.default.notify", locale = lang.code(), key = key).into_owned()
}

/// After an edit of the process facts (`before` → `after`), the values pre-filled from them
/// follow: the idempotency keys (the job's and the external call's) and the notice, each when
/// it still holds what was pre-filled for the old facts (or, for a key, the placeholder words
/// earlier builds wrote while the business key was blank). A value the user typed stays.
/// A sheet without `lang` (older files) is compared with the defaults of both languages.
pub fn follow_facts(before: &JobSheet, after: &mut JobSheet) {
    if before.process == after.process {
        return;
    }
    let langs = match before.lang {
        Some(l) => vec![l],
        None => vec![Lang::En, Lang::Ja],
    };
    for lang in langs {
        let (old, new) = (&before.process, &after.process);
        let mut old_keys = vec![default_key(old, lang)];
        if old.business_key.trim().is_empty() {
            old_keys.push(key_placeholder(old, lang));
        }
        let new_key = default_key(new, lang);
        let key_follows = |key: &mut String| {
            if old_keys.iter().any(|k| k == key.trim()) {
                key.clone_from(&new_key);
            }
        };
        if let Some(r) = after.retry.as_mut() {
            key_follows(&mut r.idempotency_key);
        }
        if let Some(c) = after.sync.as_mut().and_then(|s| s.call.as_mut()) {
            key_follows(&mut c.idempotency_key);
        }
        if let Some(f) = after.failure.as_mut() {
            follow(
                &mut f.notify,
                &default_notify(old, lang),
                &default_notify(new, lang),
            );
        }
    }
}

/// Joins key parts with the language's plus sign (`a + b`, `a＋b`).
pub fn join_key(parts: &[&str], lang: Lang) -> String {
    let sep = match lang {
        Lang::En => " + ",
        Lang::Ja => "＋",
    };
    parts
        .iter()
        .filter(|p| !p.trim().is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(sep)
}

fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

fn list(key: &str, lang: Lang) -> Vec<String> {
    tr(key, lang)
        .split('\n')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// A sheet for `facts` and `decision`, with every section the outcome needs filled with
/// defaults (texts in `lang`) and the others `None`.
///
/// The attempt timeout, lease, call timeout and (when `facts` states none) the acceptable
/// wait follow the decision's timing when it has one ([`timing`]).
pub fn prefill(mut facts: ProcessFacts, decision: Decision, lang: Lang) -> JobSheet {
    let outcome = decision.outcome;
    let (attempt_timeout_ms, lease_ms) = timing::attempt_timeout_and_lease(&decision);
    if facts.acceptable_wait_ms.is_none() {
        facts.acceptable_wait_ms = timing::derived_wait(&decision);
    }
    let is_async = matches!(outcome, Outcome::AsyncEnqueue | Outcome::AsyncTicket);
    let retry = is_async.then(|| RetrySpec {
        max_attempts: 5,
        backoff: BackoffPolicy {
            kind: BackoffKind::Exponential,
            base_ms: 10_000,
            cap_ms: 600_000,
            jitter: Jitter::Full,
        },
        attempt_timeout_ms,
        lease_ms,
        idempotency_key: default_key(&facts, lang),
        retryable_errors: list("sheet.default.retryable", lang),
        non_retryable_errors: if facts.permanent_errors.is_empty() {
            list("sheet.default.non-retryable", lang)
        } else {
            facts.permanent_errors.clone()
        },
        layers: Vec::new(),
        queue_retention_ms: None,
    });
    let failure = (is_async || outcome == Outcome::Batch).then(|| FailureSpec {
        dead_letter: tr(
            if outcome == Outcome::Batch {
                "sheet.default.dead-letter-batch"
            } else {
                "sheet.default.dead-letter"
            },
            lang,
        ),
        notify: default_notify(&facts, lang),
        notice_within_h: 24,
        rerun: tr(
            if outcome == Outcome::Batch {
                "sheet.default.rerun-batch"
            } else {
                "sheet.default.rerun"
            },
            lang,
        ),
        retention: Retention {
            done: Keep::Days(30),
            dead: Keep::UntilHandled,
        },
        last_error_on_done: LastErrorOnDone::Keep,
    });
    let ticket = (outcome == Outcome::AsyncTicket).then(|| TicketSpec {
        states: list("sheet.default.ticket-states", lang),
        completion: tr("sheet.default.ticket-completion", lang),
        poll_interval_ms: 5_000,
    });
    let batch = (outcome == Outcome::Batch).then(|| BatchSpec {
        schedule: "0 3 * * *".to_owned(),
        time_zone: crate::domain::sheet::zone::default_time_zone(),
        overlap: Overlap::Forbid,
        missed_run: MissedRun::RunOnce,
        run_timeout_ms: 3_600_000,
        partial_failure: tr("sheet.default.partial-failure", lang),
    });
    let sync = matches!(outcome, Outcome::Sync | Outcome::SyncTimeout).then(|| SyncSpec {
        call_timeout_ms: timing::call_timeout(&decision),
        // Never "safe to try again": only a key makes a repeat safe (issue 26).
        on_timeout: tr(&format!("sheet.default.on-timeout.{}", outcome.id()), lang),
        call: (outcome == Outcome::SyncTimeout).then(|| default_call(&facts, lang)),
    });
    JobSheet {
        schema_version: SCHEMA_VERSION,
        lang: Some(lang),
        process: facts,
        decision,
        retry,
        failure,
        ticket,
        batch,
        sync,
        // Load and capacity: empty ("not sized yet") until the user gives the numbers; no
        // made-up default is used silently.
        load: is_async.then(crate::domain::sheet::load::LoadSpec::default),
    }
}

/// Why the default of `field` was chosen for `decision`, in `lang` (`None`: the field is a
/// process fact the questions say nothing about, or has no default for this outcome). A
/// default the questions' numbers gave names them ([`timing::reason`]).
pub fn default_reason(field: FieldId, decision: &Decision, lang: Lang) -> Option<String> {
    if let Some(reason) = timing::reason(field, decision, lang) {
        return Some(reason);
    }
    let outcome = decision.outcome;
    let key = format!("sheet.reason.{}", field.id());
    let special = format!("{key}.{}", outcome.id());
    for k in [special, key] {
        let text = t!(&k, locale = lang.code());
        if !text.ends_with(&k) {
            return Some(text.into_owned());
        }
    }
    None
}

/// The fields of `sheet` whose value differs from what [`prefill`] writes for the same facts
/// and decision, each with the default's value as the sheet's rows show it (`"5"`,
/// `"10 s"`, …), in field order. The screen uses it to say which default a field's reason
/// explains once the user has changed the value.
pub fn changed_from_default(sheet: &JobSheet, lang: Lang) -> Vec<(FieldId, String)> {
    // The acceptable wait is a fact: it has a default only when the questions' target gives one.
    let facts = ProcessFacts {
        acceptable_wait_ms: None,
        ..sheet.process.clone()
    };
    let default = prefill(facts, sheet.decision.clone(), lang);
    let wait_default = default.process.acceptable_wait_ms.is_some();
    let (now, then) = (rows(sheet, lang), rows(&default, lang));
    let targets_typed = sheet
        .load
        .is_some_and(|l| l.target_wait_p95_ms.is_some() || l.drain_within_ms.is_some());
    now.into_iter()
        .zip(then)
        // The retry window, the total calls and the capacity answer are computed from other
        // fields, which are named when they change; the targets' row repeats the acceptable
        // wait until a target is typed.
        .filter(|(a, _)| {
            !matches!(
                a.field,
                FieldId::RetryWindow | FieldId::RetryLayers | FieldId::Capacity
            )
        })
        .filter(|(a, _)| a.field != FieldId::CapacityTargets || targets_typed)
        .filter(|(a, _)| wait_default || a.field != FieldId::AcceptableWait)
        .filter(|(a, b)| a.field == b.field && a.value != b.value)
        // A key pre-filled empty (no business key yet) has no default to name: the form shows
        // the placeholder, never "the default was not stated".
        .filter(|(a, _)| match a.field {
            FieldId::IdempotencyKey => default
                .retry
                .as_ref()
                .is_some_and(|r| !r.idempotency_key.is_empty()),
            FieldId::CallKey => default
                .sync
                .as_ref()
                .and_then(|s| s.call.as_ref())
                .is_some_and(|c| !c.idempotency_key.is_empty()),
            _ => true,
        })
        .map(|(_, b)| (b.field, b.value))
        .collect()
}

/// The sheet to show for `decision`: `existing` with the new decision when its outcome is
/// the same (the user's edits stay); otherwise a fresh pre-fill that keeps the process facts
/// of `existing` (sections of another outcome do not carry over). No `existing`: a fresh
/// pre-fill with empty facts.
///
/// What the questions' numbers pre-filled follows them: a timeout, lease, call timeout or
/// acceptable wait that still holds the default of the old decision gets the new decision's
/// default (as [`relocalize`] swaps texts); a value the user changed stays.
pub fn for_decision(existing: Option<&JobSheet>, decision: Decision, lang: Lang) -> JobSheet {
    let Some(s) = existing else {
        return prefill(ProcessFacts::default(), decision, lang);
    };
    let mut facts = s.process.clone();
    follow(
        &mut facts.acceptable_wait_ms,
        &timing::derived_wait(&s.decision),
        &timing::derived_wait(&decision),
    );
    if s.decision.outcome != decision.outcome {
        return prefill(facts, decision, lang);
    }
    let mut out = JobSheet {
        process: facts,
        decision,
        ..s.clone()
    };
    if let Some(r) = out.retry.as_mut() {
        let old = timing::attempt_timeout_and_lease(&s.decision);
        let new = timing::attempt_timeout_and_lease(&out.decision);
        follow(&mut r.attempt_timeout_ms, &old.0, &new.0);
        follow(&mut r.lease_ms, &old.1, &new.1);
    }
    if let Some(sync) = out.sync.as_mut() {
        let old = timing::call_timeout(&s.decision);
        let new = timing::call_timeout(&out.decision);
        follow(&mut sync.call_timeout_ms, &old, &new);
    }
    out
}

/// `field` becomes `new` when it still holds `old` (the default nobody changed).
fn follow<T: PartialEq + Clone>(field: &mut T, old: &T, new: &T) {
    if field == old {
        *field = new.clone();
    }
}

/// `sheet` with its pre-filled texts in `to`: every text or list field that still holds the
/// default of the sheet's language (as [`prefill`] writes it for the same facts and decision)
/// is replaced by the default in `to`; fields the user changed stay as they are. Numbers and
/// choices are not language-dependent and never change. The result's `lang` is `to`.
/// A sheet without `lang` (older files) or already in `to` comes back unchanged.
pub fn relocalize(sheet: &JobSheet, to: Lang) -> JobSheet {
    let Some(from) = sheet.lang.filter(|&l| l != to) else {
        return sheet.clone();
    };
    let old = prefill(sheet.process.clone(), sheet.decision.clone(), from);
    let new = prefill(sheet.process.clone(), sheet.decision.clone(), to);
    let mut out = sheet.clone();
    out.lang = Some(to);
    fn swap<T: PartialEq + Clone>(field: &mut T, old: Option<&T>, new: Option<&T>) {
        if let (Some(old), Some(new)) = (old, new) {
            if field == old {
                *field = new.clone();
            }
        }
    }
    if let Some(r) = out.retry.as_mut() {
        let (o, n) = (old.retry.as_ref(), new.retry.as_ref());
        swap(
            &mut r.idempotency_key,
            o.map(|x| &x.idempotency_key),
            n.map(|x| &x.idempotency_key),
        );
        swap(
            &mut r.retryable_errors,
            o.map(|x| &x.retryable_errors),
            n.map(|x| &x.retryable_errors),
        );
        swap(
            &mut r.non_retryable_errors,
            o.map(|x| &x.non_retryable_errors),
            n.map(|x| &x.non_retryable_errors),
        );
    }
    if let Some(f) = out.failure.as_mut() {
        let (o, n) = (old.failure.as_ref(), new.failure.as_ref());
        swap(
            &mut f.dead_letter,
            o.map(|x| &x.dead_letter),
            n.map(|x| &x.dead_letter),
        );
        swap(&mut f.notify, o.map(|x| &x.notify), n.map(|x| &x.notify));
        swap(&mut f.rerun, o.map(|x| &x.rerun), n.map(|x| &x.rerun));
    }
    if let Some(t) = out.ticket.as_mut() {
        let (o, n) = (old.ticket.as_ref(), new.ticket.as_ref());
        swap(&mut t.states, o.map(|x| &x.states), n.map(|x| &x.states));
        swap(
            &mut t.completion,
            o.map(|x| &x.completion),
            n.map(|x| &x.completion),
        );
    }
    if let Some(b) = out.batch.as_mut() {
        let (o, n) = (old.batch.as_ref(), new.batch.as_ref());
        swap(
            &mut b.partial_failure,
            o.map(|x| &x.partial_failure),
            n.map(|x| &x.partial_failure),
        );
    }
    if let Some(s) = out.sync.as_mut() {
        let (o, n) = (old.sync.as_ref(), new.sync.as_ref());
        swap(
            &mut s.on_timeout,
            o.map(|x| &x.on_timeout),
            n.map(|x| &x.on_timeout),
        );
        let call_key = |x: Option<&SyncSpec>| {
            x.and_then(|x| x.call.as_ref())
                .map(|c| c.idempotency_key.clone())
        };
        if let Some(c) = s.call.as_mut() {
            swap(
                &mut c.idempotency_key,
                call_key(o).as_ref(),
                call_key(n).as_ref(),
            );
        }
    }
    out
}

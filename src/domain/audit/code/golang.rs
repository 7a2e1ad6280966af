//! River (`brief/QUEUES.md` §7) and Temporal (§10) in Go.
//!
//! - River: `river.InsertOpts{MaxAttempts: N}` (attempts, the first included) in a job
//!   args' `InsertOpts()` or at an insert; a worker's `Timeout(…) time.Duration { return 30 *
//!   time.Second }` (attempt timeout) and `NextRetry(…)` (computed at run time: unresolved);
//!   `river.Config{JobTimeout, RescueStuckJobsAfter}` (attempt timeout, lease) for every job
//!   of the file. A worker is matched to its args by `river.WorkerDefaults[Args]`.
//! - Temporal: `temporal.RetryPolicy{InitialInterval, BackoffCoefficient, MaximumInterval,
//!   MaximumAttempts (0 = unlimited), NonRetryableErrorTypes}` and `workflow.ActivityOptions
//!   {StartToCloseTimeout, ScheduleToCloseTimeout, HeartbeatTimeout}`. A bare number as a
//!   `time.Duration` is nanoseconds.

use super::lex::K;
use super::value::{Cx, Item, Val};
use super::{duration, error_list, job, stated, unresolved, whole};
use crate::domain::audit::found::{Fact, Found, Pos, Setting};
use crate::domain::queues::TargetId;
use crate::domain::sheet::BackoffKind;
use std::collections::HashMap;

/// A `time.Duration` written as a bare number: nanoseconds, in ms.
const NS: f64 = 1e-6;

#[derive(Default)]
struct Func {
    recv: String,
    name: String,
}

/// Every River job and Temporal activity policy in the file.
pub fn scan(cx: &Cx) -> Vec<Found> {
    let mut temporal: Vec<Found> = Vec::new();
    // RetryPolicy literals bound to a variable, until an ActivityOptions names it.
    let mut policies: Vec<(String, Found)> = Vec::new();
    let mut river: Vec<(String, Pos, Vec<Setting>)> = Vec::new();
    let mut config: Vec<Setting> = Vec::new();
    let mut alias: HashMap<String, String> = HashMap::new();
    let mut func = Func::default();
    let mut struct_name = String::new();
    let mut i = 0;
    while i < cx.toks.len() {
        if cx.word(i, "type") && cx.word(i + 2, "struct") {
            struct_name = cx.text(i + 1).to_owned();
        }
        if cx.word(i, "WorkerDefaults") && cx.p(i + 1, '[') && !struct_name.is_empty() {
            alias.insert(struct_name.clone(), cx.text(i + 2).to_owned());
        }
        if cx.word(i, "func") && cx.toks.get(i).is_some_and(|t| t.nl) {
            func = signature(cx, i);
            if let Some(s) = method(cx, i, &func) {
                river.push((func.recv.clone(), at(cx, i), vec![s]));
            }
        }
        if let Some(end) = composite(cx, i) {
            let kind = cx.text(end - 1).to_owned();
            let open = end;
            let item = cx.item(i, cx.after(open));
            let at = at(cx, i);
            let owner = if func.recv.is_empty() {
                func.name.clone()
            } else {
                func.recv.clone()
            };
            match kind.as_str() {
                "RetryPolicy" | "ActivityOptions" | "LocalActivityOptions" => {
                    let mut f = job(TargetId::Temporal, &func.name, at);
                    temporal_policy(&item, &mut f.settings, &mut policies);
                    match bound_to(cx, i) {
                        Some(var) if kind == "RetryPolicy" => policies.push((var, f)),
                        _ => temporal.push(f),
                    }
                }
                "InsertOpts" => {
                    let mut s = Vec::new();
                    if let Some(v) = item.get("MaxAttempts") {
                        s.push(whole("MaxAttempts", v, "attempts", |n| {
                            Fact::Attempts(Some(n))
                        }));
                    }
                    river.push((owner, at, s));
                }
                _ => river_config(&item, &mut config),
            }
            i = cx.after(open);
            continue;
        }
        i += 1;
    }
    let mut out = group_river(river, &alias);
    if out.is_empty() && !config.is_empty() {
        out.push(job(TargetId::River, "", config[0].at));
    }
    for f in &mut out {
        f.settings.extend(config.iter().cloned());
    }
    out.extend(temporal);
    out.extend(policies.into_iter().map(|(_, f)| f));
    out.sort_by_key(|f| f.at);
    out
}

fn at(cx: &Cx, i: usize) -> Pos {
    cx.pos(i)
}

/// `func (r *Recv) Name(` or `func Name(` at `i`.
fn signature(cx: &Cx, i: usize) -> Func {
    if cx.p(i + 1, '(') {
        let close = cx.after(i + 1) - 1;
        let recv = (i + 2..close)
            .rev()
            .find(|&k| cx.toks.get(k).is_some_and(|t| t.k == K::Ident))
            .map(|k| cx.text(k).to_owned())
            .unwrap_or_default();
        Func {
            recv,
            name: cx.text(close + 1).to_owned(),
        }
    } else {
        Func {
            recv: String::new(),
            name: cx.text(i + 1).to_owned(),
        }
    }
}

/// The body `{ … }` of the function declared at `i`: its opening brace.
fn body(cx: &Cx, i: usize) -> Option<usize> {
    let mut k = i + 1;
    let mut params = 0;
    while k < cx.toks.len() && k < i + 200 {
        if cx.p(k, '{') && params >= 2 {
            return Some(k);
        }
        if cx.p(k, '(') {
            params += 1;
            k = cx.after(k);
        } else if cx.p(k, '[') {
            k = cx.after(k);
        } else {
            k += 1;
        }
    }
    None
}

/// River's `Timeout` and `NextRetry` methods.
fn method(cx: &Cx, i: usize, f: &Func) -> Option<Setting> {
    if f.recv.is_empty() || !matches!(f.name.as_str(), "Timeout" | "NextRetry") {
        return None;
    }
    let open = body(cx, i)?;
    let close = cx.after(open) - 1;
    if f.name == "NextRetry" {
        let item = Item {
            val: Val::Other,
            at: at(cx, open + 1),
            text: cx.span(open + 1, close),
        };
        return Some(unresolved("NextRetry", &item, "base-ms"));
    }
    let ret = (open + 1..close).find(|&k| cx.word(k, "return"))?;
    let item = cx.item(ret + 1, cx.expr_end(ret + 1, true).min(close));
    Some(duration(
        "Timeout",
        &item,
        NS,
        "attempt-timeout-ms",
        Fact::AttemptTimeoutMs,
    ))
}

/// A composite literal of a known type starting at `i` (`temporal.RetryPolicy{`): the index
/// of its `{`.
fn composite(cx: &Cx, i: usize) -> Option<usize> {
    // A literal follows `return`, `=`, `(`, `,`, `&`, `:` or `{`; a function's result type
    // (`) river.InsertOpts {`) does not.
    let prev = i.checked_sub(1)?;
    let starts = cx.word(prev, "return")
        || ['=', '(', ',', '&', ':', '{', '[']
            .iter()
            .any(|&c| cx.p(prev, c));
    if !starts {
        return None;
    }
    let pkg = cx.text(i);
    if !matches!(pkg, "temporal" | "workflow" | "river") || !cx.p(i + 1, '.') || !cx.p(i + 3, '{') {
        return None;
    }
    let ok = matches!(
        (pkg, cx.text(i + 2)),
        ("temporal", "RetryPolicy")
            | ("workflow", "ActivityOptions" | "LocalActivityOptions")
            | ("river", "InsertOpts" | "Config")
    );
    ok.then_some(i + 3)
}

/// The variable a composite literal at `i` is bound to (`p := &temporal.RetryPolicy{`).
fn bound_to(cx: &Cx, i: usize) -> Option<String> {
    let mut k = i.checked_sub(1)?;
    if cx.p(k, '&') {
        k = k.checked_sub(1)?;
    }
    if !cx.p(k, '=') {
        return None;
    }
    k = k.checked_sub(1)?;
    if cx.p(k, ':') {
        k = k.checked_sub(1)?;
    }
    (cx.toks.get(k)?.k == K::Ident).then(|| cx.text(k).to_owned())
}

/// A Temporal policy's settings; a `RetryPolicy: p` naming a policy bound earlier takes
/// that policy's settings (and the policy is no job of its own).
fn temporal_policy(item: &Item, out: &mut Vec<Setting>, policies: &mut Vec<(String, Found)>) {
    let Val::Map(entries) = &item.val else {
        return;
    };
    for e in entries {
        let (k, v) = (e.key.as_str(), &e.item);
        match k {
            "RetryPolicy" => match &v.val {
                Val::Map(_) => temporal_policy(v, out, policies),
                Val::Name(n) if policies.iter().any(|(var, _)| var == n) => {
                    if let Some(p) = policies.iter().position(|(var, _)| var == n) {
                        out.extend(policies.remove(p).1.settings);
                    }
                }
                _ => out.push(unresolved(k, v, "attempts")),
            },
            "StartToCloseTimeout" => out.push(duration(
                k,
                v,
                NS,
                "attempt-timeout-ms",
                Fact::AttemptTimeoutMs,
            )),
            "ScheduleToCloseTimeout" => {
                out.push(duration(
                    k,
                    v,
                    NS,
                    "max-retry-duration-ms",
                    Fact::MaxRetryDurationMs,
                ));
            }
            "HeartbeatTimeout" => out.push(duration(k, v, NS, "lease-ms", Fact::LeaseMs)),
            "InitialInterval" => out.push(duration(k, v, NS, "base-ms", Fact::BaseMs)),
            "MaximumInterval" => out.push(duration(k, v, NS, "cap-ms", Fact::CapMs)),
            "BackoffCoefficient" => coefficient(k, v, out),
            "MaximumAttempts" => out.push(match v.val {
                Val::Num(0.0) => stated(k, v.at, Fact::Attempts(None)),
                _ => whole(k, v, "attempts", |n| Fact::Attempts(Some(n))),
            }),
            "NonRetryableErrorTypes" => {
                out.push(error_list(k, v, "non-retryable", Fact::NonRetryable))
            }
            _ => {}
        }
    }
}

/// Temporal's `backoffCoefficient`: 1 is a fixed wait, more is exponential by that factor.
pub(super) fn coefficient(k: &str, v: &Item, out: &mut Vec<Setting>) {
    match v.val {
        Val::Num(c) if (1.0..=1e6).contains(&c) => {
            let kind = if c == 1.0 {
                BackoffKind::Fixed
            } else {
                BackoffKind::Exponential
            };
            out.push(stated(k, v.at, Fact::BackoffKind(kind)));
            out.push(stated(
                k,
                v.at,
                Fact::FactorMilli((c * 1000.0).round() as u64),
            ));
        }
        _ => out.push(unresolved(k, v, "factor-milli")),
    }
}

fn river_config(item: &Item, out: &mut Vec<Setting>) {
    if let Some(v) = item.get("JobTimeout") {
        out.push(duration(
            "JobTimeout",
            v,
            NS,
            "attempt-timeout-ms",
            Fact::AttemptTimeoutMs,
        ));
    }
    if let Some(v) = item.get("RescueStuckJobsAfter") {
        out.push(duration(
            "RescueStuckJobsAfter",
            v,
            NS,
            "lease-ms",
            Fact::LeaseMs,
        ));
    }
}

/// River settings grouped per job: a worker's settings go to its args type.
fn group_river(
    items: Vec<(String, Pos, Vec<Setting>)>,
    alias: &HashMap<String, String>,
) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for (owner, at, settings) in items {
        let name = alias.get(&owner).cloned().unwrap_or(owner);
        match out.iter_mut().find(|f| f.name == name && !name.is_empty()) {
            Some(f) => {
                f.at = f.at.min(at);
                f.settings.extend(settings);
            }
            None => {
                let mut f = job(TargetId::River, &name, at);
                f.settings = settings;
                out.push(f);
            }
        }
    }
    for f in &mut out {
        f.settings.sort_by_key(|s| s.at);
    }
    out
}

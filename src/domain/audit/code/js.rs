//! BullMQ (`brief/QUEUES.md` §5), pg-boss (§8) and Temporal (§10) options in TypeScript /
//! JavaScript object literals, and Temporal RetryPolicy JSON (protobuf JSON durations).
//!
//! - BullMQ: `attempts` counts the first run (0 and 1 both run once); `backoff` a number
//!   (fixed, ms) or `{type: 'fixed' | 'exponential', delay (ms), jitter}` — jitter 0 is none,
//!   1 full, 0.5 equal (BullMQ draws `[d·(1−j), d)`); another factor has no sheet equivalent
//!   (unresolved); a custom type is computed at run time. `defaultJobOptions` nests them;
//!   a Worker's `lockDuration` (ms) is the lease, `concurrency` the jobs at once,
//!   `limiter: {max, duration}` the rate. A job added with options to a queue bound in the
//!   file (`const q = new Queue('mail', …)`, `q.add('receipt', data, {…})`) runs with its
//!   options over the queue's `defaultJobOptions`, one level deep, and on that queue's
//!   Worker: its `lockDuration`, `concurrency` and `limiter` are the job's too.
//! - pg-boss: `retryLimit` counts **retries**; `retryDelay` / `retryDelayMax` are seconds;
//!   `retryBackoff: true` waits `retryDelay · 2^rc · (1 + U)` — equal jitter on a base of
//!   `2 · retryDelay`, which is the base stated; `expireIn…` is the attempt timeout and the
//!   lease; `retention…` how long a queued job is kept; `deadLetter` the queue's name.
//! - Temporal: `startToCloseTimeout`, `scheduleToCloseTimeout`, `heartbeatTimeout` and
//!   `retry` / `retryPolicy` `{initialInterval, backoffCoefficient, maximumInterval,
//!   maximumAttempts (0 = unlimited), nonRetryableErrorTypes}`; durations as ms-style
//!   strings (`'1 minute'`, `'10s'`), numbers of ms, or protobuf JSON (`"1.5s"`).

mod queues;

use super::golang::coefficient;
use super::lex::{Fam, K};
use super::value::{Cx, Entry, Item, Val};
use super::{duration, error_list, job, stated, unresolved, whole};
use crate::domain::audit::found::{Fact, Found, Pos, Setting};
use crate::domain::queues::TargetId;
use crate::domain::sheet::{BackoffKind, Jitter};
use queues::{added_on, over_defaults, queue_bindings, worker_options};

const BULLMQ: &[&str] = &[
    "attempts",
    "backoff",
    "defaultJobOptions",
    "lockDuration",
    "limiter",
    "concurrency",
    "removeOnComplete",
    "removeOnFail",
];
const PG_BOSS: &[&str] = &[
    "retryLimit",
    "retryDelay",
    "retryBackoff",
    "retryDelayMax",
    "expireInSeconds",
    "expireInMinutes",
    "expireInHours",
    "retentionSeconds",
    "retentionMinutes",
    "retentionHours",
    "retentionDays",
    "deadLetter",
];
const TEMPORAL: &[&str] = &[
    "startToCloseTimeout",
    "scheduleToCloseTimeout",
    "heartbeatTimeout",
    "retry",
    "retryPolicy",
    "initialInterval",
    "backoffCoefficient",
    "maximumInterval",
    "maximumAttempts",
    "nonRetryableErrorTypes",
];
/// Keys that name their system on their own, without an import.
const DISTINCT: &[&str] = &[
    "defaultJobOptions",
    "lockDuration",
    "retryLimit",
    "expireInSeconds",
    "startToCloseTimeout",
    "scheduleToCloseTimeout",
    "retryPolicy",
    "initialInterval",
    "maximumAttempts",
];

/// Every options object of the three systems in the file.
pub fn scan(cx: &Cx) -> Vec<Found> {
    let imported: Vec<TargetId> = if cx.fam == Fam::Json {
        vec![TargetId::Temporal]
    } else {
        [("bullmq", TargetId::Bullmq), ("pg-boss", TargetId::PgBoss), ("@temporalio/", TargetId::Temporal)]
            .into_iter()
            .filter(|(m, _)| {
                cx.toks.iter().any(|t| matches!(&t.k, K::Str { value, .. } if value == m || value.starts_with(m) && m.ends_with('/')))
            })
            .map(|(_, t)| t)
            .collect()
    };
    let mut open_of = vec![None; cx.toks.len()];
    for (o, c) in cx.close.iter().enumerate() {
        if let Some(c) = c {
            if let Some(slot) = open_of.get_mut(*c) {
                *slot = Some(o);
            }
        }
    }
    let queues = if imported.contains(&TargetId::Bullmq) {
        queue_bindings(cx)
    } else {
        Vec::new()
    };
    let mut out: Vec<Found> = Vec::new();
    // For each job of `out`: the queue of the file an `add` put it on (`None`: a job read
    // from its own options, a Queue's or a Worker's).
    let mut added_to: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < cx.toks.len() {
        if !cx.p(i, '{') {
            i += 1;
            continue;
        }
        let end = cx.after(i);
        let item = cx.item(i, end);
        let Val::Map(entries) = &item.val else {
            i += 1;
            continue;
        };
        match system(entries, &imported, cx.fam) {
            Some(sys) => {
                let added = (sys == TargetId::Bullmq)
                    .then(|| added_on(cx, i, &open_of, &queues))
                    .flatten();
                let (name, at) = match &added {
                    Some(a) => (a.name.clone(), a.at),
                    None => context(cx, i, &open_of),
                };
                let mut f = job(sys, &name, at);
                match (sys, &added) {
                    (TargetId::Bullmq, Some(a)) => {
                        bullmq(
                            &over_defaults(&a.queue.defaults, entries),
                            true,
                            &mut f.settings,
                        );
                    }
                    (TargetId::Bullmq, None) => bullmq(entries, false, &mut f.settings),
                    (TargetId::PgBoss, _) => pg_boss(entries, &mut f.settings),
                    _ => temporal(entries, &mut f.settings),
                }
                let queue = added.map(|a| a.queue.name.clone());
                // A Queue and its Worker (or several calls) with the same queue name are one
                // job; so are two `add`s of one job name on one queue. A job added to a queue
                // is never the queue's own job, whatever its name.
                match out.iter_mut().zip(&added_to).find(|(o, q)| {
                    o.system == sys && !name.is_empty() && o.name == name && **q == queue
                }) {
                    Some((o, _)) => o.settings.append(&mut f.settings),
                    None if !f.settings.is_empty() => {
                        out.push(f);
                        added_to.push(queue);
                    }
                    None => {}
                }
                i = end;
            }
            None => i += 1,
        }
    }
    worker_options(&added_to, &mut out);
    if imported.contains(&TargetId::Bullmq) {
        bare_bullmq(cx, &mut out);
    }
    out
}

/// BullMQ's `new Worker('name', …)` and `queue.add('name', data)` that state nothing about
/// retries still run their jobs with BullMQ's defaults (`attempts` 1: no retry): each is a
/// job whose every fact is not stated, unless a job of that name is already read. Only where
/// the file states no attempts at all (no `attempts`, no `defaultJobOptions`): a Worker
/// processes the jobs some `add` in the file may give attempts to, and an `add` inherits its
/// Queue's `defaultJobOptions`.
fn bare_bullmq(cx: &Cx, out: &mut Vec<Found>) {
    let attempts = cx.toks.iter().enumerate().any(|(k, t)| {
        t.k == K::Ident && matches!(cx.text(k), "attempts" | "defaultJobOptions")
            || matches!(&t.k, K::Str { value, .. } if value == "attempts" || value == "defaultJobOptions")
    });
    if attempts {
        return;
    }
    let mut added = false;
    for i in 0..cx.toks.len() {
        let worker = cx.word(i, "new") && cx.word(i + 1, "Worker");
        let add = i > 0 && cx.p(i, '.') && cx.word(i + 1, "add");
        if !worker && !add {
            continue;
        }
        let open = i + 2;
        if !cx.p(open, '(') {
            continue;
        }
        // Where the call starts, as for a job read from its options (`await queue.add(…)`).
        let at = call(cx, open).map_or_else(|| cx.pos(i), |(_, at)| at);
        let Some(K::Str {
            value,
            interp: false,
        }) = cx.toks.get(open + 1).map(|t| &t.k)
        else {
            continue;
        };
        let known = out
            .iter()
            .any(|o| o.system == TargetId::Bullmq && o.name == *value);
        if !known {
            out.push(job(TargetId::Bullmq, value, at));
            added = true;
        }
    }
    if added {
        // In file order, as the other jobs are.
        out.sort_by_key(|f| f.at);
    }
}

fn system(entries: &[Entry], imported: &[TargetId], fam: Fam) -> Option<TargetId> {
    let hits = |keys: &[&str]| {
        entries
            .iter()
            .filter(|e| keys.contains(&e.key.as_str()))
            .count()
    };
    let candidates = [
        (TargetId::Bullmq, hits(BULLMQ)),
        (TargetId::PgBoss, hits(PG_BOSS)),
        (TargetId::Temporal, hits(TEMPORAL)),
    ];
    let distinct = entries.iter().any(|e| DISTINCT.contains(&e.key.as_str()));
    candidates
        .into_iter()
        .filter(|&(t, n)| {
            n > 0
                && if imported.is_empty() {
                    fam != Fam::Json && (distinct || n >= 2)
                } else {
                    imported.contains(&t)
                }
        })
        .max_by_key(|&(_, n)| n)
        .map(|(t, _)| t)
}

/// The job's name and where its definition starts: the call the object is an argument of
/// (its first argument's text as the name), or the `const` it is bound to.
fn context(cx: &Cx, i: usize, open_of: &[Option<usize>]) -> (String, Pos) {
    let here = cx.pos(i);
    let fallback = || (String::new(), here);
    if i > 0 && cx.p(i - 1, '=') {
        return binding(cx, i - 1).unwrap_or_else(fallback);
    }
    let mut k = i;
    for _ in 0..4000 {
        let Some(prev) = k.checked_sub(1) else { break };
        match cx.toks[prev].k {
            K::P(')' | ']' | '}') => k = open_of.get(prev).copied().flatten().unwrap_or(prev),
            K::P('(') => return call(cx, prev).unwrap_or_else(fallback),
            K::P('[' | '{' | ';') => break,
            _ => k = prev,
        }
    }
    fallback()
}

fn call(cx: &Cx, open: usize) -> Option<(String, Pos)> {
    let mut s = open;
    while s > 0 && (cx.toks.get(s - 1).is_some_and(|t| t.k == K::Ident) || cx.p(s - 1, '.')) {
        s -= 1;
    }
    if s == open {
        return None;
    }
    let at = cx.toks.get(s)?.at;
    let name = match cx.toks.get(open + 1).map(|t| &t.k) {
        Some(K::Str {
            value,
            interp: false,
        }) => value.clone(),
        Some(K::Ident) => cx.text(open + 1).to_owned(),
        _ => String::new(),
    };
    Some((name, at))
}

fn binding(cx: &Cx, eq: usize) -> Option<(String, Pos)> {
    if !cx.p(eq, '=') {
        return None;
    }
    let c = (eq.saturating_sub(8)..eq)
        .rev()
        .find(|&k| matches!(cx.text(k), "const" | "let" | "var"))?;
    let at = cx.toks.get(c)?.at;
    Some((cx.text(c + 1).to_owned(), at))
}

/// The BullMQ options `entries` as settings; `job`: they are a job's options (an `add`'s, a
/// queue's `defaultJobOptions`), where a spread (`{ ...retryOpts, jobId }`) may carry the
/// attempts and the backoff: those it may set, and no key after it states, are not resolved
/// (a Worker's options carry neither).
fn bullmq(entries: &[Entry], job: bool, out: &mut Vec<Setting>) {
    for (n, e) in entries.iter().enumerate() {
        let (k, v) = (e.key.as_str(), &e.item);
        let later = |key: &str| entries.iter().skip(n + 1).any(|x| x.key == key);
        match k {
            "..." if job => {
                if !later("attempts") {
                    out.push(unresolved(k, v, "attempts"));
                }
                if !later("backoff") {
                    out.push(unresolved(k, v, "base-ms"));
                }
            }
            "defaultJobOptions" | "opts" => {
                if let Val::Map(inner) = &v.val {
                    bullmq(inner, true, out);
                } else {
                    out.push(unresolved(k, v, "attempts"));
                }
            }
            "attempts" => out.push(whole(k, v, "attempts", |n| Fact::Attempts(Some(n.max(1))))),
            "backoff" => backoff(v, out),
            "lockDuration" => out.push(duration(k, v, 1.0, "lease-ms", Fact::LeaseMs)),
            "concurrency" => out.push(whole(k, v, "concurrency", Fact::Concurrency)),
            "removeOnFail" => out.push(keep(k, v, true)),
            "removeOnComplete" => out.push(keep(k, v, false)),
            "limiter" => {
                let rate = match (
                    v.get("max").map(|m| &m.val),
                    v.get("duration").map(|d| &d.val),
                ) {
                    (Some(Val::Num(m)), Some(Val::Num(d)))
                        if *m >= 0.0 && *d > 0.0 && m.is_finite() =>
                    {
                        let r = m * 1_000_000.0 / d;
                        (r <= 1e15).then(|| r.round() as u64)
                    }
                    _ => None,
                };
                out.push(match rate {
                    Some(r) => stated(k, v.at, Fact::RatePerSecMilli(r)),
                    None => unresolved(k, v, "rate-per-sec-milli"),
                });
            }
            _ => {}
        }
    }
}

/// `removeOnFail` / `removeOnComplete` (taskforcesh/bullmq@352d3c7
/// src/interfaces/base-job-options.ts L60–74, src/types/keep-jobs.ts): `true` removes the
/// job at once (kept: 0), `false` keeps it forever, a number keeps that many of the newest,
/// `{age, count}` keeps each for `age` seconds and at most `count` (`limit` only bounds how
/// many one cleanup removes).
fn keep(k: &str, v: &Item, failed: bool) -> Setting {
    let fact = if failed { "dead-letter" } else { "keep-done" };
    let of = |count: Option<u32>, age_ms: Option<u64>| {
        stated(
            k,
            v.at,
            Fact::KeepJobs {
                failed,
                count,
                age_ms,
            },
        )
    };
    match &v.val {
        Val::Bool(true) => of(Some(0), None),
        Val::Bool(false) => of(None, None),
        Val::Num(_) => match super::count(v) {
            Some(n) => of(Some(n), None),
            None => unresolved(k, v, fact),
        },
        Val::Map(entries) => {
            let mut count = None;
            let mut age_ms = None;
            for e in entries {
                match e.key.as_str() {
                    "count" => match super::count(&e.item) {
                        Some(n) => count = Some(n),
                        None => return unresolved(k, v, fact),
                    },
                    "age" => match super::ms(&e.item, 1_000.0) {
                        Some(ms) => age_ms = Some(ms),
                        None => return unresolved(k, v, fact),
                    },
                    _ => {}
                }
            }
            of(count, age_ms)
        }
        _ => unresolved(k, v, fact),
    }
}

fn backoff(v: &Item, out: &mut Vec<Setting>) {
    if let Val::Num(_) = v.val {
        out.push(stated(
            "backoff",
            v.at,
            Fact::BackoffKind(BackoffKind::Fixed),
        ));
        out.push(duration("backoff", v, 1.0, "base-ms", Fact::BaseMs));
        return;
    }
    let Val::Map(entries) = &v.val else {
        out.push(unresolved("backoff", v, "base-ms"));
        return;
    };
    for e in entries {
        let (k, x) = (e.key.as_str(), &e.item);
        match k {
            "type" => out.push(match &x.val {
                Val::Str(s) if s == "fixed" => {
                    stated(k, x.at, Fact::BackoffKind(BackoffKind::Fixed))
                }
                Val::Str(s) if s == "exponential" => {
                    stated(k, x.at, Fact::BackoffKind(BackoffKind::Exponential))
                }
                _ => unresolved(k, x, "backoff-kind"),
            }),
            "delay" => out.push(duration(k, x, 1.0, "base-ms", Fact::BaseMs)),
            "jitter" => out.push(match x.val {
                Val::Num(0.0) => stated(k, x.at, Fact::Jitter(Jitter::None)),
                Val::Num(0.5) => stated(k, x.at, Fact::Jitter(Jitter::Equal)),
                Val::Num(1.0) => stated(k, x.at, Fact::Jitter(Jitter::Full)),
                _ => unresolved(k, x, "jitter"),
            }),
            _ => {}
        }
    }
}

fn pg_boss(entries: &[Entry], out: &mut Vec<Setting>) {
    let backoff_on = entries
        .iter()
        .any(|e| e.key == "retryBackoff" && e.item.val == Val::Bool(true));
    for e in entries {
        let (k, v) = (e.key.as_str(), &e.item);
        let unit = |suffix: &str| match suffix {
            "Seconds" => Some(1_000.0),
            "Minutes" => Some(60_000.0),
            "Hours" => Some(3_600_000.0),
            "Days" => Some(86_400_000.0),
            _ => None,
        };
        match k {
            "retryLimit" => out.push(whole(k, v, "attempts", |n| {
                Fact::Attempts(Some(n.saturating_add(1)))
            })),
            "retryDelay" => {
                let factor = if backoff_on { 2_000.0 } else { 1_000.0 };
                let at_least_one = match v.val {
                    Val::Num(n) if backoff_on && (0.0..1.0).contains(&n) => Item {
                        val: Val::Num(1.0),
                        ..v.clone()
                    },
                    _ => v.clone(),
                };
                out.push(duration(k, &at_least_one, factor, "base-ms", Fact::BaseMs));
            }
            "retryBackoff" => match v.val {
                Val::Bool(true) => {
                    out.push(stated(k, v.at, Fact::BackoffKind(BackoffKind::Exponential)));
                    out.push(stated(k, v.at, Fact::Jitter(Jitter::Equal)));
                }
                Val::Bool(false) => {
                    out.push(stated(k, v.at, Fact::BackoffKind(BackoffKind::Fixed)))
                }
                _ => out.push(unresolved(k, v, "backoff-kind")),
            },
            "retryDelayMax" => out.push(duration(k, v, 1_000.0, "cap-ms", Fact::CapMs)),
            "deadLetter" => out.push(match &v.val {
                Val::Str(s) => stated(k, v.at, Fact::DeadLetter(s.clone())),
                _ => unresolved(k, v, "dead-letter"),
            }),
            _ => {
                if let Some(u) = k.strip_prefix("expireIn").and_then(unit) {
                    out.push(duration(
                        k,
                        v,
                        u,
                        "attempt-timeout-ms",
                        Fact::AttemptTimeoutMs,
                    ));
                    out.push(duration(k, v, u, "lease-ms", Fact::LeaseMs));
                } else if let Some(u) = k.strip_prefix("retention").and_then(unit) {
                    out.push(duration(k, v, u, "retention-ms", Fact::RetentionMs));
                }
            }
        }
    }
}

fn temporal(entries: &[Entry], out: &mut Vec<Setting>) {
    for e in entries {
        let (k, v) = (e.key.as_str(), &e.item);
        let d = |fact: &'static str, f: fn(u64) -> Fact| match ms_text(v) {
            Some(ms) => stated(k, v.at, f(ms)),
            None => unresolved(k, v, fact),
        };
        match k {
            "retry" | "retryPolicy" => match &v.val {
                Val::Map(inner) => temporal(inner, out),
                _ => out.push(unresolved(k, v, "attempts")),
            },
            "startToCloseTimeout" => out.push(d("attempt-timeout-ms", Fact::AttemptTimeoutMs)),
            "scheduleToCloseTimeout" => {
                out.push(d("max-retry-duration-ms", Fact::MaxRetryDurationMs))
            }
            "heartbeatTimeout" => out.push(d("lease-ms", Fact::LeaseMs)),
            "initialInterval" => out.push(d("base-ms", Fact::BaseMs)),
            "maximumInterval" => out.push(d("cap-ms", Fact::CapMs)),
            "backoffCoefficient" => coefficient(k, v, out),
            "maximumAttempts" => out.push(match v.val {
                Val::Num(0.0) => stated(k, v.at, Fact::Attempts(None)),
                _ => whole(k, v, "attempts", |n| Fact::Attempts(Some(n))),
            }),
            "nonRetryableErrorTypes" => {
                out.push(error_list(k, v, "non-retryable", Fact::NonRetryable))
            }
            _ => {}
        }
    }
}

/// A Temporal duration: a number of ms, or a string in the `ms` package's style
/// (`'1 minute'`, `'10s'`, `'1.5h'`, protobuf JSON's `"1.5s"`), in ms.
fn ms_text(v: &Item) -> Option<u64> {
    let ms = match &v.val {
        Val::Num(n) => *n,
        Val::Str(s) => parse_ms(s)?,
        _ => return None,
    };
    (ms.is_finite() && (0.0..=1e15).contains(&ms)).then(|| ms.round() as u64)
}

fn parse_ms(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(s.len(), |(i, _)| i);
    let n: f64 = s.get(..split)?.parse().ok()?;
    let unit = s.get(split..)?.trim().to_ascii_lowercase();
    let f = match unit.as_str() {
        "" | "ms" | "msec" | "msecs" | "millisecond" | "milliseconds" => 1.0,
        "s" | "sec" | "secs" | "second" | "seconds" => 1_000.0,
        "m" | "min" | "mins" | "minute" | "minutes" => 60_000.0,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3_600_000.0,
        "d" | "day" | "days" => 86_400_000.0,
        "w" | "week" | "weeks" => 604_800_000.0,
        "y" | "yr" | "yrs" | "year" | "years" => 31_557_600_000.0,
        _ => return None,
    };
    Some(n * f)
}

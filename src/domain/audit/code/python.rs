//! Celery (`brief/QUEUES.md` §3): `@app.task(…)`, `@shared_task(…)`, `@celery.task(…)`
//! options, `self.retry(countdown=…)` in a task's body, and the app's
//! `broker_transport_options = {"visibility_timeout": N}` (the lease of every task) and
//! task defaults ([`APP_WIDE`]: `task_time_limit`, `task_acks_late`), written as
//! `app.conf.x = …`, `x=…` in `app.conf.update(…)` or a settings module's `x = …`; a
//! task's own option wins over them.
//!
//! - `max_retries` counts **retries**: `max_retries=3` → 4 attempts; `None` → unlimited.
//! - `retry_backoff=True` → exponential from 1 s; a number → exponential from
//!   `int(max(1, n))` s (Celery truncates the factor); `False` → fixed.
//! - `default_retry_delay`, `retry_backoff_max`, `time_limit` are seconds; `soft_time_limit`
//!   is the attempt timeout only where no `time_limit` is written (the hard limit wins).
//! - `retry_jitter=True` → full jitter (`randrange(c + 1)`), `False` → none.

use super::lex::K;
use super::value::{Cx, Entry, Item, Val};
use super::{duration, error_list, job, stated, unresolved, whole};
use crate::domain::audit::found::{Fact, Found, Setting, Value};
use crate::domain::queues::TargetId;
use crate::domain::sheet::{BackoffKind, Jitter};

/// The app's settings that are task defaults, and the task option each stands for
/// (celery/app/defaults.py L267, L315–320).
const APP_WIDE: [(&str, &str); 2] = [
    ("task_time_limit", "time_limit"),
    ("task_acks_late", "acks_late"),
];

/// Every Celery task the file defines, with the app's lease and task defaults added to each
/// (a file of settings alone, without a task, is one job of them).
pub fn scan(cx: &Cx) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    let mut lease: Vec<Setting> = Vec::new();
    let mut defaults: Vec<Setting> = Vec::new();
    let mut i = 0;
    while i < cx.toks.len() {
        let app_wide = APP_WIDE.iter().find(|(k, _)| cx.word(i, k));
        if let (Some(&(key, as_task)), true) = (app_wide, cx.p(i + 1, '=')) {
            let end = cx.expr_end(i + 2, true);
            let mut read = Vec::new();
            option(as_task, &cx.item(i + 2, end), &mut read);
            // Named as the file writes it.
            defaults.extend(read.into_iter().map(|s| Setting {
                key: key.to_owned(),
                ..s
            }));
            i = end;
            continue;
        }
        if cx.p(i, '@') {
            if let Some((f, next)) = decorator(cx, i) {
                out.push(f);
                i = next;
                continue;
            }
        }
        if cx.word(i, "class") && cx.toks.get(i).is_some_and(|t| t.nl) {
            if let Some((f, next)) = task_class(cx, i) {
                out.push(f);
                i = next;
                continue;
            }
        }
        if cx.word(i, "broker_transport_options") && cx.p(i + 1, '=') {
            let end = cx.expr_end(i + 2, true);
            let opts = cx.item(i + 2, end);
            if let Some(v) = opts.get("visibility_timeout") {
                lease.push(duration(
                    "visibility_timeout",
                    v,
                    1_000.0,
                    "lease-ms",
                    Fact::LeaseMs,
                ));
            } else if !matches!(opts.val, Val::Map(_)) {
                lease.push(unresolved("broker_transport_options", &opts, "lease-ms"));
            }
            i = end;
            continue;
        }
        if cx.word(i, "retry") && i > 0 && cx.p(i - 1, '.') && cx.p(i + 1, '(') {
            if let Some(f) = out.last_mut() {
                countdown(cx, i + 1, f);
            }
        }
        i += 1;
    }
    if out.is_empty() {
        if let Some(at) = lease.iter().chain(&defaults).map(|s| s.at).min() {
            out.push(job(TargetId::Celery, "", at));
        }
    }
    for f in &mut out {
        // The app's defaults first: the last stated fact wins, so a task's own option does.
        let own = std::mem::take(&mut f.settings);
        f.settings = defaults.iter().cloned().chain(own).collect();
        f.settings.extend(lease.iter().cloned());
    }
    out
}

/// `@path.task(…)` at `i`: the task and the index after its `def` line.
fn decorator(cx: &Cx, i: usize) -> Option<(Found, usize)> {
    let end = cx.path_end(i + 1, cx.toks.len())?;
    let last = cx.text(end - 1);
    if !matches!(last, "task" | "shared_task") {
        return None;
    }
    let at = cx.pos(i);
    let mut f = job(TargetId::Celery, "", at);
    let mut next = end;
    let mut task_name = None;
    if cx.p(end, '(') {
        let close = cx.after(end) - 1;
        let mut soft = None;
        for (a, b) in cx.split(end + 1, close) {
            let Some((key, _, v)) = cx.keyed(a, b) else {
                continue;
            };
            let item = cx.item(v, b);
            if key == "name" {
                if let Val::Str(s) = &item.val {
                    task_name = Some(s.clone());
                }
            }
            if key == "soft_time_limit" {
                soft = Some(item);
                continue;
            }
            if key == "retry_kwargs" {
                kwargs(cx, v, b, &mut f.settings);
                continue;
            }
            option(&key, &item, &mut f.settings);
        }
        retry_kwargs(&mut f.settings);
        let hard = f.settings.iter().any(|s| s.key == "time_limit");
        if let (Some(item), false) = (soft, hard) {
            f.settings.push(duration(
                "soft_time_limit",
                &item,
                1_000.0,
                "attempt-timeout-ms",
                Fact::AttemptTimeoutMs,
            ));
        }
        next = close + 1;
    }
    // The function below (other decorators between).
    let mut k = next;
    while k < cx.toks.len() && k < next + 400 {
        if cx.word(k, "def") {
            if let Some(t) = cx.toks.get(k + 1).filter(|t| t.k == K::Ident) {
                let _ = t;
                f.name = task_name.unwrap_or_else(|| cx.text(k + 1).to_owned());
                return Some((f, k + 2));
            }
        }
        let statement = cx.toks.get(k).is_some_and(|t| t.nl);
        if cx.word(k, "class") || (statement && cx.p(k, '@') && k > next) {
            break;
        }
        k += 1;
    }
    f.name = task_name.unwrap_or_default();
    Some((f, next))
}

/// A class-based task (`class BaseTaskWithRetry(Task):` with `max_retries = 5` … in its
/// body, as Celery's docs show for `autoretry_for`): the task and the index after its body.
fn task_class(cx: &Cx, i: usize) -> Option<(Found, usize)> {
    let column = cx.toks.get(i)?.at.column;
    if !cx.p(i + 2, '(') {
        return None;
    }
    let close = cx.after(i + 2) - 1;
    let task_base = cx
        .split(i + 3, close)
        .into_iter()
        .any(|(a, b)| cx.span(a, b).ends_with("Task"));
    if !task_base {
        return None;
    }
    let mut f = job(TargetId::Celery, cx.text(i + 1), cx.pos(i));
    let mut k = close + 1;
    let mut soft = None;
    // The body's own statements: at the indentation of its first line (not in its methods).
    let body = (k..cx.toks.len())
        .find(|&x| cx.toks[x].nl)
        .map(|x| cx.toks[x].at.column);
    while let Some(t) = cx.toks.get(k) {
        if t.nl && t.at.column <= column {
            break;
        }
        let own = t.nl && Some(t.at.column) == body;
        if own && t.k == K::Ident && cx.p(k + 1, '=') && !cx.p(k + 2, '=') {
            let end = cx.expr_end(k + 2, true);
            let item = cx.item(k + 2, end);
            match cx.text(k) {
                "soft_time_limit" => soft = Some(item),
                "retry_kwargs" => kwargs(cx, k + 2, end, &mut f.settings),
                key => option(key, &item, &mut f.settings),
            }
            k = end.max(k + 1);
            continue;
        }
        k = if matches!(t.k, K::P('(' | '[' | '{')) {
            cx.after(k)
        } else {
            k + 1
        };
    }
    retry_kwargs(&mut f.settings);
    if let (Some(item), false) = (soft, f.settings.iter().any(|s| s.key == "time_limit")) {
        f.settings.push(duration(
            "soft_time_limit",
            &item,
            1_000.0,
            "attempt-timeout-ms",
            Fact::AttemptTimeoutMs,
        ));
    }
    // A base class without retry options is no job.
    (!f.settings.is_empty()).then_some((f, k))
}

fn option(key: &str, item: &Item, out: &mut Vec<Setting>) {
    match key {
        "max_retries" => out.push(match item.val {
            Val::Null => stated(key, item.at, Fact::Attempts(None)),
            _ => whole(key, item, "attempts", |n| {
                Fact::Attempts(Some(n.saturating_add(1)))
            }),
        }),
        "default_retry_delay" => {
            out.push(duration(key, item, 1_000.0, "base-ms", Fact::BaseMs));
        }
        "retry_backoff" => match item.val {
            Val::Bool(false) => {
                out.push(stated(key, item.at, Fact::BackoffKind(BackoffKind::Fixed)))
            }
            Val::Bool(true) => {
                out.push(stated(
                    key,
                    item.at,
                    Fact::BackoffKind(BackoffKind::Exponential),
                ));
                out.push(stated(key, item.at, Fact::BaseMs(1_000)));
            }
            Val::Num(n) if n.is_finite() && (0.0..1e9).contains(&n) => {
                out.push(stated(
                    key,
                    item.at,
                    Fact::BackoffKind(BackoffKind::Exponential),
                ));
                out.push(stated(
                    key,
                    item.at,
                    Fact::BaseMs(n.max(1.0).trunc() as u64 * 1_000),
                ));
            }
            _ => out.push(unresolved(key, item, "base-ms")),
        },
        "retry_backoff_max" => out.push(duration(key, item, 1_000.0, "cap-ms", Fact::CapMs)),
        "retry_jitter" => out.push(match item.val {
            Val::Bool(b) => stated(
                key,
                item.at,
                Fact::Jitter(if b { Jitter::Full } else { Jitter::None }),
            ),
            _ => unresolved(key, item, "jitter"),
        }),
        "time_limit" => out.push(duration(
            key,
            item,
            1_000.0,
            "attempt-timeout-ms",
            Fact::AttemptTimeoutMs,
        )),
        "acks_late" => out.push(match item.val {
            Val::Bool(b) => stated(key, item.at, Fact::AcksLate(b)),
            _ => unresolved(key, item, "acks-late"),
        }),
        "autoretry_for" => out.push(error_list(key, item, "retryable", Fact::Retryable)),
        "dont_autoretry_for" => {
            out.push(error_list(key, item, "non-retryable", Fact::NonRetryable))
        }
        _ => {}
    }
}

/// `retry_kwargs={"max_retries": 7, "countdown": 10}` or `dict(max_retries=7, countdown=10)`:
/// the keyword arguments autoretry passes to `task.retry(exc=exc, **retry_kwargs)`
/// (celery/celery@5dc781f celery/app/autoretry.py L18–20, L55). Its `max_retries` is the
/// one that call uses (`Task.retry(max_retries=…)` overrides the task's attribute, task.py
/// L832), so it wins over `max_retries=` on the decorator; [`retry_kwargs`] drops the
/// decorator's. `"max_retries": None` is the task's own there, so it states nothing. Its `countdown` is the fixed wait only while `retry_backoff` is off: with
/// `retry_backoff` set, autoretry overwrites `retry_kwargs['countdown']` with the backoff's
/// interval before the call (autoretry.py L47–54), so a given `countdown` is ignored then.
/// A value that is not a literal dict (`retry_kwargs=RETRY` imported from elsewhere) is
/// unresolved: both facts it could hold are named.
fn kwargs(cx: &Cx, a: usize, b: usize, out: &mut Vec<Setting>) {
    let item = cx.item(a, b);
    let call = cx.word(a, "dict") && cx.p(a + 1, '(') && cx.after(a + 1) == b;
    let entries: Option<Vec<Entry>> = match &item.val {
        Val::Map(es) => Some(es.clone()),
        _ if call => cx
            .split(a + 2, b - 1)
            .into_iter()
            .map(|(x, y)| {
                let (key, at, v) = cx.keyed(x, y)?;
                Some(Entry {
                    key,
                    at,
                    item: cx.item(v, y),
                })
            })
            .collect(),
        _ => None,
    };
    let Some(entries) = entries else {
        out.push(unresolved("retry_kwargs", &item, "attempts"));
        out.push(unresolved("retry_kwargs", &item, "base-ms"));
        return;
    };
    for e in &entries {
        let key = format!("retry_kwargs.{}", e.key);
        match e.key.as_str() {
            // `retry(max_retries=None)` means "the task's own" (task.py L832:
            // `self.max_retries if max_retries is None else max_retries`), not unlimited.
            "max_retries" if e.item.val == Val::Null => {}
            "max_retries" => out.push(whole(&key, &e.item, "attempts", |n| {
                Fact::Attempts(Some(n.saturating_add(1)))
            })),
            "countdown" => match super::ms(&e.item, 1_000.0) {
                Some(ms) => {
                    out.push(stated(
                        &key,
                        e.item.at,
                        Fact::BackoffKind(BackoffKind::Fixed),
                    ));
                    out.push(stated(&key, e.item.at, Fact::BaseMs(ms)));
                }
                None => out.push(unresolved(&key, &e.item, "base-ms")),
            },
            _ => {}
        }
    }
}

/// Celery's precedence among what the task states: `retry_kwargs['max_retries']` wins over
/// the task's `max_retries` (autoretry passes it to `retry()`, which prefers its argument);
/// `retry_backoff` (true or a number) overrides `retry_kwargs['countdown']` (autoretry.py
/// L47–54 sets `retry_kwargs['countdown']` from the backoff), so the countdown's facts are
/// dropped then — `retry_backoff=False` keeps them.
fn retry_kwargs(settings: &mut Vec<Setting>) {
    let attempts = |s: &Setting| match &s.value {
        Value::Stated(Fact::Attempts(_)) => true,
        Value::Unresolved { fact, .. } => *fact == "attempts",
        Value::Stated(_) => false,
    };
    if settings
        .iter()
        .any(|s| s.key.starts_with("retry_kwargs") && attempts(s))
    {
        settings.retain(|s| s.key != "max_retries");
    }
    let backoff = settings.iter().any(|s| {
        s.key == "retry_backoff"
            && !matches!(
                s.value,
                Value::Stated(Fact::BackoffKind(BackoffKind::Fixed))
            )
    });
    if backoff {
        settings.retain(|s| s.key != "retry_kwargs.countdown");
    } else if settings.iter().any(|s| s.key == "retry_kwargs.countdown") {
        // `retry(countdown=…)` is used as given; `default_retry_delay` only when it is None
        // (task.py L842–843).
        settings.retain(|s| s.key != "default_retry_delay");
    }
}

/// `self.retry(…, countdown=…)`: a literal countdown is a fixed wait; anything else (the
/// export's `sheet_countdown(…)`) is computed at run time.
fn countdown(cx: &Cx, open: usize, f: &mut Found) {
    let close = cx.after(open) - 1;
    for (a, b) in cx.split(open + 1, close) {
        if let Some((key, _, v)) = cx.keyed(a, b) {
            if key == "countdown" {
                let item = cx.item(v, b);
                if let Some(s) = super::ms(&item, 1_000.0) {
                    f.settings.push(stated(
                        "countdown",
                        item.at,
                        Fact::BackoffKind(BackoffKind::Fixed),
                    ));
                    f.settings
                        .push(stated("countdown", item.at, Fact::BaseMs(s)));
                } else {
                    f.settings.push(unresolved("countdown", &item, "base-ms"));
                }
            }
        }
    }
}

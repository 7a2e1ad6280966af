//! Oban (`brief/QUEUES.md` §6): `use Oban.Worker, queue: :q, max_attempts: N` — Oban's
//! `max_attempts` already counts the first run; a `backoff/1` of the worker computes the
//! wait at run time (unresolved); `timeout/1` returning `:timer.seconds(30)`, a number of ms
//! or a bound attribute is the attempt timeout (`:infinity` states none).

use super::lex::K;
use super::value::{Cx, Val};
use super::{duration, job, unresolved, whole};
use crate::domain::audit::found::{Fact, Found, Pos};
use crate::domain::queues::TargetId;

/// Every Oban worker module in the file.
pub fn scan(cx: &Cx) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    let mut module: Option<(String, Pos)> = None;
    let mut current: Option<usize> = None;
    let mut i = 0;
    while i < cx.toks.len() {
        if cx.word(i, "defmodule") {
            if let Some(end) = cx.path_end(i + 1, cx.toks.len()) {
                let at = cx.pos(i);
                module = Some((cx.span(i + 1, end), at));
                current = None;
                i = end;
                continue;
            }
        }
        if cx.word(i, "use") && cx.span(i + 1, i + 4) == "Oban.Worker" {
            let use_at = cx.pos(i);
            let (name, at) = module.clone().unwrap_or((String::new(), use_at));
            let mut f = job(TargetId::Oban, &name, at);
            let (a, b) = if cx.p(i + 4, '(') {
                (i + 5, cx.after(i + 4) - 1)
            } else if cx.p(i + 4, ',') {
                (i + 5, cx.args_end(i + 5))
            } else {
                (i + 4, i + 4)
            };
            options(cx, a, b, &mut f);
            out.push(f);
            current = Some(out.len() - 1);
            i = b.max(i + 1);
            continue;
        }
        if cx.word(i, "def") {
            if let Some(f) = current.and_then(|c| out.get_mut(c)) {
                callback(cx, i, f);
            }
        }
        i += 1;
    }
    out
}

fn options(cx: &Cx, a: usize, b: usize, f: &mut Found) {
    for (x, y) in cx.split(a, b) {
        let Some((key, _, v)) = cx.keyed(x, y) else {
            continue;
        };
        if key == "max_attempts" {
            let item = cx.item(v, y);
            f.settings
                .push(whole("max_attempts", &item, "attempts", |n| {
                    Fact::Attempts(Some(n))
                }));
        }
    }
}

/// `def backoff(…)` / `def timeout(…)` at `i`.
fn callback(cx: &Cx, i: usize, f: &mut Found) {
    let name = cx.text(i + 1);
    if !matches!(name, "backoff" | "timeout") || !cx.p(i + 2, '(') {
        return;
    }
    let head_end = cx.after(i + 2);
    let (a, b) = if cx.p(head_end, ',') && cx.word(head_end + 1, "do") && cx.p(head_end + 2, ':') {
        (head_end + 3, cx.expr_end(head_end + 3, true))
    } else if cx.word(head_end, "do")
        || (cx.word(head_end, "when") && find_do(cx, head_end).is_some())
    {
        let d = find_do(cx, head_end).unwrap_or(head_end);
        (d + 1, block_end(cx, d + 1))
    } else {
        return;
    };
    let item = cx.item(a, b);
    if name == "backoff" {
        let mut shown = item;
        shown.text = cx.span(i, (b + 1).min(cx.toks.len()));
        f.settings.push(unresolved("backoff/1", &shown, "base-ms"));
    } else if item.val != Val::Sym("infinity".into()) {
        f.settings.push(duration(
            "timeout/1",
            &item,
            1.0,
            "attempt-timeout-ms",
            Fact::AttemptTimeoutMs,
        ));
    }
}

fn find_do(cx: &Cx, from: usize) -> Option<usize> {
    (from..cx.toks.len().min(from + 200)).find(|&k| cx.word(k, "do"))
}

/// The index of the `end` closing a block whose body starts at `a`.
fn block_end(cx: &Cx, a: usize) -> usize {
    let mut depth = 1usize;
    let mut k = a;
    while k < cx.toks.len() {
        if cx.toks[k].k == K::Ident {
            match cx.text(k) {
                "do" if !cx.p(k + 1, ':') => depth += 1,
                "fn" => depth += 1,
                "end" => {
                    depth -= 1;
                    if depth == 0 {
                        return k;
                    }
                }
                _ => {}
            }
        }
        k += 1;
    }
    k
}

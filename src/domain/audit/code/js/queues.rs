//! BullMQ jobs put on a queue the file binds (`const q = new Queue('mail', …)`, then
//! `q.add('receipt', data, {…})` or `q.addBulk([{ name, data, opts }])`): each runs with its
//! own options over the queue's `defaultJobOptions`, one level deep, as BullMQ merges them,
//! and on the queue's Worker, whose `lockDuration`, `concurrency` and `limiter` are the job's
//! too (brief/QUEUES.md §5; taskforcesh/bullmq src/classes/queue.ts `add`, `addBulk`).

use super::super::lex::K;
use super::super::value::{Cx, Entry, Item, Val};
use super::{binding, call};
use crate::domain::audit::found::{Found, Pos, Setting};
use crate::domain::queues::TargetId;

/// A Worker's options, which are its queue's and not a job's (QUEUES.md §5: `lockDuration`,
/// `concurrency`, `limiter`).
const WORKER: [&str; 3] = ["lockDuration", "concurrency", "limiter"];

/// A queue the file binds (`const q = new Queue('mail', …)`, `this.queue = new Queue(…)`).
pub(super) struct Bound {
    /// The name it is bound to (`q`; `queue` for `this.queue`).
    pub(super) binding: String,
    /// Where the binding's `=` is: an `add` takes the nearest binding of its name before it.
    pub(super) eq: usize,
    /// The queue's name: the string given, or the constant's name as written (as a Worker of
    /// that constant is named).
    pub(super) name: String,
    /// Its `defaultJobOptions`: the entries of a literal object, or the entry as written
    /// when it is not one (read as not resolved).
    pub(super) defaults: Vec<Entry>,
}

/// The file's `… = new Queue(name, options)` bindings.
pub(super) fn queue_bindings(cx: &Cx) -> Vec<Bound> {
    let mut found = Vec::new();
    for i in 0..cx.toks.len() {
        if !(cx.p(i, '=') && cx.word(i + 1, "new") && cx.word(i + 2, "Queue") && cx.p(i + 3, '(')) {
            continue;
        }
        let name = match cx.toks.get(i + 4).map(|t| &t.k) {
            Some(K::Str {
                value,
                interp: false,
            }) => value.clone(),
            Some(K::Ident) => cx.text(i + 4).to_owned(),
            _ => continue,
        };
        let binding = match binding(cx, i) {
            Some((b, _)) => b,
            // `this.queue = new Queue(…)`: the member's name.
            None if i >= 2 && cx.p(i - 2, '.') && cx.toks[i - 1].k == K::Ident => {
                cx.text(i - 1).to_owned()
            }
            None => continue,
        };
        let close = cx.after(i + 3).saturating_sub(1);
        let defaults = if !cx.p(i + 5, ',') || i + 6 >= close {
            Vec::new()
        } else if cx.p(i + 6, '{') && cx.after(i + 6) == close {
            cx.item(i + 6, close)
                .get("defaultJobOptions")
                .map(|d| match &d.val {
                    Val::Map(entries) => entries.clone(),
                    _ => vec![unread_defaults(d)],
                })
                .unwrap_or_default()
        } else {
            // The options from a variable or a call: the job's options are not known.
            vec![unread_defaults(&cx.item(i + 6, close))]
        };
        found.push(Bound {
            binding,
            eq: i,
            name,
            defaults,
        });
    }
    found
}

/// Job defaults the reader cannot evaluate, as an entry `bullmq` reads as not resolved.
fn unread_defaults(item: &Item) -> Entry {
    Entry {
        key: "defaultJobOptions".to_owned(),
        at: item.at,
        item: item.clone(),
    }
}

/// A job put on a queue the file binds.
pub(super) struct Added<'q> {
    /// The queue.
    pub(super) queue: &'q Bound,
    /// The job's name (`add`'s first argument, an `addBulk` element's `name`).
    pub(super) name: String,
    /// Where the call or the element starts.
    pub(super) at: Pos,
}

/// When the options object at `i` is a job's on a queue the file binds — the third argument
/// of `q.add('job', data, {…})`, or the `opts` of an element of `q.addBulk([{ name, data,
/// opts }])` — that queue, the job's name and where it starts.
pub(super) fn added_on<'q>(
    cx: &Cx,
    i: usize,
    open_of: &[Option<usize>],
    queues: &'q [Bound],
) -> Option<Added<'q>> {
    let open = enclosing(cx, i, open_of)?;
    if cx.p(open, '(') && open >= 3 && cx.word(open - 1, "add") && cx.p(open - 2, '.') {
        let queue = nearest(queues, cx.text(open - 3), open)?;
        let (name, at) = call(cx, open)?;
        return Some(Added { queue, name, at });
    }
    // `{ name: 'receipt', data, opts: {…} }` inside `q.addBulk([ … ])`.
    if !(cx.p(open, '{') && i >= 2 && cx.p(i - 1, ':') && key_is(cx, i - 2, "opts")) {
        return None;
    }
    let array = enclosing(cx, open, open_of)?;
    if !(cx.p(array, '[')
        && array >= 4
        && cx.p(array - 1, '(')
        && cx.word(array - 2, "addBulk")
        && cx.p(array - 3, '.'))
    {
        return None;
    }
    let queue = nearest(queues, cx.text(array - 4), array)?;
    // The element's own `name: '…'` (its `data` may be written short, `{ name, data, opts }`).
    let close = cx.after(open).saturating_sub(1);
    let mut k = open + 1;
    let mut name = String::new();
    while k < close {
        if key_is(cx, k, "name") && cx.p(k + 1, ':') {
            if let Some(K::Str {
                value,
                interp: false,
            }) = cx.toks.get(k + 2).map(|t| &t.k)
            {
                name.clone_from(value);
            }
            break;
        }
        k = cx.after(k);
    }
    Some(Added {
        queue,
        name,
        at: cx.pos(open),
    })
}

/// Whether the token at `k` is the object key `key`, bare or quoted.
fn key_is(cx: &Cx, k: usize, key: &str) -> bool {
    cx.word(k, key)
        || matches!(cx.toks.get(k).map(|t| &t.k), Some(K::Str { value, .. }) if value == key)
}

/// The bracket, brace or parenthesis that encloses the token at `i`.
fn enclosing(cx: &Cx, i: usize, open_of: &[Option<usize>]) -> Option<usize> {
    let mut k = i;
    for _ in 0..4000 {
        let prev = k.checked_sub(1)?;
        match cx.toks[prev].k {
            K::P(')' | ']' | '}') => k = open_of.get(prev).copied().flatten().unwrap_or(prev),
            K::P('(' | '[' | '{') => return Some(prev),
            _ => k = prev,
        }
    }
    None
}

/// The queue bound to `binding` nearest before token `at` (the first one when none is
/// before it: a function declared above the binding it uses).
fn nearest<'q>(queues: &'q [Bound], binding: &str, at: usize) -> Option<&'q Bound> {
    let named = || queues.iter().filter(|q| q.binding == binding);
    named()
        .filter(|q| q.eq < at)
        .max_by_key(|q| q.eq)
        .or_else(|| named().next())
}

/// A job's options over its queue's `defaultJobOptions`, as BullMQ merges them: one level
/// deep, so a job's `backoff` replaces the queue's whole `backoff` (taskforcesh/bullmq
/// src/classes/queue.ts `add` and `addBulk`: `{ ...this.jobsOpts, ...opts }`).
pub(super) fn over_defaults(defaults: &[Entry], own: &[Entry]) -> Vec<Entry> {
    defaults
        .iter()
        .filter(|d| !own.iter().any(|o| o.key == d.key))
        .chain(own)
        .cloned()
        .collect()
}

/// Each job added to a queue of the file runs on that queue's Worker: its `lockDuration`,
/// `concurrency` and `limiter` are the job's too.
pub(super) fn worker_options(added_to: &[Option<String>], out: &mut [Found]) {
    for (k, queue) in added_to.iter().enumerate() {
        let Some(queue) = queue else { continue };
        let inherited: Vec<Setting> = out
            .iter()
            .zip(added_to)
            .filter(|(o, q)| q.is_none() && o.system == TargetId::Bullmq && o.name == *queue)
            .flat_map(|(o, _)| &o.settings)
            .filter(|s| WORKER.contains(&s.key.as_str()))
            .cloned()
            .collect();
        if let Some(f) = out.get_mut(k) {
            f.settings.extend(inherited);
        }
    }
}

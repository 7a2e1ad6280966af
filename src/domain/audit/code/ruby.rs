//! Sidekiq (`brief/QUEUES.md` §4) and Active Job (§9) in Ruby.
//!
//! - A class that includes `Sidekiq::Job` / `Sidekiq::Worker` is a Sidekiq job even without
//!   `sidekiq_options` (then nothing is stated and Sidekiq's defaults apply).
//! - Sidekiq `sidekiq_options retry: N` counts **retries** (N + 1 attempts); `retry: true`
//!   is Sidekiq's 25 (26 attempts); `retry: false` is one attempt and no dead set;
//!   `dead: false` drops exhausted jobs. `sidekiq_retry_in { … }` returning a plain number
//!   is a fixed wait in seconds; any other body is computed at run time (unresolved).
//! - Active Job `retry_on Err, wait:, attempts:, jitter:` — `attempts` already counts the
//!   first run (`:unlimited` → unlimited); `wait:` a number of seconds or a Duration is a
//!   fixed wait, `:polynomially_longer` (`:exponentially_longer` before Rails 7.1) is
//!   `n⁴ + 2` s with n = 1 first, a Proc is computed at run time. `jitter:` is Active Job's
//!   upward `rand · d · jitter`: 0 is no jitter; another factor has no sheet equivalent and
//!   is reported unresolved. Each `retry_on` is one job (its counter is its own);
//!   `discard_on` errors are added to every job of the class.

use super::lex::K;
use super::value::{Cx, Item, Val};
use super::{duration, error_list, job, names, stated, unresolved, whole};
use crate::domain::audit::found::{Fact, Found, Pos, Setting};
use crate::domain::queues::TargetId;
use crate::domain::sheet::{BackoffKind, Jitter, Polynomial};

/// Sidekiq's retries when `retry: true`.
const SIDEKIQ_DEFAULT_RETRIES: u32 = 25;

struct Class {
    name: String,
    at: Pos,
    sidekiq: Option<Found>,
    retry_on: Vec<Found>,
    discard: Vec<Setting>,
}

impl Class {
    fn new(name: &str, at: Pos) -> Self {
        Class {
            name: name.to_owned(),
            at,
            sidekiq: None,
            retry_on: Vec::new(),
            discard: Vec::new(),
        }
    }

    /// The class's Sidekiq job (at the class, or at `call` outside a class).
    fn sidekiq(&mut self, call: Pos) -> &mut Found {
        let at = if self.name.is_empty() { call } else { self.at };
        let name = self.name.clone();
        self.sidekiq
            .get_or_insert_with(|| job(TargetId::Sidekiq, &name, at))
    }

    fn finish(self, out: &mut Vec<Found>) {
        out.extend(self.sidekiq);
        if self.retry_on.is_empty() && !self.discard.is_empty() {
            let at = if self.name.is_empty() {
                self.discard[0].at
            } else {
                self.at
            };
            let mut f = job(TargetId::ActiveJob, &self.name, at);
            f.settings = self.discard;
            out.push(f);
            return;
        }
        for mut f in self.retry_on {
            f.settings.extend(self.discard.iter().cloned());
            out.push(f);
        }
    }
}

/// Every Sidekiq job and Active Job `retry_on` policy in the file.
pub fn scan(cx: &Cx) -> Vec<Found> {
    let mut out = Vec::new();
    let mut class = Class::new("", Pos::default());
    let mut i = 0;
    while i < cx.toks.len() {
        let statement = cx.toks.get(i).is_some_and(|t| t.nl) || i == 0;
        if statement && cx.word(i, "class") && cx.toks.get(i + 1).is_some_and(|t| t.k == K::Ident) {
            let end = cx.path_end(i + 1, cx.toks.len()).unwrap_or(i + 2);
            let at = cx.pos(i);
            std::mem::replace(&mut class, Class::new(&cx.span(i + 1, end), at)).finish(&mut out);
            i = end;
            continue;
        }
        // A class whose name the tokenizer cannot read (a bidi control before it): a class
        // of its own, so what it includes is not the class above's (`class << self` is not).
        if statement && cx.word(i, "class") && !cx.p(i + 1, '<') {
            let at = cx.pos(i);
            std::mem::replace(&mut class, Class::new("", at)).finish(&mut out);
            i += 1;
            continue;
        }
        if !statement {
            i += 1;
            continue;
        }
        let word = cx.text(i);
        let args = i + 1 + usize::from(cx.p(i + 1, '('));
        let parens = cx.p(i + 1, '(');
        let end = if parens {
            cx.after(i + 1) - 1
        } else {
            cx.args_end(args)
        };
        match word {
            // A Sidekiq job without `sidekiq_options` still retries, with Sidekiq's defaults
            // (25 retries, `c⁴ + 15 + rand(10·(c+1))` s): a job whose every fact is not
            // stated. Only Sidekiq's own modules make a Sidekiq job (an `ApplicationJob`
            // subclass is Active Job's, whatever its adapter).
            "include" => {
                let path = cx.path_end(i + 1, cx.toks.len()).unwrap_or(i + 1);
                let module = cx.span(i + 1, path);
                if matches!(
                    module.trim_start_matches("::"),
                    "Sidekiq::Job" | "Sidekiq::Worker"
                ) {
                    class.sidekiq(cx.pos(i));
                }
            }
            "sidekiq_options" => sidekiq_options(cx, args, end, class.sidekiq(cx.pos(i))),
            "sidekiq_retry_in" => {
                let f = class.sidekiq(cx.pos(i));
                retry_in(cx, i, f);
            }
            "retry_on" => {
                let at = cx.pos(i);
                let mut f = job(TargetId::ActiveJob, &class.name, at);
                retry_on(cx, args, end, &mut f);
                class.retry_on.push(f);
            }
            "discard_on" => {
                let errors: Vec<(usize, usize)> = cx
                    .split(args, end)
                    .into_iter()
                    .filter(|&(a, b)| cx.keyed(a, b).is_none())
                    .collect();
                if let (Some(&(a, _)), Some(&(_, b))) = (errors.first(), errors.last()) {
                    let item = list_of(cx, &errors, a, b);
                    class.discard.push(error_list(
                        "discard_on",
                        &item,
                        "non-retryable",
                        Fact::NonRetryable,
                    ));
                }
            }
            _ => {}
        }
        i += 1;
    }
    class.finish(&mut out);
    out
}

/// The positional arguments `parts` as one list item.
fn list_of(cx: &Cx, parts: &[(usize, usize)], a: usize, b: usize) -> Item {
    let items: Vec<Item> = parts.iter().map(|&(x, y)| cx.item(x, y)).collect();
    let at = cx.pos(a);
    Item {
        val: Val::List(items),
        at,
        text: cx.span(a, b),
    }
}

fn sidekiq_options(cx: &Cx, a: usize, b: usize, f: &mut Found) {
    for (x, y) in cx.split(a, b) {
        let Some((key, _, v)) = cx.keyed(x, y) else {
            continue;
        };
        let item = cx.item(v, y);
        match key.as_str() {
            "retry" => match item.val {
                Val::Bool(true) => f.settings.push(stated(
                    "retry",
                    item.at,
                    Fact::Attempts(Some(SIDEKIQ_DEFAULT_RETRIES + 1)),
                )),
                Val::Bool(false) => {
                    f.settings
                        .push(stated("retry", item.at, Fact::Attempts(Some(1))));
                    f.settings
                        .push(stated("retry", item.at, Fact::KeepDead(false)));
                }
                _ => f.settings.push(whole("retry", &item, "attempts", |n| {
                    Fact::Attempts(Some(n.saturating_add(1)))
                })),
            },
            "dead" => f.settings.push(match item.val {
                Val::Bool(b) => stated("dead", item.at, Fact::KeepDead(b)),
                _ => unresolved("dead", &item, "keep-dead"),
            }),
            _ => {}
        }
    }
}

/// `sidekiq_retry_in do |count, …| … end` or `{ |count, …| … }` at `i`.
fn retry_in(cx: &Cx, i: usize, f: &mut Found) {
    let open = i + 1;
    let (body_start, body_end) = if cx.p(open, '{') {
        (open + 1, cx.after(open) - 1)
    } else if cx.word(open, "do") {
        (open + 1, block_end(cx, open + 1))
    } else {
        return;
    };
    // Skip the block's parameters |count, exception|.
    let mut a = body_start;
    if cx.p(a, '|') {
        a = (a + 1..body_end)
            .find(|&k| cx.p(k, '|'))
            .map_or(a, |k| k + 1);
    }
    let item = cx.item(a, body_end);
    match super::ms(&item, 1_000.0) {
        Some(ms) if matches!(item.val, Val::Num(_)) => {
            f.settings.push(stated(
                "sidekiq_retry_in",
                item.at,
                Fact::BackoffKind(BackoffKind::Fixed),
            ));
            f.settings
                .push(stated("sidekiq_retry_in", item.at, Fact::BaseMs(ms)));
        }
        _ => {
            let mut shown = item;
            if shown.text.is_empty() {
                shown.text = cx.span(i, body_end + 1);
            }
            f.settings
                .push(unresolved("sidekiq_retry_in", &shown, "base-ms"));
        }
    }
}

/// The index of the `end` closing a `do` block whose body starts at `a`.
fn block_end(cx: &Cx, a: usize) -> usize {
    let mut depth = 1usize;
    let mut k = a;
    while k < cx.toks.len() {
        let t = &cx.toks[k];
        if t.k == K::Ident {
            match cx.text(k) {
                "do" | "begin" | "case" | "def" | "class" | "module" => depth += 1,
                "if" | "unless" | "while" | "until" if t.nl => depth += 1,
                "end" => {
                    depth -= 1;
                    if depth == 0 {
                        return k;
                    }
                }
                _ => {}
            }
        }
        if matches!(t.k, K::P('(' | '[' | '{')) {
            k = cx.after(k);
            continue;
        }
        k += 1;
    }
    k
}

fn retry_on(cx: &Cx, a: usize, b: usize, f: &mut Found) {
    let parts = cx.split(a, b);
    let errors: Vec<(usize, usize)> = parts
        .iter()
        .copied()
        .filter(|&(x, y)| cx.keyed(x, y).is_none())
        .collect();
    if let (Some(&(x, _)), Some(&(_, y))) = (errors.first(), errors.last()) {
        let item = list_of(cx, &errors, x, y);
        if names(&item).is_some() {
            f.settings
                .push(error_list("retry_on", &item, "retryable", Fact::Retryable));
        } else {
            f.settings.push(unresolved("retry_on", &item, "retryable"));
        }
    }
    for (x, y) in parts {
        let Some((key, _, v)) = cx.keyed(x, y) else {
            continue;
        };
        let item = cx.item(v, y);
        match key.as_str() {
            "attempts" => f.settings.push(match &item.val {
                Val::Sym(s) if s == "unlimited" => {
                    stated("attempts", item.at, Fact::Attempts(None))
                }
                _ => whole("attempts", &item, "attempts", |n| Fact::Attempts(Some(n))),
            }),
            "wait" => wait(&item, f),
            "jitter" => f.settings.push(match item.val {
                Val::Num(0.0) => stated("jitter", item.at, Fact::Jitter(Jitter::None)),
                _ => unresolved("jitter", &item, "jitter"),
            }),
            _ => {}
        }
    }
}

fn wait(item: &Item, f: &mut Found) {
    match &item.val {
        Val::Sym(s) if s == "polynomially_longer" || s == "exponentially_longer" => {
            let p = Polynomial {
                exponent: 4,
                first_n: 1,
            };
            f.settings.push(stated(
                "wait",
                item.at,
                Fact::BackoffKind(BackoffKind::Polynomial(p)),
            ));
            f.settings
                .push(stated("wait", item.at, Fact::BaseMs(2_000)));
            f.settings
                .push(stated("wait", item.at, Fact::WaitName(s.clone())));
        }
        Val::Num(_) | Val::Ms(_) => {
            f.settings.push(stated(
                "wait",
                item.at,
                Fact::BackoffKind(BackoffKind::Fixed),
            ));
            f.settings
                .push(duration("wait", item, 1_000.0, "base-ms", Fact::BaseMs));
        }
        _ => f.settings.push(unresolved("wait", item, "base-ms")),
    }
}

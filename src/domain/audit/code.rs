//! The literal scanners for queue code (issue 27 item 2): Celery (Python), Sidekiq and
//! Active Job (Ruby), Oban (Elixir), River and Temporal (Go), BullMQ, pg-boss and Temporal
//! (TypeScript / JavaScript) and Temporal RetryPolicy JSON. A full parser per language is not
//! practical in wasm; a small tokenizer per language family (strings with escapes,
//! comments, brackets up to [`MAX_DEPTH`](crate::domain::audit::found::MAX_DEPTH)) and a scanner for the known call shapes are. A
//! value written as a literal becomes [`Value::Stated`] in the sheet's units and counting
//! (`brief/QUEUES.md`: retries vs attempts, seconds vs ms); anything else — a variable, a
//! call, `ENV[…]`, an f-string, a computed block — is [`Value::Unresolved`] with the
//! expression as written, never guessed. Defaults the system applies when a key is missing
//! are the assembly's job: only what the file writes is stated.

mod elixir;
mod golang;
mod js;
mod lex;
mod python;
mod ruby;
mod value;

use crate::domain::audit::found::{Fact, Found, Pos, ReadError, Setting, Value, MAX_FILE_BYTES};
use crate::domain::lang::Lang;
use crate::domain::queues::TargetId;
use crate::text::t;
use lex::Fam;
use value::{Cx, Item, Val};

/// Reads the queue settings that `text` writes as literals, the language picked from
/// `file_name`'s extension (`.py`, `.rb`, `.ex` / `.exs`, `.go`, `.ts` / `.js` / `.mjs` /
/// `.cjs` / `.tsx` / `.jsx`, `.json`) or, for another name, from the content.
///
/// # Errors
/// [`ReadError::TooLarge`] over [`MAX_FILE_BYTES`]; [`ReadError::Binary`] with a NUL byte;
/// [`ReadError::TooDeep`] where brackets nest deeper than
/// [`MAX_DEPTH`](crate::domain::audit::found::MAX_DEPTH); [`ReadError::Unrecognised`] when no
/// known call shape is there.
pub fn read(file_name: &str, text: &str) -> Result<Vec<Found>, ReadError> {
    let bytes = text.len() as u64;
    if bytes > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { bytes });
    }
    if text.contains('\0') {
        return Err(ReadError::Binary);
    }
    let fams = match family(file_name) {
        Some(f) => vec![f],
        None => guess(text),
    };
    for fam in fams {
        let toks = lex::tokens(text, fam)?;
        let close = lex::matches(&toks);
        let cx = Cx::new(text, &toks, &close, fam);
        let found = match fam {
            Fam::Python => python::scan(&cx),
            Fam::Ruby => ruby::scan(&cx),
            Fam::Elixir => elixir::scan(&cx),
            Fam::Go => golang::scan(&cx),
            Fam::Js | Fam::Json => js::scan(&cx),
        };
        if !found.is_empty() {
            let mut found = found;
            for f in &mut found {
                // In file order (an app-wide setting joins each job where the file has it).
                f.settings.sort_by_key(|s| s.at);
            }
            return Ok(found);
        }
    }
    Err(ReadError::Unrecognised)
}

/// [`read`] for a file's bytes: refuses a file over [`MAX_FILE_BYTES`] before looking at it,
/// and one that is not UTF-8 as [`ReadError::Binary`].
///
/// # Errors
/// As [`read`], and [`ReadError::Binary`] for bytes that are not UTF-8.
pub fn read_bytes(file_name: &str, bytes: &[u8]) -> Result<Vec<Found>, ReadError> {
    let n = bytes.len() as u64;
    if n > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { bytes: n });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| ReadError::Binary)?;
    read(file_name, text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Why a setting this module reports unresolved is not resolved, in `lang`: computed at
/// run time; a literal the sheet has no equivalent for (`fact` `"jitter"`: Active Job's
/// upward factor, a BullMQ factor other than 0, 0.5, 1); or a number out of range. Texts:
/// `locales/worker/audit-code.yml`.
pub fn unresolved_reason(fact: &str, expression: &str, lang: Lang) -> String {
    let l = lang.code();
    let literal = value::number(expression.trim().trim_start_matches('-')).is_some();
    let key = match (literal, fact) {
        (false, _) => "audit.code.unresolved.computed",
        (true, "jitter" | "backoff-kind") => "audit.code.unresolved.no-equivalent",
        (true, _) => "audit.code.unresolved.out-of-range",
    };
    t!(key, locale = l, expression = expression).into_owned()
}

/// Whether a setting a reader could not take as `fact` is a number written out (`-3`,
/// `1e99`) outside the fact's range: known, and wrong — not a value computed at run time.
pub fn out_of_range(fact: &str, expression: &str) -> bool {
    value::number(expression.trim().trim_start_matches('-')).is_some()
        && !matches!(fact, "jitter" | "backoff-kind")
}

/// Whether `file_name`'s extension names a language the scanners read (`.py`, `.rb`, `.ex`,
/// `.go`, `.ts`, `.js` … or `.json`).
pub fn knows(file_name: &str) -> bool {
    family(file_name).is_some()
}

fn family(file_name: &str) -> Option<Fam> {
    let ext = file_name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyw" => Fam::Python,
        "rb" | "rake" => Fam::Ruby,
        "ex" | "exs" => Fam::Elixir,
        "go" => Fam::Go,
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" | "mts" | "cts" => Fam::Js,
        "json" => Fam::Json,
        _ => return None,
    })
}

/// The families to try for a file whose name says nothing, most likely first.
fn guess(text: &str) -> Vec<Fam> {
    let has = |s: &str| text.contains(s);
    let mut out = Vec::new();
    if has("package ") && has("func ") {
        out.push(Fam::Go);
    }
    if has("defmodule ") || has("use Oban.Worker") {
        out.push(Fam::Elixir);
    }
    if has("sidekiq_options") || has("retry_on ") || has("class ") && has("end") {
        out.push(Fam::Ruby);
    }
    if has("@app.task") || has("shared_task") || has("def ") {
        out.push(Fam::Python);
    }
    if text.trim_start().starts_with('{') {
        out.push(Fam::Json);
    }
    for f in [Fam::Js, Fam::Python, Fam::Ruby, Fam::Go, Fam::Elixir] {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// A new job.
fn job(system: TargetId, name: &str, at: Pos) -> Found {
    Found {
        system,
        name: name.to_owned(),
        at,
        settings: Vec::new(),
        version: None,
        elsewhere: Vec::new(),
    }
}

/// A stated setting.
fn stated(key: &str, at: Pos, fact: Fact) -> Setting {
    Setting {
        key: key.to_owned(),
        at,
        value: Value::Stated(fact),
    }
}

/// An unresolved setting: `fact` is the fact's kebab-case name.
fn unresolved(key: &str, item: &Item, fact: &'static str) -> Setting {
    Setting {
        key: key.to_owned(),
        at: item.at,
        value: Value::Unresolved {
            fact,
            expression: item.text.clone(),
        },
    }
}

/// The fact `f(n)` for a whole number `n` (0 ..= u32::MAX), else unresolved.
fn whole(key: &str, item: &Item, fact: &'static str, f: impl Fn(u32) -> Fact) -> Setting {
    match count(item) {
        Some(n) => stated(key, item.at, f(n)),
        None => unresolved(key, item, fact),
    }
}

/// A whole number of the value, if it is one.
fn count(item: &Item) -> Option<u32> {
    match item.val {
        Val::Num(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Some(n as u32),
        _ => None,
    }
}

/// Milliseconds of a value: a number in `unit_ms`, or a duration written with its unit.
fn ms(item: &Item, unit_ms: f64) -> Option<u64> {
    let v = match item.val {
        Val::Num(n) => n * unit_ms,
        Val::Ms(m) => m,
        _ => return None,
    };
    (v.is_finite() && (0.0..=1e15).contains(&v)).then(|| v.round() as u64)
}

/// The fact `f(ms)` for a duration (a number in `unit_ms`), else unresolved.
fn duration(
    key: &str,
    item: &Item,
    unit_ms: f64,
    fact: &'static str,
    f: impl Fn(u64) -> Fact,
) -> Setting {
    match ms(item, unit_ms) {
        Some(v) => stated(key, item.at, f(v)),
        None => unresolved(key, item, fact),
    }
}

/// Names listed literally (`(ConnectionError, TimeoutError)`, `["a", "b"]`, one class):
/// each as written; `None` when the list is not literal.
fn names(item: &Item) -> Option<Vec<String>> {
    let one = |i: &Item| match &i.val {
        Val::Name(n) => Some(n.clone()),
        Val::Str(s) | Val::Sym(s) => Some(s.clone()),
        _ => None,
    };
    match &item.val {
        Val::List(xs) => xs.iter().map(one).collect(),
        Val::Name(_) if item.text.chars().next().is_some_and(char::is_uppercase) => {
            one(item).map(|n| vec![n])
        }
        Val::Str(_) => one(item).map(|n| vec![n]),
        _ => None,
    }
}

/// The errors fact `f(list)` for a literal list, else unresolved.
fn error_list(
    key: &str,
    item: &Item,
    fact: &'static str,
    f: impl Fn(Vec<String>) -> Fact,
) -> Setting {
    match names(item) {
        Some(list) => stated(key, item.at, f(list)),
        None => unresolved(key, item, fact),
    }
}

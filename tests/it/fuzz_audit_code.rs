//! Property: no text makes `audit::code::read` panic, and whatever it reads is well formed
//! (positions inside the file, expressions at most 120 characters, a job per system it
//! names). Three families, 10 500 cases by default (a few seconds in a debug build):
//!
//! - the code fixtures and the exports of the eight code targets with characters changed,
//!   inserted, deleted and the end cut, mostly from the characters that matter to the
//!   tokenizers (quotes, brackets, comments, escapes, interpolation) — 6 000;
//! - text made of the call shapes' own pieces in any order, under any file name — 4 000;
//! - the fixtures' bytes edited, through `read_bytes` (invalid UTF-8, NUL) — 500.
//!
//! `PROPTEST_CASES=N` runs N cases of each family instead ([`crate::fuzz_support`]).

use crate::fuzz_support::{apply, apply_bytes, byte_edits, cases, edit_from};
use crate::target_queue_support::example;
use modality_advisor::domain::audit::code::{read, read_bytes};
use modality_advisor::domain::audit::found::{Found, ReadError, Value};
use modality_advisor::domain::queues;
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use std::sync::LazyLock;

const CODE_CHARS: &str = "'\"`#/*\\{}[]()<>:=,.@&|$%~?!_ \n\t0123456789.eaxrfbdoENDt";

/// (file name, text): the fixtures and the example's exports.
static TEXTS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit/code");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    std::fs::read_to_string(e.path()).ok().map(|t| (name, t))
                })
                .collect()
        })
        .unwrap_or_default();
    let sheet = example(Lang::En);
    for t in crate::audit_code_roundtrip::CODE_TARGETS {
        for &f in t.formats() {
            if let Ok(r) = queues::report(&sheet, t, Some(f), Lang::En) {
                out.push((r.file_name, r.built.text));
            }
        }
    }
    assert!(out.len() >= 20, "fixtures and exports: {}", out.len());
    out
});

const PIECES: &[&str] = &[
    "@app.task(",
    "@shared_task",
    "max_retries=",
    "retry_backoff=True",
    "retry_kwargs={'max_retries': ",
    "retry_kwargs=dict(max_retries=",
    "'countdown': ",
    "include Sidekiq::Job\n",
    "new Worker('w', f)",
    "queue.add('j', {}, {",
    "removeOnFail: ",
    "removeOnComplete: { age: ",
    "None",
    "def f():\n",
    "sidekiq_options retry: ",
    "retry_on E, wait: ",
    "5.seconds",
    ":polynomially_longer",
    "attempts: ",
    "class X\n",
    "end\n",
    "do |c|",
    "use Oban.Worker, max_attempts: ",
    "defmodule M do\n",
    "def timeout(_), do: ",
    ":timer.seconds(",
    "river.InsertOpts{MaxAttempts: ",
    "&temporal.RetryPolicy{",
    "workflow.ActivityOptions{",
    "30 * time.Second",
    "func (w *W) Timeout() time.Duration {",
    "return ",
    "import { Queue } from 'bullmq'\n",
    "new Queue('q', {",
    "backoff: { type: 'exponential', delay: ",
    "retryLimit: ",
    "expireInSeconds: ",
    "retry: {",
    "startToCloseTimeout: '1 minute'",
    "\"retryPolicy\": {",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    "'",
    "\"",
    "\"\"\"",
    "`",
    "#{",
    "${",
    "//",
    "/*",
    "*/",
    "#",
    "\\",
    "\n",
    " ",
    "1",
    "0",
    "-1",
    "1e999",
    "0x",
    "18446744073709551616",
    "_",
    "\u{202e}",
    "\u{feff}",
    "é",
];

fn names() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a.py", "a.rb", "a.ex", "a.exs", "a.go", "a.ts", "a.mjs", "a.js", "a.json", "a.txt",
        "noext",
    ])
}

fn well_formed(text: &str, found: &Result<Vec<Found>, ReadError>) -> Result<(), TestCaseError> {
    let lines = text.split('\n').count() as u32;
    if let Ok(found) = found {
        prop_assert!(!found.is_empty());
        for f in found {
            prop_assert!(f.at.line >= 1 && f.at.line <= lines && f.at.column >= 1);
            for s in &f.settings {
                prop_assert!(s.at.line >= 1 && s.at.line <= lines && s.at.column >= 1);
                if let Value::Unresolved { expression, .. } = &s.value {
                    prop_assert!(expression.chars().count() <= 120);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(6_000))]
    #[test]
    fn edited_fixtures_and_exports_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_from(CODE_CHARS), 1..6),
    ) {
        let (name, text) = &TEXTS[which.index(TEXTS.len())];
        let mut chars: Vec<char> = text.chars().collect();
        for e in &edits {
            apply(&mut chars, e);
        }
        let edited = String::from_iter(chars);
        let got = read(name, &edited);
        well_formed(&edited, &got)?;
    }
}

proptest! {
    #![proptest_config(cases(4_000))]
    #[test]
    fn text_of_the_shapes_pieces_never_panics(
        name in names(),
        pieces in prop::collection::vec(prop::sample::select(PIECES.to_vec()), 0..60),
    ) {
        let text = pieces.concat();
        let got = read(name, &text);
        well_formed(&text, &got)?;
    }
}

proptest! {
    #![proptest_config(cases(500))]
    #[test]
    fn edited_bytes_never_panic(which in any::<prop::sample::Index>(), edits in byte_edits()) {
        let (name, text) = &TEXTS[which.index(TEXTS.len())];
        let mut bytes = text.clone().into_bytes();
        apply_bytes(&mut bytes, &edits);
        let got = read_bytes(name, &bytes);
        match std::str::from_utf8(&bytes) {
            Err(_) => prop_assert_eq!(got, Err(ReadError::Binary)),
            Ok(t) => well_formed(t.strip_prefix('\u{feff}').unwrap_or(t), &got)?,
        }
    }
}

//! Shared pieces of the tests of the Oban, River, pg-boss, Active Job and Temporal targets:
//! the worked example, the mapping as a table for snapshots, hostile sheets, a seeded
//! uniform source, generated retry sheets and the window property.

use modality_advisor::domain::flowchart::Outcome;
use modality_advisor::domain::queues::{
    report, sample, Built, Format, Schedule, TargetError, TargetId,
};
use modality_advisor::domain::sheet::example::example as saved_example;
use modality_advisor::domain::sheet::{
    BackoffKind, BackoffPolicy, Jitter, JobSheet, Polynomial, MAX_CAP_MS,
};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

/// The seed's worked example (send_reservation_mail) in `lang`.
pub fn example(lang: Lang) -> JobSheet {
    match saved_example(lang) {
        Ok(s) => s,
        Err(e) => panic!("the example loads: {e:?}"),
    }
}

/// The example with its retry section changed by `f`.
pub fn with_retry(f: impl FnOnce(&mut modality_advisor::domain::sheet::RetrySpec)) -> JobSheet {
    let mut s = example(Lang::En);
    f(s.retry.as_mut().expect("the example has a retry section"));
    s
}

/// A backoff policy.
pub fn backoff(kind: BackoffKind, base_ms: u64, cap_ms: u64, jitter: Jitter) -> BackoffPolicy {
    BackoffPolicy {
        kind,
        base_ms,
        cap_ms,
        jitter,
    }
}

/// The mapping and the gaps as text lines, for snapshots.
pub fn table(b: &Built) -> String {
    let mut out = String::from("field | sheet | key | value | note\n");
    for m in &b.mapping {
        out.push_str(&format!(
            "{} | {} | {} | {} | {}\n",
            m.field.id(),
            m.sheet,
            m.key,
            m.value,
            m.note
        ));
    }
    out.push_str("\ngap | instead | what | detail\n");
    for g in &b.gaps {
        out.push_str(&format!(
            "{} | {:?} | {} | {}\n",
            g.field.id(),
            g.instead,
            g.what,
            g.detail
        ));
    }
    out
}

/// The built export of `sheet` for `target` in `format` (its first when `None`).
pub fn built(sheet: &JobSheet, target: TargetId, format: Option<Format>, lang: Lang) -> Built {
    match report(sheet, target, format, lang) {
        Ok(r) => r.built,
        Err(e) => panic!("{} exports: {}", target.name(), e.message(Lang::En)),
    }
}

/// The delays of a schedule as `(min, expected, max)` triples.
pub fn triples(s: &Schedule) -> Vec<(f64, f64, f64)> {
    s.delays
        .iter()
        .map(|d| (d.min_s, d.expected_s, d.max_s))
        .collect()
}

/// Asserts two float lists equal within 1e-9 (relative to the size).
pub fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-9 * w.abs().max(1.0),
            "{what}: {got:?} vs {want:?}"
        );
    }
}

/// A seeded uniform source in `[0, 1)` (SplitMix64), as the targets' `sample` takes it.
pub fn seeded(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Hostile texts: quotes, newlines, interpolation (`#{}`, `${}`), backticks, comment ends,
/// `</script>`, a right-to-left override, reserved words, class-like names.
pub const HOSTILE: [&str; 10] = [
    "q\"uo'te\n#{x} ${y} `z` */ </script> \u{202e}rev \\",
    "end",
    "class",
    "MyApp::BadAddress",
    "Foo.Bar",
    "-*- coding: bogus -*-",
    "line\r\nbreak\u{2028}sep\u{7}bell",
    "%{template} $${x} {{ }}",
    "日本語＋全角",
    "",
];

/// The example with hostile text in the process name, code name, trigger, arguments,
/// errors, dead letter, notification and key (one sheet per rotation of [`HOSTILE`]).
pub fn hostile_sheets() -> Vec<JobSheet> {
    (0..HOSTILE.len())
        .map(|i| {
            let t = |k: usize| HOSTILE[(i + k) % HOSTILE.len()].to_owned();
            let mut s = example(Lang::En);
            let p = &mut s.process;
            p.process_name = t(0);
            p.code_name = t(1);
            p.trigger = t(2);
            p.arguments = vec![t(3), t(4), t(1), t(2)];
            let r = s.retry.as_mut().expect("retry");
            r.idempotency_key = format!("{} + {} + {}", t(3), t(5), t(0));
            r.retryable_errors = vec![t(0), t(3), t(4)];
            r.non_retryable_errors = vec![t(3), t(4), t(5), t(6)];
            let f = s.failure.as_mut().expect("failure");
            f.dead_letter = t(7);
            f.notify = t(8);
            s
        })
        .collect()
}

/// A sheet with outcome `sync` (no retry section): nothing to export to a job queue.
pub fn sync_sheet() -> JobSheet {
    let mut s = example(Lang::En);
    s.decision.outcome = Outcome::Sync;
    s.retry = None;
    s
}

/// Generated retry sheets: every backoff kind and jitter, attempts 1–100, waits up to the
/// 30-day cap, timeouts and leases within the sheet's ranges.
pub fn retry_sheet() -> impl Strategy<Value = JobSheet> {
    let kind = prop_oneof![
        Just(BackoffKind::Fixed),
        Just(BackoffKind::Exponential),
        (1u32..=8, 0u32..=1).prop_map(|(exponent, first_n)| BackoffKind::Polynomial(Polynomial {
            exponent,
            first_n
        })),
    ];
    let jitter = prop_oneof![
        Just(Jitter::None),
        Just(Jitter::Full),
        Just(Jitter::Equal),
        Just(Jitter::Decorrelated)
    ];
    (
        1u32..=100,
        kind,
        prop_oneof![1u64..=5_000, 1u64..=86_400_000],
        prop_oneof![0u64..=60_000, 0u64..=MAX_CAP_MS],
        jitter,
        1u64..=86_400_000,
        1u64..=86_400_000,
    )
        .prop_map(
            |(attempts, kind, base, extra, jitter, timeout, lease_extra)| {
                with_retry(|r| {
                    r.max_attempts = attempts;
                    r.backoff =
                        backoff(kind, base, (base + extra).min(MAX_CAP_MS).max(base), jitter);
                    r.attempt_timeout_ms = timeout;
                    r.lease_ms = (timeout + lease_extra).min(86_400_000).max(timeout);
                })
            },
        )
}

/// The window property for `target` and `sheet`: when the export is Ok, every delay has
/// min ≤ expected ≤ max, and 20 seeded runs of `sample` give one delay per retry, each
/// within its [min, max], with totals within the window.
pub fn check_windows(target: TargetId, format: Option<Format>, sheet: &JobSheet, seed: u64) {
    let Ok(rep) = report(sheet, target, format, Lang::En) else {
        return;
    };
    let s = &rep.built.actual;
    let tol = |x: f64| 1e-9 * x.abs().max(1.0);
    for d in &s.delays {
        assert!(
            d.min_s <= d.expected_s + tol(d.expected_s) && d.expected_s <= d.max_s + tol(d.max_s),
            "{}: {d:?}",
            target.name()
        );
    }
    let (Some(lo), Some(hi)) = (s.window_s.min, s.window_s.max) else {
        panic!("{}: a bounded sheet has a bounded window", target.name());
    };
    let mut u = seeded(seed);
    for run in 0..20 {
        let delays = match sample(sheet, target, &mut u) {
            Ok(d) => d,
            Err(e) => panic!("{} samples: {e:?}", target.name()),
        };
        let retries = sheet.retry.as_ref().map_or(0, |r| r.max_attempts - 1) as usize;
        assert_eq!(delays.len(), retries, "{} run {run}", target.name());
        for (i, (x, d)) in delays.iter().zip(&s.delays).enumerate() {
            assert!(
                d.min_s - tol(d.min_s) <= *x && *x <= d.max_s + tol(d.max_s),
                "{} run {run} delay {i}: {x} not in {d:?}",
                target.name()
            );
        }
        let total: f64 = delays.iter().sum();
        assert!(
            lo - tol(lo) <= total && total <= hi + tol(hi),
            "{} run {run}: total {total} not in [{lo}, {hi}]",
            target.name()
        );
    }
}

/// Asserts `err` is OutOfRange for `target` naming `field`, with messages in both languages
/// that name the field and the target.
pub fn assert_out_of_range(
    err: TargetError,
    target: TargetId,
    field: modality_advisor::domain::sheet::FieldId,
) {
    match &err {
        TargetError::OutOfRange {
            target: t,
            field: f,
            value,
            allowed,
        } => {
            assert_eq!((*t, *f), (target, field), "{err:?}");
            for lang in Lang::ALL {
                let m = err.message(lang);
                assert!(
                    m.contains(&field.id())
                        && m.contains(target.label())
                        && m.contains(value.as_str())
                        && m.contains(allowed.as_str()),
                    "{lang:?}: {m}"
                );
            }
            assert!(
                err.message(Lang::Ja).contains("使えるのは"),
                "{}",
                err.message(Lang::Ja)
            );
        }
        other => panic!("expected OutOfRange, got {other:?}"),
    }
}

/// Every target format's exports of the hostile sheets build, no comment line has a bidi
/// override, and every header line stays a comment (`prefix`).
pub fn check_hostile(target: TargetId, format: Option<Format>, prefix: &str) {
    for s in hostile_sheets() {
        let b = built(&s, target, format, Lang::En);
        // Comments never carry a bidirectional override (string literals keep the user's
        // text as it is, escaped for the syntax).
        for l in b
            .text
            .lines()
            .filter(|l| l.trim_start().starts_with(prefix))
        {
            assert!(!l.contains('\u{202e}'), "{l}");
        }
        let head: Vec<&str> = b
            .text
            .lines()
            .skip_while(|l| l.starts_with("# frozen_string_literal"))
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(head.len() >= 4, "{}", b.text);
        for l in head {
            assert!(l.starts_with(prefix), "{}: {l}", target.name());
        }
    }
}

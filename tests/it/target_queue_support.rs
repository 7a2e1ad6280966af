//! Shared inputs and checks of the queue targets' tests (`target_sqs`, `target_celery`,
//! `target_sidekiq`, `target_bullmq`): the worked example, sheets changed from it, the mapping
//! as text for snapshots, a seeded uniform source, generated retry sheets, and the check that
//! sampled runs lie within the reported schedule.

use modality_advisor::domain::queues::{self, Schedule, TargetId, TargetReport};
use modality_advisor::domain::sheet::{
    BackoffKind, BackoffPolicy, Jitter, JobSheet, Polynomial, RetrySpec,
};
use modality_advisor::domain::{Lang, Outcome};
use proptest::prelude::*;
use std::fmt::Write;

/// The seed's worked example in `lang` (`domain::sheet::example`).
pub fn example(lang: Lang) -> JobSheet {
    match modality_advisor::domain::sheet::example::example(lang) {
        Ok(s) => s,
        Err(e) => panic!("the {lang:?} example reads: {e:?}"),
    }
}

/// The English example with its retry section changed by `f`.
pub fn with_retry(f: impl FnOnce(&mut RetrySpec)) -> JobSheet {
    let mut s = example(Lang::En);
    if let Some(r) = s.retry.as_mut() {
        f(r);
    }
    s
}

/// A batch sheet: no retry section, outcome `batch`.
pub fn batch_sheet() -> JobSheet {
    let mut s = example(Lang::En);
    s.retry = None;
    s.decision.outcome = Outcome::Batch;
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

/// The report of `target` for `sheet` in `lang`, or a panic naming the error.
pub fn report(sheet: &JobSheet, target: TargetId, lang: Lang) -> TargetReport {
    match queues::report(sheet, target, None, lang) {
        Ok(r) => r,
        Err(e) => panic!("{target:?}: {}", e.message(Lang::En)),
    }
}

/// The mapping and the gaps as text, one line each, for snapshots.
pub fn mapping_text(r: &TargetReport) -> String {
    let mut s = String::from("field | sheet | key | value | note\n");
    for m in &r.built.mapping {
        let _ = writeln!(
            s,
            "{} | {} | {} | {} | {}",
            m.field.id(),
            m.sheet,
            m.key,
            m.value,
            m.note
        );
    }
    s.push_str("\ngaps (field | instead | what | detail)\n");
    for g in &r.built.gaps {
        let _ = writeln!(
            s,
            "{} | {:?} | {} | {}",
            g.field.id(),
            g.instead,
            g.what,
            g.detail
        );
    }
    s
}

/// The delays as `(min, expected, max)` triples.
pub fn triples(s: &Schedule) -> Vec<(f64, f64, f64)> {
    s.delays
        .iter()
        .map(|d| (d.min_s, d.expected_s, d.max_s))
        .collect()
}

/// A seeded source of uniform numbers in `[0, 1)` (SplitMix64).
pub fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Retry sheets: the example with generated attempts, backoff, timeout, lease and queue
/// retention (within the sheet's own ranges).
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
        Just(Jitter::Decorrelated),
    ];
    let base = prop_oneof![1u64..5_000, (1u64..=600).prop_map(|s| s * 1000)];
    (
        1u32..=30,
        kind,
        base,
        0u64..=4_000_000,
        jitter,
        1u64..=600_000,
        1u64..=600_000,
        prop::option::of(60_000u64..=1_300_000_000),
    )
        .prop_map(
            |(attempts, kind, base_ms, extra, jitter, timeout, lease_extra, retention)| {
                with_retry(|r| {
                    r.max_attempts = attempts;
                    r.backoff = backoff(kind, base_ms, base_ms + extra, jitter);
                    r.attempt_timeout_ms = timeout;
                    r.lease_ms = timeout + lease_extra;
                    r.queue_retention_ms = retention;
                })
            },
        )
}

const EPS: f64 = 1e-9;

/// For `target` and `sheet`: when the report is Ok, every delay has min ≤ expected ≤ max,
/// and 20 sampled runs give delays each within its [min, max] and totals within the window.
pub fn samples_lie_within(target: TargetId, sheet: &JobSheet, seed: u64) -> Result<(), String> {
    let Ok(rep) = queues::report(sheet, target, None, Lang::En) else {
        return Ok(());
    };
    let actual = &rep.built.actual;
    for (i, d) in actual.delays.iter().enumerate() {
        if !(d.min_s <= d.expected_s + EPS && d.expected_s <= d.max_s + EPS) {
            return Err(format!("{target:?} delay {i}: {d:?}"));
        }
    }
    let w = actual.window_s;
    let mut u = uniform(seed);
    for run in 0..20 {
        let got = queues::sample(sheet, target, &mut u).map_err(|e| e.message(Lang::En))?;
        if got.len() != actual.delays.len() {
            return Err(format!(
                "{target:?} run {run}: {} delays, schedule {}",
                got.len(),
                actual.delays.len()
            ));
        }
        for (i, (s, d)) in got.iter().zip(&actual.delays).enumerate() {
            if *s < d.min_s - EPS || *s > d.max_s + EPS {
                return Err(format!("{target:?} run {run} delay {i}: {s} not in {d:?}"));
            }
        }
        let total: f64 = got.iter().sum();
        let (min, max) = (w.min.unwrap_or(0.0), w.max.unwrap_or(f64::INFINITY));
        let slack = EPS * (1.0 + max.abs().min(1e12));
        if total < min - slack || total > max + slack {
            return Err(format!("{target:?} run {run}: total {total} not in {w:?}"));
        }
    }
    Ok(())
}

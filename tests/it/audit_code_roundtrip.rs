//! Round trip as the proof (issue 27 item 4) for the eight code targets: every format
//! `domain::queues::report` exports for generated retry sheets, read back by
//! `audit::code::read`, gives the sheet's retry facts again — attempts, the wait's kind,
//! base, cap and jitter, the attempt timeout and the lease, where the export writes them as
//! literals, in the units and rounding the export uses. Where the export writes a computed
//! block instead (a `sidekiq_retry_in` body, an Oban `backoff/1`, a River `NextRetry`, a
//! Celery `sheet_countdown`, an Active Job wait Proc, a BullMQ custom strategy), the reader
//! must say "unresolved" for the wait, and the test asserts exactly that.

use crate::fuzz_support::cases;
use crate::target_queue_support::{example, retry_sheet};
use modality_advisor::domain::audit::code;
use modality_advisor::domain::audit::found::{Fact, Found, Value};
use modality_advisor::domain::queues::{self, pg_boss, temporal, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, Jitter, JobSheet, Polynomial, RetrySpec};
use modality_advisor::domain::Lang;
use proptest::prelude::*;
use std::mem::discriminant;

/// The eight systems whose retry options the code scanners read (shared with
/// audit_code_jobs.rs and fuzz_audit_code.rs).
pub(crate) const CODE_TARGETS: [TargetId; 8] = [
    TargetId::Celery,
    TargetId::Sidekiq,
    TargetId::ActiveJob,
    TargetId::Oban,
    TargetId::River,
    TargetId::Bullmq,
    TargetId::PgBoss,
    TargetId::Temporal,
];

/// What the read-back must hold: facts stated (the last stated of each kind equal), and
/// facts unresolved.
struct Expect {
    stated: Vec<Fact>,
    unresolved: Vec<&'static str>,
}

fn ceil_s(ms: u64) -> u64 {
    ms.div_ceil(1000).max(1) * 1000
}

fn whole_s(ms: u64) -> bool {
    ms >= 1000 && ms.is_multiple_of(1000)
}

fn expect(target: TargetId, r: &RetrySpec) -> Expect {
    let b = &r.backoff;
    let n = r.max_attempts;
    let mut stated = vec![Fact::Attempts(Some(n))];
    let mut unresolved = Vec::new();
    match target {
        TargetId::Celery => {
            stated.push(Fact::AttemptTimeoutMs(r.attempt_timeout_ms));
            stated.push(Fact::LeaseMs(r.lease_ms.div_ceil(1000) * 1000));
            match (b.kind, b.jitter) {
                (BackoffKind::Exponential, Jitter::None | Jitter::Full)
                    if whole_s(b.base_ms) && whole_s(b.cap_ms) =>
                {
                    stated.extend([
                        Fact::BackoffKind(BackoffKind::Exponential),
                        Fact::BaseMs(b.base_ms),
                        Fact::CapMs(b.cap_ms),
                        Fact::Jitter(b.jitter),
                    ]);
                }
                (BackoffKind::Fixed, Jitter::None) => stated.push(Fact::BaseMs(b.base_ms)),
                _ => unresolved.push("base-ms"),
            }
        }
        TargetId::Sidekiq | TargetId::Oban => {
            if target == TargetId::Oban {
                stated.push(Fact::AttemptTimeoutMs(r.attempt_timeout_ms));
            }
            unresolved.push("base-ms");
        }
        TargetId::River => {
            stated.push(Fact::AttemptTimeoutMs(r.attempt_timeout_ms));
            stated.push(Fact::LeaseMs(r.lease_ms));
            unresolved.push("base-ms");
        }
        TargetId::ActiveJob => active_job(r, &mut stated, &mut unresolved),
        TargetId::Bullmq => {
            stated.push(Fact::LeaseMs(r.lease_ms));
            bullmq(r, &mut stated, &mut unresolved);
        }
        TargetId::PgBoss => {
            let o = pg_boss::retry_options(r);
            stated.push(Fact::AttemptTimeoutMs(ceil_s(r.attempt_timeout_ms)));
            stated.push(Fact::LeaseMs(ceil_s(r.attempt_timeout_ms)));
            if let Some(ms) = r.queue_retention_ms {
                stated.push(Fact::RetentionMs(ceil_s(ms)));
            }
            if o.backoff {
                stated.extend([
                    Fact::BackoffKind(BackoffKind::Exponential),
                    Fact::Jitter(Jitter::Equal),
                    Fact::BaseMs(o.retry_delay_s.max(1) * 2000),
                ]);
                if let Some(m) = o.delay_max_s {
                    stated.push(Fact::CapMs(m * 1000));
                }
            } else {
                stated.extend([
                    Fact::BackoffKind(BackoffKind::Fixed),
                    Fact::BaseMs(o.retry_delay_s * 1000),
                ]);
            }
        }
        _ => {
            let p = temporal::policy(r);
            let kind = if p.coefficient == 1.0 {
                BackoffKind::Fixed
            } else {
                BackoffKind::Exponential
            };
            stated.extend([
                Fact::AttemptTimeoutMs(r.attempt_timeout_ms),
                Fact::LeaseMs(r.lease_ms),
                Fact::BaseMs(p.initial_ms),
                Fact::CapMs(p.maximum_ms),
                Fact::FactorMilli((p.coefficient * 1000.0).round() as u64),
                Fact::BackoffKind(kind),
            ]);
        }
    }
    Expect { stated, unresolved }
}

fn active_job(r: &RetrySpec, stated: &mut Vec<Fact>, unresolved: &mut Vec<&'static str>) {
    let b = &r.backoff;
    let uncapped = 2_000 + u64::from(r.max_attempts.saturating_sub(1).max(1)).pow(4) * 1000;
    let poly = Polynomial {
        exponent: 4,
        first_n: 1,
    };
    if b.kind == BackoffKind::Polynomial(poly)
        && b.base_ms == 2_000
        && b.jitter == Jitter::None
        && b.cap_ms >= uncapped
    {
        stated.extend([
            Fact::BackoffKind(BackoffKind::Polynomial(poly)),
            Fact::BaseMs(2_000),
            Fact::Jitter(Jitter::None),
        ]);
    } else if b.kind == BackoffKind::Fixed && b.jitter == Jitter::None {
        stated.extend([
            Fact::BackoffKind(BackoffKind::Fixed),
            Fact::BaseMs(b.base_ms),
            Fact::Jitter(Jitter::None),
        ]);
    } else {
        // The export writes `wait: WAIT`, a Proc computing the sheet's wait.
        unresolved.push("base-ms");
    }
}

fn bullmq(r: &RetrySpec, stated: &mut Vec<Fact>, unresolved: &mut Vec<&'static str>) {
    let b = &r.backoff;
    let retries = r.max_attempts.saturating_sub(1);
    let jitter_ok = b.jitter != Jitter::Decorrelated;
    let own = match b.kind {
        BackoffKind::Fixed => jitter_ok,
        BackoffKind::Exponential => {
            jitter_ok
                && (0..retries).all(|n| {
                    1u64.checked_shl(n)
                        .and_then(|f| b.base_ms.checked_mul(f))
                        .is_some_and(|t| t <= b.cap_ms)
                })
        }
        BackoffKind::Polynomial(_) => false,
    };
    if own {
        let kind = if b.kind == BackoffKind::Fixed {
            BackoffKind::Fixed
        } else {
            BackoffKind::Exponential
        };
        stated.extend([
            Fact::BackoffKind(kind),
            Fact::BaseMs(b.base_ms),
            Fact::Jitter(b.jitter),
        ]);
    } else {
        // A custom `backoffStrategy` in the Worker's settings computes the wait.
        unresolved.push("backoff-kind");
    }
}

fn last_stated<'a>(f: &'a Found, like: &Fact) -> Option<&'a Fact> {
    f.settings.iter().rev().find_map(|s| match &s.value {
        Value::Stated(x) if discriminant(x) == discriminant(like) => Some(x),
        _ => None,
    })
}

fn check(target: TargetId, sheet: &JobSheet) -> Result<usize, TestCaseError> {
    let Some(r) = sheet.retry.as_ref() else {
        return Ok(0);
    };
    let mut checked = 0;
    for &format in target.formats() {
        let Ok(rep) = queues::report(sheet, target, Some(format), Lang::En) else {
            continue;
        };
        let found = code::read(&rep.file_name, &rep.built.text).map_err(|e| {
            TestCaseError::fail(format!("{target:?} {format:?}: {e:?}\n{}", rep.built.text))
        })?;
        let f = found.iter().find(|f| f.system == target).ok_or_else(|| {
            TestCaseError::fail(format!("{target:?} {format:?}: no job in {found:?}"))
        })?;
        let e = expect(target, r);
        for want in &e.stated {
            let got = last_stated(f, want);
            prop_assert_eq!(
                got,
                Some(want),
                "{:?} {:?}: {:#?}\n{}",
                target,
                format,
                f.settings,
                rep.built.text
            );
        }
        for fact in &e.unresolved {
            let has = f
                .settings
                .iter()
                .any(|s| matches!(&s.value, Value::Unresolved { fact: x, .. } if x == fact));
            prop_assert!(
                has,
                "{target:?} {format:?}: {fact} not unresolved in {:#?}",
                f.settings
            );
        }
        checked += 1;
    }
    Ok(checked)
}

#[test]
fn the_worked_example_reads_back_in_every_format() {
    let sheet = example(Lang::En);
    for target in CODE_TARGETS {
        let n = check(target, &sheet).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(n, target.formats().len(), "{target:?}");
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn generated_sheets_read_back_with_their_retry_facts(sheet in retry_sheet()) {
        let mut checked = 0;
        for target in CODE_TARGETS {
            checked += check(target, &sheet)?;
        }
        // Temporal takes every retry sheet: at least its two formats were read back.
        prop_assert!(checked >= 2, "only {checked} exports read back");
    }
}

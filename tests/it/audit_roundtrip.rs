//! The round trip as the proof (issue 27 item 4, for the SQS, Kubernetes and Cloud Tasks
//! targets): every configuration `domain::queues::report` exports for generated sheets, in
//! every format of the target, read back by `audit` gives the sheet's retry facts again —
//! attempts, waits (the schedule the target runs), cap, jitter (none: these systems have
//! none), attempt timeout, lease, retention — as the export wrote them (whole seconds where
//! the system takes seconds).

use crate::target_queue_support::{batch_sheet, retry_sheet};
use modality_advisor::domain::audit::found::{Fact, Found, Value};
use modality_advisor::domain::audit::{audit_job, read};
use modality_advisor::domain::queues::{self, cloud_tasks, Format, Schedule, TargetId};
use modality_advisor::domain::sheet::{BatchSpec, Jitter, JobSheet, MissedRun, Overlap};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

fn ceil_s_ms(ms: u64) -> u64 {
    ms.div_ceil(1000).max(1) * 1000
}

fn fact<T>(f: &Found, pick: impl Fn(&Fact) -> Option<T>) -> Option<T> {
    f.settings.iter().find_map(|s| match &s.value {
        Value::Stated(x) => pick(x),
        Value::Unresolved { .. } => None,
    })
}

fn same_schedule(a: &Schedule, b: &Schedule) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.attempts, b.attempts);
    prop_assert_eq!(a.delays.len(), b.delays.len());
    for (x, y) in a.delays.iter().zip(&b.delays) {
        prop_assert!((x.max_s - y.max_s).abs() < 1e-6, "{:?} vs {:?}", x, y);
        prop_assert!((x.min_s - y.min_s).abs() < 1e-6, "{:?} vs {:?}", x, y);
    }
    Ok(())
}

/// The audited sheet imports as a sheet (the app's and `sheet --input`'s reader).
fn imports(sheet: &JobSheet) -> Result<(), TestCaseError> {
    let json = serde_json::to_string(sheet).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = modality_advisor::domain::sheet::import::import_json(&json, Lang::En);
    prop_assert!(
        back.is_ok(),
        "{:?}\n{}",
        back.err().map(|e| e.message(Lang::En)),
        json
    );
    Ok(())
}

/// The one job the export defines, read back from the text the report wrote.
fn read_back(
    target: TargetId,
    format: Format,
    sheet: &JobSheet,
) -> Option<(queues::TargetReport, Found)> {
    let rep = queues::report(sheet, target, Some(format), Lang::En).ok()?;
    let (_, jobs) = match read(&rep.file_name, &rep.built.text) {
        Ok(j) => j,
        Err(e) => panic!(
            "{target:?} {format:?} reads back: {e:?}\n{}",
            rep.built.text
        ),
    };
    assert_eq!(
        jobs.len(),
        1,
        "{target:?} {format:?}: one job\n{}",
        rep.built.text
    );
    let job = jobs.into_iter().next()?;
    Some((rep, job))
}

fn sqs(sheet: &JobSheet, format: Format) -> Result<(), TestCaseError> {
    let Some((rep, job)) = read_back(TargetId::Sqs, format, sheet) else {
        return Ok(());
    };
    let Some(r) = &sheet.retry else { return Ok(()) };
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::MaxReceiveCount(v) => Some(*v),
            _ => None,
        }),
        Some(r.max_attempts)
    );
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::LeaseMs(v) => Some(*v),
            _ => None,
        }),
        Some(ceil_s_ms(r.lease_ms))
    );
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::AttemptTimeoutMs(v) => Some(*v),
            _ => None,
        }),
        Some(ceil_s_ms(r.attempt_timeout_ms))
    );
    let keep = r.queue_retention_ms.map_or(345_600_000, ceil_s_ms);
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::RetentionMs(v) => Some(*v),
            _ => None,
        }),
        Some(keep)
    );
    let dead = fact(&job, |f| match f {
        Fact::DeadLetter(d) => Some(d.clone()),
        _ => None,
    });
    prop_assert!(dead.is_some(), "no dead-letter queue read");
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::PartialBatchResponse(v) => Some(*v),
            _ => None,
        }),
        Some(true)
    );
    let audited = audit_job(&rep.file_name, &job, Lang::En);
    imports(&audited.sheet)?;
    same_schedule(&audited.schedule, &rep.built.actual)?;
    let a = audited.sheet.retry.as_ref().map(|x| {
        (
            x.max_attempts,
            x.lease_ms,
            x.attempt_timeout_ms,
            x.backoff.jitter,
        )
    });
    prop_assert_eq!(
        a,
        Some((
            r.max_attempts,
            ceil_s_ms(r.lease_ms),
            ceil_s_ms(r.attempt_timeout_ms),
            Jitter::None
        ))
    );
    prop_assert!(audited.unresolved.is_empty(), "{:?}", audited.unresolved);
    prop_assert!(audited.not_stated.is_empty(), "{:?}", audited.not_stated);
    Ok(())
}

fn kubernetes(sheet: &JobSheet) -> Result<(), TestCaseError> {
    let Some((rep, job)) = read_back(TargetId::Kubernetes, Format::Yaml, sheet) else {
        return Ok(());
    };
    let Some(r) = &sheet.retry else { return Ok(()) };
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::Attempts(v) => Some(*v),
            _ => None,
        }),
        Some(Some(r.max_attempts))
    );
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::AttemptTimeoutMs(v) => Some(*v),
            _ => None,
        }),
        Some(ceil_s_ms(r.attempt_timeout_ms))
    );
    let audited = audit_job(&rep.file_name, &job, Lang::En);
    imports(&audited.sheet)?;
    same_schedule(&audited.schedule, &rep.built.actual)?;
    let t = audited
        .sheet
        .retry
        .as_ref()
        .map(|x| (x.max_attempts, x.attempt_timeout_ms, x.backoff.jitter));
    prop_assert_eq!(
        t,
        Some((
            r.max_attempts,
            ceil_s_ms(r.attempt_timeout_ms),
            Jitter::None
        ))
    );
    Ok(())
}

fn cloud_tasks(sheet: &JobSheet) -> Result<(), TestCaseError> {
    let Some((rep, job)) = read_back(TargetId::CloudTasks, Format::Yaml, sheet) else {
        return Ok(());
    };
    let Some(r) = &sheet.retry else { return Ok(()) };
    let p = cloud_tasks::params(r);
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::Attempts(v) => Some(*v),
            _ => None,
        }),
        Some(Some(p.max_attempts))
    );
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::BaseMs(v) => Some(*v),
            _ => None,
        }),
        Some(p.min_backoff_ms)
    );
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::CapMs(v) => Some(*v),
            _ => None,
        }),
        Some(p.max_backoff_ms)
    );
    prop_assert_eq!(
        fact(&job, |f| match f {
            Fact::MaxDoublings(v) => Some(*v),
            _ => None,
        }),
        Some(p.max_doublings)
    );
    let audited = audit_job(&rep.file_name, &job, Lang::En);
    imports(&audited.sheet)?;
    same_schedule(&audited.schedule, &rep.built.actual)?;
    let b = audited.sheet.retry.as_ref().map(|x| {
        (
            x.max_attempts,
            x.backoff.base_ms,
            x.backoff.cap_ms,
            x.backoff.jitter,
        )
    });
    prop_assert_eq!(
        b,
        Some((
            p.max_attempts,
            p.min_backoff_ms.max(1),
            p.max_backoff_ms.max(1),
            Jitter::None
        ))
    );
    Ok(())
}

proptest! {
    #![proptest_config(crate::fuzz_support::cases(200))]

    #[test]
    fn exports_read_back_as_their_sheets(sheet in retry_sheet()) {
        sqs(&sheet, Format::CloudFormation)?;
        sqs(&sheet, Format::Terraform)?;
        kubernetes(&sheet)?;
        cloud_tasks(&sheet)?;
    }
}

#[test]
fn a_cron_job_reads_back_with_its_schedule_zone_and_policies() {
    for (overlap, missed) in [
        (Overlap::Forbid, MissedRun::Skip),
        (Overlap::Replace, MissedRun::RunOnce),
        (Overlap::Allow, MissedRun::Skip),
    ] {
        let mut sheet = batch_sheet();
        sheet.batch = Some(BatchSpec {
            schedule: "15 2 * * 1-5".to_owned(),
            time_zone: "Asia/Tokyo".to_owned(),
            overlap,
            missed_run: missed,
            run_timeout_ms: 5_400_000,
            partial_failure: String::new(),
        });
        let (rep, job) = read_back(TargetId::Kubernetes, Format::Yaml, &sheet).expect("exports");
        let audited = audit_job(&rep.file_name, &job, Lang::En);
        imports(&audited.sheet).unwrap_or_else(|e| panic!("{e}"));
        let got = audited.sheet.batch.expect("a batch sheet");
        assert_eq!(
            (
                got.schedule.as_str(),
                got.time_zone.as_str(),
                got.overlap,
                got.missed_run,
                got.run_timeout_ms
            ),
            ("15 2 * * 1-5", "Asia/Tokyo", overlap, missed, 5_400_000),
            "{}",
            rep.built.text
        );
        assert_eq!(audited.schedule, rep.built.actual);
    }
}

/// Every job's sheet, as `audit --format json` writes it, is a sheet the app and `sheet
/// --input` import (the defaults it holds are within the sheet's ranges).
#[test]
fn every_audited_sheet_imports() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the fixtures").flatten() {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("text");
        for lang in [Lang::En, Lang::Ja] {
            let (_, jobs) = modality_advisor::domain::audit::audit(&name, &text, lang)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            for j in jobs {
                let json = serde_json::to_string(&j.sheet).expect("JSON");
                if let Err(e) = modality_advisor::domain::sheet::import::import_json(&json, lang) {
                    panic!("{name} {}: {}\n{json}", j.name, e.message(lang));
                }
                n += 1;
            }
        }
    }
    assert!(n >= 24, "{n} sheets");
}

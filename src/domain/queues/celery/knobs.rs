//! Celery's concurrency and rate knobs for the sheet's load numbers (`super::super::knobs`):
//! `worker_concurrency` per worker instance, and `rate_limit`, which Celery counts per worker
//! instance, not globally (`docs/userguide/tasks.rst`, "rate_limit"), so the global limit
//! divided by the workers, rounded down. Texts: `locales/worker/target-load.yml`.

use super::super::knobs::{self, Knobs};
use super::super::mapping::row;
use super::super::rows::comment;
use super::super::{text, Gap, Instead, MappingRow};
use crate::domain::lang::Lang;
use crate::domain::sheet::load::Rate;
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;

/// The app settings' `worker_concurrency` line with its comment, when the sheet chose its
/// workers; empty otherwise.
pub(super) fn concurrency_lines(sheet: &JobSheet, lang: Lang) -> String {
    let Some(k) = Knobs::of(sheet).filter(Knobs::sized) else {
        return String::new();
    };
    format!(
        "    # {}\n    worker_concurrency={},\n",
        comment(&t!(
            "target.load.celery.concurrency-code",
            locale = lang.code(),
            workers = k.workers(),
            each = k.per_worker()
        )),
        k.per_worker()
    )
}

/// Celery's `rate_limit` for the sheet's limit: per worker instance, so the global limit
/// divided by the workers, rounded down (`10/s` over 3 workers: `3/s`; see
/// [`knobs::per_worker_rate`]). `None` without a limit, or when a worker's share is below
/// 1/h (Celery reads a limit of 0 as none).
pub fn rate_limit(k: &Knobs) -> Option<String> {
    knobs::per_worker_rate(k.our_limit?, k.workers()).map(knobs::rate_code)
}

/// The decorator's `rate_limit` line with its comment, when the sheet gives a limit.
pub(super) fn rate_line(sheet: &JobSheet, lang: Lang) -> String {
    let Some(k) = Knobs::of(sheet) else {
        return String::new();
    };
    let (Some(global), Some(limit)) = (k.our_limit, rate_limit(&k)) else {
        return String::new();
    };
    format!(
        "    # {}\n    rate_limit={},\n",
        comment(&t!(
            "target.load.celery.rate-code",
            locale = lang.code(),
            rate = knobs::rate_text(global, lang),
            workers = k.workers()
        )),
        text::dq(&limit)
    )
}

/// The load section's rows: `worker_concurrency` per worker instance, `rate_limit` per worker
/// instance (the global limit divided), the downstream's limits.
pub(super) fn load_rows(sheet: &JobSheet, lang: Lang) -> Vec<MappingRow> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut m = Vec::new();
    if k.sized() {
        m.push(knobs::knob_row(
            FieldId::Workers,
            &k,
            "worker_concurrency",
            k.per_worker().to_string(),
            ("celery", "workers"),
            lang,
        ));
    }
    if let (Some(global), Some(limit)) = (k.our_limit, rate_limit(&k)) {
        let share = knobs::per_worker_rate(global, k.workers());
        let total = share.map(|r| Rate {
            count: r.count * u64::from(k.workers()),
            per: r.per,
        });
        m.push(row(
            FieldId::OurLimit,
            knobs::rate_text(global, lang),
            "rate_limit",
            limit,
            t!(
                "target.load.celery.rate",
                locale = lang.code(),
                rate = knobs::rate_text(global, lang),
                workers = k.workers(),
                share = share.map(|r| knobs::rate_text(r, lang)).unwrap_or_default(),
                total = total.map(|r| knobs::rate_text(r, lang)).unwrap_or_default()
            )
            .into_owned(),
        ));
    }
    m.extend(knobs::downstream_row(sheet, lang));
    m
}

/// The load section's gaps: `rate_limit` counts per worker instance (or a share too small to
/// write).
pub(super) fn load_gaps(sheet: &JobSheet, lang: Lang) -> Vec<Gap> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut g = Vec::new();
    if k.our_limit.is_some() {
        let (key, instead) = if rate_limit(&k).is_some() {
            ("per-worker", Instead::Comment)
        } else {
            ("below-one", Instead::Nothing)
        };
        g.push(knobs::knob_gap(
            FieldId::OurLimit,
            &k,
            ("celery", key),
            instead,
            lang,
        ));
    }
    g
}

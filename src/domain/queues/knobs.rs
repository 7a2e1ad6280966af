//! The sheet's "Load and capacity" numbers as the concurrency and rate knobs of a target: the
//! worker processes and the jobs each runs at once (`workers × concurrency`), our own rate
//! limit (across all workers), and the downstream's limits (written as a comment only: no
//! target enforces another system's limit). Each target's module writes its own keys
//! (`brief/CAPACITY.md` "Where each system sets concurrency and rate"); this module holds
//! what they share: which numbers the sheet gives, the sheet's values as the mapping shows
//! them, the header's comment line, the downstream's mapping row, and a global rate divided
//! among the workers for the targets whose limiter counts per worker (Celery).
//! Texts: `locales/worker/target-load.yml`.
//!
//! A sheet without a load section, or whose section gives none of these numbers, has no
//! [`Knobs`]: every export is then exactly what it was before the section existed.

use super::{mapping, Gap, Instead, MappingRow};
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sheet::load::{DownstreamLimits, Per, Rate};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;

/// What the sheet's load section asks of a target's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knobs {
    /// Worker processes (nodes, pods, instances), as typed.
    pub workers: Option<u32>,
    /// Jobs each worker process runs at once, as typed (`None`: 1).
    pub per_worker: Option<u32>,
    /// Our own limit, across all workers.
    pub our_limit: Option<Rate>,
    /// What the downstream allows (a comment only).
    pub downstream: DownstreamLimits,
}

impl Knobs {
    /// The knobs of `sheet`; `None` when its load section gives no workers, no jobs at once,
    /// no limit of ours and no downstream limit (the export stays as without the section).
    pub fn of(sheet: &JobSheet) -> Option<Knobs> {
        let l = sheet.load.as_ref()?;
        let k = Knobs {
            workers: l.workers,
            per_worker: l.concurrency,
            our_limit: l.our_limit,
            downstream: l.downstream,
        };
        (k.sized() || k.our_limit.is_some() || k.downstream.any()).then_some(k)
    }

    /// Whether the sheet chose the workers (processes or jobs at once): then the targets
    /// write their concurrency knobs.
    pub fn sized(&self) -> bool {
        self.workers.is_some() || self.per_worker.is_some()
    }

    /// Worker processes (`None` counts as 1).
    pub fn workers(&self) -> u32 {
        self.workers.unwrap_or(1)
    }

    /// Jobs at once per worker process (`None` counts as 1, as the sheet defines it).
    pub fn per_worker(&self) -> u32 {
        self.per_worker.unwrap_or(1)
    }

    /// Jobs at once over all workers: `workers × per_worker`.
    pub fn slots(&self) -> u32 {
        self.workers().saturating_mul(self.per_worker())
    }
}

/// A rate in words: `10/s`, `600/min`, `5/h`; `10件/秒` in Japanese: the sheet's own words
/// for it ([`load_text::rate_text`](crate::domain::sheet::load_text::rate_text)), so a queue
/// configuration's notes say a rate as the sheet's load section does (a copy here wrote
/// `5件/時` where the sheet writes `5件/時間`).
pub use crate::domain::sheet::load_text::rate_text;

/// A rate as Celery's `rate_limit` and App Engine's queue.yaml `rate` write it: `10/s`,
/// `10/m`, `10/h` (no digit grouping).
pub fn rate_code(r: Rate) -> String {
    let unit = match r.per {
        Per::Second => "s",
        Per::Minute => "m",
        Per::Hour => "h",
    };
    format!("{}/{unit}", r.count)
}

/// The sheet's workers as the mapping shows them: `workers 3 × 4 at once each = 12`; `4 at
/// once per worker (workers not given)` without the worker count.
pub fn workers_text(k: &Knobs, lang: Lang) -> String {
    if k.workers.is_none() {
        return t!(
            "target.load.per-worker",
            locale = lang.code(),
            each = group_thousands(u64::from(k.per_worker()))
        )
        .into_owned();
    }
    t!(
        "target.load.workers",
        locale = lang.code(),
        workers = group_thousands(u64::from(k.workers())),
        each = group_thousands(u64::from(k.per_worker())),
        slots = group_thousands(u64::from(k.slots()))
    )
    .into_owned()
}

/// The downstream's limits in words (`10/s (burst 20), 5 at once, one at a time`); empty
/// when none is stated.
pub fn downstream_text(d: &DownstreamLimits, lang: Lang) -> String {
    let l = lang.code();
    let mut parts = Vec::new();
    if let Some(r) = d.rate {
        parts.push(match d.rate_burst {
            Some(b) => t!(
                "target.load.downstream.rate-burst",
                locale = l,
                rate = rate_text(r, lang),
                burst = group_thousands(u64::from(b))
            )
            .into_owned(),
            None => rate_text(r, lang),
        });
    }
    if let Some(c) = d.concurrency {
        parts.push(
            t!(
                "target.load.downstream.concurrency",
                locale = l,
                n = group_thousands(u64::from(c))
            )
            .into_owned(),
        );
    }
    if d.exclusive_lock {
        parts.push(t!("target.load.downstream.lock", locale = l).into_owned());
    }
    parts.join(if lang == Lang::Ja { "、" } else { ", " })
}

/// The one comment line an export carries for the sheet's load numbers (without a comment
/// prefix), or `None` without [`Knobs`]: "Load: 3 workers × 4 at once = 12 · our limit
/// 10/s · downstream allows 10/s, 5 at once".
pub fn comment_line(sheet: &JobSheet, lang: Lang) -> Option<String> {
    let k = Knobs::of(sheet)?;
    let l = lang.code();
    let mut parts = Vec::new();
    if k.sized() {
        parts.push(workers_text(&k, lang));
    }
    if let Some(r) = k.our_limit {
        parts.push(
            t!(
                "target.load.our-limit",
                locale = l,
                rate = rate_text(r, lang)
            )
            .into_owned(),
        );
    }
    if k.downstream.any() {
        parts.push(
            t!(
                "target.load.downstream.allows",
                locale = l,
                limits = downstream_text(&k.downstream, lang)
            )
            .into_owned(),
        );
    }
    Some(t!("target.load.line", locale = l, parts = parts.join(" · ")).into_owned())
}

/// The mapping row of the downstream's limits (written as a comment only), or `None` when
/// the sheet states none.
pub fn downstream_row(sheet: &JobSheet, lang: Lang) -> Option<MappingRow> {
    let k = Knobs::of(sheet)?;
    k.downstream.any().then(|| {
        mapping::row(
            FieldId::DownstreamLimits,
            downstream_text(&k.downstream, lang),
            "",
            String::new(),
            t!("target.load.downstream.note", locale = lang.code()).into_owned(),
        )
    })
}

/// `global` divided among `workers`, rounded down, for a limiter that counts per worker: in
/// the same unit when that leaves at least 1, else per minute, else per hour (10/s over 3
/// workers: 3/s each; 1/s over 3: 20/min each). `None` when even per hour each worker's
/// share is below 1 (a limiter of 0 means no limit in Celery: never written).
pub fn per_worker_rate(global: Rate, workers: u32) -> Option<Rate> {
    let w = u64::from(workers.max(1));
    let units = [(Per::Second, 1), (Per::Minute, 60), (Per::Hour, 3_600)];
    let from = units.iter().position(|(p, _)| *p == global.per)?;
    let base = units[from].1;
    units[from..].iter().find_map(|&(per, secs)| {
        let count = global.count * (secs / base) / w;
        (count >= 1).then_some(Rate { count, per })
    })
}

/// A rate per second as a number literal (`10`, `0.5`, `0.16666666666666666`).
pub fn per_s_literal(r: Rate) -> String {
    let x = r.per_s();
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:?}")
    }
}

/// The gap of a target without a global rate limit: `what` and `detail` from
/// `target.load.<target>.rate` / `.rate-detail`, the detail given the global rate, each
/// worker's share and the workers.
pub fn rate_gap(target: &str, k: &Knobs, lang: Lang) -> Option<Gap> {
    let r = k.our_limit?;
    let l = lang.code();
    let share = per_worker_rate(r, k.workers())
        .map(|s| rate_text(s, lang))
        .unwrap_or_else(|| t!("target.load.below-one", locale = l).into_owned());
    Some(mapping::gap(
        FieldId::OurLimit,
        t!(format!("target.load.{target}.rate"), locale = l).into_owned(),
        Instead::Comment,
        t!(
            format!("target.load.{target}.rate-detail"),
            locale = l,
            rate = rate_text(r, lang),
            share = share,
            workers = group_thousands(u64::from(k.workers()))
        )
        .into_owned(),
    ))
}

/// A mapping row for a concurrency or rate knob, its note from `target.load.<target>.<note>`
/// given the sheet's numbers (`workers`, `each`, `slots`, `rate`).
pub fn knob_row(
    field: FieldId,
    k: &Knobs,
    key: &str,
    value: String,
    note: (&str, &str),
    lang: Lang,
) -> MappingRow {
    let sheet = match field {
        FieldId::OurLimit => k.our_limit.map(|r| rate_text(r, lang)).unwrap_or_default(),
        _ => workers_text(k, lang),
    };
    let note = t!(
        format!("target.load.{}.{}", note.0, note.1),
        locale = lang.code(),
        workers = group_thousands(u64::from(k.workers())),
        each = group_thousands(u64::from(k.per_worker())),
        slots = group_thousands(u64::from(k.slots())),
        rate = k.our_limit.map(|r| rate_text(r, lang)).unwrap_or_default()
    )
    .into_owned();
    mapping::row(field, sheet, key, value, note)
}

/// A gap from `target.load.<target>.<key>` / `.<key>-detail`, given the sheet's numbers.
pub fn knob_gap(
    field: FieldId,
    k: &Knobs,
    (target, key): (&str, &str),
    instead: Instead,
    lang: Lang,
) -> Gap {
    let l = lang.code();
    let args = |suffix: &str| {
        t!(
            format!("target.load.{target}.{key}{suffix}"),
            locale = l,
            workers = group_thousands(u64::from(k.workers())),
            each = group_thousands(u64::from(k.per_worker())),
            slots = group_thousands(u64::from(k.slots())),
            rate = k.our_limit.map(|r| rate_text(r, lang)).unwrap_or_default()
        )
        .into_owned()
    };
    mapping::gap(field, args(""), instead, args("-detail"))
}

//! Daylight saving and the batch schedule: the local times a cron expression names that do
//! not exist on a spring-forward day (the clock skips them) or happen twice on a fall-back day
//! (the clock repeats them), in the sheet's time zone, over the coming year.
//!
//! Reads each zone's rules as build.rs keeps them from the IANA database bundled by `jiff`
//! ([`zone_rules`](super::zone_rules): the same data natively and in wasm). The page never
//! calls this module, so the rules stay out of its wasm: the findings are made by the CLI
//! (`sheet`, `target`, the Markdown document) and the document worker (the configuration
//! panel, the Markdown document), each given the moment to count from (the domain has no
//! clock).
//!
//! What a scheduler does then differs: Vixie cron runs a job of a skipped time at once and a
//! job of a repeated time once; the Kubernetes CronJob controller and most libraries compute
//! the next time with the zone's rules and may skip or double it. The finding says which days
//! and times, and what keeps them safe: a time outside the shifted hour, or UTC.

use crate::domain::lang::Lang;
use crate::domain::sheet::check::{Finding, Severity};
use crate::domain::sheet::cron::CronTimes;
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;
use jiff::Timestamp;

/// How far ahead the findings look, in seconds: 366 days (a year, leap day included).
pub const HORIZON_S: i64 = 366 * 86_400;

/// The most minutes a shift is searched through (no zone moves its clock by more than a day).
const MAX_SHIFT_MIN: i64 = 24 * 60;

/// What the clock does on a transition day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shift {
    /// It jumps forward: the local times in the window do not exist that day.
    Skipped,
    /// It goes back: the local times in the window happen twice.
    Repeated,
}

/// One transition that the schedule runs into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShiftDay {
    /// Skipped or repeated.
    pub shift: Shift,
    /// The local date, `YYYY-MM-DD`.
    pub date: String,
    /// The local window, `HH:MM` to `HH:MM` (end excluded), e.g. `02:00`–`03:00`.
    pub window: (String, String),
    /// The schedule's local run times inside the window, `HH:MM`, in order.
    pub runs: Vec<String>,
}

/// The transitions of `zone` within [`HORIZON_S`] after `from_ms` (Unix milliseconds) on
/// which the cron expression `schedule` has a run in the skipped or repeated window, in time
/// order. Empty for a zone the database does not have, a schedule that is not a cron
/// expression (the sheet's own findings say so), or `@reboot`.
pub fn shift_days(schedule: &str, zone: &str, from_ms: i64) -> Vec<ShiftDay> {
    let (Some(times), Some(tz), Ok(from)) = (
        CronTimes::of(schedule),
        super::zone_rules::get(zone.trim()),
        Timestamp::from_millisecond(from_ms),
    ) else {
        return Vec::new();
    };
    let end = from.as_second().saturating_add(HORIZON_S);
    let mut out = Vec::new();
    for tr in tz.following(from) {
        let at = tr.timestamp().as_second();
        if at > end {
            break;
        }
        let Ok(just_before) = Timestamp::from_second(at - 1) else {
            continue;
        };
        let (before, after) = (tz.to_offset(just_before), tr.offset());
        let shift_s = i64::from(after.seconds()) - i64::from(before.seconds());
        if shift_s == 0 {
            continue; // only the abbreviation changed
        }
        // The local clock reads from min(before, after) applied to the transition, for |shift|.
        let low = if shift_s > 0 { before } else { after };
        let minutes = (shift_s.abs() / 60).min(MAX_SHIFT_MIN);
        let local = |m: i64| {
            Timestamp::from_second(at + m * 60)
                .ok()
                .map(|ts| low.to_datetime(ts))
        };
        let (Some(first), Some(last)) = (local(0), local(minutes)) else {
            continue;
        };
        let runs: Vec<String> = (0..minutes)
            .filter_map(local)
            .filter(|dt| {
                let weekday = dt.weekday().to_sunday_zero_offset();
                times.at(
                    dt.month() as u32,
                    dt.day() as u32,
                    weekday as u32,
                    dt.hour() as u32,
                    dt.minute() as u32,
                )
            })
            .map(|dt| hm(dt.hour(), dt.minute()))
            .collect();
        if runs.is_empty() {
            continue;
        }
        out.push(ShiftDay {
            shift: if shift_s > 0 {
                Shift::Skipped
            } else {
                Shift::Repeated
            },
            date: format!(
                "{:04}-{:02}-{:02}",
                first.year(),
                first.month(),
                first.day()
            ),
            window: (
                hm(first.hour(), first.minute()),
                // 24:00 for a window that ends at midnight.
                if last.date() != first.date() && last.hour() == 0 && last.minute() == 0 {
                    "24:00".to_owned()
                } else {
                    hm(last.hour(), last.minute())
                },
            ),
            runs,
        });
    }
    out
}

fn hm(hour: i8, minute: i8) -> String {
    format!("{hour:02}:{minute:02}")
}

/// The most run times a finding names before "…" (an hourly or minutely schedule has many).
const RUNS_SHOWN: usize = 3;

/// The daylight-saving findings of `sheet`'s batch schedule over the coming year counted from
/// `from_ms` (Unix milliseconds), messages in `lang`: one warning for the skipped days and one
/// for the repeated days, each naming the zone, the dates, the local windows and the runs in
/// them, on the time zone field. Empty without a batch section, in a zone without daylight
/// saving (UTC, Asia/Tokyo), or when no run falls in a shifted hour.
pub fn dst_findings(sheet: &JobSheet, lang: Lang, from_ms: i64) -> Vec<Finding> {
    let Some(b) = &sheet.batch else {
        return Vec::new();
    };
    let days = shift_days(&b.schedule, &b.time_zone, from_ms);
    let mut out = Vec::new();
    for (shift, code, key) in [
        (
            Shift::Skipped,
            "batch-dst-skipped",
            "sheet.finding.dst.skipped",
        ),
        (
            Shift::Repeated,
            "batch-dst-repeated",
            "sheet.finding.dst.repeated",
        ),
    ] {
        let these: Vec<&ShiftDay> = days.iter().filter(|d| d.shift == shift).collect();
        if these.is_empty() {
            continue;
        }
        let sep = if lang == Lang::Ja { "、" } else { ", " };
        let dates = these
            .iter()
            .map(|d| format!("{} ({}–{})", d.date, d.window.0, d.window.1))
            .collect::<Vec<_>>()
            .join(sep);
        let mut runs: Vec<&str> = these
            .iter()
            .flat_map(|d| d.runs.iter().map(String::as_str))
            .collect();
        runs.sort_unstable();
        runs.dedup();
        let mut shown = runs
            .iter()
            .take(RUNS_SHOWN)
            .copied()
            .collect::<Vec<_>>()
            .join(sep);
        if runs.len() > RUNS_SHOWN {
            shown.push_str(sep);
            shown.push('…');
        }
        out.push(Finding {
            code,
            severity: Severity::Warning,
            field: FieldId::TimeZone,
            message: t!(
                key,
                locale = lang.code(),
                zone = b.time_zone.trim(),
                dates = dates,
                runs = shown
            )
            .into_owned(),
        });
    }
    out
}

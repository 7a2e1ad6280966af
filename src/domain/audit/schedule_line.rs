//! A job's schedule on one line, in the report's language — the same line in the CLI's text
//! report (`audit`) and in the app's notes of "Check an existing configuration": attempts,
//! the first eight waits, the window; a part that depends on a value not resolved says so
//! (and then there is no window).

use super::job::AuditJob;
use crate::domain::duration::approx;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::text::t;

/// Seconds in the product's human units (`approx`: "9.6 min").
fn ms_text(s: f64, lang: Lang) -> String {
    approx((s * 1000.0).max(0.0), lang)
}

/// "not resolved (key = expression, line N)" for a part of the schedule the file leaves
/// unknown.
fn part_unknown(job: &AuditJob, part: &str, lang: Lang) -> Option<String> {
    job.schedule_unknown
        .iter()
        .find(|p| p.part == part)
        .map(|p| {
            t!(
                "audit.text.part-unresolved",
                locale = lang.code(),
                needs = &p.needs,
                line = p.line
            )
            .into_owned()
        })
}

/// The schedule of `job` on one line in `lang`, e.g. "schedule: attempts: 8; waits: 0 s–5 s,
/// …; window: 10.6 min" (texts `audit.text.*`, worker/audit.yml).
pub fn schedule_line(job: &AuditJob, lang: Lang) -> String {
    let l = lang.code();
    let s = &job.schedule;
    let mut waits: Vec<String> = s
        .delays
        .iter()
        .take(8)
        .map(|d| {
            if d.min_s == d.max_s {
                ms_text(d.max_s, lang)
            } else {
                format!("{}–{}", ms_text(d.min_s, lang), ms_text(d.max_s, lang))
            }
        })
        .collect();
    if s.delays.len() > 8 || (s.attempts.is_none() && !s.delays.is_empty()) {
        waits.push("…".to_owned());
    }
    if waits.is_empty() {
        waits.push("—".to_owned());
    }
    let attempts = part_unknown(job, "attempts", lang).unwrap_or_else(|| {
        s.attempts.map_or_else(
            || t!("audit.text.unlimited", locale = l).into_owned(),
            group_thousands_u32,
        )
    });
    // In Japanese the line itself is joined with 、: the waits take ・.
    let sep = if lang == Lang::Ja { "・" } else { ", " };
    let waits = part_unknown(job, "waits", lang).unwrap_or_else(|| waits.join(sep));
    let window = if job.schedule_unknown.is_empty() {
        s.window_s.max.map_or_else(
            || t!("audit.text.unbounded", locale = l).into_owned(),
            |w| ms_text(w, lang),
        )
    } else {
        t!("audit.text.window-unknown", locale = l).into_owned()
    };
    t!(
        "audit.text.schedule",
        locale = l,
        attempts = attempts,
        waits = waits,
        window = window
    )
    .into_owned()
}

fn group_thousands_u32(n: u32) -> String {
    group_thousands(u64::from(n))
}

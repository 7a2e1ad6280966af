//! `simulate`'s two outputs: the text report for people (in `--lang`, numbers grouped by
//! threes as on the page) and the JSON for scripts, in which every counter is written (0 when
//! nothing happened) and every value the run may not have is `null` rather than absent — the
//! shape `docs/schemas/simulate.schema.json` describes.
//!
//! The JSON is written from the domain's [`Report`] (whose own serialisation leaves zero lease
//! counters out, so the trace hash of a run without them is the one it always was) and
//! completed here; the trace hash is computed before, over the domain's serialisation.

use crate::domain::number::{group_thousands, group_thousands_signed};
use crate::domain::sim::engine::{Counters, LEASE_IDS};
use crate::domain::sim::results::report::Metrics;
use crate::domain::sim::{CallRates, Report};
use crate::domain::Lang;
use crate::text::t;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// Rows of the final jobs table the text prints.
const TEXT_ROWS: usize = 50;

/// Every counter of a run by its JSON name, zero or not. Destructured field by field (no
/// `..`), so a counter added to [`Counters`] does not compile until it is written here too.
fn counters(c: &Counters) -> Map<String, Value> {
    let Counters {
        runs,
        failures,
        duplicate_runs,
        duplicate_effects,
        prevented_by_key,
        crashes,
        lock_errors,
        calls,
        calls_ok,
        calls_busy,
        calls_rate_limited,
        calls_unavailable,
        accepted,
        failed_to_user,
        fallbacks,
        overlapping_runs,
        stale_results,
        claims_over_max,
        completed_after_dead,
        lost_jobs,
        lease_renewals,
    } = c;
    let all = json!({
        "runs": runs,
        "failures": failures,
        "duplicate_runs": duplicate_runs,
        "duplicate_effects": duplicate_effects,
        "prevented_by_key": prevented_by_key,
        "crashes": crashes,
        "lock_errors": lock_errors,
        "calls": calls,
        "calls_ok": calls_ok,
        "calls_busy": calls_busy,
        "calls_rate_limited": calls_rate_limited,
        "calls_unavailable": calls_unavailable,
        "accepted": accepted,
        "failed_to_user": failed_to_user,
        "fallbacks": fallbacks,
        "overlapping_runs": overlapping_runs,
        "stale_results": stale_results,
        "claims_over_max": claims_over_max,
        "completed_after_dead": completed_after_dead,
        "lost_jobs": lost_jobs,
        "lease_renewals": lease_renewals,
    });
    match all {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The JSON report: the domain's report with at most `shown` event lines, every counter and
/// `deleted_rows` written, `balance`, `contention` and `metrics.calls_per_s` `null` when the
/// run has none, `claims` and `errors` `{}` when empty, `events_left_out` (0 when the whole
/// log is printed) and `trace_hash`.
pub fn json(mut report: Report, hash: &str, rates: Option<CallRates>, shown: usize) -> String {
    let total = report.events.len();
    report.events.truncate(shown);
    let left_out = (total - report.events.len()) as u64;
    let all_counters = report.metrics.as_ref().map(|m| counters(&m.counters));
    let deleted = report.metrics.as_ref().map(|m| m.deleted_rows);
    // The domain's report is numbers, strings and maps of strings: cannot fail.
    let mut value = serde_json::to_value(&report).unwrap_or_default();
    CallRates::add_to_json(rates, &mut value);
    if let Some(obj) = value.as_object_mut() {
        for key in ["balance", "contention"] {
            obj.entry(key).or_insert(Value::Null);
        }
        for key in ["claims", "errors"] {
            obj.entry(key).or_insert_with(|| Value::Object(Map::new()));
        }
        if let (Some(Value::Object(metrics)), Some(all), Some(deleted)) =
            (obj.get_mut("metrics"), all_counters, deleted)
        {
            metrics.extend(all);
            metrics.insert("deleted_rows".into(), deleted.into());
            metrics.entry("calls_per_s").or_insert(Value::Null);
        }
        obj.insert("events_left_out".into(), left_out.into());
        obj.insert("trace_hash".into(), Value::String(hash.to_owned()));
    }
    let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
    s.push('\n');
    s
}

/// The text report in `lang`: the heading, the event log (`events`: the lines in `lang`, or
/// `None` for the report's English ones) cut after `shown` lines with a line saying how many
/// were left out, the first rows of the jobs table, the key facts, the metrics and the trace
/// hash. Counts are grouped by threes (`10,000`) in both languages.
pub fn text(
    report: &Report,
    events: Option<Vec<String>>,
    hash: &str,
    shown: usize,
    lang: Lang,
) -> String {
    let l = lang.code();
    let g = |n: u64| group_thousands(n);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}",
        t!(
            "cli.sim.head",
            locale = l,
            scenario = report.scenario,
            variant = report.variant,
            seed = report.seed
        )
    );
    if let Some(c) = &report.contention {
        let _ = writeln!(
            s,
            "{}",
            t!(
                "cli.sim.contention",
                locale = l,
                clients = g(u64::from(c.clients)),
                strategy = c.strategy.id(),
                runs = g(u64::from(c.runs)),
                calls = format!("{:.1}", c.calls_mean),
                ms = format!("{:.1}", c.completion_ms_mean)
            )
        );
        let _ = writeln!(s, "{}", t!("cli.sim.trace-hash", locale = l, hash = hash));
        return s;
    }
    events_part(&mut s, report, events, shown, lang);
    jobs_part(&mut s, report, lang);
    facts_part(&mut s, report, lang);
    let _ = writeln!(s, "{}", t!("cli.sim.trace-hash", locale = l, hash = hash));
    s
}

/// `events:` and at most `shown` lines, then the note on the lines left out.
fn events_part(
    s: &mut String,
    report: &Report,
    events: Option<Vec<String>>,
    shown: usize,
    lang: Lang,
) {
    let l = lang.code();
    let total = report.events.len();
    let shown = shown.min(total);
    let left_out = (total - shown) as u64;
    if shown > 0 {
        let _ = writeln!(s, "\n{}", t!("cli.sim.events", locale = l));
        let lines = events.unwrap_or_else(|| report.events[..shown].to_vec());
        for e in lines.iter().take(shown) {
            let _ = writeln!(s, "  {e}");
        }
    }
    if left_out == 0 {
        return;
    }
    if shown == 0 {
        let _ = writeln!(
            s,
            "\n{}",
            t!(
                "cli.sim.events-all-left-out",
                locale = l,
                n = group_thousands(left_out)
            )
        );
    } else {
        let _ = writeln!(
            s,
            "{}",
            t!(
                "cli.sim.events-left-out",
                locale = l,
                n = group_thousands(left_out),
                shown = group_thousands(shown as u64)
            )
        );
    }
}

/// The first [`TEXT_ROWS`] rows of the final jobs table.
fn jobs_part(s: &mut String, report: &Report, lang: Lang) {
    let l = lang.code();
    let _ = writeln!(s, "\n{}", t!("cli.sim.jobs", locale = l));
    let _ = writeln!(s, "{}", t!("cli.sim.jobs-header", locale = l));
    for j in report.jobs.iter().take(TEXT_ROWS) {
        let _ = writeln!(
            s,
            "  {:<3} {:<21} {:<8} {:>3}/{:<5} {}",
            j.id,
            j.name,
            j.status.id(),
            j.attempts,
            j.max_attempts,
            j.last_error.as_deref().unwrap_or("-")
        );
    }
    if report.jobs.len() > TEXT_ROWS {
        let more = (report.jobs.len() - TEXT_ROWS) as u64;
        let _ = writeln!(
            s,
            "{}",
            t!("cli.sim.more-rows", locale = l, n = group_thousands(more))
        );
    }
}

/// The balance, the first claims, the workers' claim errors and the metrics.
fn facts_part(s: &mut String, report: &Report, lang: Lang) {
    let l = lang.code();
    if let Some(b) = report.balance {
        let _ = writeln!(
            s,
            "\n{}",
            t!("cli.sim.balance", locale = l, n = group_thousands_signed(b))
        );
    }
    if !report.claims.is_empty() {
        let list: Vec<String> = report
            .claims
            .iter()
            .map(|(w, j)| format!("{w} → job#{j}"))
            .collect();
        let sep = if lang == Lang::Ja { "、" } else { ", " };
        let _ = writeln!(
            s,
            "{}",
            t!("cli.sim.first-claims", locale = l, list = list.join(sep))
        );
    }
    for (w, e) in &report.errors {
        let _ = writeln!(
            s,
            "{}",
            t!("cli.sim.worker-error", locale = l, worker = w, error = e)
        );
    }
    if let Some(m) = &report.metrics {
        metrics_part(s, m, lang);
    }
}

/// The metrics: the row counts and counters, the lease counters that happened, the
/// downstream's answers, the submissions, the latency and why the run stopped.
fn metrics_part(s: &mut String, m: &Metrics, lang: Lang) {
    let l = lang.code();
    let g = |n: u64| group_thousands(n);
    let c = &m.counters;
    let _ = writeln!(
        s,
        "\n{}",
        t!(
            "cli.sim.metrics",
            locale = l,
            done = g(m.done),
            dead = g(m.dead),
            queued = g(m.queued),
            running = g(m.running),
            runs = g(c.runs),
            failures = g(c.failures),
            duplicate_runs = g(c.duplicate_runs),
            duplicate_effects = g(c.duplicate_effects),
            prevented = g(c.prevented_by_key),
            crashes = g(c.crashes)
        )
    );
    let said: Vec<String> = LEASE_IDS
        .iter()
        .zip(c.lease_counts())
        .filter(|(_, n)| *n > 0)
        .map(|(id, n)| t!(&format!("cli.sim.lease.{id}"), locale = l, n = g(n)).into_owned())
        .collect();
    if !said.is_empty() {
        let sep = if lang == Lang::Ja { "、" } else { ", " };
        let _ = writeln!(
            s,
            "{}",
            t!("cli.sim.leases", locale = l, list = said.join(sep))
        );
    }
    if c.calls > 0 {
        let _ = writeln!(
            s,
            "{}",
            t!(
                "cli.sim.downstream",
                locale = l,
                calls = g(c.calls),
                ok = g(c.calls_ok),
                busy = g(c.calls_busy),
                limited = g(c.calls_rate_limited),
                unavailable = g(c.calls_unavailable)
            )
        );
    }
    if c.accepted + c.failed_to_user > 0 {
        let _ = writeln!(
            s,
            "{}",
            t!(
                "cli.sim.submissions",
                locale = l,
                accepted = g(c.accepted),
                failed = g(c.failed_to_user),
                fallbacks = g(c.fallbacks)
            )
        );
    }
    if let Some(p) = m.latency_ms {
        let _ = writeln!(
            s,
            "{}",
            t!(
                "cli.sim.latency",
                locale = l,
                mean = decimal(p.mean, 1),
                p50 = decimal(p.p50, 1),
                p95 = decimal(p.p95, 1),
                p99 = decimal(p.p99, 1),
                max = decimal(p.max, 1)
            )
        );
    }
    let _ = writeln!(
        s,
        "{}",
        t!(
            "cli.sim.stopped",
            locale = l,
            why = t!(&format!("cli.sim.stop.{}", m.stop.id()), locale = l),
            events = g(m.events),
            time = decimal(m.end_time_s, 3)
        )
    );
}

/// `v` with `places` decimals, its whole part grouped by threes (`12,345.6`).
fn decimal(v: f64, places: usize) -> String {
    let text = format!("{v:.places$}");
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let grouped = whole
        .parse::<u64>()
        .map_or_else(|_| whole.to_owned(), group_thousands);
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn decimals_are_grouped_by_threes() {
        assert_eq!(decimal(1234567.26, 1), "1,234,567.3");
        assert_eq!(decimal(0.0, 3), "0.000");
        assert_eq!(decimal(-1234.5, 1), "-1,234.5");
        assert_eq!(decimal(999.96, 1), "1,000.0");
    }
}

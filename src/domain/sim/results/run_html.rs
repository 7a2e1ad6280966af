//! A finished run's key facts and jobs table as finished HTML in both languages, drawn by the
//! simulation worker after the run ([`facts_html`], [`jobs_html`], into
//! [`Drawn::facts`](crate::domain::sim::results::drawn::Drawn::facts) and
//! [`Drawn::jobs`](crate::domain::sim::results::drawn::Drawn::jobs)). The page only inserts the
//! reader's language, so this code and its words (`run-result.*` in
//! `locales/worker/sim-run.yml`) stay out of the page's first load; a language switch picks
//! the other string, like the charts.
//!
//! Markup: classes and `data-*` attributes only, no inline style (the page's CSP); every text
//! escaped (job names and errors come from the run's handlers and config).

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, group_thousands_signed};
use crate::domain::plot::escape;
use crate::domain::sim::results::drawn::Both;
use crate::domain::sim::runner::{RunView, LEASE_FACTS};
use crate::text::t;
use std::fmt::Write as _;

/// Rows of the jobs table shown at most.
pub const SHOW_LINES: usize = 1_000;

/// The key facts of `v` in both languages (`[English, Japanese]`): `<dl class="facts">` with
/// one `<div class="fact" data-fact="…">` per fact (the trace hash, then those the run has).
pub fn facts_html(v: &RunView) -> Both {
    Lang::ALL.map(|lang| {
        let mut out = String::from(r#"<dl class="facts">"#);
        for (key, label, value) in facts(v, lang.code()) {
            let _ = write!(
                out,
                r#"<div class="fact" data-fact="{}"><dt>{}</dt><dd>{}</dd></div>"#,
                escape(key),
                escape(&label),
                escape(&value)
            );
        }
        out.push_str("</dl>");
        out
    })
}

/// The key facts of run `v` as (id, label, value) in `l`.
fn facts(v: &RunView, l: &str) -> Vec<(&'static str, String, String)> {
    let label = |key: &str| t!(format!("run-result.{key}"), locale = l).into_owned();
    let mut facts = vec![("trace-hash", label("trace-hash"), v.trace_hash.clone())];
    // The jitter study is computed without the event engine: no events to count.
    if v.events > 0 {
        facts.push(("events", label("events"), group_thousands(v.events)));
    }
    if v.key.queue {
        // Virtual time, and (in the browser) the worker's wall-clock time, each named.
        let micros = (v.key.end_s * 1e6).round();
        let s = crate::domain::number::tenths_of_s(if micros > 0.0 { micros as u64 } else { 0 });
        let mut took = t!("run-result.took-sim", locale = l, s = s).into_owned();
        if let Some(ms) = v.wall_ms {
            took.push_str(&t!(
                "run-result.took-wall",
                locale = l,
                ms = group_thousands(ms)
            ));
        }
        facts.push(("elapsed", label("took"), took));
    }
    if !v.jobs.is_empty() {
        let value = v.counts.map(group_thousands).join(" / ");
        facts.push(("rows", label("rows"), value));
    }
    if let Some(b) = v.balance {
        facts.push(("balance", label("balance"), group_thousands_signed(b)));
        let (dup, stopped) = v.duplicates;
        let value = format!("{} / {}", group_thousands(dup), group_thousands(stopped));
        facts.push(("duplicates", label("duplicates"), value));
    }
    if !v.claims.is_empty() {
        let text: Vec<String> = v
            .claims
            .iter()
            .map(|(w, j)| format!("{w} → job#{j}"))
            .collect();
        facts.push(("claims", label("claims"), text.join(", ")));
    }
    if !v.errors.is_empty() {
        let text: Vec<String> = v.errors.iter().map(|(w, e)| format!("{w}: {e}")).collect();
        facts.push(("errors", label("errors"), text.join("; ")));
    }
    if v.scenario == "burst-leveling" {
        let (a, f, ok, busy) = v.intake;
        facts.push((
            "intake",
            label("intake"),
            format!("{a} / {f} / {ok} / {busy}"),
        ));
    }
    // A run the limits cut short says so: its figures describe an unfinished run.
    if let Some(why) = &v.cut_short {
        facts.push((
            "cut-short",
            label("cut-short"),
            label(&format!("stop.{why}")),
        ));
    }
    // What the engine let happen around leases, each said when it happened at all.
    for (id, n) in LEASE_FACTS.iter().zip(v.lease_counts) {
        if n > 0 {
            facts.push((id, label(&format!("lease.{id}")), group_thousands(n)));
        }
    }
    if let Some((calls, ms)) = v.contention {
        let value = format!("{calls:.0} / {ms:.0} ms");
        facts.push(("contention", label("contention"), value));
    }
    facts
}

/// The jobs table of `v` in both languages: `<h4>`, `table.jobs` (at most [`SHOW_LINES`]
/// rows, each `tr[data-job][data-status]`) in a focusable, labelled scroll box
/// (`div.table-wrap[tabindex="0"][role="region"]`) and, when rows were cut, `p.hint[data-rows-cut]`.
/// Empty when the run has no job rows.
pub fn jobs_html(v: &RunView) -> Both {
    if v.jobs.is_empty() {
        return Both::default();
    }
    Lang::ALL.map(|lang| jobs_in(v, lang))
}

/// [`jobs_html`] in `lang`.
fn jobs_in(v: &RunView, lang: Lang) -> String {
    let l = lang.code();
    let col = |key: &str| escape(&t!(format!("run-result.col-{key}"), locale = l));
    // The table scrolls in its box: the box takes keyboard focus (arrow keys scroll it) and
    // is a region named like the table's heading.
    let title = escape(&t!("run-result.jobs", locale = l));
    let mut out = format!(
        r#"<h4>{title}</h4><div class="table-wrap" tabindex="0" role="region" aria-label="{title}"><table class="jobs"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>"#,
        col("id"),
        col("name"),
        col("status"),
        col("attempts"),
        col("last-error"),
    );
    for j in v.jobs.iter().take(SHOW_LINES) {
        let status = escape(&j.status);
        let _ = write!(
            out,
            r#"<tr data-job="{id}" data-status="{status}"><td>{id}</td><td>{}</td><td class="st {status}">{status}</td><td>{}/{}</td><td>{}</td></tr>"#,
            escape(&j.name),
            j.attempts,
            j.max_attempts,
            escape(&j.last_error_in(lang)),
            id = j.id,
        );
    }
    out.push_str("</tbody></table></div>");
    let total: u64 = v.counts.iter().sum();
    let shown = v.jobs.len().min(SHOW_LINES) as u64;
    if total > v.jobs.len() as u64 {
        let _ = write!(
            out,
            r#"<p class="hint" data-rows-cut="true">{}</p>"#,
            escape(&t!(
                "run-result.rows-cut",
                locale = l,
                shown = group_thousands(shown),
                total = group_thousands(total)
            ))
        );
    }
    out
}

//! The decision as an Architecture Decision Record in the MADR layout (Markdown Architectural
//! Decision Records, 4.0: <https://adr.github.io/madr/>), the format architects keep next to
//! their code:
//!
//! ```text
//! ---                                      front matter: status (accepted, or proposed while
//! status: accepted                         the walk is incomplete) and the date last edited
//! date: 2026-03-03
//! ---
//! # <process>: <outcome>
//! ## Context and Problem Statement        the question, the process facts, each answer in words
//! ## Decision Drivers                     why each question on the path matters
//! ## Considered Options                   the five outcomes
//! ## Decision Outcome                     the chosen option and the reasons
//! ### Consequences                        the outcome's trade-offs as Good / Neutral / Bad
//! ### Confirmation                        the sheet's key settings and its findings
//! ### Next steps
//! ## More Information                     the permalink
//! ```
//!
//! **A catalog** becomes one document: a `#` title, then one record per process in catalog
//! order, each a level lower (`##` title, `###` sections) with its status and date as a line
//! (front matter can only come once), and one "More Information" with the catalog's permalink
//! at the end. One file keeps the system's decisions reviewable together; split it at the
//! `##` headings for one file per decision.
//!
//! Every user text goes through [`inline`] (no HTML, no breaking of lists or emphasis).

use super::markdown::md_url;
use super::{Share, Shared};
use crate::domain::bidi::{self, Shown};
use crate::domain::catalog::export::{display_name, key, outcome_text, utc};
use crate::domain::catalog::Process;
use crate::domain::duration::exact;
use crate::domain::export::markdown::inline;
use crate::domain::flowchart::{evaluate, Answer, Outcome, Status};
use crate::domain::sheet::fields::{describe_backoff, join_list};
use crate::domain::Lang;
use std::fmt::Write;

fn tr(key: &str, lang: Lang) -> String {
    crate::text::t!(key, locale = lang.code()).into_owned()
}

/// The record of `share` in `lang` with `link` (the permalink) under "More Information";
/// bidi control characters shown as `<U+202E>` ([`bidi::show`]).
pub fn adr(share: &Share, lang: Lang, link: &str) -> String {
    let mut s = String::new();
    match &share.content {
        Shared::Process(p) => {
            let _ = writeln!(s, "---\nstatus: {}", status(p));
            if p.updated_ms > 0 {
                let _ = writeln!(s, "date: {}", utc(p.updated_ms, false));
            }
            s.push_str("---\n\n");
            record(&mut s, p, lang, 1, None);
        }
        Shared::Catalog(c) => {
            let name = if c.name.trim().is_empty() {
                tr("catalog.export.untitled", lang)
            } else {
                c.name.trim().to_owned()
            };
            let title =
                crate::text::t!("share.adr.catalog-title", locale = lang.code(), name = name);
            let _ = writeln!(s, "# {}\n", inline(&title));
            let intro = crate::text::t!(
                "share.adr.catalog-intro",
                locale = lang.code(),
                count = c.processes.len()
            );
            let _ = writeln!(s, "{}\n", inline(&intro));
            s.push_str(&crate::domain::catalog::system::draw::markdown_section(
                c, lang, 2,
            ));
            for p in &c.processes {
                let mut line =
                    format!("{}{}{}", tr("share.adr.status", lang), sep(lang), status(p));
                if p.updated_ms > 0 {
                    let _ = write!(
                        line,
                        " · {}{}{}",
                        tr("share.adr.date", lang),
                        sep(lang),
                        utc(p.updated_ms, false)
                    );
                }
                record(&mut s, p, lang, 2, Some(&line));
            }
        }
    }
    let h = "##";
    let _ = writeln!(s, "{h} {}\n", tr("share.adr.more", lang));
    let permalink = match share.content {
        Shared::Process(_) => "share.adr.permalink",
        Shared::Catalog(_) => "share.adr.permalink-catalog",
    };
    let _ = writeln!(s, "{}\n", tr(permalink, lang));
    let _ = writeln!(s, "<{}>\n", md_url(link));
    let _ = writeln!(s, "{}", tr("share.adr.made-with", lang));
    bidi::show(&s, Shown::Text).into_owned()
}

/// MADR's status: `accepted` once the walk gives an outcome, `proposed` before.
fn status(p: &Process) -> &'static str {
    if p.outcome.is_some() {
        "accepted"
    } else {
        "proposed"
    }
}

/// One process's record, its title at heading level `level` (1 or 2), followed by
/// `status_line` when given (a catalog's records carry status and date in the text).
fn record(s: &mut String, p: &Process, lang: Lang, level: usize, status_line: Option<&str>) {
    let h1 = "#".repeat(level);
    let h2 = "#".repeat(level + 1);
    let h3 = "#".repeat(level + 2);
    let name = display_name(p);
    let _ = writeln!(
        s,
        "{h1} {}: {}\n",
        inline(&name),
        inline(&outcome_text(p.outcome, lang))
    );
    if let Some(line) = status_line {
        let _ = writeln!(s, "{}\n", inline(line));
    }
    context(s, p, lang, &h2);
    let eval = evaluate(&p.answers());
    let _ = writeln!(s, "{h2} {}\n", tr("share.adr.drivers", lang));
    if eval.path.is_empty() {
        let _ = writeln!(s, "{}\n", tr("share.adr.no-answers", lang));
    }
    for step in &eval.path {
        let _ = writeln!(s, "* {}", inline(&step.question.why(lang)));
    }
    if !eval.path.is_empty() {
        s.push('\n');
    }
    let _ = writeln!(s, "{h2} {}\n", tr("share.adr.options", lang));
    for o in Outcome::ALL {
        let _ = writeln!(s, "* {} (`{}`)", inline(&o.title(lang)), o.id());
    }
    let _ = writeln!(s, "\n{h2} {}\n", tr("share.adr.outcome", lang));
    let Some(outcome) = p.outcome else {
        if let Status::Ask(q) = eval.status {
            let text = crate::text::t!(
                "share.adr.undecided",
                locale = lang.code(),
                question = q.text(lang)
            );
            let _ = writeln!(s, "{}\n", inline(&text));
        }
        return;
    };
    let chosen = crate::text::t!(
        "share.adr.chosen",
        locale = lang.code(),
        option = outcome.title(lang)
    );
    let _ = writeln!(s, "{}\n", inline(&chosen));
    for r in eval.reasons(lang) {
        let _ = writeln!(s, "* {}", inline(&r));
    }
    let _ = writeln!(s, "\n{}\n", inline(&outcome.summary(lang)));
    let _ = writeln!(s, "{h3} {}\n", tr("share.adr.consequences", lang));
    for (i, t) in outcome.tradeoffs(lang).iter().enumerate() {
        let kind = match weight(outcome, i) {
            Weight::Good => "share.adr.good",
            Weight::Neutral => "share.adr.neutral",
            Weight::Bad => "share.adr.bad",
        };
        let _ = writeln!(s, "* **{}:** {}", tr(kind, lang), inline(t));
    }
    let _ = writeln!(s, "\n{h3} {}\n", tr("share.adr.settings", lang));
    settings(s, p, lang);
    let _ = writeln!(s, "{h3} {}\n", tr("share.adr.next", lang));
    for n in outcome.next_steps(lang) {
        let _ = writeln!(s, "* {}", inline(&n));
    }
    s.push('\n');
}

/// The problem, the facts the sheet gives, and each answer in words.
fn context(s: &mut String, p: &Process, lang: Lang, h2: &str) {
    let _ = writeln!(s, "{h2} {}\n", tr("share.adr.context", lang));
    let problem = crate::text::t!(
        "share.adr.problem",
        locale = lang.code(),
        name = inline(&display_name(p))
    );
    let _ = writeln!(s, "{problem}\n");
    if let Some(f) = p.sheet.as_ref().map(|sh| &sh.process) {
        let mut facts = Vec::new();
        let mut add = |k: &str, v: String| {
            if !v.trim().is_empty() {
                facts.push(format!(
                    "* {}{}{}",
                    tr(&format!("share.adr.fact.{k}"), lang),
                    sep(lang),
                    inline(v.trim())
                ));
            }
        };
        add("code", f.code_name.clone());
        add("trigger", f.trigger.clone());
        add("arguments", join_list(&f.arguments, lang));
        add("business-key", f.business_key.clone());
        add(
            "acceptable-wait",
            f.acceptable_wait_ms
                .map(|ms| exact(ms, lang))
                .unwrap_or_default(),
        );
        if !facts.is_empty() {
            let _ = writeln!(s, "{}\n", facts.join("\n"));
        }
    }
    let eval = evaluate(&p.answers());
    if eval.path.is_empty() {
        let _ = writeln!(s, "{}\n", tr("share.adr.no-answers", lang));
        return;
    }
    let _ = writeln!(s, "{}\n", tr("share.adr.answers", lang));
    for (i, step) in eval.path.iter().enumerate() {
        let yn = tr(
            if step.yes() {
                "answer.yes"
            } else {
                "answer.no"
            },
            lang,
        );
        let derived = match step.answer {
            Answer::Derived(t) => format!(" ({})", t.comparison(lang)),
            Answer::Given(_) => String::new(),
        };
        let _ = writeln!(
            s,
            "{}. {} — **{}**{}",
            i + 1,
            inline(&step.question.text(lang)),
            inline(&yn),
            inline(&derived)
        );
    }
    s.push('\n');
}

/// The sheet's key settings (those it has), then its findings; or a line saying there is
/// no sheet.
fn settings(s: &mut String, p: &Process, lang: Lang) {
    if p.sheet.is_none() {
        let _ = writeln!(s, "{}\n", tr("share.adr.no-sheet", lang));
        return;
    }
    let k = key(p, lang);
    let col = |c: &str| tr(&format!("catalog.export.col.{c}"), lang);
    let mut rows: Vec<(String, String)> = Vec::new();
    let ms = |v: Option<u64>| v.map(|m| exact(m, lang));
    let trimmed = |v: Option<String>| v.filter(|x| !x.is_empty());
    for (label, value) in [
        ("attempts", k.attempts.map(|a| a.to_string())),
        ("wait", k.backoff.map(|b| describe_backoff(&b, lang))),
        ("attempt-timeout", ms(k.attempt_timeout_ms)),
        ("lease", ms(k.lease_ms)),
        ("key", trimmed(k.idempotency_key)),
        ("dead-letter", trimmed(k.dead_letter)),
        ("notify", trimmed(k.notify)),
        ("schedule", trimmed(k.schedule)),
        ("call-timeout", ms(k.call_timeout_ms)),
        ("rate", k.capacity[0].clone()),
        ("workers", k.capacity[1].clone()),
        (
            "capacity",
            p.sheet
                .as_ref()
                .filter(|s| crate::domain::sheet::load_text::load_of(s).is_some())
                .map(|s| crate::domain::sheet::load_text::capacity_text(s, lang)),
        ),
    ] {
        if let Some(v) = value {
            rows.push((col(label), v));
        }
    }
    let _ = writeln!(s, "{}\n", tr("share.adr.settings-intro", lang));
    for (label, value) in rows {
        let _ = writeln!(s, "* {}{}{}", inline(&label), sep(lang), inline(&value));
    }
    let findings = crate::text::t!(
        "share.adr.findings",
        locale = lang.code(),
        errors = k.errors,
        warnings = k.warnings
    );
    let _ = writeln!(s, "\n{}\n", inline(&findings));
}

/// How a trade-off of an outcome weighs, for MADR's "Good, because … / Bad, because …": the
/// texts are `outcome.<id>.tradeoff.N` in locales/page/decide.yml; a "fast, but …" reads Neutral.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Weight {
    Good,
    Neutral,
    Bad,
}

fn weight(o: Outcome, index: usize) -> Weight {
    use Weight::*;
    let table: &[Weight] = match o {
        Outcome::Batch => &[Bad, Good, Bad],
        Outcome::AsyncEnqueue => &[Neutral, Bad, Bad],
        Outcome::AsyncTicket => &[Neutral, Bad, Bad],
        Outcome::Sync => &[Good, Bad],
        Outcome::SyncTimeout => &[Neutral, Bad],
    };
    table.get(index).copied().unwrap_or(Neutral)
}

/// The label separator: `: ` in English, a full-width colon in Japanese.
fn sep(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ": ",
        Lang::Ja => "：",
    }
}

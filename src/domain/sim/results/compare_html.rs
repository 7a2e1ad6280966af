//! Compare's differences and event logs as finished HTML in both languages, drawn by the
//! simulation worker when it finishes B ([`CompareRequest`](crate::domain::sim::runner::CompareRequest)):
//! the key numbers side by side with the ones that differ marked ([`diff_in`]), the line saying
//! why a one-change comparison came out the same, and both event logs aligned by time with the
//! first line where they part called out and marked ([`align_heads`]). The worker compares the
//! two whole logs (it holds both); the text says how many lines were compared and never calls
//! two logs the same unless every line of both was compared and the key numbers agree. The
//! table shows [`LOG_ROWS_SHOWN`] rows around the first difference. The page only inserts
//! the string, so this code and its words (`compare.*` in `locales/worker/sim-compare.yml`)
//! stay out of the page's first load.
//!
//! Markup: classes and `data-*` attributes only, no inline style (the page's CSP); every text
//! escaped.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::plot::escape;
use crate::domain::sim::results::compare::{diff_in, DiffLine, KeyNumbers};
use crate::domain::sim::results::drawn::Both;
use crate::domain::sim::results::log::{LogEntry, LogNames};
use crate::domain::sim::results::log_align::{align_heads, AlignedRow};

/// Rows of the aligned logs the table shows at most (the logs themselves are compared whole).
pub const LOG_ROWS_SHOWN: usize = 200;
/// Rows shown above the first difference, when it lies further down.
pub const LOG_ROWS_BEFORE: usize = 20;
use crate::text::t;
use std::fmt::Write as _;

/// What the comparison reads of one run: its key numbers and its event log.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The key numbers.
    pub key: &'a KeyNumbers,
    /// The log's entries at hand, from the first: the whole log (the worker holds both runs'
    /// logs), or only its first lines (then `total` is larger and the text says so).
    pub log: &'a [LogEntry],
    /// The names the entries refer to.
    pub names: &'a LogNames,
    /// Lines in the whole log.
    pub total: u64,
    /// Times with six decimals (the whole log's precision).
    pub micros: bool,
}

impl Side<'_> {
    /// Entry `i` of the head in `lang`; empty for `None` or an index past the head.
    fn line(&self, i: Option<usize>, lang: Lang) -> String {
        i.and_then(|i| self.log.get(i))
            .map(|e| {
                crate::domain::sim::results::log::Line {
                    micros: self.micros,
                    ..self.names.line(e)
                }
                .render(lang)
            })
            .unwrap_or_default()
    }
}

/// The differences and the logs of `a` and `b` in both languages (`[English, Japanese]`):
/// `<h4>`, the "same" line when no key number differs (with why, for the one-change
/// comparison `same_why`, a [`Change`](crate::domain::sim::setup::knobs::Change) id), the
/// `table.compare-diff`, then the `section.compare-logs` (nothing when neither run kept a log).
pub fn compare_html(a: Side<'_>, b: Side<'_>, same_why: Option<&str>) -> Both {
    Lang::ALL.map(|lang| {
        let mut out = differences(a.key, b.key, same_why, lang);
        let numbers_differ = diff_in(a.key, b.key, lang).iter().any(|d| d.differs);
        out.push_str(&logs(a, b, numbers_differ, lang));
        out
    })
}

/// The key numbers' table in `lang`.
fn differences(a: &KeyNumbers, b: &KeyNumbers, same_why: Option<&str>, lang: Lang) -> String {
    let l = lang.code();
    let lines = diff_in(a, b, lang);
    let mut out = format!(
        r#"<h4>{}</h4><div class="slot">"#,
        escape(&t!("compare.differences", locale = l))
    );
    if !lines.iter().any(|d| d.differs) {
        let _ = write!(
            out,
            r#"<p class="hint" data-no-difference="true">{}{}</p>"#,
            escape(&t!("compare.no-difference", locale = l)),
            escape(&why(same_why, l))
        );
    }
    // Every column is named; the first and last only for screen readers (what each row is
    // and its change are plain to the eye). The table scrolls in a focusable, named region.
    let _ = write!(
        out,
        r#"</div><div class="table-wrap" role="region" tabindex="0" aria-label="{}"><table class="compare-diff"><thead><tr><th scope="col"><span class="visually-hidden">{}</span></th><th scope="col">A</th><th scope="col">B</th><th scope="col"><span class="visually-hidden">{}</span></th></tr></thead><tbody>"#,
        escape(&t!("compare.differences", locale = l)),
        escape(&t!("compare.col-number", locale = l)),
        escape(&t!("compare.col-change", locale = l)),
    );
    for d in &lines {
        out.push_str(&diff_row(d, l));
    }
    out.push_str("</tbody></table></div>");
    out
}

/// One row of the key numbers' table.
fn diff_row(d: &DiffLine, l: &str) -> String {
    let change = d.change.clone().unwrap_or_else(|| {
        if d.differs {
            "≠".into()
        } else {
            String::new()
        }
    });
    format!(
        r#"<tr data-diff="{id}" data-line="{line}"{class}><th scope="row">{name}</th><td>{a}</td><td>{b}</td><td class="change">{change}</td></tr>"#,
        id = escape(d.id),
        line = escape(&d.to_string()),
        class = if d.differs { r#" class="differs""# } else { "" },
        name = escape(&t!(format!("compare.{}", d.id), locale = l)),
        a = escape(&d.a),
        b = escape(&d.b),
        change = escape(&change),
    )
}

/// " " and why the one-change comparison `change` can come out the same, in `l`; empty for
/// none or an id without a text.
fn why(change: Option<&str>, l: &str) -> String {
    change.map_or_else(String::new, |id| {
        let key = format!("compare.same-why.{id}");
        let text = t!(&key, locale = l);
        if text == key {
            String::new()
        } else {
            format!(" {text}")
        }
    })
}

/// Both event logs side by side in `lang`, aligned by time ([`align_heads`]), the first line
/// where they part called out above the table and marked in it, with how many lines were
/// compared. Empty when neither run kept a log.
fn logs(a: Side<'_>, b: Side<'_>, numbers_differ: bool, lang: Lang) -> String {
    let l = lang.code();
    if a.log.is_empty() && b.log.is_empty() && a.total == 0 && b.total == 0 {
        return String::new();
    }
    let mut out = format!(
        r#"<section class="compare-logs" aria-labelledby="compare-logs-title"><h4 id="compare-logs-title">{}</h4>"#,
        escape(&t!("compare.logs", locale = l))
    );
    // One run kept no log (more jobs than the log keeps): nothing to line up.
    if a.total == 0 || b.total == 0 {
        let side = if a.total == 0 { "A" } else { "B" };
        let _ = write!(
            out,
            r#"<p class="hint" data-first-diff="none">{}</p></section>"#,
            escape(&t!("compare.log-missing", locale = l, side = side))
        );
        return out;
    }
    let (aligned, cut) = align_heads((a.log, a.names, a.total), (b.log, b.names, b.total));
    let first = aligned
        .first_difference
        .and_then(|i| aligned.rows.get(i).map(|r| (i, *r)));
    out.push_str(&log_summary(
        a,
        b,
        first,
        &aligned.rows,
        cut,
        numbers_differ,
        lang,
    ));
    // The rows shown: from a little above the first difference, at most LOG_ROWS_SHOWN.
    let from = first.map_or(0, |(i, _)| i.saturating_sub(LOG_ROWS_BEFORE));
    let to = aligned.rows.len().min(from + LOG_ROWS_SHOWN);
    if from > 0 || to < aligned.rows.len() {
        let _ = write!(
            out,
            r#"<p class="hint" data-log-window="{}-{}">{}</p>"#,
            from + 1,
            to,
            escape(&t!(
                "compare.log-window",
                locale = l,
                from = group_thousands((from + 1) as u64),
                to = group_thousands(to as u64),
                total = group_thousands(aligned.rows.len() as u64)
            ))
        );
    }
    // The scroll box is a region of its own name (the section around it has the heading's).
    let _ = write!(
        out,
        r#"<div class="table-wrap log-pair" tabindex="0" role="region" aria-label="{}"><table class="compare-log"><thead><tr><th scope="col">A</th><th scope="col">B</th></tr></thead><tbody>"#,
        escape(&t!("compare.logs-box", locale = l))
    );
    for (i, r) in aligned.rows.iter().enumerate().take(to).skip(from) {
        let is_first = first.is_some_and(|(f, _)| f == i);
        let class = match (r.differs, is_first) {
            (true, true) => r#" class="differs first-diff""#,
            (true, false) => r#" class="differs""#,
            (false, true) => r#" class="first-diff""#,
            (false, false) => "",
        };
        let _ = write!(
            out,
            r#"<tr{class}{}><td>{}</td><td>{}</td></tr>"#,
            if is_first {
                r#" data-first="true""#
            } else {
                ""
            },
            escape(&a.line(r.a, lang)),
            escape(&b.line(r.b, lang)),
        );
    }
    out.push_str("</tbody></table></div></section>");
    out
}

/// What the comparison of the logs found, above the table: the first line where the runs
/// part (and how many lines before it are the same), or that every line is the same (only
/// when both whole logs were compared; then also whether the key numbers still differ), or
/// how far the lines at hand are the same when only the first lines were.
fn log_summary(
    a: Side<'_>,
    b: Side<'_>,
    first: Option<(usize, AlignedRow)>,
    rows: &[AlignedRow],
    cut: bool,
    numbers_differ: bool,
    lang: Lang,
) -> String {
    let l = lang.code();
    let n = |v: usize| group_thousands(v as u64);
    let (ta, tb) = (group_thousands(a.total), group_thousands(b.total));
    let mut out = String::new();
    match first {
        Some((i, r)) => {
            let or_none = |s: String| {
                if s.is_empty() {
                    t!("compare.log-none", locale = l).into_owned()
                } else {
                    s
                }
            };
            let colon = t!("compare.colon", locale = l);
            let _ = write!(
                out,
                r#"<div class="log-first-diff" data-first-diff="true" data-same-before="{i}"><p>{}</p><p><strong>A</strong>{c}<code>{}</code></p><p><strong>B</strong>{c}<code>{}</code></p></div>"#,
                escape(&t!(
                    "compare.log-first-diff-after",
                    locale = l,
                    n = n(i),
                    a = ta,
                    b = tb
                )),
                escape(&or_none(a.line(r.a, lang))),
                escape(&or_none(b.line(r.b, lang))),
                c = escape(&colon),
            );
        }
        None if cut => {
            let _ = write!(
                out,
                r#"<p class="hint" data-first-diff="unknown" data-log-cut="true">{}{}</p>"#,
                escape(&t!(
                    if rows.is_empty() {
                        "compare.log-not-compared"
                    } else {
                        "compare.log-same-so-far"
                    },
                    locale = l,
                    n = n(rows.len()),
                    a = ta,
                    b = tb
                )),
                if numbers_differ {
                    t!("compare.log-numbers-differ", locale = l).into_owned()
                } else {
                    String::new()
                }
            );
        }
        None => {
            let key = if numbers_differ {
                "compare.log-same-numbers-differ"
            } else {
                "compare.log-same-all"
            };
            let _ = write!(
                out,
                r#"<p class="hint" data-first-diff="false" data-lines="{}">{}</p>"#,
                rows.len(),
                escape(&t!(key, locale = l, n = n(rows.len())))
            );
        }
    }
    out
}

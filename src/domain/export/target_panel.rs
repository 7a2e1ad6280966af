//! The configuration panel under the sheet's export bar: a sheet exported to one real queue
//! system ([`crate::domain::queues::report`]), rendered in the export worker so that no target
//! code or text weighs on the page's first load. The page inserts [`Panel::html`] below the
//! bar and copies or downloads the item `text` as the file named by the item `file`.
//!
//! The HTML holds, in this order: the title (target, format), the format chooser where the
//! target has several, Copy and Download (`actions_html`) and the file name; the
//! target's own findings; the configuration text in `<pre><code>`; the mapping, field by
//! field (sheet field and value → the target's key and the value written, with the note);
//! what the target cannot express and what the export does instead; the schedule the target
//! actually runs beside the sheet's (the first [`SHOWN_DELAYS`] delays and the window, each
//! min – max with the expected value, zero processing time); the target's defaults and their
//! window. Every text from the sheet or a target is escaped ([`escape`]), the sheet's values
//! in the mapping isolated (`<bdi>`), and bidi control characters shown as `<U+202E>`
//! ([`bidi::show`]); there is no script, no inline style and no event attribute, only
//! classes of `static/target.css`.
//!
//! A sheet the target cannot take gives a panel with one alert naming the field, the target
//! and the allowed range (`data-target-error` holds the error's kind) and the item `error`
//! (that sentence as text) instead of `text` and `file`: nothing to copy, and the sheet is
//! never changed.

use crate::domain::bidi::{self, Shown};
use crate::domain::duration::approx;
use crate::domain::lang::Lang;
use crate::domain::plot::escape;
use crate::domain::queues::{
    report_version, DefaultPolicy, Delay, Format, Instead, Schedule, TargetError, TargetId,
    TargetReport, TargetVersion, WindowS,
};
use crate::domain::share::panel::Panel;
use crate::domain::sheet::check::{Finding, Severity};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;
use std::fmt::Write;

/// How many delays the schedule table lists (the window counts them all).
pub const SHOWN_DELAYS: usize = 10;

/// How many of the defaults' first delays the defaults line lists.
const SHOWN_DEFAULT_DELAYS: usize = 5;

/// The panel for `sheet` exported to `target` in `format` (the target's first when `None`),
/// texts in `lang`: [`panel`] when the export succeeds, else [`refusal`], inside
/// `<div class="target-body" data-target="…" data-format="…" data-version="…">` naming what
/// it shows (`data-version` only for a target with versions).
pub fn render(sheet: &JobSheet, target: TargetId, format: Option<Format>, lang: Lang) -> Panel {
    render_at(sheet, (target, format, None), lang, None)
}

/// [`render`] at `now_ms` (Unix milliseconds, the page's clock): an export that carries the
/// batch schedule also lists the days of the coming year on which daylight saving skips or
/// repeats a run in the sheet's time zone
/// ([`dst_findings`](crate::domain::sheet::dst::dst_findings)). `None`: as [`render`].
///
/// The choice is `(target, format, version)`; `version` `None`: the target's newest.
pub fn render_at(
    sheet: &JobSheet,
    (target, format, version): (TargetId, Option<Format>, Option<TargetVersion>),
    lang: Lang,
    now_ms: Option<i64>,
) -> Panel {
    let shown = format.unwrap_or(target.formats()[0]);
    let mut p = match report_version(sheet, target, format, version, lang) {
        Ok(mut r) => {
            if let Some(now) = now_ms {
                r.findings
                    .extend(crate::domain::sheet::dst::dst_findings(sheet, lang, now));
            }
            panel(&r, lang)
        }
        Err(e) => refusal(&e, lang),
    };
    let version = match target.version_or_newest(version) {
        Some(v) => format!(" data-version=\"{}\"", v.name()),
        None => String::new(),
    };
    p.html = format!(
        "<div class=\"target-body\" data-target=\"{}\" data-format=\"{}\"{version}>{}</div>",
        target.name(),
        shown.name(),
        bidi::show(&p.html, Shown::Markup)
    );
    p
}

/// The panel for an export that succeeded: the HTML (module table, without [`render`]'s
/// wrapper) and the items `text` (the configuration), `file` (its file name), `copied` and
/// `downloaded` (the words shown after a click).
pub fn panel(r: &TargetReport, lang: Lang) -> Panel {
    let l = lang.code();
    let target = r.target.label_in(lang);
    let mut html = format!(
        "<h3 class=\"target-title\" id=\"target-title\">{}</h3>{}\
         <p class=\"hint target-file\">{}</p>",
        t!(
            "target-ui.title",
            locale = l,
            target = target,
            format = r.format.label()
        ),
        actions_html(r, lang),
        t!(
            "target-ui.file",
            locale = l,
            name = format!("<code>{}</code>", escape(&r.file_name))
        ),
    );
    let _ = write!(
        html,
        "<p class=\"hint target-versions-followed\">{}</p>",
        t!(
            "target.versions.label",
            locale = l,
            versions = escape(&r.versions)
        )
    );
    html.push_str(&findings_html(&r.findings, lang));
    let _ = write!(
        html,
        "<pre class=\"target-text\" tabindex=\"0\" aria-label=\"{}\"><code>{}</code></pre>",
        t!("target-ui.text", locale = l),
        escape(&r.built.text)
    );
    html.push_str(&mapping_html(r, lang));
    html.push_str(&gaps_html(r, lang));
    html.push_str(&schedule_html(r, lang));
    html.push_str(&defaults_html(r.target, &r.defaults, lang));
    Panel {
        html,
        items: vec![
            (
                "copied".to_owned(),
                t!("share-ui.copied", locale = l).into_owned(),
            ),
            (
                "downloaded".to_owned(),
                t!("share-ui.downloaded", locale = l).into_owned(),
            ),
            ("file".to_owned(), r.file_name.clone()),
            ("text".to_owned(), r.built.text.clone()),
        ],
    }
}

/// The format chooser (where the target has several: one button per format,
/// `data-share-action="format:<name>"`, the shown one `aria-pressed="true"`) and the Copy and
/// Download buttons of the configuration text, marked as the share panel marks its buttons
/// (`data-share-copy` / `data-share-download` with `data-file` and `data-mime`), so the page
/// serves them with the share panel's click reader; `copied` / `downloaded` are the words it
/// shows after a click.
fn actions_html(r: &TargetReport, lang: Lang) -> String {
    let l = lang.code();
    let mut html = String::from("<div class=\"target-actions\">");
    let formats = r.target.formats();
    if formats.len() > 1 {
        let _ = write!(
            html,
            "<span class=\"target-formats\" role=\"group\" aria-label=\"{}\">",
            t!("target-ui.format", locale = l)
        );
        for f in formats {
            let _ = write!(
                html,
                "<button type=\"button\" class=\"small\" data-share-action=\"format:{}\" \
                 aria-pressed=\"{}\">{}</button>",
                f.name(),
                *f == r.format,
                f.label()
            );
        }
        html.push_str("</span>");
    }
    let versions = r.target.versions();
    if versions.len() > 1 {
        let _ = write!(
            html,
            "<span class=\"target-versions\" role=\"group\" aria-label=\"{}\">",
            t!("target.versions.choose", locale = l)
        );
        for v in versions {
            let _ = write!(
                html,
                "<button type=\"button\" class=\"small\" data-share-action=\"version:{}\" \
                 aria-pressed=\"{}\">{}</button>",
                v.name(),
                Some(*v) == r.version,
                escape(&crate::domain::queues::versions::followed(
                    r.target,
                    Some(*v),
                    lang
                )),
            );
        }
        html.push_str("</span>");
    }
    let _ = write!(
        html,
        "<button type=\"button\" class=\"small\" id=\"target-copy\" data-share-copy=\"text\">{}</button>\
         <button type=\"button\" class=\"small\" id=\"target-download\" data-share-download=\"text\" \
         data-file=\"{}\" data-mime=\"text/plain;charset=utf-8\">{}</button></div>",
        t!("target-ui.copy", locale = l),
        escape(&r.file_name),
        t!("target-ui.download", locale = l),
    );
    html
}

/// The panel for an export that cannot be made: one alert in `lang` (for a value out of
/// range: the field's name, its value, the target and the allowed range), saying the sheet is
/// unchanged; one item, `error`: the same sentence as plain text (what the page says when
/// Copy or Download is pressed on it).
pub fn refusal(e: &TargetError, lang: Lang) -> Panel {
    let l = lang.code();
    let (kind, message) = match e {
        TargetError::OutOfRange {
            target,
            field,
            value,
            allowed,
        } => (
            "out-of-range",
            t!(
                "target-ui.out-of-range",
                locale = l,
                target = target.label_in(lang),
                field = field_name(*field, lang),
                value = value,
                allowed = allowed
            )
            .into_owned(),
        ),
        TargetError::NotApplicable { .. } => ("not-applicable", e.message(lang)),
        TargetError::UnknownTarget(_)
        | TargetError::UnknownFormat { .. }
        | TargetError::UnknownVersion { .. } => ("unknown", e.message(lang)),
    };
    let unchanged = t!("target-ui.unchanged", locale = l);
    let sp = if lang == Lang::Ja { "" } else { " " };
    Panel {
        html: format!(
            "<p class=\"notice error-notice target-error\" role=\"alert\" \
             data-target-error=\"{kind}\">{}{sp}{unchanged}</p>",
            escape(&message),
        ),
        items: vec![("error".to_owned(), format!("{message}{sp}{unchanged}"))],
    }
}

/// The sheet field's name as the form labels it (its id when it has no label).
fn field_name(field: FieldId, lang: Lang) -> String {
    let id = field.id();
    let key = format!("sheet.field.{id}.item");
    let name = t!(&key, locale = lang.code()).into_owned();
    if name == key {
        id
    } else {
        name
    }
}

/// The target's own findings, as the page's checks show findings.
fn findings_html(findings: &[Finding], lang: Lang) -> String {
    let l = lang.code();
    let mut html = String::new();
    for f in findings {
        let (class, word) = match f.severity {
            Severity::Error => ("error-level", t!("sheet.ui.severity-error", locale = l)),
            Severity::Warning => ("warning-level", t!("sheet.ui.severity-warning", locale = l)),
        };
        let _ = write!(
            html,
            "<p class=\"finding {class}\" data-finding=\"{}\" role=\"status\">\
             <strong>{word}: </strong>{}</p>",
            f.code,
            escape(&f.message)
        );
    }
    html
}

/// A table cell with its column's name in `data-label` (shown beside the value where the
/// table folds into one column on a phone).
fn cell(label: &str, content: &str) -> String {
    format!("<td data-label=\"{}\">{content}</td>", escape(label))
}

/// The mapping, one row per sheet field.
fn mapping_html(r: &TargetReport, lang: Lang) -> String {
    let l = lang.code();
    let cols = [
        t!("target-ui.col-field", locale = l).into_owned(),
        t!("target-ui.col-sheet", locale = l).into_owned(),
        t!(
            "target-ui.col-key",
            locale = l,
            target = r.target.label_in(lang)
        )
        .into_owned(),
        t!("target-ui.col-value", locale = l).into_owned(),
        t!("target-ui.col-note", locale = l).into_owned(),
    ];
    let mut html = format!(
        "<h4>{}</h4><table class=\"target-table target-mapping\"><thead><tr>",
        t!("target-ui.mapping", locale = l)
    );
    for c in &cols {
        let _ = write!(html, "<th scope=\"col\">{}</th>", escape(c));
    }
    html.push_str("</tr></thead><tbody>");
    let not_written = t!("target-ui.not-written", locale = l);
    for row in &r.built.mapping {
        let value = if row.value.is_empty() {
            format!("<span class=\"hint\">{not_written}</span>")
        } else {
            format!("<code><bdi>{}</bdi></code>", escape(&row.value))
        };
        let _ = write!(
            html,
            "<tr data-field=\"{}\"><th scope=\"row\" data-label=\"{}\">{}</th>{}{}{}{}</tr>",
            row.field.id(),
            escape(&cols[0]),
            // The timeout field's two rows: its attempt timeout, and its lease by the
            // form's own name for it.
            escape(&if row.lease {
                t!("sheet.ui.lease", locale = l).into_owned()
            } else {
                field_name(row.field, lang)
            }),
            cell(&cols[1], &format!("<bdi>{}</bdi>", escape(&row.sheet))),
            cell(&cols[2], &format!("<code>{}</code>", escape(&row.key))),
            cell(&cols[3], &value),
            cell(&cols[4], &escape(&row.note)),
        );
    }
    html.push_str("</tbody></table>");
    html
}

/// What the target cannot express for this sheet, and what the export does instead.
fn gaps_html(r: &TargetReport, lang: Lang) -> String {
    let l = lang.code();
    let target = r.target.label_in(lang);
    let mut html = format!(
        "<h4>{}</h4>",
        t!("target-ui.gaps", locale = l, target = target)
    );
    if r.built.gaps.is_empty() {
        let _ = write!(
            html,
            "<p class=\"target-no-gaps\">{}</p>",
            t!("target-ui.no-gaps", locale = l, target = target)
        );
        return html;
    }
    html.push_str("<ul class=\"target-gaps\">");
    for g in &r.built.gaps {
        let (id, key) = match g.instead {
            Instead::Callback => ("callback", "target-ui.instead-callback"),
            Instead::Comment => ("comment", "target-ui.instead-comment"),
            Instead::Nothing => ("nothing", "target-ui.instead-nothing"),
        };
        // Japanese sentences follow each other without a space.
        let (colon, sp) = match lang {
            Lang::En => (": ", " "),
            Lang::Ja => ("：", ""),
        };
        let detail = if g.detail.is_empty() {
            String::new()
        } else {
            format!("{sp}{}", escape(&g.detail))
        };
        let _ = write!(
            html,
            "<li data-field=\"{}\" data-instead=\"{id}\"><strong>{}</strong>{colon}{}{sp}\
             <span class=\"target-instead\">{}</span>{detail}</li>",
            g.field.id(),
            // A gap about the lease under the lease's name, as its mapping row.
            escape(&if g.lease {
                t!("sheet.ui.lease", locale = l).into_owned()
            } else {
                field_name(g.field, lang)
            }),
            escape(&g.what),
            t!(key, locale = l, target = target),
        );
    }
    html.push_str("</ul>");
    html
}

/// A duration in seconds as people read it, e.g. `"2.5 min"` / `"2.5分"`.
fn secs(s: f64, lang: Lang) -> String {
    approx(s * 1000.0, lang)
}

/// A range of seconds: one value when it has no spread, "about e" when its ends read the
/// same at one decimal, else `min – max (expected e)`.
fn range(min: f64, expected: f64, max: f64, lang: Lang) -> String {
    let (lo, hi) = (secs(min, lang), secs(max, lang));
    if lo == hi {
        // No spread, or none at this precision (e.g. 20.4 d – 20.4 d).
        if (max - min).abs() < 0.0005 {
            lo
        } else {
            t!(
                "target-ui.about",
                locale = lang.code(),
                value = secs(expected, lang)
            )
            .into_owned()
        }
    } else {
        t!(
            "target-ui.range",
            locale = lang.code(),
            min = lo,
            max = hi,
            expected = secs(expected, lang)
        )
        .into_owned()
    }
}

/// A delay as [`range`] writes it.
fn delay(d: &Delay, lang: Lang) -> String {
    range(d.min_s, d.expected_s, d.max_s, lang)
}

/// A window as [`range`] writes it, or "unbounded".
fn window(w: &WindowS, lang: Lang) -> String {
    match (w.min, w.expected, w.max) {
        (Some(min), Some(e), Some(max)) => range(min, e, max, lang),
        _ => t!("target-ui.unbounded", locale = lang.code()).into_owned(),
    }
}

/// Runs including the first, or "unlimited".
fn attempts(s: &Schedule, lang: Lang) -> String {
    s.attempts.map_or_else(
        || t!("target-ui.unlimited", locale = lang.code()).into_owned(),
        |n| n.to_string(),
    )
}

/// The sheet's schedule beside the one the target actually runs.
fn schedule_html(r: &TargetReport, lang: Lang) -> String {
    let l = lang.code();
    let target = r.target.label_in(lang);
    let (sheet, actual) = (&r.sheet_schedule, &r.built.actual);
    let cols = [
        t!("target-ui.col-step", locale = l).into_owned(),
        t!("target-ui.col-this-sheet", locale = l).into_owned(),
        target.to_owned(),
    ];
    let mut html = format!(
        "<h4>{}</h4><p class=\"hint\">{}</p>\
         <table class=\"target-table target-schedule\"><thead><tr>",
        t!("target-ui.schedule", locale = l, target = target),
        t!("target-ui.schedule-hint", locale = l)
    );
    for c in &cols {
        let _ = write!(html, "<th scope=\"col\">{}</th>", escape(c));
    }
    html.push_str("</tr></thead><tbody>");
    let row = |html: &mut String, id: &str, name: String, a: String, b: String| {
        let _ = write!(
            html,
            "<tr data-row=\"{id}\"><th scope=\"row\" data-label=\"{}\">{name}</th>{}{}</tr>",
            escape(&cols[0]),
            cell(&cols[1], &a),
            cell(&cols[2], &b),
        );
    };
    row(
        &mut html,
        "attempts",
        t!("target-ui.row-attempts", locale = l).into_owned(),
        attempts(sheet, lang),
        attempts(actual, lang),
    );
    let listed = sheet.delays.len().max(actual.delays.len());
    let none = "—".to_owned();
    for i in 0..listed.min(SHOWN_DELAYS) {
        let of = |s: &Schedule| {
            s.delays
                .get(i)
                .map_or_else(|| none.clone(), |d| delay(d, lang))
        };
        row(
            &mut html,
            &format!("delay-{}", i + 1),
            t!("target-ui.row-delay", locale = l, n = i + 1, next = i + 2).into_owned(),
            of(sheet),
            of(actual),
        );
    }
    row(
        &mut html,
        "window",
        t!("target-ui.row-window", locale = l).into_owned(),
        window(&sheet.window_s, lang),
        window(&actual.window_s, lang),
    );
    html.push_str("</tbody></table>");
    if listed > SHOWN_DELAYS {
        let _ = write!(
            html,
            "<p class=\"hint\">{}</p>",
            t!("target-ui.more-delays", locale = l, n = SHOWN_DELAYS)
        );
    }
    html
}

/// The target's defaults: in words, the attempts, the first delays and the window.
fn defaults_html(target: TargetId, d: &DefaultPolicy, lang: Lang) -> String {
    let l = lang.code();
    let mut first: Vec<String> = d
        .schedule
        .delays
        .iter()
        .take(SHOWN_DEFAULT_DELAYS)
        .map(|x| delay(x, lang))
        .collect();
    if d.schedule.delays.len() > SHOWN_DEFAULT_DELAYS || d.schedule.attempts.is_none() {
        first.push("…".to_owned());
    }
    let mut html = format!(
        "<h4>{}</h4><div class=\"target-defaults\">",
        t!(
            "target-ui.defaults",
            locale = l,
            target = target.label_in(lang)
        )
    );
    if !d.summary.is_empty() {
        let _ = write!(html, "<p>{}</p>", escape(&d.summary));
    }
    let _ = write!(
        html,
        "<dl><dt>{}</dt><dd data-default=\"attempts\">{}</dd>",
        t!("target-ui.row-attempts", locale = l),
        d.attempts.map_or_else(
            || t!("target-ui.unlimited", locale = l).into_owned(),
            |n| n.to_string()
        )
    );
    if !first.is_empty() {
        let _ = write!(
            html,
            "<dt>{}</dt><dd data-default=\"delays\">{}</dd>",
            t!("target-ui.first-delays", locale = l),
            first.join(if lang == Lang::Ja { "、" } else { ", " })
        );
    }
    let _ = write!(
        html,
        "<dt>{}</dt><dd data-default=\"window\">{}</dd></dl></div>",
        t!("target-ui.default-window", locale = l),
        window(&d.schedule.window_s, lang)
    );
    html
}

//! The retry schedule drawn as a small timeline: attempt 1, wait, attempt 2, … in the worst
//! case (every wait at its maximum), with the user's acceptable wait marked. The numbers
//! come from `domain::sheet::retry_window`; this module only draws them.

use crate::domain::duration::approx;
use crate::domain::sheet::retry_window::retry_window;
use crate::domain::sheet::JobSheet;
use crate::domain::Lang;
use crate::text::t;
use yew::prelude::*;

const W: f64 = 640.0;
const H: f64 = 64.0;
const BAR_Y: f64 = 18.0;
const BAR_H: f64 = 22.0;

/// The timeline with a text summary (the summary is what screen readers get). The figure takes
/// keyboard focus: below 640 px it scrolls sideways.
pub fn timeline(sheet: &JobSheet, lang: Lang) -> Html {
    let Some(r) = &sheet.retry else {
        return Html::default();
    };
    let l = lang.code();
    let w = retry_window(&r.backoff, r.max_attempts, r.attempt_timeout_ms);
    let acceptable = sheet.process.acceptable_wait_ms.map(|a| a as f64);
    let span = w.worst_case_ms.max(acceptable.unwrap_or(0.0)).max(1.0);
    let x = |ms: f64| (ms / span * W).clamp(0.0, W);
    let mut shapes = Vec::new();
    let mut at = 0.0;
    for k in 0..r.max_attempts as usize {
        let start = at;
        at += r.attempt_timeout_ms as f64;
        let width = (x(at) - x(start)).max(1.5);
        shapes.push(html! {
            <rect class="tl-attempt" x={format!("{:.1}", x(start))} y={BAR_Y.to_string()} width={format!("{width:.1}")} height={BAR_H.to_string()}>
                <title>{ t!("sheet.ui.tl-attempt", locale = l, n = k + 1, d = approx(r.attempt_timeout_ms as f64, lang)) }</title>
            </rect>
        });
        if let Some(wait) = w.waits.get(k) {
            let ws = at;
            at += wait.max_ms;
            let width = (x(at) - x(ws)).max(0.5);
            let exp = x(ws + wait.expected_ms);
            shapes.push(html! {
                <g class="tl-wait">
                    <rect x={format!("{:.1}", x(ws))} y={(BAR_Y + 6.0).to_string()} width={format!("{width:.1}")} height={(BAR_H - 12.0).to_string()}>
                        <title>{ t!("sheet.ui.tl-wait", locale = l, n = k + 1,
                            min = approx(wait.min_ms, lang), exp = approx(wait.expected_ms, lang), max = approx(wait.max_ms, lang)) }</title>
                    </rect>
                    <line x1={format!("{exp:.1}")} x2={format!("{exp:.1}")} y1={(BAR_Y + 2.0).to_string()} y2={(BAR_Y + BAR_H - 2.0).to_string()} />
                </g>
            });
        }
    }
    let marker = acceptable.map(|a| {
        let ax = x(a).min(W - 1.0);
        let anchor = if ax > W * 0.7 { "end" } else { "start" };
        let label = t!("sheet.ui.tl-acceptable", locale = l, d = approx(a, lang)).into_owned();
        html! {
            <g class="tl-acceptable">
                <line x1={format!("{ax:.1}")} x2={format!("{ax:.1}")} y1="4" y2={(H - 4.0).to_string()} />
                <text x={format!("{:.1}", if anchor == "end" { ax - 4.0 } else { ax + 4.0 })} y="12" text-anchor={anchor}>{ label }</text>
            </g>
        }
    });
    let summary = t!(
        "sheet.ui.tl-summary",
        locale = l,
        waits = w.waits.len(),
        min = approx(w.total_wait.min_ms, lang),
        exp = approx(w.total_wait.expected_ms, lang),
        max = approx(w.total_wait.max_ms, lang),
        worst = approx(w.worst_case_ms, lang),
        attempts = r.max_attempts,
        timeout = approx(r.attempt_timeout_ms as f64, lang)
    )
    .into_owned();
    let over = acceptable.is_some_and(|a| w.worst_case_ms > a);
    html! {
        <figure class={classes!("timeline", over.then_some("over"))} tabindex="0" data-worst-ms={format!("{:.0}", w.worst_case_ms)}>
            <figcaption>{ t!("sheet.ui.tl-title", locale = l) }</figcaption>
            <p class="scroll-hint" data-scroll-hint="timeline">{ t!("ui.scroll-hint.diagram", locale = l) }</p>
            <svg viewBox={format!("0 0 {W} {H}")} role="presentation" aria-hidden="true">
                { for shapes }
                <g class="slot">{ marker }</g>
                <text x="0" y={(H - 8.0).to_string()} class="tl-axis">{ "0" }</text>
                <text x={W.to_string()} y={(H - 8.0).to_string()} text-anchor="end" class="tl-axis">{ approx(span, lang) }</text>
            </svg>
            <p class="tl-summary" data-testid="retry-summary">{ summary }</p>
            <p class="tl-legend" aria-hidden="true">
                <span class="sw attempt"></span>{ t!("sheet.ui.tl-legend-attempt", locale = l) }
                <span class="sw wait"></span>{ t!("sheet.ui.tl-legend-wait", locale = l) }
                <span class="sw exp"></span>{ t!("sheet.ui.tl-legend-expected", locale = l) }
            </p>
        </figure>
    }
}

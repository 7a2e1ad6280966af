//! The sheet as a plain table for printing (Print → PDF): hidden on screen, shown alone by
//! the print stylesheet. It starts with the decision the sheet comes from (the outcome, the
//! reasons and the path of answers), then the rows and the findings; user text is isolated
//! (the `user-text` class: `unicode-bidi: isolate`, wrapped anywhere).

use crate::domain::lang::Lang;
use crate::domain::sheet::check::validate;
use crate::domain::sheet::fields::{decision_text, left_out, rows};
use crate::domain::sheet::JobSheet;
use crate::text::t;
use yew::prelude::*;

fn tr(key: &str, lang: Lang) -> AttrValue {
    AttrValue::from(t!(key, locale = lang.code()).into_owned())
}

/// The sheet as a plain table, shown only when printing (Print → PDF).
pub fn print_view(sheet: &JobSheet, lang: Lang) -> Html {
    let rows = rows(sheet, lang);
    let findings = validate(sheet, lang);
    let d = decision_text(sheet, lang);
    html! {
        <section class="print-only" aria-hidden="true">
            <h1>{ tr("sheet.ui.print-title", lang) }{ ": " }<span class="user-text">{ rows.first().map(|r| r.value.clone()).unwrap_or_default() }</span></h1>
            <h2>{ tr("ui.result", lang) }</h2>
            <p data-print="outcome"><strong>{ d.outcome }</strong></p>
            <h3>{ tr("ui.reasons", lang) }</h3>
            <ul data-print="reasons">{ for d.reasons.into_iter().map(|r| html! { <li>{ r }</li> }) }</ul>
            <h3>{ tr("sheet.ui.print-path", lang) }</h3>
            <ol data-print="path">{ for d.path.into_iter().map(|s| html! { <li>{ s }</li> }) }</ol>
            <table>
                <thead><tr>
                    <th>{ tr("sheet.ui.col-item", lang) }</th><th>{ tr("sheet.ui.col-what", lang) }</th><th>{ tr("sheet.ui.col-value", lang) }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr><th>{ r.item.clone() }</th><td>{ r.what.clone() }</td><td class="user-text">{ r.value.clone() }</td></tr>
                    }) }
                </tbody>
            </table>
            if let Some(line) = left_out(sheet, lang) {
                <p data-print="left-out">{ line }</p>
            }
            <h2>{ tr("sheet.ui.findings", lang) }</h2>
            if findings.is_empty() {
                <p>{ tr("sheet.ui.no-findings", lang) }</p>
            } else {
                <ul>{ for findings.iter().map(|f| html! { <li>{ f.message.clone() }</li> }) }</ul>
            }
        </section>
    }
}

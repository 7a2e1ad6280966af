//! The sheet as a plain table for printing (Print → PDF): hidden on screen, shown alone by
//! the print stylesheet.

use crate::domain::lang::Lang;
use crate::domain::sheet::check::validate;
use crate::domain::sheet::fields::rows;
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
    html! {
        <section class="print-only" aria-hidden="true">
            <h1>{ tr("sheet.ui.print-title", lang) }{ ": " }{ rows.first().map(|r| r.value.clone()).unwrap_or_default() }</h1>
            <table>
                <thead><tr>
                    <th>{ tr("sheet.ui.col-item", lang) }</th><th>{ tr("sheet.ui.col-what", lang) }</th><th>{ tr("sheet.ui.col-value", lang) }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr class={classes!((!r.applies).then_some("na-row"))}><th>{ r.item.clone() }</th><td>{ r.what.clone() }</td><td>{ r.value.clone() }</td></tr>
                    }) }
                </tbody>
            </table>
            <h2>{ tr("sheet.ui.findings", lang) }</h2>
            if findings.is_empty() {
                <p>{ tr("sheet.ui.no-findings", lang) }</p>
            } else {
                <ul>{ for findings.iter().map(|f| html! { <li>{ f.message.clone() }</li> }) }</ul>
            }
        </section>
    }
}

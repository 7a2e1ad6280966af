//! The job definition sheet screen: every field editable with units, the default's reason and
//! the findings beside each field, the retry timeline, import, the example, and the print view.
//! The screen is its header, the notice about the sheet as a whole, the export
//! bar, the form's sections ([`sections`]) and the checks panel.

pub mod audit_origin;
pub mod capacity;
pub mod export_bar;
pub mod form;
pub mod load;
pub mod print_view;
pub mod sections;
pub mod targets;
pub mod timeline;

use crate::domain::export::read::{ReadAs, ReadDone, ReadRequest};
use crate::domain::lang::Lang;
use crate::domain::sheet::check::{validate, Finding, Severity};
use crate::domain::sheet::inputs::{label_of, SheetInput};
use crate::domain::sheet::{FieldId, JobSheet};
use crate::text::t;
use crate::ui::browser;
use crate::ui::sheet::export_bar::ExportBar;
use crate::ui::sheet::sections::Form;
use crate::ui::simulator::{CapacityHost, CapacityKeep};
use crate::ui::state::{Action, AppContext, Output, SheetNotice};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

fn tr(key: &str, lang: Lang) -> AttrValue {
    AttrValue::from(t!(key, locale = lang.code()).into_owned())
}

fn item(field: FieldId, lang: Lang) -> AttrValue {
    tr(&format!("sheet.field.{}.item", field.id()), lang)
}

fn finding(f: &Finding, lang: Lang) -> Html {
    let (class, word) = match f.severity {
        Severity::Error => ("finding error-level", tr("sheet.ui.severity-error", lang)),
        Severity::Warning => (
            "finding warning-level",
            tr("sheet.ui.severity-warning", lang),
        ),
    };
    html! {
        <p class={class} data-finding={f.code} role="status">
            <strong>{ word }{ ": " }</strong>{ f.message.clone() }
        </p>
    }
}

/// The sheet screen; `capacity` is where its capacity panel lives (kept by the app; the
/// simulator module draws the panel).
pub fn sheet_screen(ctx: &AppContext, capacity: &CapacityKeep) -> Html {
    let ctx = ctx.clone();
    let Some(sheet) = ctx.sheet.clone() else {
        return Html::default();
    };
    let findings = validate(&sheet, ctx.lang);
    let form = Form::new(&ctx, &sheet, &findings);
    html! {
        <section class="sheet" data-outcome={sheet.decision.outcome.id()} aria-labelledby="sheet-title">
            { header(&ctx, &sheet) }
            <div class="slot">{ notice(&ctx) }</div>
            <div class="slot">{ audit_origin::notice(&ctx) }</div>
            <ExportBar sheet={Rc::new(sheet.clone())} pin={audit_origin::open_origin(&ctx).and_then(|a| a.target_version())} />
            <div class="sheet-grid">
                <div class="sheet-form">
                    { sections::process(&form) }
                    { sections::retry(&form) }
                    { sections::failure(&form) }
                    { sections::outcome_specific(&form) }
                    { load::section(&form) }
                    // Sized where there is a load to size: a job's sheet, or one whose load
                    // section is filled (a call or a batch has no queue to size otherwise).
                    if crate::domain::sheet::load_text::load_of(&sheet).is_some() {
                        <CapacityHost keep={capacity.clone()} process={ctx.open.as_ref().map_or_else(AttrValue::default, |id| AttrValue::from(id.0.clone()))} lang={ctx.lang} sheet={Rc::new(sheet.clone())} />
                    }
                </div>
                { checks_panel(&ctx, &findings) }
            </div>
            { print_view::print_view(&sheet, ctx.lang) }
        </section>
    }
}

/// The screen's title and its actions: back to the questions, simulate these settings (when
/// the sheet has a retry section), load the example, import a file.
fn header(ctx: &AppContext, sheet: &JobSheet) -> Html {
    let lang = ctx.lang;
    let back = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::ShowDecide))
    };
    let simulate = {
        let ctx = ctx.clone();
        Callback::from(move |_| {
            // Not with a refused value on screen: the simulator would get the last accepted one.
            if export_bar::allowed(&ctx, Output::Simulate) {
                ctx.dispatch(Action::SimulateSheet);
            }
        })
    };
    let load_example = {
        let ctx = ctx.clone();
        Callback::from(
            move |_| match crate::domain::sheet::example::example(lang) {
                Ok(s) => {
                    ctx.dispatch(Action::LoadSheet(Box::new(s)));
                    ctx.dispatch(Action::Notice(Some(SheetNotice::ExampleLoaded)));
                }
                Err(e) => ctx.dispatch(Action::Notice(Some(SheetNotice::Refused(e)))),
            },
        )
    };
    html! {
        <div class="sheet-head">
            <div>
                <p class="step">{ tr("sheet.ui.kicker", lang) }</p>
                <h2 id="sheet-title" tabindex="-1">{ sheet.decision.outcome.title(lang) }</h2>
            </div>
            <div class="actions">
                <button type="button" class="secondary" onclick={back}>{ tr("sheet.ui.back", lang) }</button>
                if sheet.retry.is_some() {
                    <button type="button" class="secondary" id="simulate-sheet" onclick={simulate}>{ tr("ui.simulate-sheet", lang) }</button>
                }
                <button type="button" class="secondary" id="load-example" onclick={load_example}>{ tr("sheet.ui.load-example", lang) }</button>
                <input type="file" id="import-json" class="visually-hidden" accept=".json,application/json" onchange={import(ctx)} />
                <label class="button secondary" for="import-json">{ tr("sheet.ui.import", lang) }</label>
            </div>
        </div>
    }
}

/// Imports the file chosen in the file input over the sheet (the previous one can be put back).
fn import(ctx: &AppContext) -> Callback<Event> {
    let ctx = ctx.clone();
    let lang = ctx.lang;
    Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        let ctx = ctx.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let notice = match browser::read_file(file).await {
                Err(msg) => SheetNotice::Browser(msg),
                Ok(text) => {
                    let request = ReadRequest {
                        id: 0,
                        lang,
                        text,
                        read: ReadAs::Sheet,
                    };
                    match browser::read_file_in_worker(request).await {
                        Ok(Ok(ReadDone::Sheet(s))) => {
                            ctx.dispatch(Action::LoadSheet(s));
                            SheetNotice::Imported
                        }
                        Ok(Ok(ReadDone::Refused { en, ja })) => {
                            SheetNotice::Browser(if lang == Lang::Ja { ja } else { en })
                        }
                        // A sheet request is answered with a sheet: nothing else is loaded.
                        Ok(Ok(_)) => return,
                        Ok(Err(err)) => SheetNotice::ImportFailed(err),
                        Err(msg) => SheetNotice::Browser(msg),
                    }
                }
            };
            ctx.dispatch(Action::Notice(Some(notice)));
        });
    })
}

/// The last message about the sheet as a whole: success (with "undo" after a load) or an
/// error, each dismissable.
fn notice(ctx: &AppContext) -> Html {
    let lang = ctx.lang;
    let dismiss = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Notice(None)))
    };
    match &ctx.notice {
        None => Html::default(),
        Some(n) if n.is_info() => {
            let undo = (ctx.before_load.is_some()
                && matches!(n, SheetNotice::ExampleLoaded | SheetNotice::Imported))
            .then(|| {
                let ctx = ctx.clone();
                let onclick = Callback::from(move |_| ctx.dispatch(Action::UndoLoad));
                html! { <button type="button" class="link" id="undo-load" {onclick}>{ tr("sheet.ui.undo", lang) }</button> }
            });
            html! {
                <div class="notice info" role="status" data-notice="info"><p>{ n.text(lang) }</p>
                    <div class="slot">{ undo }</div>
                    <button type="button" class="link" onclick={dismiss}>{ tr("ui.dismiss", lang) }</button></div>
            }
        }
        Some(n) => html! {
            <div class="notice error-notice" role="alert" data-notice="error"><p>{ n.text(lang) }</p>
                <button type="button" class="link" onclick={dismiss}>{ tr("ui.dismiss", lang) }</button></div>
        },
    }
}

/// The checks panel: the sheet inputs showing a refused value first (in page order: they are
/// why outputs are refused), then every finding, each linking to its input.
fn checks_panel(ctx: &AppContext, findings: &[Finding]) -> Html {
    let lang = ctx.lang;
    let refused = ctx.sheet_refused();
    let summary = if findings.is_empty() && refused.is_empty() {
        html! { <p class="ok" data-findings="0">{ tr("sheet.ui.no-findings", lang) }</p> }
    } else {
        let error_word = tr("sheet.ui.severity-error", lang);
        html! {
            <ul class="findings" data-findings={findings.len().to_string()}>
                { for refused.iter().map(|(id, message)| html! {
                    <li data-refused={id.clone()}><a href={format!("#{id}")}>{ label_of(id, lang) }</a>{ " " }
                        <p class="finding error-level" role="status"><strong>{ error_word.clone() }{ ": " }</strong>{ message.clone() }</p>
                    </li>
                }) }
                { for findings.iter().map(|f| html! {
                    <li><a href={format!("#{}", anchor(f))}>{ link_label(f, lang) }</a>{ " " }{ finding(f, lang) }</li>
                }) }
            </ul>
        }
    };
    html! {
        <aside class="sheet-side" aria-labelledby="findings-title">
            <h3 id="findings-title">{ tr("sheet.ui.findings", lang) }</h3>
            { summary }
            <div class="slot">{ (!refused.is_empty()).then(|| html! {
                <p class="hint" data-refused-note="true">{ tr("sheet.ui.refused-outputs", lang) }</p>
            }) }</div>
        </aside>
    }
}

/// A findings-summary link's text: the job name's two findings name their own input
/// ("Process name", "Name in code"), the others their field.
fn link_label(f: &Finding, lang: Lang) -> AttrValue {
    match (f.field, SheetInput::for_finding(f)) {
        (FieldId::JobName, Some(input)) => input.label(lang).into(),
        _ => item(f.field, lang),
    }
}

/// The DOM id to jump to for a finding: its input ([`SheetInput::for_finding`]), else the
/// sheet's title.
fn anchor(f: &Finding) -> &'static str {
    SheetInput::for_finding(f).map_or("sheet-title", |i| i.id)
}

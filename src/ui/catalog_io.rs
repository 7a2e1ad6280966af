//! The whole catalog in and out: export (copy or download as Markdown, CSV with or without a
//! BOM, TSV, JSON — rendered by the document worker, loaded on the first export) and import (a
//! catalog file or a single sheet file, read in the document worker too: a preview of what is
//! added or replaced, then merge or replace; a bad file changes nothing and names the field).

use crate::domain::app_state::{CatalogAction, CatalogNotice};
use crate::domain::catalog::import::{apply_import, plan_import, ImportMode, ImportPlan};
use crate::domain::catalog::Catalog;
use crate::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
use crate::domain::export::read::{ReadAs, ReadDone, ReadRequest};
use crate::domain::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext};
use yew::prelude::*;

/// The catalog's formats, in the order shown: (id, label, format).
const FORMATS: [(&str, &str, ExportFormat); 5] = [
    ("markdown", "Markdown", ExportFormat::Markdown),
    ("csv", "CSV", ExportFormat::Csv { bom: false }),
    ("csv-bom", "CSV (Excel)", ExportFormat::Csv { bom: true }),
    ("tsv", "TSV", ExportFormat::Tsv),
    ("json", "JSON", ExportFormat::Json),
];

/// The download's file name and type: the catalog's name made safe (`catalog` when empty).
pub(crate) fn file_name(catalog: &Catalog, id: &str) -> (String, &'static str) {
    let safe = browser::file_stem(&catalog.name);
    // `Reservations.catalog.json`; an unnamed catalog is just `catalog.json`.
    let base = if safe.is_empty() {
        "catalog".to_owned()
    } else {
        format!("{safe}.catalog")
    };
    match id {
        "markdown" => (format!("{base}.md"), "text/markdown;charset=utf-8"),
        "csv" | "csv-bom" => (format!("{base}.csv"), "text/csv;charset=utf-8"),
        "tsv" => (
            format!("{base}.tsv"),
            "text/tab-separated-values;charset=utf-8",
        ),
        _ => (format!("{base}.json"), "application/json"),
    }
}

/// A file read and checked, waiting for the user's choice.
#[derive(Clone, PartialEq)]
struct Pending {
    /// The catalog the file holds (a sheet file: a catalog of that one process).
    incoming: Catalog,
    /// What a merge or a replace would do.
    plan: ImportPlan,
    /// A single sheet file (only a merge is offered).
    sheet: bool,
    /// The file's name.
    file: String,
}

/// Reads `text` in the document worker as a catalog file (it has `catalog_version`) or a sheet
/// file, checked whole: the catalog and whether it was a single sheet, or the message (the
/// file's problem naming the field, or why the worker could not read it) in `lang`.
async fn read(ctx: &AppContext, text: String, lang: Lang) -> Result<(Catalog, bool), String> {
    let current = ctx.catalog_now();
    let request = ReadRequest {
        id: 0,
        lang,
        text,
        read: ReadAs::CatalogOrSheet {
            catalog_name: current.name.clone(),
            id: current.fresh_id(browser::random_seed()),
            now_ms: browser::now_ms(),
        },
    };
    match browser::read_file_in_worker(request).await? {
        Ok(ReadDone::Catalog { catalog, sheet }) => Ok((catalog, sheet)),
        // A file the worker names (the simulator's configuration), in its words.
        Ok(ReadDone::Refused { en, ja }) => Err(if lang == Lang::Ja { ja } else { en }),
        // A catalog request is answered with a catalog: anything else is a bad reply.
        Ok(_) => Err(t!(
            "import.worker.bad-reply",
            locale = lang.code(),
            reason = "not a catalog"
        )
        .into_owned()),
        Err(e) => Err(e.message(lang)),
    }
}

/// Export and import of the whole catalog.
#[component]
pub fn CatalogIo() -> Html {
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let busy = use_state(|| false);
    let pending = use_state(|| None::<Pending>);
    let exports = FORMATS.iter().map(|&(id, label, format)| {
        let run = |copy: bool| {
            let (ctx, busy) = (ctx.clone(), busy.clone());
            Callback::from(move |_| {
                if *busy {
                    return;
                }
                busy.set(true);
                let catalog = ctx.catalog_now();
                let (ctx, busy) = (ctx.clone(), busy.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    let request = ExportRequest {
                        id: 0,
                        lang,
                        format,
                        subject: ExportSubject::Catalog(catalog.clone()),
                        now_ms: None,
                    };
                    let done = match browser::export(request).await {
                        // Worded at display time, so a language switch rewords them.
                        Ok(text) if copy => browser::copy_text(text, lang)
                            .await
                            .map(|()| CatalogNotice::Copied(label.to_owned())),
                        Ok(text) => {
                            let (name, mime) = file_name(&catalog, id);
                            browser::download(&name, mime, &text)
                                .map(|()| CatalogNotice::Downloaded(name))
                        }
                        Err(e) => Err(e),
                    };
                    busy.set(false);
                    let notice = match done {
                        Ok(n) => n,
                        Err(e) => CatalogNotice::Failed(e),
                    };
                    ctx.dispatch(Action::Catalog(CatalogAction::Notice(Some(notice))));
                });
            })
        };
        html! {
            <div class="export" data-format={id}>
                <span class="fmt">{ label }</span>
                <button type="button" class="small" data-action="copy" disabled={*busy} onclick={run(true)}
                    aria-label={format!("{} {label}", t!("catalog-io.copy", locale = l))}>{ t!("catalog-io.copy", locale = l) }</button>
                <button type="button" class="small" data-action="download" disabled={*busy} onclick={run(false)}
                    aria-label={format!("{} {label}", t!("catalog-io.download", locale = l))}>{ t!("catalog-io.download", locale = l) }</button>
            </div>
        }
    });
    let onchange = {
        let (ctx, pending) = (ctx.clone(), pending.clone());
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            // The same file can be chosen again after a cancel.
            input.set_value("");
            let (ctx, pending) = (ctx.clone(), pending.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.name();
                let read = match browser::read_file(file).await {
                    Ok(text) => read(&ctx, text, lang).await,
                    Err(e) => Err(e),
                };
                match read {
                    Ok((incoming, sheet)) => {
                        let plan = plan_import(&ctx.catalog_now(), &incoming);
                        pending.set(Some(Pending {
                            incoming,
                            plan,
                            sheet,
                            file: name,
                        }));
                        ctx.dispatch(Action::Catalog(CatalogAction::Notice(None)));
                    }
                    Err(e) => {
                        pending.set(None);
                        let m = t!(
                            "catalog-io.import-failed",
                            locale = lang.code(),
                            file = name,
                            error = e
                        );
                        ctx.dispatch(Action::Catalog(CatalogAction::Notice(Some(
                            CatalogNotice::Failed(m.into_owned()),
                        ))));
                    }
                }
            });
        })
    };
    let preview = pending.as_ref().map(|p| preview(&ctx, p, &pending));
    html! {
        <section class="catalog-io" aria-labelledby="catalog-io-title">
            <h3 id="catalog-io-title">{ t!("catalog-io.title", locale = l) }</h3>
            <div class="export-bar" role="group" aria-label={t!("catalog-io.export", locale = l).into_owned()}>
                { for exports }
            </div>
            <p class="import-row">
                <label for="catalog-import" class="button secondary">{ t!("catalog-io.import", locale = l) }</label>
                <input type="file" id="catalog-import" class="visually-hidden" accept=".json,application/json" {onchange} />
                <span class="help">{ t!("catalog-io.import-help", locale = l) }</span>
            </p>
            { preview.unwrap_or_default() }
        </section>
    }
}

/// The preview of an import: what is added, replaced, unchanged, and dropped by a replace;
/// merge / replace / cancel.
fn preview(ctx: &AppContext, p: &Pending, pending: &UseStateHandle<Option<Pending>>) -> Html {
    let l = ctx.lang.code();
    let list = |key: &str, entries: &[crate::domain::catalog::import::Entry]| {
        if entries.is_empty() {
            return Html::default();
        }
        html! {
            <div class="import-list" data-list={key.to_owned()}>
                <h4>{ t!(format!("catalog-io.plan.{key}"), locale = l, n = entries.len()) }</h4>
                <ul>{ for entries.iter().map(|e| html! { <li>{ &e.name }</li> }) }</ul>
            </div>
        }
    };
    let apply = |mode: ImportMode| {
        let (ctx, pending, p) = (ctx.clone(), pending.clone(), p.clone());
        Callback::from(move |_| {
            match apply_import(&ctx.catalog_now(), &p.incoming, mode) {
                Ok(next) => {
                    let (added, replaced) = match mode {
                        ImportMode::Merge => (p.plan.added.len(), p.plan.replaced.len()),
                        ImportMode::Replace => (p.incoming.processes.len(), 0),
                    };
                    ctx.dispatch(Action::Catalog(CatalogAction::Import(
                        Box::new(next),
                        added,
                        replaced,
                    )));
                }
                Err(e) => ctx.dispatch(Action::Catalog(CatalogAction::Notice(Some(
                    CatalogNotice::Failed(e.message(ctx.lang)),
                )))),
            }
            pending.set(None);
        })
    };
    let cancel = {
        let pending = pending.clone();
        Callback::from(move |_| pending.set(None))
    };
    html! {
        <div class="notice import-preview" role="dialog" aria-labelledby="import-preview-title">
            <p id="import-preview-title"><strong>{ t!("catalog-io.preview", locale = l, file = p.file.as_str()) }</strong></p>
            { list("added", &p.plan.added) }
            { list("replaced", &p.plan.replaced) }
            { list("unchanged", &p.plan.unchanged) }
            if !p.sheet { { list("dropped", &p.plan.dropped) } }
            <div class="keep-actions">
                <button type="button" class="primary" id="import-merge" onclick={apply(ImportMode::Merge)}>{ t!("catalog-io.merge", locale = l) }</button>
                if !p.sheet {
                    <button type="button" class="secondary" id="import-replace" onclick={apply(ImportMode::Replace)}>{ t!("catalog-io.replace", locale = l) }</button>
                }
                <button type="button" class="secondary" id="import-cancel" onclick={cancel}>{ t!("catalog-io.cancel", locale = l) }</button>
            </div>
        </div>
    }
}

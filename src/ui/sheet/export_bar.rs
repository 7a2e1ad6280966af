//! The export bar: copy to the clipboard or download the sheet in each format.

use crate::domain::export;
use crate::domain::lang::Lang;
use crate::domain::sheet::JobSheet;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext, Output, SheetNotice};
use rust_i18n::t;
use std::rc::Rc;
use yew::prelude::*;

/// An export format offered by the bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown with a mermaid block (wikis, GitHub, GitLab).
    Markdown,
    /// Tab-separated, the source documents' three columns (pastes into spreadsheets as cells).
    Tsv,
    /// RFC 4180 CSV with a UTF-8 BOM (Excel opens it with the right encoding).
    Csv,
    /// The versioned JSON model (imports back; the CLI renders it).
    Json,
}

impl Format {
    /// Every format, in the order shown.
    pub const ALL: [Format; 4] = [Format::Markdown, Format::Tsv, Format::Csv, Format::Json];

    fn id(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Tsv => "tsv",
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Format::Markdown => "Markdown",
            Format::Tsv => "TSV",
            Format::Csv => "CSV",
            Format::Json => "JSON",
        }
    }

    fn file(self, code_name: &str) -> (String, &'static str) {
        let base = if code_name.trim().is_empty() {
            "job-sheet"
        } else {
            code_name.trim()
        };
        let safe: String = base
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        match self {
            Format::Markdown => (format!("{safe}.sheet.md"), "text/markdown;charset=utf-8"),
            Format::Tsv => (
                format!("{safe}.sheet.tsv"),
                "text/tab-separated-values;charset=utf-8",
            ),
            Format::Csv => (format!("{safe}.sheet.csv"), "text/csv;charset=utf-8"),
            Format::Json => (format!("{safe}.sheet.json"), "application/json"),
        }
    }

    /// The sheet in this format, texts in `lang`. The CSV download carries a UTF-8 BOM for
    /// Excel; the copied CSV does not.
    pub fn render(self, sheet: &JobSheet, lang: Lang, for_file: bool) -> String {
        match self {
            Format::Markdown => export::markdown::to_markdown(sheet, lang),
            Format::Tsv => export::tsv::to_tsv(sheet, lang),
            Format::Csv => export::csv::to_csv(sheet, lang, for_file),
            Format::Json => export::json::to_json(sheet),
        }
    }
}

/// Properties of [`ExportBar`].
#[derive(Properties, PartialEq)]
pub struct ExportBarProps {
    /// The sheet to export.
    pub sheet: Rc<JobSheet>,
}

/// Whether `out` may go ahead ([`AppState::check_output`](crate::ui::state::AppState::check_output)):
/// not while a sheet input shows a value it refused. Refused: the notice names every such
/// input, and this returns `false`. Once every input is fixed, an earlier refusal's notice
/// goes away.
pub fn allowed(ctx: &AppContext, out: Output) -> bool {
    match ctx.check_output(out) {
        Ok(()) => {
            if matches!(ctx.notice, Some(SheetNotice::FieldsRefused(..))) {
                ctx.dispatch(Action::Notice(None));
            }
            true
        }
        Err(notice) => {
            ctx.dispatch(Action::Notice(Some(notice)));
            false
        }
    }
}

/// Copy / download buttons per format, and print.
#[component]
pub fn ExportBar(props: &ExportBarProps) -> Html {
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let buttons = Format::ALL.iter().map(|&f| {
        let copy = {
            let (ctx, sheet) = (ctx.clone(), props.sheet.clone());
            Callback::from(move |_| {
                if !allowed(&ctx, Output::Copy) {
                    return;
                }
                let text = f.render(&sheet, lang, false);
                let ctx = ctx.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let notice = match browser::copy_text(text).await {
                        Ok(()) => SheetNotice::Copied(f.label()),
                        Err(e) => SheetNotice::Browser(e),
                    };
                    ctx.dispatch(Action::Notice(Some(notice)));
                });
            })
        };
        let download = {
            let (ctx, sheet) = (ctx.clone(), props.sheet.clone());
            Callback::from(move |_| {
                if !allowed(&ctx, Output::Download) {
                    return;
                }
                let (name, mime) = f.file(&sheet.process.code_name);
                if let Err(e) = browser::download(&name, mime, &f.render(&sheet, lang, true)) {
                    ctx.dispatch(Action::Notice(Some(SheetNotice::Browser(e))));
                }
            })
        };
        html! {
            <div class="export" data-format={f.id()}>
                <span class="fmt">{ f.label() }</span>
                <button type="button" class="small" data-action="copy" onclick={copy}
                    aria-label={format!("{} {}", t!("sheet.ui.copy", locale = l), f.label())}>{ t!("sheet.ui.copy", locale = l) }</button>
                <button type="button" class="small" data-action="download" onclick={download}
                    aria-label={format!("{} {}", t!("sheet.ui.download", locale = l), f.label())}>{ t!("sheet.ui.download", locale = l) }</button>
            </div>
        }
    });
    let print = {
        let ctx = ctx.clone();
        Callback::from(move |_| {
            if allowed(&ctx, Output::Print) {
                browser::print();
            }
        })
    };
    html! {
        <div class="export-bar" role="group" aria-label={t!("sheet.ui.export", locale = l).into_owned()}>
            { for buttons }
            <button type="button" class="small" id="print" onclick={print}>{ t!("sheet.ui.print", locale = l) }</button>
        </div>
    }
}

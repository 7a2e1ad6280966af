//! The export bar: copy to the clipboard or download the sheet in each format, or its
//! configuration for a real queue system ([`targets`]).
//!
//! The documents are rendered by the document worker ([`browser::export`], loaded on the first
//! press): a press sends the sheet as it is at that moment, the bar's buttons are disabled
//! until the text is back, then the text is copied or downloaded; a failure shows a notice.

use crate::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
use crate::domain::lang::Lang;
use crate::domain::queues::TargetVersion;
use crate::domain::sheet::JobSheet;
use crate::text::t;
use crate::ui::browser;
use crate::ui::sheet::targets;
use crate::ui::state::{Action, AppContext, Output, SheetNotice};
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
        let (suffix, mime) = match self {
            Format::Markdown => (".sheet.md", "text/markdown;charset=utf-8"),
            Format::Tsv => (".sheet.tsv", "text/tab-separated-values;charset=utf-8"),
            Format::Csv => (".sheet.csv", "text/csv;charset=utf-8"),
            Format::Json => (".sheet.json", "application/json"),
        };
        (browser::file_name(code_name, "job-sheet", suffix), mime)
    }

    /// The request for the sheet in this format, texts in `lang` (rendered by the export
    /// worker, [`browser::export`]). The CSV download carries a UTF-8 BOM for Excel; the copied
    /// CSV does not.
    pub fn request(self, sheet: &JobSheet, lang: Lang, for_file: bool) -> ExportRequest {
        let format = match self {
            Format::Markdown => ExportFormat::Markdown,
            Format::Tsv => ExportFormat::Tsv,
            Format::Csv => ExportFormat::Csv { bom: for_file },
            Format::Json => ExportFormat::Json,
        };
        ExportRequest {
            id: 0,
            lang,
            format,
            subject: ExportSubject::Sheet(Box::new(sheet.clone())),
            // The page's clock: the document then names the days of the coming year on which
            // daylight saving skips or repeats a batch run, as the CLI's does (the document
            // worker carries each zone's rules: domain::sheet::zone_rules).
            now_ms: i64::try_from(browser::now_ms()).ok(),
        }
    }
}

/// Properties of [`ExportBar`].
#[derive(Properties, PartialEq)]
pub struct ExportBarProps {
    /// The sheet to export.
    pub sheet: Rc<JobSheet>,
    /// The release an audit followed for the process ([`AuditOrigin`](crate::domain::catalog::origin::AuditOrigin)):
    /// "Configuration for" its system starts there instead of at the newest.
    #[prop_or_default]
    pub pin: Option<TargetVersion>,
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

/// Copy / download buttons per format, print, and the configuration for a real queue system
/// ([`targets::chooser`]) with its panel below the bar ([`targets::panel`]).
#[component]
pub fn ExportBar(props: &ExportBarProps) -> Html {
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let busy = use_state(|| false);
    let choice = targets::use_choice();
    let outcome = props.sheet.decision.outcome;
    let (panel, target_status, target_waiting) = targets::use_target_panel(
        &ctx,
        props.sheet.clone(),
        targets::applicable(*choice, outcome),
    );
    let buttons = Format::ALL.iter().map(|&f| {
        let press = |out: Output| {
            let (ctx, sheet, busy) = (ctx.clone(), props.sheet.clone(), busy.clone());
            Callback::from(move |_| {
                if *busy || !allowed(&ctx, out) {
                    return;
                }
                let for_file = out == Output::Download;
                let request = f.request(&sheet, lang, for_file);
                let file = f.file(&sheet.process.code_name);
                let (ctx, busy) = (ctx.clone(), busy.clone());
                busy.set(true);
                wasm_bindgen_futures::spawn_local(async move {
                    let notice = deliver(f, request, for_file, file).await;
                    busy.set(false);
                    if let Some(notice) = notice {
                        ctx.dispatch(Action::Notice(Some(notice)));
                    }
                });
            })
        };
        let (copy, download) = (press(Output::Copy), press(Output::Download));
        let disabled = *busy;
        html! {
            <div class="export" data-format={f.id()}>
                <span class="fmt">{ f.label() }</span>
                <button type="button" class="small" data-action="copy" onclick={copy} {disabled}
                    aria-label={format!("{} {}", t!("sheet.ui.copy", locale = l), f.label())}>{ t!("sheet.ui.copy", locale = l) }</button>
                <button type="button" class="small" data-action="download" onclick={download} {disabled}
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
        <>
            <div class="export-bar" role="group" aria-busy={(*busy).then_some("true")} aria-label={t!("sheet.ui.export", locale = l).into_owned()}>
                { for buttons }
                <button type="button" class="small" id="print" onclick={print}>{ t!("sheet.ui.print", locale = l) }</button>
                { targets::chooser(&ctx, &choice, props.pin, outcome) }
                // A copy, a download or a configuration on its way (the first waits for the
                // document module, seconds on a slow network): said in the bar, shown only
                // when it takes a moment (style.css `.export-busy`).
                if *busy || target_waiting {
                    <span class="export-busy" role="status">{ t!("sheet.ui.preparing", locale = l) }</span>
                }
            </div>
            { targets::panel(&ctx, (&choice, outcome), (panel, &target_status), allowed) }
        </>
    }
}

/// Renders `request` in the document worker, then copies the text (`for_file` false) or
/// downloads it as `file` (name, MIME type). The notice to show: `Copied` after a copy, none
/// after a download, the message of whatever failed.
async fn deliver(
    f: Format,
    request: ExportRequest,
    for_file: bool,
    (name, mime): (String, &'static str),
) -> Option<SheetNotice> {
    let lang = request.lang;
    let text = match browser::export(request).await {
        Ok(text) => text,
        Err(e) => return Some(SheetNotice::Browser(e)),
    };
    if for_file {
        browser::download(&name, mime, &text)
            .err()
            .map(SheetNotice::Browser)
    } else {
        Some(match browser::copy_text(text, lang).await {
            Ok(()) => SheetNotice::Copied(f.label()),
            Err(e) => SheetNotice::Browser(e),
        })
    }
}

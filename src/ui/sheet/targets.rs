//! The sheet's configuration for a real queue system: the export bar's "Configuration for"
//! chooser and the panel below the bar (the format chooser where the target has several,
//! the version chooser where the target has versions whose formulas or syntax differ, Copy,
//! Download, the configuration, the mapping, what the target cannot express, the
//! actual schedule beside the sheet's, the target's defaults).
//!
//! Everything about the targets runs in the export worker
//! ([`ExportSubject::Target`], rendered by
//! [`target_panel`](crate::domain::export::target_panel)): the page sends the sheet, the target
//! the format and the version and inserts the HTML it gets back (every text in it escaped by the
//! renderer), rendered again when the sheet, the choice or the language changes. The panel's
//! buttons are marked as the share panel's are, so one click reader
//! ([`browser::share_click`]) serves both. The page itself holds only the targets' names:
//! its first load stays within its budget.

use crate::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
use crate::domain::flowchart::Outcome;
use crate::domain::queues::{Format, TargetId, TargetVersion};
use crate::domain::share::panel::Panel;
use crate::domain::sheet::JobSheet;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext, Output, SheetNotice};
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The chosen target, format (`None`: the target's first) and version (`None`: its newest).
pub type Choice = Option<(TargetId, Option<Format>, Option<TargetVersion>)>;

thread_local! {
    /// The last choice made in any sheet's export bar: the bar is drawn anew each time the
    /// sheet is (after the questions, the catalog, Simulate, another process), and a team
    /// configures one queue system for all its processes. Its system is kept in storage
    /// too, for a reload or the next visit ([`browser::remember_target`]).
    static LAST: std::cell::Cell<Choice> = const { std::cell::Cell::new(None) };
}

/// The target named `name` ([`TargetId::name`]), if any.
fn named(name: &str) -> Option<TargetId> {
    TargetId::ALL.into_iter().find(|t| t.name() == name)
}

/// The export bar's choice, starting from the last one made on this page, else the system
/// chosen on an earlier visit (its first format, its newest version), and remembered as it
/// changes.
#[hook]
pub fn use_choice() -> UseStateHandle<Choice> {
    let choice = use_state(|| {
        LAST.with(std::cell::Cell::get).or_else(|| {
            browser::remembered_target()
                .and_then(|n| named(&n))
                .map(|t| (t, None, None))
        })
    });
    use_effect_with(*choice, |c| {
        LAST.with(|last| last.set(*c));
        browser::remember_target(c.map(|(t, _, _)| t.name()));
    });
    choice
}

/// The rendered panel for the choice, kept until the next one is back, the words shown
/// after a click on its buttons (cleared when the panel is asked for again), and whether an
/// answer is awaited (the first one waits for the document module to load).
#[hook]
pub fn use_target_panel(
    ctx: &AppContext,
    sheet: Rc<JobSheet>,
    choice: Choice,
) -> (Option<Rc<Panel>>, UseStateHandle<String>, bool) {
    let lang = ctx.lang;
    let panel = use_state(|| None::<Rc<Panel>>);
    let status = use_state(String::new);
    let waiting = use_state(|| false);
    {
        let (panel, ctx, status) = (panel.clone(), ctx.clone(), status.clone());
        let waiting = waiting.clone();
        use_effect_with((sheet, choice, lang), move |(sheet, choice, lang)| {
            status.set(String::new());
            let Some((target, format, version)) = *choice else {
                panel.set(None);
                waiting.set(false);
                return;
            };
            waiting.set(true);
            browser::load_stylesheet("./target.css");
            let request = ExportRequest {
                id: 0,
                lang: *lang,
                // Not read for a target: the answer is the panel.
                format: ExportFormat::Json,
                subject: ExportSubject::Target {
                    sheet: Box::new((**sheet).clone()),
                    target,
                    format,
                    version,
                },
                now_ms: i64::try_from(browser::now_ms()).ok(),
            };
            wasm_bindgen_futures::spawn_local(async move {
                let answer = browser::export(request)
                    .await
                    .and_then(|t| Panel::from_json(&t));
                waiting.set(false);
                match answer {
                    Ok(p) => panel.set(Some(Rc::new(p))),
                    Err(e) => ctx.dispatch(Action::Notice(Some(SheetNotice::Browser(e)))),
                }
            });
        });
    }
    ((*panel).clone(), status, *waiting)
}

/// The bar's choice where its target configures something for a sheet whose decision is
/// `outcome` ([`TargetId::configures`]); `None` otherwise (a target chosen before the
/// decision changed to a call or a batch is set aside, not shown refused).
pub fn applicable(choice: Choice, outcome: Outcome) -> Choice {
    choice.filter(|(t, _, _)| t.configures(outcome))
}

/// The chooser in the export bar: "Configuration for" and the targets that configure
/// something for a sheet whose decision is `outcome` (all 13 for a queued job or a ticket,
/// Kubernetes for a batch, nothing shown for a call); `choice` is the bar's state; `pin` the
/// release an audit followed, where the process has one: choosing its system starts at that
/// release.
pub fn chooser(
    ctx: &AppContext,
    choice: &UseStateHandle<Choice>,
    pin: Option<TargetVersion>,
    outcome: Outcome,
) -> Html {
    let l = ctx.lang.code();
    let offered: Vec<TargetId> = TargetId::ALL
        .into_iter()
        .filter(|t| t.configures(outcome))
        .collect();
    if offered.is_empty() {
        return Html::default();
    }
    let current = applicable(**choice, outcome).map(|(t, _, _)| t);
    let onchange = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let target = named(&value);
            choice.set(target.map(|t| (t, None, pin.filter(|v| v.target() == t))));
        })
    };
    html! {
        <div class="export target-export">
            <label class="fmt" for="target-choose">{ t!("sheet.targets.choose", locale = l) }</label>
            <select id="target-choose" {onchange} aria-controls={current.map(|_| "target-panel")}>
                <option value="" selected={current.is_none()}>{ t!("sheet.targets.none", locale = l) }</option>
                { for offered.iter().map(|t| html! {
                    <option value={t.name()} selected={current == Some(*t)}>{ t.label_in(ctx.lang) }</option>
                }) }
            </select>
        </div>
    }
}

/// The panel below the bar: the worker's HTML. Its format and version buttons
/// (`data-share-action="format:<name>"`, `"version:<name>"`) set the choice; its Copy and Download buttons are
/// served by the share panel's click handler (the words after a click in `status`), unless a
/// sheet input shows a value it refused (`allowed`: the export bar's check, which shows why).
pub fn panel(
    ctx: &AppContext,
    (choice, outcome): (&UseStateHandle<Choice>, Outcome),
    (panel, status): (Option<Rc<Panel>>, &UseStateHandle<String>),
    allowed: fn(&AppContext, Output) -> bool,
) -> Html {
    let (Some((target, format, version)), Some(panel)) = (applicable(**choice, outcome), panel)
    else {
        return Html::default();
    };
    let html = panel.html.clone();
    let onclick = {
        let (ctx, choice, status) = (ctx.clone(), choice.clone(), status.clone());
        Callback::from(move |e: MouseEvent| {
            let click = browser::share_click(&e);
            let out = match &click {
                Some(browser::ShareClick::Action(a)) => {
                    if let Some(name) = a.strip_prefix("version:") {
                        let v = TargetVersion::parse(target, name).ok();
                        choice.set(Some((target, format, v.or(version))));
                    } else {
                        let name = a.strip_prefix("format:").unwrap_or_default();
                        let format = target.formats().iter().copied().find(|f| f.name() == name);
                        choice.set(Some((target, format, version)));
                    }
                    return;
                }
                Some(browser::ShareClick::Copy(_)) => Output::Copy,
                Some(browser::ShareClick::Download { .. }) => Output::Download,
                _ => return,
            };
            if let (Some(click), true) = (click, allowed(&ctx, out)) {
                crate::ui::share::on_click(&ctx, click, panel.clone(), status.clone());
            }
        })
    };
    html! {
        <section class="target-panel" id="target-panel" aria-label={t!("sheet.targets.choose", locale = ctx.lang.code()).into_owned()} {onclick}>
            { Html::from_html_unchecked(AttrValue::from(html)) }
            <p class="share-status" role="status">{ (**status).clone() }</p>
        </section>
    }
}

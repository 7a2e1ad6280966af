//! The job definition sheet screen: every field editable with units, the default's reason and
//! the findings beside each field, the retry timeline, import, the example, and the print view.

pub mod export_bar;
pub mod form;
pub mod print_view;
pub mod timeline;

use crate::domain::lang::Lang;
use crate::domain::sheet::check::{validate, Finding, Severity};
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::import::{import_json, limits};
use crate::domain::sheet::prefill::default_reason;
use crate::domain::sheet::{
    BackoffKind, FieldId, Jitter, JobSheet, Keep, LastErrorOnDone, MissedRun, Overlap,
};
use crate::ui::browser;
use crate::ui::sheet::export_bar::ExportBar;
use crate::ui::sheet::form::{
    lines, refused_fields, ChoiceField, DurationField, NumberField, TextField,
};
use crate::ui::sheet::print_view::PrintView;
use crate::ui::sheet::timeline::Timeline;
use crate::ui::state::{Action, AppContext, SheetNotice};
use rust_i18n::t;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The seed's worked example (process facts + decision), offered as "load the example".
pub const EXAMPLE_JSON: &str = include_str!("../../static/examples/reservation-mail.json");

/// The same example written in English.
pub const EXAMPLE_JSON_EN: &str = include_str!("../../static/examples/reservation-mail.en.json");

fn tr(key: &str, lang: Lang) -> AttrValue {
    AttrValue::from(t!(key, locale = lang.code()).into_owned())
}

fn item(field: FieldId, lang: Lang) -> AttrValue {
    tr(&format!("sheet.field.{}.item", field.id()), lang)
}

/// The label of a sheet field by its DOM id, in `lang` (the id itself if unknown): names the
/// fields in a refused copy / download / print ([`SheetNotice::FieldsRefused`]).
pub fn field_label(id: &str, lang: Lang) -> String {
    let key = match id {
        "process-name" | "code-name" | "business-key" | "base" | "cap" | "attempt-timeout"
        | "lease" | "notice-within" => format!("sheet.ui.{id}"),
        "retention-done-days" | "retention-dead-days" => {
            let which = tr(&format!("sheet.ui.{}", id.trim_end_matches("-days")), lang);
            let sep = if lang == Lang::Ja { "：" } else { ": " };
            return format!("{which}{sep}{}", tr("sheet.ui.days", lang));
        }
        _ => match serde_json::from_value::<FieldId>(serde_json::Value::String(id.to_owned())) {
            Ok(f) => format!("sheet.field.{}.item", f.id()),
            Err(_) => return id.to_owned(),
        },
    };
    t!(&key, locale = lang.code()).into_owned()
}

/// What is shown under a field: what to write, why the default (naming the default once the
/// value differs from it: `changed` from `prefill::changed_from_default`), and its findings.
fn notes(
    field: FieldId,
    sheet: &JobSheet,
    changed: &[(FieldId, String)],
    findings: &[Finding],
    lang: Lang,
) -> Html {
    let what = t!(
        format!("sheet.field.{}.what", field.id()),
        locale = lang.code()
    )
    .into_owned();
    let reason = default_reason(field, sheet.decision.outcome, lang).map(|r| {
        match changed.iter().find(|(f, _)| *f == field) {
            Some((_, default)) => t!(
                "sheet.ui.reason-changed",
                locale = lang.code(),
                default = default.as_str(),
                reason = r.as_str()
            )
            .into_owned(),
            None => r,
        }
    });
    html! {
        <>
            <p class="hint">{ what }</p>
            <div class="slot">{ reason.map(|r| html! { <p class="reason"><span aria-hidden="true">{"ⓘ "}</span>{ r }</p> }) }</div>
            <div class="slot">{ for findings.iter().filter(|f| f.field == field && f.code != PROCESS_NAME).map(|f| finding(f, lang)) }</div>
        </>
    }
}

/// The finding shown under the process-name input (the job name's other findings are under the
/// name in code, with the field's notes).
const PROCESS_NAME: &str = "no-process-name";

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

fn keep_choice(
    id: &'static str,
    label: AttrValue,
    k: Keep,
    lang: Lang,
    make: fn(Keep) -> SheetEdit,
    ctx: &AppContext,
) -> Html {
    let days = match k {
        Keep::Days(d) => Some(d),
        Keep::UntilHandled => None,
    };
    let on_kind = {
        let ctx = ctx.clone();
        Callback::from(move |v: String| {
            let next = if v == "days" {
                Keep::Days(days.unwrap_or(30))
            } else {
                Keep::UntilHandled
            };
            ctx.dispatch(Action::EditSheet(make(next)));
        })
    };
    let on_days = {
        let ctx = ctx.clone();
        Callback::from(move |d: u64| {
            ctx.dispatch(Action::EditSheet(make(Keep::Days(
                u32::try_from(d).unwrap_or(u32::MAX),
            ))))
        })
    };
    html! {
        <div class="pair">
            <ChoiceField id={id} label={label.clone()}
                value={if days.is_some() { "days" } else { "until-handled" }}
                options={vec![
                    ("days".into(), tr("sheet.ui.keep-days", lang)),
                    ("until-handled".into(), tr("sheet.ui.keep-until-handled", lang)),
                ]}
                onchange={on_kind} />
            <div class="slot">{ days.map(|d| html! {
                <NumberField id={format!("{id}-days")} label={tr("sheet.ui.days", lang)} unit={tr("sheet.ui.days-unit", lang)}
                    value={u64::from(d)} range={limits::RETENTION_DAYS} {lang} onchange={on_days.clone()} />
            }) }</div>
        </div>
    }
}

/// The sheet screen.
#[component]
pub fn SheetScreen() -> Html {
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let Some(sheet) = ctx.sheet.clone() else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let findings = validate(&sheet, lang);
    let edit = |make: fn(String) -> SheetEdit| {
        let ctx = ctx.clone();
        Callback::from(move |v: String| ctx.dispatch(Action::EditSheet(make(v))))
    };
    let edit_list = |make: fn(Vec<String>) -> SheetEdit| {
        let ctx = ctx.clone();
        Callback::from(move |v: String| ctx.dispatch(Action::EditSheet(make(lines(&v)))))
    };
    let edit_num = |make: fn(u64) -> SheetEdit| {
        let ctx = ctx.clone();
        Callback::from(move |v: u64| ctx.dispatch(Action::EditSheet(make(v))))
    };
    let changed = crate::domain::sheet::prefill::changed_from_default(&sheet, lang);
    let n = |f: FieldId| notes(f, &sheet, &changed, &findings, lang);
    let p = &sheet.process;
    let outcome = sheet.decision.outcome;

    let back = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::ShowDecide))
    };
    let simulate = {
        let ctx = ctx.clone();
        Callback::from(move |_| {
            // Not with a refused value on screen: the simulator would get the last accepted one.
            if crate::ui::sheet::export_bar::allowed(&ctx, crate::ui::state::Output::Simulate) {
                ctx.dispatch(Action::SimulateSheet);
            }
        })
    };
    let load_example = {
        let ctx = ctx.clone();
        let example = if lang == Lang::Ja {
            EXAMPLE_JSON
        } else {
            EXAMPLE_JSON_EN
        };
        Callback::from(move |_| match import_json(example, lang) {
            Ok(s) => {
                ctx.dispatch(Action::LoadSheet(Box::new(s)));
                ctx.dispatch(Action::Notice(Some(SheetNotice::ExampleLoaded)));
            }
            Err(e) => ctx.dispatch(Action::Notice(Some(SheetNotice::Refused(e)))),
        })
    };
    let on_import = {
        let ctx = ctx.clone();
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
                    Ok(text) => match import_json(&text, lang) {
                        Ok(s) => {
                            ctx.dispatch(Action::LoadSheet(Box::new(s)));
                            SheetNotice::Imported
                        }
                        Err(err) => SheetNotice::ImportFailed(err),
                    },
                };
                ctx.dispatch(Action::Notice(Some(notice)));
            });
        })
    };
    let dismiss = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Notice(None)))
    };
    let notice = match &ctx.notice {
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
                <div class="notice info" role="status" data-notice="info"><p>{ n.text(lang, field_label) }</p>
                    <div class="slot">{ undo }</div>
                    <button type="button" class="link" onclick={dismiss.clone()}>{ tr("ui.dismiss", lang) }</button></div>
            }
        }
        Some(n) => html! {
            <div class="notice error-notice" role="alert" data-notice="error"><p>{ n.text(lang, field_label) }</p>
                <button type="button" class="link" onclick={dismiss.clone()}>{ tr("ui.dismiss", lang) }</button></div>
        },
    };

    let wait_stated = p.acceptable_wait_ms.is_some();
    let toggle_wait = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            ctx.dispatch(Action::EditSheet(SheetEdit::AcceptableWait(
                on.then_some(600_000),
            )));
        })
    };
    let facts = html! {
        <fieldset class="section" id="sec-process">
            <legend>{ tr("sheet.ui.sec-process", lang) }</legend>
            // The job name's hint is about both names: above the pair, so the two fields'
            // warnings start level.
            <p class="hint name-pair">{ t!("sheet.field.job-name.what", locale = lang.code()) }</p>
            <div class="grid2">
                <TextField id="process-name" label={tr("sheet.ui.process-name", lang)} value={p.process_name.clone()} onchange={edit(SheetEdit::ProcessName)}>
                    <div class="slot">{ for findings.iter().filter(|f| f.code == PROCESS_NAME).map(|f| finding(f, lang)) }</div>
                </TextField>
                <TextField id="code-name" label={tr("sheet.ui.code-name", lang)} value={p.code_name.clone()} onchange={edit(SheetEdit::CodeName)}>
                    <div class="slot">{ for findings.iter().filter(|f| f.field == FieldId::JobName && f.code != PROCESS_NAME).map(|f| finding(f, lang)) }</div>
                </TextField>
            </div>
            <TextField id="trigger" label={item(FieldId::Trigger, lang)} value={p.trigger.clone()} onchange={edit(SheetEdit::Trigger)}>{ n(FieldId::Trigger) }</TextField>
            <div class="grid2">
                <TextField id="arguments" list=true label={item(FieldId::Arguments, lang)} value={p.arguments.join("\n")} onchange={edit_list(SheetEdit::Arguments)}>
                    <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ n(FieldId::Arguments) }
                </TextField>
                <TextField id="business-key" label={tr("sheet.ui.business-key", lang)} value={p.business_key.clone()} onchange={edit(SheetEdit::BusinessKey)}>
                    <p class="hint">{ tr("sheet.ui.business-key-hint", lang) }</p>
                </TextField>
            </div>
            <div class="sfield" data-field="acceptable-wait-stated">
                <label class="check"><input type="checkbox" id="acceptable-wait-stated" checked={wait_stated} onchange={toggle_wait} />
                    { tr("sheet.ui.wait-stated", lang) }</label>
            </div>
            <div class="slot">{ p.acceptable_wait_ms.map(|ms| html! {
                <DurationField id="acceptable-wait" label={item(FieldId::AcceptableWait, lang)} value_ms={ms}
                    range_ms={limits::ACCEPTABLE_WAIT_MS} {lang} onchange={edit_num(|v| SheetEdit::AcceptableWait(Some(v)))}>
                    { n(FieldId::AcceptableWait) }
                </DurationField>
            }) }</div>
        </fieldset>
    };

    let na = |fields: &[FieldId]| {
        let why = t!(format!("sheet.na.{}", outcome.id()), locale = l).into_owned();
        html! {
            <div class="na" data-na="true">
                <p>{ why }</p>
                <ul>{ for fields.iter().map(|f| html! { <li data-na-field={f.id()}>{ item(*f, lang) }</li> }) }</ul>
            </div>
        }
    };

    let retry = match &sheet.retry {
        None => html! {
            <fieldset class="section" id="sec-retry">
                <legend>{ tr("sheet.ui.sec-retry", lang) }</legend>
                { na(&[FieldId::MaxAttempts, FieldId::WaitStrategy, FieldId::Timeout, FieldId::IdempotencyKey, FieldId::RetryableErrors, FieldId::NonRetryableErrors]) }
            </fieldset>
        },
        Some(r) => {
            let kind_cb = {
                let ctx = ctx.clone();
                Callback::from(move |v: String| {
                    let k = if v == "fixed" {
                        BackoffKind::Fixed
                    } else {
                        BackoffKind::Exponential
                    };
                    ctx.dispatch(Action::EditSheet(SheetEdit::BackoffKind(k)));
                })
            };
            let jitter_cb = {
                let ctx = ctx.clone();
                Callback::from(move |v: String| {
                    let j = match v.as_str() {
                        "full" => Jitter::Full,
                        "equal" => Jitter::Equal,
                        "decorrelated" => Jitter::Decorrelated,
                        _ => Jitter::None,
                    };
                    ctx.dispatch(Action::EditSheet(SheetEdit::Jitter(j)));
                })
            };
            let jitter = match r.backoff.jitter {
                Jitter::None => "none",
                Jitter::Full => "full",
                Jitter::Equal => "equal",
                Jitter::Decorrelated => "decorrelated",
            };
            html! {
                <fieldset class="section" id="sec-retry">
                    <legend>{ tr("sheet.ui.sec-retry", lang) }</legend>
                    <NumberField id="max-attempts" label={item(FieldId::MaxAttempts, lang)} unit={tr("sheet.ui.times", lang)}
                        value={u64::from(r.max_attempts)} range={limits::MAX_ATTEMPTS} {lang} onchange={edit_num(SheetEdit::MaxAttempts)}>
                        { n(FieldId::MaxAttempts) }
                    </NumberField>
                    <div class="sfield-group" data-field="wait-strategy">
                        <h3>{ item(FieldId::WaitStrategy, lang) }</h3>
                        <div class="grid2">
                            <ChoiceField id="backoff-kind" label={tr("sheet.ui.backoff-kind", lang)}
                                value={if r.backoff.kind == BackoffKind::Fixed { "fixed" } else { "exponential" }}
                                options={vec![("exponential".into(), tr("sheet.ui.exponential", lang)), ("fixed".into(), tr("sheet.ui.fixed", lang))]}
                                onchange={kind_cb} />
                            <ChoiceField id="jitter" label={tr("sheet.ui.jitter", lang)} value={jitter}
                                options={vec![
                                    ("none".into(), tr("sheet.ui.jitter-none", lang)),
                                    ("full".into(), tr("sheet.ui.jitter-full", lang)),
                                    ("equal".into(), tr("sheet.ui.jitter-equal", lang)),
                                    ("decorrelated".into(), tr("sheet.ui.jitter-decorrelated", lang)),
                                ]}
                                onchange={jitter_cb} />
                            <DurationField id="base" label={tr("sheet.ui.base", lang)} value_ms={r.backoff.base_ms}
                                range_ms={(limits::BASE_MS.0, limits::BASE_MS.1.min(r.backoff.cap_ms))} {lang} onchange={edit_num(SheetEdit::BaseMs)} />
                            <DurationField id="cap" label={tr("sheet.ui.cap", lang)} value_ms={r.backoff.cap_ms}
                                range_ms={(r.backoff.base_ms, limits::CAP_MS.1)} {lang} onchange={edit_num(SheetEdit::CapMs)} />
                        </div>
                        { n(FieldId::WaitStrategy) }
                    </div>
                    <Timeline sheet={Rc::new(sheet.clone())} />
                    <div class="sfield-group" data-field="timeout">
                        <h3>{ item(FieldId::Timeout, lang) }</h3>
                        <div class="grid2">
                            <DurationField id="attempt-timeout" label={tr("sheet.ui.attempt-timeout", lang)} value_ms={r.attempt_timeout_ms}
                                range_ms={limits::TIMEOUT_MS} {lang} onchange={edit_num(SheetEdit::AttemptTimeoutMs)} />
                            <DurationField id="lease" label={tr("sheet.ui.lease", lang)} value_ms={r.lease_ms}
                                range_ms={limits::TIMEOUT_MS} {lang} onchange={edit_num(SheetEdit::LeaseMs)} />
                        </div>
                        { n(FieldId::Timeout) }
                    </div>
                    <TextField id="idempotency-key" label={item(FieldId::IdempotencyKey, lang)} value={r.idempotency_key.clone()} onchange={edit(SheetEdit::IdempotencyKey)}>
                        { n(FieldId::IdempotencyKey) }
                    </TextField>
                    <div class="grid2">
                        <TextField id="retryable-errors" list=true label={item(FieldId::RetryableErrors, lang)} value={r.retryable_errors.join("\n")} onchange={edit_list(SheetEdit::RetryableErrors)}>
                            <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ n(FieldId::RetryableErrors) }
                        </TextField>
                        <TextField id="non-retryable-errors" list=true label={item(FieldId::NonRetryableErrors, lang)} value={r.non_retryable_errors.join("\n")} onchange={edit_list(SheetEdit::NonRetryableErrors)}>
                            <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ n(FieldId::NonRetryableErrors) }
                        </TextField>
                    </div>
                </fieldset>
            }
        }
    };

    let failure = match &sheet.failure {
        None => html! {
            <fieldset class="section" id="sec-failure">
                <legend>{ tr("sheet.ui.sec-failure", lang) }</legend>
                { na(&[FieldId::DeadLetter, FieldId::Notify, FieldId::Rerun, FieldId::Retention]) }
            </fieldset>
        },
        Some(f) => {
            let last_cb = {
                let ctx = ctx.clone();
                Callback::from(move |v: String| {
                    let k = if v == "clear" {
                        LastErrorOnDone::Clear
                    } else {
                        LastErrorOnDone::Keep
                    };
                    ctx.dispatch(Action::EditSheet(SheetEdit::LastErrorOnDone(k)));
                })
            };
            html! {
                <fieldset class="section" id="sec-failure">
                    <legend>{ tr("sheet.ui.sec-failure", lang) }</legend>
                    <TextField id="dead-letter" label={item(FieldId::DeadLetter, lang)} value={f.dead_letter.clone()} onchange={edit(SheetEdit::DeadLetter)}>{ n(FieldId::DeadLetter) }</TextField>
                    <div class="grid2">
                        <TextField id="notify" label={item(FieldId::Notify, lang)} value={f.notify.clone()} onchange={edit(SheetEdit::Notify)}>{ n(FieldId::Notify) }</TextField>
                        <NumberField id="notice-within" label={tr("sheet.ui.notice-within", lang)} unit={tr("sheet.ui.hours-unit", lang)}
                            value={u64::from(f.notice_within_h)} range={limits::NOTICE_H} {lang} onchange={edit_num(SheetEdit::NoticeWithinH)} />
                    </div>
                    <TextField id="rerun" label={item(FieldId::Rerun, lang)} value={f.rerun.clone()} onchange={edit(SheetEdit::Rerun)}>{ n(FieldId::Rerun) }</TextField>
                    <div class="sfield-group" data-field="retention">
                        <h3>{ item(FieldId::Retention, lang) }</h3>
                        <div class="grid2">
                            { keep_choice("retention-done", tr("sheet.ui.retention-done", lang), f.retention.done, lang, SheetEdit::RetentionDone, &ctx) }
                            { keep_choice("retention-dead", tr("sheet.ui.retention-dead", lang), f.retention.dead, lang, SheetEdit::RetentionDead, &ctx) }
                        </div>
                        <ChoiceField id="last-error" label={tr("sheet.ui.last-error", lang)}
                            value={if f.last_error_on_done == LastErrorOnDone::Clear { "clear" } else { "keep" }}
                            options={vec![("keep".into(), tr("sheet.ui.last-error-keep", lang)), ("clear".into(), tr("sheet.ui.last-error-clear", lang))]}
                            onchange={last_cb} />
                        { n(FieldId::Retention) }
                    </div>
                </fieldset>
            }
        }
    };

    let specific = if let Some(tk) = &sheet.ticket {
        html! {
            <fieldset class="section" id="sec-ticket">
                <legend>{ tr("sheet.ui.sec-ticket", lang) }</legend>
                <TextField id="ticket-states" list=true label={item(FieldId::TicketStates, lang)} value={tk.states.join("\n")} onchange={edit_list(SheetEdit::TicketStates)}>
                    <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ n(FieldId::TicketStates) }
                </TextField>
                <TextField id="ticket-completion" label={item(FieldId::TicketCompletion, lang)} value={tk.completion.clone()} onchange={edit(SheetEdit::TicketCompletion)}>{ n(FieldId::TicketCompletion) }</TextField>
                <DurationField id="poll-interval" label={item(FieldId::PollInterval, lang)} value_ms={tk.poll_interval_ms}
                    range_ms={limits::POLL_MS} {lang} onchange={edit_num(SheetEdit::PollIntervalMs)}>{ n(FieldId::PollInterval) }</DurationField>
            </fieldset>
        }
    } else if let Some(b) = &sheet.batch {
        let overlap_cb = {
            let ctx = ctx.clone();
            Callback::from(move |v: String| {
                let o = match v.as_str() {
                    "replace" => Overlap::Replace,
                    "allow" => Overlap::Allow,
                    _ => Overlap::Forbid,
                };
                ctx.dispatch(Action::EditSheet(SheetEdit::Overlap(o)));
            })
        };
        let missed_cb = {
            let ctx = ctx.clone();
            Callback::from(move |v: String| {
                let m = if v == "skip" {
                    MissedRun::Skip
                } else {
                    MissedRun::RunOnce
                };
                ctx.dispatch(Action::EditSheet(SheetEdit::MissedRun(m)));
            })
        };
        html! {
            <fieldset class="section" id="sec-batch">
                <legend>{ tr("sheet.ui.sec-batch", lang) }</legend>
                <TextField id="schedule" label={item(FieldId::Schedule, lang)} value={b.schedule.clone()} onchange={edit(SheetEdit::Schedule)}>{ n(FieldId::Schedule) }</TextField>
                <div class="grid2">
                    <ChoiceField id="overlap" label={item(FieldId::Overlap, lang)}
                        value={match b.overlap { Overlap::Forbid => "forbid", Overlap::Replace => "replace", Overlap::Allow => "allow" }}
                        options={vec![("forbid".into(), tr("sheet.overlap.forbid", lang)), ("replace".into(), tr("sheet.overlap.replace", lang)), ("allow".into(), tr("sheet.overlap.allow", lang))]}
                        onchange={overlap_cb}>{ n(FieldId::Overlap) }</ChoiceField>
                    <ChoiceField id="missed-run" label={item(FieldId::MissedRun, lang)}
                        value={if b.missed_run == MissedRun::Skip { "skip" } else { "run-once" }}
                        options={vec![("run-once".into(), tr("sheet.missed.run-once", lang)), ("skip".into(), tr("sheet.missed.skip", lang))]}
                        onchange={missed_cb}>{ n(FieldId::MissedRun) }</ChoiceField>
                </div>
                <DurationField id="run-timeout" label={item(FieldId::RunTimeout, lang)} value_ms={b.run_timeout_ms}
                    range_ms={limits::RUN_TIMEOUT_MS} {lang} onchange={edit_num(SheetEdit::RunTimeoutMs)}>{ n(FieldId::RunTimeout) }</DurationField>
                <TextField id="partial-failure" label={item(FieldId::PartialFailure, lang)} value={b.partial_failure.clone()} onchange={edit(SheetEdit::PartialFailure)}>{ n(FieldId::PartialFailure) }</TextField>
            </fieldset>
        }
    } else if let Some(s) = &sheet.sync {
        html! {
            <fieldset class="section" id="sec-sync">
                <legend>{ tr("sheet.ui.sec-sync", lang) }</legend>
                <DurationField id="call-timeout" label={item(FieldId::CallTimeout, lang)} value_ms={s.call_timeout_ms}
                    range_ms={limits::CALL_TIMEOUT_MS} {lang} onchange={edit_num(SheetEdit::CallTimeoutMs)}>{ n(FieldId::CallTimeout) }</DurationField>
                <TextField id="on-timeout" label={item(FieldId::OnTimeout, lang)} value={s.on_timeout.clone()} onchange={edit(SheetEdit::OnTimeout)}>{ n(FieldId::OnTimeout) }</TextField>
            </fieldset>
        }
    } else {
        Html::default()
    };

    // Sheet fields showing a refused value, in page order (the reports come after the fields
    // are drawn, so the page already marks them), first: they are why outputs are refused.
    let refused: Vec<(String, String)> = if ctx.refused.is_empty() {
        Vec::new()
    } else {
        refused_fields("section.sheet")
            .into_iter()
            .filter_map(|id| ctx.refused.iter().find(|(i, _)| *i == id).cloned())
            .collect()
    };
    let summary = if findings.is_empty() && refused.is_empty() {
        html! { <p class="ok" data-findings="0">{ tr("sheet.ui.no-findings", lang) }</p> }
    } else {
        let error_word = tr("sheet.ui.severity-error", lang);
        html! {
            <ul class="findings" data-findings={findings.len().to_string()}>
                { for refused.iter().map(|(id, message)| html! {
                    <li data-refused={id.clone()}><a href={format!("#{id}")}>{ field_label(id, lang) }</a>{ " " }
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
        <section class="sheet" data-outcome={outcome.id()} aria-labelledby="sheet-title">
            <div class="sheet-head">
                <div>
                    <p class="step">{ tr("sheet.ui.kicker", lang) }</p>
                    <h2 id="sheet-title">{ outcome.title(lang) }</h2>
                </div>
                <div class="actions">
                    <button type="button" class="secondary" onclick={back}>{ tr("sheet.ui.back", lang) }</button>
                    if sheet.retry.is_some() {
                        <button type="button" class="secondary" id="simulate-sheet" onclick={simulate}>{ tr("ui.simulate-sheet", lang) }</button>
                    }
                    <button type="button" class="secondary" id="load-example" onclick={load_example}>{ tr("sheet.ui.load-example", lang) }</button>
                    <input type="file" id="import-json" class="visually-hidden" accept=".json,application/json" onchange={on_import} />
                    <label class="button secondary" for="import-json">{ tr("sheet.ui.import", lang) }</label>
                </div>
            </div>
            <div class="slot">{ notice }</div>
            <ExportBar sheet={Rc::new(sheet.clone())} />
            <div class="sheet-grid">
                <div class="sheet-form">
                    { facts }
                    { retry }
                    { failure }
                    { specific }
                </div>
                <aside class="sheet-side" aria-labelledby="findings-title">
                    <h3 id="findings-title">{ tr("sheet.ui.findings", lang) }</h3>
                    { summary }
                    <div class="slot">{ (!refused.is_empty()).then(|| html! {
                        <p class="hint" data-refused-note="true">{ tr("sheet.ui.refused-outputs", lang) }</p>
                    }) }</div>
                </aside>
            </div>
            <PrintView sheet={Rc::new(sheet)} />
        </section>
    }
}

/// A findings-summary link's text: the job name's two findings name their own input
/// ("Process name", "Name in code"), the others their field.
fn link_label(f: &Finding, lang: Lang) -> AttrValue {
    match f.field {
        FieldId::JobName => field_label(anchor(f), lang).into(),
        _ => item(f.field, lang),
    }
}

/// The DOM id to jump to for a finding: its field's input.
fn anchor(f: &Finding) -> &'static str {
    match f.field {
        FieldId::JobName if f.code == PROCESS_NAME => "process-name",
        FieldId::JobName => "code-name",
        FieldId::Trigger => "trigger",
        FieldId::MaxAttempts => "max-attempts",
        FieldId::WaitStrategy => "base",
        FieldId::Timeout => "lease",
        FieldId::IdempotencyKey => "idempotency-key",
        FieldId::NonRetryableErrors => "non-retryable-errors",
        FieldId::RetryableErrors => "retryable-errors",
        FieldId::Notify => "notify",
        FieldId::Retention => "retention-dead",
        FieldId::CallTimeout => "call-timeout",
        _ => "sheet-title",
    }
}

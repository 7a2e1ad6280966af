//! The sheet form's sections: the process facts, retry, failure, and the outcome's own section.
//! Each is drawn from a [`Form`] (the sheet, its findings and the app context) and sends every
//! change as one [`SheetEdit`].

mod call;

use super::{finding, item, tr};
use crate::domain::lang::Lang;
use crate::domain::sheet::check::Finding;
use crate::domain::sheet::edit::base_range;
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::fields::{layers_text, retry_window_text};
use crate::domain::sheet::import::limits;
use crate::domain::sheet::inputs::NO_PROCESS_NAME;
use crate::domain::sheet::prefill::timing::wait_when_stated;
use crate::domain::sheet::prefill::{changed_from_default, default_reason, key_placeholder};
use crate::domain::sheet::{
    BackoffKind, FieldId, Jitter, JobSheet, Keep, LastErrorOnDone, LayerKind, MissedRun, Overlap,
    Polynomial, RetryLayer, RetrySpec,
};
use crate::text::t;
use crate::ui::sheet::form::{
    choice_field, lines, ChoiceProps, DurationField, NumberField, TextField,
};
use crate::ui::state::{Action, AppContext};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What every section is drawn from.
pub struct Form<'a> {
    /// The app state (to send edits).
    pub ctx: &'a AppContext,
    /// The sheet on screen.
    pub sheet: &'a JobSheet,
    /// Its findings ([`crate::domain::sheet::check::validate`]), in `lang`.
    pub findings: &'a [Finding],
    /// The fields whose value differs from the outcome's default, with that default
    /// ([`changed_from_default`]).
    pub changed: Vec<(FieldId, String)>,
    /// The page's language.
    pub lang: Lang,
}

impl<'a> Form<'a> {
    /// The form of `sheet` with its `findings`, in the page's language.
    pub fn new(ctx: &'a AppContext, sheet: &'a JobSheet, findings: &'a [Finding]) -> Form<'a> {
        let lang = ctx.lang;
        Form {
            ctx,
            sheet,
            findings,
            changed: changed_from_default(sheet, lang),
            lang,
        }
    }

    /// Sends a text field's new value as the edit `make` builds.
    fn edit(&self, make: fn(String) -> SheetEdit) -> Callback<String> {
        let ctx = self.ctx.clone();
        Callback::from(move |v: String| ctx.dispatch(Action::EditSheet(make(v))))
    }

    /// Sends a list field's new items (one per line, blanks dropped).
    fn edit_list(&self, make: fn(Vec<String>) -> SheetEdit) -> Callback<String> {
        let ctx = self.ctx.clone();
        Callback::from(move |v: String| ctx.dispatch(Action::EditSheet(make(lines(&v)))))
    }

    /// Sends a number or duration field's new value.
    fn edit_num(&self, make: fn(u64) -> SheetEdit) -> Callback<u64> {
        let ctx = self.ctx.clone();
        Callback::from(move |v: u64| ctx.dispatch(Action::EditSheet(make(v))))
    }

    /// What is shown under a field: what to write, why the default (naming the default once
    /// the value differs from it), and its findings.
    fn notes(&self, field: FieldId) -> Html {
        let lang = self.lang;
        let what = t!(
            format!("sheet.field.{}.what", field.id()),
            locale = lang.code()
        )
        .into_owned();
        let reason = default_reason(field, &self.sheet.decision, lang).map(|r| {
            match self.changed.iter().find(|(f, _)| *f == field) {
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
                <div class="slot">{ for self.findings.iter().filter(|f| f.field == field && f.code != NO_PROCESS_NAME).map(|f| finding(f, lang)) }</div>
            </>
        }
    }

    /// A section that does not apply to the outcome: why, and the fields it would hold.
    fn na(&self, fields: &[FieldId]) -> Html {
        let lang = self.lang;
        let outcome = self.sheet.decision.outcome;
        let why = t!(format!("sheet.na.{}", outcome.id()), locale = lang.code()).into_owned();
        html! {
            <div class="na" data-na="true">
                <p>{ why }</p>
                <ul>{ for fields.iter().map(|f| html! { <li data-na-field={f.id()}>{ item(*f, lang) }</li> }) }</ul>
            </div>
        }
    }
}

/// A retention choice (kept for some days, or until handled) with its day count.
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
            { choice_field(ChoiceProps { id: AttrValue::from(id), label: AttrValue::from(label.clone()), value: AttrValue::from(if days.is_some() { "days" } else { "until-handled" }), options: vec![
                    ("days".into(), tr("sheet.ui.keep-days", lang)),
                    ("until-handled".into(), tr("sheet.ui.keep-until-handled", lang)),
                ], onchange: on_kind, children: Html::default() }) }
            <div class="slot">{ days.map(|d| html! {
                <NumberField id={format!("{id}-days")} label={tr("sheet.ui.days", lang)} unit={tr("sheet.ui.days-unit", lang)}
                    value={u64::from(d)} range={limits::RETENTION_DAYS} {lang} onchange={on_days.clone()} />
            }) }</div>
        </div>
    }
}

/// The process facts: the job's two names, trigger, arguments, business key, acceptable wait.
pub fn process(form: &Form) -> Html {
    let lang = form.lang;
    let p = &form.sheet.process;
    let wait_stated = p.acceptable_wait_ms.is_some();
    let toggle_wait = {
        let ctx = form.ctx.clone();
        // Ticked, it starts from the questions' response-time target when they give one.
        let stated = wait_when_stated(&form.sheet.decision);
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            ctx.dispatch(Action::EditSheet(SheetEdit::AcceptableWait(
                on.then_some(stated),
            )));
        })
    };
    html! {
        <fieldset class="section" id="sec-process">
            <legend>{ tr("sheet.ui.sec-process", lang) }</legend>
            // The job name's hint is about both names: above the pair, so the two fields'
            // warnings start level.
            <p class="hint name-pair">{ t!("sheet.field.job-name.what", locale = lang.code()) }</p>
            <div class="grid2">
                <TextField id="process-name" label={tr("sheet.ui.process-name", lang)} value={p.process_name.clone()} onchange={form.edit(SheetEdit::ProcessName)}>
                    <div class="slot">{ for form.findings.iter().filter(|f| f.code == NO_PROCESS_NAME).map(|f| finding(f, lang)) }</div>
                </TextField>
                <TextField id="code-name" label={tr("sheet.ui.code-name", lang)} value={p.code_name.clone()} onchange={form.edit(SheetEdit::CodeName)}>
                    <div class="slot">{ for form.findings.iter().filter(|f| f.field == FieldId::JobName && f.code != NO_PROCESS_NAME).map(|f| finding(f, lang)) }</div>
                </TextField>
            </div>
            <TextField id="trigger" label={item(FieldId::Trigger, lang)} value={p.trigger.clone()} onchange={form.edit(SheetEdit::Trigger)}>{ form.notes(FieldId::Trigger) }</TextField>
            <div class="grid2">
                <TextField id="arguments" list=true label={item(FieldId::Arguments, lang)} value={p.arguments.join("\n")} onchange={form.edit_list(SheetEdit::Arguments)}>
                    <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ form.notes(FieldId::Arguments) }
                </TextField>
                <TextField id="business-key" label={tr("sheet.ui.business-key", lang)} value={p.business_key.clone()} onchange={form.edit(SheetEdit::BusinessKey)}>
                    { form.notes(FieldId::BusinessKey) }
                </TextField>
            </div>
            <div class="sfield" data-field="acceptable-wait-stated">
                <label class="check"><input type="checkbox" id="acceptable-wait-stated" checked={wait_stated} onchange={toggle_wait} />
                    { tr("sheet.ui.wait-stated", lang) }</label>
            </div>
            <div class="slot">{ p.acceptable_wait_ms.map(|ms| html! {
                <DurationField id="acceptable-wait" label={item(FieldId::AcceptableWait, lang)} value_ms={ms}
                    range_ms={limits::ACCEPTABLE_WAIT_MS} {lang} onchange={form.edit_num(|v| SheetEdit::AcceptableWait(Some(v)))}>
                    { form.notes(FieldId::AcceptableWait) }
                </DurationField>
            }) }</div>
        </fieldset>
    }
}

/// The retry section (or why it does not apply).
pub fn retry(form: &Form) -> Html {
    let lang = form.lang;
    match &form.sheet.retry {
        None => html! {
            <fieldset class="section" id="sec-retry">
                <legend>{ tr("sheet.ui.sec-retry", lang) }</legend>
                { form.na(&[FieldId::MaxAttempts, FieldId::WaitStrategy, FieldId::Timeout, FieldId::IdempotencyKey, FieldId::RetryableErrors, FieldId::NonRetryableErrors]) }
            </fieldset>
        },
        Some(r) => {
            let kind_cb = {
                let ctx = form.ctx.clone();
                Callback::from(move |v: String| {
                    let k = match v.as_str() {
                        "fixed" => BackoffKind::Fixed,
                        "polynomial" => BackoffKind::Polynomial(Polynomial {
                            exponent: 4,
                            first_n: 0,
                        }),
                        _ => BackoffKind::Exponential,
                    };
                    ctx.dispatch(Action::EditSheet(SheetEdit::BackoffKind(k)));
                })
            };
            let kind = match r.backoff.kind {
                BackoffKind::Fixed => "fixed",
                BackoffKind::Exponential => "exponential",
                BackoffKind::Polynomial(_) => "polynomial",
            };
            let jitter_cb = {
                let ctx = form.ctx.clone();
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
                        value={u64::from(r.max_attempts)} range={limits::MAX_ATTEMPTS} {lang} onchange={form.edit_num(SheetEdit::MaxAttempts)}>
                        { form.notes(FieldId::MaxAttempts) }
                    </NumberField>
                    <div class="sfield-group" data-field="wait-strategy">
                        <h3>{ item(FieldId::WaitStrategy, lang) }</h3>
                        <div class="grid2">
                            { choice_field(ChoiceProps { id: AttrValue::from("backoff-kind"), label: AttrValue::from(tr("sheet.ui.backoff-kind", lang)), value: AttrValue::from(kind), options: vec![("exponential".into(), tr("sheet.ui.exponential", lang)), ("fixed".into(), tr("sheet.ui.fixed", lang)), ("polynomial".into(), tr("sheet.ui.polynomial", lang))], onchange: kind_cb, children: Html::default() }) }
                            { choice_field(ChoiceProps { id: AttrValue::from("jitter"), label: AttrValue::from(tr("sheet.ui.jitter", lang)), value: AttrValue::from(jitter), options: vec![
                                    ("none".into(), tr("sheet.ui.jitter-none", lang)),
                                    ("full".into(), tr("sheet.ui.jitter-full", lang)),
                                    ("equal".into(), tr("sheet.ui.jitter-equal", lang)),
                                    ("decorrelated".into(), tr("sheet.ui.jitter-decorrelated", lang)),
                                ], onchange: jitter_cb, children: Html::default() }) }
                            <DurationField id="base" label={tr(if kind == "polynomial" { "sheet.ui.poly-base" } else { "sheet.ui.base" }, lang)} value_ms={r.backoff.base_ms}
                                range_ms={(base_range(r.backoff.kind).0, base_range(r.backoff.kind).1.min(r.backoff.cap_ms))} {lang} onchange={form.edit_num(SheetEdit::BaseMs)} />
                            <DurationField id="cap" label={tr("sheet.ui.cap", lang)} value_ms={r.backoff.cap_ms}
                                range_ms={(r.backoff.base_ms.max(limits::CAP_MS.0), limits::CAP_MS.1)} {lang} onchange={form.edit_num(SheetEdit::CapMs)} />
                        </div>
                        { polynomial_fields(form, r) }
                        { form.notes(FieldId::WaitStrategy) }
                    </div>
                    { crate::ui::sheet::timeline::timeline(form.sheet, lang) }
                    <div class="sfield-group" data-field="retry-window">
                        <h3>{ item(FieldId::RetryWindow, lang) }</h3>
                        <p class="value" data-testid="retry-window">{ retry_window_text(r, lang) }</p>
                        { form.notes(FieldId::RetryWindow) }
                    </div>
                    <div class="sfield-group" data-field="timeout">
                        <h3>{ item(FieldId::Timeout, lang) }</h3>
                        <div class="grid2">
                            <DurationField id="attempt-timeout" label={tr("sheet.ui.attempt-timeout", lang)} value_ms={r.attempt_timeout_ms}
                                range_ms={limits::TIMEOUT_MS} {lang} onchange={form.edit_num(SheetEdit::AttemptTimeoutMs)} />
                            <DurationField id="lease" label={tr("sheet.ui.lease", lang)} value_ms={r.lease_ms}
                                range_ms={limits::TIMEOUT_MS} {lang} onchange={form.edit_num(SheetEdit::LeaseMs)} />
                        </div>
                        { form.notes(FieldId::Timeout) }
                    </div>
                    <TextField id="idempotency-key" label={item(FieldId::IdempotencyKey, lang)} value={r.idempotency_key.clone()} onchange={form.edit(SheetEdit::IdempotencyKey)}
                        placeholder={AttrValue::from(key_placeholder(&form.sheet.process, lang))}>
                        { form.notes(FieldId::IdempotencyKey) }
                    </TextField>
                    { layers_editor(form, r) }
                    { retention_field(form, r) }
                    <div class="grid2">
                        <TextField id="retryable-errors" list=true label={item(FieldId::RetryableErrors, lang)} value={r.retryable_errors.join("\n")} onchange={form.edit_list(SheetEdit::RetryableErrors)}>
                            <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ form.notes(FieldId::RetryableErrors) }
                        </TextField>
                        <TextField id="non-retryable-errors" list=true label={item(FieldId::NonRetryableErrors, lang)} value={r.non_retryable_errors.join("\n")} onchange={form.edit_list(SheetEdit::NonRetryableErrors)}>
                            <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ form.notes(FieldId::NonRetryableErrors) }
                        </TextField>
                    </div>
                </fieldset>
            }
        }
    }
}

/// A polynomial backoff's power and the index at the first retry (shown for it only), and
/// what the simulator runs instead.
fn polynomial_fields(form: &Form, r: &RetrySpec) -> Html {
    let lang = form.lang;
    let BackoffKind::Polynomial(p) = r.backoff.kind else {
        return Html::default();
    };
    let send = |make: fn(Polynomial, u64) -> Polynomial| {
        let ctx = form.ctx.clone();
        Callback::from(move |v: u64| {
            let k = BackoffKind::Polynomial(make(p, v));
            ctx.dispatch(Action::EditSheet(SheetEdit::BackoffKind(k)));
        })
    };
    let on_exp = send(|p, v| Polynomial {
        exponent: u32::try_from(v).unwrap_or(u32::MAX),
        ..p
    });
    let on_n = send(|p, v| Polynomial {
        first_n: u32::from(v == 1),
        ..p
    });
    let on_n = Callback::from(move |v: String| on_n.emit(u64::from(v == "1")));
    html! {
        <>
            <div class="grid2">
                <NumberField id="poly-exponent" label={tr("sheet.ui.poly-exponent", lang)} unit=""
                    value={u64::from(p.exponent)} range={limits::POLY_EXPONENT} {lang} onchange={on_exp} />
                { choice_field(ChoiceProps { id: AttrValue::from("poly-first-n"), label: tr("sheet.ui.poly-first-n", lang), value: AttrValue::from(p.first_n.to_string()), options: vec![("0".into(), "0".into()), ("1".into(), "1".into())], onchange: on_n, children: Html::default() }) }
            </div>
            <p class="hint" data-note="poly-sim">{ tr("sheet.ui.poly-sim", lang) }</p>
        </>
    }
}

/// The other layers that retry (add, change, remove rows) and the total calls.
fn layers_editor(form: &Form, r: &RetrySpec) -> Html {
    let lang = form.lang;
    let send = {
        let ctx = form.ctx.clone();
        move |layers: Vec<RetryLayer>| ctx.dispatch(Action::EditSheet(SheetEdit::Layers(layers)))
    };
    let add = {
        let (send, layers) = (send.clone(), r.layers.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = layers.clone();
            next.push(RetryLayer {
                layer: LayerKind::Sdk,
                attempts: 3,
                what: String::new(),
            });
            send(next);
        })
    };
    let row = |i: usize, l: &RetryLayer| {
        let change = |f: fn(&mut RetryLayer, String)| {
            let (send, layers) = (send.clone(), r.layers.clone());
            Callback::from(move |v: String| {
                let mut next = layers.clone();
                if let Some(x) = next.get_mut(i) {
                    f(x, v);
                }
                send(next);
            })
        };
        let on_kind = change(|x, v| {
            x.layer = match v.as_str() {
                "queue" => LayerKind::Queue,
                "framework" => LayerKind::Framework,
                _ => LayerKind::Sdk,
            }
        });
        let on_what = change(|x, v| x.what = v);
        let on_attempts = change(|x, v| x.attempts = v.parse().unwrap_or(x.attempts));
        let on_attempts = Callback::from(move |v: u64| on_attempts.emit(v.to_string()));
        let remove = {
            let (send, layers) = (send.clone(), r.layers.clone());
            Callback::from(move |_: MouseEvent| {
                let mut next = layers.clone();
                next.remove(i);
                send(next);
            })
        };
        let kind = match l.layer {
            LayerKind::Queue => "queue",
            LayerKind::Framework => "framework",
            LayerKind::Sdk => "sdk",
        };
        html! {
            <div class="grid2 layer" key={i} data-layer={i.to_string()}>
                { choice_field(ChoiceProps { id: AttrValue::from(format!("layer-{i}-kind")), label: tr("sheet.ui.layer-kind", lang), value: AttrValue::from(kind), options: vec![
                        ("queue".into(), tr("sheet.layer.queue", lang)),
                        ("framework".into(), tr("sheet.layer.framework", lang)),
                        ("sdk".into(), tr("sheet.layer.sdk", lang)),
                    ], onchange: on_kind, children: Html::default() }) }
                <NumberField id={format!("layer-{i}-attempts")} label={tr("sheet.ui.layer-attempts", lang)} unit={tr("sheet.ui.times", lang)}
                    value={u64::from(l.attempts)} range={limits::LAYER_ATTEMPTS} {lang} onchange={on_attempts} />
                <TextField id={format!("layer-{i}-what")} label={tr("sheet.ui.layer-what", lang)} value={l.what.clone()} onchange={on_what} />
                <div class="sfield"><button type="button" class="secondary" id={format!("layer-{i}-remove")} onclick={remove}>{ tr("sheet.ui.layer-remove", lang) }</button></div>
            </div>
        }
    };
    html! {
        <div class="sfield-group" data-field="retry-layers">
            <h3>{ item(FieldId::RetryLayers, lang) }</h3>
            { for r.layers.iter().enumerate().map(|(i, l)| row(i, l)) }
            <button type="button" class="secondary" id="layer-add" onclick={add}
                disabled={r.layers.len() >= limits::LAYERS}>{ tr("sheet.ui.layer-add", lang) }</button>
            <p class="value user-text" data-testid="total-calls">{ layers_text(r, lang) }</p>
            { form.notes(FieldId::RetryLayers) }
        </div>
    }
}

/// The queue's retention: stated or not, and how long.
fn retention_field(form: &Form, r: &RetrySpec) -> Html {
    let lang = form.lang;
    let toggle = {
        let ctx = form.ctx.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            // Stated: SQS's default retention, 4 days, to start from.
            ctx.dispatch(Action::EditSheet(SheetEdit::QueueRetentionMs(
                on.then_some(345_600_000),
            )));
        })
    };
    html! {
        <div class="sfield-group" data-field="queue-retention-group">
            <h3>{ item(FieldId::QueueRetention, lang) }</h3>
            <label class="check"><input type="checkbox" id="queue-retention-stated" checked={r.queue_retention_ms.is_some()} onchange={toggle} />
                { tr("sheet.ui.retention-stated", lang) }</label>
            <div class="slot">{ r.queue_retention_ms.map(|ms| html! {
                <DurationField id="queue-retention" label={item(FieldId::QueueRetention, lang)} value_ms={ms}
                    range_ms={limits::QUEUE_RETENTION_MS} {lang} onchange={form.edit_num(|v| SheetEdit::QueueRetentionMs(Some(v)))} />
            }) }</div>
            { form.notes(FieldId::QueueRetention) }
        </div>
    }
}

/// The failure section: dead letter, notice, rerun, retention (or why it does not apply).
pub fn failure(form: &Form) -> Html {
    let lang = form.lang;
    match &form.sheet.failure {
        None => html! {
            <fieldset class="section" id="sec-failure">
                <legend>{ tr("sheet.ui.sec-failure", lang) }</legend>
                { form.na(&[FieldId::DeadLetter, FieldId::Notify, FieldId::Rerun, FieldId::Retention]) }
            </fieldset>
        },
        Some(f) => {
            let last_cb = {
                let ctx = form.ctx.clone();
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
                    <TextField id="dead-letter" label={item(FieldId::DeadLetter, lang)} value={f.dead_letter.clone()} onchange={form.edit(SheetEdit::DeadLetter)}>{ form.notes(FieldId::DeadLetter) }</TextField>
                    <div class="grid2">
                        <TextField id="notify" label={item(FieldId::Notify, lang)} value={f.notify.clone()} onchange={form.edit(SheetEdit::Notify)}>{ form.notes(FieldId::Notify) }</TextField>
                        <NumberField id="notice-within" label={tr("sheet.ui.notice-within", lang)} unit={tr("sheet.ui.hours-unit", lang)}
                            value={u64::from(f.notice_within_h)} range={limits::NOTICE_H} {lang} onchange={form.edit_num(SheetEdit::NoticeWithinH)} />
                    </div>
                    <TextField id="rerun" label={item(FieldId::Rerun, lang)} value={f.rerun.clone()} onchange={form.edit(SheetEdit::Rerun)}>{ form.notes(FieldId::Rerun) }</TextField>
                    <div class="sfield-group" data-field="retention">
                        <h3>{ item(FieldId::Retention, lang) }</h3>
                        <div class="grid2">
                            { keep_choice("retention-done", tr("sheet.ui.retention-done", lang), f.retention.done, lang, SheetEdit::RetentionDone, form.ctx) }
                            { keep_choice("retention-dead", tr("sheet.ui.retention-dead", lang), f.retention.dead, lang, SheetEdit::RetentionDead, form.ctx) }
                        </div>
                        { choice_field(ChoiceProps { id: AttrValue::from("last-error"), label: AttrValue::from(tr("sheet.ui.last-error", lang)), value: AttrValue::from(if f.last_error_on_done == LastErrorOnDone::Clear { "clear" } else { "keep" }), options: vec![("keep".into(), tr("sheet.ui.last-error-keep", lang)), ("clear".into(), tr("sheet.ui.last-error-clear", lang))], onchange: last_cb, children: Html::default() }) }
                        { form.notes(FieldId::Retention) }
                    </div>
                </fieldset>
            }
        }
    }
}

/// The outcome's own section: the ticket's, the batch's or the synchronous call's (none for
/// the others).
pub fn outcome_specific(form: &Form) -> Html {
    let lang = form.lang;
    if let Some(tk) = &form.sheet.ticket {
        html! {
            <fieldset class="section" id="sec-ticket">
                <legend>{ tr("sheet.ui.sec-ticket", lang) }</legend>
                <TextField id="ticket-states" list=true label={item(FieldId::TicketStates, lang)} value={tk.states.join("\n")} onchange={form.edit_list(SheetEdit::TicketStates)}>
                    <p class="hint">{ tr("sheet.ui.one-per-line", lang) }</p>{ form.notes(FieldId::TicketStates) }
                </TextField>
                <TextField id="ticket-completion" label={item(FieldId::TicketCompletion, lang)} value={tk.completion.clone()} onchange={form.edit(SheetEdit::TicketCompletion)}>{ form.notes(FieldId::TicketCompletion) }</TextField>
                <DurationField id="poll-interval" label={item(FieldId::PollInterval, lang)} value_ms={tk.poll_interval_ms}
                    range_ms={limits::POLL_MS} {lang} onchange={form.edit_num(SheetEdit::PollIntervalMs)}>{ form.notes(FieldId::PollInterval) }</DurationField>
            </fieldset>
        }
    } else if let Some(b) = &form.sheet.batch {
        let overlap_cb = {
            let ctx = form.ctx.clone();
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
            let ctx = form.ctx.clone();
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
                <TextField id="schedule" label={item(FieldId::Schedule, lang)} value={b.schedule.clone()} onchange={form.edit(SheetEdit::Schedule)}>{ form.notes(FieldId::Schedule) }</TextField>
                <TextField id="time-zone" label={item(FieldId::TimeZone, lang)} value={b.time_zone.clone()} onchange={form.edit(SheetEdit::TimeZone)}>{ form.notes(FieldId::TimeZone) }</TextField>
                <div class="grid2">
                    { choice_field(ChoiceProps { id: AttrValue::from("overlap"), label: AttrValue::from(item(FieldId::Overlap, lang)), value: AttrValue::from(match b.overlap { Overlap::Forbid => "forbid", Overlap::Replace => "replace", Overlap::Allow => "allow" }), options: vec![("forbid".into(), tr("sheet.overlap.forbid", lang)), ("replace".into(), tr("sheet.overlap.replace", lang)), ("allow".into(), tr("sheet.overlap.allow", lang))], onchange: overlap_cb, children: html! { { form.notes(FieldId::Overlap) } } }) }
                    { choice_field(ChoiceProps { id: AttrValue::from("missed-run"), label: AttrValue::from(item(FieldId::MissedRun, lang)), value: AttrValue::from(if b.missed_run == MissedRun::Skip { "skip" } else { "run-once" }), options: vec![("run-once".into(), tr("sheet.missed.run-once", lang)), ("skip".into(), tr("sheet.missed.skip", lang))], onchange: missed_cb, children: html! { { form.notes(FieldId::MissedRun) } } }) }
                </div>
                <DurationField id="run-timeout" label={item(FieldId::RunTimeout, lang)} value_ms={b.run_timeout_ms}
                    range_ms={limits::RUN_TIMEOUT_MS} {lang} onchange={form.edit_num(SheetEdit::RunTimeoutMs)}>{ form.notes(FieldId::RunTimeout) }</DurationField>
                <TextField id="partial-failure" label={item(FieldId::PartialFailure, lang)} value={b.partial_failure.clone()} onchange={form.edit(SheetEdit::PartialFailure)}>{ form.notes(FieldId::PartialFailure) }</TextField>
            </fieldset>
        }
    } else if let Some(s) = &form.sheet.sync {
        html! {
            <fieldset class="section" id="sec-sync">
                <legend>{ tr("sheet.ui.sec-sync", lang) }</legend>
                <DurationField id="call-timeout" label={item(FieldId::CallTimeout, lang)} value_ms={s.call_timeout_ms}
                    range_ms={limits::CALL_TIMEOUT_MS} {lang} onchange={form.edit_num(SheetEdit::CallTimeoutMs)}>{ form.notes(FieldId::CallTimeout) }</DurationField>
                <TextField id="on-timeout" label={item(FieldId::OnTimeout, lang)} value={s.on_timeout.clone()} onchange={form.edit(SheetEdit::OnTimeout)}>{ form.notes(FieldId::OnTimeout) }</TextField>
                { call::call_fields(form, s.call.as_ref()) }
            </fieldset>
        }
    } else {
        Html::default()
    }
}

//! The external call of a `sync-timeout` sheet: whether it changes something, its idempotency
//! key and how the provider takes it, and how an unknown outcome is settled. Every change sends
//! the whole call as one [`SheetEdit::Call`]; a header or field name the sheet refuses is told
//! by the sheet's notice, naming the field and what is allowed.

use super::{item, tr, Form};
use crate::domain::flowchart::Outcome;
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::prefill::{default_call, key_placeholder};
use crate::domain::sheet::{CallEffect, ExternalCall, FieldId, KeyVia, Resolve};
use crate::ui::sheet::form::{choice_field, ChoiceProps, TextField};
use crate::ui::state::Action;
use yew::prelude::*;

/// Sends `call` changed by `change`, as a callback of the control's new text.
fn send(
    form: &Form,
    call: &ExternalCall,
    change: fn(&mut ExternalCall, String),
) -> Callback<String> {
    let (ctx, call) = (form.ctx.clone(), call.clone());
    Callback::from(move |v: String| {
        let mut next = call.clone();
        change(&mut next, v);
        ctx.dispatch(Action::EditSheet(SheetEdit::Call(next)));
    })
}

/// The call's fields, or (a `sync-timeout` sheet from a file that does not describe it) the
/// button that describes it with the defaults.
pub(super) fn call_fields(form: &Form, call: Option<&ExternalCall>) -> Html {
    let lang = form.lang;
    let Some(c) = call else {
        if form.sheet.decision.outcome != Outcome::SyncTimeout {
            return Html::default();
        }
        let onclick = {
            let ctx = form.ctx.clone();
            let call = default_call(&form.sheet.process, lang);
            Callback::from(move |_: MouseEvent| {
                ctx.dispatch(Action::EditSheet(SheetEdit::Call(call.clone())))
            })
        };
        // The button has the effect's input id: the finding's link goes to it.
        return html! {
            <div class="sfield-group" data-field="call-effect">
                <h3>{ item(FieldId::CallEffect, lang) }</h3>
                <button type="button" class="secondary" id="call-effect" {onclick}>{ tr("sheet.ui.call-describe", lang) }</button>
                { form.notes(FieldId::CallEffect) }
            </div>
        };
    };
    let effect = send(form, c, |x, v| {
        x.effect = if v == "reads-only" {
            CallEffect::ReadsOnly
        } else {
            CallEffect::Changes
        }
    });
    let via = send(form, c, |x, v| {
        let name = match &x.key_via {
            KeyVia::Header(n) | KeyVia::Field(n) => n.clone(),
            KeyVia::NotSupported => String::new(),
        };
        x.key_via = match v.as_str() {
            "field" if name.is_empty() => KeyVia::Field("idempotency_key".into()),
            "field" => KeyVia::Field(name),
            "not-supported" => KeyVia::NotSupported,
            _ if name.is_empty() => KeyVia::Header("Idempotency-Key".into()),
            _ => KeyVia::Header(name),
        }
    });
    let (via_value, name) = match &c.key_via {
        KeyVia::Header(n) => ("header", Some(n.clone())),
        KeyVia::Field(n) => ("field", Some(n.clone())),
        KeyVia::NotSupported => ("not-supported", None),
    };
    let resolve = send(form, c, |x, v| {
        x.resolve = match v.as_str() {
            "query-status" => Resolve::QueryStatus,
            "reconcile-later" => Resolve::ReconcileLater,
            _ => Resolve::RetrySameKey,
        }
    });
    let resolve_value = match c.resolve {
        Resolve::RetrySameKey => "retry-same-key",
        Resolve::QueryStatus => "query-status",
        Resolve::ReconcileLater => "reconcile-later",
    };
    let effect_value = match c.effect {
        CallEffect::Changes => "changes",
        CallEffect::ReadsOnly => "reads-only",
    };
    html! {
        <>
            { choice_field(ChoiceProps { id: AttrValue::from("call-effect"), label: item(FieldId::CallEffect, lang), value: AttrValue::from(effect_value), options: vec![
                    ("changes".into(), tr("sheet.ui.call-effect-changes", lang)),
                    ("reads-only".into(), tr("sheet.ui.call-effect-reads", lang)),
                ], onchange: effect, children: form.notes(FieldId::CallEffect) }) }
            <div class="sfield-group" data-field="call-key-group">
                <TextField id="call-key" label={item(FieldId::CallKey, lang)} value={c.idempotency_key.clone()}
                    onchange={send(form, c, |x, v| x.idempotency_key = v)}
                    placeholder={AttrValue::from(key_placeholder(&form.sheet.process, lang))} />
                <div class="grid2">
                    { choice_field(ChoiceProps { id: AttrValue::from("call-key-via"), label: tr("sheet.ui.call-key-via", lang), value: AttrValue::from(via_value), options: vec![
                            ("header".into(), tr("sheet.ui.call-key-via-header", lang)),
                            ("field".into(), tr("sheet.ui.call-key-via-field", lang)),
                            ("not-supported".into(), tr("sheet.ui.call-key-via-none", lang)),
                        ], onchange: via, children: Html::default() }) }
                    <div class="slot">{ name.map(|n| html! {
                        <TextField id="call-key-name" label={tr("sheet.ui.call-key-name", lang)} value={n}
                            onchange={send(form, c, |x, v| match &mut x.key_via {
                                KeyVia::Header(n) | KeyVia::Field(n) => *n = v,
                                KeyVia::NotSupported => {}
                            })} />
                    }) }</div>
                </div>
                { form.notes(FieldId::CallKey) }
            </div>
            { choice_field(ChoiceProps { id: AttrValue::from("call-resolve"), label: item(FieldId::CallResolve, lang), value: AttrValue::from(resolve_value), options: vec![
                    ("retry-same-key".into(), tr("sheet.ui.call-resolve-retry", lang)),
                    ("query-status".into(), tr("sheet.ui.call-resolve-query", lang)),
                    ("reconcile-later".into(), tr("sheet.ui.call-resolve-reconcile", lang)),
                ], onchange: resolve, children: form.notes(FieldId::CallResolve) }) }
        </>
    }
}

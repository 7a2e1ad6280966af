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
    // One callback for the three choices: their values are distinct.
    let choose = send(form, c, |x, v| match v.as_str() {
        "changes" => x.effect = CallEffect::Changes,
        "reads-only" => x.effect = CallEffect::ReadsOnly,
        "header" => x.key_via = KeyVia::Header,
        "field" => x.key_via = KeyVia::Field,
        "not-supported" => x.key_via = KeyVia::NotSupported,
        "query-status" => x.resolve = Resolve::QueryStatus,
        "reconcile-later" => x.resolve = Resolve::ReconcileLater,
        _ => x.resolve = Resolve::RetrySameKey,
    });
    let choice = |id: &'static str,
                  label: AttrValue,
                  value: &'static str,
                  options: &[(&'static str, &str)],
                  notes: Html| {
        choice_field(ChoiceProps {
            id: AttrValue::from(id),
            label,
            value: AttrValue::from(value),
            options: options
                .iter()
                .map(|&(v, key)| (AttrValue::from(v), tr(key, lang)))
                .collect(),
            onchange: choose.clone(),
            children: notes,
        })
    };
    let effect_value = match c.effect {
        CallEffect::Changes => "changes",
        CallEffect::ReadsOnly => "reads-only",
    };
    let via_value = match c.key_via {
        KeyVia::Header => "header",
        KeyVia::Field => "field",
        KeyVia::NotSupported => "not-supported",
    };
    let resolve_value = match c.resolve {
        Resolve::RetrySameKey => "retry-same-key",
        Resolve::QueryStatus => "query-status",
        Resolve::ReconcileLater => "reconcile-later",
    };
    html! {
        <>
            { choice("call-effect", item(FieldId::CallEffect, lang), effect_value, &[
                ("changes", "sheet.call.effect.changes"), ("reads-only", "sheet.call.effect.reads-only"),
            ], form.notes(FieldId::CallEffect)) }
            <div class="sfield-group" data-field="call-key-group">
                <TextField id="call-key" label={item(FieldId::CallKey, lang)} value={c.idempotency_key.clone()}
                    onchange={send(form, c, |x, v| x.idempotency_key = v)}
                    placeholder={AttrValue::from(key_placeholder(&form.sheet.process, lang))} />
                <div class="grid2">
                    { choice("call-key-via", tr("sheet.ui.call-key-via", lang), via_value, &[
                        ("header", "sheet.ui.call-key-via-header"), ("field", "sheet.ui.call-key-via-field"),
                        ("not-supported", "sheet.ui.call-key-via-none"),
                    ], Html::default()) }
                    if c.key_via != KeyVia::NotSupported {
                        <TextField id="call-key-name" label={tr("sheet.ui.call-key-name", lang)} value={c.key_name.clone()}
                            onchange={send(form, c, |x, v| x.key_name = v)} />
                    }
                </div>
                { form.notes(FieldId::CallKey) }
            </div>
            { choice("call-resolve", item(FieldId::CallResolve, lang), resolve_value, &[
                ("retry-same-key", "sheet.ui.call-resolve-retry"), ("query-status", "sheet.ui.call-resolve-query"),
                ("reconcile-later", "sheet.ui.call-resolve-reconcile"),
            ], form.notes(FieldId::CallResolve)) }
        </>
    }
}

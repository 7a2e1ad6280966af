//! The sheet form's "Load and capacity" section. Each part of the section is a small group of
//! inputs ([`LoadPart`]) described by `domain::sheet::load_form`, which also reads them: what
//! is typed stays on screen whether it is taken or refused, a refused input says why (naming
//! the field and its range) and is reported like every other refused field, and only a part
//! that reads is sent as an edit. The computed capacity row is the analytic answer's line.

use super::{item, tr};
use crate::domain::duration::{exact, UNITS};
use crate::domain::lang::Lang;
use crate::domain::sheet::edit::SheetEdit;
use crate::domain::sheet::inputs::label_of;
use crate::domain::sheet::load::{limits, LoadSpec};
use crate::domain::sheet::load_form::{Ctl, Part};
use crate::domain::sheet::load_text::{capacity_text, load_of};
use crate::domain::sheet::FieldId;
use crate::text::t;
use crate::ui::sheet::sections::Form;
use crate::ui::state::{Action, AppContext};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Reports each input's refusal (DOM id, message) to the app state, as the other fields do:
/// set while refused, cleared when taken again or gone.
#[hook]
fn use_report_refused_all(reports: Vec<(&'static str, Option<String>)>) {
    let ctx = use_context::<AppContext>();
    use_effect_with(reports, move |reports| {
        let shown: Vec<&'static str> = reports
            .iter()
            .filter(|(_, e)| e.is_some())
            .map(|(id, _)| *id)
            .collect();
        if let Some(c) = &ctx {
            for (id, e) in reports.iter().filter(|(_, e)| e.is_some()) {
                c.dispatch(Action::FieldRefused((*id).into(), e.clone()));
            }
        }
        move || {
            if let Some(c) = ctx {
                for id in shown {
                    c.dispatch(Action::FieldRefused(id.into(), None));
                }
            }
        }
    });
}

/// Properties of [`LoadPart`].
#[derive(Properties, PartialEq, Clone)]
pub struct PartProps {
    /// Which part.
    pub part: Part,
    /// The section on the sheet now.
    pub load: LoadSpec,
    /// The wizard's p95, ms (the handler p95's placeholder).
    pub wizard_p95: Option<u64>,
    /// The acceptable wait, ms (the wait target's placeholder).
    pub acceptable_wait: Option<u64>,
    /// The page's language.
    pub lang: Lang,
}

/// One part's inputs.
#[component]
pub fn LoadPart(props: &PartProps) -> Html {
    let ctx = use_context::<AppContext>();
    let (part, lang, load) = (props.part, props.lang, props.load);
    let texts = part.texts(&load);
    let raws = use_state(|| texts.clone());
    // The section when the user started editing this part: a refused text puts it back.
    let editing = use_mut_ref(|| None::<LoadSpec>);
    {
        let (raws, editing, wizard) = (raws.clone(), editing.clone(), props.wizard_p95);
        // Only this part's texts: an edit of another part leaves a refused text here as typed.
        use_effect_with(texts, move |texts| {
            // Follow the sheet when it changes from outside (import, undo, the example).
            let same = part.read(&raws, &load, wizard, lang).ok() == Some(load);
            if editing.borrow().is_none() && !same && *raws != *texts {
                raws.set(texts.clone());
            }
        });
    }
    let errors = part
        .read(&raws, &load, props.wizard_p95, lang)
        .err()
        .unwrap_or_default();
    let inputs = part.inputs();
    use_report_refused_all(
        (0..inputs.len())
            .map(|i| {
                let e = errors.iter().find(|(j, _)| *j == i);
                (inputs[i].id, e.map(|(_, e)| e.clone()))
            })
            .collect(),
    );
    let change = |i: usize| {
        let (raws, editing, ctx, wizard) =
            (raws.clone(), editing.clone(), ctx.clone(), props.wizard_p95);
        Callback::from(move |text: String| {
            let mut next = (*raws).clone();
            next[i] = text;
            let send = match part.read(&next, &load, wizard, lang) {
                Ok(l) => Some(l),
                Err(_) => *editing.borrow(),
            };
            if let (Some(l), Some(c)) = (send.filter(|l| *l != load), &ctx) {
                c.dispatch(Action::EditSheet(SheetEdit::Load(l)));
            }
            raws.set(next);
        })
    };
    let onfocus = {
        let editing = editing.clone();
        Callback::from(move |_: FocusEvent| *editing.borrow_mut() = Some(load))
    };
    let onblur = {
        let editing = editing.clone();
        Callback::from(move |_: FocusEvent| *editing.borrow_mut() = None)
    };
    let placeholder = |id: &str| match id {
        "handler-p95" => props.wizard_p95.map(|ms| exact(ms, lang)),
        "target-wait" => props.acceptable_wait.map(|ms| exact(ms, lang)),
        _ => None,
    };
    let view = View {
        inputs,
        raws: &raws,
        lang,
        errors: &errors,
        change: &change,
        focus: (onfocus, onblur),
        placeholders: inputs.iter().map(|i| placeholder(i.id)).collect(),
    };
    html! { <>{ for (0..inputs.len()).filter(|i| inputs[*i].when.is_none_or(|w| raws[0] == w)).map(|i| field(&view, i)) }</> }
}

/// What a part's inputs are drawn from.
struct View<'a> {
    inputs: &'static [crate::domain::sheet::load_form::LoadInput],
    raws: &'a [String],
    lang: Lang,
    errors: &'a [(usize, String)],
    change: &'a dyn Fn(usize) -> Callback<String>,
    focus: (Callback<FocusEvent>, Callback<FocusEvent>),
    placeholders: Vec<Option<String>>,
}

impl View<'_> {
    fn error(&self, i: usize) -> Option<String> {
        self.errors
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, e)| e.clone())
    }

    /// A select of input `j` among `opts` (value, text).
    fn select(&self, j: usize, opts: Vec<(String, String)>, label: Option<String>) -> Html {
        let cb = (self.change)(j);
        let onchange = Callback::from(move |e: Event| {
            cb.emit(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let (onfocus, onblur) = self.focus.clone();
        html! {
            <select id={self.inputs[j].id} {onchange} aria-label={label} {onfocus} {onblur}>
                { for opts.into_iter().map(|(v, l)| html! { <option selected={self.raws[j] == v} value={v.clone()}>{ l }</option> }) }
            </select>
        }
    }
}

/// Input `i` with its label, unit (a rate's unit select after its number) and refusal.
fn field(v: &View, i: usize) -> Html {
    let (inp, lang) = (v.inputs[i], v.lang);
    let l = lang.code();
    let unit = match inp.ctl {
        Ctl::Count(key) => t!(format!("sheet.ui.{key}"), locale = l).into_owned(),
        Ctl::Duration(ms) => {
            let u = UNITS.iter().find(|u| u.0 == ms).unwrap_or(&UNITS[0]);
            (if lang == Lang::Ja { u.2 } else { u.1 }).to_owned()
        }
        _ => "%".to_owned(),
    };
    let control = match inp.ctl {
        Ctl::Per => return Html::default(),
        Ctl::Choice(opts) => {
            let opts = opts.iter().map(|o| {
                let text = t!(format!("sheet.ui.load-opt-{o}"), locale = l).into_owned();
                ((*o).to_owned(), text)
            });
            v.select(i, opts.collect(), None)
        }
        _ => {
            let cb = (v.change)(i);
            let oninput = Callback::from(move |e: InputEvent| {
                cb.emit(e.target_unchecked_into::<HtmlInputElement>().value())
            });
            let per = v.inputs.get(i + 1).filter(|n| n.ctl == Ctl::Per).map(|_| {
                let opts = ["second", "minute", "hour"].map(|p| {
                    (
                        p.to_owned(),
                        t!(format!("sheet.ui.load-per-{p}"), locale = l).into_owned(),
                    )
                });
                v.select(
                    i + 1,
                    opts.to_vec(),
                    Some(tr("sheet.ui.unit", lang).to_string()),
                )
            });
            let (onfocus, onblur) = v.focus.clone();
            html! {
                <span class="with-unit">
                    <input id={inp.id} type="text" autocomplete="off" value={v.raws[i].clone()} {oninput}
                        placeholder={v.placeholders[i].clone()} {onfocus} {onblur}
                        aria-invalid={v.error(i).is_some().to_string()} />
                    <span class="unit">{ unit }</span>
                    { per.unwrap_or_default() }
                </span>
            }
        }
    };
    html! {
        <div class="sfield" data-field={inp.id}>
            <label for={inp.id}>{ label_of(inp.id, lang) }</label>
            { control }
            <div class="slot">{ v.error(i).map(|e| html! { <p class="error" role="alert">{ e }</p> }) }</div>
        </div>
    }
}

/// The "Load and capacity" section of an asynchronous sheet (nothing for the others).
pub fn section(form: &Form) -> Html {
    let (lang, sheet) = (form.lang, form.sheet);
    let Some(load) = load_of(sheet) else {
        return Html::default();
    };
    let wizard_p95 = LoadSpec::wizard_p95_ms(sheet);
    let acceptable_wait = sheet.process.acceptable_wait_ms;
    let part =
        |p: Part| html! { <LoadPart part={p} {load} {wizard_p95} {acceptable_wait} {lang} /> };
    let hint = |text: String| html! { <p class="hint">{ text }</p> };
    let l = lang.code();
    let group = |field: FieldId, body: Html, why: String| {
        html! {
            <div class="sfield-group" data-field={field.id()}>
                <h3>{ item(field, lang) }</h3>
                <div class="grid2">{ body }</div>
                { hint(why) }
            </div>
        }
    };
    let lock = {
        let ctx = form.ctx.clone();
        Callback::from(move |e: Event| {
            let mut next = load;
            next.downstream.exclusive_lock =
                e.target_unchecked_into::<HtmlInputElement>().checked();
            ctx.dispatch(Action::EditSheet(SheetEdit::Load(next)));
        })
    };
    let p95_why = wizard_p95
        .map(|ms| t!("sheet.ui.load-why-p95", locale = l, p95 = exact(ms, lang)).into_owned());
    let wait_why = match acceptable_wait {
        Some(ms) => t!(
            "sheet.ui.load-why-target-wait",
            locale = l,
            wait = exact(ms, lang)
        ),
        None => t!("sheet.ui.load-why-target-none", locale = l),
    };
    html! {
        <fieldset class="section" id="sec-load">
            <legend>{ tr("sheet.ui.sec-load", lang) }</legend>
            { hint(tr("sheet.ui.load-intro", lang).to_string()) }
            { group(FieldId::ArrivalRate, html! { <>{ part(Part::Arrival) }{ part(Part::Peak) }</> }, tr("sheet.ui.load-why-arrival", lang).to_string()) }
            { group(FieldId::Burst, part(Part::Burst), t!("sheet.ui.load-why-burst", locale = l, max = crate::domain::number::group_thousands(limits::BURST_JOBS)).into_owned()) }
            { group(FieldId::HandlerTime, part(Part::Handler), tr("sheet.ui.load-why-handler", lang).to_string()) }
            <div class="slot">{ p95_why.map(hint) }</div>
            { group(FieldId::FailureRate, part(Part::Failure), tr("sheet.ui.load-why-failure", lang).to_string()) }
            { group(FieldId::DownstreamLimits, html! { <>
                { part(Part::DownstreamRate) }{ part(Part::RateBurst) }{ part(Part::DownstreamConcurrency) }
                <div class="sfield" data-field="downstream-lock">
                    <label class="check"><input type="checkbox" id="downstream-lock" checked={load.downstream.exclusive_lock} onchange={lock} />
                        { label_of("downstream-lock", lang) }</label>
                </div>
            </> }, tr("sheet.ui.load-why-downstream", lang).to_string()) }
            { group(FieldId::OurLimit, part(Part::OurLimit), tr("sheet.ui.load-why-our-limit", lang).to_string()) }
            { group(FieldId::CapacityTargets, html! { <>{ part(Part::TargetWait) }{ part(Part::DrainWithin) }</> }, wait_why.into_owned()) }
            { group(FieldId::Workers, html! { <>{ part(Part::Workers) }{ part(Part::Concurrency) }</> }, tr("sheet.ui.load-why-workers", lang).to_string()) }
            <div class="sfield-group" data-field="capacity">
                <h3>{ item(FieldId::Capacity, lang) }</h3>
                <p class="value" data-testid="capacity">{ capacity_text(sheet, lang) }</p>
                { hint(t!("sheet.field.capacity.what", locale = l).into_owned()) }
            </div>
        </fieldset>
    }
}

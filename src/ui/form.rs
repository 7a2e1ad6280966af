//! Form controls for the sheet: text, list, whole-number, duration and choice fields. Each
//! keeps what the user typed, parses it, and only reports a value that parses; a bad value
//! shows a message naming the field and the allowed range, and the sheet keeps its last good
//! value.

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use rust_i18n::t;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Properties shared by the fields: ids, label, hint.
#[derive(Properties, PartialEq, Clone)]
pub struct TextProps {
    /// The DOM id of the control (also `data-field` for tests).
    pub id: AttrValue,
    /// The field's label.
    pub label: AttrValue,
    /// The current value.
    pub value: AttrValue,
    /// Called with the new text on every input.
    pub onchange: Callback<String>,
    /// Several lines (a textarea) instead of one.
    #[prop_or_default]
    pub multiline: bool,
    /// Extra content below the control (hint, reason, findings).
    #[prop_or_default]
    pub children: Html,
}

/// A text field.
#[component]
pub fn TextField(props: &TextProps) -> Html {
    let onchange = props.onchange.clone();
    let input = if props.multiline {
        let oninput = Callback::from(move |e: InputEvent| {
            onchange.emit(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        });
        html! { <textarea id={props.id.clone()} rows="3" value={props.value.clone()} {oninput} /> }
    } else {
        let oninput = Callback::from(move |e: InputEvent| {
            onchange.emit(e.target_unchecked_into::<HtmlInputElement>().value())
        });
        html! { <input id={props.id.clone()} type="text" value={props.value.clone()} {oninput} /> }
    };
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            { input }
            <div class="slot">{ props.children.clone() }</div>
        </div>
    }
}

/// Splits a textarea into list items: one per line, blank lines dropped.
pub fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Properties of [`NumberField`].
#[derive(Properties, PartialEq, Clone)]
pub struct NumberProps {
    /// The DOM id of the control.
    pub id: AttrValue,
    /// The field's label.
    pub label: AttrValue,
    /// The unit shown after the control, e.g. "h".
    pub unit: AttrValue,
    /// The current (valid) value.
    pub value: u64,
    /// Smallest and largest allowed value.
    pub range: (u64, u64),
    /// UI language for the error message.
    pub lang: Lang,
    /// Called with a value inside `range`.
    pub onchange: Callback<u64>,
    /// Extra content below the control.
    #[prop_or_default]
    pub children: Html,
}

fn range_error(label: &str, min: u64, max: u64, unit: &str, lang: Lang) -> String {
    t!(
        "sheet.ui.range-error",
        locale = lang.code(),
        field = label,
        min = group_thousands(min).replace(' ', "\u{a0}"),
        max = group_thousands(max).replace(' ', "\u{a0}"),
        unit = unit
    )
    .into_owned()
}

/// A whole-number field with a unit and an allowed range.
#[component]
pub fn NumberField(props: &NumberProps) -> Html {
    let raw = use_state(|| props.value.to_string());
    {
        // Follow the value when it changes from outside (import, prefill).
        let raw = raw.clone();
        use_effect_with(props.value, move |v| {
            if parse_whole(&raw) != Some(*v) {
                raw.set(v.to_string());
            }
        });
    }
    let (min, max) = props.range;
    let error = match parse_whole(&raw) {
        Some(v) if (min..=max).contains(&v) => None,
        _ => Some(range_error(&props.label, min, max, &props.unit, props.lang)),
    };
    let oninput = {
        let raw = raw.clone();
        let onchange = props.onchange.clone();
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Some(v) = parse_whole(&text).filter(|v| (min..=max).contains(v)) {
                onchange.emit(v);
            }
            raw.set(text);
        })
    };
    let err_id = format!("{}-error", props.id);
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <span class="with-unit">
                <input id={props.id.clone()} type="text" inputmode="numeric" autocomplete="off"
                    value={(*raw).clone()} {oninput}
                    aria-invalid={error.is_some().to_string()}
                    aria-describedby={error.as_ref().map(|_| err_id.clone())} />
                <span class="unit">{ props.unit.clone() }</span>
            </span>
            <div class="slot">{ error.map(|e| html! { <p class="error" id={err_id.clone()} role="alert">{ e }</p> }) }</div>
            <div class="slot">{ props.children.clone() }</div>
        </div>
    }
}

/// Units a duration can be typed in.
const UNITS: [(u64, &str, &str); 4] = [
    (1, "ms", "ミリ秒"),
    (1_000, "s", "秒"),
    (60_000, "min", "分"),
    (3_600_000, "h", "時間"),
];

/// Properties of [`DurationField`].
#[derive(Properties, PartialEq, Clone)]
pub struct DurationProps {
    /// The DOM id of the number input (the unit select gets `<id>-unit`).
    pub id: AttrValue,
    /// The field's label.
    pub label: AttrValue,
    /// The current (valid) value in milliseconds.
    pub value_ms: u64,
    /// Allowed range in milliseconds.
    pub range_ms: (u64, u64),
    /// UI language.
    pub lang: Lang,
    /// Called with a value in milliseconds inside the range.
    pub onchange: Callback<u64>,
    /// Extra content below the control.
    #[prop_or_default]
    pub children: Html,
}

fn best_unit(ms: u64) -> usize {
    (0..UNITS.len())
        .rev()
        .find(|&i| ms.is_multiple_of(UNITS[i].0) && ms >= UNITS[i].0)
        .unwrap_or(0)
}

/// A duration typed as a whole number in a chosen unit (ms, s, min, h).
#[component]
pub fn DurationField(props: &DurationProps) -> Html {
    let unit = use_state(|| best_unit(props.value_ms));
    let raw = use_state(|| (props.value_ms / UNITS[best_unit(props.value_ms)].0).to_string());
    {
        let (raw, unit) = (raw.clone(), unit.clone());
        use_effect_with(props.value_ms, move |v| {
            let current = parse_whole(&raw).and_then(|n| n.checked_mul(UNITS[*unit].0));
            if current != Some(*v) {
                let u = best_unit(*v);
                unit.set(u);
                raw.set((*v / UNITS[u].0).to_string());
            }
        });
    }
    let (min, max) = props.range_ms;
    let lang = props.lang;
    let name = |i: usize| {
        if lang == Lang::Ja {
            UNITS[i].2
        } else {
            UNITS[i].1
        }
    };
    let to_ms = move |text: &str, u: usize| {
        parse_whole(text)
            .and_then(|n| n.checked_mul(UNITS[u].0))
            .filter(|v| (min..=max).contains(v))
    };
    let error = to_ms(&raw, *unit).is_none().then(|| {
        let range = format!(
            "{} – {}",
            crate::domain::duration::exact(min, lang),
            crate::domain::duration::exact(max, lang)
        );
        t!(
            "sheet.ui.duration-error",
            locale = lang.code(),
            field = props.label.as_str(),
            range = range
        )
        .into_owned()
    });
    let oninput = {
        let (raw, unit, onchange) = (raw.clone(), unit.clone(), props.onchange.clone());
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Some(v) = to_ms(&text, *unit) {
                onchange.emit(v);
            }
            raw.set(text);
        })
    };
    let on_unit = {
        let (raw, unit, onchange) = (raw.clone(), unit.clone(), props.onchange.clone());
        Callback::from(move |e: Event| {
            let i: usize = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse()
                .unwrap_or(0);
            let i = i.min(UNITS.len() - 1);
            if let Some(v) = to_ms(&raw, i) {
                onchange.emit(v);
            }
            unit.set(i);
        })
    };
    let err_id = format!("{}-error", props.id);
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <span class="with-unit">
                <input id={props.id.clone()} type="text" inputmode="numeric" autocomplete="off"
                    value={(*raw).clone()} {oninput}
                    aria-invalid={error.is_some().to_string()}
                    aria-describedby={error.as_ref().map(|_| err_id.clone())} />
                <select id={format!("{}-unit", props.id)} onchange={on_unit}
                    aria-label={t!("sheet.ui.unit", locale = lang.code()).into_owned()}>
                    { for (0..UNITS.len()).map(|i| html! {
                        <option value={i.to_string()} selected={i == *unit}>{ name(i) }</option>
                    }) }
                </select>
            </span>
            <div class="slot">{ error.map(|e| html! { <p class="error" id={err_id.clone()} role="alert">{ e }</p> }) }</div>
            <div class="slot">{ props.children.clone() }</div>
        </div>
    }
}

/// Properties of [`ChoiceField`].
#[derive(Properties, PartialEq, Clone)]
pub struct ChoiceProps {
    /// The DOM id of the select.
    pub id: AttrValue,
    /// The field's label.
    pub label: AttrValue,
    /// (value, label) pairs.
    pub options: Vec<(AttrValue, AttrValue)>,
    /// The selected value.
    pub value: AttrValue,
    /// Called with the chosen value.
    pub onchange: Callback<String>,
    /// Extra content below the control.
    #[prop_or_default]
    pub children: Html,
}

/// A choice among fixed options (a native select: keyboard-friendly everywhere).
#[component]
pub fn ChoiceField(props: &ChoiceProps) -> Html {
    let onchange = {
        let cb = props.onchange.clone();
        Callback::from(move |e: Event| {
            cb.emit(e.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <select id={props.id.clone()} {onchange}>
                { for props.options.iter().map(|(v, l)| html! {
                    <option value={v.clone()} selected={*v == props.value}>{ l.clone() }</option>
                }) }
            </select>
            <div class="slot">{ props.children.clone() }</div>
        </div>
    }
}

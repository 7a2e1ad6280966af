//! Form controls for the sheet: text, list, whole-number, duration and choice fields. Each
//! keeps what the user typed, parses it, and only reports a value that parses; a bad value
//! shows a message naming the field and the allowed range, and the sheet keeps its last good
//! value.

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use crate::text::t;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Reports `error` (the message the field shows, if any) to the app state
/// ([`Action::FieldRefused`](crate::ui::state::Action::FieldRefused)), the one record of
/// refused fields (the sheet's checks panel lists them; outputs wait until they are fixed):
/// set while the field refuses, cleared once it accepts its value again or goes away; reported
/// again when the language rewords it.
#[hook]
fn use_report_refused(id: &AttrValue, error: &Option<String>) {
    use crate::ui::state::{Action, AppContext};
    let ctx = use_context::<AppContext>();
    use_effect_with((id.clone(), error.clone()), move |(id, error)| {
        let ctx = ctx.filter(|_| error.is_some());
        if let Some(c) = &ctx {
            c.dispatch(Action::FieldRefused(id.to_string(), error.clone()));
        }
        let id = id.to_string();
        move || {
            if let Some(c) = ctx {
                c.dispatch(Action::FieldRefused(id, None));
            }
        }
    });
}

/// Properties shared by the fields: ids, label, hint.
#[derive(Properties, PartialEq, Clone)]
pub struct TextProps {
    /// The DOM id of the control (also `data-field` for tests).
    pub id: AttrValue,
    /// The field's label.
    pub label: AttrValue,
    /// The current value.
    pub value: AttrValue,
    /// Called with the new text on every input that fits the limits.
    pub onchange: Callback<String>,
    /// Several lines (a textarea) instead of one.
    #[prop_or_default]
    pub multiline: bool,
    /// A list, one item per line (limits: items and characters per item).
    #[prop_or_default]
    pub list: bool,
    /// Extra content below the control (hint, reason, findings).
    #[prop_or_default]
    pub children: Html,
    /// Shown greyed in the empty control, never as a value (e.g. the key's "business key +
    /// purpose" before the business key is typed).
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
}

/// Why `text` does not fit a text field (`None`: it fits). Limits from
/// `domain::sheet::import::limits`: 10 000 characters per text, 100 items per list.
fn text_error(text: &str, list: bool) -> Option<(&'static str, usize, usize)> {
    use crate::domain::sheet::import::limits::{LIST_ITEMS, TEXT_CHARS};
    if list {
        let items = lines(text);
        if items.len() > LIST_ITEMS {
            return Some(("sheet.ui.list-too-long", LIST_ITEMS, items.len()));
        }
        if let Some(n) = items
            .iter()
            .map(|i| i.chars().count())
            .find(|n| *n > TEXT_CHARS)
        {
            return Some(("sheet.ui.text-too-long", TEXT_CHARS, n));
        }
        None
    } else {
        let n = text.chars().count();
        (n > TEXT_CHARS).then_some(("sheet.ui.text-too-long", TEXT_CHARS, n))
    }
}

/// A text field (or a list, one item per line). Text over the limits is not taken: the field
/// says so, naming the limit, and the sheet goes back to the value it had before the edit began.
#[component]
pub fn TextField(props: &TextProps) -> Html {
    let lang = use_context::<crate::ui::state::AppContext>()
        .map(|c| c.lang)
        .unwrap_or_default();
    // Why the text was refused (locale key, limit, count): worded at view time, so a
    // language switch rewords it.
    let error = use_state(|| None::<(&'static str, usize, usize)>);
    // What the user typed: the control shows this, not the sheet's value, so a refused text
    // stays on screen with its message instead of being overwritten.
    let raw = use_state(|| props.value.to_string());
    {
        let (raw, error) = (raw.clone(), error.clone());
        use_effect_with(props.value.clone(), move |v| {
            // Follow the sheet when it changes from outside (import, prefill, undo).
            if error.is_none() && *raw != v.as_str() {
                raw.set(v.to_string());
            }
        });
    }
    // The value when the user started editing: a refused text puts the sheet back to it, as
    // number fields do.
    let at_focus = use_mut_ref(|| None::<String>);
    let onfocus = {
        let (at_focus, value) = (at_focus.clone(), props.value.to_string());
        Callback::from(move |_: FocusEvent| *at_focus.borrow_mut() = Some(value.clone()))
    };
    let onblur = {
        let at_focus = at_focus.clone();
        Callback::from(move |_: FocusEvent| *at_focus.borrow_mut() = None)
    };
    let check = {
        let at_focus = at_focus.clone();
        let (error, onchange, list) = (error.clone(), props.onchange.clone(), props.list);
        let raw = raw.clone();
        move |text: String| match text_error(&text, list) {
            None => {
                error.set(None);
                raw.set(text.clone());
                onchange.emit(text);
            }
            Some((key, max, n)) => {
                if let Some(before) = at_focus.borrow().clone() {
                    onchange.emit(before);
                }
                raw.set(text);
                error.set(Some((key, max, n)));
            }
        }
    };
    let message = (*error).map(|(key, max, n)| {
        t!(
            key,
            locale = lang.code(),
            field = props.label.as_str(),
            max = group_thousands(max as u64),
            n = group_thousands(n as u64)
        )
        .into_owned()
    });
    use_report_refused(&props.id, &message);
    let value = AttrValue::from((*raw).clone());
    let input = if props.multiline || props.list {
        let oninput = Callback::from(move |e: InputEvent| {
            check(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        });
        html! { <textarea id={props.id.clone()} rows="3" {value} {oninput} onfocus={onfocus.clone()} onblur={onblur.clone()} placeholder={props.placeholder.clone()}
        aria-invalid={error.is_some().to_string()} /> }
    } else {
        let oninput = Callback::from(move |e: InputEvent| {
            check(e.target_unchecked_into::<HtmlInputElement>().value())
        });
        html! { <input id={props.id.clone()} type="text" {value} {oninput} {onfocus} {onblur} placeholder={props.placeholder.clone()}
        aria-invalid={error.is_some().to_string()} /> }
    };
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            { input }
            <div class="slot">{ message.map(|e| html! { <p class="error" role="alert">{ e }</p> }) }</div>
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
    /// Called with a value inside `range` (or 0 for an empty field, with `empty_is_zero`).
    pub onchange: Callback<u64>,
    /// An empty field is taken as 0, "none" (e.g. no limiter), and 0 shows as an empty field.
    #[prop_or_default]
    pub empty_is_zero: bool,
    /// Extra content below the control.
    #[prop_or_default]
    pub children: Html,
}

fn range_error(label: &str, min: u64, max: u64, unit: &str, lang: Lang) -> String {
    t!(
        "sheet.ui.range-error",
        locale = lang.code(),
        field = label,
        min = group_thousands(min),
        max = group_thousands(max),
        unit = unit
    )
    // A number without a unit (a power, a count) ends the sentence at once.
    .replace(" .", ".")
}

/// " Until this is fixed, the last accepted value is used: 5 attempts." — said after a refused
/// value's message, so the sheet's summaries using `kept` are not a silent surprise.
fn kept_text(kept: &str, lang: Lang) -> String {
    t!("sheet.refused.kept", locale = lang.code(), kept = kept).into_owned()
}

/// Remembers the field's value when the user starts editing it (`Some` while focused), so a
/// refused value can put the sheet back exactly as it was.
fn focus_tracking(
    editing: &std::rc::Rc<std::cell::RefCell<Option<u64>>>,
    value: u64,
) -> (Callback<FocusEvent>, Callback<FocusEvent>) {
    let on = editing.clone();
    let off = editing.clone();
    (
        Callback::from(move |_| *on.borrow_mut() = Some(value)),
        Callback::from(move |_| *off.borrow_mut() = None),
    )
}

/// Valid: the sheet follows as the user types (live checks). Refused (`None`): the sheet goes
/// back to the value it had before this edit began.
fn commit_or_revert(
    parsed: Option<u64>,
    editing: &std::rc::Rc<std::cell::RefCell<Option<u64>>>,
    onchange: &Callback<u64>,
) {
    match parsed {
        Some(v) => onchange.emit(v),
        None => {
            if let Some(before) = *editing.borrow() {
                onchange.emit(before);
            }
        }
    }
}

/// The value a refused number field keeps, with its unit ("5 attempts"; "none (empty)" for
/// an empty `empty_is_zero` field).
fn kept_number(props: &NumberProps) -> String {
    if props.empty_is_zero && props.value == 0 {
        return t!("sheet.ui.kept-empty", locale = props.lang.code()).into_owned();
    }
    let space = if props.lang == Lang::Ja || props.unit.is_empty() {
        ""
    } else {
        "\u{a0}"
    };
    format!("{}{space}{}", group_thousands(props.value), props.unit)
}

/// A whole-number field with a unit and an allowed range. While the user types, valid values
/// update the sheet at once; a refused value shows a message naming the field and the range
/// and puts the sheet back to the value it had before the edit began.
#[component]
pub fn NumberField(props: &NumberProps) -> Html {
    let empty_is_zero = props.empty_is_zero;
    // The text a value shows as, and the value a text means (`None`: not a whole number).
    let show = move |v: u64| {
        if empty_is_zero && v == 0 {
            String::new()
        } else {
            v.to_string()
        }
    };
    let read = move |text: &str| {
        if empty_is_zero && text.trim().is_empty() {
            Some(0)
        } else {
            parse_whole(text)
        }
    };
    let (min, max) = props.range;
    let fits = move |v: &u64| (min..=max).contains(v) || (empty_is_zero && *v == 0);
    let raw = use_state(|| show(props.value));
    let editing = use_mut_ref(|| None::<u64>);
    {
        // Follow the value when it changes from outside (import, prefill), not while the
        // user is typing in this field.
        let (raw, editing) = (raw.clone(), editing.clone());
        use_effect_with(props.value, move |v| {
            if editing.borrow().is_none() && read(&raw) != Some(*v) {
                raw.set(show(*v));
            }
        });
    }
    let (onfocus, onblur) = focus_tracking(&editing, props.value);
    let error = match read(&raw) {
        Some(v) if fits(&v) => None,
        _ => Some(format!(
            "{}{}{}",
            range_error(&props.label, min, max, &props.unit, props.lang),
            if empty_is_zero {
                t!("sheet.ui.or-empty", locale = props.lang.code()).into_owned()
            } else {
                String::new()
            },
            kept_text(&kept_number(props), props.lang)
        )),
    };
    use_report_refused(&props.id, &error);
    let oninput = {
        let (raw, editing) = (raw.clone(), editing.clone());
        let onchange = props.onchange.clone();
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            commit_or_revert(read(&text).filter(fits), &editing, &onchange);
            raw.set(text);
        })
    };
    let err_id = format!("{}-error", props.id);
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <span class="with-unit">
                <input id={props.id.clone()} type="text" inputmode="numeric" autocomplete="off"
                    value={(*raw).clone()} {oninput} {onfocus} {onblur}
                    aria-invalid={error.is_some().to_string()}
                    aria-describedby={error.as_ref().map(|_| err_id.clone())} />
                <span class="unit">{ props.unit.clone() }</span>
            </span>
            <div class="slot">{ error.map(|e| html! { <p class="error" id={err_id.clone()} role="alert">{ e }</p> }) }</div>
            <div class="slot">{ props.children.clone() }</div>
        </div>
    }
}

// Units a duration can be typed in (the select's value is the index).
use crate::domain::duration::{self, UNITS};

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

/// A duration field's state besides its props: what is typed, in which unit, and the notes
/// about the last unit change.
#[derive(Clone)]
struct DurationState {
    /// The unit on show (an index into [`UNITS`]).
    unit: UseStateHandle<usize>,
    /// The number as typed.
    raw: UseStateHandle<String>,
    /// The value when the user started editing (`Some` while focused).
    editing: std::rc::Rc<std::cell::RefCell<Option<u64>>>,
    /// Whether the number was typed since the unit was last chosen: the unit chosen next is
    /// then the typed number's unit ("30", then "s": 30 s). Otherwise a new unit keeps the
    /// duration (10 s → ms: 10,000 ms), and is refused when the duration is not a whole
    /// number in it (1,500 ms → s), saying so: the number never silently changes meaning.
    typed: std::rc::Rc<std::cell::RefCell<bool>>,
    /// A refused unit change: (the number shown, its unit, the unit refused).
    unit_kept: UseStateHandle<Option<(u64, usize, usize)>>,
    /// A just-typed number read in a newly chosen unit: the duration it now means (ms), said
    /// next to the field so the change of meaning is visible.
    unit_applied: UseStateHandle<Option<u64>>,
}

/// `text` read as a duration ([`duration::parse`]: a unit typed in the text wins, a bare
/// number is in unit `u`), in milliseconds, if it is inside `range` (ms).
fn duration_ms(text: &str, u: usize, (min, max): (u64, u64)) -> Option<u64> {
    duration::parse(text, UNITS[u].0)
        .ok()
        .filter(|v| (min..=max).contains(v))
}

/// A unit's name in `lang`.
fn unit_name(i: usize, lang: Lang) -> &'static str {
    if lang == Lang::Ja {
        UNITS[i].2
    } else {
        UNITS[i].1
    }
}

/// A duration typed as a number in the chosen unit (ms, s, min, h, d), or with its own unit
/// (`2 s`, `１．５分`), which wins over the select.
#[component]
pub fn DurationField(props: &DurationProps) -> Html {
    let st = DurationState {
        unit: use_state(|| best_unit(props.value_ms)),
        raw: use_state(|| (props.value_ms / UNITS[best_unit(props.value_ms)].0).to_string()),
        editing: use_mut_ref(|| None::<u64>),
        typed: use_mut_ref(|| false),
        unit_kept: use_state(|| None::<(u64, usize, usize)>),
        unit_applied: use_state(|| None::<u64>),
    };
    {
        let st = st.clone();
        use_effect_with(props.value_ms, move |v| {
            let current = duration::parse(&st.raw, UNITS[*st.unit].0).ok();
            if st.editing.borrow().is_none() && current != Some(*v) {
                let u = best_unit(*v);
                st.unit.set(u);
                st.raw.set((*v / UNITS[u].0).to_string());
                *st.typed.borrow_mut() = false;
            }
        });
    }
    let lang = props.lang;
    let error = duration_error(&st, props);
    use_report_refused(&props.id, &error);
    let (onfocus, onblur) = focus_tracking(&st.editing, props.value_ms);
    let oninput = {
        let (st, range, onchange) = (st.clone(), props.range_ms, props.onchange.clone());
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            commit_or_revert(duration_ms(&text, *st.unit, range), &st.editing, &onchange);
            *st.typed.borrow_mut() = true;
            st.unit_kept.set(None);
            st.unit_applied.set(None);
            st.raw.set(text);
        })
    };
    let (kept_note, applied_note) = unit_notes(&st, lang);
    let err_id = format!("{}-error", props.id);
    html! {
        <div class="sfield" data-field={props.id.clone()}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <span class="with-unit">
                <input id={props.id.clone()} type="text" autocomplete="off"
                    value={(*st.raw).clone()} {oninput} {onfocus} {onblur}
                    aria-invalid={error.is_some().to_string()}
                    aria-describedby={error.as_ref().map(|_| err_id.clone())} />
                <select id={format!("{}-unit", props.id)} onchange={on_unit_change(&st, props)}
                    aria-label={t!("sheet.ui.unit", locale = lang.code()).into_owned()}>
                    { for (0..UNITS.len()).map(|i| html! {
                        <option value={i.to_string()} selected={i == *st.unit}>{ unit_name(i, lang) }</option>
                    }) }
                </select>
            </span>
            <div class="slot">{ error.map(|e| html! { <p class="error" id={err_id.clone()} role="alert">{ e }</p> }) }</div>
            <div class="slot">{ kept_note.map(|n| html! { <p class="hint unit-kept" role="status" data-unit-kept="true">{ n }</p> }) }</div>
            <div class="slot">{ applied_note.map(|n| html! { <p class="hint unit-applied" role="status" data-unit-applied="true">{ n }</p> }) }</div>
            <div class="slot">{ props.children.clone() }</div>
        </div>
    }
}

/// Why the typed duration is refused (`None`: it is taken), naming the field, the range and
/// the value the sheet keeps meanwhile.
fn duration_error(st: &DurationState, props: &DurationProps) -> Option<String> {
    let (min, max) = props.range_ms;
    let lang = props.lang;
    duration_ms(&st.raw, *st.unit, props.range_ms)
        .is_none()
        .then(|| {
            let range = format!(
                "{} – {}",
                crate::domain::duration::exact(min, lang),
                crate::domain::duration::exact(max, lang)
            );
            let kept = crate::domain::duration::exact(props.value_ms, lang);
            // A duration outside the range is told so, with its value (5 s is a duration:
            // "not a duration" would mislead); any other text, why it is not one.
            let message = match duration::parse(&st.raw, UNITS[*st.unit].0) {
                Ok(ms) => t!(
                    "sheet.ui.duration-range-error",
                    locale = lang.code(),
                    field = props.label.as_str(),
                    value = duration::exact(ms, lang),
                    range = range
                ),
                Err(e) => t!(
                    "sheet.ui.duration-error",
                    locale = lang.code(),
                    field = props.label.as_str(),
                    reason = e.message(lang),
                    range = range
                ),
            };
            format!("{message}{}", kept_text(&kept, lang))
        })
}

/// A new unit chosen: a shown duration is kept and rewritten in it (or the unit is refused when
/// the duration is not whole in it); a number just typed is read in it.
fn on_unit_change(st: &DurationState, props: &DurationProps) -> Callback<Event> {
    let (st, range, onchange) = (st.clone(), props.range_ms, props.onchange.clone());
    Callback::from(move |e: Event| {
        let select = e.target_unchecked_into::<HtmlSelectElement>();
        let i: usize = select.value().parse().unwrap_or(0);
        let i = i.min(UNITS.len() - 1);
        let old = *st.unit;
        // Text with its own unit ("2 s") is a duration whatever the select says: it is
        // converted like a kept value, never re-read as a number in the new unit.
        let own_unit =
            duration::parse(&st.raw, 1).is_ok_and(|a| duration::parse(&st.raw, 1_000) == Ok(a));
        let was_typed = std::mem::replace(&mut *st.typed.borrow_mut(), false) && !own_unit;
        // A refused number (out of range, or not a number) is not a duration to convert: the
        // text stays as typed and is only checked again in the new unit.
        match duration_ms(&st.raw, old, range) {
            // Keep the duration, written in the new unit.
            Some(v) if !was_typed && v % UNITS[i].0 == 0 => {
                st.raw.set((v / UNITS[i].0).to_string());
                st.unit_kept.set(None);
                st.unit_applied.set(None);
                st.unit.set(i);
            }
            // Not whole in the new unit: the unit stays, and the field says why.
            Some(v) if !was_typed => {
                select.set_value(&old.to_string());
                st.unit_kept.set(Some((v / UNITS[old].0, old, i)));
                st.unit_applied.set(None);
            }
            // A number just typed (or no number yet): the new unit is its unit.
            _ => {
                let v = duration_ms(&st.raw, i, range);
                if let Some(v) = v {
                    onchange.emit(v);
                }
                st.unit_kept.set(None);
                st.unit_applied.set(v.filter(|_| i != old));
                st.unit.set(i);
            }
        }
    })
}

/// The notes after a unit change: (the unit was refused, the typed number now means this).
fn unit_notes(st: &DurationState, lang: Lang) -> (Option<String>, Option<String>) {
    let kept = (*st.unit_kept).map(|(n, old, new)| {
        t!(
            "ui.unit-kept",
            locale = lang.code(),
            value = format!("{} {}", group_thousands(n), unit_name(old, lang)),
            unit = unit_name(new, lang),
            old = unit_name(old, lang)
        )
        .into_owned()
    });
    let applied = (*st.unit_applied).map(|v| {
        let value = format!("{} {}", st.raw.as_str(), unit_name(*st.unit, lang));
        let exact = crate::domain::duration::exact(v, lang);
        // "90 min (90 min)" says nothing twice: the exact form only when it reads differently.
        let bare = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        if bare(&value) == bare(&exact) {
            t!("ui.unit-applied-same", locale = lang.code(), value = value).into_owned()
        } else {
            t!(
                "ui.unit-applied",
                locale = lang.code(),
                value = value,
                exact = exact
            )
            .into_owned()
        }
    });
    (kept, applied)
}

/// What [`choice_field`] draws.
#[derive(PartialEq, Clone)]
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
    pub children: Html,
}

/// A choice among fixed options (a native select: keyboard-friendly everywhere). A plain
/// function, not a component (it holds no state; each component carries its own lifecycle
/// code in the first load).
pub fn choice_field(props: ChoiceProps) -> Html {
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
            <div class="slot">{ props.children }</div>
        </div>
    }
}

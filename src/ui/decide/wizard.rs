//! One question at a time: the question card, the answers so far, progress and the notice
//! about answers dropped by a change.

use crate::domain::duration;
use crate::domain::flowchart::Answer;
use crate::domain::number::group_thousands;
use crate::domain::{Lang, QuestionId, Timing, TimingError, TimingField};
use crate::text::t;
use crate::ui::state::{Action, AppContext};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// How the `within-seconds` question is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Direct,
    Numbers,
}

/// Properties of [`QuestionCard`].
#[derive(Properties, PartialEq)]
pub struct QuestionCardProps {
    /// The question on screen.
    pub question: QuestionId,
    /// Move keyboard focus to the question's heading when it appears.
    pub autofocus: bool,
}

fn yes_no(v: bool, lang: Lang) -> String {
    t!(
        if v { "answer.yes" } else { "answer.no" },
        locale = lang.code()
    )
    .into_owned()
}

/// Reads a millisecond field with the domain's rule ([`Timing::parse_field`]: a bare number
/// of ms or a number with a unit, `2 s`, `1.5 min`, `２秒`); the error names the field, why
/// the text is not a duration when it is not one, and the allowed range.
fn parse_ms(raw: &str, field: TimingField, label: &str, lang: Lang) -> Result<u64, String> {
    let (min, max) = (
        group_thousands(field.min()),
        group_thousands(Timing::MAX_MS),
    );
    if let Err(e) = duration::parse(raw, 1) {
        return Err(t!(
            "ui.error-duration",
            locale = lang.code(),
            field = label,
            reason = e.message(lang),
            min = min,
            max = max
        )
        .into_owned());
    }
    Timing::parse_field(field, raw).ok_or_else(|| {
        t!(
            "ui.error-number",
            locale = lang.code(),
            field = label,
            min = min,
            max = max
        )
        .into_owned()
    })
}

/// The two timing fields read together: the timing, or each field's error (`None`: that
/// field is fine).
type TimingRead = Result<Timing, (Option<String>, Option<String>)>;

fn read_timing(target_raw: &str, p95_raw: &str, lang: Lang) -> TimingRead {
    let l = lang.code();
    let tr = parse_ms(
        target_raw,
        TimingField::Target,
        &t!("ui.target-ms", locale = l),
        lang,
    );
    let pr = parse_ms(
        p95_raw,
        TimingField::P95,
        &t!("ui.p95-ms", locale = l),
        lang,
    );
    match (tr, pr) {
        (Ok(t), Ok(p)) => Timing::new(t, p).map_err(|e: TimingError| (Some(e.to_string()), None)),
        (t, p) => Err((t.err(), p.err())),
    }
}

/// The card asking one question: why it matters, yes / no (or numbers for
/// `within-seconds`), back and next.
#[component]
pub fn QuestionCard(props: &QuestionCardProps) -> Html {
    let q = props.question;
    let ctx = use_context::<AppContext>();
    let previous = ctx.as_ref().and_then(|c| c.answers.get(q));
    let selected = use_state(|| previous.map(Answer::value));
    let mode = use_state(|| match previous {
        Some(Answer::Derived(_)) => Mode::Numbers,
        _ => Mode::Direct,
    });
    let (t0, p0) = match previous {
        Some(Answer::Derived(t)) => (t.target_ms.to_string(), t.p95_ms.to_string()),
        _ => (String::new(), String::new()),
    };
    let target_raw = use_state(|| t0);
    let p95_raw = use_state(|| p0);
    let show_errors = use_state(|| false);
    let heading = use_node_ref();
    {
        let heading = heading.clone();
        let autofocus = props.autofocus;
        use_effect_with(q, move |_| {
            if let Some(h) = heading.cast::<web_sys::HtmlElement>().filter(|_| autofocus) {
                let _ = h.focus();
            }
        });
    }
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let step_no = ctx
        .evaluation()
        .path
        .iter()
        .position(|s| s.question == q)
        .unwrap_or(ctx.evaluation().path.len())
        + 1;

    let timing = read_timing(&target_raw, &p95_raw, lang);
    let numbers = q == QuestionId::WithinSeconds && *mode == Mode::Numbers;
    let answer: Option<Answer> = if numbers {
        timing.as_ref().ok().map(|t| Answer::Derived(*t))
    } else {
        selected.map(Answer::Given)
    };
    let onsubmit = {
        let ctx = ctx.clone();
        let show_errors = show_errors.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match answer {
                Some(a) => ctx.dispatch(Action::Answer(q, a)),
                None => show_errors.set(true),
            }
        })
    };
    let on_back = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Back))
    };
    let can_go_back = q != crate::domain::flowchart::START;
    let modes = if q == QuestionId::WithinSeconds {
        mode_switch(&mode, &show_errors, lang)
    } else {
        Html::default()
    };
    let body = if numbers {
        let fields = TimingFields {
            target_raw: &target_raw,
            p95_raw: &p95_raw,
            show_errors: *show_errors,
        };
        timing_numbers(&fields, &timing, lang)
    } else {
        choices(q, &selected, &show_errors, lang)
    };

    html! {
        <form class="card question" data-question={q.id()} {onsubmit}>
            <p class="step">{ t!("ui.step", locale = l, n = step_no) }</p>
            <h2 ref={heading} tabindex="-1" id={format!("q-{}-title", q.id())}>{ q.text(lang) }</h2>
            <p class="why" id={format!("why-{}", q.id())}>
                <strong>{ t!("ui.why", locale = l) }{ t!("ui.colon", locale = l) }</strong>{ q.why(lang) }
            </p>
            { modes }
            { body }
            <div class="actions">
                <div class="slot">{ can_go_back.then(|| html! {
                    <button type="button" class="secondary" onclick={on_back.clone()}>{ t!("ui.back", locale = l) }</button>
                }) }</div>
                <button type="submit" class="primary">{ t!("ui.next", locale = l) }</button>
            </div>
        </form>
    }
}

/// The yes / no choice of `q`, with "pick one" once an empty answer was submitted.
fn choices(
    q: QuestionId,
    selected: &UseStateHandle<Option<bool>>,
    show_errors: &UseStateHandle<bool>,
    lang: Lang,
) -> Html {
    let radio = |value: bool| {
        let checked = **selected == Some(value);
        let (selected, show_errors) = (selected.clone(), show_errors.clone());
        let id = format!("q-{}-{}", q.id(), if value { "yes" } else { "no" });
        let onchange = Callback::from(move |_| {
            selected.set(Some(value));
            show_errors.set(false);
        });
        html! {
            <label class="choice" for={id.clone()}>
                <input type="radio" id={id} name={format!("q-{}", q.id())}
                    value={if value { "yes" } else { "no" }}
                    {checked} {onchange} />
                <span>{ yes_no(value, lang) }</span>
            </label>
        }
    };
    let missing = **show_errors && selected.is_none();
    html! {
        <fieldset class="choices" aria-describedby={format!("why-{}", q.id())}>
            <legend class="visually-hidden">{ q.text(lang) }</legend>
            { radio(true) }
            { radio(false) }
            <div class="slot">{ missing.then(|| html! { <p class="error" role="alert">{ t!("ui.pick-one", locale = lang.code()) }</p> }) }</div>
        </fieldset>
    }
}

/// How `within-seconds` is answered: directly, or from the two timing numbers.
fn mode_switch(
    mode: &UseStateHandle<Mode>,
    show_errors: &UseStateHandle<bool>,
    lang: Lang,
) -> Html {
    let mode_radio = |m: Mode, key: &'static str| {
        let checked = **mode == m;
        let (mode, show_errors) = (mode.clone(), show_errors.clone());
        let id = format!("mode-{key}");
        let onchange = Callback::from(move |_| {
            mode.set(m);
            show_errors.set(false);
        });
        html! {
            <label class="mode" for={id.clone()}>
                <input type="radio" id={id} name="within-mode" {checked} {onchange} />
                <span>{ t!(format!("ui.mode-{key}"), locale = lang.code()) }</span>
            </label>
        }
    };
    html! {
        <div class="modes">
            { mode_radio(Mode::Direct, "direct") }
            { mode_radio(Mode::Numbers, "numbers") }
        </div>
    }
}

/// The two timing fields as typed, and whether to show their errors before anything is typed
/// (after an empty answer was submitted).
struct TimingFields<'a> {
    target_raw: &'a UseStateHandle<String>,
    p95_raw: &'a UseStateHandle<String>,
    show_errors: bool,
}

/// The target and p95 fields, their errors, and the comparison once both are valid.
fn timing_numbers(fields: &TimingFields, timing: &TimingRead, lang: Lang) -> Html {
    let l = lang.code();
    let (te, pe) = match timing {
        Ok(_) => (None, None),
        Err((a, b)) => (a.clone(), b.clone()),
    };
    let target_label = t!("ui.target-ms", locale = l).into_owned();
    let p95_label = t!("ui.p95-ms", locale = l).into_owned();
    html! {
        <div class="numbers">
            { number_field("target-ms", &target_label, fields.target_raw, te, fields.show_errors) }
            { number_field("p95-ms", &p95_label, fields.p95_raw, pe, fields.show_errors) }
            <p class="help">{ t!("ui.numbers-help", locale = l) }</p>
            <div class="slot">{ timing.as_ref().ok().map(|t| html! {
                <p class="comparison" data-within={t.within().to_string()}>{ t.comparison(lang) }</p>
            }) }</div>
        </div>
    }
}

/// One millisecond field; its error shows once something is typed or an answer was submitted.
fn number_field(
    id: &'static str,
    label: &str,
    raw: &UseStateHandle<String>,
    err: Option<String>,
    show_errors: bool,
) -> Html {
    let raw_h = raw.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        raw_h.set(e.target_unchecked_into::<HtmlInputElement>().value());
    });
    let show = show_errors || !raw.is_empty();
    let err = err.filter(|_| show);
    let err_id = format!("{id}-error");
    html! {
        <div class="field">
            <label for={id}>{ label.to_owned() }</label>
            <input id={id} type="text" autocomplete="off"
                value={(**raw).clone()} {oninput}
                aria-invalid={err.is_some().to_string()}
                aria-describedby={err.as_ref().map(|_| err_id.clone())} />
            <div class="slot">{ err.map(|e| html! { <p class="error" id={err_id.clone()} role="alert">{ e }</p> }) }</div>
        </div>
    }
}

/// The answers on the path so far, each with a button to change it.
pub fn answers_list(ctx: &AppContext) -> Html {
    let ctx = ctx.clone();
    let eval = ctx.evaluation();
    if eval.path.is_empty() {
        return Html::default();
    }
    let lang = ctx.lang;
    let l = lang.code();
    let restart = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Restart))
    };
    html! {
        <section class="answers" aria-labelledby="answers-title">
            <h2 id="answers-title">{ t!("ui.your-answers", locale = l) }</h2>
            <ol>
                { for eval.path.iter().map(|step| {
                    let q = step.question;
                    let ctx = ctx.clone();
                    let onclick = Callback::from(move |_| ctx.dispatch(Action::Edit(q)));
                    let detail = match step.answer {
                        Answer::Derived(t) => t.comparison(lang),
                        Answer::Given(v) => yes_no(v, lang),
                    };
                    html! {
                        <li data-answer={q.id()} data-value={if step.yes() { "yes" } else { "no" }}>
                            <span class="q">{ q.text(lang) }</span>
                            <span class="a">{ detail }</span>
                            <button type="button" class="link" {onclick}
                                aria-label={format!("{} — {}", t!("ui.change", locale = l), q.text(lang))}>
                                { t!("ui.change", locale = l) }
                            </button>
                        </li>
                    }
                }) }
            </ol>
            // The result card carries its own "start over".
            <div class="slot">{ eval.outcome().is_none().then(|| html! {
                <button type="button" class="secondary" onclick={restart.clone()}>{ t!("ui.restart", locale = l) }</button>
            }) }</div>
        </section>
    }
}

/// The progress strip: one segment per question on the longest path (five).
pub fn progress(ctx: &AppContext) -> Html {
    let ctx = ctx.clone();
    let eval = ctx.evaluation();
    let n = eval.path.len();
    let done = eval.outcome().is_some();
    let l = ctx.lang.code();
    html! {
        <div class="progress" role="status">
            <ol class="segments" aria-hidden="true">
                { for (0..5).map(|i| {
                    let cls = if i < n { "filled" } else if done { "skipped" } else { "" };
                    html! { <li class={cls}></li> }
                }) }
            </ol>
            <span>{ t!("ui.progress", locale = l, n = n) }</span>
        </div>
    }
}

/// Tells the user which answers were dropped because a change took them off the path.
pub fn dropped_notice(ctx: &AppContext) -> Html {
    let ctx = ctx.clone();
    if ctx.dropped.is_empty() {
        return Html::default();
    }
    let lang = ctx.lang;
    let l = lang.code();
    let dismiss = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::DismissDropped))
    };
    html! {
        <div class="notice dropped" role="status">
            <p>{ t!("ui.dropped", locale = l) }</p>
            <ul>
                { for ctx.dropped.iter().map(|&(q, v)| html! {
                    <li data-dropped={q.id()}><s>{ q.text(lang) }{ " — " }{ yes_no(v, lang) }</s></li>
                }) }
            </ul>
            <button type="button" class="link" onclick={dismiss}>{ t!("ui.dismiss", locale = l) }</button>
        </div>
    }
}

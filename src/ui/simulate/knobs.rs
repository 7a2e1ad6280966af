//! "Your settings" on the simulator screen: the knobs of a
//! [`CustomRun`] grouped as From the sheet / Load /
//! Failures / Downstream, each with its unit and a one-line explanation; sheet knobs say
//! whether they still hold the sheet's value. Numbers use the sheet's form fields (a refused
//! value shows a message naming the range and the settings keep their last good value);
//! cross-field findings come from `CustomRun::validate`. "Reset to the sheet" and
//! "Download config JSON" (the file `modality-advisor simulate --config` reads, written by the
//! export worker).

use crate::domain::lang::Lang;
use crate::domain::sim::core::backoff::{Growth, Jitter};
use crate::domain::sim::setup::config::ErrorClass;
use crate::domain::sim::setup::knobs::{
    with_unit, Ack, ArrivalMode, CrashPoint, CustomRun, DurationMode, FailureMode, Group, KeyFrom,
    Knob, KnobError, Unit,
};
use crate::text::t;
use crate::ui::sheet::form::{choice_field, ChoiceProps, DurationField, NumberField};
use yew::prelude::*;

/// Properties of [`SimKnobs`].
#[derive(Properties, PartialEq)]
pub struct SimKnobsProps {
    /// The settings shown.
    pub value: CustomRun,
    /// What the sheet gives (the "Reset to the sheet" target and the marks).
    pub sheet: CustomRun,
    /// Whether a sheet exists at all (`false`: the defaults are used, and the screen says so).
    pub has_sheet: bool,
    /// The seed the download is written with (`None`: the seed field is invalid).
    pub seed: Option<u64>,
    /// Called with changed settings.
    pub onchange: Callback<CustomRun>,
    /// Called with `None` to go back to the sheet's values.
    pub onreset: Callback<()>,
    /// Why "Our limiter" holds the sheet's value (`our_limit_reason`), when the sheet's Load
    /// and capacity section states a limiter.
    #[prop_or_default]
    pub our_limit_reason: Option<AttrValue>,
}

fn serde_id<T: serde::Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The value of a choice or switch knob as its option id.
fn choice_of(c: &CustomRun, knob: Knob) -> String {
    let onoff = |b: bool| if b { "on" } else { "off" }.to_owned();
    match knob {
        Knob::Growth => serde_id(c.growth),
        Knob::Jitter => serde_id(c.jitter),
        Knob::IdempotencyKey => onoff(c.idempotency_key),
        Knob::ClassifyErrors => onoff(c.classify_errors),
        Knob::Arrivals => serde_id(c.arrivals),
        Knob::Duration => serde_id(c.duration),
        Knob::Failure => serde_id(c.failure),
        Knob::ErrorClass => serde_id(c.error_class),
        Knob::Downstream => onoff(c.downstream),
        Knob::OwnerCheck => onoff(c.owner_check),
        Knob::Ack => serde_id(c.ack),
        Knob::CrashPoint => serde_id(c.crash_point),
        Knob::KeyFrom => serde_id(c.key_from),
        _ => String::new(),
    }
}

/// Option ids and the locale key prefix of their labels.
fn options_of(knob: Knob) -> (&'static [&'static str], &'static str) {
    match knob {
        Knob::Growth => (&["fixed", "exponential"], "knobs.growth."),
        Knob::Jitter => (&["none", "full", "equal", "decorrelated"], "knobs.jitter."),
        Knob::Arrivals => (&["burst", "poisson"], "knobs.arrivals."),
        Knob::Duration => (
            &["none", "fixed", "uniform", "exponential", "lognormal"],
            "knobs.duration.",
        ),
        Knob::Failure => (&["probability", "first-runs"], "knobs.failure."),
        Knob::ErrorClass => (&["retryable", "permanent"], "knobs.error-class."),
        Knob::Ack => (&["after", "before"], "knobs.ack."),
        Knob::CrashPoint => (&["after-effect", "before-effect"], "knobs.crash-point."),
        Knob::KeyFrom => (&["request", "job-id"], "knobs.key-from."),
        _ => (&["on", "off"], "knobs."),
    }
}

fn parse<T: serde::de::DeserializeOwned>(id: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(id.to_owned())).ok()
}

/// A copy with a choice or switch knob set from its option id (unknown ids change nothing).
fn set_choice(c: &CustomRun, knob: Knob, id: &str) -> CustomRun {
    let mut c = c.clone();
    let on = id == "on";
    match knob {
        Knob::Growth => c.growth = parse::<Growth>(id).unwrap_or(c.growth),
        Knob::Jitter => c.jitter = parse::<Jitter>(id).unwrap_or(c.jitter),
        Knob::IdempotencyKey => c.idempotency_key = on,
        Knob::ClassifyErrors => c.classify_errors = on,
        Knob::Arrivals => c.arrivals = parse::<ArrivalMode>(id).unwrap_or(c.arrivals),
        Knob::Duration => c.duration = parse::<DurationMode>(id).unwrap_or(c.duration),
        Knob::Failure => c.failure = parse::<FailureMode>(id).unwrap_or(c.failure),
        Knob::ErrorClass => c.error_class = parse::<ErrorClass>(id).unwrap_or(c.error_class),
        Knob::Downstream => c.downstream = on,
        Knob::OwnerCheck => c.owner_check = on,
        Knob::Ack => c.ack = parse::<Ack>(id).unwrap_or(c.ack),
        Knob::CrashPoint => c.crash_point = parse::<CrashPoint>(id).unwrap_or(c.crash_point),
        Knob::KeyFrom => c.key_from = parse::<KeyFrom>(id).unwrap_or(c.key_from),
        _ => {}
    }
    c
}

/// The knob's value as text (for the "changed (sheet: …)" mark).
fn shown(c: &CustomRun, knob: Knob, lang: Lang) -> String {
    match (c.get(knob), knob.range()) {
        (Some(v), Some((unit, _, _))) => with_unit(unit, v, lang),
        _ => {
            let (_, prefix) = options_of(knob);
            t!(
                format!("{prefix}{}", choice_of(c, knob)),
                locale = lang.code()
            )
            .into_owned()
        }
    }
}

/// The knobs of "Your settings", grouped, with reset and download.
#[component]
pub fn SimKnobs(props: &SimKnobsProps) -> Html {
    // Hooks first, every render in the same order.
    let ctx = use_context::<crate::ui::state::AppContext>();
    // Why the last download was refused, worded when shown (follows the language).
    let download_error = use_state(|| None::<DownloadRefused>);
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let lang = ctx.lang;
    let l = lang.code();
    let c = &props.value;
    let findings = c.validate();

    let note = if !props.has_sheet {
        Some(t!("knobs.ui.no-sheet", locale = l).into_owned())
    } else if !props.sheet.from_sheet {
        Some(t!("knobs.ui.sheet-no-retry", locale = l).into_owned())
    } else {
        None
    };
    let reset = {
        let onreset = props.onreset.clone();
        Callback::from(move |_| onreset.emit(()))
    };
    let file_name = format!("modality-advisor-sim-seed-{}.json", props.seed.unwrap_or(0));
    let download = download_callback(
        c,
        props.seed,
        ctx.knobs_refused(),
        &download_error,
        &file_name,
        lang,
    );
    // The file would not validate: say why the button is off (the seed field and the
    // findings show the details).
    let blocked = !findings.is_empty() || props.seed.is_none();
    let download_error = (*download_error).clone().map(|e| refusal_text(e, lang));
    html! {
        <div class="sim-knobs" data-from-sheet={props.sheet.from_sheet.to_string()}>
            <div class="slot">{ note.map(|n| html! { <p class="notice" data-knobs-note="true">{ n }</p> }) }</div>
            { knob_group(props, &findings, Group::Sheet, "sheet", lang) }
            { knob_group(props, &findings, Group::Load, "load", lang) }
            { knob_group(props, &findings, Group::Failures, "failures", lang) }
            { knob_group(props, &findings, Group::Downstream, "downstream", lang) }
            { knob_group(props, &findings, Group::Leases, "leases", lang) }
            <div class="actions knob-actions">
                <button type="button" class="secondary" id="knobs-reset" onclick={reset}>{ t!("knobs.ui.reset", locale = l) }</button>
                <button type="button" class="secondary" id="knobs-download" onclick={download} disabled={blocked}
                    title={blocked.then(|| t!("knobs.ui.download-blocked", locale = l).into_owned())}>{ t!("knobs.ui.download", locale = l) }</button>
            </div>
            <p class="hint">{ t!("knobs.ui.download-hint", locale = l, file = file_name) }</p>
            <div class="slot">{ download_error.map(|e| html! { <p class="error" role="alert" data-download-refused="true">{ e }</p> }) }</div>
        </div>
    }
}

/// The knobs of group `g` in a fieldset headed by `knobs.ui.group.{key}`.
fn knob_group(
    props: &SimKnobsProps,
    findings: &[KnobError],
    g: Group,
    key: &str,
    lang: Lang,
) -> Html {
    let c = &props.value;
    // Every knob keeps its place (inactive ones are hidden, not removed), so inputs are
    // never recreated while the user types.
    let fields = Knob::ALL.into_iter().filter(|k| k.group() == g).map(|k| {
        html! {
            <div class="knob" data-knob={k.id()} key={k.id()} hidden={!c.active(k)}>{ knob_field(props, findings, k, lang) }</div>
        }
    });
    html! {
        <fieldset class="section knob-group" data-group={key.to_owned()}>
            <legend>{ t!(format!("knobs.ui.group.{key}"), locale = lang.code()) }</legend>
            { for fields }
        </fieldset>
    }
}

/// Under a knob's field: its help, whether it still holds the sheet's value (sheet knobs, when
/// the sheet gives the settings) and the findings about it.
fn knob_notes(props: &SimKnobsProps, findings: &[KnobError], knob: Knob, lang: Lang) -> Html {
    let (c, l) = (&props.value, lang.code());
    let mut notes = vec![html! { <p class="hint">{ knob.help(lang) }</p> }];
    // What a run takes and what the rate limit lets through, in the settings' own numbers:
    // the handler time is never a hidden default, and a second with more calls than the
    // rate is explained before the run.
    let derived = match knob {
        Knob::CallMs => c.run_time(lang).map(|t| ("run-time", t)),
        Knob::RateBurst => c.rate_limit_text(lang).map(|t| ("rate-limit", t)),
        _ => None,
    };
    if let Some((id, text)) = derived {
        notes.push(html! { <p class="hint knob-derived" data-derived={id}>{ text }</p> });
    }
    if knob == Knob::OurLimit {
        notes.push(our_limit_note(props, lang));
    }
    if knob.group() == Group::Sheet && props.sheet.from_sheet {
        let same = shown(c, knob, lang) == shown(&props.sheet, knob, lang);
        notes.push(if same {
            html! { <p class="from-sheet" data-from-sheet="true">{ t!("knobs.ui.from-sheet", locale = l) }</p> }
        } else {
            html! { <p class="from-sheet changed" data-from-sheet="false">{ t!("knobs.ui.changed", locale = l, value = shown(&props.sheet, knob, lang)) }</p> }
        });
    }
    for f in findings.iter().filter(|f| f.knob() == knob) {
        notes.push(html! { <p class="error" role="alert" data-finding={knob.id()}>{ f.message(lang) }</p> });
    }
    html! { <>{ for notes }</> }
}

/// Under "Our limiter", as the sheet knobs' marks: the sheet's limiter and why while the
/// field holds it, "changed (sheet: …)" once the user typed another value.
fn our_limit_note(props: &SimKnobsProps, lang: Lang) -> Html {
    let Some(reason) = props.our_limit_reason.clone() else {
        return Html::default();
    };
    let (ours, sheet) = (props.value.our_limit_per_s, props.sheet.our_limit_per_s);
    match (sheet, ours) {
        (Some(v), _) if ours != sheet => {
            let value = with_unit(Unit::Count("per-s"), v, lang);
            html! { <p class="from-sheet changed" data-from-sheet="false">{ t!("knobs.ui.changed", locale = lang.code(), value = value) }</p> }
        }
        // The sheet's limiter is too slow for the field, and the user typed one of their own.
        (None, Some(_)) => Html::default(),
        _ => {
            html! { <p class="from-sheet" data-from-sheet="true" data-reason="our-limit">{ reason }</p> }
        }
    }
}

/// One knob's field (a duration, a count or a choice) with its notes, DOM id `knob-{id}`.
fn knob_field(props: &SimKnobsProps, findings: &[KnobError], knob: Knob, lang: Lang) -> Html {
    let (c, l) = (&props.value, lang.code());
    let id = format!("knob-{}", knob.id());
    let label = knob.label(lang);
    let children = knob_notes(props, findings, knob, lang);
    let (onchange, base) = (props.onchange.clone(), c.clone());
    match (c.get(knob), knob.range()) {
        (Some(v), Some((Unit::Ms, min, max))) => html! {
            <DurationField id={id} label={label} value_ms={v} range_ms={(min, max)} {lang}
                onchange={Callback::from(move |ms| onchange.emit(base.with(knob, ms)))}>
                { children }
            </DurationField>
        },
        (Some(v), Some((Unit::Count(u), min, max))) => html! {
            <NumberField id={id} label={label} unit={t!(format!("knobs.unit-word.{u}"), locale = l).into_owned()}
                value={v} range={(min, max)} {lang} empty_is_zero={knob == Knob::OurLimit}
                onchange={Callback::from(move |n| onchange.emit(base.with(knob, n)))}>
                { children }
            </NumberField>
        },
        _ => {
            let (ids, prefix) = options_of(knob);
            let options = ids
                .iter()
                .map(|o| {
                    (
                        AttrValue::from(*o),
                        AttrValue::from(t!(format!("{prefix}{o}"), locale = l).into_owned()),
                    )
                })
                .collect::<Vec<_>>();
            html! {
                { choice_field(ChoiceProps { id: AttrValue::from(id), label: AttrValue::from(label), options, value: AttrValue::from(choice_of(c, knob)), onchange: Callback::from(move |o: String| onchange.emit(set_choice(&base, knob, &o))), children: html! { { children } } }) }
            }
        }
    }
}

/// "Download config JSON": saves settings `c` with `seed` as file `name` (the file is
/// written by the export worker, [`crate::ui::browser::export`]), or sets `download_error` to
/// why not (`None` once the press goes ahead).
fn download_callback(
    c: &CustomRun,
    seed: Option<u64>,
    refused: Vec<Knob>,
    download_error: &UseStateHandle<Option<DownloadRefused>>,
    name: &str,
    lang: Lang,
) -> Callback<MouseEvent> {
    use crate::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
    let (c, download_error, name) = (c.clone(), download_error.clone(), name.to_owned());
    Callback::from(move |_| {
        // Never a file that differs from the screen: a field showing a refused value
        // (the settings hold its last good value), a finding or a bad seed refuse it.
        let knobs = refused.clone();
        let refused = if !knobs.is_empty() {
            Some(DownloadRefused::Refused(knobs))
        } else if let Some(f) = c.validate().into_iter().next() {
            Some(DownloadRefused::Finding(f))
        } else if let Some(seed) = seed {
            let request = ExportRequest {
                id: 0,
                lang,
                format: ExportFormat::Json,
                subject: ExportSubject::SimSettings {
                    run: Box::new(c.clone()),
                    seed,
                },
                now_ms: None,
            };
            let (download_error, name) = (download_error.clone(), name.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let saved = crate::ui::browser::export(request).await.and_then(|json| {
                    crate::ui::browser::download(&name, "application/json", &json)
                });
                if let Err(e) = saved {
                    download_error.set(Some(DownloadRefused::Browser(e)));
                }
            });
            None
        } else {
            Some(DownloadRefused::Seed)
        };
        download_error.set(refused);
    })
}

/// Why the last download was refused, in `lang`.
fn refusal_text(e: DownloadRefused, lang: Lang) -> String {
    let l = lang.code();
    match e {
        DownloadRefused::Refused(knobs) => {
            let names: Vec<String> = knobs.iter().map(|k| k.label(lang)).collect();
            let key = if names.len() == 1 {
                "knobs.ui.download-refused"
            } else {
                "knobs.ui.download-refused-many"
            };
            let sep = t!("knobs.ui.list-sep", locale = l);
            t!(key, locale = l, knob = names.join(&sep)).into_owned()
        }
        DownloadRefused::Finding(f) => f.message(lang),
        DownloadRefused::Seed => t!(
            "sim.ui.seed-error",
            locale = l,
            max = crate::domain::number::group_thousands(u64::MAX)
        )
        .into_owned(),
        DownloadRefused::Browser(e) => e,
    }
}

/// Why "Download config JSON" saved nothing.
#[derive(Debug, Clone, PartialEq)]
enum DownloadRefused {
    /// These knobs' fields show a refused value (at least one, in page order).
    Refused(Vec<Knob>),
    /// A cross-field or range finding.
    Finding(KnobError),
    /// The seed field is not a whole number 0 ..= `u64::MAX`.
    Seed,
    /// The export worker did not write the file, or the browser refused the download (a
    /// sentence in the language of the press, or the browser's own words).
    Browser(String),
}

//! Stepping a small run for teaching: ⏮ to start, step back, play / pause, step, to end, a
//! speed (events per second), a slider over the frames, the virtual time and "step n / total",
//! with the [`StateMachine`] and the log lines the current step wrote. Runs without frames
//! (the load preset) show the state machine with the final counts only.
//!
//! The frames come from the worker ([`RunView::frames`]; see `domain::sim::results::frames`): position
//! 0 is the start, position `n` the state after the `n`-th engine event. A finished run opens
//! at the end. Keys on the focused diagram: ← / → step, Space plays or pauses, Home / End.

use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, tenths_of_s};
use crate::domain::sim::results::frames::Frame;
use crate::domain::sim::runner::RunView;
use crate::domain::sim::Transition;
use crate::text::t;
use crate::ui::browser::Interval;
use crate::ui::simulate::job_states::StateMachine;
use crate::ui::state::AppContext;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Playback speeds offered, in engine events per second.
pub const SPEEDS: [u32; 4] = [1, 4, 16, 64];

/// The buttons' icons (16 × 16 SVG paths; glyphs such as ⏮ are missing from many fonts).
const ICON_START: &str = "M2,2h2v12h-2z M9,2 L4,8 L9,14z M15,2 L10,8 L15,14z";
const ICON_BACK: &str = "M3,2h2v12h-2z M13,2 L6,8 L13,14z";
const ICON_PLAY: &str = "M4,2 L13,8 L4,14z";
const ICON_PAUSE: &str = "M4,2h3v12h-3z M9,2h3v12h-3z";
const ICON_STEP: &str = "M3,2 L10,8 L3,14z M11,2h2v12h-2z";
const ICON_END: &str = "M1,2 L6,8 L1,14z M7,2 L12,8 L7,14z M12,2h2v12h-2z";

fn icon(d: &'static str) -> Html {
    html! { <svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d={d} /></svg> }
}

/// Position and playback, as one reducer so the timer's ticks never read a stale position.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Play {
    pos: usize,
    last: usize,
    playing: bool,
    /// Whether the person has moved it since the run finished.
    moved: bool,
}

enum Step {
    To(usize),
    By(isize),
    Tick,
    Toggle,
}

impl Reducible for Play {
    type Action = Step;
    fn reduce(self: Rc<Self>, action: Step) -> Rc<Self> {
        let mut p = *self;
        p.moved = true;
        match action {
            Step::To(n) => {
                p.pos = n.min(p.last);
                p.playing = false;
            }
            Step::By(d) => {
                p.pos = p.pos.saturating_add_signed(d).min(p.last);
                p.playing = false;
            }
            Step::Tick => {
                p.pos = (p.pos + 1).min(p.last);
                p.playing = p.playing && p.pos < p.last;
            }
            Step::Toggle => {
                if !p.playing && p.pos >= p.last {
                    // Play from the start when sitting at the end.
                    p.pos = 0;
                }
                p.playing = !p.playing && p.last > 0;
            }
        }
        Rc::new(p)
    }
}

/// Properties of [`StepView`].
#[derive(Properties, PartialEq)]
pub struct StepViewProps {
    /// The finished run.
    pub view: Rc<RunView>,
    /// Told the event-log line (0-based) to mark once the person steps: the last line written
    /// up to the current step (`None` at the start, and until the stepper is first moved).
    #[prop_or_default]
    pub on_line: Option<Callback<Option<u64>>>,
}

/// Counts in frame order (queued, running, done, dead) from the view's (done, dead, queued,
/// running).
fn final_counts(v: &RunView) -> [u64; 4] {
    let [d, x, q, r] = v.counts;
    [q, r, d, x]
}

/// Bit `n` set when some frame takes named transition `n`.
fn seen(frames: &[Frame]) -> u32 {
    frames
        .iter()
        .flat_map(|f| &f.moves)
        .filter(|&&(t, _)| usize::from(t) < Transition::NAMED)
        .fold(0, |acc, &(t, _)| acc | 1 << t)
}

/// The state machine, the stepper and the current step's log lines.
#[component]
pub fn StepView(props: &StepViewProps) -> Html {
    let ctx = use_context::<AppContext>();
    let v = props.view.clone();
    let last = v.frames.len().saturating_sub(1);
    let play = use_reducer(|| Play {
        pos: last,
        last,
        playing: false,
        moved: false,
    });
    let speed = use_state(|| SPEEDS[1]);
    let seen_bits = use_memo(v.clone(), |v| seen(&v.frames));
    {
        // The timer lives while playing; changing the speed restarts it.
        let play = play.clone();
        use_effect_with((play.playing, *speed), move |&(playing, speed)| {
            let timer = playing.then(|| {
                let play = play.clone();
                Interval::new(1_000 / speed.max(1), move || play.dispatch(Step::Tick))
            });
            move || drop(timer)
        });
    }
    {
        let line = v
            .frames
            .get(play.pos)
            .and_then(|f| f.log_len.checked_sub(1))
            .filter(|_| play.pos > 0 && play.moved);
        let on_line = props.on_line.clone();
        use_effect_with(line, move |&line| {
            if let Some(cb) = on_line {
                cb.emit(line);
            }
        });
    }
    {
        // The worker timeline's cursor follows the step (one attribute; the language
        // switch redraws the timeline, so it is set again).
        let t = v.frames.get(play.pos).map(|f| f.time_us);
        let lang = ctx.as_ref().map(|c| c.lang);
        use_effect_with((t, lang), move |&(t, _)| {
            if let Some(t) = t {
                crate::ui::browser::move_timeline_cursor(t);
            }
        });
    }
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let l = ctx.lang.code();
    if v.frames.is_empty() {
        if v.jobs.is_empty() {
            return Html::default();
        }
        return html! {
            <div class="step-view" data-frames="0">
                <StateMachine counts={final_counts(&v)} />
                <p class="hint">{ t!("sim.sm.final", locale = l) }</p>
            </div>
        };
    }
    let pos = play.pos.min(last);
    let frame = &v.frames[pos];
    let playing = play.playing;
    let title = t!("sim.step.title", locale = l).into_owned();
    html! {
        <div class="step-view" data-frames={v.frames.len().to_string()} data-pos={pos.to_string()} data-playing={playing.to_string()}>
            <h4>{ title.clone() }</h4>
            <div class="sm-focus" tabindex="0" role="group" aria-label={title} onkeydown={on_step_key(&play)} aria-describedby="step-hint">
                <StateMachine counts={frame.counts} moves={frame.moves.clone()} seen={*seen_bits} />
            </div>
            { stepper_bar(&play, &speed, pos, last, frame.time_us, l) }
            <p class="hint" id="step-hint">{ t!("sim.step.hint", locale = l) }</p>
            <h5>{ t!("sim.step.lines", locale = l) }</h5>
            { step_lines(&v, pos, ctx.lang) }
        </div>
    }
}

/// The keys on the focused diagram: ← / → step, Space plays or pauses, Home / End.
fn on_step_key(play: &UseReducerHandle<Play>) -> Callback<KeyboardEvent> {
    let play = play.clone();
    Callback::from(move |e: KeyboardEvent| {
        // Bound on the diagram's wrapper, which holds nothing focusable: the buttons, the
        // slider and the select keep their own keys.
        let step = match e.key().as_str() {
            "ArrowRight" => Step::By(1),
            "ArrowLeft" => Step::By(-1),
            " " | "Spacebar" => Step::Toggle,
            "Home" => Step::To(0),
            "End" => Step::To(usize::MAX),
            _ => return,
        };
        e.prevent_default();
        play.dispatch(step);
    })
}

/// The stepper row: the five buttons, the speed, the slider over frames `0..=last` at `pos`,
/// and "step n / total" with the virtual time `time_us` (µs) of the current frame.
fn stepper_bar(
    play: &UseReducerHandle<Play>,
    speed: &UseStateHandle<u32>,
    pos: usize,
    last: usize,
    time_us: u64,
    l: &str,
) -> Html {
    let btn = |id: &'static str,
               key: &'static str,
               glyph: Html,
               step: fn() -> Step,
               disabled: bool| {
        let play = play.clone();
        let label = t!(key, locale = l).into_owned();
        html! {
            <button type="button" class="step-btn" id={id} title={label.clone()} aria-label={label}
                {disabled} onclick={Callback::from(move |_| play.dispatch(step()))}>{ glyph }</button>
        }
    };
    let on_slider = {
        let play = play.clone();
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(n) = value.parse::<usize>() {
                play.dispatch(Step::To(n));
            }
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(&s) = SPEEDS.iter().find(|s| s.to_string() == value) {
                speed.set(s);
            }
        })
    };
    let playing = play.playing;
    let title = t!("sim.step.title", locale = l).into_owned();
    let play_label = t!(
        if playing {
            "sim.step.pause"
        } else {
            "sim.step.play"
        },
        locale = l
    )
    .into_owned();
    let where_text = t!(
        "sim.step.frame",
        locale = l,
        n = group_thousands(pos as u64),
        total = group_thousands(last as u64)
    )
    .into_owned();
    let speeds = SPEEDS.iter().map(|&s| {
        html! {
            <option value={s.to_string()} selected={s == **speed}>{ if s == 1 { t!("sim.step.per-second-one", locale = l) } else { t!("sim.step.per-second", locale = l, n = s) } }</option>
        }
    });
    html! {
        <div class="stepper" role="group" aria-label={title}>
            { btn("step-start", "sim.step.to-start", icon(ICON_START), || Step::To(0), pos == 0) }
            { btn("step-back", "sim.step.back", icon(ICON_BACK), || Step::By(-1), pos == 0) }
            <button type="button" class="step-btn play" id="step-play" aria-pressed={playing.to_string()}
                title={play_label.clone()}
                aria-label={play_label}
                onclick={{ let play = play.clone(); Callback::from(move |_| play.dispatch(Step::Toggle)) }}>
                { icon(if playing { ICON_PAUSE } else { ICON_PLAY }) }
            </button>
            { btn("step-forward", "sim.step.forward", icon(ICON_STEP), || Step::By(1), pos >= last) }
            { btn("step-end", "sim.step.to-end", icon(ICON_END), || Step::To(usize::MAX), pos >= last) }
            <span class="speed-pair">
                <label class="step-speed" for="step-speed">{ t!("sim.step.speed", locale = l) }</label>
                <select id="step-speed" onchange={on_speed}>{ for speeds }</select>
            </span>
            <input type="range" id="step-slider" min="0" max={last.to_string()} value={pos.to_string()}
                aria-label={t!("sim.step.slider-position", locale = l).into_owned()} oninput={on_slider}
                aria-valuetext={where_text.clone()} />
            <span class="step-where">
                <span id="step-frame">{ where_text }</span>
                { " · " }
                <span id="step-time">{ t!("sim.step.time", locale = l, t = tenths_of_s(time_us)) }</span>
            </span>
        </div>
    }
}

/// The log lines step `pos` wrote, from the log's head: a hint at the start, when the lines
/// lie past the head (a longer log's later lines stay in the worker: the event log below marks
/// them) or when the step wrote none; else the lines numbered from 1.
fn step_lines(v: &RunView, pos: usize, lang: Lang) -> Html {
    let l = lang.code();
    let prev_len = pos
        .checked_sub(1)
        .map_or(0, |i| v.frames[i].log_len as usize);
    let cur_len = v.frames[pos].log_len as usize;
    let in_head = cur_len <= v.log_head.len();
    let lines: Vec<(usize, String)> = v
        .log_head
        .iter()
        .enumerate()
        .take(cur_len)
        .skip(prev_len)
        .map(|(i, e)| (i, v.log_line(e).render(lang)))
        .collect();
    if pos == 0 {
        html! { <p class="hint">{ t!("sim.step.start-state", locale = l) }</p> }
    } else if !in_head {
        html! { <p class="hint" data-lines="below">{ t!("sim.step.lines-below", locale = l) }</p> }
    } else if lines.is_empty() {
        html! { <p class="hint" data-lines="0">{ t!("sim.step.no-lines", locale = l) }</p> }
    } else {
        html! {
            <ol class="log step-log" start={(prev_len + 1).to_string()} data-lines={lines.len().to_string()}>
                { for lines.into_iter().map(|(i, s)| html! { <li data-line={(i + 1).to_string()}>{ s }</li> }) }
            </ol>
        }
    }
}

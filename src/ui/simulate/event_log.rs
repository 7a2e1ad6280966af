//! The event log of a finished run, virtualised: a scroll box of fixed-height rows that draws
//! only the rows in view, whatever the log's length (10⁶ lines and more).
//!
//! The log itself stays in the simulation worker; the run's view brings its length, its first
//! lines and the names the entries refer to. The rows the box needs beyond those are asked for
//! with a [`LogRequest`] (debounced: only the position scrolling stops at is asked for, with
//! [`PREFETCH`] lines either side), and the answer comes back as a [`LogAnswer`]. Lines are
//! rendered in the current language on every render, so a language switch re-renders them.
//!
//! Layout (no inline styles: the page's CSP forbids them): the box scrolls; inside, a sticky
//! window one box high shows the rows, followed by an SVG spacer whose `height` attribute
//! makes the scroll range. Past [`MAX_SCROLL_PX`] the scroll range is scaled, so the first row
//! shown is `scrollTop / (range − box) × (lines − rows)`; below it, it is `scrollTop / row`.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sim::results::log::LogEntry;
use crate::domain::sim::runner::{LogRequest, RunView, MAX_SLICE};
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::AppContext;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Height of one row in CSS pixels (`.event-log li` in `static/style.css` must agree).
pub const ROW_PX: f64 = 20.0;
/// Rows the box shows (its height is `ROWS × ROW_PX`, also set in the stylesheet).
pub const ROWS: u64 = 24;
/// Lines asked for on either side of the rows in view.
pub const PREFETCH: u64 = 150;
/// Largest scroll range in pixels (browsers cap element heights at 17–33 million pixels).
pub const MAX_SCROLL_PX: f64 = 8_000_000.0;
/// Quiet time after the last scroll before lines are asked for, in milliseconds.
const DEBOUNCE_MS: u32 = 60;

/// An answer from the worker about a run's log.
#[derive(Debug, Clone, PartialEq)]
pub enum LogAnswer {
    /// Entries `from ..` of run `id`'s log.
    Slice {
        /// The run's id.
        id: u64,
        /// Index of the first entry.
        from: u64,
        /// The entries.
        entries: Rc<Vec<LogEntry>>,
    },
    /// Run `id`'s log cannot be had (the worker that held it was stopped).
    Gone {
        /// The run's id.
        id: u64,
    },
}

/// Properties of [`EventLog`].
#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// The finished run (its length, first lines and names).
    pub view: Rc<RunView>,
    /// The latest answer about a log (ignored unless it is about this run).
    #[prop_or_default]
    pub answer: Option<LogAnswer>,
    /// Sends a request to the worker; `false` when there is no worker to ask.
    #[prop_or_default]
    pub request: Option<Callback<LogRequest, bool>>,
    /// A line (0-based index) to scroll to and mark as the current one.
    #[prop_or_default]
    pub highlight: Option<u64>,
    /// The worker holding this log was stopped (Cancel): only the lines sent with the
    /// result (`view.log_head`) can be read.
    #[prop_or_default]
    pub lost: bool,
}

/// Where the window stands: the first row shown for a scroll position.
fn first_row(scroll_top: f64, total: u64) -> u64 {
    let full = total as f64 * ROW_PX;
    let view = ROWS as f64 * ROW_PX;
    if full <= view {
        return 0;
    }
    let range = full.min(MAX_SCROLL_PX) - view;
    let rows = total.saturating_sub(ROWS) as f64;
    let f = (scroll_top.max(0.0) / range).min(1.0);
    ((f * rows) as u64).min(total.saturating_sub(ROWS))
}

/// The scroll position that shows `row` first (inverse of [`first_row`]).
fn scroll_for(row: u64, total: u64) -> f64 {
    let full = total as f64 * ROW_PX;
    let view = ROWS as f64 * ROW_PX;
    if full <= view {
        return 0.0;
    }
    let range = full.min(MAX_SCROLL_PX) - view;
    let rows = total.saturating_sub(ROWS) as f64;
    // Half a row further, so rounding down in `first_row` lands on `row`.
    ((row as f64 + 0.5) / rows * range).min(range)
}

/// The event log box.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let ctx = use_context::<AppContext>();
    let scroll_top = use_state(|| 0.0_f64);
    let boxref = use_node_ref();
    let gone = use_state(|| false);
    let v = &props.view;
    let id = v.run_id;
    // With no worker to ask (stopped by a cancel, or gone), only the lines sent with the
    // result can be read: the box then scrolls over those alone, never over rows of "…"
    // that cannot fill in.
    let head = v.log_head.len() as u64;
    let cut = (*gone || props.lost) && v.log_total > head;
    let total = if cut { head } else { v.log_total };

    // A new run starts at the top.
    {
        let (scroll_top, boxref, gone) = (scroll_top.clone(), boxref.clone(), gone.clone());
        use_effect_with(id, move |_| {
            scroll_top.set(0.0);
            gone.set(false);
            if let Some(el) = boxref.cast::<web_sys::Element>() {
                el.set_scroll_top(0);
            }
        });
    }
    // The worker could not answer for this run.
    {
        let gone = gone.clone();
        use_effect_with(props.answer.clone(), move |a| {
            if matches!(a, Some(LogAnswer::Gone { id: g }) if *g == id) {
                gone.set(true);
            }
        });
    }
    // Scroll to the highlighted line when it changes and is not in view.
    {
        let (scroll_top, boxref) = (scroll_top.clone(), boxref.clone());
        let current = first_row(*scroll_top, total);
        use_effect_with((props.highlight, id), move |(h, _)| {
            if let Some(line) = *h {
                if line < total && !(current..current + ROWS).contains(&line) {
                    let top = scroll_for(line.saturating_sub(ROWS / 2), total);
                    if let Some(el) = boxref.cast::<web_sys::Element>() {
                        el.set_scroll_top(top as i32);
                        scroll_top.set(f64::from(el.scroll_top()));
                    }
                }
            }
        });
    }

    let first = first_row(*scroll_top, total);
    let last = (first + ROWS + 1).min(total);
    let slice: Slice = match &props.answer {
        Some(LogAnswer::Slice {
            id: sid,
            from,
            entries,
        }) if *sid == id => Some((*from, entries.clone())),
        _ => None,
    };
    let missing = (first..last).any(|i| entry(v, &slice, i).is_none());

    use_ask_missing(
        first,
        missing,
        id,
        total,
        props.request.clone(),
        gone.clone(),
    );

    let Some(ctx) = ctx else {
        return Html::default();
    };
    let lang: Lang = ctx.lang;
    let l = lang.code();
    let onscroll = {
        let scroll_top = scroll_top.clone();
        Callback::from(move |e: Event| {
            let el = e.target_unchecked_into::<web_sys::Element>();
            scroll_top.set(f64::from(el.scroll_top()));
        })
    };
    let full = total as f64 * ROW_PX;
    let spacer = (full.min(MAX_SCROLL_PX) - ROWS as f64 * ROW_PX).max(0.0);
    let note = cut.then(|| {
        html! { <p class="hint" data-log-gone="true">{ t!("sim-log.ui.gone", locale = l) }</p> }
    });
    html! {
        <div class="event-log-wrap">
            { log_total(v.log_total, head, cut, l) }
            <p class="scroll-hint" data-scroll-hint="log">{ t!("ui.scroll-hint.log", locale = l) }</p>
            <div class="event-log" ref={boxref} {onscroll} tabindex="0" role="log"
                aria-label={t!("sim.ui.log", locale = l).into_owned()}>
                { log_window(v, &slice, props.highlight, first..last, lang) }
                <svg class="log-spacer" width="1" height={format!("{spacer:.0}")} aria-hidden="true"></svg>
            </div>
            <div class="slot">{ note }</div>
        </div>
    }
}

/// A slice of the log the worker answered with: the index of its first entry and the entries.
type Slice = Option<(u64, Rc<Vec<LogEntry>>)>;

/// Entry `i` of the log, from the lines sent with the result or the worker's `slice`;
/// `None` while it has not come.
fn entry<'a>(v: &'a RunView, slice: &'a Slice, i: u64) -> Option<&'a LogEntry> {
    if let Some(e) = usize::try_from(i).ok().and_then(|k| v.log_head.get(k)) {
        return Some(e);
    }
    let (from, entries) = slice.as_ref()?;
    entries.get(usize::try_from(i.checked_sub(*from)?).ok()?)
}

/// Asks for what is missing once scrolling pauses; a later position replaces the request.
/// `first`: the first row in view; `missing`: whether a row in view has no line yet; `id`: the
/// run's id; `total`: its log's length; `gone` is set when there is no worker to ask.
#[hook]
fn use_ask_missing(
    first: u64,
    missing: bool,
    id: u64,
    total: u64,
    request: Option<Callback<LogRequest, bool>>,
    gone: UseStateHandle<bool>,
) {
    // The pending request: dropping it cancels it (a later position replaces it).
    let timer: Rc<RefCell<Option<browser::Timeout>>> = use_mut_ref(|| None);
    // The last range asked for, so a pending request is not repeated on every render.
    let asked: Rc<RefCell<Option<(u64, u64, u64)>>> = use_mut_ref(|| None);
    use_effect_with((first, missing, id), move |&(first, missing, id)| {
        timer.borrow_mut().take();
        if !missing {
            return;
        }
        let from = first.saturating_sub(PREFETCH);
        let count = (first + ROWS + PREFETCH)
            .min(total)
            .saturating_sub(from)
            .min(u64::from(MAX_SLICE));
        let key = (id, from, count);
        if *asked.borrow() == Some(key) {
            return;
        }
        let fire = move || {
            *asked.borrow_mut() = Some(key);
            let sent = request.is_some_and(|r| {
                r.emit(LogRequest {
                    log_of: id,
                    from,
                    count: count as u32,
                })
            });
            if !sent {
                gone.set(true);
            }
        };
        *timer.borrow_mut() = Some(browser::Timeout::new(DEBOUNCE_MS, fire));
    });
}

/// The rows `rows` of the log in `lang`, row `highlight` marked current and rows not yet
/// come shown as "…".
fn log_window(
    v: &RunView,
    slice: &Slice,
    highlight: Option<u64>,
    rows: std::ops::Range<u64>,
    lang: Lang,
) -> Html {
    let rows = rows.map(|i| {
        let current = highlight == Some(i);
        let (text, pending) = match entry(v, slice, i) {
            Some(e) => (v.log_line(e).render(lang), false),
            None => ("…".to_owned(), true),
        };
        html! {
            <li key={i} data-line={i.to_string()} class={classes!(current.then_some("current"), pending.then_some("pending"))}
                aria-current={current.then_some("true")} title={text.clone()}>
                <span class="ln">{ group_thousands(i + 1) }</span><span class="tx">{ text }</span>
            </li>
        }
    });
    html! { <ol class="log-window">{ for rows }</ol> }
}

/// The log's length, or when `cut` the lines that can be read (`head` of `total`).
fn log_total(total: u64, head: u64, cut: bool, l: &str) -> Html {
    let total_text = if cut {
        t!(
            "sim-log.ui.readable",
            locale = l,
            total = group_thousands(total),
            head = group_thousands(head)
        )
    } else {
        t!(
            "sim-log.ui.total",
            locale = l,
            total = group_thousands(total)
        )
    };
    html! {
        <p class="log-total" data-log-total={total.to_string()} data-log-readable={cut.then(|| head.to_string())}>
            { total_text }
        </p>
    }
}

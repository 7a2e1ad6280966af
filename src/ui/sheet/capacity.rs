//! The capacity panel: on the sheet after the form's sections, and as the Simulate screen's
//! "Capacity" view. "Not sized yet: needs …" while the load section misses numbers
//! ([`CapacityInput::from_sheet`]); else "Size it" runs the sweep in this panel's own
//! simulation worker ([`use_sim_run`]) with progress and cancel, and shows the answer the
//! worker drew (HTML in both languages: this code only inserts it). Editing never waits for
//! it; an answer whose numbers are no longer the sheet's says so.

use crate::domain::capacity::{not_sized_text, CapacityInput};
use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use crate::domain::session::simulator::SimulatorSays;
use crate::domain::sheet::load_text::load_of;
use crate::domain::sheet::JobSheet;
use crate::domain::sim::results::drawn::pick;
use crate::domain::sim::runner::{CapacityError, CapacityRequest, CapacityView, PAGE_SEEDS};
use crate::text::t;
use crate::ui::simulate::charts::raw;
use crate::ui::simulate::labels::{live_region, Said};
use crate::ui::simulate::worker::{use_sim_run, RunEvent, SimRun, SizeEvent};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Where a sizing is.
#[derive(Debug, Clone, PartialEq)]
enum Status {
    Idle,
    Running(u64, u64),
    Cancelled,
    /// Why it did not run, in the page's language when shown.
    Failed(Failure),
}

#[derive(Debug, Clone, PartialEq)]
enum Failure {
    Seeds,
    /// The sheet's inputs (DOM ids) showing a value they refused: the sheet holds the last
    /// accepted one, which is not what the screen shows.
    Fields(Vec<String>),
    Worker(CapacityError),
    Page(crate::ui::simulate::labels::Problem),
}

impl Failure {
    fn text(&self, lang: Lang) -> String {
        match self {
            Failure::Seeds => t!("capacity.seeds-error", locale = lang.code()).into_owned(),
            Failure::Fields(ids) => crate::domain::sheet::inputs::refused_text(ids, lang),
            // The runs over the sweep's budget: the field's label, not the request's name.
            Failure::Worker(CapacityError::Sweep(e)) if e.field == "seeds" => {
                let colon = if lang == Lang::Ja { "：" } else { ": " };
                let label = t!("capacity.seeds", locale = lang.code());
                format!("{label}{colon}{}", e.allowed_in(lang))
            }
            Failure::Worker(e) => e.message(lang),
            Failure::Page(p) => p.text(lang),
        }
    }
}

/// An answer with the numbers it was computed from.
type Answer = (Rc<CapacityView>, CapacityInput);

/// A capacity panel's state, kept by the component that shows it ([`use_capacity`]): the sheet
/// screen's by the app (so an answer outlives a visit to another screen), Simulate's by the
/// simulator screen. A hook rather than a component of its own: a component type costs the
/// page's first load a few KB of yew's machinery.
#[derive(Clone)]
pub struct Capacity {
    status: UseStateHandle<Status>,
    answer: UseStateHandle<Option<Answer>>,
    seeds_raw: UseStateHandle<String>,
    said: UseStateHandle<Said>,
    /// The numbers of the request running.
    asked: Rc<std::cell::RefCell<Option<CapacityInput>>>,
    session: SimRun,
}

/// Hands the worker's answers to the panel.
fn listen(p: &Capacity, lang: Lang) {
    let (status, answer, said, asked) = (
        p.status.clone(),
        p.answer.clone(),
        p.said.clone(),
        p.asked.clone(),
    );
    p.session.listen(Callback::from(move |e: RunEvent| match e {
        RunEvent::Size(SizeEvent::Progress(done, total)) => {
            status.set(Status::Running(done, total))
        }
        RunEvent::Size(SizeEvent::Done(view)) => {
            if let Some(input) = asked.borrow_mut().take() {
                answer.set(Some((view, input)));
            }
            said.set(Some(("capacity.finished", lang)));
            status.set(Status::Idle);
        }
        RunEvent::Size(SizeEvent::Failed(e)) => status.set(Status::Failed(Failure::Worker(e))),
        _ => {}
    }));
}

/// "Size it": reads the runs per count, then starts the request in the panel's worker.
fn size_callback(
    p: &Capacity,
    (input, seed): (CapacityInput, u64),
    refused: &[String],
    lang: Lang,
) -> Callback<MouseEvent> {
    let p = p.clone();
    let refused = refused.to_vec();
    Callback::from(move |_| {
        // Not with a refused value on screen: the sheet holds the last accepted one (as Copy
        // and "Simulate these settings" refuse).
        if !refused.is_empty() {
            return p
                .status
                .set(Status::Failed(Failure::Fields(refused.clone())));
        }
        // 1 to 50 runs per count (the sweep's own range, said here with the field's label).
        let seeds = parse_whole(&p.seeds_raw)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (1..=50).contains(n));
        let Some(seeds) = seeds else {
            return p.status.set(Status::Failed(Failure::Seeds));
        };
        let request = CapacityRequest {
            id: 0,
            input: input.with_room_for_load(),
            seed,
            seeds,
            jobs: None,
        };
        // The answer's charts are styled by the simulator's stylesheet: fetched while it runs.
        crate::ui::browser::load_stylesheet("./sim.css");
        *p.asked.borrow_mut() = Some(input);
        match p.session.start_capacity(request) {
            Ok(_) => {
                p.said.set(Some(("capacity.starting", lang)));
                p.status.set(Status::Running(0, 0));
            }
            Err(e) => p.status.set(Status::Failed(Failure::Page(e))),
        }
    })
}

/// A capacity panel's state, its worker session listening in `lang`.
#[hook]
pub fn use_capacity(lang: Lang) -> Capacity {
    let p = Capacity {
        status: use_state(|| Status::Idle),
        answer: use_state(|| None::<Answer>),
        seeds_raw: use_state(|| PAGE_SEEDS.to_string()),
        said: use_state(|| None),
        asked: use_mut_ref(|| None),
        session: use_sim_run(),
    };
    listen(&p, lang);
    p
}

/// Where a capacity panel is drawn. Simulate's "Capacity" view stays in the document (hidden)
/// while the sheet shows its own panel, so each place has its own element ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The sheet's panel (`#capacity`, `#capacity-size` …).
    Sheet,
    /// Simulate's "Capacity" view (`#sim-capacity`, `#sim-capacity-size` …).
    Simulate,
}

/// The element ids of one [`Place`]'s panel.
pub struct Ids {
    panel: &'static str,
    title: &'static str,
    live: &'static str,
    seeds: &'static str,
    size: &'static str,
    cancel: &'static str,
    used: &'static str,
    use_hint: &'static str,
}

impl Place {
    /// This place's element ids.
    fn ids(self) -> &'static Ids {
        match self {
            Place::Sheet => &Ids {
                panel: "capacity",
                title: "capacity-title",
                live: "capacity-live",
                seeds: "capacity-seeds",
                size: "capacity-size",
                cancel: "capacity-cancel",
                used: "capacity-use",
                use_hint: "capacity-use-hint",
            },
            Place::Simulate => &Ids {
                panel: "sim-capacity",
                title: "sim-capacity-title",
                live: "sim-capacity-live",
                seeds: "sim-capacity-seeds",
                size: "sim-capacity-size",
                cancel: "sim-capacity-cancel",
                used: "sim-capacity-use",
                use_hint: "sim-capacity-use-hint",
            },
        }
    }
}

/// The capacity panel (see the module docs) of `sheet` with state `p`, in `lang`, sized from
/// `seed`, its element ids those of `place`. With `tell` (the page's [`SimulatorSays`]
/// channel), a current answer with a recommended count offers to use it in the sheet. While
/// any of the sheet's inputs in `refused` (DOM ids) shows a value it refused, "Size it" says
/// so, naming them, and does not run.
pub fn capacity_panel(
    p: &Capacity,
    sheet: &JobSheet,
    (lang, seed, place): (Lang, u64, Place),
    (tell, refused): (Option<&Callback<String>>, &[String]),
) -> Html {
    let l = lang.code();
    let ids = place.ids();
    let current = CapacityInput::from_sheet(sheet);
    let running = matches!(*p.status, Status::Running(..));
    let controls = match &current {
        Err(missing) => html! {
            <p class="cap-missing" data-capacity="not-sized">{ not_sized_text(missing, lang) }</p>
        },
        Ok(input) => controls(p, (*input, seed), (running, refused), (lang, ids)),
    };
    let answer = (*p.answer).clone().map(|(view, input)| {
        let stale = current.as_ref().ok() != Some(&input);
        html! {
            <div class="cap-result" data-stale={stale.to_string()}>
                if stale {
                    <p class="notice" data-capacity="stale">{ t!("capacity.stale", locale = l) }</p>
                }
                if !stale {
                    { use_line(sheet, view.workers, tell, (lang, ids)) }
                }
                { raw(pick(&view.html, lang)) }
            </div>
        }
    });
    html! {
        <section class="section capacity-panel" id={ids.panel} aria-labelledby={ids.title}>
            <h3 id={ids.title}>{ t!("capacity.title", locale = l) }</h3>
            <p class="hint">{ t!("capacity.intro", locale = l) }</p>
            { controls }
            { live_region(ids.live, *p.said) }
            <div class="slot">{ status_line(&p.status, lang) }</div>
            <div class="slot">{ answer }</div>
        </section>
    }
}

/// "Use in the sheet": the recommended jobs at once (`workers`) as the sheet's worker
/// processes over its concurrency
/// ([`LoadSpec::with_slots`](crate::domain::sheet::load::LoadSpec::with_slots)), sent to the page through
/// `tell`; once the sheet holds that count, a line saying so. Nothing without a
/// recommendation (no count meets the targets) or without `tell`.
fn use_line(
    sheet: &JobSheet,
    workers: Option<u32>,
    tell: Option<&Callback<String>>,
    (lang, ids): (Lang, &'static Ids),
) -> Html {
    let (Some(slots), Some(tell), Some(load)) = (workers, tell, load_of(sheet)) else {
        return Html::default();
    };
    let l = lang.code();
    let per = load.concurrency.unwrap_or(1).max(1);
    let Some(next) = load.with_slots(slots) else {
        let (processes, at_once) = (load.workers.unwrap_or(0), load.slots().unwrap_or(0));
        // Processes of `per` jobs each hold more at once than recommended when the count is
        // not a multiple of `per`: said, not "this count".
        let text = if at_once <= slots {
            t!(
                "capacity.in-sheet",
                locale = l,
                processes = processes,
                slots = at_once
            )
        } else {
            t!(
                "capacity.in-sheet-rounded",
                locale = l,
                processes = processes,
                per = per,
                slots = at_once,
                wanted = slots
            )
        };
        return html! {
            <p class="hint" data-capacity="in-sheet">{ text }</p>
        };
    };
    let processes = next.workers.unwrap_or(0);
    let at_once = next.slots().unwrap_or(0);
    let label = if per == 1 {
        t!("capacity.use", locale = l, processes = processes)
    } else if at_once == slots {
        t!(
            "capacity.use-slots",
            locale = l,
            processes = processes,
            per = per,
            slots = at_once
        )
    } else {
        // The sheet holds processes of `per` jobs each: the recommended count is not a
        // multiple of it, so the button says the count it sets is rounded up.
        t!(
            "capacity.use-rounded",
            locale = l,
            processes = processes,
            per = per,
            slots = at_once,
            wanted = slots
        )
    };
    let onclick = {
        let tell = tell.clone();
        Callback::from(move |_| {
            tell.emit(SimulatorSays::Load(next).to_json());
            // The button goes with the answer's currency (the answer is now stale): focus
            // moves to "Size it", the next step, so keyboard and screen-reader users are not
            // left on the page's body. Not to the field it set: a focused field keeps what it
            // shows, as it does while someone types in it.
            crate::ui::browser::focus_by_id(ids.size);
        })
    };
    html! {
        <div class="cap-use">
            <button type="button" class="secondary" id={ids.used} aria-describedby={ids.use_hint} {onclick}>{ label }</button>
            <p class="hint" id={ids.use_hint}>{ t!("capacity.use-hint", locale = l) }</p>
        </div>
    }
}

/// The runs per count, "Size it" and "Cancel".
fn controls(
    p: &Capacity,
    (input, seed): (CapacityInput, u64),
    (running, refused): (bool, &[String]),
    (lang, ids): (Lang, &'static Ids),
) -> Html {
    let l = lang.code();
    let size = size_callback(p, (input, seed), refused, lang);
    let cancel = {
        let (status, session, said, asked) = (
            p.status.clone(),
            p.session.clone(),
            p.said.clone(),
            p.asked.clone(),
        );
        Callback::from(move |_| {
            session.cancel();
            asked.borrow_mut().take();
            said.set(Some(("capacity.cancelled", lang)));
            status.set(Status::Cancelled);
        })
    };
    let oninput = {
        let raw = p.seeds_raw.clone();
        Callback::from(move |e: InputEvent| {
            raw.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let bad = match &*p.status {
        Status::Failed(Failure::Seeds) => true,
        Status::Failed(Failure::Worker(CapacityError::Sweep(e))) => e.field == "seeds",
        _ => false,
    };
    html! {
        <div class="cap-controls">
            <div class="sfield" data-field="capacity-seeds">
                <label for={ids.seeds}>{ t!("capacity.seeds", locale = l) }</label>
                <input id={ids.seeds} type="text" inputmode="numeric" autocomplete="off"
                    value={(*p.seeds_raw).clone()} {oninput} aria-invalid={bad.to_string()} />
            </div>
            <div class="actions">
                <button type="button" class="primary" id={ids.size} disabled={running} onclick={size}>{ t!("capacity.size", locale = l) }</button>
                <button type="button" class="secondary" id={ids.cancel} disabled={!running} onclick={cancel}>{ t!("capacity.cancel", locale = l) }</button>
            </div>
        </div>
    }
}

/// Where the sizing is: starting, runs done of the total, cancelled, or why it failed.
fn status_line(status: &Status, lang: Lang) -> Html {
    let l = lang.code();
    match status {
        Status::Idle => Html::default(),
        Status::Running(_, 0) => html! {
            <p class="sim-status" data-capacity-status="running">{ t!("capacity.starting", locale = l) }</p>
        },
        Status::Running(done, total) => html! {
            <p class="sim-status" data-capacity-status="running">{ t!("capacity.running", locale = l, done = group_thousands(*done), total = group_thousands(*total)) }</p>
        },
        Status::Cancelled => html! {
            <p class="sim-status" data-capacity-status="cancelled">{ t!("capacity.cancelled", locale = l) }</p>
        },
        Status::Failed(f) => html! {
            <div class="notice error-notice" role="alert" data-capacity-status="failed">
                <p>{ t!("capacity.failed", locale = l) }</p>
                <p>{ f.text(lang) }</p>
            </div>
        },
    }
}

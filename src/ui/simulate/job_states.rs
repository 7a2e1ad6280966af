//! The job state machine as an SVG drawn here (hand-placed: the four states of the jobs table,
//! an entry arrow for `enqueue`, one arrow per [`Transition`]), with the rows in each state
//! and the moves of the current step highlighted.
//!
//! Testable and accessible: each state is `<g data-state="queued" data-count="3">`, each arrow
//! `<g data-transition="claim" class="edge active" data-times="1">` (`active` while the
//! current step takes it); the `<svg>` has `role="img"` and an `aria-label` reading the
//! counts and the step's moves. Colours come from CSS classes only (the page's CSP forbids
//! `style=`).

use crate::domain::number::group_thousands;
use crate::domain::sim::{Status, Transition};
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::AppContext;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`StateMachine`].
#[derive(Properties, PartialEq, Clone)]
pub struct StateMachineProps {
    /// Rows per state in [`Status::ALL`] order: queued, running, done, dead.
    pub counts: [u64; 4],
    /// The current step's moves: `(transition number, times)`.
    #[prop_or_default]
    pub moves: Vec<(u8, u64)>,
    /// Bit `n` set: the run takes [`Transition`] `n` at some step; arrows that only some
    /// runs take (rollback, expiry on the last attempt, double claim, completed again) are
    /// drawn only then.
    #[prop_or_default]
    pub seen: u32,
}

/// One arrow: its transition, SVG path, label position and anchor.
struct Edge {
    t: Transition,
    /// The state it leads to (shown with it when the box scrolls to a lit arrow).
    to: Status,
    path: &'static str,
    label: (i32, i32),
    anchor: &'static str,
    /// Drawn even when the run never takes it.
    always: bool,
}

/// The layout (viewBox 0 0 760 300). Boxes: queued (60,120)–(200,170), running
/// (330,120)–(470,170), done (600,40)–(740,90), dead (600,200)–(740,250).
const EDGES: [Edge; 10] = [
    Edge {
        t: Transition::ENQUEUE,
        to: Status::Queued,
        path: "M20,145 L58,145",
        label: (4, 132),
        anchor: "start",
        always: true,
    },
    Edge {
        t: Transition::CLAIM,
        to: Status::Running,
        path: "M200,133 L328,133",
        label: (265, 112),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::RETRY,
        to: Status::Queued,
        path: "M330,158 L202,158",
        label: (265, 186),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::ROLLBACK,
        to: Status::Queued,
        path: "M350,170 C350,240 150,240 150,172",
        label: (250, 250),
        anchor: "middle",
        always: false,
    },
    Edge {
        t: Transition::RECLAIM,
        to: Status::Running,
        path: "M380,120 C365,62 445,62 430,118",
        label: (400, 56),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::DOUBLE_CLAIM,
        to: Status::Running,
        path: "M395,170 C385,214 435,214 425,172",
        label: (410, 232),
        anchor: "middle",
        always: false,
    },
    Edge {
        t: Transition::COMPLETE,
        to: Status::Done,
        path: "M470,130 L598,72",
        label: (596, 56),
        anchor: "end",
        always: true,
    },
    Edge {
        t: Transition::DEAD_LETTER,
        to: Status::Dead,
        path: "M470,160 L598,218",
        label: (540, 184),
        anchor: "start",
        always: true,
    },
    Edge {
        t: Transition::EXPIRE,
        to: Status::Dead,
        path: "M460,170 C470,240 540,245 598,240",
        label: (530, 276),
        anchor: "middle",
        always: false,
    },
    Edge {
        t: Transition::COMPLETE_AGAIN,
        to: Status::Done,
        path: "M650,40 C640,6 700,6 690,38",
        label: (636, 16),
        anchor: "end",
        always: false,
    },
];

/// The narrow layout (viewBox -40 0 440 450), for screens up to [`NARROW_PX`] wide (a phone,
/// or 200 % zoom): states stacked from top to bottom, queued (90,48), running (90,188), done
/// (40,340) and dead (220,340) side by side; per arrow of [`EDGES`] in the same order: path,
/// label position and anchor.
const TALL: [(&str, (i32, i32), &str); 10] = [
    ("M160,14 L160,46", (168, 34), "start"),
    ("M140,98 L140,186", (132, 146), "end"),
    ("M180,188 L180,100", (188, 146), "start"),
    ("M90,213 C20,213 20,73 88,73", (4, 256), "start"),
    ("M230,196 C262,186 262,214 232,210", (396, 180), "end"),
    ("M230,218 C262,214 262,242 232,234", (396, 232), "end"),
    ("M120,238 L110,338", (102, 296), "end"),
    ("M200,238 L260,338", (238, 282), "start"),
    ("M225,238 C420,250 420,430 300,392", (396, 414), "end"),
    ("M80,390 C70,424 130,424 120,392", (4, 440), "start"),
];

/// The state boxes of the narrow layout ([`TALL`]): state, x, y (top-left); all 140 × 50.
const TALL_NODES: [(Status, i32, i32); 4] = [
    (Status::Queued, 90, 48),
    (Status::Running, 90, 188),
    (Status::Done, 40, 340),
    (Status::Dead, 220, 340),
];

/// The widest viewport (CSS px) that draws the narrow layout: the phone breakpoint of
/// `static/sim.css`, which 200 % zoom of a 1 280 px window also reaches.
const NARROW_PX: f64 = 640.0;

/// Whether the window is at most [`NARROW_PX`] wide.
fn narrow_now() -> bool {
    browser::viewport::at_most(NARROW_PX)
}

/// The state boxes: state, x, y (top-left); all 140 × 50.
const NODES: [(Status, i32, i32); 4] = [
    (Status::Queued, 60, 120),
    (Status::Running, 330, 120),
    (Status::Done, 600, 40),
    (Status::Dead, 600, 200),
];

/// The moves as text, e.g. `claim ×1, retry (run_after) ×1`.
pub fn moves_text(moves: &[(u8, u64)], l: &str, named_only: bool) -> String {
    moves
        .iter()
        .filter(|&&(t, _)| (usize::from(t) < Transition::NAMED) == named_only)
        .map(|&(t, n)| {
            let t = Transition(t);
            let name = if usize::from(t.0) < Transition::NAMED {
                t!(format!("sim.sm.t.{}", t.id()), locale = l).into_owned()
            } else {
                let from = t.from().map_or("", Status::id);
                format!("{from} → {}", t.to().id())
            };
            format!("{name} ×{n}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The job state machine with live counts.
#[component]
pub fn StateMachine(props: &StateMachineProps) -> Html {
    let fig = use_node_ref();
    {
        // Not on the first drawing: a result opens at the diagram's start; a step moves it.
        let (fig, drawn) = (fig.clone(), use_mut_ref(|| false));
        use_effect_with(props.moves.clone(), move |_| {
            if drawn.replace(true) {
                reveal_lit(&fig);
            }
        });
    }
    // The layout follows the window's width (rotating a phone, zooming).
    let narrow = use_state(narrow_now);
    {
        let narrow = narrow.clone();
        use_effect_with((), move |_| {
            let listener = browser::viewport::ResizeListener::new(move || narrow.set(narrow_now()));
            move || drop(listener)
        });
    }
    let tall = *narrow;
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let l = ctx.lang.code();
    let c = props.counts;
    let times = |t: Transition| {
        props
            .moves
            .iter()
            .find(|&&(x, _)| x == t.0)
            .map_or(0, |&(_, n)| n)
    };
    let mut aria = t!(
        "sim.sm.aria",
        locale = l,
        queued = c[0],
        running = c[1],
        done = c[2],
        dead = c[3]
    )
    .into_owned();
    let named = moves_text(&props.moves, l, true);
    if !named.is_empty() {
        aria.push_str(&t!("sim.sm.aria-step", locale = l, moves = named));
    }
    let other = moves_text(&props.moves, l, false);
    let edges = EDGES
        .iter()
        .zip(TALL)
        .filter(|(e, _)| e.always || props.seen & (1 << e.t.0) != 0)
        .map(|(e, narrow)| {
            let (path, (x, y), anchor) = if tall {
                narrow
            } else {
                (e.path, e.label, e.anchor)
            };
            let n = times(e.t);
            let active = n > 0;
            let marker = if active {
                "url(#sm-head-on)"
            } else {
                "url(#sm-head)"
            };
            let label = t!(format!("sim.sm.t.{}", e.t.id()), locale = l);
            html! {
                <g class={classes!("edge", active.then_some("active"))} data-transition={e.t.id()} data-to={e.to.id()} data-times={n.to_string()}>
                    <path d={path} marker-end={marker} />
                    <text x={x.to_string()} y={y.to_string()} text-anchor={anchor}>
                        { label }{ if active { format!(" ×{}", group_thousands(n)) } else { String::new() } }
                    </text>
                </g>
            }
        });
    let nodes = if tall { TALL_NODES } else { NODES };
    let nodes = nodes.iter().map(|&(s, x, y)| {
        let n = c[s as usize];
        let (cx, w) = (x + 70, 140);
        html! {
            <g class={classes!("node", s.id(), (n > 0).then_some("filled"))} data-state={s.id()} data-count={n.to_string()}>
                <rect x={x.to_string()} y={y.to_string()} width={w.to_string()} height="50" rx="10" />
                <text class="name" x={cx.to_string()} y={(y + 20).to_string()} text-anchor="middle">{ t!(format!("sim.sm.state.{}", s.id()), locale = l) }</text>
                <text class="count" x={cx.to_string()} y={(y + 41).to_string()} text-anchor="middle">{ group_thousands(n) }</text>
            </g>
        }
    });
    // Up to NARROW_PX the states stack from top to bottom ([`TALL`]), so every state is in
    // view at a readable text size without sideways scrolling. Should the wide drawing ever be
    // wider than its box, a step lighting an arrow out of view scrolls the box to it
    // ([`reveal_lit`]).
    let (view, entry) = if tall {
        // 40 units of room left of x = 0: the Japanese "完了（complete）×1" ends there.
        ("-40 0 440 450", ("160", "8"))
    } else {
        ("0 0 760 300", ("14", "145"))
    };
    html! {
        <figure class={classes!("state-machine", tall.then_some("sm-tall"))} ref={fig} data-layout={if tall { "tall" } else { "wide" }}>
            <figcaption>{ t!("sim.sm.title", locale = l) }</figcaption>
            <svg viewBox={view} role="img" aria-label={aria} xmlns="http://www.w3.org/2000/svg">
                <defs>
                    <marker id="sm-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path class="head" d="M0,0 L10,5 L0,10 z" />
                    </marker>
                    <marker id="sm-head-on" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path class="head on" d="M0,0 L10,5 L0,10 z" />
                    </marker>
                </defs>
                <circle class="entry" cx={entry.0} cy={entry.1} r="6" />
                { for edges }
                { for nodes }
            </svg>
            <div class="slot">{ (!other.is_empty()).then(|| html! {
                <p class="sm-other" data-other="true">{ t!("sim.sm.other", locale = l, moves = other) }</p>
            }) }</div>
        </figure>
    }
}

/// Scrolls the diagram's box `fig` sideways so the lit arrows (`.edge.active`) and the states
/// they lead to are in view,
/// when they are not (a phone's box is narrower than the drawing); when they are wider than
/// the box (claim and complete in one step), their right end: the arrow the job took last.
/// Does nothing when the box does not scroll.
fn reveal_lit(fig: &NodeRef) {
    let Some(f) = fig.cast::<web_sys::Element>() else {
        return;
    };
    if f.scroll_width() <= f.client_width() {
        return;
    }
    let Ok(lit) = f.query_selector_all(".edge.active") else {
        return;
    };
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    let mut take = |e: &web_sys::Element| {
        let r = e.get_bounding_client_rect();
        lo = lo.min(r.left());
        hi = hi.max(r.right());
    };
    for i in 0..lit.length() {
        if let Some(e) = lit
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        {
            take(&e);
            // The arrow's state box too, so the count it changed is read with it.
            let to = e.get_attribute("data-to").unwrap_or_default();
            if let Ok(Some(node)) = f.query_selector(&format!("[data-state=\"{to}\"]")) {
                take(&node);
            }
        }
    }
    if lo > hi {
        return;
    }
    let b = f.get_bounding_client_rect();
    let pad = 12.0;
    let by = if lo < b.left() && hi - lo <= b.width() - 2.0 * pad {
        lo - b.left() - pad
    } else if hi > b.right() || hi - lo > b.width() - 2.0 * pad {
        hi - b.right() + pad
    } else {
        return;
    };
    f.set_scroll_left(f.scroll_left() + by.round() as i32);
}

//! The job state machine as an SVG drawn here (hand-placed: the four states of the jobs table,
//! an entry arrow for `enqueue`, one arrow per [`Transition`]), with the rows in each state
//! and the moves of the current step highlighted.
//!
//! Testable and accessible: each state is `<g data-state="queued" data-count="3">`, each arrow
//! `<g data-transition="claim" class="edge active" data-times="1">` (`active` while the
//! current step takes it); the `<svg>` has `role="img"` and an `aria-label` reading the
//! counts and the step's moves. Colours come from CSS classes only (the page's CSP forbids
//! `style=`).

use crate::domain::sim::{Status, Transition};
use crate::ui::state::AppContext;
use rust_i18n::t;
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
    path: &'static str,
    label: (i32, i32),
    anchor: &'static str,
    /// Drawn even when the run never takes it.
    always: bool,
}

/// The layout (viewBox 0 0 680 300). Boxes: queued (90,120)–(210,170), running
/// (310,120)–(430,170), done (540,40)–(660,90), dead (540,200)–(660,250).
const EDGES: [Edge; 10] = [
    Edge {
        t: Transition::ENQUEUE,
        path: "M24,145 L88,145",
        label: (56, 136),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::CLAIM,
        path: "M210,133 L308,133",
        label: (260, 125),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::RETRY,
        path: "M310,158 L212,158",
        label: (260, 180),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::ROLLBACK,
        path: "M322,170 C322,236 178,236 178,172",
        label: (250, 246),
        anchor: "middle",
        always: false,
    },
    Edge {
        t: Transition::RECLAIM,
        path: "M345,120 C330,62 410,62 395,118",
        label: (370, 60),
        anchor: "middle",
        always: true,
    },
    Edge {
        t: Transition::DOUBLE_CLAIM,
        path: "M360,170 C350,214 400,214 390,172",
        label: (375, 226),
        anchor: "middle",
        always: false,
    },
    Edge {
        t: Transition::COMPLETE,
        path: "M430,130 L538,72",
        label: (478, 92),
        anchor: "end",
        always: true,
    },
    Edge {
        t: Transition::DEAD_LETTER,
        path: "M430,160 L538,218",
        label: (490, 178),
        anchor: "start",
        always: true,
    },
    Edge {
        t: Transition::EXPIRE,
        path: "M415,170 C430,268 500,262 538,240",
        label: (470, 284),
        anchor: "middle",
        always: false,
    },
    Edge {
        t: Transition::COMPLETE_AGAIN,
        path: "M580,40 C570,6 630,6 620,38",
        label: (566, 16),
        anchor: "end",
        always: false,
    },
];

/// The state boxes: state, x, y (top-left); all 120 × 50.
const NODES: [(Status, i32, i32); 4] = [
    (Status::Queued, 90, 120),
    (Status::Running, 310, 120),
    (Status::Done, 540, 40),
    (Status::Dead, 540, 200),
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
        .filter(|e| e.always || props.seen & (1 << e.t.0) != 0)
        .map(|e| {
            let n = times(e.t);
            let active = n > 0;
            let marker = if active {
                "url(#sm-head-on)"
            } else {
                "url(#sm-head)"
            };
            let (x, y) = e.label;
            let label = t!(format!("sim.sm.t.{}", e.t.id()), locale = l);
            html! {
                <g class={classes!("edge", active.then_some("active"))} data-transition={e.t.id()} data-times={n.to_string()}>
                    <path d={e.path} marker-end={marker} />
                    <text x={x.to_string()} y={y.to_string()} text-anchor={e.anchor}>
                        { label }{ if active { format!(" ×{n}") } else { String::new() } }
                    </text>
                </g>
            }
        });
    let nodes = NODES.iter().map(|&(s, x, y)| {
        let n = c[s as usize];
        let (cx, w) = (x + 60, 120);
        html! {
            <g class={classes!("node", s.id(), (n > 0).then_some("filled"))} data-state={s.id()} data-count={n.to_string()}>
                <rect x={x.to_string()} y={y.to_string()} width={w.to_string()} height="50" rx="10" />
                <text class="name" x={cx.to_string()} y={(y + 20).to_string()} text-anchor="middle">{ t!(format!("sim.sm.state.{}", s.id()), locale = l) }</text>
                <text class="count" x={cx.to_string()} y={(y + 41).to_string()} text-anchor="middle">{ n.to_string() }</text>
            </g>
        }
    });
    html! {
        <figure class="state-machine">
            <figcaption>{ t!("sim.sm.title", locale = l) }</figcaption>
            <svg viewBox="0 0 680 300" role="img" aria-label={aria} xmlns="http://www.w3.org/2000/svg">
                <defs>
                    <marker id="sm-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path class="head" d="M0,0 L10,5 L0,10 z" />
                    </marker>
                    <marker id="sm-head-on" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path class="head on" d="M0,0 L10,5 L0,10 z" />
                    </marker>
                </defs>
                <circle class="entry" cx="18" cy="145" r="6" />
                { for edges }
                { for nodes }
            </svg>
            <div class="slot">{ (!other.is_empty()).then(|| html! {
                <p class="sm-other" data-other="true">{ t!("sim.sm.other", locale = l, moves = other) }</p>
            }) }</div>
        </figure>
    }
}

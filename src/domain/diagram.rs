//! The decision flowchart as Mermaid source and as SVG rendered at build time (`build.rs`),
//! plus the pure function that marks a path on it.
//!
//! The SVG carries stable ids: nodes `data-node="<question or outcome id>"` (and `start`),
//! edges `data-edge="<from>--<to>"` on the edge path (`fc-edge`), its arrowhead (`fc-arrow`)
//! and its label (`fc-label`, `fc-label-bg`). Highlighting adds the class `on-path` to those
//! elements, and `is-current` to the node of the question being asked, and writes the path and
//! its outcome in words as the SVG's `<desc>` ([`path_text`]), named by `aria-describedby`.

use crate::domain::flowchart::{Evaluation, Next, QuestionId, Status, RULES, START, START_NODE};
use crate::domain::lang::Lang;
use crate::text::t;

/// The class added to every node and edge element on the walked path.
pub const ON_PATH: &str = "on-path";

/// The class added to the node of the question awaiting an answer.
pub const CURRENT: &str = "is-current";

const SVG_EN: &str = include_str!(concat!(env!("OUT_DIR"), "/flowchart.en.svg"));
const SVG_JA: &str = include_str!(concat!(env!("OUT_DIR"), "/flowchart.ja.svg"));
const MMD_EN: &str = include_str!("../../diagrams/flowchart.en.mmd");
const MMD_JA: &str = include_str!("../../diagrams/flowchart.ja.mmd");

/// The flowchart's Mermaid source in `lang` (node ids in camelCase, e.g. `timeTriggered`).
pub fn mermaid_source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => MMD_EN,
        Lang::Ja => MMD_JA,
    }
}

/// The flowchart rendered to SVG (no path marked) in `lang`: ~15 KB, scalable (viewBox only).
pub fn svg(lang: Lang) -> &'static str {
    match lang {
        Lang::En => SVG_EN,
        Lang::Ja => SVG_JA,
    }
}

/// Every node id of the flowchart: `start`, the five questions, the five outcomes.
pub fn all_node_ids() -> Vec<&'static str> {
    let mut ids = vec![START_NODE];
    ids.extend(RULES.iter().map(|r| r.question.id()));
    ids.extend(
        crate::domain::flowchart::Outcome::ALL
            .iter()
            .map(|o| o.id()),
    );
    ids
}

/// Every edge id of the flowchart (`"from--to"`), derived from [`RULES`]: the start edge,
/// then yes and no of each question.
pub fn all_edge_ids() -> Vec<String> {
    let mut ids = vec![format!("{START_NODE}--{}", START.id())];
    for r in RULES {
        for next in [r.yes, r.no] {
            let to = match next {
                Next::Ask(q) => q.id(),
                Next::Decide(o) => o.id(),
            };
            ids.push(format!("{}--{to}", r.question.id()));
        }
    }
    ids
}

/// The SVG of `lang` with the path of `eval` marked: `on-path` on its nodes and edges,
/// `is-current` on the node of the question being asked: `current` when given (the user went
/// back to an earlier question), else the pending question of `eval`; the path in words
/// ([`path_text`]) as `<desc id="fc-<lang>-desc">` right after the `<title>`, which the root's
/// `aria-describedby` names. Pure string work on the build-time SVG.
pub fn highlighted_svg(lang: Lang, eval: &Evaluation, current: Option<QuestionId>) -> String {
    let current = current.or(match eval.status {
        Status::Ask(q) => Some(q),
        Status::Decided(_) => None,
    });
    let code = lang.code();
    let mut out = svg(lang)
        .replacen(
            &format!("aria-labelledby=\"fc-{code}-title\""),
            &format!("aria-labelledby=\"fc-{code}-title\" aria-describedby=\"fc-{code}-desc\""),
            1,
        )
        .replacen(
            "</title>",
            &format!(
                "</title><desc id=\"fc-{code}-desc\">{}</desc>",
                xml_text(&path_text(eval, lang))
            ),
            1,
        );
    for id in eval.node_ids() {
        let extra = match current {
            Some(q) if q.id() == id => format!("{ON_PATH} {CURRENT}"),
            _ => ON_PATH.to_owned(),
        };
        out = out.replace(
            &format!("class=\"fc-node\" data-node=\"{id}\""),
            &format!("class=\"fc-node {extra}\" data-node=\"{id}\""),
        );
    }
    for id in eval.edge_ids() {
        for kind in ["fc-edge", "fc-arrow", "fc-label", "fc-label-bg"] {
            out = out.replace(
                &format!("class=\"{kind}\" data-edge=\"{id}\""),
                &format!("class=\"{kind} {ON_PATH}\" data-edge=\"{id}\""),
            );
        }
    }
    out
}

/// The walked path in words, in `lang`: each question with its answer, then the outcome or
/// the question still to answer, e.g. "Path: Is the trigger a point in time…? No → Does the
/// user need the result right there, in the response? No → outcome: Asynchronous: enqueue a
/// job" (keys `fc.*` of `locales/page/decide.yml`). The flowchart's text alternative
/// ([`highlighted_svg`]) and the share card's caption.
pub fn path_text(eval: &Evaluation, lang: Lang) -> String {
    let l = lang.code();
    let mut steps: Vec<String> = eval
        .path
        .iter()
        .map(|st| {
            let answer = t!(if st.yes() { "fc.yes" } else { "fc.no" }, locale = l);
            t!(
                "fc.step",
                locale = l,
                question = st.question.text(lang),
                answer = answer
            )
            .into_owned()
        })
        .collect();
    steps.push(match eval.status {
        Status::Decided(o) => t!("fc.to-outcome", locale = l, outcome = o.title(lang)).into_owned(),
        Status::Ask(q) => t!("fc.to-next", locale = l, question = q.text(lang)).into_owned(),
    });
    t!("fc.path", locale = l, steps = steps.join(" → ")).into_owned()
}

/// `s` as XML character data: `&`, `<` and `>` escaped.
fn xml_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

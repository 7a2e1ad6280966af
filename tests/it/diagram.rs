//! The build-time flowchart SVG: stable ids, exact highlighting, reproducible bytes.

use modality_advisor::domain::diagram::{
    all_edge_ids, all_node_ids, highlighted_svg, mermaid_source, svg, CURRENT, ON_PATH,
};
use modality_advisor::domain::{evaluate, Answers, Lang, QuestionId};
use std::collections::BTreeSet;

/// The values of `attr` on elements whose class list starts with `class` (and, when
/// `marked`, contains `on-path`).
fn ids(svg: &str, class: &str, attr: &str, marked: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for part in svg.split("class=\"").skip(1) {
        let Some((classes, rest)) = part.split_once('"') else {
            continue;
        };
        let mut words = classes.split(' ');
        if words.next() != Some(class) || (marked && !classes.split(' ').any(|w| w == ON_PATH)) {
            continue;
        }
        let key = format!(" {attr}=\"");
        if let Some(v) = rest.strip_prefix(&key).and_then(|r| r.split('"').next()) {
            out.insert(v.to_owned());
        }
    }
    out
}

#[test]
fn every_node_and_edge_of_the_engine_is_in_both_svgs_once() {
    let nodes: BTreeSet<String> = all_node_ids().into_iter().map(String::from).collect();
    let edges: BTreeSet<String> = all_edge_ids().into_iter().collect();
    assert_eq!(nodes.len(), 11);
    assert_eq!(edges.len(), 11);
    for lang in Lang::ALL {
        let s = svg(lang);
        assert_eq!(ids(s, "fc-node", "data-node", false), nodes, "{lang:?}");
        assert_eq!(ids(s, "fc-edge", "data-edge", false), edges, "{lang:?}");
        assert_eq!(ids(s, "fc-arrow", "data-edge", false), edges, "{lang:?}");
        for n in &nodes {
            assert_eq!(
                s.matches(&format!("data-node=\"{n}\"")).count(),
                1,
                "{lang:?} {n}"
            );
        }
        assert!(!s.contains(ON_PATH), "the plain SVG marks nothing");
        let root = &s[..s.find('>').expect("root tag")];
        assert!(
            root.starts_with("<svg ") && root.contains("viewBox=") && !root.contains(" width="),
            "{root}"
        );
        assert!(
            s.contains(&format!("id=\"fc-{}-arrow-0\"", lang.code())),
            "marker ids are prefixed"
        );
    }
}

#[test]
fn mermaid_sources_describe_the_engine_graph() {
    // Every edge of the engine appears in each Mermaid source as camelCase ids.
    let camel = |id: &str| {
        let mut out = String::new();
        let mut up = false;
        for c in id.chars() {
            if c == '-' {
                up = true;
            } else if up {
                out.push(c.to_ascii_uppercase());
                up = false;
            } else {
                out.push(c);
            }
        }
        out
    };
    for lang in Lang::ALL {
        let src = mermaid_source(lang);
        let arrows = src.lines().filter(|l| l.contains("-->")).count();
        assert_eq!(arrows, all_edge_ids().len(), "{lang:?}");
        for e in all_edge_ids() {
            let (from, to) = e.split_once("--").expect("from--to");
            let found = src.lines().any(|l| {
                let l = l.trim();
                l.starts_with(&camel(from)) && l.contains(&format!("--> {}", camel(to)))
            });
            assert!(found, "{lang:?}: edge {e} missing from the Mermaid source");
        }
    }
}

fn check_highlight(
    given: &[(QuestionId, bool)],
    nodes: &[&str],
    edges: &[&str],
    current: Option<&str>,
) {
    let mut answers = Answers::new();
    for &(q, v) in given {
        answers.set(q, v);
    }
    let eval = evaluate(&answers);
    for lang in Lang::ALL {
        let s = highlighted_svg(lang, &eval, None);
        let want_nodes: BTreeSet<String> = nodes.iter().map(|s| s.to_string()).collect();
        let want_edges: BTreeSet<String> = edges.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            ids(&s, "fc-node", "data-node", true),
            want_nodes,
            "{given:?}"
        );
        assert_eq!(
            ids(&s, "fc-edge", "data-edge", true),
            want_edges,
            "{given:?}"
        );
        assert_eq!(
            ids(&s, "fc-arrow", "data-edge", true),
            want_edges,
            "{given:?}"
        );
        let cur: Vec<_> = s
            .split("class=\"fc-node ")
            .skip(1)
            .filter(|p| p.split('"').next().is_some_and(|c| c.contains(CURRENT)))
            .filter_map(|p| p.split("data-node=\"").nth(1)?.split('"').next())
            .collect();
        assert_eq!(cur, current.into_iter().collect::<Vec<_>>(), "{given:?}");
    }
}

#[test]
fn highlighting_marks_exactly_the_path() {
    use QuestionId::*;
    check_highlight(
        &[],
        &["start", "time-triggered"],
        &["start--time-triggered"],
        Some("time-triggered"),
    );
    check_highlight(
        &[(TimeTriggered, true)],
        &["start", "time-triggered", "batch"],
        &["start--time-triggered", "time-triggered--batch"],
        None,
    );
    check_highlight(
        &[(TimeTriggered, false), (NeedsResultNow, true)],
        &[
            "start",
            "time-triggered",
            "needs-result-now",
            "within-seconds",
        ],
        &[
            "start--time-triggered",
            "time-triggered--needs-result-now",
            "needs-result-now--within-seconds",
        ],
        Some("within-seconds"),
    );
    check_highlight(
        &[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, true),
            (KeepAcceptingWhenDown, true),
        ],
        &[
            "start",
            "time-triggered",
            "needs-result-now",
            "within-seconds",
            "external-call",
            "keep-accepting-when-down",
            "async-ticket",
        ],
        &[
            "start--time-triggered",
            "time-triggered--needs-result-now",
            "needs-result-now--within-seconds",
            "within-seconds--external-call",
            "external-call--keep-accepting-when-down",
            "keep-accepting-when-down--async-ticket",
        ],
        None,
    );
}

#[test]
fn going_back_marks_the_edited_question_as_current() {
    let answers = Answers::new()
        .with(QuestionId::TimeTriggered, false)
        .with(QuestionId::NeedsResultNow, false);
    let s = highlighted_svg(
        Lang::En,
        &evaluate(&answers),
        Some(QuestionId::TimeTriggered),
    );
    assert!(s.contains("class=\"fc-node on-path is-current\" data-node=\"time-triggered\""));
    assert!(s.contains("class=\"fc-node on-path\" data-node=\"async-enqueue\""));
}

/// The SVG is produced with built-in text metrics (a font family that exists nowhere), so
/// it is byte-identical on every machine; the snapshots pin it.
#[test]
fn rendered_svgs_are_reproducible() {
    insta::assert_snapshot!("flowchart_en_svg", svg(Lang::En));
    insta::assert_snapshot!("flowchart_ja_svg", svg(Lang::Ja));
}

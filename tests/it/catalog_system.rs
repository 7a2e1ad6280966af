//! The system picture: links between processes and outside actors, kept in the catalog file
//! (older files read unchanged), the graph and its findings (a cycle, a link to a deleted
//! process) in both languages, the layered layout (no box over another, every edge drawn,
//! the same drawing every time), the SVG, and the mermaid block every catalog document
//! carries — parsed by the same strict mermaid parser the build renders the flowchart with.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::app_state::{Action, AppState, CatalogAction};
use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::system::draw::{
    fit, markdown_section, mermaid, svg, two_lines,
};
use modality_advisor::domain::catalog::system::layout::{layout, Rect};
use modality_advisor::domain::catalog::system::{
    findings, Actor, ActorKind, Direction, Graph, Link, LinkError, Node, Other, Via, MAX_LINKS,
};
use modality_advisor::domain::catalog::{Catalog, ProcessId};
use modality_advisor::domain::sheet::import::ImportError;
use modality_advisor::domain::Lang;
use proptest::prelude::*;

fn id(s: &str) -> ProcessId {
    ProcessId(s.into())
}

fn to(p: &str) -> Link {
    Link {
        direction: Direction::Triggers,
        other: Other::Process(id(p)),
        via: None,
    }
}

fn from_actor(kind: ActorKind, name: &str) -> Link {
    Link {
        direction: Direction::TriggeredBy,
        other: Other::Actor(Actor {
            kind,
            name: name.into(),
        }),
        via: None,
    }
}

/// The example with the hotel's chain: a guest starts the charge, the charge enqueues the
/// mail, the mail names the invoice as what triggers it from its own side too (one edge),
/// a clock starts the nightly report.
fn hotel() -> Catalog {
    let mut c = example_catalog();
    let add = |c: &mut Catalog, holder: &str, link: Link| {
        c.add_link(&id(holder), link).expect("links");
    };
    add(&mut c, "charge-card", from_actor(ActorKind::User, "guest"));
    add(&mut c, "charge-card", to("confirmation-mail"));
    add(&mut c, "confirmation-mail", to("group-invoice-pdf"));
    add(
        &mut c,
        "group-invoice-pdf",
        Link {
            direction: Direction::TriggeredBy,
            other: Other::Process(id("confirmation-mail")),
            via: None,
        },
    );
    add(
        &mut c,
        "no-show-report",
        from_actor(ActorKind::Clock, "02:00 daily"),
    );
    c
}

#[test]
fn the_graph_holds_each_trigger_once_with_its_kind_from_the_started_process() {
    let c = hotel();
    let g = Graph::of(&c);
    assert_eq!(
        g.nodes.len(),
        c.processes.len() + 2,
        "two actors: {:?}",
        g.nodes
    );
    let label = |i: usize| g.label(&c, i, Lang::En);
    let edges: Vec<(String, String, Option<Via>)> = g
        .edges
        .iter()
        .map(|e| (label(e.from), label(e.to), e.via))
        .collect();
    assert_eq!(
        edges,
        [
            (
                "guest".into(),
                "Charge the card at checkout".into(),
                Some(Via::Sync)
            ),
            (
                "Charge the card at checkout".into(),
                "Send the reservation confirmation mail".into(),
                Some(Via::Enqueue)
            ),
            (
                "Send the reservation confirmation mail".into(),
                "Issue the group booking invoice PDF".into(),
                Some(Via::Enqueue)
            ),
            (
                "02:00 daily".into(),
                "Nightly no-show report".into(),
                Some(Via::Schedule)
            ),
        ]
        .map(|(a, b, v): (String, String, Option<Via>)| (a, b, v))
        .to_vec(),
        "{edges:#?}"
    );
    assert!(findings(&c, Lang::En).is_empty());
}

#[test]
fn a_chosen_kind_wins_over_the_outcome_and_an_outside_target_is_called() {
    let mut c = example_catalog();
    let mut link = to("no-show-report");
    link.via = Some(Via::Enqueue);
    c.add_link(&id("charge-card"), link).expect("links");
    c.add_link(
        &id("confirmation-mail"),
        Link {
            direction: Direction::Triggers,
            other: Other::Actor(Actor {
                kind: ActorKind::System,
                name: "  mail API ".into(),
            }),
            via: None,
        },
    )
    .expect("links");
    let g = Graph::of(&c);
    assert_eq!(g.edges[0].via, Some(Via::Enqueue));
    assert_eq!(g.edges[1].via, Some(Via::Sync));
    assert!(g.nodes.contains(&Node::Actor(Actor {
        kind: ActorKind::System,
        name: "mail API".into()
    })));
}

#[test]
fn adding_refuses_what_the_catalog_cannot_hold_and_names_it() {
    let mut c = example_catalog();
    assert_eq!(
        c.add_link(&id("charge-card"), to("nope")),
        Err(LinkError::NoSuchProcess(id("nope")))
    );
    assert_eq!(
        c.add_link(&id("nope"), to("charge-card")),
        Err(LinkError::NoSuchProcess(id("nope")))
    );
    let long = from_actor(ActorKind::User, &"x".repeat(201));
    assert_eq!(
        c.add_link(&id("charge-card"), long),
        Err(LinkError::NameTooLong)
    );
    for i in 0..MAX_LINKS {
        c.add_link(
            &id("charge-card"),
            from_actor(ActorKind::Other, &format!("e{i}")),
        )
        .expect("room");
    }
    assert_eq!(
        c.add_link(&id("charge-card"), from_actor(ActorKind::Other, "one more")),
        Err(LinkError::TooMany)
    );
    // The same link twice is kept once.
    let before = c.clone();
    c.add_link(&id("charge-card"), from_actor(ActorKind::Other, "e0"))
        .expect("already there");
    assert_eq!(c, before);
    for lang in Lang::ALL {
        for e in [
            LinkError::TooMany,
            LinkError::NameTooLong,
            LinkError::NoSuchProcess(id("x")),
        ] {
            let m = e.message(lang);
            assert!(!m.contains("system.") && m.chars().count() > 20, "{m}");
        }
    }
}

fn check_finding(c: &Catalog, lang: Lang, process: &str, field: Direction, words: &[&str]) {
    let found = findings(c, lang);
    let f = found
        .iter()
        .find(|f| f.process.as_str() == process && f.field == field)
        .unwrap_or_else(|| panic!("{lang:?}: no finding on {process}: {found:#?}"));
    for w in words {
        assert!(
            f.message.contains(w),
            "{lang:?}: {:?} lacks {w:?}",
            f.message
        );
    }
}

#[test]
fn a_link_to_a_deleted_process_is_kept_and_named_in_both_languages() {
    let mut c = hotel();
    c.processes.retain(|p| p.id.as_str() != "confirmation-mail");
    // Nothing lost: the charge still names the mail, the invoice still names it too.
    assert_eq!(c.get(&id("charge-card")).map(|p| p.links.len()), Some(2));
    check_finding(
        &c,
        Lang::En,
        "charge-card",
        Direction::Triggers,
        &[
            "Charge the card at checkout",
            "“Triggers”",
            "confirmation-mail",
            "not in the catalog",
        ],
    );
    check_finding(
        &c,
        Lang::Ja,
        "charge-card",
        Direction::Triggers,
        &[
            "Charge the card at checkout",
            "「起動先」",
            "confirmation-mail",
            "カタログにない",
        ],
    );
    check_finding(
        &c,
        Lang::En,
        "group-invoice-pdf",
        Direction::TriggeredBy,
        &["“Triggered by”", "confirmation-mail"],
    );
    check_finding(
        &c,
        Lang::Ja,
        "group-invoice-pdf",
        Direction::TriggeredBy,
        &["「起動元」"],
    );
    let g = Graph::of(&c);
    assert_eq!(
        g.nodes
            .iter()
            .filter(|n| **n == Node::Missing(id("confirmation-mail")))
            .count(),
        1,
        "one broken node for both links"
    );
    let drawn = svg(&c, Lang::En);
    assert!(
        drawn.contains("data-node=\"missing\" data-process=\"confirmation-mail\""),
        "{drawn}"
    );
    // The file keeps the broken link and reads back the same.
    assert_eq!(read_catalog(&c.to_json()).as_ref(), Ok(&c));
}

#[test]
fn a_cycle_is_a_finding_naming_the_process_and_field_that_close_it() {
    let mut c = hotel();
    c.add_link(&id("group-invoice-pdf"), to("charge-card"))
        .expect("links");
    check_finding(&c, Lang::En, "group-invoice-pdf", Direction::Triggers, &["Issue the group booking invoice PDF", "“Triggers”", "cycle", "Charge the card at checkout → Send the reservation confirmation mail → Issue the group booking invoice PDF → Charge the card at checkout"]);
    check_finding(
        &c,
        Lang::Ja,
        "group-invoice-pdf",
        Direction::Triggers,
        &["「起動先」", "循環"],
    );
    assert_eq!(findings(&c, Lang::En).len(), 1);
    // A process that starts itself is a cycle too.
    let mut own = example_catalog();
    own.add_link(&id("no-show-report"), to("no-show-report"))
        .expect("links");
    check_finding(
        &own,
        Lang::En,
        "no-show-report",
        Direction::Triggers,
        &["Nightly no-show report → Nightly no-show report"],
    );
    // An outside actor both starting and started by a process is no cycle.
    let mut out = example_catalog();
    out.add_link(&id("charge-card"), from_actor(ActorKind::System, "psp"))
        .expect("links");
    let mut back = from_actor(ActorKind::System, "psp");
    back.direction = Direction::Triggers;
    out.add_link(&id("charge-card"), back).expect("links");
    assert!(findings(&out, Lang::En).is_empty());
}

#[test]
fn links_round_trip_and_older_files_read_unchanged() {
    let c = hotel();
    let json = c.to_json();
    assert!(json.contains("\"links\""), "{json}");
    assert!(
        json.contains("\"other\": {\n            \"actor\""),
        "{json}"
    );
    assert_eq!(read_catalog(&json), Ok(c));
    let old = example_catalog().to_json();
    assert!(
        !old.contains("links"),
        "a catalog without links writes no links field"
    );
    assert_eq!(read_catalog(&old).map(|c| c.to_json()), Ok(old));
}

fn bad(edit: impl Fn(&mut serde_json::Value)) -> ImportError {
    let mut v: serde_json::Value = serde_json::from_str(&hotel().to_json()).expect("json");
    edit(&mut v);
    read_catalog(&v.to_string()).expect_err("refused")
}

#[test]
fn a_bad_link_in_a_file_is_refused_naming_its_path() {
    let path = |e: ImportError| match e {
        ImportError::Field { path, .. }
        | ImportError::OutOfRange { path, .. }
        | ImportError::Inconsistent { path, .. } => path,
        other => format!("{other:?}"),
    };
    assert_eq!(
        path(bad(
            |v| v["processes"][1]["links"][1]["other"]["process"] = "Not An Id".into()
        )),
        "processes[1].links[1].other.process"
    );
    assert_eq!(
        path(bad(
            |v| v["processes"][1]["links"][0]["other"]["actor"]["name"] = "x".repeat(201).into()
        )),
        "processes[1].links[0].other.actor.name"
    );
    assert!(path(bad(
        |v| v["processes"][1]["links"][0]["direction"] = "sideways".into()
    ))
    .starts_with("processes[1].links[0].direction"));
    assert!(
        path(bad(|v| v["processes"][1]["links"][0]["via"] = "fax".into()))
            .starts_with("processes[1].links[0].via")
    );
    assert!(path(bad(
        |v| v["processes"][1]["links"][0]["colour"] = "red".into()
    ))
    .starts_with("processes[1].links[0]"));
    let many: Vec<serde_json::Value> = (0..=MAX_LINKS)
        .map(|i| serde_json::json!({"direction": "triggered-by", "other": {"actor": {"kind": "user", "name": format!("u{i}")}}}))
        .collect();
    assert_eq!(
        path(bad(|v| v["processes"][0]["links"] = many.clone().into())),
        "processes[0].links"
    );
}

#[test]
fn deleting_a_process_keeps_the_links_to_it_and_undo_mends_them() {
    let mut s = AppState::on_catalog(Lang::En, hotel(), None);
    let send = |s: AppState, a: CatalogAction| {
        modality_advisor::domain::app_state::reduce(&s, Action::Catalog(a)).unwrap_or(s)
    };
    s = send(s, CatalogAction::Delete(id("confirmation-mail")));
    let c = s.catalog_now();
    assert_eq!(
        c.get(&id("charge-card")).map(|p| p.links.clone()),
        Some(
            hotel()
                .get(&id("charge-card"))
                .expect("there")
                .links
                .clone()
        )
    );
    assert_eq!(findings(&c, Lang::En).len(), 2);
    s = send(s, CatalogAction::Undo);
    assert!(findings(&s.catalog_now(), Lang::En).is_empty());
    // Link and unlink through the reducer; a refusal is the catalog's notice.
    s = send(s, CatalogAction::Link(id("charge-card"), to("ghost")));
    let notice = s.catalog_notice.clone().expect("a notice");
    assert!(
        notice.is_error() && notice.text(Lang::Ja).contains("ghost"),
        "{notice:?}"
    );
    s = send(s, CatalogAction::Unlink(id("charge-card"), 0));
    assert_eq!(
        s.catalog_now()
            .get(&id("charge-card"))
            .map(|p| p.links.len()),
        Some(1)
    );
}

/// A point strictly inside a box.
fn inside(b: &Rect, (x, y): (i32, i32)) -> bool {
    x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h
}

/// The layout's invariants for `n` nodes and `edges`.
fn check_layout(n: usize, edges: &[(usize, usize)]) {
    let l = layout(n, edges);
    assert_eq!(l.boxes.len(), n);
    for (i, a) in l.boxes.iter().enumerate() {
        assert!(
            a.x >= 0 && a.y >= 0 && a.x + a.w <= l.width && a.y + a.h <= l.height,
            "box {i} outside {l:?}"
        );
        for b in &l.boxes[i + 1..] {
            assert!(!a.overlaps(b), "{a:?} over {b:?} in {edges:?}");
        }
    }
    assert_eq!(l.routes.len(), edges.len());
    for (r, &(from, to)) in l.routes.iter().zip(edges) {
        assert!(r.points.len() >= 2, "edge {from}->{to} not drawn");
        let on =
            |b: &Rect, (x, y): (i32, i32)| x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
        assert!(
            on(&l.boxes[from], r.points[0]),
            "edge {from}->{to} starts off its box: {r:?}"
        );
        assert!(
            on(&l.boxes[to], *r.points.last().expect("points")),
            "edge {from}->{to} ends off its box: {r:?}"
        );
        // No segment crosses a box: sample each segment every pixel along its length.
        for w in r.points.windows(2) {
            let ((x1, y1), (x2, y2)) = (w[0], w[1]);
            let steps = (x2 - x1).abs().max((y2 - y1).abs()).max(1);
            for k in 0..=steps {
                let p = (x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps);
                for (bi, b) in l.boxes.iter().enumerate() {
                    assert!(
                        !inside(b, p),
                        "edge {from}->{to} crosses box {bi} at {p:?}: {l:?}"
                    );
                }
            }
        }
    }
    assert_eq!(layout(n, edges), l, "the same graph, the same drawing");
}

#[test]
fn the_layout_keeps_boxes_apart_and_draws_every_edge() {
    check_layout(0, &[]);
    check_layout(1, &[]);
    check_layout(3, &[(0, 1), (1, 2)]);
    check_layout(3, &[(0, 1), (1, 2), (0, 2)]);
    check_layout(3, &[(0, 1), (1, 2), (2, 0)]);
    check_layout(2, &[(0, 1), (1, 0)]);
    check_layout(4, &[(0, 0), (0, 1), (2, 3), (3, 1)]);
    check_layout(
        6,
        &[
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 4),
            (2, 4),
            (3, 5),
            (0, 5),
            (5, 0),
        ],
    );
    // Layers by longest path: a chain goes down one layer a step.
    let l = layout(3, &[(0, 1), (1, 2)]);
    assert!(l.boxes[0].y < l.boxes[1].y && l.boxes[1].y < l.boxes[2].y);
}

proptest! {
    #[test]
    fn any_graph_lays_out_without_overlap(n in 1usize..9, raw in proptest::collection::vec((0usize..9, 0usize..9), 0..16)) {
        let edges: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
        check_layout(n, &edges);
    }
}

#[test]
fn names_are_cut_by_width_with_an_ellipsis() {
    assert_eq!(fit("Charge the card"), "Charge the card");
    assert_eq!(two_lines("Charge the card"), ["Charge the card"]);
    assert_eq!(
        two_lines("Send the reservation confirmation mail"),
        ["Send the reservation", "confirmation mail"]
    );
    assert_eq!(
        two_lines("Issue the group booking invoice PDF for the whole party"),
        ["Issue the group", "booking invoice PDF f…"]
    );
    assert_eq!(
        two_lines(&"予約".repeat(12)),
        ["予約".repeat(5) + "予", format!("{}…", "約予".repeat(5))]
    );
    assert_eq!(fit(&"a".repeat(22)), "a".repeat(22));
    assert_eq!(fit(&"a".repeat(23)), format!("{}…", "a".repeat(21)));
    assert_eq!(fit(&"予".repeat(12)), format!("{}…", "予".repeat(10)));
}

#[test]
fn the_svg_has_a_title_and_one_shape_per_node_and_edge() {
    let c = hotel();
    for lang in Lang::ALL {
        let s = svg(&c, lang);
        let doc = roxmltree::Document::parse(&s).unwrap_or_else(|e| panic!("{lang:?}: {e}\n{s}"));
        let root = doc.root_element();
        assert_eq!(root.attribute("role"), Some("img"));
        let title = root
            .children()
            .find(|n| n.has_tag_name("title"))
            .and_then(|t| t.text())
            .unwrap_or_default();
        assert!(title.contains(&c.processes.len().to_string()), "{title}");
        let count = |class: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(class))
                .count()
        };
        assert_eq!(count("sys-node"), c.processes.len() + 2);
        assert_eq!(count("sys-edge"), 4);
        assert_eq!(count("sys-via"), 4);
        let outcomes: Vec<&str> = doc
            .descendants()
            .filter_map(|n| n.attribute("data-outcome"))
            .collect();
        for o in [
            "sync-timeout",
            "async-enqueue",
            "async-ticket",
            "batch",
            "undecided",
        ] {
            assert!(
                outcomes.contains(&o),
                "{lang:?}: {o} not styled: {outcomes:?}"
            );
        }
    }
    assert_eq!(svg(&c, Lang::En), svg(&c, Lang::En), "deterministic");
}

/// Every mermaid block of `doc` (```` ```mermaid ```` fenced).
fn mermaid_blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        match cur.as_mut() {
            None if line == "```mermaid" => cur = Some(String::new()),
            Some(b) if line == "```" => {
                out.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

fn parses(src: &str) -> mermaid_rs_renderer::ParseOutput {
    mermaid_rs_renderer::parse_mermaid_strict(src)
        .unwrap_or_else(|e| panic!("mermaid does not parse: {e}\n{src}"))
}

/// The parser reads the system block as the graph it was written from: every node, every
/// edge between the right nodes with its label.
fn parses_as_the_graph(c: &Catalog, lang: Lang) {
    let m = mermaid(c, lang);
    let read = parses(&m).graph;
    let g = Graph::of(c);
    assert_eq!(read.nodes.len(), g.nodes.len(), "{m}");
    assert_eq!(read.edges.len(), g.edges.len(), "{m}");
    let id = |i: usize| match &g.nodes[i] {
        Node::Process(p) => format!("p{p}"),
        Node::Actor(_) => format!("a{i}"),
        Node::Missing(_) => format!("m{i}"),
    };
    for (e, r) in g.edges.iter().zip(&read.edges) {
        assert_eq!(
            (r.from.clone(), r.to.clone()),
            (id(e.from), id(e.to)),
            "{m}"
        );
        let want = e
            .via
            .map(|v| modality_advisor::domain::catalog::system::words::via_name(v, lang));
        assert_eq!(r.label, want, "{m}");
    }
}

#[test]
fn the_mermaid_block_parses_like_the_flowchart_and_holds_every_node_and_edge() {
    let mut c = hotel();
    c.processes[0].name = "Quote \" hash # <b>tag</b> & `tick` ; |pipe| [br] {x}".into();
    c.add_link(&c.processes[0].id.clone(), to("charge-card"))
        .expect("links");
    c.processes.retain(|p| p.id.as_str() != "group-invoice-pdf");
    for lang in Lang::ALL {
        parses_as_the_graph(&c, lang);
        parses_as_the_graph(&hotel(), lang);
        let m = mermaid(&c, lang);
        assert!(m.starts_with("flowchart TD\n"));
        let g = Graph::of(&c);
        assert_eq!(
            m.lines().filter(|l| l.contains("-->")).count(),
            g.edges.len(),
            "{m}"
        );
        assert!(
            !m.contains("<b>") && !m.contains('`') && m.contains("#quot;"),
            "{m}"
        );
        assert!(
            m.contains("classDef missing") && m.contains("classDef syncTimeout"),
            "{m}"
        );
        let doc = modality_advisor::domain::catalog::export::to_markdown(&c, lang);
        let blocks = mermaid_blocks(&doc);
        assert!(
            blocks.iter().any(|b| b.contains("-->|")),
            "the system block is in the document"
        );
        for b in &blocks {
            parses(b);
        }
    }
    let plain = mermaid(&hotel(), Lang::En);
    insta::assert_snapshot!(plain, @r#"
    flowchart TD
        p0["Check room availability<br>sync"]
        p1["Charge the card at checkout<br>sync + timeout"]
        p2["Send the reservation confirmation mail<br>async job"]
        p3["Issue the group booking invoice PDF<br>async + ticket"]
        p4["Hold a room at a partner hotel<br>async + ticket"]
        p5["Nightly no-show report<br>batch"]
        p6["Promote the waitlist when a room frees up<br>undecided"]
        a7(["guest<br>a user"])
        a8(["02:00 daily<br>a clock"])
        a7 -->|sync| p1
        p1 -->|enqueue| p2
        p2 -->|enqueue| p3
        a8 -->|schedule| p5
        classDef sync fill:#dbeafe,stroke:#1d4ed8
        class p0 sync
        classDef syncTimeout fill:#e0e7ff,stroke:#4338ca
        class p1 syncTimeout
        classDef asyncEnqueue fill:#dcfce7,stroke:#15803d
        class p2 asyncEnqueue
        classDef asyncTicket fill:#ccfbf1,stroke:#0f766e
        class p3,p4 asyncTicket
        classDef batch fill:#fef3c7,stroke:#b45309,stroke-dasharray:6 3
        class p5 batch
        classDef undecided fill:#f8fafc,stroke:#64748b,stroke-dasharray:3 3
        class p6 undecided
        classDef actor fill:#ffffff,stroke:#475569
        class a7,a8 actor
    "#);
}

#[test]
fn every_catalog_document_carries_the_diagram_once_there_are_links() {
    let c = hotel();
    for lang in Lang::ALL {
        let md = modality_advisor::domain::catalog::export::to_markdown(&c, lang);
        assert_eq!(md.matches("flowchart TD\n    p0[").count(), 1, "{md}");
        let section = markdown_section(&c, lang, 2);
        assert!(md.contains(section.trim_end()));
        assert!(markdown_section(&example_catalog(), lang, 2).is_empty());
    }
    let plain =
        modality_advisor::domain::catalog::export::to_markdown(&example_catalog(), Lang::En);
    assert!(!plain.contains("System diagram"), "no links, no diagram");
}

#[test]
fn the_share_documents_carry_it_too_and_azure_gets_its_own_block() {
    use modality_advisor::domain::share::adr::adr;
    use modality_advisor::domain::share::markdown::{markdown, Flavour};
    use modality_advisor::domain::share::{Share, Shared};
    let share = Share {
        lang: Lang::En,
        content: Shared::Catalog(hotel()),
    };
    let link = "https://example.test/#c1";
    let gfm = markdown(&share, Lang::En, link, Flavour::GitHub);
    assert!(
        mermaid_blocks(&gfm)
            .iter()
            .any(|b| b.contains("-->|enqueue|")),
        "{gfm}"
    );
    let record = adr(&share, Lang::En, link);
    let blocks = mermaid_blocks(&record);
    assert!(
        blocks.iter().any(|b| b.contains("-->|enqueue|")),
        "{record}"
    );
    blocks.iter().for_each(|b| {
        parses(b);
    });
    let azure = markdown(&share, Lang::En, link, Flavour::Azure);
    assert!(
        azure.contains("::: mermaid\ngraph TD\n    p0[\""),
        "{azure}"
    );
    assert!(
        azure.contains("(\"guest<br>a user\")") && !azure.contains("([\""),
        "stadium shapes become round ones for Azure: {azure}"
    );
}

#[test]
fn the_form_reads_back_only_what_its_options_give() {
    let check = |v: [&str; 5], want: Option<(&str, Link)>| {
        assert_eq!(
            Link::from_form(v[0], v[1], v[2], v[3], v[4]),
            want.map(|(h, l)| (id(h), l)),
            "{v:?}"
        );
    };
    check(
        ["p-1", "triggers", "p:p-2", "ignored", ""],
        Some(("p-1", to("p-2"))),
    );
    let mut guest = from_actor(ActorKind::User, "guest");
    guest.via = Some(Via::Sync);
    check(
        ["p-1", "triggered-by", "a:user", "  guest ", "sync"],
        Some(("p-1", guest)),
    );
    check(["p-1", "sideways", "p:p-2", "", ""], None);
    check(["p-1", "triggers", "a:robot", "", ""], None);
    check(["p-1", "triggers", "p:Bad Id", "", ""], None);
    check(["p-1", "triggers", "p-2", "", ""], None);
    check(["p-1", "triggers", "p:p-2", "", "fax"], None);
    check(["", "triggers", "p:p-2", "", ""], None);
}

#[test]
fn the_worker_writes_the_form_and_the_list_for_the_page() {
    let mut c = hotel();
    c.processes.retain(|p| p.id.as_str() != "confirmation-mail");
    for lang in Lang::ALL {
        let h = modality_advisor::domain::catalog::system::draw::html(&c, lang);
        for needle in [
            "data-sys-form",
            "name=\"process\"",
            "name=\"relation\"",
            "name=\"other\"",
            "name=\"name\"",
            "name=\"via\"",
            "id=\"link-add\"",
            "class=\"sys-scroll\" role=\"region\"",
            "class=\"sys-finding\"",
        ] {
            assert!(h.contains(needle), "{lang:?}: {needle} missing");
        }
        assert_eq!(h.matches("data-unlink=\"charge-card\"").count(), 2);
        assert_eq!(
            h.matches("class=\"system-link broken\"").count(),
            2,
            "both links to the deleted mail"
        );
        let bare = h
            .match_indices("system.")
            .any(|(i, _)| h[i + 7..].starts_with(|c: char| c.is_ascii_lowercase()));
        assert!(!bare, "{lang:?}: a key shown bare: {h}");
    }
    let none = modality_advisor::domain::catalog::system::draw::html(&example_catalog(), Lang::En);
    assert!(
        !none.contains("<svg") && none.contains("No links yet"),
        "{none}"
    );
}

#[test]
fn the_cli_carries_the_links_and_draws_the_system() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("catalog-system");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates the directory");
    let file = dir.join("hotel.catalog.json");
    std::fs::write(&file, hotel().to_json()).expect("writes");
    let run = |format: &str, lang: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
            .args(["catalog", "--input"])
            .arg(&file)
            .args(["--format", format, "--lang", lang])
            .output()
            .expect("runs the CLI");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).expect("UTF-8")
    };
    assert_eq!(run("mermaid", "en"), mermaid(&hotel(), Lang::En));
    assert_eq!(run("svg", "ja"), format!("{}\n", svg(&hotel(), Lang::Ja)));
    assert_eq!(read_catalog(&run("json", "en")), Ok(hotel()));
    assert!(run("markdown", "ja").contains("## システム図\n\n```mermaid\nflowchart TD\n"));
}

/// An actor without a name is named by its kind, so its second line says "outside" rather
/// than the kind again ("a user / a user"), in the SVG and the mermaid text, in both languages.
#[test]
fn an_unnamed_actor_does_not_say_its_kind_twice() {
    let mut c = example_catalog();
    c.add_link(&id("charge-card"), from_actor(ActorKind::User, ""))
        .expect("links");
    for (lang, kind, outside) in [
        (Lang::En, "a user", "outside"),
        (Lang::Ja, "利用者", "外部"),
    ] {
        let m = mermaid(&c, lang);
        assert!(m.contains(&format!("{kind}<br>{outside}")), "{m}");
        assert!(!m.contains(&format!("{kind}<br>{kind}")), "{m}");
    }
}

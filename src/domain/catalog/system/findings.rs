//! The links' findings, in both languages, each naming the process and the field: a link to
//! a process the catalog does not have (deleted: the link is kept, shown broken), and a
//! cycle among the processes (each run would start the next one again, without end).

use super::words::field_name;
use super::{Graph, Other};
use crate::domain::catalog::export::display_name;
use crate::domain::catalog::system::Direction;
use crate::domain::catalog::{Catalog, Process, ProcessId};
use crate::domain::Lang;
use crate::text::t;

/// A problem in the links, worded in the language asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemFinding {
    /// Stable code: `link-to-missing-process` or `link-cycle` (rule ids in
    /// [`crate::domain::rules`]).
    pub code: &'static str,
    /// The process holding the link.
    pub process: ProcessId,
    /// The field: "Triggers" or "Triggered by".
    pub field: Direction,
    /// The link's place in the process's `links` (from 0).
    pub link: usize,
    /// The sentence naming the process and the field, and what to do.
    pub message: String,
}

/// The links' findings in `lang`: every link naming a process the catalog does not have,
/// then every cycle among the processes (one finding per cycle, naming the process holding
/// the link that closes it).
pub fn findings(c: &Catalog, lang: Lang) -> Vec<SystemFinding> {
    let l = lang.code();
    let mut out = Vec::new();
    for p in &c.processes {
        for (li, link) in p.links.iter().enumerate() {
            if let Other::Process(id) = &link.other {
                if c.get(id).is_none() {
                    out.push(SystemFinding {
                        code: crate::domain::rules::LINK_TO_MISSING_PROCESS,
                        process: p.id.clone(),
                        field: link.direction,
                        link: li,
                        message: t!(
                            "system.finding.missing",
                            locale = l,
                            process = name_of(p),
                            field = field_name(link.direction, lang),
                            id = id.as_str()
                        )
                        .into_owned(),
                    });
                }
            }
        }
    }
    let g = Graph::of(c);
    for cycle in cycles(&g, c.processes.len()) {
        let Some(closing) = cycle.last() else {
            continue;
        };
        let (pi, li) = g.edges[*closing].origin;
        let p = &c.processes[pi];
        let mut names: Vec<String> = cycle
            .iter()
            .map(|e| name_of(&c.processes[g.edges[*e].from]))
            .collect();
        names.push(names[0].clone());
        let field = p.links[li].direction;
        out.push(SystemFinding {
            code: crate::domain::rules::LINK_CYCLE,
            process: p.id.clone(),
            field,
            link: li,
            message: t!(
                "system.finding.cycle",
                locale = l,
                process = name_of(p),
                field = field_name(field, lang),
                cycle = names.join(" → ")
            )
            .into_owned(),
        });
    }
    out
}

fn name_of(p: &Process) -> String {
    display_name(p)
}

/// The cycles among the first `n` nodes (the processes), each as the edges that walk it, in
/// order, starting at its earliest process: one per strongly connected component that has
/// one (Tarjan's algorithm; a self-link is a cycle of one edge).
pub fn cycles(g: &Graph, n: usize) -> Vec<Vec<usize>> {
    let out_edges = |v: usize| {
        g.edges
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.from == v && e.to < n)
    };
    let comp = components(n, |v| out_edges(v).map(|(_, e)| e.to).collect());
    let mut found = Vec::new();
    let mut done = vec![false; n];
    for start in 0..n {
        if done[start] {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&v| comp[v] == comp[start]).collect();
        for &m in &members {
            done[m] = true;
        }
        // Breadth-first from `start` inside its component, back to `start`.
        let mut came: Vec<Option<usize>> = vec![None; n];
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closing = None;
        while let Some(v) = queue.pop_front() {
            for (ei, e) in out_edges(v) {
                if comp[e.to] != comp[start] {
                    continue;
                }
                if e.to == start {
                    closing = Some(ei);
                    break;
                }
                if came[e.to].is_none() {
                    came[e.to] = Some(ei);
                    queue.push_back(e.to);
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let Some(last) = closing else { continue };
        let mut walk = vec![last];
        let mut v = g.edges[last].from;
        while v != start {
            let Some(ei) = came[v] else { break };
            walk.push(ei);
            v = g.edges[ei].from;
        }
        walk.reverse();
        found.push(walk);
    }
    found
}

/// Tarjan's strongly connected components of `0..n` (iterative: a long chain of processes
/// cannot overflow the stack): the component number of each node.
fn components(n: usize, next: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![usize::MAX; n];
    let mut counter = 0;
    let mut comps = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        work.push((root, next(root), 0));
        while let Some((v, succ, i)) = work.last_mut() {
            let v = *v;
            if let Some(&w) = succ.get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, next(w), 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some((parent, _, _)) = work.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps;
                    if w == v {
                        break;
                    }
                }
                comps += 1;
            }
        }
    }
    comp
}

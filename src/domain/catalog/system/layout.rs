//! A layered drawing of a directed graph, top to bottom (the Sugiyama scheme, kept small):
//!
//! 1. **cycles broken**: a depth-first walk in node order reverses each edge that closes a
//!    cycle (drawn pointing up); a self-link is a loop on the node's right side;
//! 2. **layers by longest path**: a node sits one layer below the lowest node that starts it;
//! 3. **long edges split**: an edge over several layers gets a point in each layer between
//!    (a slot of [`PASS_W`] px), so no edge crosses a box;
//! 4. **order by barycenter**: four sweeps (down, up, down, up), each placing a layer's
//!    nodes by the mean position of their neighbours in the layer before, ties by the order
//!    so far (deterministic: the same graph always gives the same drawing);
//! 5. **coordinates**: each layer centred; edges as straight segments from the bottom of a
//!    box to the top of the next (or through their points), each labelled halfway down its
//!    first gap.
//!
//! Units: SVG pixels, integers.

/// A box's width, px.
pub const NODE_W: i32 = 168;
/// A box's height, px.
pub const NODE_H: i32 = 66;
/// The width of the slot a long edge passes a layer through, px.
pub const PASS_W: i32 = 24;
/// The gap between two boxes of a layer, px.
pub const GAP: i32 = 28;
/// The gap between two layers (where the edges' labels sit), px.
pub const LAYER_GAP: i32 = 64;
/// The margin around the drawing, px (room for a self-link's loop on the right).
pub const MARGIN: i32 = 24;

/// How far right of a box's centre a reversed edge (one closing a cycle) meets it, px.
pub const REVERSED_SHIFT: i32 = 36;

/// A box: top-left corner and size, px.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Rect {
    /// Whether the two boxes share any area.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// An edge as drawn: its points from the start box to the end box (the arrowhead at the
/// last), and where its label is centred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// At least two points, px.
    pub points: Vec<(i32, i32)>,
    /// The label's centre, px.
    pub label: (i32, i32),
}

/// The drawing: one box per node (in node order), one route per edge (in edge order), and
/// the size of the whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The boxes.
    pub boxes: Vec<Rect>,
    /// The routes.
    pub routes: Vec<Route>,
    /// Width, px.
    pub width: i32,
    /// Height, px.
    pub height: i32,
}

/// Lays out `n` nodes and `edges` (`(from, to)`, indices below `n`; an edge naming a node
/// out of range is drawn nowhere and gets an empty route).
pub fn layout(n: usize, edges: &[(usize, usize)]) -> Layout {
    let reversed = back_edges(n, edges);
    // The edges as the layers see them: each pointing down (reversed ones turned round).
    let down: Vec<Option<(usize, usize)>> = edges
        .iter()
        .zip(&reversed)
        .map(|(&(a, b), &r)| (a < n && b < n && a != b).then_some(if r { (b, a) } else { (a, b) }))
        .collect();
    let layer = layers(n, &down);
    let depth = layer.iter().copied().max().map_or(0, |d| d + 1);
    // Slots: the real nodes, then one pass point per layer crossed by a long edge.
    let mut slot_layer: Vec<usize> = layer.clone();
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    for e in &down {
        let mut chain = Vec::new();
        if let Some((a, b)) = *e {
            chain.push(a);
            for l in layer[a] + 1..layer[b] {
                slot_layer.push(l);
                chain.push(slot_layer.len() - 1);
            }
            chain.push(b);
        }
        chains.push(chain);
    }
    let order = ordering(&slot_layer, depth, &chains);
    let (xs, width) = coordinates(n, &slot_layer, &order);
    let top = |l: usize| MARGIN + l as i32 * (NODE_H + LAYER_GAP);
    let boxes: Vec<Rect> = (0..n)
        .map(|v| Rect {
            x: xs[v],
            y: top(layer[v]),
            w: NODE_W,
            h: NODE_H,
        })
        .collect();
    let routes = edges
        .iter()
        .zip(&chains)
        .zip(&reversed)
        .map(|((&(a, b), chain), &r)| {
            if a < n && a == b {
                return self_loop(&boxes[a]);
            }
            let mut points = Vec::with_capacity(chain.len() * 2);
            for (i, &s) in chain.iter().enumerate() {
                // A reversed edge meets its boxes right of centre, so a pair A → B → A
                // shows two lines.
                let (w, shift) = if s < n {
                    (NODE_W, if r { REVERSED_SHIFT } else { 0 })
                } else {
                    (PASS_W, 0)
                };
                let (cx, y) = (xs[s] + w / 2 + shift, top(slot_layer[s]));
                if i > 0 {
                    points.push((cx, y));
                }
                if i + 1 < chain.len() {
                    points.push((cx, y + NODE_H));
                }
            }
            if r {
                points.reverse();
            }
            let label = label_point(&points, r);
            Route { points, label }
        })
        .collect();
    Layout {
        boxes,
        routes,
        width: width + 2 * MARGIN,
        height: 2 * MARGIN + depth as i32 * NODE_H + depth.saturating_sub(1) as i32 * LAYER_GAP,
    }
}

/// Which edges close a cycle: a depth-first walk from each node in order; an edge to a node
/// still on the walk's path is reversed. Self-links are not (they are drawn as loops).
fn back_edges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut state = vec![0u8; n]; // 0 new, 1 on the path, 2 done
    let mut back = vec![false; edges.len()];
    let out: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            (0..edges.len())
                .filter(|&i| edges[i].0 == v && edges[i].1 < n && edges[i].1 != v)
                .collect()
        })
        .collect();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some((v, i)) = stack.last_mut() {
            let v = *v;
            if let Some(&e) = out[v].get(*i) {
                *i += 1;
                let w = edges[e].1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[e] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// Longest-path layers over the downward edges (acyclic by construction).
fn layers(n: usize, down: &[Option<(usize, usize)>]) -> Vec<usize> {
    let mut indegree = vec![0usize; n];
    for &(_, b) in down.iter().flatten() {
        indegree[b] += 1;
    }
    let mut layer = vec![0usize; n];
    let mut ready: std::collections::VecDeque<usize> =
        (0..n).filter(|&v| indegree[v] == 0).collect();
    while let Some(v) = ready.pop_front() {
        for &(a, b) in down.iter().flatten() {
            if a == v {
                layer[b] = layer[b].max(layer[v] + 1);
                indegree[b] -= 1;
                if indegree[b] == 0 {
                    ready.push_back(b);
                }
            }
        }
    }
    layer
}

/// The slots of each layer, left to right: first in slot order, then four barycenter sweeps.
fn ordering(slot_layer: &[usize], depth: usize, chains: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (s, &l) in slot_layer.iter().enumerate() {
        order[l].push(s);
    }
    let pairs: Vec<(usize, usize)> = chains
        .iter()
        .flat_map(|c| c.windows(2).map(|w| (w[0], w[1])))
        .collect();
    for sweep in 0..4 {
        let downward = sweep % 2 == 0;
        let layers: Vec<usize> = if downward {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for l in layers {
            let mut pos = vec![usize::MAX; slot_layer.len()];
            let near = if downward { l - 1 } else { l + 1 };
            for (i, &s) in order[near].iter().enumerate() {
                pos[s] = i;
            }
            let mut keyed: Vec<(usize, usize, usize)> = order[l]
                .iter()
                .enumerate()
                .map(|(i, &s)| {
                    let ns: Vec<usize> = pairs
                        .iter()
                        .filter_map(|&(a, b)| {
                            let other = if downward {
                                (b == s).then_some(a)
                            } else {
                                (a == s).then_some(b)
                            };
                            other.filter(|&o| pos[o] != usize::MAX).map(|o| pos[o])
                        })
                        .collect();
                    // Twice the mean, in integers; no neighbour: stay where it is.
                    let key = if ns.is_empty() {
                        2 * i * 1000
                    } else {
                        2 * ns.iter().sum::<usize>() * 1000 / ns.len()
                    };
                    (key, i, s)
                })
                .collect();
            keyed.sort_unstable();
            order[l] = keyed.into_iter().map(|(_, _, s)| s).collect();
        }
    }
    order
}

/// Each slot's left x (before the margin is added) and the widest layer's width: every
/// layer centred on the widest.
fn coordinates(n: usize, slot_layer: &[usize], order: &[Vec<usize>]) -> (Vec<i32>, i32) {
    let w = |s: usize| if s < n { NODE_W } else { PASS_W };
    let widths: Vec<i32> = order
        .iter()
        .map(|row| row.iter().map(|&s| w(s)).sum::<i32>() + GAP * (row.len() as i32 - 1).max(0))
        .collect();
    let widest = widths.iter().copied().max().unwrap_or(0).max(NODE_W);
    let mut xs = vec![0; slot_layer.len()];
    for (row, width) in order.iter().zip(&widths) {
        let mut x = MARGIN + (widest - width) / 2;
        for &s in row {
            xs[s] = x;
            x += w(s) + GAP;
        }
    }
    (xs, widest)
}

/// A self-link: out of the box's right side and back in, 20 px out.
fn self_loop(b: &Rect) -> Route {
    let (right, y1, y2) = (b.x + b.w, b.y + b.h / 3, b.y + 2 * b.h / 3);
    Route {
        points: vec![(right, y1), (right + 18, y1), (right + 18, y2), (right, y2)],
        label: (right + 18, b.y - 6),
    }
}

/// On the segment leaving the start box: halfway along it, or a third of the way for a
/// reversed edge (so the labels of A → B and B → A do not cover each other).
fn label_point(points: &[(i32, i32)], reversed: bool) -> (i32, i32) {
    let part = if reversed { 3 } else { 2 };
    match points {
        [(x1, y1), (x2, y2), ..] => (x1 + (x2 - x1) / part, y1 + (y2 - y1) / part),
        _ => (0, 0),
    }
}

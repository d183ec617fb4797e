//! Canvas geometry: node boxes, their ports, hit tests and where a node
//! added from the keyboard goes. Pure, so the canvas view only draws.

use crate::design::graph::{Graph, Node, NodeId};
use crate::lean::sorted::SortedMap;

pub const NODE_W: i32 = 200;
pub const NODE_H: i32 = 64;
const GRID_X: i32 = 240;
const GRID_Y: i32 = 96;
const MARGIN: i32 = 40;

/// Where edges leave a node (right edge, middle).
pub fn output_port(node: &Node) -> (i32, i32) {
    (
        node.x.saturating_add(NODE_W),
        node.y.saturating_add(NODE_H / 2),
    )
}

/// Where edges enter a node (left edge, middle).
pub fn input_port(node: &Node) -> (i32, i32) {
    (node.x, node.y.saturating_add(NODE_H / 2))
}

/// An SVG path from `from` to `to`, curving out horizontally.
pub fn edge_path(from: (i32, i32), to: (i32, i32)) -> String {
    let bend = (to.0.saturating_sub(from.0).saturating_abs() / 2).max(40);
    format!(
        "M {} {} C {} {}, {} {}, {} {}",
        from.0,
        from.1,
        from.0.saturating_add(bend),
        from.1,
        to.0.saturating_sub(bend),
        to.1,
        to.0,
        to.1
    )
}

fn contains(node: &Node, x: i32, y: i32) -> bool {
    (node.x..=node.x.saturating_add(NODE_W)).contains(&x)
        && (node.y..=node.y.saturating_add(NODE_H)).contains(&y)
}

/// The node drawn under a canvas point (the last drawn wins, as on screen).
pub fn hit(graph: &Graph, x: i32, y: i32) -> Option<NodeId> {
    graph
        .nodes
        .values()
        .rev()
        .find(|n| contains(n, x, y))
        .map(|n| n.id)
}

fn overlaps(graph: &Graph, x: i32, y: i32) -> bool {
    graph.nodes.values().any(|n| {
        n.x.saturating_sub(x).saturating_abs() < NODE_W + MARGIN / 2
            && n.y.saturating_sub(y).saturating_abs() < NODE_H + MARGIN / 2
    })
}

/// A free grid spot for a new node: the column right of `near` if given,
/// else the first free spot reading left to right, top to bottom.
pub fn free_spot(graph: &Graph, near: Option<NodeId>) -> (i32, i32) {
    if let Some(node) = near.and_then(|id| graph.node(id)) {
        let x = node.x.saturating_add(GRID_X);
        for row in 0..40i32 {
            let step = row.saturating_mul(GRID_Y);
            for y in [node.y.saturating_add(step), node.y.saturating_sub(step)] {
                if y >= 0 && !overlaps(graph, x, y) {
                    return (x, y);
                }
            }
        }
    }
    for row in 0..40i32 {
        for col in 0..8i32 {
            let (x, y) = (
                col.saturating_mul(GRID_X).saturating_add(MARGIN),
                row.saturating_mul(GRID_Y).saturating_add(MARGIN),
            );
            if !overlaps(graph, x, y) {
                return (x, y);
            }
        }
    }
    (MARGIN, MARGIN)
}

/// The box around every node, with a margin: (x, y, width, height).
pub fn bounds(graph: &Graph) -> (i32, i32, i32, i32) {
    let nodes = graph.nodes.values();
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for n in nodes {
        x0 = x0.min(n.x);
        y0 = y0.min(n.y);
        x1 = x1.max(n.x.saturating_add(NODE_W));
        y1 = y1.max(n.y.saturating_add(NODE_H));
    }
    if x0 > x1 {
        return (0, 0, 960, 480);
    }
    (
        x0.saturating_sub(MARGIN),
        y0.saturating_sub(MARGIN),
        x1.saturating_sub(x0).saturating_add(2 * MARGIN),
        y1.saturating_sub(y0).saturating_add(2 * MARGIN),
    )
}

/// The nodes in the order a pipeline reads: each after every node feeding
/// it, ties (and anything a cycle holds back) by where they stand on the
/// board, left to right and then top to bottom, so the list view of a
/// phone tells the same story as the board.
pub fn reading_order(graph: &Graph) -> Vec<NodeId> {
    let place = |id: &NodeId| graph.node(*id).map(|n| (n.x, n.y, n.id));
    let mut waiting: SortedMap<NodeId, usize> = graph.nodes.keys().map(|id| (*id, 0)).collect();
    for edge in graph.edges.iter() {
        if let Some(count) = waiting.get_mut(&edge.to) {
            *count = count.saturating_add(1);
        }
    }
    let mut order = Vec::with_capacity(waiting.len());
    loop {
        let ready = waiting
            .iter()
            .filter(|(_, count)| **count == 0)
            .map(|(id, _)| *id)
            .min_by_key(place)
            // A cycle: the first of what is left on the board goes next.
            .or_else(|| waiting.keys().copied().min_by_key(place));
        let Some(next) = ready else {
            return order;
        };
        waiting.remove(&next);
        for edge in graph.edges.iter().filter(|e| e.from == next) {
            if let Some(count) = waiting.get_mut(&edge.to) {
                *count = count.saturating_sub(1);
            }
        }
        order.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::edit::{apply, Edit};
    use crate::design::graph::{NodeConfig, NodeKind};

    #[test]
    fn free_spots_never_overlap_and_hits_find_the_node() {
        let mut graph = Graph::with_source("bronze.clicks");
        let source = NodeId(0);
        for i in 0..30 {
            let near = (i % 2 == 0).then_some(source);
            let (x, y) = free_spot(&graph, near);
            assert!(!overlaps(&graph, x, y), "spot {i} overlaps");
            graph = apply(
                &graph,
                &Edit::Add {
                    config: NodeConfig::default_for(NodeKind::Transform),
                    x,
                    y,
                },
            )
            .expect("adds");
            let id = NodeId(graph.next_id - 1);
            assert_eq!(hit(&graph, x + 5, y + 5), Some(id));
        }
        assert_eq!(hit(&graph, -500, -500), None);
    }

    #[test]
    fn bounds_cover_every_node() {
        let graph = Graph::with_source("bronze.clicks");
        let (x, y, w, h) = bounds(&graph);
        let node = graph.nodes.get(&NodeId(0)).unwrap();
        assert!(x <= node.x && y <= node.y);
        assert!(x + w >= node.x + NODE_W && y + h >= node.y + NODE_H);
        assert_eq!(bounds(&Graph::default()), (0, 0, 960, 480));
    }

    #[test]
    fn reading_order_follows_the_wires_then_the_board() {
        let mut graph = Graph::with_source("bronze.orders");
        let add = |graph: &mut Graph, kind, x| {
            let id = NodeId(graph.next_id);
            *graph = apply(
                graph,
                &Edit::Add {
                    config: NodeConfig::default_for(kind),
                    x,
                    y: 120,
                },
            )
            .unwrap();
            id
        };
        // Drawn right to left, wired left to right: the wires win.
        let write = add(&mut graph, NodeKind::Write, 40);
        let transform = add(&mut graph, NodeKind::Transform, 300);
        let state = add(&mut graph, NodeKind::State, 600);
        let loose = add(&mut graph, NodeKind::Checks, 20);
        for (from, to) in [(NodeId(0), state), (state, transform), (transform, write)] {
            graph = apply(&graph, &Edit::Connect { from, to }).unwrap();
        }
        // The unwired check stands leftmost, so it reads before the source.
        assert_eq!(
            reading_order(&graph),
            vec![loose, NodeId(0), state, transform, write]
        );
        assert!(reading_order(&Graph::default()).is_empty());
    }
}

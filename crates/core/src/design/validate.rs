//! Structural problems of a design, each pointing at its node or edge.

use crate::lean::sorted::{SortedMap, SortedSet};

use super::graph::{Graph, Layer, Node, NodeConfig, NodeId, NodeKind, WriteChoice};
use crate::design::inspector::form;

/// The longest backfill the lab will simulate, in dates: a typo in a year
/// must not freeze the page simulating millennia.
pub const MOST_BACKFILL_DATES: i64 = 3_660;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The node the problem is about; `None` for the design as a whole.
    pub node: Option<NodeId>,
    /// The inspector field it is about (`design::inspector::form` key), when one
    /// setting is what is missing.
    pub field: Option<&'static str>,
    pub message: String,
}

fn at(node: NodeId, message: impl Into<String>) -> Problem {
    Problem {
        node: Some(node),
        field: None,
        message: message.into(),
    }
}

/// Every structural problem, in node order; empty for a design that compiles.
pub fn validate(graph: &Graph) -> Vec<Problem> {
    let mut problems = Vec::new();
    if graph.of_kind(NodeKind::Write).next().is_none() {
        problems.push(Problem {
            node: None,
            field: None,
            message: "Nothing writes a table yet: add a write target.".to_string(),
        });
    }
    for node in graph.nodes.values() {
        problems.extend(unchosen(node));
        let inputs: Vec<NodeKind> = graph.inputs(node.id).map(|n| n.kind()).collect();
        let outputs: Vec<NodeKind> = graph.outputs(node.id).map(|n| n.kind()).collect();
        let needs = |what: &str| {
            at(
                node.id,
                format!(
                    "This {} has no input: connect {what} to it.",
                    node.kind().name()
                ),
            )
        };
        match &node.config {
            NodeConfig::Source { .. } => {}
            NodeConfig::State { .. } => {
                if inputs.is_empty() {
                    problems.push(needs("the bronze source"));
                }
                if outputs.is_empty() {
                    problems.push(at(
                        node.id,
                        "This processing state drives nothing: connect it to a transform.",
                    ));
                }
            }
            NodeConfig::Transform { reads, .. } => {
                match reads {
                    Layer::Bronze
                        if !inputs.iter().any(|k| {
                            matches!(k, NodeKind::Source | NodeKind::State | NodeKind::Backfill)
                        }) =>
                    {
                        problems.push(needs("the bronze source (or a processing state)"))
                    }
                    // A backfill may rebuild silver from silver itself (a mistake, but a design).
                    Layer::Silver
                        if !inputs
                            .iter()
                            .any(|k| matches!(k, NodeKind::Write | NodeKind::Backfill)) =>
                    {
                        problems.push(at(
                            node.id,
                            "This transform reads silver, but no write target feeds it.",
                        ))
                    }
                    _ => {}
                }
                if inputs.iter().filter(|k| **k == NodeKind::State).count() > 1 {
                    problems.push(at(node.id, "Two processing states drive this transform: a run can only remember one way."));
                }
                if outputs.is_empty() {
                    problems.push(at(
                        node.id,
                        "This transform's rows go nowhere: connect it to a write target.",
                    ));
                }
            }
            NodeConfig::Write { mode, table } => {
                if inputs.is_empty() {
                    problems.push(needs("a transform or a backfill job"));
                }
                if matches!(mode, WriteChoice::Merge { key: None }) {
                    problems.push(at(
                        node.id,
                        "A merge needs a key to match rows on: choose one.",
                    ));
                }
                if table.trim().is_empty() {
                    problems.push(at(node.id, "This write target has no table name."));
                }
            }
            NodeConfig::Backfill {
                first,
                last,
                max_concurrency,
                ..
            } => {
                if !inputs.contains(&NodeKind::Source) {
                    problems.push(needs("the bronze source"));
                }
                if !outputs
                    .iter()
                    .any(|k| matches!(k, NodeKind::Write | NodeKind::Transform))
                {
                    problems.push(at(
                        node.id,
                        "This backfill writes nowhere: connect it to the transform it runs (or a write target).",
                    ));
                }
                if first > last {
                    problems.push(at(
                        node.id,
                        format!("The backfill range runs backwards: {first} is after {last}."),
                    ));
                } else if last.signed_duration_since(*first).num_days() >= MOST_BACKFILL_DATES {
                    problems.push(at(
                        node.id,
                        format!(
                            "The backfill covers {} dates; the lab simulates at most {MOST_BACKFILL_DATES} (ten years).",
                            last.signed_duration_since(*first).num_days().saturating_add(1)
                        ),
                    ));
                }
                if *max_concurrency == 0 {
                    problems.push(at(node.id, "A backfill needs at least one date in flight."));
                }
            }
            NodeConfig::Finaliser { .. }
            | NodeConfig::Checks { .. }
            | NodeConfig::Report { .. } => {
                if !inputs.contains(&NodeKind::Write) {
                    problems.push(needs("a write target"));
                }
            }
        }
    }
    // Two write targets into the same table fight over it.
    let mut by_table: SortedMap<String, Vec<NodeId>> = SortedMap::new();
    for node in graph.nodes.values() {
        if let NodeConfig::Write { table, .. } = &node.config {
            by_table
                .entry(table.trim().to_ascii_lowercase())
                .or_default()
                .push(node.id);
        }
    }
    for (table, writers) in by_table.into_iter().filter(|(_, w)| w.len() > 1) {
        for id in writers.iter().skip(1) {
            problems.push(at(*id, format!("Another write target already writes {table}: two writers into one table overwrite each other.")));
        }
    }
    if let Some(id) = cycle(graph) {
        problems.push(at(
            id,
            "This node feeds back into itself through a loop: data must flow one way.",
        ));
    }
    problems
}

/// One problem per choice `node` still waits for, in the inspector's
/// words, so "Check my design" sends the student to each.
fn unchosen(node: &Node) -> impl Iterator<Item = Problem> + '_ {
    form::fields(&node.config)
        .into_iter()
        .filter(|f| node.unchosen.contains(&f.key))
        .map(move |f| Problem {
            node: Some(node.id),
            field: Some(f.key),
            message: format!(
                "Choose “{}” for this {}: nothing is chosen yet.",
                f.label,
                node.kind().name()
            ),
        })
}

/// A node on a cycle, if there is one (iterative colouring DFS).
fn cycle(graph: &Graph) -> Option<NodeId> {
    let mut done: SortedSet<NodeId> = SortedSet::new();
    for &root in graph.nodes.keys() {
        if done.contains(&root) {
            continue;
        }
        let mut on_path: SortedSet<NodeId> = SortedSet::new();
        let mut stack: Vec<(NodeId, Vec<NodeId>)> =
            vec![(root, graph.outputs(root).map(|n| n.id).collect())];
        on_path.insert(root);
        while let Some((node, next)) = stack.last_mut() {
            match next.pop() {
                Some(child) if on_path.contains(&child) => return Some(child),
                Some(child) if !done.contains(&child) => {
                    on_path.insert(child);
                    let children = graph.outputs(child).map(|n| n.id).collect();
                    stack.push((child, children));
                }
                Some(_) => {}
                None => {
                    let finished = *node;
                    on_path.remove(&finished);
                    done.insert(finished);
                    stack.pop();
                }
            }
        }
    }
    None
}

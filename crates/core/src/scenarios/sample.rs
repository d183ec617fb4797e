//! One fixed design per scenario for the grading benchmarks (native and in
//! the browser): a list(2) over change dates with a finaliser, plus, for
//! the backfill scenarios, a backfill over the scenario's range driving the
//! transform. A workload, not an answer.

use chrono::NaiveDate;

use crate::design::graph::{BackfillShape, Layer, Markers, StateChoice, WriteChoice};
use crate::design::{Edit, Graph, History, NodeConfig, NodeId, NodeKind};
use crate::engine::{AfterFinal, CommitOrder, ListDate, LogicVersion, PartitionKey};

use super::Scenario;

/// The range a benchmark backfill covers in `scenario`.
fn range(scenario: &Scenario) -> Option<(NaiveDate, NaiveDate)> {
    match scenario.number {
        4 => Some((
            crate::scenarios::stories::currency::aug(3),
            crate::scenarios::stories::currency::aug(13),
        )),
        5 => Some((
            crate::scenarios::stories::history::first(),
            crate::scenarios::stories::history::last(),
        )),
        _ => None,
    }
}

/// A daily design of `scenario` as the canvas builds it, edit by
/// edit: source -> state -> transform -> write [-> finaliser], every choice
/// made here. What the real-tool checks replay goes through `compile` from
/// one of these, as a student's design does.
pub fn daily(
    scenario: &Scenario,
    state: StateChoice,
    commit: CommitOrder,
    mode: WriteChoice,
    finaliser: Option<(u32, AfterFinal)>,
) -> Graph {
    let mut h = History::new(Graph::with_source(scenario.source));
    let (_, w) = add_daily(&mut h, state, commit, mode);
    if let Some((allowed_lateness_days, after_final)) = finaliser {
        let f = add(
            &mut h,
            NodeConfig::Finaliser {
                allowed_lateness_days,
                after_final,
            },
        );
        let _ = h.edit(&Edit::Connect { from: w, to: f });
    }
    h.current
}

fn add(h: &mut History, config: NodeConfig) -> NodeId {
    let _ = h.edit(&Edit::Add { config, x: 0, y: 0 });
    NodeId(h.current.next_id - 1)
}

/// State, transform and write target, connected from the source: the
/// transform and the write target's ids.
fn add_daily(
    h: &mut History,
    state: StateChoice,
    commit: CommitOrder,
    mode: WriteChoice,
) -> (NodeId, NodeId) {
    let s = add(
        h,
        NodeConfig::State {
            state,
            commit,
            catch_up: false,
        },
    );
    let t = add(
        h,
        NodeConfig::Transform {
            logic: LogicVersion::Fixed,
            reads: Layer::Bronze,
            partition_key: PartitionKey::EventDate,
        },
    );
    // The scenario's own silver table: bronze.clicks is built into silver.clicks.
    let table = h
        .current
        .nodes
        .values()
        .find_map(|n| match &n.config {
            NodeConfig::Source { table } => Some(table.replacen("bronze.", "silver.", 1)),
            _ => None,
        })
        .unwrap_or_else(|| "silver.events".to_string());
    let w = add(h, NodeConfig::Write { table, mode });
    for (from, to) in [(NodeId(0), s), (s, t), (t, w)] {
        let _ = h.edit(&Edit::Connect { from, to });
    }
    (t, w)
}

/// A daily design of `scenario` that finalises each day after `l` days
/// and does `after` with what arrives later: a list of two days over event
/// dates, each day overwritten. The designs the Beam block and its checks
/// are about.
pub fn finalising(scenario: &Scenario, l: u32, after: AfterFinal) -> Graph {
    daily(
        scenario,
        StateChoice::PartitionList {
            lookback: 2,
            over: ListDate::EventDate,
        },
        CommitOrder::StateAfterWrite,
        WriteChoice::OverwritePartition,
        Some((l, after)),
    )
}

/// `graph` with its processing state catching up after the scheduler was
/// down, as the inspector's box sets it.
pub fn catching_up(mut graph: Graph) -> Graph {
    for node in graph.nodes.values_mut() {
        if let NodeConfig::State { catch_up, .. } = &mut node.config {
            *catch_up = true;
        }
    }
    graph
}

/// The benchmark design of `scenario`, writing with `mode`.
pub fn sample(scenario: &Scenario, mode: WriteChoice) -> Graph {
    let mut h = History::new(Graph::with_source(scenario.source));
    let state = StateChoice::PartitionList {
        lookback: 2,
        over: ListDate::ChangeDate,
    };
    let (t, w) = add_daily(&mut h, state, CommitOrder::StateAfterWrite, mode);
    let f = add(&mut h, NodeConfig::default_for(NodeKind::Finaliser));
    let mut edges = vec![(w, f)];
    if let Some((first, last)) = range(scenario) {
        let b = add(
            &mut h,
            NodeConfig::Backfill {
                first,
                last,
                max_concurrency: 3,
                shape: BackfillShape::PerDate,
                markers: Markers::AfterPartition,
                yield_to_scheduled: false,
            },
        );
        let r = add(&mut h, NodeConfig::default_for(NodeKind::Report));
        edges.extend([(NodeId(0), b), (b, t), (w, r)]);
    }
    for (from, to) in edges {
        let _ = h.edit(&Edit::Connect { from, to });
    }
    h.current
}

/// A benchmark design that fails one rule of `scenario`, with the rule
/// and the mistake in words: what the shrinking benchmark shrinks.
pub fn failing(scenario: &Scenario) -> Option<(Graph, &'static str, &'static str)> {
    match scenario.number {
        1 => Some((sample(scenario, WriteChoice::Append), "R2", "append")),
        4 => {
            let mut together = sample(scenario, WriteChoice::OverwritePartition);
            for node in together.nodes.values_mut() {
                if let NodeConfig::Backfill { shape, .. } = &mut node.config {
                    *shape = BackfillShape::Together;
                }
            }
            Some((together, "R4", "silver and gold together"))
        }
        5 => Some((
            sample(scenario, WriteChoice::Append),
            "R1",
            "append with markers",
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::grading::grade::grade;
    use crate::scenarios::grading::report::Report;

    #[test]
    fn every_sample_is_graded_not_refused() {
        for s in crate::scenarios::SCENARIOS {
            let report = grade(s, &sample(s, WriteChoice::OverwritePartition));
            assert!(
                matches!(&report, Report::Graded(rules) if !rules.is_empty()),
                "{s:?}: {report:?}"
            );
            if let Some((graph, rule, _)) = failing(s) {
                assert!(grade(s, &graph).failed().contains(&rule));
            }
        }
    }
}

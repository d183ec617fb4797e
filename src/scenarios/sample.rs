//! One fixed design per scenario for the grading benchmarks (native and in
//! the browser): a list(2) over change dates with a finaliser, plus, for
//! the backfill scenarios, a backfill over the scenario's range driving the
//! transform. A workload, not an answer.

use chrono::NaiveDate;

use crate::design::graph::{BackfillShape, Markers, StateChoice, WriteChoice};
use crate::design::{Edit, Graph, History, NodeConfig, NodeId, NodeKind};
use crate::engine::ListDate;

use super::catalog::SCENARIOS;

/// The range a benchmark backfill covers in scenario `number`.
fn range(number: u8) -> Option<(NaiveDate, NaiveDate)> {
    match number {
        4 => Some((super::currency::aug(3), super::currency::aug(13))),
        5 => Some((super::history::first(), super::history::last())),
        _ => None,
    }
}

/// The benchmark design of scenario `number`, writing with `mode`.
pub fn sample(number: u8, mode: WriteChoice) -> Graph {
    let source = SCENARIOS
        .iter()
        .find(|s| s.number == number)
        .map_or("bronze.events", |s| s.source);
    let mut h = History::new(Graph::with_source(source));
    let mut add = |config: NodeConfig| {
        let _ = h.edit(&Edit::Add { config, x: 0, y: 0 });
        NodeId(h.current.next_id - 1)
    };
    let s = add(NodeConfig::State {
        state: StateChoice::PartitionList {
            lookback: 2,
            over: ListDate::ChangeDate,
        },
        commit: Default::default(),
    });
    let t = add(NodeConfig::default_for(NodeKind::Transform));
    let w = add(NodeConfig::Write {
        table: "silver.bench".into(),
        mode,
    });
    let f = add(NodeConfig::default_for(NodeKind::Finaliser));
    let mut edges = vec![(NodeId(0), s), (s, t), (t, w), (w, f)];
    if let Some((first, last)) = range(number) {
        let b = add(NodeConfig::Backfill {
            first,
            last,
            max_concurrency: 3,
            shape: BackfillShape::PerDate,
            markers: Markers::AfterPartition,
            yield_to_scheduled: false,
        });
        let r = add(NodeConfig::default_for(NodeKind::Report));
        edges.extend([(NodeId(0), b), (b, t), (w, r)]);
    }
    for (from, to) in edges {
        let _ = h.edit(&Edit::Connect { from, to });
    }
    h.current
}

/// A benchmark design that fails one rule of scenario `number`, with the
/// rule and the mistake in words: what the shrinking benchmark shrinks.
pub fn failing(number: u8) -> Option<(Graph, &'static str, &'static str)> {
    match number {
        1 => Some((sample(1, WriteChoice::Append), "R2", "append")),
        4 => {
            let mut together = sample(4, WriteChoice::OverwritePartition);
            for node in together.nodes.values_mut() {
                if let NodeConfig::Backfill { shape, .. } = &mut node.config {
                    *shape = BackfillShape::Together;
                }
            }
            Some((together, "R4", "silver and gold together"))
        }
        5 => Some((sample(5, WriteChoice::Append), "R1", "append with markers")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::grade::grade;
    use crate::scenarios::report::Report;

    #[test]
    fn every_sample_is_graded_not_refused() {
        for number in 1..=5 {
            let report = grade(number, &sample(number, WriteChoice::OverwritePartition));
            assert!(
                matches!(&report, Report::Graded(rules) if !rules.is_empty()),
                "scenario {number}: {report:?}"
            );
            if let Some((graph, rule, _)) = failing(number) {
                assert!(grade(number, &graph).failed().contains(&rule));
            }
        }
    }
}

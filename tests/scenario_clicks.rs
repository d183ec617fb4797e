//! Scenario 1 graded by the engine: the passing designs SPEC 7 lists pass
//! every rule; each listed mistake fails exactly the rules SPEC 7 names.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{list, AFTER, MERGE};
use partition_lab::design::graph::{StateChoice, WriteChoice};
use partition_lab::design::Graph;
use partition_lab::engine::{CommitOrder, WatermarkColumn};
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::grading::report::Report;

/// source -> state -> transform -> write, as the canvas would build it.
fn design(state: StateChoice, commit: CommitOrder, mode: WriteChoice) -> Graph {
    common::design("bronze.clicks", state, commit, mode, None)
}

fn watermark() -> StateChoice {
    common::watermark(WatermarkColumn::ArrivedAt, 0)
}

fn failed(graph: &Graph) -> Vec<&'static str> {
    let report = grade(&partition_lab::scenarios::stories::clicks::SCENARIO, graph);
    assert!(matches!(report, Report::Graded(_)), "{report:?}");
    report.failed()
}

#[test]
fn the_listed_passing_designs_pass_every_rule() {
    for (name, graph) in [
        (
            "list(1) + overwrite",
            design(list(1), AFTER, WriteChoice::OverwritePartition),
        ),
        (
            "watermark + merge on click id",
            design(watermark(), AFTER, MERGE),
        ),
        (
            "list(2) + overwrite",
            design(list(2), AFTER, WriteChoice::OverwritePartition),
        ),
        ("list(1) + merge", design(list(1), AFTER, MERGE)),
    ] {
        let report = grade(&partition_lab::scenarios::stories::clicks::SCENARIO, &graph);
        assert!(report.passed(), "{name}: {report:#?}");
    }
}

/// A partition list recomputes its targets from the run's date, so the
/// commit order cannot lose anything: a second passing design family.
#[test]
fn a_partition_list_does_not_care_when_its_state_is_saved() {
    let graph = design(
        list(1),
        CommitOrder::StateBeforeWrite,
        WriteChoice::OverwritePartition,
    );
    assert!(grade(&partition_lab::scenarios::stories::clicks::SCENARIO, &graph).passed());
}

#[test]
fn each_listed_mistake_fails_exactly_its_rules() {
    for (name, graph, rules) in [
        (
            "watermark + overwrite",
            design(watermark(), AFTER, WriteChoice::OverwritePartition),
            vec!["R1", "R2"],
        ),
        (
            "list + append",
            design(list(1), AFTER, WriteChoice::Append),
            vec!["R2"],
        ),
        (
            "lookback 0",
            design(list(0), AFTER, WriteChoice::OverwritePartition),
            vec!["R1"],
        ),
        // The watermark is the state that matters: saved before the write,
        // the crashed run's clicks are never read again.
        (
            "state saved before the write",
            design(watermark(), CommitOrder::StateBeforeWrite, MERGE),
            vec!["R1"],
        ),
        (
            "full refresh",
            design(StateChoice::None, AFTER, WriteChoice::ReplaceTable),
            vec!["R3"],
        ),
        (
            "lookback 3",
            design(list(3), AFTER, WriteChoice::OverwritePartition),
            vec!["R3"],
        ),
    ] {
        assert_eq!(
            failed(&graph),
            rules,
            "{name}: {:#?}",
            grade(&partition_lab::scenarios::stories::clicks::SCENARIO, &graph)
        );
    }
}

#[test]
fn grading_is_deterministic() {
    let graph = design(watermark(), AFTER, WriteChoice::OverwritePartition);
    assert_eq!(
        grade(&partition_lab::scenarios::stories::clicks::SCENARIO, &graph),
        grade(&partition_lab::scenarios::stories::clicks::SCENARIO, &graph)
    );
}

#[test]
fn the_smallest_case_still_fails_the_same_rule_and_is_smaller() {
    use partition_lab::scenarios::grading::grade::grade_on;
    use partition_lab::scenarios::grading::shrink::shrink;
    let original = partition_lab::scenarios::stories::clicks::SCENARIO
        .script()
        .clone();
    for (graph, rule, most_events) in [
        (design(list(1), AFTER, WriteChoice::Append), "R2", 1),
        (
            design(list(0), AFTER, WriteChoice::OverwritePartition),
            "R1",
            1,
        ),
        (
            design(StateChoice::None, AFTER, WriteChoice::ReplaceTable),
            "R3",
            4,
        ),
    ] {
        let shrunk = shrink(
            &partition_lab::scenarios::stories::clicks::SCENARIO,
            &graph,
            &original,
            rule,
            400,
        )
        .expect("the rule fails");
        let report = grade_on(
            &partition_lab::scenarios::stories::clicks::SCENARIO,
            &graph,
            &shrunk.script,
        );
        assert!(
            report.failed().contains(&rule),
            "{rule} still fails: {report:?}"
        );
        assert!(shrunk.script.events.len() <= original.events.len());
        assert!(shrunk.faults() <= shrunk.original_faults);
        assert!(shrunk.simulations <= 400);
        assert!(
            shrunk.script.events.len() <= most_events,
            "{rule}: {} events left",
            shrunk.script.events.len()
        );
        assert!(shrunk.minimal, "{rule}: found within the budget");
    }
    // A rule that passes has no counterexample.
    let good = design(list(1), AFTER, WriteChoice::OverwritePartition);
    assert!(shrink(
        &partition_lab::scenarios::stories::clicks::SCENARIO,
        &good,
        &original,
        "R1",
        50
    )
    .is_none());
}

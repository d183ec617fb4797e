//! Scenario 2 graded by the engine: SPEC 7's passing designs pass every
//! rule; each listed mistake fails exactly the rules SPEC 7 names.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use partition_lab::design::Graph;
use partition_lab::engine::WatermarkColumn::{ArrivedAt, UpdatedAt};
use partition_lab::scenarios::grading::grade::grade;

fn orders(
    state: partition_lab::design::graph::StateChoice,
    commit: partition_lab::engine::CommitOrder,
    mode: partition_lab::design::graph::WriteChoice,
) -> Graph {
    design("bronze.order_changes", state, commit, mode, None)
}

#[test]
fn the_listed_passing_designs_pass_every_rule() {
    for (name, graph) in [
        (
            "watermark on arrival + merge on order id",
            orders(watermark(ArrivedAt, 0), AFTER, MERGE),
        ),
        (
            "list(1) over change dates + merge",
            orders(list_by_change(1), AFTER, MERGE),
        ),
        (
            "watermark on updated_at, 3 h overlap + merge",
            orders(watermark(UpdatedAt, 180), AFTER, MERGE),
        ),
    ] {
        let report = grade(&partition_lab::scenarios::stories::orders::SCENARIO, &graph);
        assert!(report.passed(), "{name}: {report:#?}");
    }
}

#[test]
fn each_listed_mistake_fails_exactly_its_rules() {
    for (name, graph, rules) in [
        (
            "watermark on updated_at without overlap",
            orders(watermark(UpdatedAt, 0), AFTER, MERGE),
            vec!["R1"],
        ),
        (
            "merge on the change id",
            orders(watermark(ArrivedAt, 0), AFTER, MERGE_ON_ROW),
            vec!["R2"],
        ),
        (
            "append",
            orders(watermark(ArrivedAt, 0), AFTER, APPEND),
            vec!["R2"],
        ),
        (
            "overwrite",
            orders(watermark(ArrivedAt, 0), AFTER, OVERWRITE),
            vec!["R1"],
        ),
        // SPEC 7 names R4. The same lost changes also leave the orders whose
        // last change was in the crashed batch out of date for good, so R1
        // fails too: an order delivered that night never changes again.
        (
            "state saved before the write",
            orders(watermark(ArrivedAt, 0), BEFORE, MERGE),
            vec!["R1", "R4"],
        ),
        (
            "full refresh",
            orders(FULL_REFRESH.0, AFTER, FULL_REFRESH.1),
            vec!["R3"],
        ),
        (
            "a 35-day lookback",
            orders(list_by_change(35), AFTER, MERGE),
            vec!["R3"],
        ),
    ] {
        assert_eq!(
            grade(&partition_lab::scenarios::stories::orders::SCENARIO, &graph).failed(),
            rules,
            "{name}: {:#?}",
            grade(&partition_lab::scenarios::stories::orders::SCENARIO, &graph)
        );
    }
}

/// SPEC 7's R3 counts what was read since the last *successful* run: a
/// partition list saved before a crashed write re-reads that batch on the
/// retry, which is not re-reading anything a successful run had read.
#[test]
fn a_crashed_run_saving_its_list_first_is_not_an_overlap_mistake() {
    let report = grade(
        &partition_lab::scenarios::stories::orders::SCENARIO,
        &orders(list_by_change(1), BEFORE, MERGE),
    );
    assert!(
        !report.failed().contains(&"R3"),
        "list(1) + merge + state before the write: {report:#?}"
    );
}

#[test]
fn grading_is_deterministic() {
    let graph = orders(watermark(UpdatedAt, 0), AFTER, MERGE);
    assert_eq!(
        grade(&partition_lab::scenarios::stories::orders::SCENARIO, &graph),
        grade(&partition_lab::scenarios::stories::orders::SCENARIO, &graph)
    );
}

/// The grader rebuilds silver from each run's recorded writes instead of
/// snapshots; after every run the two agree, for every scenario's script.
#[test]
fn replayed_silver_matches_the_engines_snapshots() {
    use partition_lab::design::compile;
    use partition_lab::engine::simulate;
    use partition_lab::scenarios::grading::replay::Silver;
    use partition_lab::scenarios::stories::{clicks, orders::SCENARIO as ORDERS};
    use std::collections::HashMap;
    for (scenario, graph) in [
        (
            &clicks::SCENARIO,
            design("bronze.clicks", list(1), AFTER, APPEND, None),
        ),
        (&ORDERS, orders(watermark(UpdatedAt, 180), AFTER, MERGE)),
        (&ORDERS, orders(watermark(ArrivedAt, 0), AFTER, OVERWRITE)),
    ] {
        let config = compile(&graph).expect("valid").pipeline;
        let outcome = simulate(&config, scenario.script());
        let mut silver = Silver::default();
        for run in &outcome.runs {
            silver.apply(run);
            let snapshot = run.snapshot.as_ref().expect("full detail");
            let mut want: HashMap<String, usize> = HashMap::new();
            for row in snapshot.silver.rows() {
                *want.entry(format!("{}@{}", row.id, row.dt)).or_insert(0) += 1;
            }
            let mut got: HashMap<String, usize> = HashMap::new();
            for (dt, part) in &silver.partitions {
                for (id, n) in part {
                    *got.entry(format!("{id}@{dt}")).or_insert(0) += n;
                }
            }
            assert_eq!(got, want, "{scenario:?}, run {}", run.attempt);
        }
    }
}

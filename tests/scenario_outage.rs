//! Scenario 6 graded by the engine (SPEC 7, SPEC 11): designs that pass
//! differ (a list and a watermark catch up by themselves, a trailing window
//! when the scheduler catches up); each classic mistake fails exactly the
//! rule it should, with the trace as evidence.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use partition_lab::design::graph::{StateChoice, WriteChoice};
use partition_lab::design::Graph;
use partition_lab::engine::WatermarkColumn::ArrivedAt;
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::grading::report::Report;
use partition_lab::scenarios::sample::catching_up;

fn sales(state: StateChoice, mode: WriteChoice) -> Graph {
    design("bronze.sales", state, AFTER, mode, None)
}

fn window(days: u32) -> StateChoice {
    StateChoice::TrailingWindow { days }
}

/// (rule id, passed, evidence) for each rule.
fn verdicts(graph: &Graph) -> Vec<(&'static str, bool, String)> {
    let Report::Graded(rules) = grade(&partition_lab::scenarios::stories::outage::SCENARIO, graph)
    else {
        panic!("graded");
    };
    rules
        .into_iter()
        .map(|r| {
            let text: Vec<String> = r.evidence.into_iter().map(|e| e.text).collect();
            (r.rule.id, r.passed, text.join(" "))
        })
        .collect()
}

fn failing(graph: &Graph) -> Vec<&'static str> {
    verdicts(graph)
        .into_iter()
        .filter(|v| !v.1)
        .map(|v| v.0)
        .collect()
}

#[test]
fn designs_that_pass_differ() {
    for (name, graph) in [
        // Its first run back re-reads the 7th, whose late sales the missed
        // run for the 8th would have picked up.
        (
            "list(5) + overwrite, no catch-up",
            sales(list(5), OVERWRITE),
        ),
        (
            "list(1) + overwrite, catching up",
            catching_up(sales(list(1), OVERWRITE)),
        ),
        ("watermark + merge", sales(watermark(ArrivedAt, 0), MERGE)),
        (
            "window(1) + overwrite, catching up",
            catching_up(sales(window(1), OVERWRITE)),
        ),
    ] {
        assert_eq!(
            failing(&graph),
            Vec::<&str>::new(),
            "{name}: {:#?}",
            verdicts(&graph)
        );
    }
}

#[test]
fn each_mistake_fails_the_rule_it_should() {
    for (name, graph, rules) in [
        (
            "window(1) without catch-up",
            sales(window(1), OVERWRITE),
            vec!["R1"],
        ),
        (
            "window(3) without catch-up",
            sales(window(3), OVERWRITE),
            vec!["R1"],
        ),
        (
            "list(1) + append, catching up",
            catching_up(sales(list(1), APPEND)),
            vec!["R2"],
        ),
        (
            "full refresh",
            design("bronze.sales", FULL_REFRESH.0, AFTER, FULL_REFRESH.1, None),
            vec!["R3"],
        ),
        (
            "window(0) catching up: late sales",
            catching_up(sales(window(0), OVERWRITE)),
            vec!["R1"],
        ),
    ] {
        assert_eq!(failing(&graph), rules, "{name}: {:#?}", verdicts(&graph));
    }
}

/// The window without catch-up: the evidence names the days never built,
/// their runs due while the scheduler was down, from the trace.
/// A list catches up the days it never did, not the re-reads its lookback
/// would have done: with lookback 1 and no catch-up the 7th's late sales,
/// which the missed run for the 8th would have read, are lost.
#[test]
fn a_short_lookback_without_catch_up_loses_the_late_sales_of_the_night_before() {
    let v = verdicts(&sales(list(1), OVERWRITE));
    assert_eq!(failing(&sales(list(1), OVERWRITE)), vec!["R1"]);
    let r1 = &v[0].2;
    assert!(r1.starts_with("Partition 2026-06-07: "), "{r1}");
    assert!(
        r1.contains("The last run to read it was the run for 7 Jun (Mon 8 Jun 02:00)"),
        "{r1}"
    );
    assert!(r1.contains("The run for 2026-06-08, the night after, which re-reads the day before it, was due Tue 9 Jun 02:00 while the scheduler was down, and never ran."), "{r1}");
    // Only the 7th: the days it never did, it did when it was back.
    assert_eq!(r1.matches("Partition ").count(), 1, "{r1}");
}

#[test]
fn the_missed_days_are_the_evidence() {
    let v = verdicts(&sales(window(1), OVERWRITE));
    let r1 = &v[0].2;
    for day in ["2026-06-08", "2026-06-09"] {
        assert!(
            r1.contains(&format!("Partition {day}: 60 of 60 sales missing")),
            "{r1}"
        );
    }
    assert!(
        r1.contains("its run was due Tue 9 Jun 02:00, while the scheduler was down"),
        "{r1}"
    );
    // The first run back, for the 12th (13 Jun 02:00), reaches back to the 11th.
    assert!(!r1.contains("Partition 2026-06-11"), "{r1}");
    assert!(!r1.contains("Partition 2026-06-12"), "{r1}");
}

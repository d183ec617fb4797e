//! Scenario 5 graded by the engine: SPEC 7's passing backfills pass every
//! rule; each listed mistake fails exactly the rules SPEC 7 names.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use partition_lab::design::graph::{BackfillShape, Markers};
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::grading::report::Report;
use partition_lab::scenarios::stories::history::{first, last};

fn history(plan: Plan) -> partition_lab::design::Graph {
    backfill_design("bronze.events", plan)
}

/// Every partition, `at_once` at a time, with markers after the partition.
fn plan(at_once: u32) -> Plan {
    Plan {
        restate: None,
        ..Plan::new(first(), last(), at_once)
    }
}

#[test]
fn the_listed_passing_designs_pass_every_rule() {
    for (name, p) in [
        ("3 at a time with completion markers", plan(3)),
        (
            "4 at a time, yielding a slot to the nightly run",
            Plan {
                yields: true,
                ..plan(4)
            },
        ),
        (
            "two phases, 3 at a time, with markers",
            Plan {
                shape: BackfillShape::TwoPhases,
                ..plan(3)
            },
        ),
    ] {
        let report = grade(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &history(p),
        );
        assert!(report.passed(), "{name}: {report:#?}");
    }
}

#[test]
fn each_listed_mistake_fails_exactly_its_rules() {
    for (name, p, rules) in [
        (
            "no markers",
            Plan {
                markers: Markers::Off,
                ..plan(3)
            },
            vec!["R2"],
        ),
        ("4 at a time without yielding", plan(4), vec!["R3"]),
        ("12 at a time without yielding", plan(12), vec!["R3"]),
        ("2 at a time", plan(2), vec!["R4"]),
        (
            "append with markers",
            Plan {
                mode: APPEND,
                ..plan(3)
            },
            vec!["R1"],
        ),
        (
            "a marker written before its partition",
            Plan {
                markers: Markers::BeforePartition,
                ..plan(3)
            },
            vec!["R1"],
        ),
    ] {
        let report = grade(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &history(p),
        );
        assert_eq!(report.failed(), rules, "{name}: {report:#?}");
    }
}

/// SPEC 7: without markers the re-run rebuilds the 90 partitions the first
/// launch had finished (3 slots x 30 twelve-minute dates in 6 h 10 min).
#[test]
fn without_markers_the_ninety_finished_partitions_are_rebuilt() {
    let report = grade(
        &partition_lab::scenarios::stories::history::SCENARIO,
        &history(Plan {
            markers: Markers::Off,
            ..plan(3)
        }),
    );
    let Report::Graded(rules) = report else {
        panic!("graded");
    };
    let r2 = rules.iter().find(|r| r.rule.id == "R2").expect("R2");
    assert!(
        r2.evidence
            .iter()
            .any(|e| e.text.contains("rebuilt 90 partitions that were complete")),
        "{:?}",
        r2.evidence
    );
}

/// SPEC 7: in two phases a date's finished silver is completed work on its
/// own, so without markers the re-run redoing it fails R2 as well.
#[test]
fn two_phases_without_markers_fails_r2_for_the_finished_silver() {
    let report = grade(
        &partition_lab::scenarios::stories::history::SCENARIO,
        &history(Plan {
            shape: BackfillShape::TwoPhases,
            markers: Markers::Off,
            ..plan(3)
        }),
    );
    assert!(report.failed().contains(&"R2"), "{report:#?}");
    let Report::Graded(rules) = report else {
        panic!("graded");
    };
    let r2 = rules.iter().find(|r| r.rule.id == "R2").expect("R2");
    assert!(
        r2.evidence.iter().any(|e| e
            .text
            .contains("finished partition layers (a date's silver or gold)")),
        "{:?}",
        r2.evidence
    );
}

#[test]
fn grading_is_deterministic() {
    let graph = history(plan(4));
    assert_eq!(
        grade(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &graph
        ),
        grade(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &graph
        )
    );
}

/// The shrunk case still fails the same rule, is no larger than the
/// scenario's own, and keeps only what the failure needs.
#[test]
fn the_smallest_case_still_fails_and_is_no_larger() {
    use partition_lab::scenarios::grading::grade::grade_on;
    use partition_lab::scenarios::grading::shrink::{replay, shrink};
    let original = partition_lab::scenarios::stories::history::SCENARIO
        .script()
        .clone();
    for (p, rule) in [
        (
            Plan {
                markers: Markers::Off,
                ..plan(3)
            },
            "R2",
        ),
        (plan(4), "R3"),
        (
            Plan {
                mode: APPEND,
                ..plan(3)
            },
            "R1",
        ),
    ] {
        let graph = history(p);
        let shrunk = shrink(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &graph,
            &original,
            rule,
            400,
        )
        .expect("the rule fails");
        assert!(grade_on(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &graph,
            &shrunk.script
        )
        .failed()
        .contains(&rule));
        assert!(shrunk.script.events.len() <= original.events.len());
        assert!(shrunk.faults() <= shrunk.original_faults);
        assert!(shrunk.simulations <= 400);
        assert!(!replay(
            &partition_lab::scenarios::stories::history::SCENARIO,
            &graph,
            &shrunk.script
        )
        .is_empty());
        match rule {
            // Rebuilding finished dates needs the failover and no event.
            "R2" => {
                assert_eq!(shrunk.script.interruptions.len(), 1);
                assert!(shrunk.script.events.is_empty());
            }
            // One nightly run is what waits (the failover may stay: it
            // shifts the backfill's cycle onto the nightly run's start).
            "R3" => assert_eq!(shrunk.script.runs.len(), 1, "{:?}", shrunk.script.runs),
            // One event of a date in flight at the failover is enough to double.
            _ => {
                assert_eq!(shrunk.script.events.len(), 1);
                assert_eq!(shrunk.script.interruptions.len(), 1);
            }
        }
    }
}

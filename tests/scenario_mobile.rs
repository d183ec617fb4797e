//! Scenario 3 graded by the engine: SPEC 7's passing designs pass every
//! rule; each listed mistake fails exactly the rules SPEC 7 names.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use partition_lab::design::graph::{StateChoice, WriteChoice};
use partition_lab::design::Graph;
use partition_lab::engine::AfterFinal::{Adjustments, Drop, Reopen};
use partition_lab::engine::{AfterFinal, WatermarkColumn::ArrivedAt};
use partition_lab::scenarios::grading::grade::grade;

fn mobile(state: StateChoice, mode: WriteChoice, finaliser: Option<(u32, AfterFinal)>) -> Graph {
    design("bronze.purchases", state, AFTER, mode, finaliser)
}

const L2: Option<(u32, AfterFinal)> = Some((2, Adjustments));

#[test]
fn the_listed_passing_designs_pass_every_rule() {
    for (name, graph) in [
        ("list(2) + overwrite, L=2", mobile(list(2), OVERWRITE, L2)),
        (
            "watermark + merge, L=2",
            mobile(watermark(ArrivedAt, 0), MERGE, L2),
        ),
        ("list(4) + merge, L=2", mobile(list(4), MERGE, L2)),
    ] {
        let report = grade(&partition_lab::scenarios::stories::mobile::SCENARIO, &graph);
        assert!(report.passed(), "{name}: {report:#?}");
    }
}

#[test]
fn each_listed_mistake_fails_exactly_its_rules() {
    for (name, graph, rules) in [
        (
            "L=1",
            mobile(list(2), OVERWRITE, Some((1, Adjustments))),
            vec!["R1"],
        ),
        (
            "L=3",
            mobile(list(3), OVERWRITE, Some((3, Adjustments))),
            vec!["R2"],
        ),
        (
            "never finalise",
            mobile(list(2), OVERWRITE, None),
            vec!["R2"],
        ),
        (
            "the finaliser drops",
            mobile(list(2), OVERWRITE, Some((2, Drop))),
            vec!["R3"],
        ),
        ("lookback 1 < L", mobile(list(1), OVERWRITE, L2), vec!["R1"]),
        (
            // SPEC 7 names R3 and R4, which is what a watermark design
            // shows (below). A partition list never reaches back past its
            // lookback, so with "reopen" nothing final is rewritten (R4
            // holds) and late purchases are simply never counted (R3).
            "late rows reopen final partitions (list)",
            mobile(list(2), OVERWRITE, Some((2, Reopen))),
            vec!["R3"],
        ),
        (
            "late rows reopen final partitions (watermark)",
            mobile(watermark(ArrivedAt, 0), MERGE, Some((2, Reopen))),
            vec!["R3", "R4"],
        ),
        (
            "full refresh",
            mobile(FULL_REFRESH.0, FULL_REFRESH.1, L2),
            vec!["R3", "R4"],
        ),
        (
            "watermark + overwrite",
            mobile(watermark(ArrivedAt, 0), OVERWRITE, L2),
            vec!["R1"],
        ),
        (
            "watermark + append",
            mobile(watermark(ArrivedAt, 0), APPEND, L2),
            vec!["R1"],
        ),
    ] {
        assert_eq!(
            grade(&partition_lab::scenarios::stories::mobile::SCENARIO, &graph).failed(),
            rules,
            "{name}: {:#?}",
            grade(&partition_lab::scenarios::stories::mobile::SCENARIO, &graph)
        );
    }
}

/// The money formatter writes its own symbol: evidence never doubles it.
#[test]
fn r1_evidence_prints_each_amount_with_one_pound_sign() {
    use partition_lab::scenarios::grading::report::Report;
    let Report::Graded(rules) = grade(
        &partition_lab::scenarios::stories::mobile::SCENARIO,
        &mobile(list(2), OVERWRITE, Some((1, Adjustments))),
    ) else {
        panic!("graded");
    };
    let r1 = rules.iter().find(|r| r.rule.id == "R1").expect("R1");
    assert!(!r1.passed);
    let text: Vec<&str> = r1.evidence.iter().map(|e| e.text.as_str()).collect();
    let text = text.join(" ");
    assert!(text.contains('£'), "{text}");
    assert!(!text.contains("££"), "{text}");
}

/// Grading reads the compiled pipeline: a finaliser on a second, scratch
/// write target finalises nothing the graded table holds, so it sets no
/// bound R4 checks either.
#[test]
fn a_finaliser_on_another_write_target_changes_no_verdict() {
    use partition_lab::design::graph::{Edge, Node, NodeKind};
    use partition_lab::design::NodeConfig;
    use partition_lab::scenarios::grading::report::Report;
    let verdicts = |r: &Report| match r {
        Report::Graded(rules) => rules
            .iter()
            .map(|r| (r.rule.id, r.passed))
            .collect::<Vec<_>>(),
        other => panic!("graded: {other:?}"),
    };
    for graph in [
        mobile(list(2), OVERWRITE, L2),
        mobile(list(2), OVERWRITE, None),
    ] {
        let before = grade(&partition_lab::scenarios::stories::mobile::SCENARIO, &graph);
        let mut stray = graph.clone();
        let transform = stray.of_kind(NodeKind::Transform).next().unwrap().id;
        let mut add = |config: NodeConfig, from| {
            let id = stray.fresh_id().unwrap();
            stray.nodes.insert(
                id,
                Node {
                    id,
                    x: 600,
                    y: 400,
                    config,
                    fixed: false,
                    unchosen: Vec::new(),
                },
            );
            stray.edges.insert(Edge { from, to: id });
            id
        };
        let scratch = add(
            NodeConfig::Write {
                table: "silver.scratch".to_string(),
                mode: WriteChoice::OverwritePartition,
            },
            transform,
        );
        add(
            NodeConfig::Finaliser {
                allowed_lateness_days: 0,
                after_final: Drop,
            },
            scratch,
        );
        assert_eq!(
            verdicts(&grade(
                &partition_lab::scenarios::stories::mobile::SCENARIO,
                &stray
            )),
            verdicts(&before)
        );
    }
}

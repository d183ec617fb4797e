//! No scenario is passed by the palette (SPEC 9): a student who adds the
//! nodes a scenario needs and wires them, choosing nothing, gets one
//! structural problem per choice still to make, pointing at its node and
//! setting, and no verdict. The placeholders under those choices are not
//! answers either: taken as chosen, they fail every scenario.

// Helpers outside #[test] may fail loudly: a failure there is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use partition_lab::design::choose::placed;
use partition_lab::design::files::file::{export, import};
use partition_lab::design::inspector::form::fields;
use partition_lab::design::{validate, Edit, Graph, History, NodeId, NodeKind};
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::grading::report::Report;
use partition_lab::scenarios::{Scenario, SCENARIOS};

/// Each scenario's design as a student lays it out from the palette:
/// `kinds` placed, wired as the canvas allows (the source into the state
/// and any backfill, state -> transform -> write, the backfill into the
/// transform, the write target into everything that reads it).
fn laid_out(info: &Scenario, kinds: &[NodeKind]) -> Graph {
    let mut h = History::new(Graph::with_source(info.source));
    let mut ids = Vec::new();
    for kind in kinds {
        let (config, unchosen) = placed(*kind, &info.palette);
        h.edit(&Edit::Place {
            config,
            unchosen,
            x: 100,
            y: 100,
        })
        .expect("the palette's node is accepted");
        ids.push((*kind, NodeId(h.current.next_id - 1)));
    }
    let of = |kind| ids.iter().find(|(k, _)| *k == kind).map(|(_, id)| *id);
    let mut wires = Vec::new();
    let source = NodeId(0);
    let (state, transform, write) = (
        of(NodeKind::State),
        of(NodeKind::Transform),
        of(NodeKind::Write),
    );
    wires.extend(state.map(|s| (source, s)));
    wires.extend(state.zip(transform));
    wires.extend(transform.zip(write));
    if let Some(b) = of(NodeKind::Backfill) {
        wires.push((source, b));
        wires.extend(transform.map(|t| (b, t)));
    }
    for reader in [NodeKind::Finaliser, NodeKind::Checks, NodeKind::Report] {
        wires.extend(write.zip(of(reader)));
    }
    for (from, to) in wires {
        h.edit(&Edit::Connect { from, to })
            .expect("the canvas allows it");
    }
    h.current
}

const DAILY: [NodeKind; 3] = [NodeKind::State, NodeKind::Transform, NodeKind::Write];
const EVERYTHING: [NodeKind; 7] = [
    NodeKind::State,
    NodeKind::Transform,
    NodeKind::Write,
    NodeKind::Finaliser,
    NodeKind::Checks,
    NodeKind::Report,
    NodeKind::Backfill,
];

fn layouts(info: &Scenario) -> Vec<Graph> {
    let mut daily = DAILY.to_vec();
    if info.launch().is_some() {
        daily.push(NodeKind::Backfill);
    }
    vec![laid_out(info, &daily), laid_out(info, &EVERYTHING)]
}

#[test]
fn a_design_wired_without_a_choice_lists_each_choice_and_gets_no_verdict() {
    for info in SCENARIOS {
        for graph in layouts(info) {
            let problems = validate(&graph);
            let mut waiting = 0;
            for node in graph.nodes.values() {
                for key in &node.unchosen {
                    waiting += 1;
                    let label = fields(&node.config)
                        .into_iter()
                        .find(|f| f.key == *key)
                        .expect("an unchosen key is one of its fields")
                        .label;
                    let problem = problems
                        .iter()
                        .find(|p| p.node == Some(node.id) && p.field == Some(*key))
                        .unwrap_or_else(|| {
                            panic!("scenario {}: nothing asks for {key}", info.number)
                        });
                    assert!(problem.message.contains(label), "{}", problem.message);
                }
            }
            assert!(waiting >= 5, "scenario {}: {waiting}", info.number);
            // Wired as the canvas wants, the only problems are the choices.
            assert_eq!(problems.len(), waiting, "{problems:?}");
            let report = grade(info, &graph);
            assert!(
                matches!(&report, Report::Structural(p) if p.len() == waiting),
                "scenario {}: {report:?}",
                info.number
            );
        }
    }
}

#[test]
fn the_placeholders_taken_as_choices_pass_no_scenario() {
    for info in SCENARIOS {
        for mut graph in layouts(info) {
            for node in graph.nodes.values_mut() {
                node.unchosen.clear();
            }
            let report = grade(info, &graph);
            assert!(
                matches!(&report, Report::Graded(_)) && !report.failed().is_empty(),
                "scenario {}: {report:?}",
                info.number
            );
        }
    }
}

#[test]
fn the_palette_names_the_scenarios_own_table_and_dates() {
    for info in SCENARIOS {
        let p = info.palette;
        let bronze = info.source.trim_start_matches("bronze.");
        assert!(p.table.starts_with("silver."), "{}", p.table);
        // The orders scenarios keep one row per order: silver.orders.
        assert!(
            bronze.contains(p.table.trim_start_matches("silver.").trim_end_matches('s')),
            "scenario {}: {} from {}",
            info.number,
            p.table,
            info.source
        );
        assert!(p.first < p.last);
        assert_eq!(
            p.logic_matters,
            info.number == 4,
            "the old logic is scenario 4's bug"
        );
    }
    // Scenario 5 covers two years ending in May 2026, not August.
    let history = partition_lab::scenarios::stories::history::SCENARIO.palette;
    assert_eq!(history.first.to_string(), "2024-06-01");
    assert_eq!(history.last.to_string(), "2026-05-31");
}

#[test]
fn unchosen_settings_survive_a_file_and_older_files_keep_their_choices() {
    let graph = laid_out(
        &partition_lab::scenarios::stories::orders::SCENARIO,
        &EVERYTHING,
    );
    let text = export(&graph, Some(2));
    assert!(text.contains("\"unchosen\""));
    assert_eq!(import(&text).map(|f| f.graph), Ok(graph.clone()));
    // A file written before the list existed: every node as saved, chosen.
    let mut old: serde_json::Value = serde_json::from_str(&text).expect("json");
    for node in old["graph"]["nodes"]
        .as_object_mut()
        .expect("nodes")
        .values_mut()
    {
        node.as_object_mut().expect("a node").remove("unchosen");
    }
    let opened = import(&old.to_string()).expect("an older file opens").graph;
    assert!(opened.nodes.values().all(|n| n.unchosen.is_empty()));
    assert_eq!(opened.nodes.len(), graph.nodes.len());
    // What the editor cannot make is refused: a name that is no setting
    // of the node, one listed twice, one that always has a value.
    let id_of = |kind| {
        graph
            .of_kind(kind)
            .next()
            .map(|n| n.id.0.to_string())
            .expect("placed")
    };
    let (transform, write) = (id_of(NodeKind::Transform), id_of(NodeKind::Write));
    for (node, bad) in [
        (&transform, r#"["lookback"]"#),
        (&transform, r#"["reads","reads"]"#),
        (&transform, r#""reads""#),
        (&write, r#"["table"]"#),
    ] {
        let mut file = old.clone();
        file["graph"]["nodes"][node.as_str()]["unchosen"] =
            serde_json::from_str(bad).expect("json");
        assert!(import(&file.to_string()).is_err(), "{bad}");
    }
}

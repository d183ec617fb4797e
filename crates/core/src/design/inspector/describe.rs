//! Nodes in words: the one-line summary a node shows on the canvas and
//! the label a screen reader announces for it.

use crate::engine::{AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey};
use crate::vocabulary::Choice;

use crate::design::graph::{
    BackfillShape, Graph, Layer, Markers, Node, NodeConfig, NodeId, Restate, StateChoice,
    WriteChoice,
};

/// "transform 3": the kind and the id, how announcements name a node. The
/// scenario's one source is "the bronze source": its id is the canvas's
/// business, not the student's.
pub fn name(node: &Node) -> String {
    match node.config {
        NodeConfig::Source { .. } => format!("the {}", node.kind().name()),
        _ => format!("{} {}", node.kind().name(), node.id.0),
    }
}

/// `name` for an id that may be gone.
pub fn name_of(graph: &Graph, id: NodeId) -> String {
    graph
        .node(id)
        .map(name)
        .unwrap_or_else(|| format!("node {}", id.0))
}

/// The node's settings in a few words.
pub fn summary(config: &NodeConfig) -> String {
    match config {
        NodeConfig::Source { table } => table.clone(),
        NodeConfig::State {
            state,
            commit,
            catch_up,
        } => {
            let state = match state {
                StateChoice::Watermark {
                    column,
                    overlap_minutes: 0,
                } => format!("watermark on {}", column.name()),
                StateChoice::Watermark {
                    column,
                    overlap_minutes,
                } => format!(
                    "watermark on {} − {}",
                    column.name(),
                    minutes(*overlap_minutes)
                ),
                StateChoice::PartitionList { lookback, over } => format!(
                    "list, lookback {lookback}{}",
                    match over {
                        ListDate::EventDate => "",
                        ListDate::ChangeDate => " (change dates)",
                    }
                ),
                StateChoice::None => "none: full refresh".to_string(),
                StateChoice::TrailingWindow { days } => format!("window: its day + {days} back"),
            };
            let state = match commit {
                CommitOrder::StateAfterWrite => state,
                CommitOrder::StateBeforeWrite => format!("{state}; saved before write"),
            };
            if *catch_up {
                format!("{state}; catches up")
            } else {
                state
            }
        }
        NodeConfig::Transform {
            logic,
            reads,
            partition_key,
        } => {
            let reads = match reads {
                Layer::Bronze => "reads bronze",
                Layer::Silver => "reads silver",
            };
            let logic = match logic {
                LogicVersion::Fixed => "fixed logic",
                LogicVersion::Broken => "old logic",
            };
            let key = match partition_key {
                PartitionKey::EventDate => "",
                PartitionKey::ProcessingDate => ", by processing date",
            };
            format!("{reads}, {logic}{key}")
        }
        NodeConfig::Write { table, mode } => {
            let mode = match mode {
                WriteChoice::Append => "append".to_string(),
                WriteChoice::OverwritePartition => "overwrite partition".to_string(),
                WriteChoice::Merge { key: None } => "merge (no key yet)".to_string(),
                WriteChoice::Merge { key: Some(key) } => format!("merge on {}", key_name(*key)),
                WriteChoice::ReplaceTable => "replace table".to_string(),
            };
            format!("{table}: {mode}")
        }
        NodeConfig::Backfill {
            first,
            last,
            max_concurrency,
            shape,
            markers,
            yield_to_scheduled,
        } => {
            let mut parts = vec![
                format!("{first} → {last}"),
                format!("{max_concurrency} at a time"),
            ];
            match shape {
                BackfillShape::PerDate => {}
                BackfillShape::TwoPhases => parts.push("two phases".to_string()),
                BackfillShape::Together => parts.push("silver and gold together".to_string()),
            }
            parts.push(
                match markers {
                    Markers::Off => "no markers",
                    Markers::AfterPartition => "markers",
                    Markers::BeforePartition => "markers first",
                }
                .to_string(),
            );
            if *yield_to_scheduled {
                parts.push("yields".to_string());
            }
            parts.join(", ")
        }
        NodeConfig::Finaliser {
            allowed_lateness_days,
            after_final,
        } => format!(
            "final after {}; {}",
            crate::counted::counted(*allowed_lateness_days, "day"),
            after_final_name(*after_final)
        ),
        NodeConfig::Checks {
            unique_key,
            reconcile,
        } => match (unique_key, reconcile) {
            (true, true) => "unique key, reconcile".to_string(),
            (true, false) => "unique key".to_string(),
            (false, true) => "reconcile".to_string(),
            (false, false) => "nothing checked".to_string(),
        },
        NodeConfig::Report { restate } => match restate {
            Restate::AfterAllGold => "restate after all gold".to_string(),
            Restate::AtOnce => "restate at once".to_string(),
        },
    }
}

pub fn key_name(key: MergeKey) -> &'static str {
    match key {
        MergeKey::Key => "the business key",
        MergeKey::RowId => "the row id",
    }
}

pub fn after_final_name(after: AfterFinal) -> &'static str {
    match after {
        AfterFinal::Drop => "drop later rows",
        AfterFinal::Adjustments => "later rows to adjustments",
        AfterFinal::Reopen => "reopen the partition",
    }
}

fn minutes(m: u32) -> String {
    if m.is_multiple_of(60) {
        format!("{} h", m / 60)
    } else {
        format!("{m} min")
    }
}

/// What the canvas shows under a node's name: its settings once chosen,
/// else how many are left (the placeholders under an unchosen setting are
/// not choices and are never shown).
pub fn node_summary(node: &Node) -> String {
    match node.unchosen.len() {
        0 => summary(&node.config),
        1 => "1 setting to choose".to_string(),
        n => format!("{n} settings to choose"),
    }
}

/// What a screen reader hears on focusing a node.
pub fn label(graph: &Graph, node: &Node, problems: usize) -> String {
    let mut label = format!("{}: {}", name(node), node_summary(node));
    let inputs: Vec<String> = graph.inputs(node.id).map(name).collect();
    if !inputs.is_empty() {
        label.push_str(&format!("; fed by {}", inputs.join(", ")));
    }
    if node.fixed {
        label.push_str("; given by the scenario");
    }
    match problems {
        0 => {}
        1 => label.push_str("; 1 problem"),
        n => label.push_str(&format!("; {n} problems")),
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::NodeKind;

    #[test]
    fn every_default_node_has_a_summary_and_label() {
        let graph = Graph::with_source("bronze.clicks");
        for kind in NodeKind::PALETTE {
            let text = summary(&NodeConfig::default_for(kind));
            assert!(!text.is_empty(), "{kind:?}");
        }
        let source = graph.nodes.values().next().expect("source");
        assert_eq!(
            label(&graph, source, 2),
            "the bronze source: bronze.clicks; given by the scenario; 2 problems"
        );
    }

    #[test]
    fn summaries_show_the_choices_that_matter() {
        let state = NodeConfig::State {
            state: StateChoice::Watermark {
                column: crate::engine::WatermarkColumn::UpdatedAt,
                overlap_minutes: 180,
            },
            commit: CommitOrder::StateBeforeWrite,
            catch_up: false,
        };
        assert_eq!(
            summary(&state),
            "watermark on updated_at − 3 h; saved before write"
        );
        let write = NodeConfig::Write {
            table: "silver.orders".into(),
            mode: WriteChoice::Merge { key: None },
        };
        assert_eq!(summary(&write), "silver.orders: merge (no key yet)");
    }

    #[test]
    fn an_unchosen_node_shows_what_is_left_not_its_placeholders() {
        let palette = crate::design::choose::Palette {
            table: "silver.clicks",
            first: crate::engine::calendar::aug(1),
            last: crate::engine::calendar::aug(14),
            logic_matters: false,
            outage: false,
        };
        let (config, unchosen) = crate::design::choose::placed(NodeKind::State, &palette);
        let mut node = Node {
            id: NodeId(3),
            x: 0,
            y: 0,
            config,
            fixed: false,
            unchosen,
        };
        assert_eq!(node_summary(&node), "2 settings to choose");
        node.unchosen.truncate(1);
        assert_eq!(node_summary(&node), "1 setting to choose");
        node.unchosen.clear();
        assert_eq!(node_summary(&node), "none: full refresh");
    }
}

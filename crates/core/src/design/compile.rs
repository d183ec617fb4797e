//! A valid design as the engine's configuration.

use chrono::NaiveDate;

use crate::engine::{Finaliser, LogicVersion, PipelineConfig, ProcessingState, WriteMode};

use super::graph::{
    BackfillShape, Graph, Layer, Markers, Node, NodeConfig, NodeId, NodeKind, Restate, StateChoice,
    WriteChoice,
};
use super::validate::{validate, Problem};

/// A backfill job as designed, with what it runs for each date: the
/// transform it feeds (or the one feeding its write target) and that
/// transform's write target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackfillDesign {
    pub logic: LogicVersion,
    pub reads: Layer,
    pub write: WriteMode,
    pub first: NaiveDate,
    pub last: NaiveDate,
    /// Dates in flight at once (the engine's `clock::Job::concurrency`).
    pub concurrency: u32,
    pub shape: BackfillShape,
    pub markers: Markers,
    pub yield_to_scheduled: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledDesign {
    pub pipeline: PipelineConfig,
    /// The layer the incremental transform reads.
    pub reads: Layer,
    pub backfill: Option<BackfillDesign>,
    pub unique_check: bool,
    pub reconcile_check: bool,
    pub restate: Option<Restate>,
}

/// Compiles `graph`, or lists why it cannot be.
pub fn compile(graph: &Graph) -> Result<CompiledDesign, Vec<Problem>> {
    let problems = validate(graph);
    if !problems.is_empty() {
        return Err(problems);
    }
    let missing = |message: &str| {
        vec![Problem {
            node: None,
            field: None,
            message: message.to_string(),
        }]
    };
    // The incremental path: a transform feeding a write target.
    let transform = graph
        .of_kind(NodeKind::Transform)
        .find(|t| graph.outputs(t.id).any(|n| n.kind() == NodeKind::Write))
        .ok_or_else(|| {
            missing("Add a transform that feeds a write target: it is what the daily run executes.")
        })?;
    let write = graph
        .outputs(transform.id)
        .find(|n| n.kind() == NodeKind::Write)
        .ok_or_else(|| missing("The transform needs a write target."))?;
    let (logic, reads, partition_key) = match &transform.config {
        NodeConfig::Transform {
            logic,
            reads,
            partition_key,
        } => (*logic, *reads, *partition_key),
        _ => return Err(missing("The transform node is not a transform.")),
    };
    let (state, commit, catch_up) = graph
        .inputs(transform.id)
        .find_map(|n| match &n.config {
            NodeConfig::State {
                state,
                commit,
                catch_up,
            } => Some((*state, *commit, *catch_up)),
            _ => None,
        })
        .unwrap_or((StateChoice::None, Default::default(), false));
    let write_mode = write_mode_of(write).ok_or_else(|| missing("A merge needs a key."))?;
    let processing = match state {
        StateChoice::Watermark {
            column,
            overlap_minutes,
        } => ProcessingState::Watermark {
            column,
            overlap_minutes,
        },
        StateChoice::PartitionList { lookback, over } => {
            ProcessingState::PartitionList { lookback, over }
        }
        StateChoice::None => ProcessingState::None,
        StateChoice::TrailingWindow { days } => ProcessingState::TrailingWindow { days },
    };
    let finaliser = graph.outputs(write.id).find_map(|n| match &n.config {
        NodeConfig::Finaliser {
            allowed_lateness_days,
            after_final,
        } => Some(Finaliser {
            allowed_lateness_days: *allowed_lateness_days,
            after_final: *after_final,
        }),
        _ => None,
    });
    let (unique_check, reconcile_check) = graph
        .outputs(write.id)
        .find_map(|n| match &n.config {
            NodeConfig::Checks {
                unique_key,
                reconcile,
            } => Some((*unique_key, *reconcile)),
            _ => None,
        })
        .unwrap_or((false, false));
    let restate = graph.outputs(write.id).find_map(|n| match &n.config {
        NodeConfig::Report { restate } => Some(*restate),
        _ => None,
    });
    let backfill = graph.of_kind(NodeKind::Backfill).find_map(|n| {
        let NodeConfig::Backfill {
            first,
            last,
            max_concurrency,
            shape,
            markers,
            yield_to_scheduled,
        } = &n.config
        else {
            return None;
        };
        let (logic, reads, write) =
            backfill_transform(graph, n.id, transform).unwrap_or((logic, reads, Some(write_mode)));
        Some(BackfillDesign {
            logic,
            reads,
            write: write.unwrap_or(write_mode),
            first: *first,
            last: *last,
            concurrency: *max_concurrency,
            shape: *shape,
            markers: *markers,
            yield_to_scheduled: *yield_to_scheduled,
        })
    });
    let pipeline = PipelineConfig {
        state: processing,
        commit,
        write: write_mode,
        partition_key,
        logic,
        finaliser,
        catch_up,
    };
    Ok(CompiledDesign {
        pipeline,
        reads,
        backfill,
        unique_check,
        reconcile_check,
        restate,
    })
}

/// A write target's mode; `None` for a merge without a key.
fn write_mode_of(node: &Node) -> Option<WriteMode> {
    match &node.config {
        NodeConfig::Write { mode, .. } => match mode {
            WriteChoice::Append => Some(WriteMode::Append),
            WriteChoice::OverwritePartition => Some(WriteMode::OverwritePartition),
            WriteChoice::Merge { key: Some(key) } => Some(WriteMode::Merge { key: *key }),
            WriteChoice::Merge { key: None } => None,
            WriteChoice::ReplaceTable => Some(WriteMode::ReplaceTable),
        },
        _ => None,
    }
}

/// What backfill `id` runs per date: the transform it feeds, else the one
/// feeding the write target it feeds, else the daily transform; with that
/// transform's write target's mode (or the backfill's own target's).
fn backfill_transform(
    graph: &Graph,
    id: NodeId,
    daily: &Node,
) -> Option<(LogicVersion, Layer, Option<WriteMode>)> {
    let own_write = graph.outputs(id).find(|n| n.kind() == NodeKind::Write);
    let transform = graph
        .outputs(id)
        .find(|n| n.kind() == NodeKind::Transform)
        .or_else(|| {
            own_write.and_then(|w| graph.inputs(w.id).find(|n| n.kind() == NodeKind::Transform))
        })
        .unwrap_or(daily);
    let NodeConfig::Transform { logic, reads, .. } = &transform.config else {
        return None;
    };
    let write = own_write
        .or_else(|| {
            graph
                .outputs(transform.id)
                .find(|n| n.kind() == NodeKind::Write)
        })
        .and_then(write_mode_of);
    Some((*logic, *reads, write))
}

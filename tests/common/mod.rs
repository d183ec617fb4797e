//! Designs built the way the canvas builds them, for the scenario tests.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(dead_code)]

use partition_lab::design::graph::{
    BackfillShape, Layer, Markers, Restate, StateChoice, WriteChoice,
};
use partition_lab::design::{Edit, Graph, History, NodeConfig, NodeId, NodeKind};
use partition_lab::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, WatermarkColumn,
};

pub const AFTER: CommitOrder = CommitOrder::StateAfterWrite;
pub const BEFORE: CommitOrder = CommitOrder::StateBeforeWrite;
pub const MERGE: WriteChoice = WriteChoice::Merge {
    key: Some(MergeKey::Key),
};
pub const MERGE_ON_ROW: WriteChoice = WriteChoice::Merge {
    key: Some(MergeKey::RowId),
};
pub const OVERWRITE: WriteChoice = WriteChoice::OverwritePartition;
pub const APPEND: WriteChoice = WriteChoice::Append;

/// source -> state -> transform -> write [-> finaliser], edit by edit.
pub fn design(
    source: &str,
    state: StateChoice,
    commit: CommitOrder,
    mode: WriteChoice,
    finaliser: Option<(u32, AfterFinal)>,
) -> Graph {
    let mut h = History::new(Graph::with_source(source));
    let add = |h: &mut History, config: NodeConfig| {
        h.edit(&Edit::Add { config, x: 0, y: 0 }).expect("add");
        NodeId(h.current.next_id - 1)
    };
    let s = add(
        &mut h,
        NodeConfig::State {
            state,
            commit,
            catch_up: false,
        },
    );
    let t = add(&mut h, NodeConfig::default_for(NodeKind::Transform));
    let w = add(
        &mut h,
        NodeConfig::Write {
            table: "silver.table".into(),
            mode,
        },
    );
    for (from, to) in [(NodeId(0), s), (s, t), (t, w)] {
        h.edit(&Edit::Connect { from, to }).expect("connect");
    }
    if let Some((days, after_final)) = finaliser {
        let f = add(
            &mut h,
            NodeConfig::Finaliser {
                allowed_lateness_days: days,
                after_final,
            },
        );
        h.edit(&Edit::Connect { from: w, to: f }).expect("connect");
    }
    h.current
}

pub fn list(lookback: u32) -> StateChoice {
    StateChoice::PartitionList {
        lookback,
        over: ListDate::EventDate,
    }
}

pub fn list_by_change(lookback: u32) -> StateChoice {
    StateChoice::PartitionList {
        lookback,
        over: ListDate::ChangeDate,
    }
}

pub fn watermark(column: WatermarkColumn, overlap_minutes: u32) -> StateChoice {
    StateChoice::Watermark {
        column,
        overlap_minutes,
    }
}

pub const FULL_REFRESH: (StateChoice, WriteChoice) = (StateChoice::None, WriteChoice::ReplaceTable);

/// A backfill design: what the canvas builds for scenarios 4 and 5.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub first: chrono::NaiveDate,
    pub last: chrono::NaiveDate,
    pub at_once: u32,
    pub shape: BackfillShape,
    pub markers: Markers,
    pub yields: bool,
    pub mode: WriteChoice,
    pub logic: LogicVersion,
    pub reads: Layer,
    pub restate: Option<Restate>,
}

impl Plan {
    pub fn new(first: chrono::NaiveDate, last: chrono::NaiveDate, at_once: u32) -> Self {
        Plan {
            first,
            last,
            at_once,
            shape: BackfillShape::PerDate,
            markers: Markers::AfterPartition,
            yields: false,
            mode: OVERWRITE,
            logic: LogicVersion::Fixed,
            reads: Layer::Bronze,
            restate: Some(Restate::AfterAllGold),
        }
    }
}

/// source -> backfill -> transform -> write [-> report], edit by edit.
pub fn backfill_design(source: &str, plan: Plan) -> Graph {
    let mut h = History::new(Graph::with_source(source));
    let add = |h: &mut History, config: NodeConfig| {
        h.edit(&Edit::Add { config, x: 0, y: 0 }).expect("add");
        NodeId(h.current.next_id - 1)
    };
    let b = add(
        &mut h,
        NodeConfig::Backfill {
            first: plan.first,
            last: plan.last,
            max_concurrency: plan.at_once,
            shape: plan.shape,
            markers: plan.markers,
            yield_to_scheduled: plan.yields,
        },
    );
    let t = add(
        &mut h,
        NodeConfig::Transform {
            logic: plan.logic,
            reads: plan.reads,
            partition_key: PartitionKey::EventDate,
        },
    );
    let w = add(
        &mut h,
        NodeConfig::Write {
            table: "silver.table".into(),
            mode: plan.mode,
        },
    );
    for (from, to) in [(NodeId(0), b), (b, t), (t, w)] {
        h.edit(&Edit::Connect { from, to }).expect("connect");
    }
    if let Some(restate) = plan.restate {
        let r = add(&mut h, NodeConfig::Report { restate });
        h.edit(&Edit::Connect { from: w, to: r }).expect("connect");
    }
    h.current
}

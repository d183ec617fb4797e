//! Designs built the way the canvas builds them, for the scenario tests.
#![allow(dead_code)]

use partition_lab::design::graph::{StateChoice, WriteChoice};
use partition_lab::design::{Edit, Graph, History, NodeConfig, NodeId, NodeKind};
use partition_lab::engine::{AfterFinal, CommitOrder, ListDate, MergeKey, WatermarkColumn};

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
    let s = add(&mut h, NodeConfig::State { state, commit });
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

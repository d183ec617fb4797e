//! Nodes, their configuration, and which node may feed which.

use crate::lean::sorted::{SortedMap, SortedSet};

use chrono::NaiveDate;

use crate::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, WatermarkColumn,
};

/// Ids handed out over a design's life: deleting and adding again uses
/// new ids, so this bounds the edits too, at a number nobody reaches.
pub const MAX_NEXT_ID: u32 = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// The palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeKind {
    Source,
    State,
    Transform,
    Write,
    Backfill,
    Finaliser,
    Checks,
    Report,
}

impl NodeKind {
    pub const PALETTE: [NodeKind; 7] = [
        NodeKind::State,
        NodeKind::Transform,
        NodeKind::Write,
        NodeKind::Backfill,
        NodeKind::Finaliser,
        NodeKind::Checks,
        NodeKind::Report,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Source => "bronze source",
            NodeKind::State => "processing state",
            NodeKind::Transform => "transform",
            NodeKind::Write => "write target",
            NodeKind::Backfill => "backfill job",
            NodeKind::Finaliser => "finaliser",
            NodeKind::Checks => "checks",
            NodeKind::Report => "report",
        }
    }

    /// Whether an edge from a `self` node into a `to` node makes sense.
    pub fn feeds(self, to: NodeKind) -> bool {
        use NodeKind::*;
        matches!(
            (self, to),
            (Source, State | Transform | Backfill)
                | (State, Transform)
                | (Transform, Write)
                | (Backfill, Transform | Write)
                | (Write, Finaliser | Checks | Report | Transform)
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateChoice {
    Watermark {
        column: WatermarkColumn,
        overlap_minutes: u32,
    },
    PartitionList {
        lookback: u32,
        over: ListDate,
    },
    None,
    /// Rebuild the run's day and the `days` before it, remembering nothing.
    TrailingWindow {
        days: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    Bronze,
    Silver,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteChoice {
    Append,
    OverwritePartition,
    /// A merge needs a key; `None` is a design still being made.
    Merge {
        key: Option<MergeKey>,
    },
    ReplaceTable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackfillShape {
    /// Each date: silver then gold.
    PerDate,
    /// All silver first, then all gold.
    TwoPhases,
    /// Each date: silver and gold started at the same time.
    Together,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markers {
    Off,
    AfterPartition,
    BeforePartition,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restate {
    AfterAllGold,
    AtOnce,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeConfig {
    Source {
        table: String,
    },
    State {
        state: StateChoice,
        commit: CommitOrder,
        /// Whether the scheduler runs what it missed while it was down
        /// (offered where a scenario has an outage; older files: no).
        catch_up: bool,
    },
    Transform {
        logic: LogicVersion,
        reads: Layer,
        partition_key: PartitionKey,
    },
    Write {
        table: String,
        mode: WriteChoice,
    },
    Backfill {
        first: NaiveDate,
        last: NaiveDate,
        max_concurrency: u32,
        shape: BackfillShape,
        markers: Markers,
        yield_to_scheduled: bool,
    },
    Finaliser {
        allowed_lateness_days: u32,
        after_final: AfterFinal,
    },
    Checks {
        unique_key: bool,
        reconcile: bool,
    },
    Report {
        restate: Restate,
    },
}

impl NodeConfig {
    pub fn kind(&self) -> NodeKind {
        match self {
            NodeConfig::Source { .. } => NodeKind::Source,
            NodeConfig::State { .. } => NodeKind::State,
            NodeConfig::Transform { .. } => NodeKind::Transform,
            NodeConfig::Write { .. } => NodeKind::Write,
            NodeConfig::Backfill { .. } => NodeKind::Backfill,
            NodeConfig::Finaliser { .. } => NodeKind::Finaliser,
            NodeConfig::Checks { .. } => NodeKind::Checks,
            NodeConfig::Report { .. } => NodeKind::Report,
        }
    }

    /// A `kind` node with every choice made, for samples, layouts and
    /// tests. The palette does not use it: a student's node arrives from
    /// `design::choose::placed`, its graded choices unmade.
    pub fn default_for(kind: NodeKind) -> Self {
        let day = crate::engine::calendar::aug;
        match kind {
            NodeKind::Source => NodeConfig::Source {
                table: "bronze.orders".to_string(),
            },
            NodeKind::State => NodeConfig::State {
                state: StateChoice::PartitionList {
                    lookback: 1,
                    over: ListDate::EventDate,
                },
                commit: CommitOrder::StateAfterWrite,
                catch_up: false,
            },
            NodeKind::Transform => NodeConfig::Transform {
                logic: LogicVersion::Fixed,
                reads: Layer::Bronze,
                partition_key: PartitionKey::EventDate,
            },
            NodeKind::Write => NodeConfig::Write {
                table: "silver.orders".to_string(),
                mode: WriteChoice::OverwritePartition,
            },
            NodeKind::Backfill => NodeConfig::Backfill {
                first: day(1),
                last: day(7),
                max_concurrency: 1,
                shape: BackfillShape::PerDate,
                markers: Markers::AfterPartition,
                yield_to_scheduled: false,
            },
            NodeKind::Finaliser => NodeConfig::Finaliser {
                allowed_lateness_days: 2,
                after_final: AfterFinal::Adjustments,
            },
            NodeKind::Checks => NodeConfig::Checks {
                unique_key: true,
                reconcile: true,
            },
            NodeKind::Report => NodeConfig::Report {
                restate: Restate::AfterAllGold,
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub id: NodeId,
    pub x: i32,
    pub y: i32,
    pub config: NodeConfig,
    /// Given by the scenario: cannot be deleted or reconfigured.
    pub fixed: bool,
    /// The inspector fields (`design::inspector::form` keys) a student has not chosen
    /// yet: a node from the palette arrives with every graded choice here,
    /// and `validate` names each one. Files saved before there was such a
    /// list read as every choice made.
    pub unchosen: Vec<&'static str>,
}

impl Node {
    pub fn kind(&self) -> NodeKind {
        self.config.kind()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    pub nodes: SortedMap<NodeId, Node>,
    pub edges: SortedSet<Edge>,
    /// Ids are never reused, so references in undo history stay meaningful.
    pub next_id: u32,
}

impl Graph {
    /// A graph holding only a scenario's given bronze source.
    pub fn with_source(table: &str) -> Self {
        let mut graph = Graph::default();
        let id = NodeId(0);
        graph.next_id = 1;
        graph.nodes.insert(
            id,
            Node {
                id,
                x: 40,
                y: 120,
                config: NodeConfig::Source {
                    table: table.to_string(),
                },
                fixed: true,
                unchosen: Vec::new(),
            },
        );
        graph
    }

    /// The next unused id, or `None` once ids run out (never wrapping
    /// round onto a node that exists).
    pub fn fresh_id(&mut self) -> Option<NodeId> {
        if self.next_id >= MAX_NEXT_ID {
            return None;
        }
        let id = NodeId(self.next_id);
        self.next_id = self.next_id.checked_add(1)?;
        Some(id)
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(&id)
    }

    pub fn inputs(&self, id: NodeId) -> impl Iterator<Item = &Node> {
        self.edges
            .iter()
            .filter(move |e| e.to == id)
            .filter_map(|e| self.nodes.get(&e.from))
    }

    pub fn outputs(&self, id: NodeId) -> impl Iterator<Item = &Node> {
        self.edges
            .iter()
            .filter(move |e| e.from == id)
            .filter_map(|e| self.nodes.get(&e.to))
    }

    pub fn of_kind(&self, kind: NodeKind) -> impl Iterator<Item = &Node> {
        self.nodes.values().filter(move |n| n.kind() == kind)
    }
}

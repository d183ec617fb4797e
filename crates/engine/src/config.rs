//! How a pipeline is built: its processing state, commit order, write mode.

use serde::Serialize;

use super::money::LogicVersion;

/// The column a watermark tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum WatermarkColumn {
    ArrivedAt,
    UpdatedAt,
    EventTime,
}

/// Which bronze partitions a partition list counts in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum ListDate {
    /// Bronze partitioned by when the event happened.
    #[default]
    EventDate,
    /// Bronze partitioned by when a change was made (`updated_at`).
    ChangeDate,
}

/// How the pipeline remembers where it got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ProcessingState {
    /// Read rows whose `column` is past the mark (minus `overlap_minutes`).
    Watermark {
        column: WatermarkColumn,
        overlap_minutes: u32,
    },
    /// Remember completed dates; also re-read the `lookback` days before each run's day.
    PartitionList { lookback: u32, over: ListDate },
    /// Full refresh: remember nothing, rebuild everything every run.
    None,
    /// Rebuild the run's day and the `days` before it on every run, and
    /// remember nothing: the chapter's `WHERE dt >= current_date - 3`, and
    /// what dbt microbatch's `lookback` does, counted one further there (a
    /// 02:00 run's current batch is the day it runs on, so a window of N
    /// days is `lookback` N+1: `labs::dates`, proven on dbt). A day the
    /// window has passed is never built again, so a missed run's day stays
    /// missing.
    TrailingWindow { days: u32 },
}

impl ProcessingState {
    pub const fn watermark() -> Self {
        ProcessingState::Watermark {
            column: WatermarkColumn::ArrivedAt,
            overlap_minutes: 0,
        }
    }

    pub const fn partition_list(lookback: u32) -> Self {
        ProcessingState::PartitionList {
            lookback,
            over: ListDate::EventDate,
        }
    }
}

/// When the state is saved relative to the write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum CommitOrder {
    /// Write, then save state: a crash in between makes the retry redo the write.
    #[default]
    StateAfterWrite,
    /// Save state, then write: a crash in between skips the write for good.
    StateBeforeWrite,
}

/// Which column identifies a row for a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MergeKey {
    /// The business key (order id, click id).
    Key,
    /// The bronze row id (a change id for mutable orders).
    RowId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum WriteMode {
    Append,
    /// Replace every partition the run targets, emptying one it found no
    /// rows for: dbt's delete+insert and microbatch, Delta's replaceWhere,
    /// SQLMesh's delete-by-range.
    OverwritePartition,
    /// Replace only the partitions present in the rows written: Spark's
    /// dynamic partition overwrite (`partitionOverwriteMode=dynamic`), BigQuery's
    /// and dbt-spark's `insert_overwrite`. A targeted day with no rows keeps
    /// its old rows; the two differ only then.
    OverwritePresent,
    Merge {
        key: MergeKey,
    },
    ReplaceTable,
}

/// Which date a written row is filed under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum PartitionKey {
    /// The date the event happened: late rows still land in their own day.
    #[default]
    EventDate,
    /// The logical day of the run that wrote it: late rows land in the wrong day.
    ProcessingDate,
}

/// What happens to a row that arrives after its partition is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AfterFinal {
    Drop,
    /// Book it to an adjustments table in the period it arrived.
    Adjustments,
    /// Let the pipeline write it into the final partition anyway.
    Reopen,
}

/// Partition D is final at the end of the successful run for D + `allowed_lateness_days`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Finaliser {
    pub allowed_lateness_days: u32,
    pub after_final: AfterFinal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PipelineConfig {
    pub state: ProcessingState,
    pub commit: CommitOrder,
    pub write: WriteMode,
    pub partition_key: PartitionKey,
    /// The transform live before the script's first deploy.
    pub logic: LogicVersion,
    pub finaliser: Option<Finaliser>,
    /// After the scheduler was down, run the missed scheduled runs in order
    /// (Airflow's `catchup=True` on the DAG, Dagster's and SQLMesh's
    /// missing intervals), or only go on with the next one.
    pub catch_up: bool,
}

impl PipelineConfig {
    pub fn new(state: ProcessingState, write: WriteMode) -> Self {
        Self {
            state,
            write,
            commit: CommitOrder::StateAfterWrite,
            partition_key: PartitionKey::EventDate,
            logic: LogicVersion::Fixed,
            finaliser: None,
            catch_up: false,
        }
    }

    /// Full refresh: no state, the whole table replaced every run.
    pub fn full_refresh() -> Self {
        Self::new(ProcessingState::None, WriteMode::ReplaceTable)
    }

    pub fn with_commit(mut self, commit: CommitOrder) -> Self {
        self.commit = commit;
        self
    }

    pub fn with_catch_up(mut self, catch_up: bool) -> Self {
        self.catch_up = catch_up;
        self
    }

    pub fn with_finaliser(mut self, finaliser: Finaliser) -> Self {
        self.finaliser = Some(finaliser);
        self
    }
}

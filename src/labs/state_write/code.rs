//! Each cell as real tools would run it, in both dbt (on DuckDB) and
//! Spark, so a student compares like with like: the same state, write mode,
//! lookback and commit order. The pipeline's state lives in a small control
//! table either way (`ops.pipeline_state`); a crash falls between the write
//! and the state save, in whichever order the controls put them. These are
//! the readable forms; the downloadable project (`runnable`) holds the
//! models `scripts/check-real` runs for every cell and control on both tools.

use crate::engine::{CommitOrder, ProcessingState, WriteMode};
use crate::export::{DBT_VERSIONS, SPARK_VERSIONS};

use super::model::{Cell, Controls};

fn dbt(cell: Cell, controls: &Controls) -> String {
    let config = cell.config(controls);
    let strategy = match config.write {
        WriteMode::Append => "materialized='incremental', incremental_strategy='append'",
        WriteMode::OverwritePartition => {
            "materialized='incremental', incremental_strategy='delete+insert', unique_key='dt'"
        }
        WriteMode::Merge { .. } => {
            "materialized='incremental', incremental_strategy='merge', unique_key='order_id'"
        }
        WriteMode::ReplaceTable => "materialized='table'",
    };
    let scope = match config.state {
        ProcessingState::Watermark { .. } => {
            "-- the saved watermark; none yet on the first run, which reads everything\nwhere (select arrived_at_mark from {{ source('ops', 'pipeline_state') }}) is null\n   or arrived_at > (select arrived_at_mark from {{ source('ops', 'pipeline_state') }})"
                .to_string()
        }
        ProcessingState::PartitionList { lookback, .. } => format!(
            "-- dates not yet listed as done, plus the run's day and the {lookback} day(s) before it\nwhere dt in (select dt from {{{{ source('ops', 'partitions_to_build') }}}})"
        ),
        ProcessingState::None => "-- no state: every run reads all of bronze".to_string(),
    };
    let order = match (config.state, config.commit) {
        (ProcessingState::None, _) => String::new(),
        (_, CommitOrder::StateAfterWrite) => {
            "\n\n-- the orchestrator saves the new state only after `dbt run` succeeds".to_string()
        }
        (_, CommitOrder::StateBeforeWrite) => "\n\n-- the orchestrator saves the new state BEFORE `dbt run`: a crash in\n-- between leaves the state moved on and the rows never written".to_string(),
    };
    format!(
        "-- {DBT_VERSIONS}\n{{{{ config({strategy}) }}}}\n\nselect order_id, amount_gbp, dt, arrived_at\nfrom {{{{ ref('bronze_orders') }}}}\n{scope}{order}"
    )
}

fn spark(cell: Cell, controls: &Controls) -> String {
    let config = cell.config(controls);
    let (read, next) = match config.state {
        ProcessingState::Watermark { .. } => (
            "mark = state.get(\"arrived_at_mark\")   # the newest arrived_at already read\nbatch = bronze.where(F.col(\"arrived_at\") > mark) if mark else bronze",
            // An empty batch keeps the old mark: max() of nothing is null.
            "newest = batch.agg(F.max(\"arrived_at\")).first()[0]\nnew_state = {\"arrived_at_mark\": max(mark, newest) if mark and newest else (newest or mark)}",
        ),
        ProcessingState::PartitionList { .. } => (
            "todo = state.dates_to_build(run_day, lookback=LOOKBACK)   # not done yet, plus the lookback\nbatch = bronze.where(F.col(\"dt\").isin(todo))",
            "new_state = {\"done\": state.get(\"done\") | set(todo)}",
        ),
        ProcessingState::None => ("batch = bronze   # no state: read everything", ""),
    };
    let write = match config.write {
        WriteMode::Append => "batch.write.mode(\"append\").insertInto(\"silver.orders\")".to_string(),
        WriteMode::OverwritePartition => "# only the dt partitions present in the batch are replaced\nspark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")\nbatch.write.mode(\"overwrite\").insertInto(\"silver.orders\")".to_string(),
        WriteMode::Merge { .. } => "# merging needs Delta Lake or Iceberg tables".to_string(),
        WriteMode::ReplaceTable => "batch.write.mode(\"overwrite\").saveAsTable(\"silver.orders\")   # the whole table".to_string(),
    };
    let lookback = match config.state {
        ProcessingState::PartitionList { lookback, .. } => format!("LOOKBACK = {lookback}\n"),
        _ => String::new(),
    };
    let steps = match (config.state, config.commit) {
        (ProcessingState::None, _) => write,
        (_, CommitOrder::StateAfterWrite) => {
            format!("{next}\n{write}\nstate.save(new_state)   # after the write: a crash re-reads")
        }
        (_, CommitOrder::StateBeforeWrite) => format!(
            "{next}\nstate.save(new_state)   # BEFORE the write: a crash loses the batch\n{write}"
        ),
    };
    format!(
        "# {SPARK_VERSIONS}\nfrom pyspark.sql import functions as F\n\n{lookback}bronze = spark.table(\"bronze.orders\").where(F.col(\"arrived_at\") <= run_started_at)\n{read}\n{steps}"
    )
}

/// A project that replays this cell's week on dbt-duckdb and on Spark, as
/// an uncompressed tar and its file name (`None` only if a path were too long).
pub fn runnable(cell: Cell, controls: &Controls) -> Option<(String, Vec<u8>)> {
    use crate::export::{bundle::tar, project::replay_project, replay::Replay};
    let script = super::model::script(controls);
    let name = cell.slug();
    let replay = Replay {
        name: format!("silver_orders_{name}"),
        config: cell.config(controls),
        script_id: "week".to_string(),
        script: &script,
    };
    let files = replay_project("partition_lab_week", &[replay], &[("week", &script)]);
    let root = format!("partition-lab-{name}");
    tar(&root, &files).map(|bytes| (format!("{root}.tar"), bytes))
}

/// (tool, code) for a cell under the current controls: dbt, then Spark.
pub fn equivalent(cell: Cell, controls: &Controls) -> Vec<(&'static str, String)> {
    vec![
        ("dbt", dbt(cell, controls)),
        ("Spark", spark(cell, controls)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(cell: Cell, controls: &Controls, tool: &str) -> String {
        equivalent(cell, controls)
            .into_iter()
            .find(|(t, _)| *t == tool)
            .map(|(_, c)| c)
            .unwrap_or_default()
    }

    #[test]
    fn every_cell_has_both_tools_and_follows_the_controls() {
        let before = Controls {
            lookback: 2,
            commit: CommitOrder::StateBeforeWrite,
            ..Controls::default()
        };
        for cell in Cell::ALL {
            assert_eq!(equivalent(cell, &before).len(), 2);
        }
        let dbt = code(Cell::ListOverwrite, &before, "dbt");
        assert!(
            dbt.contains("delete+insert") && dbt.contains("the 2 day(s) before"),
            "{dbt}"
        );
        assert!(dbt.contains("BEFORE `dbt run`"));
        let spark = code(Cell::WatermarkOverwrite, &before, "Spark");
        assert!(spark.contains("partitionOverwriteMode"));
        let save = spark.find("state.save").expect("saves state");
        let write = spark.find("insertInto").expect("writes");
        assert!(save < write, "state saved before the write when asked");
        let after = code(Cell::WatermarkAppend, &Controls::default(), "Spark");
        assert!(after.find("insertInto") < after.find("state.save"));
        assert!(
            after.contains("max(mark, newest) if mark and newest"),
            "an empty batch keeps the mark"
        );
        assert!(!code(Cell::FullRefresh, &before, "dbt").contains("BEFORE"));
    }
}

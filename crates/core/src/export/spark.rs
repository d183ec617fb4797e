//! A pipeline as a PySpark job: one module per pipeline, the code a page
//! shows as the pipeline's Spark form and the code `replay_spark.py` runs
//! for every one of its attempts (in the downloads and in
//! `scripts/check-real`). One generator, so what a student reads is what
//! was run and compared with the engine.
//!
//! The runner owns the loop and the batching: every pipeline's k-th
//! attempt goes into one Spark job, so the table is partitioned by
//! pipeline as well as by dt. The module decides what the attempt reads,
//! the watermark it would save, the batch it writes and how it writes it.

use crate::engine::{AfterFinal, CommitOrder, ListDate, MergeKey, ProcessingState, WriteMode};
use crate::vocabulary::Choice;

use super::replay::{write_name, Replay};
use super::{quoted, SPARK_VERSIONS};

/// The folder of a project that holds the modules.
pub const JOBS: &str = "spark_jobs";

/// The path of `replay`'s module in a project.
pub fn path(replay: &Replay) -> String {
    format!("{JOBS}/{}.py", quoted(&replay.name))
}

/// Whether `replay`'s script has keys with more than one version: only
/// then does the batch need reducing to the latest version per key.
fn versioned(replay: &Replay) -> bool {
    let mut keys: Vec<&str> = replay.script.events.iter().map(|e| &*e.key).collect();
    let all = keys.len();
    crate::lean::order::sort(&mut keys);
    keys.dedup();
    keys.len() < all
}

/// `replay`'s PySpark module.
pub fn module(replay: &Replay) -> String {
    let name = quoted(&replay.name);
    let script = quoted(&replay.script_id);
    let p = &replay.config;
    let mut read = format!(
        "    rows = bronze.where(\n        (F.col(\"script\") == \"{script}\")\n        & (F.col(\"arrived_at\") <= F.lit(run.at))   # only what had arrived when the run started\n    )\n"
    );
    let mut targets = "[]";
    match p.state {
        ProcessingState::Watermark {
            column,
            overlap_minutes,
        } => {
            let col = column.name();
            let back = if overlap_minutes == 0 {
                String::new()
            } else {
                format!(" - F.expr(\"interval {overlap_minutes} minutes\")")
            };
            let why = if overlap_minutes == 0 {
                "only what is newer than the last successful run saw".to_string()
            } else {
                format!("newer than the mark less {overlap_minutes} minutes of overlap")
            };
            read.push_str(&format!(
                "    # the watermark: {why};\n    # none yet on the first run, which reads everything\n    if state.mark is not None:\n        rows = rows.where(F.col(\"{col}\") > F.lit(state.mark){back})\n"
            ));
        }
        ProcessingState::PartitionList { lookback, over } => {
            let col = match over {
                ListDate::EventDate => "dt",
                ListDate::ChangeDate => "change_date",
            };
            read.push_str(&format!(
                "    # the partition list: every date not yet done, plus\n    # {} (state.py), first run included\n    targets = state.targets(run.day)\n    rows = rows.where(F.col(\"{col}\").isin(targets))\n",
                super::run_day_and(lookback)
            ));
            targets = "targets";
        }
        ProcessingState::TrailingWindow { days } => {
            read.push_str(&format!(
                "    # the trailing window: {}, every\n    # run, with nothing remembered: a day the window has passed is never read again\n    targets = state.targets(run.day)\n    rows = rows.where(F.col(\"dt\").isin(targets))\n",
                super::run_day_and(days)
            ));
            targets = "targets";
        }
        ProcessingState::None => {
            read.push_str("    # no state: every run reads everything that has arrived\n");
        }
    }
    if let Some(f) = p.finaliser {
        if f.after_final != AfterFinal::Reopen {
            read.push_str(&format!(
                "    # final after {}: final partitions are never written again\n    if state.final_through is not None:\n        rows = rows.where(F.col(\"dt\") > F.lit(state.final_through))\n",
                crate::counted::counted(f.allowed_lateness_days, "day")
            ));
        }
    }
    read.push_str(&format!("    return rows, {targets}\n"));
    let newest = match p.state {
        ProcessingState::Watermark { column, .. } => format!(
            "\n\ndef newest(rows):\n    \"\"\"The watermark a successful run saves: the newest {col} of every row it\n    read, before the batch is reduced to one row per key.\"\"\"\n    return rows.agg(F.max(\"{col}\").alias(\"newest\"))\n",
            col = column.name()
        ),
        _ => String::new(),
    };
    let batch = if versioned(replay) {
        "    \"\"\"One row per key: the latest version the run read.\"\"\"\n    latest = Window.partitionBy(\"key\").orderBy(\n        F.col(\"updated_at\").desc(), F.col(\"arrived_at\").desc(), F.col(\"id\").desc()\n    )\n    return rows.withColumn(\"n\", F.row_number().over(latest)).where(\"n = 1\").drop(\"n\")\n"
    } else {
        "    \"\"\"One row per key: every key of this script has one version, so the\n    rows read are the batch (no window, no shuffle).\"\"\"\n    return rows\n"
    };
    let write = match p.write {
        WriteMode::Append => "    \"\"\"Append: adds the batch's rows to what is there, and never replaces a row.\"\"\"\n    batch.write.mode(\"append\").partitionBy(\"pipeline\", \"dt\").parquet(table)\n".to_string(),
        WriteMode::OverwritePartition => "    \"\"\"Overwrite the partitions in the batch: with partitionOverwriteMode\n    \"dynamic\" (set on the session) only the dt values that have rows in the\n    batch are replaced. A partition the run targeted but found no rows for\n    keeps its old rows. Delta's recommended form, replaceWhere on the\n    run's dates, would empty it, and refuses a batch with a row outside them.\"\"\"\n    batch.write.mode(\"overwrite\").partitionBy(\"pipeline\", \"dt\").parquet(table)\n".to_string(),
        WriteMode::OverwritePresent => "    \"\"\"Overwrite the partitions in the batch (partitionOverwriteMode \"dynamic\",\n    set on the session): a partition the run targeted but found no rows for\n    keeps its old rows.\"\"\"\n    batch.write.mode(\"overwrite\").partitionBy(\"pipeline\", \"dt\").parquet(table)\n".to_string(),
        WriteMode::ReplaceTable => "    \"\"\"A full refresh: the pipeline's whole table is replaced on every run,\n    even by an empty batch.\"\"\"\n    for name in pipelines:\n        shutil.rmtree(os.path.join(table, f\"pipeline={name}\"), ignore_errors=True)\n    batch.write.mode(\"append\").partitionBy(\"pipeline\", \"dt\").parquet(table)\n".to_string(),
        WriteMode::Merge { key } => {
            let k = match key {
                MergeKey::Key => "key",
                MergeKey::RowId => "id",
            };
            format!("    \"\"\"A merge on {k}, keeping the newer version. Spark's own tables have no\n    MERGE: it needs Delta Lake (or Iceberg), whose JARs are not on PyPI, so\n    the replay leaves this pipeline out and says so; its dbt model runs the\n    same merge on DuckDB.\"\"\"\n    from delta.tables import DeltaTable\n    (DeltaTable.forPath(SparkSession.getActiveSession(), table).alias(\"t\")\n        .merge(batch.alias(\"s\"), \"t.pipeline = s.pipeline and t.{k} = s.{k}\")\n        .whenMatchedUpdateAll(condition=\"s.updated_at >= t.updated_at\")\n        .whenNotMatchedInsertAll()\n        .execute())\n")
        }
    };
    let commit = match (p.state, p.commit) {
        (ProcessingState::None | ProcessingState::TrailingWindow { .. }, _) => "# No state to save: a crashed run changes nothing a retry depends on.",
        (_, CommitOrder::StateAfterWrite) => "# Write, then save the state: a crash between the two leaves the state\n# where it was, and the retry reads the same rows again.",
        (_, CommitOrder::StateBeforeWrite) => "# Save the state BEFORE the write: a crash between the two leaves the\n# state moved on and the batch never written.",
    };
    let commit_name = match p.commit {
        CommitOrder::StateAfterWrite => "after",
        CommitOrder::StateBeforeWrite => "before",
    };
    let imports = match p.write {
        WriteMode::ReplaceTable => "import os\nimport shutil\n\n",
        _ => "",
    };
    let session = match (
        matches!(p.write, WriteMode::Merge { .. }),
        versioned(replay),
    ) {
        (true, true) => "from pyspark.sql import SparkSession, Window\n",
        (true, false) => "from pyspark.sql import SparkSession\n",
        (false, true) => "from pyspark.sql import Window\n",
        (false, false) => "",
    };
    let pipelines_arg = match p.write {
        WriteMode::ReplaceTable => "pipelines",
        _ => "pipelines=()",
    };
    format!(
        "\"\"\"{name}: generated by Partition Lab for {SPARK_VERSIONS}.\n\nreplay_spark.py runs this module for each of the pipeline's attempts, in\norder, with every other pipeline's attempt of the same step in one Spark\njob (so the table is partitioned by pipeline too).\n\"\"\"\n{imports}{session}from pyspark.sql import functions as F\n\nWRITE = \"{write_mode}\"\n{commit}\nCOMMIT = \"{commit_name}\"\n\n\ndef read(bronze, state, run):\n    \"\"\"The rows this attempt reads, and the partitions it targets.\"\"\"\n{read}{newest}\n\ndef batch(rows):\n{batch}\n\ndef write(batch, table, {pipelines_arg}):\n{write}",
        write_mode = write_name(p.write),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::state_write::{script, Cell, Controls};

    fn for_cell(cell: Cell, controls: &Controls) -> String {
        let s = script(controls);
        module(&Replay {
            name: "p".into(),
            config: cell.config(controls),
            script_id: "week".into(),
            script: &s,
        })
    }

    #[test]
    fn each_choice_is_in_the_job() {
        let c = Controls::default();
        let wo = for_cell(Cell::WatermarkOverwrite, &c);
        assert!(wo.contains("WRITE = \"overwrite\"") && wo.contains("def newest(rows):"));
        assert!(
            wo.contains("if state.mark is not None:"),
            "first run reads all"
        );
        assert!(
            !wo.contains("row_number"),
            "the week has one version per key"
        );
        let lo = for_cell(Cell::ListOverwrite, &c);
        assert!(lo.contains("state.targets(run.day)") && !lo.contains("def newest"));
        let fr = for_cell(Cell::FullRefresh, &c);
        assert!(fr.contains("shutil.rmtree") && fr.contains("No state to save"));
        let before = Controls {
            commit: CommitOrder::StateBeforeWrite,
            ..c
        };
        assert!(for_cell(Cell::WatermarkAppend, &before).contains("COMMIT = \"before\""));
    }
}

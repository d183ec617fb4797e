//! Runnable projects a user downloads: the same files `scripts/check-real`
//! runs in CI, for the pipelines and the script the user is looking at.

use crate::engine::Script;

use super::replay::{bronze_csv, pipelines_json, Replay};
use super::{dbt, spark, File, DBT_PIP, DBT_VERSIONS, SPARK_PIP, SPARK_VERSIONS};

/// A dbt-duckdb project (one model per pipeline) with the Spark runner
/// beside it, replaying `scripts`' runs; `expected` adds the engine's
/// answer for the checks.
pub fn replay_project(
    name: &str,
    replays: &[Replay],
    scripts: &[(&str, &Script)],
    runners: &[File],
) -> Vec<File> {
    let mut files = dbt::project(name);
    for r in replays {
        files.push(File::new(format!("models/{}.sql", r.name), dbt::model(r)));
        files.push(File::new(spark::path(r), spark::module(r)));
    }
    let csv = bronze_csv(scripts);
    files.push(File::new("seeds/bronze.csv", csv.clone()));
    files.push(File::new("bronze.csv", csv));
    files.push(File::new("pipelines.json", pipelines_json(replays)));
    files.extend_from_slice(runners);
    files.push(File::new("README.txt", readme(replays)));
    files
}

fn readme(replays: &[Replay]) -> String {
    let names: Vec<&str> = replays.iter().map(|r| r.name.as_str()).collect();
    let merging: Vec<&str> = replays
        .iter()
        .filter(|r| matches!(r.config.write, crate::engine::WriteMode::Merge { .. }))
        .map(|r| r.name.as_str())
        .collect();
    let merges = if merging.is_empty() {
        String::new()
    } else {
        format!(
            "\n\nSpark's own tables cannot merge (MERGE needs Delta Lake or Iceberg,\nwhose JARs are not on PyPI), so replay_spark.py leaves out {} and says\nso; the dbt models run the same merge on DuckDB.",
            merging.join(", ")
        )
    };
    format!(
        "Exported from Partition Lab: {} ({}) and the runs the lab\nreplayed, on real tools.\n\ndbt ({DBT_VERSIONS}):\n    python -m venv .venv && . .venv/bin/activate\n    pip install {DBT_PIP}\n    DBT_SEND_ANONYMOUS_USAGE_STATS=false python replay_dbt.py\n\nSpark ({SPARK_VERSIONS}; needs Java 17):\n    pip install {SPARK_PIP}\n    python replay_spark.py\n\nEach runner keeps the pipeline's state (a watermark or a partition list)\nin lab_control / lab_targets, runs every scheduled run, retry and manual\nre-run in order, and writes results.json: each table's row ids per\npartition, which are the lab's silver. A crash falls between the write\nand the state save, in the order the pipeline commits them.\n\nmodels/ holds each pipeline's dbt model and spark_jobs/ its PySpark module:\nthe code the lab showed for it.{merges}\n",
        crate::counted::counted(replays.len(), "pipeline"),
        names.join(", ")
    )
}

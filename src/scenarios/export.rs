//! A scenario's design as a project to run on real tools: the pipeline it
//! compiles to, replayed over the scenario's own runs (faults included) on
//! dbt-duckdb and Spark, as `scripts/check-real` does for the listed designs.

use crate::design::compile::compile;
use crate::design::graph::Layer;
use crate::design::Graph;
use crate::engine::{LogicVersion, PartitionKey};
use crate::export::{bundle::tar, project::replay_project, replay::Replay};

use super::grade::script;

/// The project for `graph` in scenario `number` (a tar and its file name),
/// or why there is none for this design.
pub fn runnable(number: u8, graph: &Graph) -> Result<(String, Vec<u8>), String> {
    let design = compile(graph).map_err(|p| {
        format!(
            "the design has {} structural problem(s) to fix first",
            p.len()
        )
    })?;
    if design.backfill.is_some() {
        return Err("backfill designs export their Airflow and dbt commands above; the runnable replay covers daily pipelines".to_string());
    }
    if design.reads == Layer::Silver
        || design.pipeline.partition_key == PartitionKey::ProcessingDate
        || design.pipeline.logic == LogicVersion::Broken
    {
        return Err("the runnable replay covers transforms that read bronze with the fixed logic into event-date partitions".to_string());
    }
    let script =
        script(number).ok_or_else(|| format!("scenario {number} has no runs to replay"))?;
    let id = format!("scenario{number}");
    let replay = Replay {
        name: format!("silver_scenario{number}"),
        config: design.pipeline,
        script_id: id.clone(),
        script: &script,
    };
    let files = replay_project(&format!("partition_lab_{id}"), &[replay], &[(&id, &script)]);
    let root = format!("partition-lab-{id}");
    tar(&root, &files)
        .map(|bytes| (format!("{root}.tar"), bytes))
        .ok_or_else(|| "a file name was too long for the archive".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::WriteChoice;
    use crate::scenarios::sample::sample;

    #[test]
    fn a_daily_design_exports_and_a_backfill_says_why_not() {
        let (name, bytes) =
            runnable(1, &sample(1, WriteChoice::OverwritePartition)).expect("exports");
        assert_eq!(name, "partition-lab-scenario1.tar");
        assert!(bytes.len() > 1024);
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("models/silver_scenario1.sql") && text.contains("replay_dbt.py"));
        assert!(runnable(4, &sample(4, WriteChoice::OverwritePartition)).is_err());
    }
}

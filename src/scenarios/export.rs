//! A scenario's design as a project to run on real tools: the pipeline it
//! compiles to, replayed over the scenario's own runs (faults included) on
//! dbt-duckdb and Spark, as `scripts/check-real` does for the listed designs.

use crate::design::code::{export_code_with, Code};
use crate::design::compile::{compile, CompiledDesign};
use crate::design::graph::Layer;
use crate::design::validate::Problem;
use crate::design::Graph;
use crate::engine::{LogicVersion, PartitionKey, Script};
use crate::export::airflow::Dates;
use crate::export::{
    bundle::tar, dbt, project::replay_project, replay::Replay, spark, DBT_VERSIONS, SPARK_VERSIONS,
};

use super::grade::script;

/// Why the replay cannot run `design`, if it cannot.
fn not_replayable(design: &CompiledDesign) -> Option<&'static str> {
    if design.backfill.is_some() {
        return Some("backfill designs export their Airflow and dbt commands; the runnable replay covers daily pipelines");
    }
    if design.reads == Layer::Silver
        || design.pipeline.partition_key == PartitionKey::ProcessingDate
        || design.pipeline.logic == LogicVersion::Broken
    {
        return Some("the runnable replay covers transforms that read bronze with the fixed logic into event-date partitions");
    }
    None
}

/// The design as the pipeline the runners replay over the scenario's runs.
fn replay<'a>(number: u8, design: &CompiledDesign, script: &'a Script) -> Replay<'a> {
    Replay {
        name: format!("silver_scenario{number}"),
        config: design.pipeline,
        script_id: format!("scenario{number}"),
        script,
    }
}

/// "Export as code" for `graph` in scenario `number`. A design the runners
/// can replay shows the dbt model and the PySpark module of its runnable
/// project, the code `scripts/check-real` runs; any other shows the
/// readable forms, each saying that the lab's checks do not run it and why.
pub fn code(number: u8, graph: &Graph) -> Result<Vec<Code>, Vec<Problem>> {
    let history = super::catalog::SCENARIOS
        .iter()
        .any(|s| s.number == number && s.history);
    let dates = if history {
        Dates::NeverRun
    } else {
        Dates::AlreadyRun
    };
    let mut codes = export_code_with(graph, dates)?;
    let design = compile(graph)?;
    let script = match (not_replayable(&design), script(number)) {
        (None, Some(script)) => script,
        (why, _) => {
            let why = why.unwrap_or("the scenario has no runs to replay");
            for c in codes.iter_mut().filter(|c| c.tool != "Airflow") {
                let mark = if c.tool == "Spark" { "#" } else { "--" };
                c.text = format!(
                    "{mark} A readable form, not run by the lab's checks: {why}.\n{}",
                    c.text
                );
            }
            return Ok(codes);
        }
    };
    let r = replay(number, &design, &script);
    for c in &mut codes {
        match c.tool {
            "dbt" => {
                c.text = dbt::model(&r);
                c.versions = DBT_VERSIONS;
            }
            "Spark" => {
                c.text = spark::module(&r);
                c.versions = SPARK_VERSIONS;
            }
            _ => {}
        }
    }
    Ok(codes)
}

/// The project for `graph` in scenario `number` (a tar and its file name),
/// or why there is none for this design.
pub fn runnable(number: u8, graph: &Graph) -> Result<(String, Vec<u8>), String> {
    let design = compile(graph).map_err(|p| {
        format!(
            "the design has {} structural problem{} to fix first",
            p.len(),
            if p.len() == 1 { "" } else { "s" }
        )
    })?;
    if let Some(why) = not_replayable(&design) {
        return Err(why.to_string());
    }
    let script =
        script(number).ok_or_else(|| format!("scenario {number} has no runs to replay"))?;
    let id = format!("scenario{number}");
    let files = replay_project(
        &format!("partition_lab_{id}"),
        &[replay(number, &design, &script)],
        &[(&id, &script)],
    );
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

    #[test]
    fn the_code_shown_is_the_projects_or_says_it_is_not_run() {
        let graph = sample(1, WriteChoice::OverwritePartition);
        let design = compile(&graph).expect("compiles");
        let s = script(1).expect("runs");
        let files = replay_project("p", &[replay(1, &design, &s)], &[("scenario1", &s)]);
        let codes = code(1, &graph).expect("code");
        let text = |tool: &str| {
            codes
                .iter()
                .find(|c| c.tool == tool)
                .map(|c| c.text.clone())
        };
        let file = |path: &str| {
            files
                .iter()
                .find(|f| f.path == path)
                .map(|f| f.text.clone())
        };
        assert_eq!(text("dbt"), file("models/silver_scenario1.sql"));
        assert_eq!(text("Spark"), file("spark_jobs/silver_scenario1.py"));
        let backfill = code(4, &sample(4, WriteChoice::OverwritePartition)).expect("code");
        assert!(backfill.iter().filter(|c| c.tool != "Airflow").all(|c| c
            .text
            .contains("not run by the lab's checks: backfill designs")));
    }
}

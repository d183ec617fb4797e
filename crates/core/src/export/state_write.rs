//! Each cell as real tools run it, in dbt (on DuckDB) and Spark: the dbt
//! model and the PySpark module of the cell's downloadable project, which
//! are the same generators `scripts/check-real` runs for every cell under
//! every control combination and compares with the engine. What a student
//! reads is what was run.

use crate::export::replay::Replay;
use crate::export::{dbt, spark};
use crate::tool::Tool;

use crate::labs::state_write::model::{Cell, Controls};

/// The cell's week as a pipeline a real tool replays: the one name and
/// script the page's code, the download and the checks share.
fn replay<'a>(cell: Cell, controls: &Controls, script: &'a crate::engine::Script) -> Replay<'a> {
    Replay {
        name: format!("silver_orders_{}", cell.slug()),
        config: cell.config(controls),
        script_id: "week".to_string(),
        script,
    }
}

/// A project that replays this cell's week on dbt-duckdb and on Spark, with
/// `runners` (`export::replay`), as an uncompressed tar and its file name
/// (`None` only if a path were too long).
pub fn runnable(
    cell: Cell,
    controls: &Controls,
    runners: &[crate::export::File],
) -> Option<(String, Vec<u8>)> {
    use crate::export::{bundle::tar, project::replay_project};
    let script = crate::labs::state_write::model::script(controls);
    let files = replay_project(
        "partition_lab_week",
        &[replay(cell, controls, &script)],
        &[("week", &script)],
        runners,
    );
    let root = format!("partition-lab-{}", cell.slug());
    tar(&root, &files).map(|bytes| (format!("{root}.tar"), bytes))
}

/// (tool, code) for a cell under the current controls: the dbt model, then
/// the Spark module, each exactly as the runnable project holds it.
pub fn equivalent(cell: Cell, controls: &Controls) -> Vec<(Tool, String)> {
    let script = crate::labs::state_write::model::script(controls);
    let r = replay(cell, controls, &script);
    vec![
        (Tool::Dbt, dbt::model(&r)),
        (Tool::Spark, spark::module(&r)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CommitOrder;
    use crate::export::project::replay_project;

    fn code(cell: Cell, controls: &Controls, tool: Tool) -> String {
        equivalent(cell, controls)
            .into_iter()
            .find(|(t, _)| *t == tool)
            .map(|(_, c)| c)
            .unwrap_or_default()
    }

    #[test]
    fn the_code_shown_is_the_code_in_the_project_and_follows_the_controls() {
        let before = Controls {
            lookback: 2,
            commit: CommitOrder::StateBeforeWrite,
            ..Controls::default()
        };
        for cell in Cell::ALL {
            let script = crate::labs::state_write::model::script(&before);
            let files = replay_project(
                "p",
                &[replay(cell, &before, &script)],
                &[("week", &script)],
                &crate::export::replay::runner_files(),
            );
            let file = |path: String| {
                files
                    .iter()
                    .find(|f| f.path == path)
                    .map(|f| f.text.clone())
            };
            let name = format!("silver_orders_{}", cell.slug());
            assert_eq!(
                file(format!("models/{name}.sql")),
                Some(code(cell, &before, Tool::Dbt))
            );
            assert_eq!(
                file(format!("spark_jobs/{name}.py")),
                Some(code(cell, &before, Tool::Spark))
            );
        }
        let dbt = code(Cell::ListOverwrite, &before, Tool::Dbt);
        assert!(
            dbt.contains("delete+insert") && dbt.contains("lab_targets"),
            "{dbt}"
        );
        assert!(dbt.contains("BEFORE `dbt run"), "{dbt}");
        let spark = code(Cell::ListOverwrite, &before, Tool::Spark);
        assert!(spark.contains("the 2 days before it") && spark.contains("COMMIT = \"before\""));
        let after = code(Cell::WatermarkAppend, &Controls::default(), Tool::Spark);
        assert!(
            after.contains("COMMIT = \"after\"") && after.contains("if state.mark is not None")
        );
        assert!(!code(Cell::FullRefresh, &before, Tool::Dbt).contains("BEFORE"));
    }
}

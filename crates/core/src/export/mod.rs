//! The real tools' room: what the lab's pipelines and plans are in dbt,
//! Spark, Airflow, DuckDB, SQLMesh, Dagster and Beam, generated from the
//! engine's own inputs (a pipeline's configuration, a script, a backfill
//! plan); a long file's fixed text is a template (`templates/`) whose
//! holes those inputs fill. Every file a tool runs is written here, for
//! whichever page asks. Each generator names the versions it is proven
//! on: `scripts/check-real` runs its output on those tools in CI and
//! compares the rows with the engine's.

// One generator per tool (each writes its tool's files from the engine's
// inputs) ...
pub mod airflow;
pub mod beam;
pub mod dagster;
pub mod dbt;
pub mod drift;
pub mod lateness_sql;
pub mod spark;
pub mod spark_backfill;
pub mod sqlmesh;
pub mod template;
// ... what several tools share (a replay's data and runners, a project's
// layout, the tar a page downloads) ...
pub mod bundle;
pub mod project;
pub mod replay;
// ... and what each page asks the room for: the only modules here that
// read a design, a scenario or a lab, once, to choose a generator.
pub mod backfill_lab;
pub mod canvas;
#[cfg(not(target_arch = "wasm32"))]
pub mod checks;
pub mod lateness_lab;
pub mod scenario;
pub mod state_write;

// The tools and their versions live below the labs (`crate::tool`), which
// teach them too; the room writes for them under the same names.
pub use crate::tool::{
    pins, Tool, AIRFLOW_PIP, AIRFLOW_VERSIONS, BEAM_PIP, BEAM_RELEASE, BEAM_VERSIONS, DAGSTER_PIP,
    DAGSTER_VERSIONS, DBT_PIP, DBT_VERSIONS, DUCKDB_VERSIONS, SPARK_PIP, SPARK_SQL, SPARK_VERSIONS,
    SQLMESH_PIP, SQLMESH_VERSIONS,
};

/// One file of an exported project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub path: String,
    pub text: String,
}

impl File {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            text: text.into(),
        }
    }
}

/// SQL and Python string literal contents: the lab's names are plain
/// identifiers already (`design::limits`), this is the second lock.
pub fn quoted(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | ':' | ' '))
        .collect()
}

/// The days a run reads, as the exported code's comments name them: "the
/// run's day", "the run's day and the day before it", "the run's day and
/// the 3 days before it".
pub fn run_day_and(before: u32) -> String {
    match before {
        0 => "the run's day".to_string(),
        1 => "the run's day and the day before it".to_string(),
        n => format!("the run's day and the {n} days before it"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_reads_its_day_and_the_days_before_it_in_words() {
        assert_eq!(run_day_and(0), "the run's day");
        assert_eq!(run_day_and(1), "the run's day and the day before it");
        assert_eq!(run_day_and(3), "the run's day and the 3 days before it");
    }
}

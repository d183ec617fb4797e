//! The bridge to real tools: what the lab's pipelines and plans are in
//! dbt, Spark, Airflow and DuckDB, generated from the engine's own inputs
//! (a pipeline's configuration, a script, a backfill plan), never from a
//! fixed template. Each generator names the versions it is proven on:
//! `scripts/check-real` runs its output on those tools in CI and compares
//! the rows with the engine's.

pub mod airflow;
pub mod bundle;
pub mod dbt;
pub mod drift;
pub mod lateness_sql;
pub mod project;
pub mod replay;
pub mod spark;
pub mod spark_backfill;

/// The versions each export is written for and checked against.
pub const DBT_VERSIONS: &str = "dbt-core 1.10 with dbt-duckdb 1.10 (DuckDB 1.4 or later)";
pub const SPARK_VERSIONS: &str = "Apache Spark 4.0 (PySpark), local mode";
pub const AIRFLOW_VERSIONS: &str = "Apache Airflow 3.1";
pub const DUCKDB_VERSIONS: &str = "DuckDB 1.4 or later";

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

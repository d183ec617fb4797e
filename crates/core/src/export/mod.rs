//! The bridge to real tools: what the lab's pipelines and plans are in
//! dbt, Spark, Airflow, DuckDB, SQLMesh, Dagster and Beam, generated from the engine's own inputs
//! (a pipeline's configuration, a script, a backfill plan), never from a
//! fixed template. Each generator names the versions it is proven on:
//! `scripts/check-real` runs its output on those tools in CI and compares
//! the rows with the engine's.

pub mod airflow;
pub mod beam;
pub mod bundle;
pub mod dagster;
pub mod dbt;
pub mod drift;
pub mod lateness_sql;
pub mod project;
pub mod replay;
pub mod spark;
pub mod spark_backfill;
pub mod sqlmesh;

// The versions the exports are proven on, in one place: every label the
// app, the exports and the READMEs print is built from these, and
// `scripts/check-real` installs exactly their pins (`partition-lab-export
// --pins`), so a label can never name a version nothing tested. dbt-core
// 1.12 is not here because it cannot be installed from the package
// registries alone: a dependency downloads a wheel from elsewhere while it
// builds.
macro_rules! dbt_core {
    () => {
        "1.11"
    };
}
macro_rules! dbt_duckdb {
    () => {
        "1.11"
    };
}
macro_rules! pyspark {
    () => {
        "4.3"
    };
}
macro_rules! beam {
    () => {
        "2.77"
    };
}
macro_rules! sqlmesh {
    () => {
        "0.236"
    };
}
macro_rules! dagster {
    () => {
        "1.13"
    };
}
macro_rules! airflow {
    () => {
        "3.3"
    };
}

/// The versions each export is written for and checked against.
pub const DBT_VERSIONS: &str = concat!(
    "dbt-core ",
    dbt_core!(),
    " with dbt-duckdb ",
    dbt_duckdb!(),
    " (DuckDB 1.4 or later)"
);
pub const SPARK_VERSIONS: &str = concat!("Apache Spark ", pyspark!(), " (PySpark), local mode");
pub const SPARK_SQL: &str = concat!("Spark SQL ", pyspark!());
pub const AIRFLOW_VERSIONS: &str = concat!("Apache Airflow ", airflow!());
pub const BEAM_VERSIONS: &str = concat!("Apache Beam ", beam!(), " (Python SDK, DirectRunner)");
pub const BEAM_RELEASE: &str = beam!();
pub const SQLMESH_VERSIONS: &str = concat!("SQLMesh ", sqlmesh!(), " on DuckDB");
pub const DAGSTER_VERSIONS: &str = concat!("Dagster ", dagster!(), " on DuckDB");
pub const DUCKDB_VERSIONS: &str = "DuckDB 1.4 or later";

/// The pip requirements of each tool, as a README tells a reader to install them.
pub const DBT_PIP: &str = concat!(
    "\"dbt-core==",
    dbt_core!(),
    ".*\" \"dbt-duckdb==",
    dbt_duckdb!(),
    ".*\""
);
pub const SPARK_PIP: &str = concat!("\"pyspark==", pyspark!(), ".*\"");
pub const AIRFLOW_PIP: &str = concat!("\"apache-airflow==", airflow!(), ".*\"");
pub const BEAM_PIP: &str = concat!("\"apache-beam==", beam!(), ".*\"");
pub const SQLMESH_PIP: &str = concat!("\"sqlmesh==", sqlmesh!(), ".*\"");
// dagster-duckdb's own numbers (0.29 for 1.13) follow dagster's: pip
// picks the one that fits.
pub const DAGSTER_PIP: &str = concat!(
    "\"dagster==",
    dagster!(),
    ".*\" \"dagster-dg-cli==",
    dagster!(),
    ".*\" dagster-duckdb"
);

/// What `scripts/check-real` installs: one line per virtual environment,
/// its name and then its pins.
pub fn pins() -> String {
    format!(
        // Airflow's DAG for the backfill lab does its work on DuckDB.
        "data {} duckdb {}\nairflow {} duckdb\nbeam {}\nsqlmesh {} duckdb\ndagster {}\n",
        DBT_PIP.replace('"', ""),
        SPARK_PIP.replace('"', ""),
        AIRFLOW_PIP.replace('"', ""),
        BEAM_PIP.replace('"', ""),
        SQLMESH_PIP.replace('"', ""),
        DAGSTER_PIP.replace('"', "")
    )
}

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

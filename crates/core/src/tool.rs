//! The real tools the lab writes for and teaches, and the versions each
//! is checked against. Below the labs and the export room alike: the
//! dates page names a tool's version as the exports do, and the room
//! chooses a generator by a [`Tool`], never by its name.

use crate::engine::calendar::Day;
use crate::engine::lateness::RUN_HOUR;

/// A tool "Export as code" writes a block for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    Dbt,
    Airflow,
    Spark,
    SqlMesh,
    Dagster,
    Beam,
}

impl Tool {
    /// The blocks in the order a page shows them.
    pub const ALL: [Tool; 6] = [
        Tool::Dbt,
        Tool::Airflow,
        Tool::Spark,
        Tool::SqlMesh,
        Tool::Dagster,
        Tool::Beam,
    ];

    /// The tool's own spelling of its name.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Dbt => "dbt",
            Tool::Airflow => "Airflow",
            Tool::Spark => "Spark",
            Tool::SqlMesh => "SQLMesh",
            Tool::Dagster => "Dagster",
            Tool::Beam => "Beam",
        }
    }

    /// The versions its block is written for and checked against.
    pub const fn versions(self) -> &'static str {
        match self {
            Tool::Dbt => DBT_VERSIONS,
            Tool::Airflow => AIRFLOW_VERSIONS,
            Tool::Spark => SPARK_VERSIONS,
            Tool::SqlMesh => SQLMESH_VERSIONS,
            Tool::Dagster => DAGSTER_VERSIONS,
            Tool::Beam => BEAM_VERSIONS,
        }
    }

    /// How a line of its block is made a comment: its blocks are SQL
    /// (dbt, SQLMesh) or Python.
    pub const fn comment(self) -> &'static str {
        match self {
            Tool::Dbt | Tool::SqlMesh => "--",
            Tool::Airflow | Tool::Spark | Tool::Dagster | Tool::Beam => "#",
        }
    }
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The lab's daily partitions from `first` in Dagster: days that start at
/// the nightly run's hour, UTC (what the dates page teaches and the
/// Dagster exports declare).
pub fn dagster_daily_partitions(first: Day) -> String {
    format!(
        "DailyPartitionsDefinition(start_date=\"{first}\", hour_offset={RUN_HOUR}, timezone=\"UTC\")"
    )
}

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

//! The lab's exports as `scripts/check-real` runs them, folder by folder,
//! with the engine's own answers beside them (`partition-lab-export`
//! writes them; the checks' designs are [`catalogue`]'s data):
//!
//! - `state-write/`: a dbt-duckdb project and a PySpark runner replaying
//!   every State x Write cell under every control combination the lab
//!   offers (combinations that give a pipeline the same inputs are run
//!   once), and `expected.json`, the engine's silver for each;
//! - `scenarios/`: the same for scenarios 1 to 3 and 6, passing designs
//!   and mistakes built and compiled as the canvas does, over the
//!   scenario's own runs, and again on one student's variant;
//! - `microbatch/`: the backfill lab's rebuild as a dbt microbatch model,
//!   each plan's `dbt run` range, and the lab's fixed totals per day;
//! - `drift/`: the backfill lab's drift query for DuckDB, its tables as
//!   CSV, and `expected.json`, the lab's drift table;
//! - `backfill-spark/`: the backfill lab's Spark job for each plan over
//!   those tables, and the days each rebuilds with the lab's fixed totals;
//! - `scenario-backfills/`: passing and failing backfill designs of
//!   scenarios 4 and 5, each design's Spark job as the page shows it, the
//!   scenario's tables at the launch, and the engine's answers;
//! - `airflow/`: the daily DAG and the backfill commands for every plan
//!   the backfill lab offers, and `expected.json`, each plan's dates;
//! - `lateness/`: the lateness lab's "your data" query for DuckDB, for each
//!   test log in `tests/data/arrivals` and a few run times, and
//!   `expected.json`, the lab's completeness for each;
//! - `lateness-projects/`: the lateness lab's SQLMesh and Dagster
//!   projects, each tar exactly as the page makes it (SQLMesh for every
//!   built-in profile, Dagster for the mobile one, at 0, 2 and 7 days and
//!   never final), and `expected.json`, the orders each must never book;
//! - `dates/`: every value the dates page shows for three pipelines;
//! - `backfill-project/`: the backfill lab's runnable project as the page
//!   offers it, and the days its tools must leave fixed;
//! - `microbatch-withdrawn/`, `backfill-spark-withdrawn/`: as above, with
//!   the Sunday's orders withdrawn;
//! - `dagster/`, `dagster-withdrawn/`: the backfill lab's pipeline as
//!   Dagster partitioned assets, each plan start's launch as the page
//!   shows it and the days it rebuilds, with every day's fixed total.
//! - `sqlmesh/`: the backfill lab's pipeline as a SQLMesh project, each
//!   plan's restatement command, and the days it rebuilds with the lab's
//!   fixed totals;
//! - `lateness-beam/`: the lateness lab's Beam pipeline for each built-in
//!   profile (its month as a CSV) and each of those logs, zones and run
//!   times, and `expected.json`, the rows the lab says arrive after their
//!   day is final at each allowed lateness.
//! - `scenario-beam/`: scenario 3's bronze as the runnable project's
//!   `bronze.csv`, the Beam block the page shows for designs with a
//!   finaliser (each allowed lateness, adjustments or drop), and the rows
//!   the engine keeps out of each design's final partitions.

use crate::engine::{CommitOrder, PipelineConfig, Script};
use crate::export::project::replay_project;
use crate::export::replay::{expected_json, runner_files, Replay};
use crate::export::{airflow, File};
use crate::labs::backfill::case::{backfill_start, Sunday};
use crate::labs::backfill::{Case, Choices, Concurrency};
use crate::labs::state_write::{script, Cell, Controls, Down, LateOrder};
use crate::vocabulary::Choice;

mod backfill_lab;
pub mod catalogue;
mod dates;
mod lateness;
mod scenario_backfills;
mod scenario_beam;
mod scenarios;
mod state_write;

/// Why a folder could not be made: a design or a case the checks name
/// that the lab no longer makes as the checks expect.
pub type Refusal = String;

/// Every folder `scripts/check-real` runs, by name, with its files.
pub fn folders() -> Result<Vec<(&'static str, Vec<File>)>, Refusal> {
    Ok(vec![
        ("state-write", state_write::state_write()),
        ("scenarios", scenarios::scenario_files()?),
        (
            "microbatch",
            backfill_lab::microbatch_files(Sunday::Delivered),
        ),
        (
            "microbatch-withdrawn",
            backfill_lab::microbatch_files(Sunday::Withdrawn),
        ),
        ("drift", backfill_lab::drift_files()),
        (
            "backfill-spark",
            backfill_lab::backfill_spark_files(Sunday::Delivered),
        ),
        (
            "backfill-spark-withdrawn",
            backfill_lab::backfill_spark_files(Sunday::Withdrawn),
        ),
        (
            "scenario-backfills",
            scenario_backfills::scenario_backfill_files()?,
        ),
        ("airflow", backfill_lab::airflow_files()?),
        ("lateness", lateness::lateness_files()?),
        ("lateness-beam", lateness::beam_files()?),
        ("scenario-beam", scenario_beam::scenario_beam_files()?),
        ("lateness-projects", lateness::lateness_project_files()?),
        ("sqlmesh", backfill_lab::sqlmesh_files()?),
        ("dagster", backfill_lab::dagster_files(Sunday::Delivered)?),
        (
            "dagster-withdrawn",
            backfill_lab::dagster_files(Sunday::Withdrawn)?,
        ),
        ("dates", dates::dates_files()?),
        ("backfill-project", backfill_lab::backfill_project_files()?),
    ])
}

/// A replay project with the engine's silver beside it, for the comparison.
fn with_answers(mut files: Vec<File>, replays: &[Replay]) -> Vec<File> {
    files.push(File::new("expected.json", expected_json(replays)));
    files
}

/// Scenario `n`, which the checks' own tables name.
fn scenario(n: u8) -> Result<&'static crate::scenarios::Scenario, Refusal> {
    crate::scenarios::numbered(n).ok_or_else(|| format!("no scenario {n}"))
}

/// Refuses unless the grader judges `graph` as its label says: `None`
/// passes, `Some(rule)` fails that rule.
fn graded_as_labelled(
    name: &str,
    n: u8,
    graph: &crate::design::Graph,
    fails: Option<&str>,
) -> Result<(), Refusal> {
    let failed = crate::scenarios::grading::grade::grade(scenario(n)?, graph).failed();
    let as_labelled = match fails {
        None => failed.is_empty(),
        Some(rule) => failed.contains(&rule),
    };
    if as_labelled {
        Ok(())
    } else {
        Err(format!(
            "{name}: the grader fails {failed:?}, the label says {fails:?}"
        ))
    }
}

//! Airflow (see `AIRFLOW_VERSIONS`): the daily DAG, its pool, and the backfill commands for a plan.
//!
//! The DAG runs at 02:00 for the day before with a data-interval timetable,
//! so a run's logical date is the start of the day it builds (that date,
//! 02:00 UTC). `airflow backfill create` compares logical *datetimes*: a
//! bare `--to-date 2026-08-13` means midnight and leaves out the 13th's
//! 02:00 run, so the commands spell out the first and last logical dates.

use chrono::Datelike;

use crate::engine::calendar::Day;
use crate::engine::clock::{Job, Marking, Shape};
use crate::engine::{ListDate, ProcessingState};
use crate::vocabulary::Choice;

use super::{quoted, AIRFLOW_VERSIONS};

/// A backfill as Airflow is asked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backfill {
    pub dag_id: String,
    pub first: Day,
    pub last: Day,
    pub max_active_runs: u32,
    /// Source connections: the pool the DAG's tasks draw from.
    pub pool_slots: u32,
    /// Completed runs are the completion markers a resumed backfill skips.
    pub markers: bool,
    /// Keep one pool slot free for the nightly run.
    pub yield_to_nightly: bool,
    /// Build all silver first, then all gold.
    pub two_phases: bool,
    /// Whether the dates already have runs (a correction) or none yet
    /// (history for a new pipeline).
    pub dates: Dates,
}

impl Backfill {
    /// The engine's `job` as Airflow is asked for it on `dag_id`: its flags
    /// are Airflow's words for the job's own choices.
    pub fn of_job(dag_id: &str, job: &Job, dates: Dates) -> Self {
        Self {
            dag_id: dag_id.to_string(),
            first: job.first,
            last: job.last,
            max_active_runs: job.concurrency,
            pool_slots: job.pool,
            markers: job.markers != Marking::Off,
            yield_to_nightly: job.yield_to_scheduled,
            two_phases: job.shape == Shape::TwoPhases,
            dates,
        }
    }
}

/// What Airflow already holds for the backfill's dates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dates {
    /// Every date has a successful run, built by the code being corrected.
    AlreadyRun,
    /// A new pipeline: no date has a run yet.
    NeverRun,
}

/// What the daily DAG's tasks do, in words for its comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tasks {
    /// What `build_silver` does with partition dt.
    pub silver: String,
    /// What `build_gold` does after it, if the pipeline has gold.
    pub gold: Option<String>,
    /// Whether the scheduler, back after being down, runs every interval it
    /// missed (the design's choice where a scenario has an outage).
    pub catch_up: bool,
    /// What a run reads, so which partitions it targets.
    pub reads: ProcessingState,
}

/// `text` as Python comment lines of at most 78 characters.
fn comment_lines(text: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() > 1 && line.len().saturating_add(word.len()) >= 78 {
            lines.push(std::mem::replace(&mut line, String::from("#")));
        }
        line.push(' ');
        line.push_str(word);
    }
    lines.push(line);
    lines.join("\n")
}

/// What the header says a run builds, and the lines of `build_silver` that
/// name its targets (the interval's day is `dt`).
fn targets(reads: ProcessingState) -> (String, String) {
    let days = |before: u32, of: &str| -> (String, String) {
        let many = before.saturating_add(1);
        (
            if before == 0 {
                "Each run builds the one day its interval is".to_string()
            } else {
                format!(
                    "Each run builds {many} days: its interval's day and the {} before it{of}",
                    crate::counted::counted(before, "day")
                )
            },
            format!(
                "        targets = [str(dt - timedelta(days=back)) for back in range({many})]\n"
            ),
        )
    };
    match reads {
        ProcessingState::PartitionList {
            lookback,
            over: ListDate::EventDate,
        } => days(lookback, " (the design's partition list)"),
        ProcessingState::PartitionList {
            lookback,
            over: ListDate::ChangeDate,
        } => (
            format!(
                "Each run rebuilds the partitions of the rows that changed on its interval's day and the {} before it (the design's list of change dates)",
                crate::counted::counted(lookback, "day")
            ),
            format!(
                "        changed_on = [str(dt - timedelta(days=back)) for back in range({})]\n        targets = \"the partitions of the rows whose change date is in changed_on\"\n",
                lookback.saturating_add(1)
            ),
        ),
        ProcessingState::TrailingWindow { days: before } => days(before, " (a trailing window)"),
        ProcessingState::Watermark { column, .. } => (
            format!(
                "Each run reads the rows whose {} is past the watermark the run before saved, whichever days they belong to",
                column.name()
            ),
            "        targets = \"the partitions of the rows past the saved watermark\"\n".to_string(),
        ),
        ProcessingState::None => (
            "Each run rebuilds the whole table (a full refresh)".to_string(),
            "        targets = \"every partition\"\n".to_string(),
        ),
    }
}

/// The logical date of the run that builds partition `dt`.
pub fn logical_date(dt: Day) -> String {
    crate::engine::calendar::iso_utc(crate::engine::calendar::at(
        dt,
        crate::engine::lateness::RUN_HOUR,
        0,
    ))
}

/// The daily DAG: build_silver (then build_gold, where there is gold) for
/// one partition, each task holding one of the source pool's slots.
pub fn dag(dag_id: &str, first_day: Day, tasks: &Tasks) -> String {
    let dag_id = quoted(dag_id);
    let catchup = if tasks.catch_up {
        "catchup=True,  # back after being down, the scheduler runs every interval it missed, in order\n    # (and on the first unpause, every interval since start_date: start it at the first day you own)"
    } else {
        "catchup=False,  # back after being down, Airflow starts only the latest interval it missed, never\n    # the older ones (the lab's no catch-up starts none: the next 02:00 run is its first);\n    # history is a backfill, launched on purpose"
    };
    let silver = tasks.silver.replace('\n', " ");
    let (builds, target_lines) = targets(tasks.reads);
    let (gold_task, chain) = match &tasks.gold {
        Some(gold) => (
            format!(
                "\n    @task\n    def build_gold(targets):\n        # {}\n        return targets\n",
                gold.replace('\n', " ")
            ),
            "build_gold(build_silver())",
        ),
        None => (String::new(), "build_silver()"),
    };
    let builds = comment_lines(&format!("{builds}."));
    format!(
        r#"# Generated by Partition Lab for {AIRFLOW_VERSIONS}.
# One run a day at 02:00, for the day before: with a data-interval
# timetable a run's logical date is the start of that day's interval (its
# 02:00), so a backfill over the logical dates of days a to b runs those days.
{builds}
# The tasks are the schedule and what each run targets; their bodies say
# what to do to those partitions, in words: put your warehouse's SQL there.
# Its tasks run in the pool source_pool, which must exist first
# (airflow pools set source_pool ...): a task in a missing pool never runs.
# A new DAG starts paused: unpause it (airflow dags unpause {dag_id}).
from datetime import datetime, timedelta, timezone

from airflow.sdk import DAG, task
from airflow.timetables.interval import CronDataIntervalTimetable

with DAG(
    dag_id="{dag_id}",
    schedule=CronDataIntervalTimetable("0 2 * * *", timezone="UTC"),
    start_date=datetime({y}, {m}, {d}, tzinfo=timezone.utc),
    {catchup}
    max_active_runs=1,
{TASK_DEFAULTS}
) as dag:

    @task
    def build_silver(data_interval_start=None):
        dt = data_interval_start.date()
{target_lines}        # {silver}
        return targets
{gold_task}
    {chain}
"#,
        y = first_day.year(),
        m = first_day.month(),
        d = first_day.day(),
    )
}

/// Every DAG's task settings and tags: one try again after 5 minutes, and
/// a slot of the source's pool while a task runs.
const TASK_DEFAULTS: &str = "    default_args={
        \"retries\": 1,
        \"retry_delay\": timedelta(minutes=5),
        # every task holds one of the source's connections while it runs
        \"pool\": \"source_pool\",
    },
    tags=[\"partition-lab\"],";

/// The backfill lab's nightly DAG doing its work on DuckDB: each run
/// replaces its day of silver (bronze converted by `converted`, DuckDB SQL
/// over `o.amount` and `fx.gbp_per_unit`) and then of gold, each at once.
/// The file is `templates/airflow_duckdb_dag.py` with its settings put in.
pub fn duckdb_dag(dag_id: &str, start: Day, converted: &str) -> String {
    let start = format!("{}, {}, {}", start.year(), start.month(), start.day());
    super::template::fill(
        include_str!("templates/airflow_duckdb_dag.py"),
        &[
            ("versions", AIRFLOW_VERSIONS),
            ("dag_id", &quoted(dag_id)),
            ("start", &start),
            ("task_defaults", TASK_DEFAULTS),
            ("converted", converted),
        ],
    )
}

/// The pool the DAG's tasks draw from, one slot per source connection.
pub fn pool(slots: u32) -> String {
    format!("airflow pools set source_pool {slots} \"connections to the source\"")
}

/// The runs the backfill may have at once: what was asked for, less the
/// slot kept for the nightly run when it yields.
pub fn active_runs(b: &Backfill) -> u32 {
    if b.yield_to_nightly {
        b.max_active_runs.min(b.pool_slots.saturating_sub(1)).max(1)
    } else {
        b.max_active_runs
    }
}

fn create(b: &Backfill, reprocess: &str) -> String {
    format!(
        "airflow backfill create --dag-id {} \\\n  --from-date {} --to-date {} \\\n  --max-active-runs {} --reprocess-behavior {reprocess}",
        quoted(&b.dag_id),
        logical_date(b.first),
        logical_date(b.last),
        active_runs(b),
    )
}

/// The commands for `b`: the pool, the unpause, the launch, and what to
/// run after an interruption.
pub fn commands(b: &Backfill) -> String {
    let dag_id = quoted(&b.dag_id);
    let (why, launch) = match b.dates {
        Dates::AlreadyRun => (
            "# These dates already have successful runs (built with the code being\n# corrected), so the correction must re-run completed dates:",
            "completed",
        ),
        Dates::NeverRun => (
            "# A new pipeline: none of these dates has a run yet, so the backfill\n# creates one for each (and would leave alone any that already ran):",
            "none",
        ),
    };
    let mut text = format!(
        "# {AIRFLOW_VERSIONS}. Tasks only run in a pool that exists: one slot per source connection.\n{}\n# A new DAG starts paused, and a backfill's runs wait until it is unpaused.\nairflow dags unpause {dag_id}\n\n{why}\n{}\n",
        pool(b.pool_slots),
        create(b, launch)
    );
    if b.max_active_runs > b.pool_slots {
        text.push_str(&format!(
            "# source_pool has {} slots: runs beyond that wait in the queue, they do not run sooner\n",
            b.pool_slots
        ));
    }
    if b.yield_to_nightly {
        text.push_str(&format!(
            "# at most {} active runs (the pool minus one), so the 02:00 run always finds a connection;\n# priority_weight only orders tasks already queued, it does not reserve a slot\n",
            active_runs(b)
        ));
    }
    if b.two_phases {
        text.push_str("# two phases: clear and run build_silver for every date first, then build_gold\n# (airflow tasks clear --task-regex '^build_silver$' ..., then '^build_gold$')\n");
    }
    text.push_str(if b.markers {
        "\n# Only after an interruption (one backfill per DAG runs at a time): re-run what did\n# not finish; the runs that completed in the first launch are the completion markers.\n"
    } else {
        "\n# Only after an interruption (one backfill per DAG runs at a time): without\n# completion markers, the re-run starts again from the top.\n"
    });
    let resume = create(b, if b.markers { "failed" } else { "completed" });
    let commented: Vec<String> = resume.lines().map(|l| format!("# {l}")).collect();
    text.push_str(&commented.join("\n"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Backfill {
        Backfill {
            dag_id: "marlow_orders_daily".into(),
            first: const { crate::engine::calendar::date(2026, 8, 3) },
            last: const { crate::engine::calendar::date(2026, 8, 13) },
            max_active_runs: 3,
            pool_slots: 4,
            markers: true,
            yield_to_nightly: false,
            two_phases: false,
            dates: Dates::AlreadyRun,
        }
    }

    #[test]
    fn the_commands_follow_the_markers_toggle() {
        let on = commands(&plan());
        assert!(
            on.contains(
                "--from-date 2026-08-03T02:00:00+00:00 --to-date 2026-08-13T02:00:00+00:00"
            ),
            "{on}"
        );
        assert!(on.contains("--reprocess-behavior completed"));
        assert!(on.contains("--reprocess-behavior failed"));
        let off = commands(&Backfill {
            markers: false,
            ..plan()
        });
        assert!(!off.contains("--reprocess-behavior failed"), "{off}");
        assert!(!on.contains("--pool") && !on.contains("dags backfill"));
    }

    #[test]
    fn the_dag_builds_the_day_its_interval_starts() {
        let tasks = Tasks {
            silver: "replace partition dt".into(),
            gold: None,
            catch_up: false,
            reads: ProcessingState::partition_list(0),
        };
        let dag = dag("marlow_orders_daily", plan().first, &tasks);
        assert!(dag.contains(
            "    catchup=False,  # back after being down, Airflow starts only the latest interval it missed"
        ));
        let catching_up = super::dag(
            "s",
            plan().first,
            &Tasks {
                catch_up: true,
                ..tasks.clone()
            },
        );
        assert!(catching_up.contains("    catchup=True,  # back after being down, the scheduler runs every interval it missed"));
        assert!(dag.contains("CronDataIntervalTimetable(\"0 2 * * *\", timezone=\"UTC\")"));
        assert!(dag.contains("start_date=datetime(2026, 8, 3, tzinfo=timezone.utc)"));
        assert!(
            dag.lines()
                .filter(|l| l.starts_with('#') && !l.contains("unpause"))
                .all(|l| l.len() <= 80),
            "{dag}"
        );
        assert!(dag.contains("# Each run builds the one day its interval is."));
        assert!(!dag.contains("03..13"), "no other pipeline's dates: {dag}");
        // A partition list with a look-back builds what the design's list does.
        let list = super::dag(
            "s",
            plan().first,
            &Tasks {
                reads: ProcessingState::partition_list(2),
                ..tasks.clone()
            },
        );
        assert!(list.contains("targets = [str(dt - timedelta(days=back)) for back in range(3)]"));
        assert!(list.contains("# Each run builds 3 days: its interval's day and the 2 days before"));
        assert!(dag.contains("data_interval_start.date()"));
        assert!(dag.contains("    build_silver()\n") && !dag.contains("build_gold"));
        assert!(dag.contains("airflow pools set source_pool"));
    }

    #[test]
    fn a_new_pipeline_creates_its_runs_and_a_yielding_one_keeps_a_slot() {
        let history = commands(&Backfill {
            dates: Dates::NeverRun,
            yield_to_nightly: true,
            max_active_runs: 4,
            ..plan()
        });
        assert!(history.contains("--reprocess-behavior none"), "{history}");
        assert!(
            !history.contains("already have successful runs"),
            "{history}"
        );
        assert!(history.contains("--max-active-runs 3"), "{history}");
        assert!(!history.contains("--max-active-runs 4"), "{history}");
        assert!(history.contains("airflow dags unpause marlow_orders_daily"));
    }
}

//! The lateness lab's setting as a project an engineer downloads and
//! runs: SQLMesh's lookback model or Dagster's definitions for the
//! profile's month and allowed lateness, the month itself, a replay that
//! loads each day's arrivals before its 02:00 run and lists the orders the
//! tool never books, and a README that says what to install, what to type
//! and what the lab says the answer is. `scripts/check-real` runs these
//! projects as the page makes them.

use crate::engine::calendar::{shift, Day};

use crate::engine::lateness::{Lateness, RUN_HOUR};
use crate::export::beam::month_csv;
use crate::export::{bundle::tar, dagster, sqlmesh, template, File, DAGSTER_PIP, SQLMESH_PIP};
use crate::labs::lateness::model::{august, draws, study, Profile};
use crate::tool::Tool;
use crate::vocabulary::Choice;

/// The table both projects write, as the lab's own code names it.
const TABLE: &str = "shop.orders";

/// The replay's shared part, with the tool's runs in place of `__RUNS__`.
const REPLAY: &str = include_str!("templates/lateness_replay.py");

/// The tools the lateness lab offers a project for (Beam's pipeline is its
/// own runnable file).
pub const TOOLS: [Tool; 2] = [Tool::SqlMesh, Tool::Dagster];

/// The project's files for `profile`'s month at `lateness` in `tool`;
/// `None` for the user's own data (the page has no month of theirs to
/// write) and for a tool with no lateness project.
pub fn files(tool: Tool, profile: Profile, lateness: Lateness) -> Option<Vec<File>> {
    let month = draws(profile);
    if month.is_empty() {
        return None;
    }
    let first = august(1);
    let late = match lateness {
        Lateness::Days(_) => study(profile).figures(lateness).after_final.count,
        Lateness::Never => 0,
    };
    let (code, runs) = match tool {
        Tool::SqlMesh => (
            vec![
                sqlmesh::config(),
                File::new(
                    sqlmesh::LOOKBACK_FILE,
                    sqlmesh::lookback_model(TABLE, first, lateness),
                ),
            ],
            include_str!("templates/lateness_runs_sqlmesh.py"),
        ),
        Tool::Dagster => (
            vec![File::new(
                "definitions.py",
                dagster::lateness_definitions(TABLE, first, lateness),
            )],
            include_str!("templates/lateness_runs_dagster.py"),
        ),
        Tool::Dbt | Tool::Airflow | Tool::Spark | Tool::Beam => return None,
    };
    let mut files = code;
    files.push(File::new("arrivals.csv", month_csv(&month)));
    files.push(File::new(
        "replay.py",
        replay(tool, runs, first, late, lateness),
    ));
    files.push(File::new(
        "README.txt",
        readme(tool, profile, lateness, late),
    ));
    Some(files)
}

/// The project as an uncompressed tar and its file name.
pub fn runnable(tool: Tool, profile: Profile, lateness: Lateness) -> Option<(String, Vec<u8>)> {
    let root = format!(
        "partition-lab-lateness-{}-{}-{}",
        tool.name().to_ascii_lowercase(),
        profile.file(),
        key(lateness)
    );
    let files = files(tool, profile, lateness)?;
    tar(&root, &files).map(|bytes| (format!("{root}.tar"), bytes))
}

/// A lateness in a file name: `l0`, `l2`, `never`.
pub fn key(lateness: Lateness) -> String {
    match lateness {
        Lateness::Days(l) => format!("l{l}"),
        Lateness::Never => "never".to_string(),
    }
}

/// The replay for `tool`, whose runs are `runs`, over the month from `first`.
fn replay(tool: Tool, runs: &str, first: Day, late: u64, lateness: Lateness) -> String {
    use chrono::Datelike;
    let last = august(31);
    let run = shift(first, 1);
    let says = match lateness {
        Lateness::Days(_) => format!(
            "Partition Lab says {} arrive after their day is final at this setting: the same orders, id for id.",
            crate::counted::counted(late, "order")
        ),
        Lateness::Never => {
            "Partition Lab says no day is ever final at this setting, so every order is booked."
                .to_string()
        }
    };
    let first_run = format!(
        "{}, {}, {}, {RUN_HOUR}, 0",
        run.year(),
        run.month(),
        run.day()
    );
    template::fill(
        REPLAY,
        &[
            ("tool", tool.name()),
            ("first_run", &first_run),
            ("first_day", &first.to_string()),
            ("last_day", &last.to_string()),
            ("says", &says),
            ("runs", runs.trim_end()),
        ],
    )
}

fn readme(tool: Tool, profile: Profile, lateness: Lateness, late: u64) -> String {
    let setting = match lateness {
        Lateness::Days(l) => format!("{} of allowed lateness", crate::counted::counted(l, "day")),
        Lateness::Never => "days never final".to_string(),
    };
    let (what, pip) = match tool {
        Tool::SqlMesh => (
            "  config.yaml        a DuckDB gateway: warehouse.duckdb, which the replay makes\n  models/orders.sql  the model: the allowed lateness as its lookback\n",
            SQLMESH_PIP,
        ),
        Tool::Dagster | Tool::Dbt | Tool::Airflow | Tool::Spark | Tool::Beam => (
            "  definitions.py     the asset and the schedule whose tick rebuilds the days\n                     the lateness keeps open (Dagster has no allowed lateness)\n",
            DAGSTER_PIP,
        ),
    };
    let answer = match lateness {
        Lateness::Days(_) => format!(
            "The lab says {} of the month arrive after their day is final at\nthis setting: the replay never books exactly those, id for id.",
            crate::counted::counted(late, "order")
        ),
        Lateness::Never => {
            "With days never final the replay books every order of the month.".to_string()
        }
    };
    format!(
        "Partition Lab's lateness lab: August's orders of the profile\n\
         \"{profile}\", with {setting},\n\
         on {versions}.\n\n\
         What is here\n\
         {what}  arrivals.csv       the month: each order's event and arrival time, UTC\n  \
         replay.py          the lab's nightly runs: at {RUN_HOUR:02}:00 UTC each day it\n                     \
         loads what has arrived since the run before into\n                     \
         raw.arrivals, then runs {tool}\n\n\
         Run it\n  \
         python3 -m venv .venv && . .venv/bin/activate\n  \
         pip install {pip} duckdb\n  \
         python replay.py\n\n\
         What it says\n  \
         How many of the month's orders {TABLE} never books; their ids go to\n  \
         late_orders.txt, everything to result.json.\n  \
         {answer}\n",
        profile = profile.label(),
        versions = tool.versions(),
        answer = answer.replace('\n', "\n  "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tool_has_a_project_with_its_code_the_month_a_replay_and_a_readme() {
        for tool in TOOLS {
            let files = files(tool, Profile::Mobile, Lateness::Days(2)).expect("a project");
            let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            assert!(paths.contains(&"arrivals.csv") && paths.contains(&"replay.py"));
            assert!(paths.contains(&"README.txt"));
            let replay = &files
                .iter()
                .find(|f| f.path == "replay.py")
                .expect("replay")
                .text;
            assert!(template::holes(replay).is_empty(), "{replay}");
            assert!(replay.contains("FIRST_RUN = datetime(2026, 8, 2, 2, 0)"));
            assert!(replay.contains("MONTH = (\"2026-08-01\", \"2026-08-31\")"));
            assert!(replay.contains("def replay(last_run):"));
        }
        assert!(files(Tool::Beam, Profile::Mobile, Lateness::Days(2)).is_none());
        assert!(files(Tool::SqlMesh, Profile::Yours, Lateness::Days(2)).is_none());
    }

    /// The README's answer is the lab's own count at the setting.
    #[test]
    fn the_readme_states_the_labs_count_for_the_setting() {
        let count = study(Profile::Mobile)
            .figures(Lateness::Days(2))
            .after_final
            .count;
        let files = files(Tool::SqlMesh, Profile::Mobile, Lateness::Days(2)).expect("a project");
        let readme = &files
            .iter()
            .find(|f| f.path == "README.txt")
            .expect("readme")
            .text;
        assert!(
            readme.contains(&crate::counted::counted(count, "order")),
            "{readme}"
        );
        let model = &files
            .iter()
            .find(|f| f.path == sqlmesh::LOOKBACK_FILE)
            .expect("model")
            .text;
        assert!(model.contains("lookback 2"));
    }
}

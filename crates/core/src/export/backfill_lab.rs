//! What the plan is in real tools, generated from the plan: the drift
//! query (DuckDB), the Airflow 3 backfill, the dbt microbatch rebuild, a
//! SQLMesh restatement, a Dagster launch, a plain loop and a Spark job, each with the
//! versions it is written for.

use crate::engine::calendar::shift;
use crate::export::{
    airflow, dagster, dbt, drift, sqlmesh, File, AIRFLOW_PIP, AIRFLOW_VERSIONS, DAGSTER_PIP,
    DAGSTER_VERSIONS, DBT_PIP, DBT_VERSIONS, SQLMESH_PIP, SQLMESH_VERSIONS,
};
use crate::labs::backfill::run::BackfillPlan;
use crate::tool::Tool;

use crate::engine::LogicVersion;
use crate::labs::backfill::case::{aug, last_existing, Case};

/// What a block of the plan's code is: a real tool's, or one of the
/// lab's own forms (the drift query on DuckDB, a plain Python loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    DriftQuery,
    Tool(Tool),
    PlainLoop,
}

impl Form {
    /// The block's heading.
    pub const fn title(self) -> &'static str {
        match self {
            Form::DriftQuery => "Drift query",
            Form::Tool(tool) => tool.name(),
            Form::PlainLoop => "Plain loop",
        }
    }

    /// Which versions it is written for (and proven on, in CI).
    pub fn versions(self) -> &'static str {
        match self {
            Form::DriftQuery => drift::Dialect::DuckDb.name(),
            Form::Tool(tool) => tool.versions(),
            Form::PlainLoop => "Python 3",
        }
    }
}

/// One tool's code for the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub form: Form,
    pub code: String,
}

impl Command {
    /// The block's heading.
    pub const fn title(&self) -> &'static str {
        self.form.title()
    }

    /// Which versions it is written for (and proven on, in CI).
    pub fn versions(&self) -> &'static str {
        self.form.versions()
    }
}

/// The Airflow backfill the plan means.
pub fn airflow_backfill(plan: &BackfillPlan) -> airflow::Backfill {
    airflow::Backfill::of_job(
        "marlow_orders_daily",
        &plan.job(),
        airflow::Dates::AlreadyRun,
    )
}

/// The dbt command that rebuilds the plan's dates with a microbatch model.
pub fn dbt_rebuild(plan: &BackfillPlan) -> String {
    format!(
        "dbt run --select silver_orders+ \\\n  --event-time-start {} --event-time-end {}",
        plan.first,
        shift(plan.last, 1)
    )
}

fn dbt(plan: &BackfillPlan) -> String {
    format!(
        "-- models/silver_orders.sql\n{}\n# The range's end is exclusive: this rebuilds {first} to {last}, and the `+`\n# rebuilds what reads silver_orders (gold) for the same days. A plain\n# --full-refresh would rebuild the whole table instead, and ignore the range.\n{}",
        crate::export::dbt::microbatch_model(crate::labs::backfill::case::aug(1)),
        dbt_rebuild(plan),
        first = plan.first,
        last = plan.last,
    )
}

pub fn plain_loop(plan: &BackfillPlan) -> String {
    let slots = plan.slots();
    let skip = if plan.markers {
        "    if markers.done(dt):          # finished in an earlier attempt: skip it\n        return\n"
    } else {
        ""
    };
    let mark = if plan.markers {
        "    markers.record(dt)            # only once silver and gold are both whole\n"
    } else {
        "    # no marker: after an interruption every date is rebuilt again\n"
    };
    format!(
        "from concurrent.futures import ThreadPoolExecutor\n\n# replace_silver_partition, replace_gold_partition, markers, dates and\n# restate_finance_report are your warehouse's own helpers.\n\ndef rebuild(dt):\n{skip}    replace_silver_partition(dt, source=\"bronze.orders\", logic=\"fixed\")\n    replace_gold_partition(dt)    # after its own silver, never before\n{mark}\n# {slots} {} at once: the source pool has {} connections\nwith ThreadPoolExecutor(max_workers={slots}) as pool:\n    list(pool.map(rebuild, dates(\"{}\", \"{}\")))\nrestate_finance_report(\"2026-08\")   # once, after every gold partition",
        if slots == 1 { "date" } else { "dates" },
        plan.pool,
        plan.first,
        plan.last
    )
}

/// The plan as a PySpark job over `bronze.orders` and `silver.fx_rates`,
/// rebuilding `silver.orders` and `gold.daily_totals`: what the page shows,
/// and what `scripts/check-real` runs (`scripts/real/backfill_spark.py`).
pub fn spark(plan: &BackfillPlan) -> String {
    crate::export::spark_backfill::job(&plan.engine(Vec::new()), LAB_TABLES)
}

/// The tables of the lab's August.
pub const LAB_TABLES: crate::export::spark_backfill::Tables<'static> =
    crate::export::spark_backfill::Tables {
        bronze: "bronze.orders",
        fx: "silver.fx_rates",
        silver: "silver.orders",
        gold: "gold.daily_totals",
    };

/// Every tool's code for `plan`.
pub fn commands(plan: &BackfillPlan) -> Vec<Command> {
    let look_back = shift(plan.first, -14);
    vec![
        Command {
            form: Form::DriftQuery,
            code: drift::query(
                drift::Dialect::DuckDb,
                "silver.orders",
                "bronze.orders",
                "silver.fx_rates",
                look_back,
            ),
        },
        Command {
            form: Form::Tool(Tool::Airflow),
            code: airflow::commands(&airflow_backfill(plan)),
        },
        Command {
            form: Form::Tool(Tool::Dbt),
            code: dbt(plan),
        },
        Command {
            form: Form::Tool(Tool::SqlMesh),
            code: sqlmesh::shown(plan.first, plan.last, aug(1)),
        },
        Command {
            form: Form::Tool(Tool::Dagster),
            code: dagster::shown(&plan.job(), aug(1)),
        },
        Command {
            form: Form::PlainLoop,
            code: plain_loop(plan),
        },
        Command {
            form: Form::Tool(Tool::Spark),
            code: spark(plan),
        },
    ]
}

/// The pipeline as a Dagster project on DuckDB: its definitions, bronze
/// and the rates as CSV for the raw tables it reads (and, with the Sunday
/// withdrawn, its orders as they were before).
pub fn dagster_project(case: &Case) -> Vec<File> {
    let mut files = vec![dagster::definitions(aug(1))];
    files.extend(drift_project(case).into_iter().filter(|f| {
        ["bronze_orders.csv", "fx_rates.csv", "withdrawn_orders.csv"].contains(&f.path.as_str())
    }));
    files
}

/// A Python script that loads `raw.bronze_orders` and `raw.fx_rates` into
/// `warehouse.duckdb` from the project's CSV files, for SQLMesh and Dagster
/// (whose models read them); money as decimals, dates as dates.
pub fn raw_loader() -> String {
    "# Loads the raw tables the models read from this folder's CSV files.\n\
     import duckdb\n\n\
     con = duckdb.connect(\"warehouse.duckdb\")\n\
     con.execute(\"create schema if not exists raw\")\n\
     con.execute(\n    \"create or replace table raw.bronze_orders as select order_id, cast(dt as date) as dt, \"\n    \"cast(amount as decimal(18,2)) as amount, currency \"\n    \"from read_csv('bronze_orders.csv', header = true, all_varchar = true)\"\n)\n\
     con.execute(\n    \"create or replace table raw.fx_rates as select currency, cast(dt as date) as dt, \"\n    \"cast(gbp_per_unit as decimal(18,6)) as gbp_per_unit \"\n    \"from read_csv('fx_rates.csv', header = true, all_varchar = true)\"\n)\n\
     con.close()\n"
        .to_string()
}

/// The days the lab's rates cover.
fn august() -> Vec<crate::engine::calendar::Day> {
    crate::engine::calendar::days(aug(1), aug(14)).collect()
}

/// The pipeline as a SQLMesh project on DuckDB: its settings and models,
/// bronze and the rates as CSV for the raw tables it reads.
pub fn sqlmesh_project(case: &Case) -> Vec<File> {
    let mut files = vec![sqlmesh::config()];
    files.extend(sqlmesh::models(aug(1), LogicVersion::Fixed));
    files.extend(
        drift_project(case)
            .into_iter()
            .filter(|f| f.path.ends_with("bronze_orders.csv") || f.path.ends_with("fx_rates.csv")),
    );
    files
}

/// The backfill's rebuild as a dbt-duckdb microbatch project: bronze and
/// the rates as seeds (bronze declares event_time, so each batch reads its
/// own day), silver as the microbatch model.
pub fn microbatch_project(case: &Case) -> Vec<File> {
    let mut files = vec![dbt::profile("partition_lab_backfill")];
    files.push(File::new(
        "dbt_project.yml",
        format!("# Generated by Partition Lab for {DBT_VERSIONS}.\nname: partition_lab_backfill\nversion: '1.0'\nprofile: partition_lab_backfill\nconfig-version: 2\nseeds:\n  partition_lab_backfill:\n    bronze_orders:\n      +event_time: event_time\n      +column_types: {{order_id: varchar, event_time: timestamp, dt: date, currency: varchar, amount: 'decimal(18,2)'}}\n    fx_rates:\n      +column_types: {{currency: varchar, dt: date, gbp_per_unit: 'decimal(18,6)'}}\n"),
    ));
    let mut bronze = String::from("order_id,event_time,dt,currency,amount\n");
    for e in case.bronze_now() {
        bronze.push_str(&format!(
            "{},{},{},{},{}\n",
            e.id,
            crate::export::replay::instant(e.event_time),
            e.event_date(),
            e.amount.currency.code(),
            drift::pounds(e.amount.minor)
        ));
    }
    files.push(File::new("seeds/bronze_orders.csv", bronze));
    files.push(File::new(
        "seeds/fx_rates.csv",
        drift::fx_csv(&case.script.fx, &august()),
    ));
    files.push(File::new(
        "models/silver_orders.sql",
        dbt::microbatch_model(aug(1)),
    ));
    files.push(File::new(
        "models/gold_daily_totals.sql",
        dbt::microbatch_gold(aug(1)),
    ));
    files.extend(withdrawn_file(case));
    files
}

/// Silver as it stands on the Friday (the nightly runs' rows, the bug's
/// days converted by the bug: the page's silver) and gold from it, for a
/// dbt rebuild to correct: `history/silver_orders.csv` and the script
/// that loads both into `lab.duckdb` as the models' own tables.
fn dbt_history(case: &Case) -> Vec<File> {
    let silver = File::new("history/silver_orders.csv", drift::silver_csv(&case.silver));
    let loader = File::new(
        "load_history.py",
        format!(
            "# Silver and gold as they stand on Friday 14 August, before the backfill:\n\
             # the nightly runs' rows, the days since the bug shipped converted by it\n\
             # (history/silver_orders.csv: the lab's silver). A microbatch run then\n\
             # replaces only its own days of them. Run after `dbt seed`.\n\
             import duckdb\n\n\
             con = duckdb.connect(\"lab.duckdb\")\n{}\
             con.close()\n",
            history_tables(
                "main",
                "history/silver_orders.csv",
                "s.order_id, b.event_time, cast(s.dt as date) as dt, b.currency, b.amount, \"\n    \"cast(s.amount_gbp as decimal(18, 2)) as amount_gbp",
                &history_orders(case, "main.bronze_orders", true),
            )
        ),
    );
    vec![silver, loader]
}

/// What silver's history is joined to for its other columns: bronze, and,
/// with the Sunday withdrawn, the orders the source withdrew (in silver,
/// not in bronze: their columns come from withdrawn_orders.csv).
fn history_orders(case: &Case, bronze: &str, event_time: bool) -> String {
    if withdrawn_file(case).is_none() {
        return bronze.to_string();
    }
    let (column, stamp) = if event_time {
        ("event_time, ", "cast(dt as timestamp), ")
    } else {
        ("", "")
    };
    format!(
        "(select order_id, {column}dt, currency, amount from {bronze} union all \"\n    \"select order_id, {stamp}cast(dt as date), currency, cast(amount as decimal(18, 2)) \"\n    \"from read_csv('withdrawn_orders.csv', header = true, all_varchar = true))"
    )
}

/// The Python (on an open `con`) that loads `{schema}.silver_orders` from
/// `csv` (the lab's silver) joined to `orders` for the `columns` it
/// selects, every row of the file on its own day, counted, and gold from it.
fn history_tables(schema: &str, csv: &str, columns: &str, orders: &str) -> String {
    format!(
        "history = \"read_csv('{csv}', header = true, all_varchar = true)\"\n\
         con.execute(\n    \"create or replace table {schema}.silver_orders as \"\n    \"select {columns} \"\n    f\"from {{history}} as s \"\n    \"left join {orders} as b on b.order_id = s.order_id\"\n)\n\
         # Every row of the file, each on its own day, none lost to the join.\n\
         (loaded,) = con.execute(\"select count(*) from {schema}.silver_orders\").fetchone()\n\
         (rows,) = con.execute(f\"select count(*) from {{history}}\").fetchone()\n\
         if loaded != rows:\n    raise SystemExit(f\"silver history: {{loaded}} rows loaded of {{rows}}\")\n\
         con.execute(\n    \"create or replace table {schema}.gold_daily_totals as \"\n    \"select dt, sum(amount_gbp) as revenue_gbp, count(*) as orders \"\n    \"from {schema}.silver_orders group by dt\"\n)\n"
    )
}

/// The orders the source withdrew, which silver still holds: what a
/// rebuild must take out (only when the Sunday is withdrawn).
fn withdrawn_file(case: &Case) -> Option<File> {
    let gone: Vec<_> = case
        .script
        .events
        .iter()
        .filter(|e| e.withdrawn_at.is_some())
        .collect();
    (!gone.is_empty()).then(|| File::new("withdrawn_orders.csv", drift::bronze_csv(gone)))
}

/// The drift query for DuckDB and the three tables it reads, as CSV.
pub fn drift_project(case: &Case) -> Vec<File> {
    let mut files = drift::tables(
        &case.silver,
        &case.bronze_now().cloned().collect::<Vec<_>>(),
        &case.script.fx,
        &august(),
    );
    files.extend(withdrawn_file(case));
    files.push(File::new(
        "drift.sql",
        drift::query(
            drift::Dialect::DuckDb,
            "silver_orders",
            "bronze_orders",
            "fx_rates",
            aug(1),
        ),
    ));
    files
}

/// The lab's daily DAG, starting on `first`: it does the work, on DuckDB.
pub fn dag_file(first: crate::engine::calendar::Day) -> File {
    File::new(
        "dags/marlow_orders_daily.py",
        airflow::duckdb_dag(
            "marlow_orders_daily",
            first,
            &drift::Dialect::DuckDb.half_even_pounds("o.amount * coalesce(fx.gbp_per_unit, 1)"),
        ),
    )
}

/// Silver and gold as they stand on the Friday, in `warehouse.duckdb`'s
/// `shop` schema, from `silver_orders.csv` (the lab's silver) and the raw
/// tables `raw_loader` made: what the Airflow project's backfill corrects.
fn shop_history(case: &Case) -> String {
    format!(
        "# Silver and gold as they stand on Friday 14 August: the nightly runs' rows,\n\
         # the days since the bug shipped converted by it (silver_orders.csv).\n\
         con = duckdb.connect(\"warehouse.duckdb\")\n\
         con.execute(\"create schema if not exists shop\")\n{}\
         con.close()\n",
        history_tables(
            "shop",
            "silver_orders.csv",
            "s.order_id, cast(s.dt as date) as dt, b.currency, b.amount, cast(s.amount_gbp as decimal(18, 2)) as amount_gbp",
            &history_orders(case, "raw.bronze_orders", false),
        )
    )
}

/// The Airflow part of the project, in `airflow/`: the DAG that does the
/// work, the data it reads, the backfill for a scheduler (`backfill.sh`)
/// and the same days run with none (`run_plan.sh`: `airflow dags test`).
fn airflow_project(case: &Case, plan: &BackfillPlan) -> Vec<File> {
    let mut files = vec![dag_file(aug(1))];
    files.push(File::new(
        "load_raw.py",
        format!("{}\n{}", raw_loader(), shop_history(case)),
    ));
    files.extend(drift_project(case).into_iter().filter(|f| {
        [
            "bronze_orders.csv",
            "fx_rates.csv",
            "silver_orders.csv",
            "withdrawn_orders.csv",
        ]
        .contains(&f.path.as_str())
    }));
    files.push(File::new(
        "backfill.sh",
        airflow::commands(&airflow_backfill(plan)),
    ));
    // A manual run's interval is inferred to end at its logical date.
    let runs: Vec<String> = plan
        .dates()
        .iter()
        .map(|d| airflow::logical_date(shift(*d, 1)))
        .collect();
    files.push(File::new(
        "run_plan.sh",
        format!(
            "# {AIRFLOW_VERSIONS}: the plan's days run through the DAG with no scheduler,\n\
             # one `airflow dags test` each, in this folder's own Airflow home.\n\
             set -eu\n\
             export AIRFLOW_HOME=\"$PWD/home\" AIRFLOW__CORE__DAGS_FOLDER=\"$PWD/dags\" AIRFLOW__CORE__LOAD_EXAMPLES=False\n\
             airflow db migrate\n\
             python load_raw.py\n\
             {}\n\
             # A manual run's data interval is the day that ends at its logical date\n\
             # (Airflow infers it so), where a scheduled or backfill run's interval\n\
             # starts there: day d is asked for at d+1 02:00 here, at d 02:00 in backfill.sh.\n\
             for run in {}; do airflow dags test marlow_orders_daily \"$run\"; done\n",
            airflow::pool(plan.pool),
            runs.join(" ")
        ),
    ));
    files
}

/// The plan as a project to run: the daily DAG and its backfill commands
/// (Airflow), the microbatch rebuild (dbt-duckdb), the restatement
/// (SQLMesh) and the launch (Dagster), each with a script that runs it, and
/// the drift query with its data (DuckDB), as an uncompressed tar and its
/// file name.
pub fn runnable(case: &Case, plan: &BackfillPlan) -> Option<(String, Vec<u8>)> {
    let root = format!("partition-lab-backfill-{}", plan.first);
    crate::export::bundle::tar(&root, &project_files(case, plan))
        .map(|bytes| (format!("{root}.tar"), bytes))
}

/// The files of [`runnable`]'s project.
fn project_files(case: &Case, plan: &BackfillPlan) -> Vec<File> {
    let mut files = microbatch_project(case);
    files.extend(
        drift_project(case)
            .into_iter()
            .map(|f| File::new(format!("drift/{}", f.path), f.text)),
    );
    for f in airflow_project(case, plan) {
        files.push(File::new(format!("airflow/{}", f.path), f.text));
    }
    files.extend(dbt_history(case));
    files.push(File::new(
        "rebuild.sh",
        format!(
            "# {DBT_VERSIONS}\nset -eu\ndbt seed --profiles-dir .\n\
             # Silver and gold as they stand on Friday, the bug's days wrong.\n\
             python load_history.py\n\
             # The backfill: the fixed model over the plan's days, gold's after them.\n\
             {} --profiles-dir .\n",
            dbt_rebuild(plan)
        ),
    ));
    for f in sqlmesh_project(case) {
        files.push(File::new(format!("sqlmesh/{}", f.path), f.text));
    }
    // The project as deployed while the bug ran: the same settings, the
    // bug's silver, the same gold.
    files.push(File::new(
        "sqlmesh/history/config.yaml",
        sqlmesh::config().text,
    ));
    for f in sqlmesh::models(aug(1), LogicVersion::Broken) {
        files.push(File::new(format!("sqlmesh/history/{}", f.path), f.text));
    }
    files.push(File::new("sqlmesh/load_raw.py", raw_loader()));
    files.push(File::new(
        "sqlmesh/restate.sh",
        sqlmesh::story_script(
            &sqlmesh::Story {
                begin: aug(1),
                shipped: case.august.ship.day(),
                last_built: last_existing(),
            },
            plan.first,
            plan.last,
        ),
    ));
    for f in dagster_project(case) {
        files.push(File::new(format!("dagster/{}", f.path), f.text));
    }
    files.push(File::new("dagster/load_raw.py", raw_loader()));
    files.push(File::new(
        "dagster/launch.sh",
        format!(
            "# {DAGSTER_VERSIONS}: an instance of its own, in process (no daemon).\nset -eu\nexport DAGSTER_HOME=\"$PWD/home\"\nmkdir -p \"$DAGSTER_HOME\" && touch \"$DAGSTER_HOME/dagster.yaml\"\npython load_raw.py\ndagster instance concurrency set source {}\n{}\n",
            plan.pool,
            dagster::launch(plan.first, plan.last)
        ),
    ));
    files.push(File::new(
        "README.txt",
        format!("Exported from Partition Lab: the currency-bug backfill of {} to {}.\n\nAirflow ({AIRFLOW_VERSIONS}), in airflow/:\n    pip install {AIRFLOW_PIP} duckdb\n    sh run_plan.sh\nThe DAG does the work on DuckDB (warehouse.duckdb, which load_raw.py fills with\nbronze, the rates, and silver and gold as they stand on Friday): each run\nreplaces its day of silver with the fix, then its day of gold. run_plan.sh runs\nthe plan's days with no scheduler (airflow dags test, one per day). With a\nscheduler, put dags/ in your DAGs folder and set MARLOW_WAREHOUSE to the\nwarehouse file's path (by default, warehouse.duckdb beside dags/, where\nload_raw.py writes it when run from this folder); backfill.sh creates the pool and\nlaunches the backfill (add --dry-run to see the logical dates first); the\nre-run after an interruption is in it, commented out.\n\ndbt ({DBT_VERSIONS}):\n    pip install {DBT_PIP}\n    DBT_SEND_ANONYMOUS_USAGE_STATS=false sh rebuild.sh\nIt seeds bronze and the rates, loads silver and gold as they stand on Friday\n(load_history.py: the lab's silver, the bug's days wrong), then runs the fixed\nmodels over the plan's days only: compare lab.duckdb's silver_orders and\ngold_daily_totals before and after the last line. A plain `dbt run` (no range)\nbuilds only the latest batches by dbt's clock (today's and lookback 1 before\nit): none of August's; on an empty database it would build every day from\nbegin to today.\n\nSQLMesh ({SQLMESH_VERSIONS}), in sqlmesh/:\n    pip install {SQLMESH_PIP} duckdb\n    sh restate.sh\nIt loads bronze and the rates into warehouse.duckdb and replays the story:\nthe days before the bug with models/, the bug shipped forward only\n(history/ is the project as deployed then) and run night by night, the fix\nshipped forward only, the restatement of the plan's days (SQLMesh deletes a\nrestated day, then inserts it), and tonight's run, which builds the next day.\nEach plan is stamped with when it happened (--execution-time); each run names\nthe last day it builds (--end), which must be past by your clock.\n\nDagster ({DAGSTER_VERSIONS}), in dagster/:\n    pip install {DAGSTER_PIP}\n    sh launch.sh\nIt loads the raw tables, sets the source pool's limit and launches the plan's\ndays in one run, in process (a range needs BackfillPolicy.single_run()).\n\nDrift query ({}): pip install duckdb, then in drift/ load the three CSV files\nas tables of the same names and run drift.sql.\n", plan.first, plan.last, drift::Dialect::DuckDb.name()),
    ));
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::{August, Case, Choices, Concurrency};

    fn plan(markers: bool, concurrency: Concurrency) -> BackfillPlan {
        Choices {
            from: August::CHAPTER.ship,
            concurrency,
            markers,
            ..Choices::default()
        }
        .plan()
    }

    #[test]
    fn the_project_runs_each_tool_on_the_plans_days_from_its_own_folder() {
        let case = Case::new();
        let p = plan(true, Concurrency::Four);
        let files = project_files(&case, &p);
        let text = |path: &str| {
            files
                .iter()
                .find(|f| f.path == path)
                .map(|f| f.text.clone())
                .unwrap_or_else(|| panic!("no {path} in the project"))
        };
        for dir in ["sqlmesh", "dagster"] {
            // What each folder's script and models read is in the folder.
            for f in ["load_raw.py", "bronze_orders.csv", "fx_rates.csv"] {
                text(&format!("{dir}/{f}"));
            }
            assert_eq!(text(&format!("{dir}/load_raw.py")), raw_loader());
        }
        text("sqlmesh/config.yaml");
        text("sqlmesh/models/silver_orders.sql");
        text("dagster/definitions.py");
        // Airflow's DAG does the work, on the data beside it, from the
        // pipeline's start; the plan's days are run one manual run each,
        // each asked for at the end of its day's interval.
        let dag = text("airflow/dags/marlow_orders_daily.py");
        assert!(
            dag.contains("import duckdb")
                && dag.contains("replace_partition(\"shop.silver_orders\", SILVER, dt)")
        );
        assert!(dag.contains("start_date=datetime(2026, 8, 1, tzinfo=timezone.utc)"));
        for f in [
            "load_raw.py",
            "bronze_orders.csv",
            "fx_rates.csv",
            "silver_orders.csv",
            "backfill.sh",
        ] {
            text(&format!("airflow/{f}"));
        }
        let run = text("airflow/run_plan.sh");
        assert!(
            run.contains("for run in 2026-08-04T02:00:00+00:00 2026-08-05T02:00:00+00:00"),
            "{run}"
        );
        assert!(run.contains("2026-08-14T02:00:00+00:00; do airflow dags test marlow_orders_daily"));
        // dbt rebuilds gold with silver, from the Friday's history.
        assert!(text("rebuild.sh").contains("python load_history.py\n"));
        assert!(text("rebuild.sh").contains("dbt run --select silver_orders+"));
        text("models/gold_daily_totals.sql");
        text("history/silver_orders.csv");
        text("sqlmesh/history/models/silver_orders.sql");
        let restate = text("sqlmesh/restate.sh");
        assert!(
            restate.contains("--start 2026-08-03 --end 2026-08-13"),
            "{restate}"
        );
        let launch = text("dagster/launch.sh");
        assert!(
            launch.contains("--partition-range 2026-08-03...2026-08-13"),
            "{launch}"
        );
        assert!(launch.contains(&format!("concurrency set source {}", p.pool)));
        let readme = text("README.txt");
        for how in ["sh rebuild.sh", "sh restate.sh", "sh launch.sh"] {
            assert!(readme.contains(how), "the README does not say {how}");
        }
        assert!(runnable(&case, &p).is_some());
    }

    #[test]
    fn every_command_follows_the_plan() {
        let on = commands(&plan(true, Concurrency::Four));
        let text = |form: Form| {
            on.iter()
                .find(|c| c.form == form)
                .map(|c| c.code.clone())
                .unwrap_or_default()
        };
        assert!(text(Form::Tool(Tool::Airflow)).contains("--max-active-runs 4"));
        assert!(text(Form::Tool(Tool::Airflow)).contains("--reprocess-behavior failed"));
        assert!(text(Form::Tool(Tool::Dbt))
            .contains("--event-time-start 2026-08-03 --event-time-end 2026-08-14"));
        assert!(
            !text(Form::Tool(Tool::Dbt)).contains("dbt run --select silver_orders+ --full-refresh")
        );
        assert!(text(Form::DriftQuery).contains("round_even("));
        assert!(
            text(Form::PlainLoop).contains("max_workers=4")
                && text(Form::PlainLoop).contains("markers.done")
        );
        assert!(
            text(Form::Tool(Tool::Spark)).contains("ops.backfill_done")
                && text(Form::Tool(Tool::Spark)).contains("gold.daily_totals")
        );
        let off = commands(&plan(false, Concurrency::One));
        assert!(off
            .iter()
            .all(|c| !c.code.contains("markers.done") && !c.code.contains("backfill_done")));
        assert!(off.iter().any(|c| c.form == Form::Tool(Tool::Airflow)
            && !c.code.contains("--reprocess-behavior failed")));
    }
}

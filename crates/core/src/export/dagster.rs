//! The backfill lab's pipeline as Dagster daily-partitioned assets on
//! DuckDB, and its backfill as a launch of the plan's partition range:
//! silver and gold partitioned by day with `hour_offset=2`, so partition d
//! is the one the 02:00 run on d+1 builds, each day replaced in one
//! transaction, and `dg launch`, which runs in process with no daemon.
//! `scripts/check-real` launches each plan and checks that exactly its
//! days change, to the lab's fixed totals, and that the schedule builds d
//! at 02:00 on d+1.

use crate::engine::calendar::Day;
use crate::engine::clock::{Job, Marking};
use crate::engine::lateness::{Lateness, RUN_HOUR};
use crate::engine::{
    CommitOrder, ListDate, PartitionKey, PipelineConfig, ProcessingState, WriteMode,
};
use crate::export::{drift::Dialect, template, File, DAGSTER_VERSIONS};

/// The file `dg launch -f` reads.
pub const FILE: &str = "definitions.py";

/// The assets the backfill launches, silver first.
const ASSETS: &str = "silver_orders,gold_daily_totals";

/// The daily partitions from `first`, each the window the 02:00 run on the
/// day after builds, as Python.
pub use crate::tool::dagster_daily_partitions as partitions;

/// The project's one Python file: the partitions, the two assets, the
/// nightly job and its schedule, partitions from `first` on.
pub fn definitions(first: Day) -> File {
    let partitions = partitions(first);
    let fixed = Dialect::DuckDb.half_even_pounds("o.amount * coalesce(fx.gbp_per_unit, 1)");
    File::new(
        FILE,
        template::fill(
            include_str!("templates/dagster_backfill.py"),
            &[
                ("fixed", &fixed),
                ("partitions", &partitions),
                ("versions", DAGSTER_VERSIONS),
            ],
        ),
    )
}

/// The imports of a file of daily assets with a schedule of its own
/// (a scenario design's, the lateness lab's).
const SCHEDULED_IMPORTS: &str = r#"from datetime import date, timedelta

from dagster import (
    AssetExecutionContext,
    AssetKey,
    BackfillPolicy,
    DailyPartitionsDefinition,
    DefaultScheduleStatus,
    Definitions,
    RunRequest,
    ScheduleEvaluationContext,
    asset,
    define_asset_job,
    schedule,
)
from dagster_duckdb import DuckDBResource
"#;

/// Which days a scenario design's schedule requests for the run of day d.
enum Pick {
    /// Every day not yet materialized, and d with the `lookback` days
    /// before it: the partition list, read from Dagster's own record.
    List { lookback: u32 },
    /// d and the `days` before it, whatever Dagster has recorded.
    Window { days: u32 },
}

/// A scenario's daily design as Dagster definitions: `target` as an asset
/// partitioned by day that reads `source`, and a schedule whose code picks
/// the run's days, from `start`; or what Dagster lacks to express it.
/// Dagster records a partition as materialized when the asset's step succeeds,
/// so a design is expressible when the lab's state is that record (a
/// partition list over the event date, saved after the write) or needs
/// none (a trailing window), and its write replaces or appends per day.
///
/// `outage`: whether the scheduler is down for a while in the scenario.
/// When its scheduler comes back, Dagster launches only the latest missed
/// tick of a schedule: a list whose code finds every day
/// missed still builds them, where a window, or a design that waits for
/// its next run, cannot be what the lab ran.
pub fn daily_definitions(
    p: &PipelineConfig,
    source: &str,
    target: &str,
    start: Day,
    outage: bool,
) -> Result<String, &'static str> {
    let pick = pick(p, outage)?;
    let (write, replace) = writing(p.write)?;
    let (schema, name) = target.split_once('.').unwrap_or(("main", target));
    let (state, picked, rerun_back) = picking(pick);
    let after_outage = if outage {
        "\n\nAfter its scheduler was down, Dagster launches only the latest missed\n\
         tick: that one run builds every day missed, where the lab's catch-up\n\
         runs each missed day in turn (the rows end the same: a check replays it)."
    } else {
        ""
    };
    let rerun = if rerun_back == 0 {
        "--partition-range D...D\nwhere D is day d".to_string()
    } else {
        format!("--partition-range FIRST...D\nwhere D is day d and FIRST the day {rerun_back} before it")
    };
    let replace_call = if replace.is_empty() {
        String::new()
    } else {
        format!("            {replace}(con, day)\n")
    };
    let replace_fn = clearing(replace, target, source);
    let cron = format!("0 {RUN_HOUR} * * *");
    Ok(template::fill(
        include_str!("templates/dagster_daily.py"),
        &[
            ("after_outage", after_outage),
            ("cron", &cron),
            ("imports", SCHEDULED_IMPORTS),
            ("name", name),
            ("partitions", &partitions(start)),
            ("picked", &picked),
            ("replace_call", &replace_call),
            ("replace_fn", &replace_fn),
            ("rerun", &rerun),
            ("run_hh", &format!("{RUN_HOUR:02}")),
            ("run_hour", &RUN_HOUR.to_string()),
            ("schema", schema),
            ("source", source),
            ("start", &start.to_string()),
            ("state", &state),
            ("target", target),
            ("versions", DAGSTER_VERSIONS),
            ("write", write),
        ],
    ))
}

/// Which days a run of `p` builds, if Dagster can express the design.
fn pick(p: &PipelineConfig, outage: bool) -> Result<Pick, &'static str> {
    if p.partition_key == PartitionKey::ProcessingDate {
        return Err("a partition here is a day of the rows' event date; processing-date partitions are filed by when the run happened, which the asset's query of a day cannot see");
    }
    if p.commit == CommitOrder::StateBeforeWrite {
        return Err("Dagster records a partition as materialized when the asset's step succeeds, after its write: saving the state first is not Dagster's way, and the batch this design loses to a crash is not lost in Dagster");
    }
    if p.finaliser.is_some() {
        return Err("Dagster has no finaliser: a partition is rebuilt whenever a run requests it, and nothing books later rows to an adjustments table or reopens a day");
    }
    let pick = match p.state {
        ProcessingState::PartitionList {
            over: ListDate::EventDate,
            lookback,
        } => Pick::List { lookback },
        ProcessingState::PartitionList { .. } => return Err("Dagster's partitions are days of the column the asset's rows are filed under; a list of change dates that rebuilds event-date partitions reads by another column, which the record of materialized partitions does not hold"),
        ProcessingState::TrailingWindow { .. } if outage => return Err("after its scheduler was down, Dagster launches only the latest missed tick of a schedule, so a trailing window builds only that tick's window and never the days it passed further back, whether or not the lab's scheduler catches up (a partition list, whose schedule finds the missed days in Dagster's record, builds them all)"),
        ProcessingState::TrailingWindow { days } => Pick::Window { days },
        ProcessingState::Watermark { .. } => return Err("Dagster records materialized partitions, not the newest value a run read: a watermark would be the asset's own code, and the partition list is Dagster's own way"),
        ProcessingState::None => return Err("with no state each run reads everything, an unpartitioned asset rebuilt by a daily schedule: nothing Dagster adds to the dbt or Spark code above"),
    };
    if outage && !p.catch_up {
        return Err("after its scheduler was down, Dagster launches the latest missed tick as soon as it is back, where this design waits for its next scheduled run; with catch-up on, the list's one run builds every missed day");
    }
    Ok(pick)
}

/// How a run writes a day: the docstring's words and the function that
/// clears the day first (none for an append).
fn writing(write: WriteMode) -> Result<(&'static str, &'static str), &'static str> {
    Ok(match write {
        WriteMode::OverwritePartition => (
            "Each day is replaced, its rows deleted and inserted in one transaction:\na rebuilt day never adds to itself, and a day with no rows ends empty.",
            "delete_day",
        ),
        WriteMode::OverwritePresent => (
            "A day is replaced only when the source has rows for it (a dynamic\noverwrite): a day corrected to empty keeps its old rows.",
            "delete_day_if_present",
        ),
        WriteMode::Append => (
            "Each run appends the rows it reads: a day built again, by a retry after\na crash or the lookback, holds its rows twice.",
            "",
        ),
        WriteMode::Merge { .. } => return Err("a merge by key is the asset's own SQL, a form this export does not write and the lab's checks do not run"),
        WriteMode::ReplaceTable => return Err("replacing the whole table with only the days a run requested has no partitioned form: an unpartitioned asset replaces it with everything"),
    })
}

/// The docstring's words for `pick`, its `days_to_build`, and the days
/// before d a re-run of d builds.
fn picking(pick: Pick) -> (String, String, u32) {
    match pick {
        Pick::List { lookback } => (
            format!(
                "The partition list is Dagster's record of materialized partitions: the\n\
                 schedule asks it, and each run builds every day not yet built, and the\n\
                 run's day{}.",
                match lookback {
                    0 => String::new(),
                    1 => " and the day before it".to_string(),
                    n => format!(" and the {n} days before it"),
                }
            ),
            format!(
                "LOOKBACK = {lookback}\n\n\n\
                 def days_to_build(day, built):\n    \
                 \"\"\"Every day from START not yet materialized, and `day` with the\n    \
                 LOOKBACK days before it.\"\"\"\n    \
                 again = max(day - timedelta(days=LOOKBACK), START)\n    \
                 out, d = [], START\n    \
                 while d <= day:\n        \
                 if d.isoformat() not in built or d >= again:\n            \
                 out.append(d)\n        \
                 d += timedelta(days=1)\n    \
                 return out\n"
            ),
            lookback,
        ),
        Pick::Window { days } => (
            format!(
                "A trailing window: each run builds its day and the {} before it, whatever\n\
                 Dagster has recorded.",
                if days == 1 {
                    "day".to_string()
                } else {
                    format!("{days} days")
                }
            ),
            format!(
                "WINDOW = {days}\n\n\n\
                 def days_to_build(day, built):\n    \
                 \"\"\"`day` and the WINDOW days before it, from START.\"\"\"\n    \
                 first = max(day - timedelta(days=WINDOW), START)\n    \
                 return [first + timedelta(days=n) for n in range((day - first).days + 1)]\n"
            ),
            days,
        ),
    }
}

/// The function that clears a day before its insert, by name.
fn clearing(replace: &str, target: &str, source: &str) -> String {
    match replace {
        "delete_day" => format!(
            "\n\ndef delete_day(con, day):\n    \
             con.execute(\"delete from {target} where dt = cast(? as date)\", [day])\n"
        ),
        "delete_day_if_present" => format!(
            "\n\ndef delete_day_if_present(con, day):\n    \
             con.execute(\n        \
             \"delete from {target} where dt = cast(? as date) \"\n        \
             \"and exists (select 1 from {source} where dt = cast(? as date))\",\n        \
             [day, day],\n    )\n"
        ),
        _ => String::new(),
    }
}

/// What `lateness_definitions` does at `lateness`, in the lab's words.
pub fn lateness_rule(lateness: Lateness) -> String {
    match lateness {
        Lateness::Days(0) => format!("With no allowed lateness the tick at {RUN_HOUR:02}:00 on d+1 builds day d alone, the only run that does."),
        Lateness::Days(l) => format!(
            "With {} of allowed lateness the tick at {RUN_HOUR:02}:00 on d+1 builds day d and the {l} before it again, so the run at {RUN_HOUR:02}:00 on d+1+{l} is the last to build day d, the lab's rule.",
            crate::counted::counted(l, "day"),
        ),
        Lateness::Never => "Never final: each tick builds every day from the first again.".to_string(),
    }
}

/// Where the lateness lab's Dagster definitions go in a download.
pub const LATENESS_FILE: &str = "orders_lateness.py";

/// The lateness lab's allowed lateness in Dagster, which has none of its
/// own: `name` (as `schema.table`) partitioned by day from `first`, and a
/// schedule whose tick at 02:00 on d+1 rebuilds d and the `lateness` days
/// before it, in one run over that range, so the run on d+1+L is the last
/// that builds day d. Never final: each run rebuilds every day from `first`.
pub fn lateness_definitions(name: &str, first: Day, lateness: Lateness) -> String {
    let (schema, table) = name.split_once('.').unwrap_or(("main", name));
    let (rule, back) = match lateness {
        Lateness::Days(0) => (
            "No allowed lateness: the tick at 02:00 on d+1 builds day d alone, the only\n\
             run that does, and an order that arrives after it is never booked."
                .to_string(),
            "0".to_string(),
        ),
        Lateness::Days(l) => (
            format!(
                "Allowed lateness of {days} as a schedule: the tick at 02:00 on d+1 builds\n\
                 day d and the {days} before it again, so the run on d+1+{l} is the last\n\
                 that builds day d, and an order that arrives after it is never booked.",
                days = crate::counted::counted(l, "day"),
            ),
            l.to_string(),
        ),
        Lateness::Never => (
            "Never final: each tick builds every day from the first again, so every\n\
             order is booked once it has arrived."
                .to_string(),
            "(day - START).days".to_string(),
        ),
    };
    template::fill(
        include_str!("templates/dagster_lateness.py"),
        &[
            ("back", &back),
            ("first", &first.to_string()),
            ("imports", SCHEDULED_IMPORTS),
            ("name", name),
            ("partitions", &partitions(first)),
            ("rule", &rule),
            ("run_hh", &format!("{RUN_HOUR:02}")),
            ("run_hour", &RUN_HOUR.to_string()),
            ("schema", schema),
            ("table", table),
            ("versions", DAGSTER_VERSIONS),
        ],
    )
}

/// The launch that rebuilds `first..=last`: one partition, or a range
/// (`...` between two keys it both includes).
pub fn launch(first: Day, last: Day) -> String {
    let which = if first == last {
        format!("--partition {first}")
    } else {
        format!("--partition-range {first}...{last}")
    };
    format!("dg launch -f {FILE} --assets {ASSETS} \\\n  {which}")
}

/// What the page shows: the definitions, the pool's limit and the launch,
/// with where Dagster's single run differs from the lab's plan.
pub fn shown(plan: &Job, begin: Day) -> String {
    let file = definitions(begin).text;
    // What really runs at once: asking for more than the pool only queues.
    let at_once = plan.concurrency.min(plan.pool).max(1);
    let days = if at_once == 1 { "day" } else { "days" };
    let record = if plan.markers != Marking::Off {
        "The lab's completion markers are Dagster's own record of each\n\
         # materialized partition, but it records a run's days only when the\n\
         # run succeeds: with one run for the range, a failure part-way records\n\
         # none (the days it replaced stay replaced; launching again is safe)."
    } else {
        "Like the lab's plan without markers, a failure part-way means\n\
         # launching the range again, which replaces every day again (safely)."
    };
    format!(
        "# {FILE}\n{file}\n\
         # The source pool's limit ({pool} connections), once per Dagster instance.\n\
         dagster instance concurrency set source {pool}\n\n\
         # Rebuilds {first} to {last} in silver, then gold, in one run, in process\n\
         # (no daemon): a range needs BackfillPolicy.single_run(). The plan's\n\
         # {at_once} {days} at once would be one run per day (BackfillPolicy.multi_run(1)),\n\
         # which only a backfill with the daemon running can launch (dagster dev\n\
         # starts one), each run's steps then waiting for a slot of the pool. On\n\
         # DuckDB one process writes at a time, so here the days are written one\n\
         # after another whatever the plan says. {record}\n{launch}",
        pool = plan.pool,
        first = plan.first,
        last = plan.last,
        launch = launch(plan.first, plan.last),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::aug;

    #[test]
    fn a_range_launches_as_a_partition_range_and_one_day_as_a_partition() {
        assert!(launch(aug(3), aug(13))
            .ends_with("--assets silver_orders,gold_daily_totals \\\n  --partition-range 2026-08-03...2026-08-13"));
        assert!(launch(aug(13), aug(13)).ends_with("--partition 2026-08-13"));
    }

    #[test]
    fn the_page_says_the_plans_days_pool_and_record() {
        let plan = Job {
            first: aug(8),
            last: aug(13),
            concurrency: 4,
            pool: 6,
            silver_minutes: 20,
            gold_minutes: 5,
            shape: crate::engine::clock::Shape::PerDate,
            markers: Marking::After,
            yield_to_scheduled: false,
        };
        let text = shown(&plan, aug(1));
        assert!(text.contains("start_date=\"2026-08-01\", hour_offset=2"));
        assert!(text.contains("dagster instance concurrency set source 6\n"));
        assert!(text.contains("4 days at once"));
        assert!(text.contains("records a run's days only when"));
        assert!(text.contains(
            "cast(round_even(o.amount * coalesce(fx.gbp_per_unit, 1), 2) as decimal(18, 2))"
        ));
        let unmarked = shown(
            &Job {
                markers: Marking::Off,
                concurrency: 1,
                ..plan
            },
            aug(1),
        );
        assert!(unmarked.contains("1 day at once") && unmarked.contains("without markers"));
    }

    #[test]
    fn a_daily_design_is_an_asset_and_a_schedule_when_dagster_keeps_its_state_and_says_why_not_otherwise(
    ) {
        use crate::engine::{AfterFinal, Finaliser, WatermarkColumn};
        let list = |lookback| ProcessingState::PartitionList {
            lookback,
            over: ListDate::EventDate,
        };
        let defs = |p: PipelineConfig, outage| {
            daily_definitions(&p, "bronze.clicks", "silver.clicks", aug(1), outage)
        };
        let config = |state, write| PipelineConfig::new(state, write);
        let one = defs(config(list(1), WriteMode::OverwritePartition), false)
            .expect("a list is Dagster's record of materialized partitions");
        assert!(one.contains("LOOKBACK = 1\n"));
        assert!(one.contains("if d.isoformat() not in built or d >= again:"));
        assert!(one.contains("built = context.instance.get_materialized_partitions(SILVER)"));
        assert!(one.contains("DailyPartitionsDefinition(start_date=\"2026-08-01\", hour_offset=2"));
        assert!(one.contains("cron_schedule=\"0 2 * * *\""));
        assert!(one.contains("            delete_day(con, day)\n"));
        assert!(one.contains(
            "--assets silver/clicks --partition-range FIRST...D\nwhere D is day d and FIRST the day 1 before it"
        ));
        assert!(!one.contains("latest missed tick"));
        let window = defs(
            config(
                ProcessingState::TrailingWindow { days: 2 },
                WriteMode::OverwritePresent,
            ),
            false,
        )
        .expect("a window needs no record");
        assert!(window.contains("WINDOW = 2\n") && window.contains("the 2 days before it"));
        assert!(
            window.contains("and exists (select 1 from bronze.clicks where dt = cast(? as date))")
        );
        let append = defs(config(list(0), WriteMode::Append), false).expect("appends");
        assert!(!append.contains("delete") && append.contains("holds its rows twice"));
        assert!(append.contains("--partition-range D...D\nwhere D is day d\n"));
        // After an outage: only a list that catches up.
        let mut catching_up = config(list(5), WriteMode::OverwritePartition);
        catching_up.catch_up = true;
        assert!(defs(catching_up, true)
            .expect("a list finds the missed days")
            .contains("latest missed\ntick"));
        let why = |p, outage| defs(p, outage).expect_err("no Dagster form");
        assert!(why(config(list(5), WriteMode::OverwritePartition), true)
            .contains("waits for its next scheduled run"));
        let mut window_catching_up = config(
            ProcessingState::TrailingWindow { days: 1 },
            WriteMode::OverwritePartition,
        );
        window_catching_up.catch_up = true;
        assert!(why(window_catching_up, true).contains("never the days it passed"));
        // What Dagster cannot keep or write.
        let mut first = config(list(1), WriteMode::OverwritePartition);
        first.commit = CommitOrder::StateBeforeWrite;
        assert!(why(first, false).contains("saving the state first is not Dagster's way"));
        let mut late = config(list(1), WriteMode::OverwritePartition);
        late.finaliser = Some(Finaliser {
            allowed_lateness_days: 2,
            after_final: AfterFinal::Adjustments,
        });
        assert!(why(late, false).contains("no finaliser"));
        let watermark = ProcessingState::Watermark {
            column: WatermarkColumn::ArrivedAt,
            overlap_minutes: 0,
        };
        assert!(why(config(watermark, WriteMode::OverwritePartition), false)
            .contains("not the newest value"));
        let changes = ProcessingState::PartitionList {
            lookback: 1,
            over: ListDate::ChangeDate,
        };
        assert!(why(config(changes, WriteMode::OverwritePartition), false).contains("change dates"));
        assert!(why(config(list(1), WriteMode::ReplaceTable), false).contains("whole table"));
        assert!(why(PipelineConfig::full_refresh(), false).contains("no state"));
        let mut by_run = config(list(1), WriteMode::OverwritePartition);
        by_run.partition_key = PartitionKey::ProcessingDate;
        assert!(why(by_run, false).contains("processing-date"));
    }

    #[test]
    fn the_allowed_lateness_is_how_many_days_before_d_a_tick_builds_again() {
        let two = lateness_definitions("shop.orders_l2", aug(1), Lateness::Days(2));
        assert!(two.contains("first = max(day - timedelta(days=2), START)"));
        assert!(two.contains("the run on d+1+2 is the last"));
        assert!(two.contains("key=AssetKey([\"shop\", \"orders_l2\"])"));
        assert!(two.contains("START = date.fromisoformat(\"2026-08-01\")"));
        assert!(two.contains("\"dagster/asset_partition_range_end\": day.isoformat()"));
        let none = lateness_definitions("shop.orders", aug(1), Lateness::Days(0));
        assert!(none.contains("timedelta(days=0)") && none.contains("builds day d alone"));
        let never = lateness_definitions("shop.orders", aug(1), Lateness::Never);
        assert!(never.contains("timedelta(days=(day - START).days)"));
        assert!(never.contains("Never final"));
        assert!(lateness_rule(Lateness::Days(2)).contains("the run at 02:00 on d+1+2 is the last"));
        assert!(lateness_rule(Lateness::Days(1)).starts_with("With 1 day of"));
        assert!(lateness_rule(Lateness::Days(0)).contains("builds day d alone"));
        assert!(lateness_rule(Lateness::Never).starts_with("Never final"));
    }
}

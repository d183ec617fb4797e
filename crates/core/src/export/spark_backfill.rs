//! A backfill as a PySpark job: every choice of the plan in the code, so
//! the job a page shows is the plan it describes, and `scripts/check-real`
//! runs that same text on Spark. The dates go in waves of the plan's
//! "at once" (each wave one Spark write per layer), silver from bronze
//! with the plan's logic, gold summed from silver, completion markers in
//! `ops.backfill_done` keyed by date and layer, written before or after
//! the work as the plan says.

use crate::engine::backfill_run::Plan;
use crate::engine::clock::{Job, Marking, Shape};
use crate::engine::{LogicVersion, WriteMode};

/// The tables a job reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables<'a> {
    pub bronze: &'a str,
    pub fx: &'a str,
    pub silver: &'a str,
    pub gold: &'a str,
}

/// Dates per wave: what really runs at once (asking for more than the
/// source pool only queues).
fn wave(job: &Job) -> u32 {
    job.concurrency.min(job.pool).max(1)
}

/// Why the job cannot express `write`, if it cannot: Spark tables without
/// Delta have no MERGE.
pub fn cannot(write: WriteMode) -> Option<&'static str> {
    match write {
        WriteMode::Merge { .. } => Some("a merge needs a table format with MERGE (Delta, Iceberg); plain Spark tables have none"),
        _ => None,
    }
}

fn silver_write(write: WriteMode) -> &'static str {
    match write {
        WriteMode::OverwritePresent | WriteMode::ReplaceTable => "overwrite",
        // A targeted overwrite drops the wave's partitions first (below).
        WriteMode::OverwritePartition | WriteMode::Append | WriteMode::Merge { .. } => "append",
    }
}

fn write_words(write: WriteMode) -> &'static str {
    match write {
        WriteMode::OverwritePartition => "each date of a wave replaced whole, a date with no rows now emptied:\n# plain Spark tables cannot do that in one write, so the job drops the\n# wave's partitions, then appends (readers see those dates empty for the\n# seconds between; Delta's replaceWhere does both in one commit)",
        WriteMode::OverwritePresent => "replaced only where a write has rows (dynamic overwrite):\n# a date corrected to no rows keeps its old rows",
        WriteMode::ReplaceTable => "the whole table replaced by each write (static overwrite): the dates written before are gone",
        WriteMode::Append => "appended: a date rebuilt again holds its rows twice",
        WriteMode::Merge { .. } => "merged",
    }
}

fn rate(logic: LogicVersion) -> &'static str {
    match logic {
        LogicVersion::Fixed => "F.coalesce(\"gbp_per_unit\", F.lit(1))   # the full-precision rate",
        LogicVersion::Broken => "F.floor(F.coalesce(\"gbp_per_unit\", F.lit(1)) * 100) / 100   # the old logic: the rate cut to 2 dp",
    }
}

/// `plan` as the job's Python over `t`, for `spark` in scope (a notebook,
/// `spark-submit`). The plan is the engine's own (`backfill_run::Plan`):
/// the job takes its range, dates at once against the pool, shape,
/// markers, yielding, logic and write, and nothing else.
pub fn job(plan: &Plan, t: Tables) -> String {
    let j = &plan.job;
    let mode = silver_write(plan.write);
    let wave = wave(j);
    let markers = j.markers != Marking::Off;
    let mut out = String::new();
    out.push_str(&format!(
        "from datetime import date, timedelta\nfrom pyspark.sql import functions as F\n\n# Rebuilds {} to {} of {} from {}, then {} from it,\n# {} at a time{}. Silver is {}.\n",
        j.first,
        j.last,
        t.silver,
        t.bronze,
        t.gold,
        crate::counted::counted(wave, "date"),
        if j.concurrency > j.pool {
            format!(
                " (the plan asks for {}; the source pool has {} connections, so the rest would only queue)",
                j.concurrency, j.pool
            )
        } else {
            String::new()
        },
        write_words(plan.write)
    ));
    if j.yield_to_scheduled {
        out.push_str("# The plan leaves a connection to the scheduled runs: give this job one\n# fewer executor slot than the pool (the scheduler's pool does it in Airflow).\n");
    }
    out.push_str(&format!(
        "# An overwrite replaces only the dt partitions a write has rows for.\nspark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")\nfx = spark.table(\"{}\")\nfirst, last = date.fromisoformat(\"{}\"), date.fromisoformat(\"{}\")\ndates = [first + timedelta(days=n) for n in range((last - first).days + 1)]\nwaves = [dates[i:i + {wave}] for i in range(0, len(dates), {wave})]\n",
        t.fx, j.first, j.last
    ));
    if markers {
        out.push_str("spark.sql(\"create database if not exists ops\")   # where the completion markers live\ndone = ({(r.dt, r.layer) for r in spark.table(\"ops.backfill_done\").collect()}\n        if spark.catalog.tableExists(\"ops.backfill_done\") else set())\n\n\ndef mark(days, layer):\n    spark.createDataFrame([(d, layer) for d in days], \"dt date, layer string\") \\\n        .write.mode(\"append\").saveAsTable(\"ops.backfill_done\")\n");
    } else {
        out.push_str(
            "done = set()   # no completion markers: a re-run rebuilds every date again\n",
        );
    }
    // A replace-table write takes one date at a time: each replaces the
    // whole table, so the last date written is all that is left.
    let each = if plan.write == WriteMode::ReplaceTable {
        "    spark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"static\")   # the whole table\n    for d in days:\n        one = rows.where(F.col(\"dt\") == F.lit(d))\n        one.select(*spark.table(\"SILVER\").columns).write.mode(\"overwrite\").insertInto(\"SILVER\")\n    spark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")\n".replace("SILVER", t.silver)
    } else {
        format!("{}    # insertInto matches columns by position: select them in the table's order\n    rows.select(*spark.table(\"{}\").columns).write.mode(\"{mode}\").insertInto(\"{}\")\n", clear(plan.write, t.silver), t.silver, t.silver)
    };
    out.push_str(&format!(
        "\n\ndef write_silver(days):\n    rate = {}\n    rows = (spark.table(\"{}\").where(F.col(\"dt\").isin(days))\n            .join(fx, [\"currency\", \"dt\"], \"left\")\n            .withColumn(\"amount_gbp\", F.bround(F.col(\"amount\") * rate, 2)))\n{each}\n\ndef totals(days):\n    return (spark.table(\"{}\").where(F.col(\"dt\").isin(days))\n            .groupBy(\"dt\").agg(F.sum(\"amount_gbp\").alias(\"total_gbp\")))\n\n\ndef write_gold(frame, days):\n{}    frame.select(*spark.table(\"{}\").columns).write.mode(\"{}\").insertInto(\"{}\")\n\n\n",
        rate(plan.logic),
        t.bronze,
        t.silver,
        clear(plan.write, t.gold),
        t.gold,
        if plan.write == WriteMode::OverwritePartition { "append" } else { "overwrite" },
        t.gold
    ));
    out.push_str(&loops(j.shape, j.markers));
    out
}

/// The loop over the waves, in the plan's shape, with its markers.
fn loops(shape: Shape, markers: Marking) -> String {
    let todo = |layer: &str| {
        format!("    todo = [d for d in wave if (d, \"{layer}\") not in done]\n    if not todo:\n        continue\n")
    };
    match shape {
        Shape::PerDate => {
            let (b, a) = marks(markers, "gold");
            format!(
                "# Per date: each wave's silver, then its gold, never before its own silver.\nfor wave in waves:\n{}{b}    write_silver(todo)\n    write_gold(totals(todo), todo)\n{a}",
                todo("gold")
            )
        }
        Shape::TwoPhases => {
            let (sb, sa) = marks(markers, "silver");
            let (gb, ga) = marks(markers, "gold");
            format!(
                "# Two phases: every date's silver first, then every date's gold.\nfor wave in waves:\n{}{sb}    write_silver(todo)\n{sa}for wave in waves:\n{}{gb}    write_gold(totals(todo), todo)\n{ga}",
                todo("silver"),
                todo("gold")
            )
        }
        Shape::Together => {
            let (b, a) = marks(markers, "gold");
            format!(
                "# Silver and gold of a date started together: gold sums silver as it\n# stood before this wave rebuilt it.\nfor wave in waves:\n{}{b}    stale = spark.createDataFrame(totals(todo).collect(), \"dt date, total_gbp decimal(38,2)\")\n    write_silver(todo)\n    write_gold(stale, todo)\n{a}",
                todo("gold")
            )
        }
    }
}

/// A targeted overwrite's first half, for silver and for gold: the dates
/// of the write dropped, so a date that now has no rows ends empty.
fn clear(write: WriteMode, table: &str) -> String {
    if write != WriteMode::OverwritePartition {
        return String::new();
    }
    format!("    for d in days:   # every date targeted, even one with no rows now\n        spark.sql(f\"alter table {table} drop if exists partition (dt = date'{{d}}')\")\n")
}

/// The marker lines before and after a layer's work.
fn marks(markers: Marking, layer: &str) -> (String, String) {
    match markers {
        Marking::Off => (String::new(), String::new()),
        Marking::Before => (
            format!(
                "    mark(todo, \"{layer}\")   # before the work: a killed wave counts as done\n"
            ),
            String::new(),
        ),
        Marking::After => (
            String::new(),
            format!(
                "    mark(todo, \"{layer}\")   # once the work is whole: a killed wave is redone\n"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::aug;

    fn job_with(shape: Shape, markers: Marking) -> String {
        let plan = Plan {
            job: Job {
                first: aug(3),
                last: aug(13),
                concurrency: 12,
                pool: 4,
                silver_minutes: 20,
                gold_minutes: 5,
                shape,
                markers,
                yield_to_scheduled: true,
            },
            attempts: Vec::new(),
            scheduled: Vec::new(),
            logic: LogicVersion::Broken,
            reads: crate::engine::rebuild::Reads::Bronze,
            write: WriteMode::OverwritePartition,
            restate: None,
        };
        job(
            &plan,
            Tables {
                bronze: "bronze.orders",
                fx: "silver.fx_rates",
                silver: "silver.orders",
                gold: "gold.daily_totals",
            },
        )
    }

    #[test]
    fn the_job_follows_every_choice() {
        let per_date = job_with(Shape::PerDate, Marking::After);
        assert!(per_date
            .contains("date.fromisoformat(\"2026-08-03\"), date.fromisoformat(\"2026-08-13\")"));
        assert!(
            per_date.contains("dates[i:i + 4]"),
            "waves of the pool, not of 12"
        );
        assert!(per_date.contains("the plan asks for 12; the source pool has 4"));
        assert!(per_date.contains("F.floor(F.coalesce(\"gbp_per_unit\", F.lit(1)) * 100) / 100"));
        assert!(per_date.contains("one\n# fewer executor slot"));
        let after = per_date
            .find("write_gold(totals(todo), todo)")
            .expect("gold");
        let mark = per_date.rfind("mark(todo, \"gold\")").expect("marker");
        assert!(mark > after, "a marker after the work");
        let before = job_with(Shape::PerDate, Marking::Before);
        assert!(
            before.find("mark(todo, \"gold\")").expect("marker")
                < before.find("write_silver(todo)\n").expect("silver")
        );
        let two = job_with(Shape::TwoPhases, Marking::After);
        assert!(
            two.contains("(d, \"silver\") not in done") && two.contains("mark(todo, \"silver\")")
        );
        let together = job_with(Shape::Together, Marking::Off);
        assert!(together.contains("stale = ") && !together.contains("ops.backfill_done"));
        assert!(
            together.find("stale = ").expect("stale")
                < together.find("    write_silver(todo)").expect("silver")
        );
    }
}

//! The commands a plan means in real tools, generated from the plan.

use crate::engine::backfill::BackfillPlan;
use crate::engine::calendar::shift;

/// (title, code) for each tool.
pub fn commands(plan: &BackfillPlan) -> Vec<(&'static str, String)> {
    let start = plan.first.to_string();
    let end = plan.last.to_string();
    let look_back = shift(plan.first, -14).to_string();
    let slots = plan.slots();
    let marker_lines = if plan.markers {
        "    if backfill_log.is_done(dt):      # completion marker: resume, don't restart\n        continue\n    rebuild_silver(dt)                # overwrite the partition, from bronze\n    rebuild_gold(dt)\n    backfill_log.mark_done(dt)        # only after the partition is whole\n"
    } else {
        "    rebuild_silver(dt)                # overwrite the partition, from bronze\n    rebuild_gold(dt)                  # no marker: a re-run starts from the top\n"
    };
    vec![
        (
            "Drift query",
            format!(
                "-- partitions whose stored total disagrees with the source, recomputed per row\nSELECT s.dt,\n       SUM(s.amount_gbp)                                        AS stored,\n       SUM(ROUND(b.amount * f.rate, 2))                         AS recomputed,\n       ABS(SUM(s.amount_gbp) - SUM(ROUND(b.amount * f.rate, 2))) AS drift\nFROM   silver.orders s\nJOIN   bronze.orders b USING (order_id)\nJOIN   silver.fx_rates f ON f.currency = b.currency AND f.dt = b.dt\nWHERE  s.dt >= DATE '{look_back}'   -- start well before the suspected date\nGROUP  BY s.dt\nHAVING ABS(SUM(s.amount_gbp) - SUM(ROUND(b.amount * f.rate, 2))) > 0.01\nORDER  BY s.dt;                       -- the first row is where the bug really starts"
            ),
        ),
        (
            "Airflow",
            format!(
                "airflow dags backfill marlow_orders_daily \\\n  --start-date {start} --end-date {end} \\\n  --max-active-runs {} \\\n  --reset-dagruns\n# the source pool has {} connections: more active runs only queue",
                plan.concurrency, plan.pool
            ),
        ),
        (
            "dbt",
            format!(
                "dbt run --select silver.orders+ --full-refresh \\\n  --vars '{{\"start_date\": \"{start}\", \"end_date\": \"{end}\"}}'\n# --full-refresh: the incremental filter would otherwise skip dates that already have rows"
            ),
        ),
        (
            "Plain loop",
            format!(
                "for dt in date_range(\"{start}\", \"{end}\"):   # {slots} at a time at most\n{marker_lines}restate_finance_report(\"2026-08\")       # once all gold has landed"
            ),
        ),
        (
            "Spark",
            format!(
                "spark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")\nfor dt in date_range(\"{start}\", \"{end}\"):\n    day = spark.table(\"bronze.orders\").where(F.col(\"dt\") == dt)   # bronze, not the broken silver\n    fixed = convert_to_gbp(day)                                     # the fixed logic\n    fixed.write.mode(\"overwrite\").insertInto(\"silver.orders\")      # replaces this dt only"
            ),
        ),
    ]
}

"""Runs the backfill lab's Spark job, exactly as the page shows it, for
every plan start with completion markers and without, on real Spark over
the lab's August tables: each must rebuild exactly the plan's days in
silver and gold, with the lab's fixed totals and row counts, leave every
other day as it was, and (with markers) record exactly the plan's days.
With Sunday the 9th withdrawn from bronze (silver still holding it), a
job that replaces every targeted date must empty it, and a dynamic
overwrite must leave its old rows, as the lab says.

usage: backfill_spark.py <folder written by partition-lab-export>/backfill-spark
"""
import json
import os
import shutil
import sys
import tempfile
from decimal import Decimal

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def main(argv=None):
    folder = (argv or sys.argv)[1]
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    plans, truth = expected["plans"], expected["truth"]
    if not plans or not truth or not all(p["dates"] for p in plans.values()):
        print("backfill on Spark: no plan or no truth to compare")
        sys.exit(1)
    warehouse = tempfile.mkdtemp(prefix="spark-backfill-")
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("partition-lab-backfill")
        .config("spark.sql.warehouse.dir", warehouse)
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    read = lambda name, schema: spark.read.option("header", True).schema(schema).csv(os.path.join(folder, name))
    bronze = read("bronze_orders.csv", "order_id string, dt date, amount decimal(18,2), currency string")
    # Orders the source withdrew after the daily runs had built their day:
    # silver still holds them, bronze does not.
    withdrawn = os.path.join(folder, "withdrawn_orders.csv")
    built = bronze.unionByName(read("withdrawn_orders.csv", bronze.schema)) if os.path.exists(withdrawn) else bronze
    fx = read("fx_rates.csv", "currency string, dt date, gbp_per_unit decimal(18,6)")
    wrong = []
    for name, plan in sorted(plans.items()):
        for db in ("bronze", "silver", "gold", "ops"):
            spark.sql(f"drop database if exists {db} cascade")
        for db in ("bronze", "silver", "gold"):
            spark.sql(f"create database {db}")
        bronze.write.saveAsTable("bronze.orders")
        fx.write.saveAsTable("silver.fx_rates")
        # Every day spoilt (-1): what the job rebuilds is what is no longer spoilt.
        (built.withColumn("amount_gbp", F.lit(-1).cast("decimal(18,2)"))
            .select("order_id", "currency", "amount", "amount_gbp", "dt")
            .write.partitionBy("dt").saveAsTable("silver.orders"))
        (built.select("dt").distinct().withColumn("total_gbp", F.lit(-1).cast("decimal(38,2)"))
            .select("total_gbp", "dt").write.partitionBy("dt").saveAsTable("gold.daily_totals"))
        spoilt = {str(r["dt"]): r["n"] for r in built.groupBy("dt").agg(F.count("*").alias("n")).collect()}
        with open(os.path.join(folder, "jobs", f"{name}.py")) as f:
            code = f.read()
        exec(compile(code, f"{name}.py", "exec"), {"spark": spark})
        silver = {
            str(r["dt"]): (r["n"], r["total"], r["fresh"])
            for r in spark.table("silver.orders").groupBy("dt").agg(
                F.count("*").alias("n"), F.sum("amount_gbp").alias("total"),
                F.min(F.col("amount_gbp") >= 0).alias("fresh")).collect()
        }
        gold = {str(r["dt"]): r["total_gbp"] for r in spark.table("gold.daily_totals").collect()}
        # A plan date ends rebuilt with rows, emptied (its rows were all
        # withdrawn), or, where the lab says its writer keeps a date it
        # wrote no rows to, still holding its old rows.
        kept = plan.get("kept", [])
        emptied = [dt for dt in plan["dates"] if truth[dt]["rows"] == 0 and dt not in kept]
        with_rows = [dt for dt in plan["dates"] if dt not in kept and dt not in emptied]
        rebuilt = sorted(dt for dt, (_, _, fresh) in silver.items() if fresh)
        if rebuilt != with_rows:
            wrong.append(f"{name}: silver rebuilt {rebuilt}, the lab {with_rows}")
        gold_rebuilt = sorted(dt for dt, total in gold.items() if total is not None and total >= 0)
        if gold_rebuilt != with_rows:
            wrong.append(f"{name}: gold rebuilt {gold_rebuilt}, the lab {with_rows}")
        pence = lambda v: int((Decimal(v) * 100).to_integral_value()) if v is not None else None
        for dt in with_rows:
            want = truth[dt]
            n, total, _ = silver.get(dt, (0, None, False))
            if n != want["rows"] or pence(total) != want["pence"]:
                wrong.append(f"{name} {dt}: silver {n} rows, {total}; the lab {want['rows']} rows, {want['pence'] / 100}")
            if pence(gold.get(dt)) != want["pence"]:
                wrong.append(f"{name} {dt}: gold {gold.get(dt)}, the lab {want['pence'] / 100}")
        for dt in emptied:
            if dt in silver or dt in gold:
                wrong.append(f"{name} {dt}: the lab empties the day; Spark left silver {silver.get(dt)}, gold {gold.get(dt)}")
        # Its gold is summed again, from the old rows silver kept.
        for dt in kept:
            n, total, fresh = silver.get(dt, (0, None, False))
            if fresh or n != spoilt.get(dt) or gold.get(dt) != total:
                wrong.append(f"{name} {dt}: the lab keeps the day's old {spoilt.get(dt)} rows and sums them; Spark has {n} rows, fresh={fresh}, gold {gold.get(dt)}")
        if not with_rows and not emptied and not kept:
            wrong.append(f"{name}: nothing to compare")
        if plan["markers"]:
            marked = sorted(str(r["dt"]) for r in spark.table("ops.backfill_done").collect())
            if marked != plan["dates"]:
                wrong.append(f"{name}: markers {marked}, the plan is {plan['dates']}")
        elif spark.catalog.databaseExists("ops"):
            wrong.append(f"{name}: a job without markers wrote some")
    spark.stop()
    shutil.rmtree(warehouse, ignore_errors=True)
    kept = sum(len(p.get("kept", [])) for p in plans.values())
    emptied = sum(1 for p in plans.values() for dt in p["dates"] if truth[dt]["rows"] == 0 and dt not in p.get("kept", []))
    print(f"Spark: the backfill job run for {len(plans)} plan(s), each compared day by day with the "
          f"lab's rebuild ({emptied} date(s) emptied, {kept} kept as they were): {len(wrong)} disagreement(s)")
    for line in wrong[:20]:
        print("  " + line)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()

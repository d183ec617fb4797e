"""Runs the backfill lab's Spark job, exactly as the page shows it, for
every plan start with completion markers and without, on real Spark over
the lab's August tables: each must rebuild exactly the plan's days in
silver and gold, with the lab's fixed totals and row counts, leave every
other day as it was, and (with markers) record exactly the plan's days.

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


def main():
    folder = sys.argv[1]
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
        (bronze.withColumn("amount_gbp", F.lit(-1).cast("decimal(18,2)"))
            .select("order_id", "currency", "amount", "amount_gbp", "dt")
            .write.partitionBy("dt").saveAsTable("silver.orders"))
        (bronze.select("dt").distinct().withColumn("total_gbp", F.lit(-1).cast("decimal(38,2)"))
            .select("total_gbp", "dt").write.partitionBy("dt").saveAsTable("gold.daily_totals"))
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
        rebuilt = sorted(dt for dt, (_, _, fresh) in silver.items() if fresh)
        if rebuilt != plan["dates"]:
            wrong.append(f"{name}: silver rebuilt {rebuilt}, the plan is {plan['dates']}")
        gold_rebuilt = sorted(dt for dt, total in gold.items() if total is not None and total >= 0)
        if gold_rebuilt != plan["dates"]:
            wrong.append(f"{name}: gold rebuilt {gold_rebuilt}, the plan is {plan['dates']}")
        for dt in plan["dates"]:
            want = truth[dt]
            n, total, _ = silver.get(dt, (0, None, False))
            pence = lambda v: int((Decimal(v) * 100).to_integral_value()) if v is not None else None
            if n != want["rows"] or pence(total) != want["pence"]:
                wrong.append(f"{name} {dt}: silver {n} rows, {total}; the lab {want['rows']} rows, {want['pence'] / 100}")
            if pence(gold.get(dt)) != want["pence"]:
                wrong.append(f"{name} {dt}: gold {gold.get(dt)}, the lab {want['pence'] / 100}")
        if plan["markers"]:
            marked = sorted(str(r["dt"]) for r in spark.table("ops.backfill_done").collect())
            if marked != plan["dates"]:
                wrong.append(f"{name}: markers {marked}, the plan is {plan['dates']}")
        elif spark.catalog.databaseExists("ops"):
            wrong.append(f"{name}: a job without markers wrote some")
    spark.stop()
    shutil.rmtree(warehouse, ignore_errors=True)
    print(f"Spark: the backfill job run for {len(plans)} plan(s), each compared day by day with the "
          f"lab's rebuild: {len(wrong)} disagreement(s)")
    for line in wrong[:20]:
        print("  " + line)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()

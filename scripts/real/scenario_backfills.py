"""Runs each scenario 4 and 5 backfill design's Spark job, exactly as the
design's "Export as code" shows it, on real Spark, and compares it with
the engine:

- a first launch run to its end, over the scenario's tables at the launch:
  every plan date's silver (rows and total) and gold total as the engine
  leaves them, every other date untouched, and exactly the engine's
  completion markers (date and layer);
- a re-run after the failover (scenario 5): with the markers the engine's
  first launch left, over spoilt tables, the job rebuilds exactly the
  silver and gold dates the engine's re-run does (markers written before
  the work skip a date the failover cut: that is the mistake it shows).

usage: scenario_backfills.py <folder written by partition-lab-export>/scenario-backfills
"""
import json
import os
import shutil
import sys
import tempfile
from decimal import Decimal

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

SILVER = "order_id string, currency string, amount decimal(18,2), amount_gbp decimal(18,2), dt date"
GOLD = "total_gbp decimal(38,2), dt date"


def pence(v):
    return None if v is None else int((Decimal(v) * 100).to_integral_value())


def main(argv=None):
    folder = (argv or sys.argv)[1]
    with open(os.path.join(folder, "expected.json")) as f:
        designs = json.load(f)
    if not designs or not all(d.get("first") or d.get("rerun") for d in designs.values()):
        print("scenario backfills on Spark: nothing to compare")
        sys.exit(1)
    warehouse = tempfile.mkdtemp(prefix="spark-scenario-backfills-")
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("partition-lab-scenario-backfills")
        .config("spark.sql.warehouse.dir", warehouse)
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    csv = lambda n, name, schema: spark.read.option("header", True).schema(schema).csv(
        os.path.join(folder, f"scenario{n}", name))
    wrong, runs = [], 0

    def fresh(d, spoilt, seed):
        n = d["scenario"]
        for db in ("bronze", "silver", "gold", "ops"):
            spark.sql(f"drop database if exists {db} cascade")
        for db in ("bronze", "silver", "gold"):
            spark.sql(f"create database {db}")
        bronze = csv(n, "bronze.csv", "order_id string, dt date, amount decimal(18,2), currency string")
        bronze.write.saveAsTable(d["bronze"])
        csv(n, "fx_rates.csv", "currency string, dt date, gbp_per_unit decimal(18,6)").write.saveAsTable("silver.fx_rates")
        if spoilt:
            # Every day spoilt (-1): what the job rebuilds is what is no longer spoilt.
            silver = bronze.withColumn("amount_gbp", F.lit(-1).cast("decimal(18,2)")).select(
                "order_id", "currency", "amount", "amount_gbp", "dt")
            gold = bronze.select("dt").distinct().withColumn("total_gbp", F.lit(-1).cast("decimal(38,2)")).select("total_gbp", "dt")
        else:
            silver, gold = csv(n, "silver_before.csv", SILVER), csv(n, "gold_before.csv", GOLD)
        silver.write.partitionBy("dt").saveAsTable(d["silver"])
        gold.write.partitionBy("dt").saveAsTable("gold.daily_totals")
        if seed:
            spark.sql("create database ops")
            spark.createDataFrame([(__import__("datetime").date.fromisoformat(dt), layer) for dt, layer in seed],
                                  "dt date, layer string").write.saveAsTable("ops.backfill_done")

    def silver_by_day(d):
        return {str(r["dt"]): (r["n"], pence(r["total"]), r["fresh"]) for r in
                spark.table(d["silver"]).groupBy("dt").agg(
                    F.count("*").alias("n"), F.sum("amount_gbp").alias("total"),
                    F.min(F.col("amount_gbp") >= 0).alias("fresh")).collect()}

    def gold_by_day():
        return {str(r["dt"]): pence(r["total_gbp"]) for r in spark.table("gold.daily_totals").collect()}

    def run(name):
        with open(os.path.join(folder, "jobs", f"{name}.py")) as f:
            code = f.read()
        exec(compile(code, f"{name}.py", "exec"), {"spark": spark})

    for name, d in sorted(designs.items()):
        first = d.get("first")
        if first:
            runs += 1
            fresh(d, spoilt=False, seed=None)
            before = silver_by_day(d)
            run(name)
            silver, gold = silver_by_day(d), gold_by_day()
            for dt in first["dates"]:
                want = first["silver"][dt]
                got = silver.get(dt, (0, None, True))
                if (got[0], got[1]) != (want["rows"], want["pence"]):
                    wrong.append(f"{name} {dt}: silver {got[0]} rows, {got[1]}p; the engine {want['rows']} rows, {want['pence']}p")
                if gold.get(dt) != first["gold"][dt]:
                    wrong.append(f"{name} {dt}: gold {gold.get(dt)}p; the engine {first['gold'][dt]}p")
            for dt, was in before.items():
                if dt not in first["dates"] and silver.get(dt) != was:
                    wrong.append(f"{name} {dt}: outside the plan, yet silver changed")
            marked = sorted([str(r["dt"]), r["layer"]] for r in spark.table("ops.backfill_done").collect()) \
                if spark.catalog.tableExists("ops.backfill_done") else []
            if marked != sorted(first["markers"]):
                wrong.append(f"{name}: markers {marked[:4]}... ({len(marked)}), the engine {len(first['markers'])}")
        rerun = d.get("rerun")
        if rerun:
            runs += 1
            fresh(d, spoilt=True, seed=rerun["seed_markers"])
            run(name)
            rebuilt = sorted(dt for dt, (_, _, ok) in silver_by_day(d).items() if ok)
            gold_rebuilt = sorted(dt for dt, p in gold_by_day().items() if p is not None and p >= 0)
            if rebuilt != rerun["silver"]:
                wrong.append(f"{name} re-run: silver rebuilt {len(rebuilt)} dates, the engine {len(rerun['silver'])}")
            if gold_rebuilt != rerun["gold"]:
                wrong.append(f"{name} re-run: gold rebuilt {len(gold_rebuilt)} dates, the engine {len(rerun['gold'])}")
        print(f"  {name}: done", flush=True)
    spark.stop()
    shutil.rmtree(warehouse, ignore_errors=True)
    print(f"Spark: {len(designs)} scenario backfill design(s), {runs} run(s), each compared date by date "
          f"with the engine: {len(wrong)} disagreement(s)")
    for line in wrong[:200]:
        print("  " + line)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()

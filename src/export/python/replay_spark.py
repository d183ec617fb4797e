"""Replays Partition Lab's runs on real Spark, in order, and reports silver.

Written by Partition Lab for Apache Spark 4.0 (PySpark), local mode.
    pip install "pyspark==4.0.*"     (needs Java 17)
    python replay_spark.py

Each pipeline reads bronze.csv with its state's filter and writes a
Parquet table partitioned by dt: append adds files, a partition overwrite
uses Spark's dynamic partitionOverwriteMode (only the dt values in the
batch are replaced), a full refresh replaces the whole table. Merges need
Delta Lake or Iceberg, which this export does not assume: pipelines that
merge are left out and said so. Pipelines are independent, so their k-th
runs are written together (partitioned by pipeline too).
It writes results.json: each table's row ids per partition.
"""
import json
import os
import shutil

from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F

from state import State, parse_at, parse_day, steps

HERE = os.path.dirname(os.path.abspath(__file__))
WAREHOUSE = os.path.join(HERE, "spark-warehouse")


def main():
    os.chdir(HERE)
    with open("pipelines.json") as f:
        pipelines = [p for p in json.load(f)]
    skipped = [p["name"] for p in pipelines if p["write"] == "merge"]
    pipelines = [p for p in pipelines if p["write"] != "merge"]
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("partition-lab-replay")
        .config("spark.sql.sources.partitionOverwriteMode", "dynamic")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    shutil.rmtree(WAREHOUSE, ignore_errors=True)
    bronze = (
        spark.read.option("header", True)
        .schema(
            "script string, id string, key string, event_time timestamp, updated_at timestamp, "
            "arrived_at timestamp, amount_minor long, currency string, dt date, change_date date"
        )
        .csv(os.path.join(HERE, "bronze.csv"))
        .cache()
    )
    versioned = {
        r["script"]
        for r in bronze.groupBy("script", "key").count().where("count > 1").select("script").distinct().collect()
    }
    latest = Window.partitionBy("key").orderBy(
        F.col("updated_at").desc(), F.col("arrived_at").desc(), F.col("id").desc()
    )

    def read(pipeline, state, attempt):
        rows = bronze.where(
            (F.col("script") == pipeline["script"])
            & (F.col("arrived_at") <= F.lit(parse_at(attempt["at"])))
        )
        targets = []
        if state.kind() == "watermark" and state.mark is not None:
            overlap = state.spec["overlap_minutes"]
            rows = rows.where(
                F.col(state.spec["column"])
                > F.lit(state.mark) - F.expr(f"interval {overlap} minutes")
            )
        if state.kind() == "list":
            targets = state.targets(parse_day(attempt["day"]))
            rows = rows.where(F.col(state.spec["over"]).isin(targets))
        if state.blocks_final() and state.final_through is not None:
            # final partitions are never written again
            rows = rows.where(F.col("dt") > F.lit(state.final_through))
        # one row per key: the latest version the run read (a script whose
        # keys have one version each needs no window, and no shuffle)
        if pipeline["script"] in versioned:
            rows = rows.withColumn("n", F.row_number().over(latest)).where("n = 1").drop("n")
        return rows, targets

    states = {p["name"]: State(p["state"], p["start"], p.get("finaliser")) for p in pipelines}
    queues = {p["name"]: list(steps(p)) for p in pipelines}
    by_name = {p["name"]: p for p in pipelines}
    k = 0
    while any(k < len(q) for q in queues.values()):
        batches = {"append": [], "overwrite": [], "replace": []}
        after, finished, replacing = [], [], []
        current = []
        for name, queue in queues.items():
            if k < len(queue):
                rows, targets = read(by_name[name], states[name], queue[k][0])
                current.append((name, rows, targets))
        # Every watermark's newest value at this step, in one Spark job.
        marks = [
            rows.agg(F.max(states[name].spec["column"]).alias("newest")).withColumn("pipeline", F.lit(name))
            for name, rows, _ in current
            if states[name].kind() == "watermark"
        ]
        newest = {}
        if marks:
            union = marks[0]
            for frame in marks[1:]:
                union = union.unionByName(frame)
            newest = {r["pipeline"]: r["newest"] for r in union.collect()}
        for name, rows, targets in current:
            attempt, before, write, save = queues[name][k]
            pipeline, state = by_name[name], states[name]
            nxt = state.next_after(targets, newest.get(name))
            if before and save:
                state.save(nxt)
            if write:
                batches[pipeline["write"]].append(
                    rows.select("id", "dt").withColumn("pipeline", F.lit(name))
                )
                if pipeline["write"] == "replace":
                    replacing.append(name)
            if not before and save:
                after.append((name, nxt))
            if not attempt["crashes"]:
                finished.append((name, parse_day(attempt["day"])))
        for mode, frames in batches.items():
            if not frames:
                continue
            batch = frames[0]
            for frame in frames[1:]:
                batch = batch.unionByName(frame)
            if mode == "append":
                batch.write.mode("append").partitionBy("pipeline", "dt").parquet(WAREHOUSE)
            elif mode == "overwrite":
                # dynamic: only the (pipeline, dt) partitions in the batch are replaced
                batch.write.mode("overwrite").partitionBy("pipeline", "dt").parquet(WAREHOUSE)
            else:
                # a full refresh replaces its whole table, even with an empty batch
                for name in replacing:
                    shutil.rmtree(os.path.join(WAREHOUSE, f"pipeline={name}"), ignore_errors=True)
                batch.write.mode("append").partitionBy("pipeline", "dt").parquet(WAREHOUSE)
        for name, nxt in after:
            states[name].save(nxt)
        for name, day in finished:
            states[name].finalise(day)
        k += 1

    results = {p["name"]: {} for p in pipelines}
    if os.path.exists(WAREHOUSE):
        table = spark.read.parquet(WAREHOUSE)
        for r in table.select("pipeline", F.col("dt").cast("string").alias("dt"), "id").collect():
            results[r["pipeline"]].setdefault(r["dt"], []).append(r["id"])
    for parts in results.values():
        for ids in parts.values():
            ids.sort()
    with open("results.json", "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    spark.stop()
    note = f"; left out (merges need Delta Lake or Iceberg): {', '.join(skipped)}" if skipped else ""
    print(f"replayed {len(pipelines)} pipeline(s) on Spark in {k} step(s); wrote results.json{note}")


if __name__ == "__main__":
    main()

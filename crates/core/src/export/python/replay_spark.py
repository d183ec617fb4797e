"""Replays Partition Lab's runs on real Spark, in order, and reports silver.

Written by Partition Lab for PySpark in local mode (Java 17). README.txt
beside it names the version it is proven on and the pip line that installs
it; then: python replay_spark.py

Each pipeline is a module in spark_jobs/: what it reads, the watermark it
saves, its batch and its write (the page showed the same code). This
script runs the attempts in order, keeps each pipeline's state (state.py)
and saves it before or after the write as the module's COMMIT says. The
table is Parquet partitioned by pipeline and dt, so every pipeline's k-th
attempt is written in one Spark job; a partition overwrite uses Spark's
dynamic partitionOverwriteMode. Merges need Delta Lake or Iceberg, whose
JARs are not on PyPI: pipelines that merge are left out and said so.
It writes results.json: each table's row ids per partition.
"""
import importlib.util
import json
import os
import shutil
from collections import namedtuple

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from state import State, parse_at, parse_day, steps

HERE = os.path.dirname(os.path.abspath(__file__))
WAREHOUSE = os.path.join(HERE, "spark-warehouse")

# What a module's read() is told about the attempt.
Run = namedtuple("Run", ["at", "day"])


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "spark_jobs", f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    os.chdir(HERE)
    with open("pipelines.json") as f:
        pipelines = [p for p in json.load(f)]
    jobs = {p["name"]: load(p["name"]) for p in pipelines}
    skipped = [p["name"] for p in pipelines if jobs[p["name"]].WRITE == "merge"]
    pipelines = [p for p in pipelines if jobs[p["name"]].WRITE != "merge"]
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

    states = {p["name"]: State(p["state"], p["start"], p.get("finaliser")) for p in pipelines}
    # The commit order is the module's: the code shown is the code run.
    queues = {p["name"]: list(steps(dict(p, commit=jobs[p["name"]].COMMIT))) for p in pipelines}
    k = 0
    while any(k < len(q) for q in queues.values()):
        batches = {"append": [], "overwrite": [], "replace": []}
        after, finished = [], []
        current = []
        for name, queue in queues.items():
            if k < len(queue):
                attempt = queue[k][0]
                run = Run(parse_at(attempt["at"]), parse_day(attempt["day"]))
                rows, targets = jobs[name].read(bronze, states[name], run)
                current.append((name, rows, targets))
        # Every watermark's newest value at this step, in one Spark job.
        marks = [
            jobs[name].newest(rows).withColumn("pipeline", F.lit(name))
            for name, rows, _ in current
            if hasattr(jobs[name], "newest")
        ]
        newest = {}
        if marks:
            union = marks[0]
            for frame in marks[1:]:
                union = union.unionByName(frame)
            newest = {r["pipeline"]: r["newest"] for r in union.collect()}
        for name, rows, targets in current:
            attempt, before, write, save = queues[name][k]
            job, state = jobs[name], states[name]
            nxt = state.next_after(targets, newest.get(name))
            if before and save:
                state.save(nxt)
            if write:
                batches[job.WRITE].append((name, job.batch(rows).select("id", "dt").withColumn("pipeline", F.lit(name))))
            if not before and save:
                after.append((name, nxt))
            if not attempt["crashes"]:
                finished.append((name, parse_day(attempt["day"])))
        for mode, frames in batches.items():
            if not frames:
                continue
            names = [name for name, _ in frames]
            batch = frames[0][1]
            for _, frame in frames[1:]:
                batch = batch.unionByName(frame)
            # Every module of one write mode has the same write(): the first one's
            # writes them all, in one job.
            jobs[names[0]].write(batch, WAREHOUSE, names)
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
    print(f"replayed {len(pipelines)} pipeline{'' if len(pipelines) == 1 else 's'} on Spark in {k} step{'' if k == 1 else 's'}; wrote results.json{note}")


if __name__ == "__main__":
    main()

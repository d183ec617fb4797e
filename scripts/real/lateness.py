"""Runs the lateness lab's "your data" query on DuckDB or Spark over the
test arrival logs (tests/data/arrivals, read as text, as a raw table
holds them) and checks it returns exactly the lab's completeness for
every allowed lateness, run time and log.

usage: lateness.py <folder written by partition-lab-export>/lateness duckdb|spark
"""
import json
import os
import sys
from decimal import Decimal


def statements(text):
    """The script's statements, comments and blank lines aside."""
    out = []
    for chunk in text.split(";\n"):
        code = "\n".join(l for l in chunk.splitlines() if not l.startswith("--")).strip()
        if code:
            out.append(code)
    return out


def duckdb_runner():
    import duckdb

    def run(csv, text):
        con = duckdb.connect()
        con.execute(
            "create table arrivals as select * from read_csv(?, header = true, all_varchar = true)",
            [csv],
        )
        return con.execute(text).fetchall()

    return run, ".sql", "DuckDB"


def spark_runner():
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")

    def run(csv, text):
        spark.read.option("header", True).csv(csv).createOrReplaceTempView("arrivals")
        *settings, query = statements(text)
        for s in settings:
            spark.sql(s)
        return [tuple(r) for r in spark.sql(query).collect()]

    return run, ".spark.sql", "Spark"


def main(argv=None):
    folder, dialect = (argv or sys.argv)[1:3]
    run, suffix, tool = duckdb_runner() if dialect == "duckdb" else spark_runner()
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    # Zero cases, or a case with no rows on either side, would pass on nothing.
    if not cases:
        print(f"{tool}: no lateness cases to compare")
        sys.exit(1)
    failed = 0
    for case in cases:
        with open(os.path.join(folder, case["name"] + suffix)) as f:
            rows = run(case["csv"], f.read())
        got = [
            (l, ec, et, Decimal(vc), Decimal(vt), f"{ep:.2f}", f"{vp:.2f}")
            for l, ec, et, vc, vt, ep, vp in rows
        ]
        # The lab writes its decimal sums as text; they compare as numbers.
        expected = [
            (
                r["allowed_lateness_days"],
                r["events_complete"],
                r["events_total"],
                Decimal(r["value_complete"]),
                Decimal(r["value_total"]),
                r["events_complete_pct"],
                r["value_complete_pct"],
            )
            for r in case["rows"]
        ]
        if not got or not expected:
            failed += 1
            print(f"{tool}: {case['name']}: the lab has {len(expected)} row(s), {tool} {len(got)}: nothing to compare")
        elif got != expected:
            failed += 1
            print(f"{tool} disagrees with the lab on {case['name']}:")
            for a, b in zip(expected, got):
                if a != b:
                    print(f"  lab {a}\n  {tool} {b}")
            if len(got) != len(expected):
                print(f"  lab has {len(expected)} rows, {tool} {len(got)}")
        else:
            last = got[-1]
            print(
                f"{tool}: {case['name']}: the lab's completeness for L = 0..14 exactly "
                f"({last[2]} events; at 14 days {last[5]} % by events, {last[6]} % by value)"
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""Runs the backfill lab's downloadable project as its README.txt says, each
tool in its own venv: dbt's `sh rebuild.sh`, SQLMesh's `sh restate.sh` in
sqlmesh/, Dagster's `sh launch.sh` in dagster/. Each must leave every day of
the plan with the lab's fixed totals and row counts (dbt and SQLMesh in
silver, SQLMesh and Dagster in gold too); Dagster, which builds only the
days it launches, must build no other day.

usage: backfill_project.py <folder written by partition-lab-export>/backfill-project <.real folder>
"""
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from decimal import Decimal

import duckdb


def totals(db, table, value):
    con = duckdb.connect(db, read_only=True)
    rows = con.execute(f"select cast(dt as varchar), {value} from {table} group by dt order by dt").fetchall()
    con.close()
    for dt, _, total in rows:
        if not isinstance(total, Decimal):
            raise SystemExit(f"{table} holds money as {type(total).__name__} on {dt}, not a decimal")
    return {dt: (int(n), total) for dt, n, total in rows}


def main():
    folder, real = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    [(name, days)] = expected["plans"].items()
    truth = {dt: (t["rows"], Decimal(t["pence"]) / 100) for dt, t in expected["truth"].items()}
    if not days or not truth:
        print("backfill project: no plan days or no truth to compare")
        sys.exit(1)
    work = tempfile.mkdtemp(prefix="backfill-project-")
    failed = 0
    try:
        with tarfile.open(os.path.join(folder, name)) as tar:
            tar.extractall(work, filter="data")
        [root] = os.listdir(work)
        root = os.path.join(work, root)
        tools = [
            # name, folder, venv, script, checks: (database, table, value, only the plan's days)
            ("dbt", ".", "data", "rebuild.sh",
             [("lab.duckdb", "silver_orders", "count(*), sum(amount_gbp)", False)]),
            ("SQLMesh", "sqlmesh", "sqlmesh", "restate.sh",
             [("warehouse.duckdb", "shop.silver_orders", "count(*), sum(amount_gbp)", False),
              ("warehouse.duckdb", "shop.gold_daily_totals", "sum(orders), sum(revenue_gbp)", False)]),
            ("Dagster", "dagster", "dagster", "launch.sh",
             [("warehouse.duckdb", "shop.silver_orders", "count(*), sum(amount_gbp)", True),
              ("warehouse.duckdb", "shop.gold_daily_totals", "sum(orders), sum(revenue_gbp)", True)]),
        ]
        for tool, sub, venv, script, checks in tools:
            here = os.path.join(root, sub)
            env = dict(os.environ, PATH=f"{os.path.join(real, venv, 'bin')}:{os.environ['PATH']}",
                       DBT_SEND_ANONYMOUS_USAGE_STATS="false")
            done = subprocess.run(["sh", "-e", script], cwd=here, env=env, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=900)
            if done.returncode != 0:
                failed += 1
                print(f"{tool}: `sh {script}` in {sub}/ failed:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
                continue
            wrong = []
            for db, table, value, only_plan in checks:
                got = totals(os.path.join(here, db), table, value)
                for dt in days:
                    if got.get(dt) != truth[dt]:
                        wrong.append(f"{table} {dt}: {got.get(dt)}, the lab's fix gives {truth[dt]}")
                if only_plan:
                    wrong += [f"{table} {dt}: built, but not in the plan" for dt in got if dt not in days]
            if wrong:
                failed += 1
                print(f"{tool}: the project's `sh {script}` differs from the lab:")
                for w in wrong[:10]:
                    print(f"  {w}")
            else:
                print(f"{tool}: `sh {script}` from {name} leaves the plan's {len(days)} days ({days[0]} to {days[-1]}) "
                      f"at the lab's fixed totals in {', '.join(t for _, t, _, _ in checks)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

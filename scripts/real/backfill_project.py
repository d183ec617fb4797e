"""Runs the backfill lab's downloadable project as its README.txt says, each
tool in its own venv: dbt's `sh rebuild.sh`, SQLMesh's `sh restate.sh` in
sqlmesh/, Airflow's `sh run_plan.sh` in airflow/ (its DAG doing the work on
DuckDB, one `airflow dags test` per day), Dagster's `sh launch.sh` in dagster/. Each must leave every day of
the plan with the lab's fixed totals and row counts, in silver and gold;
Dagster, which builds only the days it launches, must build no other day.
dbt, SQLMesh and Airflow start from history with the bug, so the same script
without its backfill line must leave the plan's days wrong (it is run so,
on a second copy); SQLMesh's last line, tonight's run, must build the day
after the last one there is.

usage: backfill_project.py <folder written by partition-lab-export>/backfill-project <.real folder>
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from datetime import date, datetime, timedelta, timezone
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal

import duckdb


def totals(db, table, value):
    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute(f"select cast(dt as varchar), {value} from {table} group by dt order by dt").fetchall()
    except duckdb.CatalogException:
        return {}   # no such table: every day is missing
    finally:
        con.close()
    for dt, _, total in rows:
        if not isinstance(total, Decimal):
            raise SystemExit(f"{table} holds money as {type(total).__name__} on {dt}, not a decimal")
    return {dt: (int(n), total) for dt, n, total in rows}


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def friday_totals(silver_csv):
    """Each day of silver as it stands on Friday (the lab's silver, which
    dbt's and Airflow's projects load as history): (rows, total)."""
    out = {}
    for r in csv_rows(silver_csv):
        n, total = out.get(r["dt"], (0, Decimal(0)))
        out[r["dt"]] = (n + 1, total + Decimal(r["amount_gbp"]))
    return out


def bug_totals(bronze_csv, fx_csv):
    """Each day as the bug converts today's bronze (SQLMesh's history from
    the day it shipped): the rate cut to two decimal places, each order
    rounded half to even to the penny. Written again here, from the story."""
    rates = {(r["currency"], r["dt"]): Decimal(r["gbp_per_unit"]) for r in csv_rows(fx_csv)}
    out = {}
    for r in csv_rows(bronze_csv):
        rate = rates.get((r["currency"], r["dt"]), Decimal(1))
        cut = (rate * 100).to_integral_value(rounding=ROUND_FLOOR) / 100
        pounds = (Decimal(r["amount"]) * cut).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
        n, total = out.get(r["dt"], (0, Decimal(0)))
        out[r["dt"]] = (n + 1, total + pounds)
    return out


def without_backfill(script, marker):
    """`script` with the command holding `marker` (continued lines joined) left out."""
    joined = script.replace("\\\n", " ")
    lines = joined.splitlines()
    kept = [line for line in lines if marker not in line or line.lstrip().startswith("#")]
    if len(kept) != len(lines) - 1:
        raise SystemExit(f"expected one command with {marker!r} in the script, found {len(lines) - len(kept)}")
    return "\n".join(kept) + "\n"


def run_script(here, real, venv, script, text=None):
    env = dict(os.environ, PATH=f"{os.path.join(real, venv, 'bin')}:{os.environ['PATH']}",
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    if text is not None:
        with open(os.path.join(here, script), "w") as f:
            f.write(text)
    return subprocess.run(["sh", script], cwd=here, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=900)


def intervals_end(db):
    """The end of the last interval SQLMesh recorded for each model in production."""
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("select name, max(end_ts) from sqlmesh._intervals where not is_dev and not is_removed group by name").fetchall()
    con.close()
    return {name.split(".")[-1].strip('"'): datetime.fromtimestamp(end / 1000, timezone.utc).date().isoformat()
            for name, end in rows}


def main():
    folder, real = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    [(name, days)] = expected["plans"].items()
    truth = {dt: (t["rows"], Decimal(t["pence"]) / 100) for dt, t in expected["truth"].items()}
    if not days or not truth:
        print("backfill project: no plan days or no truth to compare")
        sys.exit(1)
    # Tonight's run builds the day after the last one there is.
    tonight = (date.fromisoformat(max(truth)) + timedelta(days=1)).isoformat()
    work = tempfile.mkdtemp(prefix="backfill-project-")
    failed = 0
    try:
        roots = []
        for copy in ("as-downloaded", "backfill-removed"):
            with tarfile.open(os.path.join(folder, name)) as tar:
                tar.extractall(os.path.join(work, copy), filter="data")
            [root] = os.listdir(os.path.join(work, copy))
            roots.append(os.path.join(work, copy, root))
        root, control = roots
        tools = [
            # name, folder, venv, script, the backfill's command, the plan's days
            # without it (from the project's own files), checks
            ("dbt", ".", "data", "rebuild.sh", "--event-time-start",
             lambda here: friday_totals(os.path.join(here, "history", "silver_orders.csv")),
             [("lab.duckdb", "silver_orders", "count(*), sum(amount_gbp)", False),
              ("lab.duckdb", "gold_daily_totals", "sum(orders), sum(revenue_gbp)", False)]),
            ("SQLMesh", "sqlmesh", "sqlmesh", "restate.sh", "--restate-model",
             lambda here: {**truth, **{dt: t for dt, t in bug_totals(os.path.join(here, "bronze_orders.csv"),
                                                                      os.path.join(here, "fx_rates.csv")).items()
                                      if dt >= expected["shipped"]}},
             [("warehouse.duckdb", "shop.silver_orders", "count(*), sum(amount_gbp)", False),
              ("warehouse.duckdb", "shop.gold_daily_totals", "sum(orders), sum(revenue_gbp)", False)]),
            ("Airflow", "airflow", "airflow", "run_plan.sh", "dags test",
             lambda here: friday_totals(os.path.join(here, "silver_orders.csv")),
             [("warehouse.duckdb", "shop.silver_orders", "count(*), sum(amount_gbp)", False),
              ("warehouse.duckdb", "shop.gold_daily_totals", "sum(orders), sum(revenue_gbp)", False)]),
            ("Dagster", "dagster", "dagster", "launch.sh", None, None,
             [("warehouse.duckdb", "shop.silver_orders", "count(*), sum(amount_gbp)", True),
              ("warehouse.duckdb", "shop.gold_daily_totals", "sum(orders), sum(revenue_gbp)", True)]),
        ]
        for tool, sub, venv, script, backfill, before, checks in tools:
            here = os.path.join(root, sub)
            done = run_script(here, real, venv, script)
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
            if tool == "SQLMesh":
                # A model's `end` would leave tonight's run nothing to build.
                ends = intervals_end(os.path.join(here, "warehouse.duckdb"))
                for model in ("silver_orders", "gold_daily_totals"):
                    if ends.get(model) != (date.fromisoformat(tonight) + timedelta(days=1)).isoformat():
                        wrong.append(f"{model}: intervals recorded up to {ends.get(model)}; tonight's run must build {tonight}")
            if backfill:
                # The same project without its backfill line must leave the plan's
                # days wrong: the history before it is the bug's.
                there = os.path.join(control, sub)
                with open(os.path.join(there, script)) as f:
                    text = without_backfill(f.read(), backfill)
                undone = run_script(there, real, venv, script, text)
                if undone.returncode != 0:
                    wrong.append(f"without its backfill line `sh {script}` failed: {undone.stderr[-500:]}")
                else:
                    want = before(there)
                    for db, table, value, _ in checks:
                        got = totals(os.path.join(there, db), table, value)
                        off = [dt for dt in days if got.get(dt) != want.get(dt)]
                        if off:
                            dt = off[0]
                            wrong.append(f"without its backfill line {table} {dt} is {got.get(dt)}, not the bug's "
                                         f"{want.get(dt)} (and {len(off) - 1} more days differ)")
            if wrong:
                failed += 1
                print(f"{tool}: the project's `sh {script}` differs from the lab:")
                for w in wrong[:10]:
                    print(f"  {w}")
            else:
                extra = (f"; without its backfill line they keep the bug's totals" if backfill else "")
                extra += (f"; tonight's run then builds {tonight}" if tool == "SQLMesh" else "")
                print(f"{tool}: `sh {script}` from {name} leaves the plan's {len(days)} days ({days[0]} to {days[-1]}) "
                      f"at the lab's fixed totals in {', '.join(t for _, t, _, _ in checks)}{extra}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""Replays each built-in profile's month through the lateness lab's SQLMesh
models, one per allowed lateness as its `lookback`: a run at 02:00 UTC on
every day, after loading what arrived since the run before. The orders
SQLMesh never books in August must be exactly the ones the lab says arrive
after their day is final, by id.

usage: sqlmesh_lookback.py <folder written by partition-lab-export>/lateness-sqlmesh
(run with the Python that has SQLMesh)
"""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta

import duckdb
from sqlmesh import Context

FIRST_RUN = datetime(2026, 8, 2, 2, 0)
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def replay(folder, case, keys):
    """Each model `shop.orders_<key>`'s August order ids after the runs."""
    work = tempfile.mkdtemp(prefix="sqlmesh-lookback-")
    shutil.copytree(folder, work, dirs_exist_ok=True)
    try:
        csv = os.path.abspath(os.path.join(folder, case["csv"]))
        # config.yaml names warehouse.duckdb relative to where SQLMesh runs.
        os.chdir(work)
        con = duckdb.connect("warehouse.duckdb")
        con.execute("create schema raw")
        con.execute(
            "create table raw.all_arrivals as select order_id, "
            f"strptime(event_time, '{STAMP}') as event_time, strptime(arrival_time, '{STAMP}') as arrival_time "
            f"from read_csv('{csv}', header = true, all_varchar = true)"
        )
        con.execute("create table raw.arrivals as select * from raw.all_arrivals limit 0")
        august = {r[0] for r in con.execute(
            "select order_id from raw.all_arrivals where event_time >= '2026-08-01' and event_time < '2026-09-01'"
        ).fetchall()}
        # Runs until every order has arrived: a model never final books them all.
        (latest,) = con.execute("select max(arrival_time) from raw.all_arrivals").fetchone()
        con.close()
        last_run = FIRST_RUN + timedelta(days=max(0, (latest - FIRST_RUN).days + 1))
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            ctx = Context(paths=work)
            run, before = FIRST_RUN, datetime(1970, 1, 1)
            while run <= last_run:
                ctx.engine_adapter.execute(
                    "insert into raw.arrivals select * from raw.all_arrivals "
                    f"where arrival_time > '{before}' and arrival_time <= '{run}'"
                )
                if run == FIRST_RUN:
                    ctx.plan(auto_apply=True, no_prompts=True, execution_time=run)
                else:
                    ctx.run(execution_time=run)
                before, run = run, run + timedelta(days=1)
            booked = {}
            for key in keys:
                rows = ctx.engine_adapter.fetchall(
                    f"select order_id from shop.orders_{key} where dt between '2026-08-01' and '2026-08-31'"
                )
                booked[key] = [r[0] for r in rows]
    finally:
        os.chdir(folder)
        shutil.rmtree(work, ignore_errors=True)
    return august, booked


def main():
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    if len(sys.argv) > 2:
        # One profile in a process of its own: SQLMesh keeps a DuckDB
        # connection per database path, and every working copy's is
        # warehouse.duckdb.
        case = cases[int(sys.argv[2])]
        august, booked = replay(folder, case, sorted(case["dropped"]))
        print(json.dumps({"august": sorted(august), "booked": booked}))
        return
    if not cases:
        print("SQLMesh lookback: no profile to replay")
        sys.exit(1)
    failed, falling = 0, False
    for i, case in enumerate(cases):
        done = subprocess.run([sys.executable, __file__, folder, str(i)], capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            print(f"SQLMesh lookback on {case['name']} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
            sys.exit(1)
        got = json.loads(done.stdout.strip().splitlines()[-1])
        august = set(got["august"])
        counts = [len(case["dropped"][k]) for k in sorted(case["dropped"]) if k != "never"]
        falling = falling or all(a > b for a, b in zip(counts, counts[1:]))
        for key, rows in sorted(got["booked"].items()):
            never = sorted(august - set(rows))
            want = sorted(case["dropped"][key])
            twice = len(rows) - len(set(rows))
            if never == want and twice == 0:
                print(f"SQLMesh {key} on {case['name']}: never books {len(never)} of {len(august)} August orders, exactly the lab's late ones")
                continue
            failed += 1
            extra = sorted(set(never) - set(want))[:5]
            missing = sorted(set(want) - set(never))[:5]
            print(f"SQLMesh {key} on {case['name']}: never books {len(never)}, the lab says {len(want)} miss their day; "
                  f"not booked but on time {extra}, booked but late {missing}, booked twice {twice}")
    # Some month must tell each lookback from the next, or a wrong one passes.
    if not falling:
        print("SQLMesh lookback: no profile's late orders fall strictly with the lookback, so nothing told them apart")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

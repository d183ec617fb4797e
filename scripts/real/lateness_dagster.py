"""Replays built-in profiles' months through the lateness lab's Dagster
definitions, one file per allowed lateness, as the page shows them: at
each 02:00 UTC tick, after loading what arrived since the tick before, the
file's own schedule is evaluated and the run it requests (one run over its
range of days) is materialized on real Dagster, in process. The orders
Dagster never books in August must be exactly the ones the lab says arrive
after their day is final, by id, and none twice.

usage: lateness_dagster.py <folder written by partition-lab-export>/lateness-dagster [profile ...]
(run with the Python that has Dagster; without profiles, every one)
"""
import contextlib
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile
import warnings
from datetime import datetime, timedelta, timezone

import duckdb

FIRST_RUN = datetime(2026, 8, 2, 2, 0)
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def replay(folder, case, key):
    """The August order ids Dagster books through `orders_<key>.py`, and
    how many runs it made."""
    from dagster import DagsterInstance, build_schedule_context, materialize

    work = tempfile.mkdtemp(prefix="dagster-lateness-")
    here = os.getcwd()
    try:
        os.chdir(work)
        csv = os.path.abspath(os.path.join(folder, case["csv"]))
        spec = importlib.util.spec_from_file_location(f"orders_{key}", os.path.join(folder, f"orders_{key}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        resource = module.defs.resources["duckdb"]
        con = duckdb.connect(resource.database)
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
        # Ticks until every order has arrived: a file never final books them all.
        (latest,) = con.execute("select max(arrival_time) from raw.all_arrivals").fetchone()
        con.close()
        last_run = FIRST_RUN + timedelta(days=max(0, (latest - FIRST_RUN).days + 1))
        quiet = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}
        runs = 0
        said = io.StringIO()
        with DagsterInstance.local_temp(tempdir=work) as instance, contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            tick, before = FIRST_RUN, datetime(1970, 1, 1)
            while tick <= last_run:
                con = duckdb.connect(resource.database)
                con.execute("insert into raw.arrivals select * from raw.all_arrivals "
                            f"where arrival_time > '{before}' and arrival_time <= '{tick}'")
                con.close()
                context = build_schedule_context(instance=instance, scheduled_execution_time=tick.replace(tzinfo=timezone.utc),
                                                 repository_def=module.defs.get_repository_def())
                for request in module.nightly.evaluate_tick(context).run_requests or []:
                    runs += 1
                    result = materialize([module.orders], instance=instance, resources={"duckdb": resource},
                                         tags=request.tags, run_config=quiet, raise_on_error=False)
                    if not result.success:
                        raise SystemExit(f"the run for the tick at {tick} failed: "
                                         + "; ".join(str(e.message) for e in result.all_events if e.is_failure))
                before, tick = tick, tick + timedelta(days=1)
        con = duckdb.connect(resource.database)
        table = f"shop.orders_{key}"
        booked = [r[0] for r in con.execute(f"select order_id from {table} where dt between '2026-08-01' and '2026-08-31'").fetchall()]
        con.close()
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
    return august, booked, runs


def main():
    warnings.filterwarnings("ignore")
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    chosen = sys.argv[2:]
    cases = [c for c in cases if not chosen or c["name"] in chosen]
    if not cases:
        print(f"Dagster lateness: no profile to replay (asked for {chosen})")
        sys.exit(1)
    failed, falling = 0, False
    for case in cases:
        counts = [len(case["dropped"][k]) for k in sorted(case["dropped"]) if k != "never"]
        falling = falling or all(a > b for a, b in zip(counts, counts[1:]))
        for key in sorted(case["dropped"]):
            try:
                august, rows, runs = replay(folder, case, key)
            except (SystemExit, Exception) as e:
                print(f"Dagster {key} on {case['name']} failed: {type(e).__name__}: {e}")
                failed += 1
                continue
            never = sorted(august - set(rows))
            want = sorted(case["dropped"][key])
            twice = len(rows) - len(set(rows))
            if never == want and twice == 0:
                print(f"Dagster {key} on {case['name']}: never books {len(never)} of {len(august)} August orders, "
                      f"exactly the lab's late ones, in {runs} runs")
                continue
            failed += 1
            extra = sorted(set(never) - set(want))[:5]
            missing = sorted(set(want) - set(never))[:5]
            print(f"Dagster {key} on {case['name']}: never books {len(never)}, the lab says {len(want)} miss their day; "
                  f"not booked but on time {extra}, booked but late {missing}, booked twice {twice}")
    # Some month must tell each lateness from the next, or a wrong one passes.
    if not falling:
        print("Dagster lateness: no profile's late orders fall strictly with the lateness, so nothing told them apart")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

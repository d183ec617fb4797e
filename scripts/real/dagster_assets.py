# Not dagster.py: a script of that name would hide the package it imports.
"""Launches the backfill lab's Dagster assets on DuckDB, each plan's launch
exactly as the page shows it, with `dg launch` in process (no daemon): it
must rebuild exactly the plan's days in silver and gold, to the lab's fixed
totals (a day whose orders were withdrawn ends empty), and leave every
other day as it was. Also checks the partitions' dates: the schedule builds
partition d at 02:00 on d+1, and d's window is d 02:00 to d+1 02:00.

usage: dagster_assets.py <folder written by partition-lab-export>/dagster <dg executable>
"""
import datetime
import importlib.util
import os
import shlex
import shutil
import sys
import warnings
from decimal import Decimal

import duckdb
from raw_tables import load, runner, working_copy


def days(table, value):
    con = duckdb.connect("warehouse.duckdb", read_only=True)
    rows = con.execute(f"select cast(dt as varchar), {value} from shop.{table} group by dt order by dt").fetchall()
    con.close()
    for _, _, total in rows:
        if not isinstance(total, Decimal):
            raise SystemExit(f"Dagster: shop.{table} holds money as {type(total).__name__}, not a decimal")
    return {dt: (int(n), total) for dt, n, total in rows}


def dates_checked(definitions, days_):
    """What the page says about Dagster's dates, asked of Dagster."""
    from dagster import build_schedule_context

    # backfill_policy is beta in 1.13: the page says so once, the log need not.
    warnings.filterwarnings("ignore", message=".*currently in beta")

    spec = importlib.util.spec_from_file_location("definitions", definitions)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    schedule = module.defs.resolve_schedule_def("nightly_schedule")
    wrong = []
    if schedule.cron_schedule != "0 2 * * *":
        wrong.append(f"the schedule's cron is {schedule.cron_schedule}, not 02:00 daily")
    utc = datetime.timezone.utc
    for key in days_:
        d = datetime.date.fromisoformat(key)
        at = datetime.datetime.combine(d + datetime.timedelta(days=1), datetime.time(2), utc)
        keys = [r.partition_key for r in schedule.evaluate_tick(build_schedule_context(scheduled_execution_time=at)).run_requests]
        if keys != [key]:
            wrong.append(f"the tick at {at} builds {keys}, not {key}")
        window = module.DAYS.time_window_for_partition_key(key)
        if (window.start, window.end) != (at - datetime.timedelta(days=1), at):
            wrong.append(f"partition {key}'s window is {window.start} to {window.end}")
    return wrong


def main():
    folder, dg = os.path.abspath(sys.argv[1]), sys.argv[2]
    work, expected = working_copy(folder, "Dagster")
    # An instance of its own: no daemon, nothing from the user's.
    os.environ["DAGSTER_HOME"] = os.path.join(work, "home")
    os.makedirs(os.environ["DAGSTER_HOME"])
    open(os.path.join(os.environ["DAGSTER_HOME"], "dagster.yaml"), "w").close()

    run = runner("Dagster", dg)

    failed = 0
    wrong = dates_checked(os.path.join(work, "definitions.py"), sorted(expected["truth"]))
    if wrong:
        failed += 1
        print("Dagster's dates differ from the page's:")
        for w in wrong[:10]:
            print(f"  {w}")
    else:
        print(f"Dagster: the schedule builds each of {len(expected['truth'])} partitions at 02:00 the day after, its window 02:00 to 02:00")

    first, last = min(expected["truth"]), max(expected["truth"])
    load(-1)
    run(["launch", "-f", "definitions.py", "--assets", "silver_orders,gold_daily_totals", "--partition-range", f"{first}...{last}"])
    shutil.copy("warehouse.duckdb", "spoiled.duckdb")
    for command, dates in expected["plans"].items():
        # Every day spoiled again (the plan before fixed some), then the true rows.
        shutil.copy("spoiled.duckdb", "warehouse.duckdb")
        load(1)
        run(shlex.split(command.replace("\\\n", " "))[1:])
        silver = days("silver_orders", "count(*), sum(amount_gbp)")
        gold = days("gold_daily_totals", "sum(orders), sum(revenue_gbp)")
        wrong = []
        for dt, truth in sorted(expected["truth"].items()):
            want = (truth["rows"], Decimal(truth["pence"]) / 100) if truth["rows"] else None
            for name, table in (("silver", silver), ("gold", gold)):
                got = table.get(dt)
                if dt in dates and got != want:
                    wrong.append(f"{name} {dt}: rebuilt to {got}, the lab's fix gives {want or 'no rows'}")
                if dt not in dates and (got is None or got[1] >= 0):
                    wrong.append(f"{name} {dt}: not in the plan, yet {'missing' if got is None else 'rebuilt'}")
        emptied = [dt for dt in dates if not expected["truth"][dt]["rows"]]
        if wrong:
            failed += 1
            print(f"Dagster: `{command.splitlines()[-1].strip()}` differs from the lab:")
            for w in wrong[:10]:
                print(f"  {w}")
        else:
            print(f"Dagster: {' '.join(command.replace(chr(92), ' ').split())}: rebuilds exactly the plan's {len(dates)} day(s) "
                  f"({dates[0]} to {dates[-1]}) in silver and gold, to the lab's totals"
                  + (f", {', '.join(emptied)} emptied" if emptied else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

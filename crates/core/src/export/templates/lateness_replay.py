"""Replays the month's arrivals through this project as Partition Lab's
lateness lab does: at 02:00 UTC each day, what has arrived since the run
before is loaded into raw.arrivals, then {{tool}} runs. The orders of the
month it never books are the ones that arrive after their day is final.

usage: python replay.py   (in this folder; README.txt says what to install)
Prints how many it never books, and writes their ids to late_orders.txt and
the whole result to result.json. Each replay starts a new warehouse.duckdb.
"""
import contextlib
import io
import json
import os
import sys
from datetime import datetime, timedelta

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))
WAREHOUSE = os.path.join(HERE, "warehouse.duckdb")
TABLE = "shop.orders"
FIRST_RUN = datetime({{first_run}})
MONTH = ("{{first_day}}", "{{last_day}}")
STAMP = "%Y-%m-%dT%H:%M:%SZ"
# What ingestion appends between two runs: the rows that arrived after the
# run before and by this one.
ARRIVED = ("insert into raw.arrivals select * from raw.all_arrivals "
           "where arrival_time > '{}' and arrival_time <= '{}'")


def load_month():
    """A new warehouse with the file's rows in raw.all_arrivals and an empty
    raw.arrivals; the month's order ids and the last run, the first after
    every order has arrived (where a day never final has booked them all)."""
    for stale in (WAREHOUSE, WAREHOUSE + ".wal"):
        if os.path.exists(stale):
            os.remove(stale)
    con = duckdb.connect(WAREHOUSE)
    con.execute("create schema raw")
    con.execute(
        "create table raw.all_arrivals as select order_id, "
        f"strptime(event_time, '{STAMP}') as event_time, strptime(arrival_time, '{STAMP}') as arrival_time "
        "from read_csv('arrivals.csv', header = true, all_varchar = true)"
    )
    con.execute("create table raw.arrivals as select * from raw.all_arrivals limit 0")
    month = {r[0] for r in con.execute(
        "select order_id from raw.all_arrivals "
        f"where event_time >= '{MONTH[0]}' and event_time < cast('{MONTH[1]}' as date) + 1"
    ).fetchall()}
    (latest,) = con.execute("select max(arrival_time) from raw.all_arrivals").fetchone()
    con.close()
    last_run = FIRST_RUN + timedelta(days=max(0, (latest - FIRST_RUN).days + 1))
    return month, last_run


def booked_rows(fetchall):
    """The order ids the table holds for the month's days."""
    return [r[0] for r in fetchall(f"select order_id from {TABLE} where dt between '{MONTH[0]}' and '{MONTH[1]}'")]


{{runs}}


def main():
    os.chdir(HERE)
    # A replay that fails leaves no answer of an earlier one to be read.
    for stale in ("late_orders.txt", "result.json"):
        if os.path.exists(stale):
            os.remove(stale)
    month, last_run = load_month()
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            booked, runs = replay(last_run)
    except BaseException:
        print(said.getvalue()[-4000:], file=sys.stderr)
        raise
    never = sorted(month - set(booked))
    twice = len(booked) - len(set(booked))
    with open("late_orders.txt", "w") as f:
        f.write("".join(f"{order}\n" for order in never))
    with open("result.json", "w") as f:
        json.dump({"orders": len(month), "never": never, "twice": twice, "runs": runs}, f, indent=1)
    print(f"{runs} runs from {FIRST_RUN:%Y-%m-%d %H:%M} UTC: {TABLE} never books {len(never)} of the month's "
          f"{len(month)} orders (their ids are in late_orders.txt); {twice} booked twice.")
    print("{{says}}")


if __name__ == "__main__":
    main()

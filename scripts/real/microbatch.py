"""Runs the backfill lab's dbt rebuild for each plan on dbt-duckdb: every
plan's `--event-time-start/--event-time-end` range must rebuild exactly
the plan's days, no more and no fewer, each day once, with the lab's
fixed totals.

usage: microbatch.py <folder written by partition-lab-export>/microbatch <dbt executable>
"""
import json
import os
import shlex
import subprocess
import sys
from datetime import date, timedelta
from decimal import Decimal

import duckdb


def main():
    folder, dbt = sys.argv[1], sys.argv[2]
    os.chdir(folder)
    env = dict(os.environ, DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    run = lambda args: subprocess.run([dbt, *args, "--profiles-dir", ".", "-q"], env=env, capture_output=True, text=True)
    with open("expected.json") as f:
        expected = json.load(f)
    # Every day of August built once; a plain `dbt run` would build every
    # day from the models' begin to dbt's clock's today.
    days = sorted(expected["truth"])
    after = (date.fromisoformat(days[-1]) + timedelta(days=1)).isoformat() if days else ""
    for step in (["seed"], ["run", "--event-time-start", days[0] if days else "", "--event-time-end", after]):
        done = run(step)
        if done.returncode != 0:
            print(f"dbt {step[0]} failed:\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
    # Orders the source withdrew after the daily run had built their day:
    # silver still holds them (as it did before the withdrawal), bronze not.
    # Put back before each plan: the plan before may have emptied the day.
    def put_back_withdrawn(con):
        if not os.path.exists("withdrawn_orders.csv"):
            return
        gone = ("from read_csv('withdrawn_orders.csv', header=true, columns={'order_id': 'varchar', "
                "'dt': 'date', 'amount': 'decimal(18,2)', 'currency': 'varchar'})")
        con.execute(f"delete from silver_orders where order_id in (select order_id {gone})")
        con.execute("insert into silver_orders (order_id, event_time, dt, currency, amount, amount_gbp) "
                    f"select order_id, cast(dt as timestamp), dt, currency, amount, -1 {gone}")
    # No plan, a plan of no days, or no truth would make every check below vacuous.
    if not expected["plans"] or not all(expected["plans"].values()) or not expected["truth"]:
        print(f"dbt microbatch: {len(expected['plans'])} plan(s), {len(expected['truth'])} day(s) of truth: nothing to compare")
        sys.exit(1)
    wrong = []
    emptied_total = [0]
    for command, dates in expected["plans"].items():
        # Spoil every day, then let the plan's range rebuild what it rebuilds.
        con = duckdb.connect("lab.duckdb")
        con.execute("update silver_orders set amount_gbp = -1")
        put_back_withdrawn(con)
        con.close()
        done = run(shlex.split(command.replace("\\\n", " "))[1:])
        if done.returncode != 0:
            wrong.append(f"`{command}` failed: {done.stdout[-300:]} {done.stderr[-300:]}")
            continue
        con = duckdb.connect("lab.duckdb")
        rows = con.execute(
            "select cast(dt as varchar), count(*), sum(amount_gbp), bool_and(amount_gbp >= 0) "
            "from silver_orders group by dt order by dt"
        ).fetchall()
        con.close()
        # A plan date whose orders were all withdrawn must end empty: a
        # microbatch deletes its batch's day before it inserts.
        emptied = [dt for dt in dates if expected["truth"][dt]["rows"] == 0]
        rebuilt = [dt for dt, _, _, fresh in rows if fresh]
        if rebuilt != [dt for dt in dates if dt not in emptied]:
            wrong.append(f"`{command}` rebuilt {rebuilt}, the plan is {dates}, of which {emptied} has no rows now")
        for dt, n, _, _ in rows:
            if dt in emptied:
                wrong.append(f"`{command}`: {dt} still has {n} rows; its orders were withdrawn and the rebuild must empty it")
        emptied_total[0] += len(emptied)
        for dt, n, total, fresh in rows:
            truth = expected["truth"].get(dt)
            if truth and truth["rows"] == 0 and dt not in dates:
                continue   # withdrawn, outside the plan: keeps its old rows, as the lab says
            if truth and n != truth["rows"]:
                wrong.append(f"{dt}: {n} rows after the rebuild, the lab has {truth['rows']}")
            # Exactly, as a decimal: a float total would be off by a fraction
            # of a penny, and rounding it here would hide that.
            if fresh and truth and (not isinstance(total, Decimal) or total * 100 != truth["pence"]):
                wrong.append(f"{dt}: rebuilt total {total}, the lab's fixed total {truth['pence'] / 100}")
    print(f"dbt microbatch: {len(expected['plans'])} plan range(s) run, {emptied_total[0]} withdrawn day(s) emptied, {len(wrong)} disagreement(s)")
    for line in wrong[:20]:
        print("  " + line)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()

"""Runs the backfill lab's SQLMesh project on DuckDB and each plan's
restatement exactly as the page shows it: the restatement must rebuild
exactly the plan's days in silver and, through silver, in gold, to the
lab's fixed totals, and leave every other day as it was.

usage: sqlmesh_restatement.py <folder written by partition-lab-export>/sqlmesh <sqlmesh executable>
"""
import os
import shlex
import sys
from decimal import Decimal

import duckdb
from raw_tables import load, runner, working_copy


def days(table, value):
    con = duckdb.connect("warehouse.duckdb", read_only=True)
    rows = con.execute(
        f"select cast(dt as varchar), {value} from warehouse.shop.{table} group by dt order by dt"
    ).fetchall()
    con.close()
    return {dt: (int(n), Decimal(v)) for dt, n, v in rows}


def main():
    folder, sqlmesh = os.path.abspath(sys.argv[1]), sys.argv[2]
    work, expected = working_copy(folder, "SQLMesh")
    run = runner("SQLMesh", sqlmesh)

    load(-1)
    run(["plan", "--auto-apply", "--no-prompts"])
    first, last = min(expected["truth"]), max(expected["truth"])
    failed = 0
    for command, dates in expected["plans"].items():
        # Every day spoiled again (the plan before fixed some), then the true rows.
        load(-1)
        run(["plan", "--restate-model", "shop.silver_orders", "--start", first, "--end", last, "--auto-apply", "--no-prompts"])
        load(1)
        run(shlex.split(command.replace("\\\n", " "))[1:])
        silver = days("silver_orders", "count(*), sum(amount_gbp)")
        gold = days("gold_daily_totals", "sum(orders), sum(revenue_gbp)")
        wrong = []
        for dt, truth in sorted(expected["truth"].items()):
            want = (truth["rows"], Decimal(truth["pence"]) / 100)
            for name, table in (("silver", silver), ("gold", gold)):
                got = table.get(dt)
                if dt in dates and got != want:
                    wrong.append(f"{name} {dt}: rebuilt to {got}, the lab's fix gives {want}")
                if dt not in dates and (got is None or got[1] >= 0):
                    wrong.append(f"{name} {dt}: not in the plan, yet {'missing' if got is None else 'rebuilt'}")
        if wrong:
            failed += 1
            print(f"SQLMesh: `{command.splitlines()[-1].strip()}` differs from the lab:")
            for w in wrong[:10]:
                print(f"  {w}")
        else:
            print(f"SQLMesh: {' '.join(command.replace(chr(92), ' ').split())}: restates exactly the plan's {len(dates)} day(s) ({dates[0]} to {dates[-1]}) in silver and gold, to the lab's totals")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

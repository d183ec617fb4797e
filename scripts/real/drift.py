"""Runs the exported drift query on DuckDB over the backfill lab's tables
and checks it returns exactly the lab's drift table.

usage: drift.py <folder written by partition-lab-export>/drift
"""
import json
import os
import sys
from decimal import Decimal

import duckdb


def main():
    folder = sys.argv[1]
    con = duckdb.connect()
    for table, types in [
        ("silver_orders", {"order_id": "VARCHAR", "dt": "DATE", "amount_gbp": "DECIMAL(18,2)"}),
        ("bronze_orders", {"order_id": "VARCHAR", "dt": "DATE", "amount": "DECIMAL(18,2)", "currency": "VARCHAR"}),
        ("fx_rates", {"currency": "VARCHAR", "dt": "DATE", "gbp_per_unit": "DECIMAL(18,6)"}),
    ]:
        path = os.path.join(folder, f"{table}.csv")
        con.execute(f"create table {table} as select * from read_csv(?, header = true, columns = {types!r})", [path])
    with open(os.path.join(folder, "drift.sql")) as f:
        rows = con.execute(f.read()).fetchall()
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    # The lab's August drifts: a comparison of two empty tables would pass
    # on nothing, so an empty answer on either side is a failure.
    if not expected or not rows:
        print(f"drift query: the lab expects {len(expected)} drifting partition(s), DuckDB returned {len(rows)}: "
              "nothing to compare")
        sys.exit(1)
    # Exactly, as decimals: a float sum would be off by a fraction of a penny.
    def pence(v):
        if not isinstance(v, Decimal) or (v * 100) % 1:
            raise SystemExit(f"drift query: {v!r} is not a decimal amount of pounds")
        return int(v * 100)
    got = [{"dt": str(dt), "stored": pence(s), "recomputed": pence(r), "drift": pence(d)} for dt, s, r, d in rows]
    if got != expected:
        print("DuckDB drift query disagrees with the lab:")
        for a, b in zip(expected + [None] * len(got), got + [None] * len(expected)):
            if a != b:
                print(f"  lab {a}\n  duckdb {b}")
        sys.exit(1)
    print(f"DuckDB: the drift query returns the lab's {len(got)} drifting partition(s) exactly "
          f"({got[0]['dt']} to {got[-1]['dt']})")


if __name__ == "__main__":
    main()

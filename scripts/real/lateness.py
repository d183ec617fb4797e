"""Runs the lateness lab's "your data" query on DuckDB over the test
arrival logs (tests/data/arrivals, read as text, as a raw table holds
them) and checks it returns exactly the lab's completeness for every
allowed lateness, run time and log.

usage: lateness.py <folder written by partition-lab-export>/lateness
"""
import json
import os
import sys
from decimal import Decimal

import duckdb


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    failed = 0
    for case in cases:
        con = duckdb.connect()
        con.execute(
            "create table arrivals as select * from read_csv(?, header = true, all_varchar = true)",
            [case["csv"]],
        )
        with open(os.path.join(folder, case["name"] + ".sql")) as f:
            rows = con.execute(f.read()).fetchall()
        got = [
            {
                "allowed_lateness_days": l,
                "events_complete": ec,
                "events_total": et,
                "value_complete": Decimal(vc),
                "value_total": Decimal(vt),
                "events_complete_pct": f"{ep:.2f}",
                "value_complete_pct": f"{vp:.2f}",
            }
            for l, ec, et, vc, vt, ep, vp in rows
        ]
        # The lab writes its decimal sums as text; compare them as numbers.
        expected = [
            dict(row, value_complete=Decimal(row["value_complete"]), value_total=Decimal(row["value_total"]))
            for row in case["rows"]
        ]
        if got != expected:
            failed += 1
            print(f"DuckDB disagrees with the lab on {case['name']}:")
            for a, b in zip(expected, got):
                if a != b:
                    print(f"  lab    {a}\n  duckdb {b}")
        else:
            last = got[-1]
            print(
                f"DuckDB: {case['name']}: the lab's completeness for L = 0..14 exactly "
                f"({last['events_total']} events; at 14 days {last['events_complete_pct']} % by events, "
                f"{last['value_complete_pct']} % by value)"
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

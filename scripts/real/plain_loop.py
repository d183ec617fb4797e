"""Runs the backfill lab's plain loop, exactly as the page shows it, for
every plan, with its helpers written over the lab's August tables in
plain Python (decimal money, half-to-even pennies, as the engine rounds):
each run must rebuild exactly the plan's days, gold only after its own
silver, no more dates at once than the loop says, restate the report once
after every gold, match the lab's fixed totals and row counts, and record
exactly the plan's markers. Run again with half the markers already
there, a loop with markers rebuilds only the other half; one without
rebuilds everything.

usage: plain_loop.py <folder written by partition-lab-export>/backfill-spark
"""
import csv
import json
import os
import sys
import threading
import time
from datetime import date, timedelta
from decimal import ROUND_HALF_EVEN, Decimal


def load(folder):
    bronze, rates = {}, {}
    with open(os.path.join(folder, "bronze_orders.csv")) as f:
        for r in csv.DictReader(f):
            bronze.setdefault(r["dt"], []).append((r["order_id"], Decimal(r["amount"]), r["currency"]))
    with open(os.path.join(folder, "fx_rates.csv")) as f:
        for r in csv.DictReader(f):
            rates[(r["currency"], r["dt"])] = Decimal(r["gbp_per_unit"])
    return bronze, rates


class Warehouse:
    """The helpers the loop calls, recording what it did."""

    def __init__(self, bronze, rates, seeded):
        self.bronze, self.rates = bronze, rates
        self.silver, self.gold, self.calls = {}, {}, []
        self.lock, self.active, self.most = threading.Lock(), 0, 0
        self.marked = set(seeded)
        self.restated = []
        warehouse = self

        class Markers:
            def done(self, dt):
                with warehouse.lock:
                    return dt in warehouse.marked

            def record(self, dt):
                with warehouse.lock:
                    warehouse.marked.add(dt)
                    warehouse.calls.append(("marker", dt))

        self.markers = Markers()

    def replace_silver_partition(self, dt, source, logic):
        assert source == "bronze.orders" and logic == "fixed", (source, logic)
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)
        time.sleep(0.01)   # long enough for the pool's threads to overlap
        rows = []
        for order_id, amount, currency in self.bronze.get(dt, []):
            rate = Decimal(1) if currency == "GBP" else self.rates[(currency, dt)]
            pence = (amount * 100 * rate).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
            rows.append((order_id, int(pence)))
        with self.lock:
            self.silver[dt] = rows
            self.calls.append(("silver", dt))

    def replace_gold_partition(self, dt):
        with self.lock:
            self.gold[dt] = sum(p for _, p in self.silver.get(dt, []))
            self.calls.append(("gold", dt))
            self.active -= 1

    def dates(self, first, last):
        a, b = date.fromisoformat(first), date.fromisoformat(last)
        return [str(a + timedelta(days=n)) for n in range((b - a).days + 1)]

    def restate_finance_report(self, month):
        with self.lock:
            self.restated.append((month, list(self.calls)))

    def run(self, code, name):
        scope = {k: getattr(self, k) for k in
                 ("replace_silver_partition", "replace_gold_partition", "dates", "restate_finance_report")}
        scope["markers"] = self.markers
        exec(compile(code, name, "exec"), scope)


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    plans, truth = expected["plans"], expected["truth"]
    if not plans or not truth:
        print("plain loop: no plan or no truth to compare")
        sys.exit(1)
    bronze, rates = load(folder)
    wrong, runs = [], 0
    for name, plan in sorted(plans.items()):
        with open(os.path.join(folder, "loops", f"{name}.py")) as f:
            code = f.read()
        dates = plan["dates"]
        # A first run, then a re-run with the first half marked done.
        for seeded in ([], dates[: len(dates) // 2]):
            runs += 1
            w = Warehouse(bronze, rates, seeded)
            w.run(code, f"{name}.py")
            want = [d for d in dates if d not in seeded] if plan["markers"] else dates
            silver = sorted(d for k, d in w.calls if k == "silver")
            gold = sorted(d for k, d in w.calls if k == "gold")
            label = f"{name} ({len(seeded)} marked before)"
            if silver != want or gold != want:
                wrong.append(f"{label}: rebuilt silver {silver}, gold {gold}; expected {want}")
            for d in want:
                if w.calls.index(("gold", d)) < w.calls.index(("silver", d)):
                    wrong.append(f"{label} {d}: gold before its silver")
                if (len(w.silver[d]), w.gold[d]) != (truth[d]["rows"], truth[d]["pence"]):
                    wrong.append(f"{label} {d}: {len(w.silver[d])} rows, {w.gold[d]}p; the lab {truth[d]['rows']}, {truth[d]['pence']}p")
            if w.most > plan["slots"]:
                wrong.append(f"{label}: {w.most} dates at once, the loop says {plan['slots']}")
            if len(w.restated) != 1 or sorted(d for k, d in w.restated[0][1] if k == "gold") != want:
                wrong.append(f"{label}: the report restated {len(w.restated)} time(s), not once after every gold")
            marked = sorted(w.marked) if plan["markers"] else []
            if plan["markers"] and marked != dates:
                wrong.append(f"{label}: markers {marked}, the plan is {dates}")
            if not plan["markers"] and any(k == "marker" for k, _ in w.calls):
                wrong.append(f"{label}: a loop without markers recorded some")
    print(f"plain loop: {len(plans)} plan(s), {runs} run(s), each compared day by day with the lab: "
          f"{len(wrong)} disagreement(s)")
    for line in wrong[:20]:
        print("  " + line)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()

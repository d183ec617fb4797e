"""Replays Partition Lab's runs on real dbt, in order, and reports silver.

Written by Partition Lab. README.txt beside it names the dbt-core and
dbt-duckdb versions it is proven on and the pip line that installs them;
then: DBT_SEND_ANONYMOUS_USAGE_STATS=false python replay_dbt.py

Every pipeline in pipelines.json is a model in models/. Before each of its
runs this script writes the run's scope into lab_control / lab_targets
(the pipeline's state), then `dbt run` does the reading and the writing.
Pipelines are independent, so their k-th runs go into one dbt invocation.
It writes results.json: each table's row ids per partition.
"""
import json
import os
import sys

import duckdb
from dbt.cli.main import dbtRunner

from state import State, parse_at, parse_day, steps

HERE = os.path.dirname(os.path.abspath(__file__))
DB = os.path.join(HERE, "lab.duckdb")


def connect():
    return duckdb.connect(DB)


def read_filter(pipeline, state, attempt):
    """The same rows the model will read, as SQL over the seed (for the
    state a run computes before it writes)."""
    at = attempt["at"]
    where = [f"script = '{pipeline['script']}'", f"arrived_at <= timestamp '{at}'"]
    targets = []
    if state.kind() == "watermark" and state.mark is not None:
        overlap = state.spec["overlap_minutes"]
        where.append(
            f"{state.spec['column']} > timestamp '{state.mark}' - interval '{overlap} minutes'"
        )
    if state.kind() in ("list", "window"):
        targets = state.targets(parse_day(attempt["day"]))
        listed = ", ".join(f"date '{d}'" for d in targets) or "null"
        where.append(f"{state.spec.get('over', 'dt')} in ({listed})")
    return " and ".join(where), targets


def main():
    os.chdir(HERE)
    os.environ.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    with open("pipelines.json") as f:
        pipelines = json.load(f)
    dbt = dbtRunner()
    if os.path.exists(DB):
        os.remove(DB)
    check(dbt.invoke(["seed", "--profiles-dir", ".", "-q"]), "dbt seed")
    con = connect()
    con.execute(
        "create table lab_control (pipeline varchar, run_at timestamp, run_day date, mark timestamp, final_through date)"
    )
    con.execute("create table lab_targets (pipeline varchar, dt date)")
    con.close()

    states = {p["name"]: State(p["state"], p["start"], p.get("finaliser")) for p in pipelines}
    queues = {p["name"]: list(steps(p)) for p in pipelines}
    by_name = {p["name"]: p for p in pipelines}
    k = 0
    while any(k < len(q) for q in queues.values()):
        con = connect()
        writing, after, finished = [], [], []
        for name, queue in queues.items():
            if k >= len(queue):
                continue
            attempt, before, write, save = queue[k]
            pipeline, state = by_name[name], states[name]
            where, targets = read_filter(pipeline, state, attempt)
            column = state.spec.get("column", "arrived_at")
            newest = con.execute(f"select max({column}) from bronze where {where}").fetchone()[0]
            con.execute("delete from lab_control where pipeline = ?", [name])
            con.execute("delete from lab_targets where pipeline = ?", [name])
            final = state.final_through if state.blocks_final() else None
            con.execute(
                "insert into lab_control values (?, ?, ?, ?, ?)",
                [name, parse_at(attempt["at"]), parse_day(attempt["day"]), state.mark, final],
            )
            for d in targets:
                con.execute("insert into lab_targets values (?, ?)", [name, d])
            nxt = state.next_after(targets, newest)
            if before and save:
                state.save(nxt)
            if write:
                writing.append(name)
            if not before and save:
                after.append((name, nxt))
            if not attempt["crashes"]:
                finished.append((name, parse_day(attempt["day"])))
        con.close()
        if writing:
            check(
                dbt.invoke(["run", "--profiles-dir", ".", "-q", "--select", *writing]),
                f"dbt run, step {k + 1}",
            )
        for name, nxt in after:
            states[name].save(nxt)
        for name, day in finished:
            states[name].finalise(day)
        k += 1

    con = connect()
    results = {}
    for p in pipelines:
        rows = con.execute(f'select cast(dt as varchar), id from "{p["name"]}" order by 1, 2').fetchall()
        parts = {}
        for dt, row_id in rows:
            parts.setdefault(dt, []).append(row_id)
        results[p["name"]] = parts
    con.close()
    with open("results.json", "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    print(f"replayed {len(pipelines)} pipeline{'' if len(pipelines) == 1 else 's'} on dbt in {k} step{'' if k == 1 else 's'}; wrote results.json")


def check(result, what):
    if not result.success:
        print(f"{what} failed: {result.exception}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

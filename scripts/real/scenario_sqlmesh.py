"""Replays each scenario design SQLMesh can express, as the page's "Export
as code" shows it, over the scenario's own runs on real SQLMesh: before
each attempt ingestion loads what has arrived since the one before; a
scheduled run, retry or catch-up is `run` at the attempt's instant, a
crashed attempt records nothing (the retry builds what it left), and an
operator's re-run is the restatement the model's header names. Silver's
row ids per day must be the engine's after every moment the scheduler ran
(each attempt that did not crash, once the attempts at the same moment or
in the same minutes after an outage are done), every day, for every design.

usage: scenario_sqlmesh.py <folder written by partition-lab-export>/scenarios
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
from datetime import date, datetime, timedelta

import duckdb
from sqlmesh import Context

from scenario_bronze import arrived, prepare


def silver(ctx, model):
    """Silver now: day -> sorted row ids."""
    parts = {}
    for dt, row_id in ctx.engine_adapter.fetchall(f"select cast(dt as varchar), id from {model} order by 1, 2"):
        parts.setdefault(dt, []).append(row_id)
    return parts


def moments(attempts):
    """The attempts after which silver is compared: each that did not
    crash and is the last before the scheduler's next moment. SQLMesh's
    run after an outage builds every missed day at once, where the lab's
    catch-up runs them minute by minute: only after the last are the two
    the same."""
    out = []
    for i, a in enumerate(attempts):
        if a["crashes"]:
            continue
        nxt = attempts[i + 1] if i + 1 < len(attempts) else None
        if nxt and nxt["kind"] == a["kind"] == "catch-up":
            continue
        out.append(i)
    return out


def replay(folder, name, design, pipeline):
    """The design's silver after each compared moment, and at the end."""
    model_text = open(os.path.join(folder, "sqlmesh", f"{name}.sql")).read()
    # The days before d the lab's run for d rebuilds: what the re-run of d
    # restates, as the model's header says (None: a FULL model, restated whole).
    back = design["rerun_days_before"]
    said = {None: "--auto-apply\n", 0: "--start d --end d"}.get(back, f"--start <d - {back}> --end d")
    if said not in model_text:
        raise SystemExit(f"{name}: the model's header does not name the re-run the replay makes ({said.strip()})")
    work = tempfile.mkdtemp(prefix="sqlmesh-scenario-")
    try:
        os.makedirs(os.path.join(work, "models"))
        shutil.copy(os.path.join(folder, "sqlmesh", "config.yaml"), work)
        with open(os.path.join(work, "models", f"{name}.sql"), "w") as f:
            f.write(model_text)
        os.chdir(work)
        source = design["source"]
        con = duckdb.connect("warehouse.duckdb")
        prepare(con, folder, pipeline["script"], source)
        con.close()
        said = io.StringIO()
        planned = False
        before = datetime(1970, 1, 1)
        compared = set(moments(pipeline["attempts"]))
        seen = {}
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            ctx = Context(paths=work)
            for i, attempt in enumerate(pipeline["attempts"]):
                at = datetime.fromisoformat(attempt["at"])
                if at > before:
                    ctx.engine_adapter.execute(arrived(source, before, at))
                    before = at
                if attempt["crashes"]:
                    continue
                if not planned:
                    ctx.plan(auto_apply=True, no_prompts=True, execution_time=at)
                    planned = True
                elif attempt["kind"] == "manual":
                    day = date.fromisoformat(attempt["day"])
                    if back is None:
                        ctx.plan(restate_models=[design["model"]], auto_apply=True, no_prompts=True, execution_time=at)
                    else:
                        ctx.plan(restate_models=[design["model"]], start=str(day - timedelta(days=back)),
                                 end=str(day), auto_apply=True, no_prompts=True, execution_time=at)
                else:
                    ctx.run(execution_time=at)
                if i in compared:
                    seen[i] = silver(ctx, design["model"])
            final = silver(ctx, design["model"])
    finally:
        os.chdir(folder)
        shutil.rmtree(work, ignore_errors=True)
    return {"final": final, "after": seen}


def main():
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "sqlmesh", "designs.json")) as f:
        designs = json.load(f)
    with open(os.path.join(folder, "pipelines.json")) as f:
        pipelines = {p["name"]: p for p in json.load(f)}
    if len(sys.argv) > 2:
        # One design in a process of its own: SQLMesh keeps a DuckDB
        # connection per database path, and every working copy's is
        # warehouse.duckdb.
        name = sys.argv[2]
        print(json.dumps(replay(folder, name, designs[name], pipelines[name])))
        return
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    scenarios = {d["scenario"] for d in designs.values()}
    if len(designs) < 3 or len(scenarios) < 2:
        print(f"SQLMesh scenarios: only {len(designs)} design(s) to replay, from {sorted(scenarios)}")
        sys.exit(1)
    failed = 0
    for name, design in sorted(designs.items()):
        done = subprocess.run([sys.executable, __file__, folder, name], capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            print(f"SQLMesh {name} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
            failed += 1
            continue
        replayed = json.loads(done.stdout.strip().splitlines()[-1])
        got = replayed["final"]
        want = expected[name]
        attempts = pipelines[name]["attempts"]
        engine_after = design["silver_after_each_attempt"]
        if len(engine_after) != len(attempts):
            print(f"SQLMesh {name}: the engine made {len(engine_after)} attempts, the replay {len(attempts)}")
            failed += 1
            continue
        parted = [int(i) for i, parts in replayed["after"].items() if parts != engine_after[int(i)]]
        if not replayed["after"] or parted:
            failed += 1
            first = min(parted) if parted else None
            print(f"SQLMesh {name}: silver parts from the engine's after {len(parted)} of {len(replayed['after'])} moments"
                  + (f", first after attempt {first} ({attempts[first]['kind']} at {attempts[first]['at']})" if parted else ""))
            continue
        kinds = ", ".join(f"{sum(a['kind'] == k for a in attempts)} {k}" for k in ("scheduled", "retry", "catch-up", "manual")
                          if any(a["kind"] == k for a in attempts))
        if got == want:
            rows = sum(len(v) for v in got.values())
            print(f"SQLMesh {name} (scenario {design['scenario']}): {len(got)} days, {rows} rows, "
                  f"the engine's exactly after each of {len(replayed['after'])} moments and at the end, "
                  f"over {len(attempts)} attempts ({kinds})")
            continue
        failed += 1
        days = sorted(set(got) | set(want))
        wrong = [d for d in days if got.get(d) != want.get(d)]
        print(f"SQLMesh {name}: {len(wrong)} day(s) differ from the engine's, first {wrong[:3]}")
        for d in wrong[:3]:
            g, w = set(got.get(d, [])), set(want.get(d, []))
            print(f"  {d}: SQLMesh has {len(got.get(d, []))}, the engine {len(want.get(d, []))}; "
                  f"only SQLMesh {sorted(g - w)[:5]}, only the engine {sorted(w - g)[:5]}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

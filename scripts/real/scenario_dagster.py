"""Replays each scenario design Dagster can express, as the page's "Export
as code" shows it, over the scenario's own runs on real Dagster (in
process, a temporary instance, the design's DuckDB warehouse):
- before each attempt ingestion loads what has arrived since the one before;
- a scheduled run is the design's own schedule evaluated at the tick of the
  attempt's day (02:00 on d+1) with Dagster's record of what is
  materialized, and each run it requests materialized;
- a retry is Dagster's run retry (the job's dagster/max_retries tag, which
  the check requires): each failed run's partition again;
- a crash falls where the lab puts it, after the write and before the
  record: the run's connection fails as it closes, so Dagster itself fails
  the run and records nothing;
- after the scheduler was down, Dagster launches only the latest missed tick
  (the /dates page's check shows why), so of the lab's catch-up runs only
  the last one's tick is evaluated;
- an operator's re-run is the launch the definitions' header names, one run
  over the partition range.
Silver's row ids per day must be the engine's after every attempt Dagster
makes (each attempt, crashed ones included, except the catch-up runs
Dagster skips) and at the end.

usage: scenario_dagster.py <folder written by partition-lab-export>/scenarios
(run with the Python that has Dagster)
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
from datetime import date, datetime, timedelta, timezone

import duckdb

from scenario_bronze import arrived, prepare

RUN_HOUR = 2


def silver(path, table):
    """Silver now: day -> sorted row ids (nothing before the first write)."""
    con = duckdb.connect(path)
    try:
        rows = con.execute(f"select cast(dt as varchar), id from {table} order by 1, 2").fetchall()
    except duckdb.CatalogException:
        rows = []
    finally:
        con.close()
    parts = {}
    for dt, row_id in rows:
        parts.setdefault(dt, []).append(row_id)
    return parts


def made(attempts):
    """The attempts Dagster makes: all but a catch-up run followed by
    another, since after downtime Dagster evaluates only the latest
    missed tick."""
    out = []
    for i, a in enumerate(attempts):
        nxt = attempts[i + 1] if i + 1 < len(attempts) else None
        if nxt and nxt["kind"] == a["kind"] == "catch-up":
            continue
        out.append(i)
    return out


def replay(folder, name, design, pipeline):
    """The design's silver after each attempt Dagster makes, and at the end."""
    from contextlib import contextmanager

    from dagster import DagsterInstance, build_schedule_context, materialize
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG
    from dagster_duckdb import DuckDBResource

    path = os.path.join(folder, "dagster", f"{name}.py")
    text = open(path).read()
    back = design["rerun_days_before"]
    said = ("--partition-range D...D\nwhere D is day d\n" if back == 0
            else f"--partition-range FIRST...D\nwhere D is day d and FIRST the day {back} before it\n")
    if said not in text:
        raise SystemExit(f"{name}: the definitions' header does not name the re-run the replay makes ({said})")
    work = tempfile.mkdtemp(prefix="dagster-scenario-")
    here = os.getcwd()
    try:
        os.chdir(work)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if module.daily.tags.get("dagster/max_retries") != "1":
            raise SystemExit(f"{name}: the job does not retry a failed run once, as the lab's scheduler does")
        resource = module.defs.resources["duckdb"]
        warehouse = os.path.join(work, resource.database)

        class CrashesAfterWrite(DuckDBResource):
            """The lab's crash: the write is done, the run fails before
            Dagster records it."""

            @contextmanager
            def get_connection(self):
                with super().get_connection() as con:
                    yield con
                raise RuntimeError("the lab's crash, after the write")

        source, table = design["source"], design["model"]
        con = duckdb.connect(warehouse)
        prepare(con, folder, pipeline["script"], source)
        con.close()

        quiet = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}
        runs = 0
        said = io.StringIO()
        seen = {}
        before = datetime(1970, 1, 1)
        attempts = pipeline["attempts"]
        with DagsterInstance.local_temp(tempdir=work) as instance, contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):

            failed = []

            def launch(crashes, **how):
                nonlocal runs
                runs += 1
                if crashes:
                    failed.append(how)
                duck = CrashesAfterWrite(database=resource.database) if crashes else resource
                result = materialize([module.silver], instance=instance, resources={"duckdb": duck},
                                     raise_on_error=False, run_config=quiet, **how)
                if result.success == crashes:
                    raise SystemExit(f"{name}: a run {'succeeded' if result.success else 'failed'}, "
                                     f"the lab's {'crashed' if crashes else 'did not'}: "
                                     + "; ".join(str(e.message) for e in result.all_events if e.is_failure))

            for i in made(attempts):
                attempt = attempts[i]
                at = datetime.fromisoformat(attempt["at"])
                if at > before:
                    con = duckdb.connect(warehouse)
                    con.execute(arrived(source, before, at))
                    con.close()
                    before = at
                day = date.fromisoformat(attempt["day"])
                if attempt["kind"] == "retry":
                    again, failed[:] = list(failed), []
                    if not again:
                        raise SystemExit(f"{name}: a retry at {attempt['at']} with no failed run before it")
                    for how in again:
                        launch(attempt["crashes"], **how)
                elif attempt["kind"] == "manual":
                    first = day - timedelta(days=back)
                    launch(attempt["crashes"], tags={ASSET_PARTITION_RANGE_START_TAG: first.isoformat(),
                                                     ASSET_PARTITION_RANGE_END_TAG: day.isoformat()})
                else:
                    tick = datetime(day.year, day.month, day.day, RUN_HOUR, tzinfo=timezone.utc) + timedelta(days=1)
                    context = build_schedule_context(instance=instance, scheduled_execution_time=tick,
                                                     repository_def=module.defs.get_repository_def())
                    for request in module.nightly.evaluate_tick(context).run_requests or []:
                        launch(attempt["crashes"], partition_key=request.partition_key)
                seen[i] = silver(warehouse, table)
        final = silver(warehouse, table)
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
    return {"final": final, "after": seen, "runs": runs}


def main():
    warnings.filterwarnings("ignore")
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "dagster", "designs.json")) as f:
        designs = json.load(f)
    with open(os.path.join(folder, "pipelines.json")) as f:
        pipelines = {p["name"]: p for p in json.load(f)}
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    scenarios = {d["scenario"] for d in designs.values()}
    if len(designs) < 3 or len(scenarios) < 2:
        print(f"Dagster scenarios: only {len(designs)} design(s) to replay, from {sorted(scenarios)}")
        sys.exit(1)
    failed = 0
    for name, design in sorted(designs.items()):
        attempts = pipelines[name]["attempts"]
        engine_after = design["silver_after_each_attempt"]
        if len(engine_after) != len(attempts):
            print(f"Dagster {name}: the engine made {len(engine_after)} attempts, the replay {len(attempts)}")
            failed += 1
            continue
        try:
            replayed = replay(folder, name, design, pipelines[name])
        except (SystemExit, Exception) as e:
            print(f"Dagster {name} failed: {type(e).__name__}: {e}")
            failed += 1
            continue
        parted = [i for i, parts in replayed["after"].items() if parts != engine_after[i]]
        if not replayed["after"] or parted:
            failed += 1
            first = min(parted) if parted else None
            print(f"Dagster {name}: silver parts from the engine's after {len(parted)} of {len(replayed['after'])} attempts"
                  + (f", first after attempt {first} ({attempts[first]['kind']} at {attempts[first]['at']})" if parted else ""))
            if parted:
                got, want = replayed["after"][first], engine_after[first]
                for d in sorted(set(got) | set(want)):
                    if got.get(d) != want.get(d):
                        print(f"  {d}: Dagster has {len(got.get(d, []))}, the engine {len(want.get(d, []))}")
            continue
        got, want = replayed["final"], expected[name]
        if got != want:
            failed += 1
            wrong = [d for d in sorted(set(got) | set(want)) if got.get(d) != want.get(d)]
            print(f"Dagster {name}: {len(wrong)} day(s) differ from the engine's at the end, first {wrong[:3]}")
            continue
        kinds = ", ".join(f"{sum(a['kind'] == k for a in attempts)} {k}" for k in ("scheduled", "retry", "catch-up", "manual")
                          if any(a["kind"] == k for a in attempts))
        crashed = sum(a["crashes"] for a in attempts)
        rows = sum(len(v) for v in got.values())
        print(f"Dagster {name} (scenario {design['scenario']}): {len(got)} days, {rows} rows, the engine's exactly "
              f"after each of {len(replayed['after'])} attempts and at the end, over {len(attempts)} attempts ({kinds}; "
              f"{crashed} crashed) in {replayed['runs']} Dagster runs")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""Proves the dates page's dbt column on dbt-core with dbt-duckdb: for each
case, microbatch models with the case's event_time, batch_size, begin and
lookback (and the short lookback), run in process by dbt's own runner.

A plain `dbt run` picks its batches from the moment it was invoked, so each
probe instant is given to dbt as its invocation time (dbt.task.run's
get_invocation_started_at patched) and dbt's own code chooses the batches.
Each batch writes its own bounds (model.batch.event_time_start/_end) and the
run's name into the rows it rebuilds; the batches a run rebuilt are read
back from the table. Proven per case: the plain runs that rebuild batch d
at `lookback` are exactly `runs`, at the short lookback exactly
`short.runs`; a run at `gap.before` then one at `gap.after` rebuild batch d
or not as `gap.processes_day` says; `dbt run` with `backfill.args` and with
`bare.args` rebuild exactly `backfill.batches` and `bare.batches`.

usage: dates_dbt.py <folder written by partition-lab-export>/dates
(run with the Python that has dbt-core and dbt-duckdb)
"""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from datetime import datetime, timezone
from unittest import mock

os.environ["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"

import duckdb  # noqa: E402
from dbt.cli.main import dbtRunner  # noqa: E402

# What dbt says when a range is empty, which the page says it refuses
# (dbt/cli/flags.py: the start must be before the exclusive end).
REFUSAL = "Value for `--event-time-start` must be less than `--event-time-end`"

PROFILE = """dates:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: dates.duckdb
      threads: 1
"""
PROJECT = """name: dates
version: "1.0"
profile: dates
config-version: 2
model-paths: ["models"]
"""
# Rows at noon on every day, far either side of any date the page shows.
SOURCE = """{{{{ config(materialized='table', event_time={event_time!r}) }}}}
select ts as "{event_time}"
from generate_series(timestamp '2000-01-01 12:00:00', timestamp '2099-12-31 12:00:00', interval 1 day) as t(ts)
"""
MODEL = """{{{{ config(materialized='incremental', incremental_strategy='microbatch',
    event_time={event_time!r}, batch_size={batch_size!r}, begin={begin!r}, lookback={lookback}) }}}}
select "{event_time}",
    '{{{{ model.batch.event_time_start }}}}' as batch_start,
    '{{{{ model.batch.event_time_end }}}}' as batch_end,
    '{{{{ var("run") }}}}' as run_name
from {{{{ ref({source!r}) }}}}
"""


def iso(text):
    """A batch bound as dbt renders it, written as the page writes instants."""
    return datetime.fromisoformat(text).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def naive_utc(instant):
    """An instant of the page as dbt's own invocation clock gives it: naive UTC."""
    return datetime.fromisoformat(instant).astimezone(timezone.utc).replace(tzinfo=None)


class Project:
    def __init__(self, work, cases):
        self.work = work
        os.makedirs(os.path.join(work, "models"))
        with open(os.path.join(work, "profiles.yml"), "w") as f:
            f.write(PROFILE)
        with open(os.path.join(work, "dbt_project.yml"), "w") as f:
            f.write(PROJECT)
        sources = {}
        # One model per case and lookback asked about; the gap's runs on a
        # model of their own, so nothing runs between them.
        self.models = {}
        for i, case in enumerate(cases):
            dbt = case["dbt"]
            source = sources.setdefault(dbt["event_time"], f"dates_source_{len(sources)}")
            for variant, lookback in (("long", dbt["lookback"]), ("short", dbt["short"]["lookback"]), ("gap", dbt["lookback"])):
                name = f"dates_{i}_{variant}"
                self.models[(i, variant)] = name
                self.write(name, MODEL.format(event_time=dbt["event_time"], batch_size=dbt["batch_size"],
                                              begin=dbt["begin"], lookback=int(lookback), source=source))
        for event_time, name in sources.items():
            self.write(name, SOURCE.format(event_time=event_time))
        self.sources = sorted(sources.values())
        os.chdir(work)
        parsed = self.quiet(dbtRunner(), ["parse"])
        if not parsed.success:
            raise RuntimeError(f"dbt parse failed: {parsed.exception}")
        self.runner = dbtRunner(manifest=parsed.result)

    def write(self, name, sql):
        with open(os.path.join(self.work, "models", f"{name}.sql"), "w") as f:
            f.write(sql)

    def quiet(self, runner, args):
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            done = runner.invoke([*args, "--profiles-dir", self.work, "--project-dir", self.work])
        done.said = said.getvalue()
        return done

    def run(self, name, models, args=(), at=None, refusal=False):
        """`dbt run` of `models`, named `name` in the rows it writes, invoked
        at the instant `at` (dbt's own clock when None). The batches each
        model rebuilt, by dbt's bounds; with `refusal`, the message of dbt
        refusing the arguments if it does."""
        argv = ["run", "--select", *models, "--vars", json.dumps({"run": name}), *args]
        if at is None:
            done = self.quiet(self.runner, argv)
        else:
            with mock.patch("dbt.task.run.get_invocation_started_at", return_value=naive_utc(at)):
                done = self.quiet(self.runner, argv)
        if not done.success and refusal and done.exception:
            return str(done.exception)
        if not done.success:
            tail = "\n".join(done.said.strip().splitlines()[-15:] + ([str(done.exception)] if done.exception else []))
            raise RuntimeError(f"`dbt {' '.join(argv)}` failed{' at ' + at if at else ''}:\n{tail}")
        con = duckdb.connect(os.path.join(self.work, "dates.duckdb"))
        try:
            got = {}
            for model in models:
                if model in self.sources:
                    continue
                rows = con.execute(
                    f"select distinct batch_start, batch_end from main.{model} where run_name = ? order by 1",
                    [name],
                ).fetchall()
                got[model] = [[iso(s), iso(e)] for s, e in rows]
        finally:
            con.close()
        return got


def main():
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    if not cases:
        print("dbt dates: no case to compare")
        sys.exit(1)
    work = tempfile.mkdtemp(prefix="dates-dbt-")
    try:
        project = Project(work, cases)
        models = project.models
        # Which models run at each instant: the probes at both lookbacks,
        # and the gap's two runs.
        at = {}
        for i, case in enumerate(cases):
            dbt = case["dbt"]
            for t in dbt["probe"]:
                at.setdefault(t, []).extend([models[(i, "long")], models[(i, "short")]])
            for t in (dbt["gap"]["before"], dbt["gap"]["after"]):
                at.setdefault(t, []).append(models[(i, "gap")])
        order = sorted(at, key=datetime.fromisoformat)
        # Each model's first run builds it from `begin`; the runs asked about
        # are the incremental ones after, as on the page.
        project.run("setup", [*project.sources, *sorted(models.values())], at=order[0])
        batches = {}   # (model, instant) -> batches rebuilt
        for t in order:
            for model, got in project.run(t, at[t], at=t).items():
                batches[(model, t)] = got
        failed = 0
        for i, case in enumerate(cases):
            dbt = case["dbt"]
            batch = dbt["batch"]
            wrong = []
            said = []
            for variant, lookback, want in (("long", dbt["lookback"], dbt["runs"]),
                                            ("short", dbt["short"]["lookback"], dbt["short"]["runs"])):
                model = models[(i, variant)]
                got = [t for t in dbt["probe"] if batch in batches[(model, t)]]
                if got != want:
                    wrong.append(f"lookback {lookback}: plain runs rebuilding batch d: dbt {got}, the page {want}")
                    for t in dbt["probe"]:
                        b = batches[(model, t)]
                        wrong.append(f"    run at {t} rebuilt {b[0][0] if b else '-'}..{b[-1][1] if b else '-'} ({len(b)} batch(es))")
                else:
                    said.append(f"lookback {lookback}: runs {got[0] if got else '-'}..{got[-1] if got else '-'} ({len(got)})")
            gap = dbt["gap"]
            model = models[(i, "gap")]
            hit = any(batch in batches[(model, t)] for t in (gap["before"], gap["after"]))
            if hit != gap["processes_day"]:
                wrong.append(f"runs at {gap['before']} then {gap['after']}: dbt {'rebuilds' if hit else 'never rebuilds'} "
                             f"batch d, the page says processes_day {gap['processes_day']}")
            else:
                said.append(f"gap {gap['before'][:10]}..{gap['after'][:10]} {'rebuilds' if hit else 'misses'} d")
            for key in ("backfill", "bare"):
                got = project.run(key, [models[(i, "long")]], args=dbt[key]["args"], refusal=True)
                # null: the page says dbt refuses the command.
                if isinstance(got, str) or dbt[key]["batches"] is None:
                    # The page's reason, in dbt's own words: any other failure
                    # (a misspelt flag, a broken model) is not this refusal.
                    if isinstance(got, str) and dbt[key]["batches"] is None and REFUSAL in got:
                        said.append(f"{key} {' '.join(dbt[key]['args'][1::2])}: refused, as the page says ({REFUSAL})")
                    elif isinstance(got, str) and dbt[key]["batches"] is None:
                        wrong.append(f"`dbt run {' '.join(dbt[key]['args'])}` failed, but not as the page says "
                                     f"(dbt said: {got[:300]}; the page: {REFUSAL})")
                    elif isinstance(got, str):
                        wrong.append(f"`dbt run {' '.join(dbt[key]['args'])}`: dbt refuses it ({got}); "
                                     f"the page says it runs {len(dbt[key]['batches'])} batch(es)")
                    else:
                        wrong.append(f"`dbt run {' '.join(dbt[key]['args'])}`: dbt runs {len(got[models[(i, 'long')]])} batch(es); "
                                     "the page says dbt refuses it")
                    continue
                got = got[models[(i, "long")]]
                if got != dbt[key]["batches"]:
                    only_dbt = [b[0] for b in got if b not in dbt[key]["batches"]]
                    only_page = [b[0] for b in dbt[key]["batches"] if b not in got]
                    wrong.append(f"`dbt run {' '.join(dbt[key]['args'])}`: {len(got)} batch(es), the page {len(dbt[key]['batches'])}; "
                                 f"only dbt: {only_dbt}, only the page: {only_page}")
                else:
                    said.append(f"{key} {' '.join(dbt[key]['args'][1::2])}: {len(got)} batches")
            name = f"dbt dates d={case['day']} L={case['lateness']}"
            if wrong:
                failed += 1
                print(f"{name}: dbt disagrees with the page:")
                for w in wrong:
                    print(f"  {w}")
            else:
                print(f"{name}: batch {batch[0][:10]} rebuilt by exactly the page's plain runs ({'; '.join(said)})")
        # A lookback that changes nothing would let a wrong one pass.
        if all(c["dbt"]["runs"] == c["dbt"]["short"]["runs"] for c in cases):
            failed += 1
            print("dbt dates: no case tells the lookback from the short one")
    except RuntimeError as e:
        print(f"dbt dates: {e}")
        sys.exit(1)
    finally:
        os.chdir(folder)
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

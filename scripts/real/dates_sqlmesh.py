"""Proves the dates page's SQLMesh column on SQLMesh with DuckDB: for each
case, a model of the case's kind, cron and start (named as the case's
restatement names it) whose rows record the execution time of the run that
last (re)built them (@execution_tstz). A plan at the first probe instant,
then `sqlmesh run` at each later one: the runs that rebuild day d's rows
must be exactly `runs`. Then a plan with exactly `restate.args`: the
intervals SQLMesh plans to rebuild for it must be exactly
`restate.intervals`, the interval it restates must span them, and the rows
it rebuilds must be exactly those intervals' days.

usage: dates_sqlmesh.py <folder written by partition-lab-export>/dates
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
from datetime import datetime, timedelta, timezone

CONFIG = """gateways:
  local:
    connection:
      type: duckdb
      database: {database}
default_gateway: local
model_defaults:
  dialect: duckdb
"""
# One row a day, every day far either side of the page's dates: each
# interval SQLMesh processes writes its day's row again.
MODEL = """MODEL (
  name {name},
  kind {kind},
  cron '{cron}',
  start '{start}'
);

SELECT dt, @execution_tstz AS processed_at
FROM raw.days
WHERE dt BETWEEN @start_ds AND @end_ds
"""
# `sqlmesh plan` options as Context.plan_builder takes them.
PLAN_OPTIONS = {"--restate-model": "restate_models", "--start": "start", "--end": "end"}


def iso(t):
    """An instant (datetime, or epoch milliseconds as SQLMesh keeps intervals)
    written as the page writes instants."""
    if isinstance(t, int):
        t = datetime.fromtimestamp(t / 1000, timezone.utc)
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def plan_kwargs(args):
    kwargs = {}
    it = iter(args)
    for flag in it:
        if flag not in PLAN_OPTIONS:
            raise SystemExit(f"restate.args: no `sqlmesh plan` option {flag!r} known here")
        value = next(it)
        if PLAN_OPTIONS[flag] == "restate_models":
            kwargs.setdefault("restate_models", []).append(value)
        else:
            kwargs[PLAN_OPTIONS[flag]] = value
    return kwargs


def replay(case):
    """What SQLMesh does for one case: the execution times whose run
    rebuilt day d's row, and the restatement's intervals and rebuilt days."""
    from sqlmesh import Context
    from sqlmesh.core.snapshot.definition import expand_range

    want = case["sqlmesh"]
    kwargs = plan_kwargs(want["restate"]["args"])
    (name,) = kwargs["restate_models"]
    work = tempfile.mkdtemp(prefix="dates-sqlmesh-")
    try:
        os.makedirs(os.path.join(work, "models"))
        with open(os.path.join(work, "config.yaml"), "w") as f:
            f.write(CONFIG.format(database=os.path.join(work, "warehouse.duckdb")))
        with open(os.path.join(work, "models", "model.sql"), "w") as f:
            f.write(MODEL.format(name=name, kind=want["kind"], cron=want["cron"], start=want["start"]))
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            ctx = Context(paths=work)
            ctx.engine_adapter.execute("create schema raw")
            ctx.engine_adapter.execute(
                "create table raw.days as select cast(range as date) as dt "
                "from range(date '2000-01-01', date '2100-01-01', interval 1 day)"
            )
            # d's interval as SQLMesh cuts the model's time: the page's
            # interval must be exactly one of them.
            start, end = (int(datetime.fromisoformat(b).timestamp() * 1000) for b in want["interval"])
            cut = [iso(b) for b in expand_range(start, end, ctx.get_model(name).interval_unit)]

            def built_at(day):
                rows = ctx.engine_adapter.fetchall(f"select processed_at from {name} where dt = '{day}'")
                return [iso(datetime.fromisoformat(r[0])) for r in rows]

            day = want["interval"][0][:10]
            touched = []
            for i, t in enumerate(want["probe"]):
                if i == 0:
                    ctx.plan(auto_apply=True, no_prompts=True, execution_time=t)
                else:
                    done = ctx.run(execution_time=t)
                    if not done.is_success:
                        raise SystemExit(f"sqlmesh run at {t}: {done}\n{said.getvalue()[-2000:]}")
                if built_at(day) == [iso(datetime.fromisoformat(t))]:
                    touched.append(t)
            # The restatement, once every restated day has been built: a run
            # long after the last probe and the restated dates, then the plan
            # an hour later (the same daily interval due, so it restates
            # and backfills nothing else).
            latest = max([datetime.fromisoformat(want["probe"][-1])]
                         + [datetime.fromisoformat(kwargs[k]).replace(tzinfo=timezone.utc) for k in ("start", "end") if k in kwargs])
            caught_up = (latest + timedelta(days=7)).replace(hour=2, minute=0, second=0)
            restated_at = caught_up + timedelta(hours=1)
            done = ctx.run(execution_time=caught_up)
            if not done.is_success:
                raise SystemExit(f"sqlmesh run at {caught_up}: {done}\n{said.getvalue()[-2000:]}")
            plan = ctx.plan_builder(execution_time=restated_at, **kwargs).build()
            restatements = {s.name: [iso(a), iso(b)] for s, (a, b) in plan.restatements.items()}
            intervals = {si.snapshot_id.name: [[iso(a), iso(b)] for a, b in si.intervals]
                         for si in plan.missing_intervals}
            ctx.apply(plan)
            rebuilt = ctx.engine_adapter.fetchall(
                f"select cast(dt as varchar) from {name} where processed_at = '{restated_at.strftime('%Y-%m-%d %H:%M:%S+00:00')}' order by dt"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"cut": cut, "touched": touched, "restatements": restatements, "intervals": intervals,
            "rebuilt": [r[0] for r in rebuilt]}


def main():
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    if len(sys.argv) > 2:
        # One case in a process of its own: SQLMesh keeps its DuckDB
        # connections for the process.
        print(json.dumps(replay(cases[int(sys.argv[2])])))
        return
    if not cases:
        print("SQLMesh dates: no case to compare")
        sys.exit(1)
    failed = 0
    for i, case in enumerate(cases):
        want = case["sqlmesh"]
        name = f"SQLMesh dates d={case['day']} L={case['lateness']} ({want['kind']})"
        done = subprocess.run([sys.executable, __file__, folder, str(i)], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            failed += 1
            print(f"{name}: failed\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
            continue
        got = json.loads(done.stdout.strip().splitlines()[-1])
        wrong = []
        if got["cut"] != want["interval"]:
            wrong.append(f"SQLMesh's intervals cut {want['interval']} at {got['cut']}: not one interval")
        if got["touched"] != want["runs"]:
            wrong.append(f"runs that rebuild {want['interval'][0][:10]}: SQLMesh {got['touched']}, the page {want['runs']}")
        if len(got["intervals"]) != 1:
            wrong.append(f"the restatement plans intervals for {sorted(got['intervals'])}, not one model")
        restate = want["restate"]["intervals"]
        for model, intervals in got["intervals"].items():
            if intervals != restate:
                only_sqlmesh = [iv[0][:10] for iv in intervals if iv not in restate]
                only_page = [iv[0][:10] for iv in restate if iv not in intervals]
                wrong.append(f"`sqlmesh plan {' '.join(want['restate']['args'])}` rebuilds {len(intervals)} interval(s) of {model}, "
                             f"the page {len(restate)}; only SQLMesh: {only_sqlmesh}, only the page: {only_page}")
        span = [restate[0][0], restate[-1][1]] if restate else None
        for model, interval in got["restatements"].items():
            if interval != span:
                wrong.append(f"SQLMesh restates {model} over {interval}, the page's intervals span {span}")
        if not got["restatements"]:
            wrong.append("SQLMesh restates nothing")
        days = [iv[0][:10] for iv in restate]
        if got["rebuilt"] != days:
            wrong.append(f"the restatement rebuilt the rows of {got['rebuilt']}, the page's intervals are {days}")
        if wrong:
            failed += 1
            print(f"{name}: SQLMesh disagrees with the page:")
            for w in wrong:
                print(f"  {w}")
        else:
            print(f"{name}: of the runs at 02:00 on {want['probe'][0][:10]}..{want['probe'][-1][:10]}, exactly "
                  f"{want['runs'][0][:10] + '..' + want['runs'][-1][:10] if want['runs'] else 'none'} rebuild "
                  f"{want['interval'][0][:10]}; `{' '.join(want['restate']['args'])}` restates exactly "
                  f"{len(restate)} daily interval(s), {days[0]}..{days[-1]}")
    # A lookback that changes nothing would let a wrong one pass.
    if len({len(c["sqlmesh"]["runs"]) for c in cases}) < 2:
        failed += 1
        print("SQLMesh dates: every case's runs are as many: nothing tells the lookbacks apart")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""Asks Airflow itself for the /dates page's Airflow dates. For every case and
timetable it writes a DAG with exactly the page's `schedule=` expression (and
its imports), loads them all once (db migrate, dags reserialize, no import
errors), then:
- walks the loaded DAG's own timetable from its start date (as the scheduler
  does, with catch-up) to the run that fires at `run_after`: that run must
  exist and have the page's logical date and data interval;
- dry-runs `airflow backfill create --dag-id ... <args> --dry-run` with the
  page's "backfill" and "bare" arguments: the logical dates Airflow would run
  must be the page's. The dry-runs go through Airflow's own CLI parser and
  command in this process (an `airflow` process takes seconds to start);
  one of them also runs through the executable and must list the same.

usage: dates_airflow.py <folder written by partition-lab-export>/dates <airflow executable>
"""
import atexit
import concurrent.futures
import contextlib
import datetime
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from page_values import differs, instant

DAG_FILE = '''# Partition Lab /dates check: the page's schedule, verbatim.
from datetime import datetime, timezone

from airflow.sdk import DAG, task
{imports}

with DAG(
    dag_id="{dag_id}",
    schedule={schedule},
    start_date=datetime({start.year}, {start.month}, {start.day}, tzinfo=timezone.utc),
    catchup=True,
    tags=["partition-lab-dates"],
) as dag:

    @task
    def build(data_interval_start=None):
        return str(data_interval_start)

    build()
'''


def shown(value):
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def listed(stdout):
    """The logical dates a `backfill create --dry-run` printed: Airflow 3.3
    prints the runs as a table (logical_date, partition_key, partition_date);
    3.1 printed a list."""
    found = re.findall(r"^\s*(?:- |\| )(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\+00:00)\s*(?:\||$)", stdout, re.M)
    return [d.replace(" ", "T") for d in found]


def dry_run(command):
    """`airflow <command>` run by Airflow's own CLI (its parser and command
    function, as the `airflow` executable runs them) in this process: each
    `airflow` process spends seconds starting, this pays that once. Returns
    the logical dates it lists, or its error."""
    from airflow.cli import cli_parser

    out = io.StringIO()
    try:
        args = cli_parser.get_parser().parse_args(command)
        with contextlib.redirect_stdout(out):
            args.func(args)
    except (Exception, SystemExit) as e:
        return f"failed: {e!r} {out.getvalue()[-300:]}"
    return listed(out.getvalue())


def dry_run_executable(airflow, env, command):
    """The same, through the `airflow` executable."""
    done = subprocess.run([airflow, *command], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return f"failed: {(done.stderr or done.stdout)[-400:]}"
    return listed(done.stdout)


def runs_until(dag, run_after):
    """The DAG's runs as its timetable schedules them, from its start date with
    catch-up (as the scheduler does), up to the first firing at or after run_after."""
    infos, info = [], None
    while not infos or infos[-1].run_after < run_after:
        info = dag.next_dagrun_info(last_automated_run_info=info)
        if info is None or len(infos) > 10000:
            break
        infos.append(info)
    return infos


def main():
    folder, airflow = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    home = tempfile.mkdtemp(prefix="airflow-dates-home-")
    atexit.register(shutil.rmtree, home, True)
    dags = os.path.join(home, "dags")
    os.makedirs(dags)
    entries = []  # (case index, case, entry, dag id)
    for i, case in enumerate(cases, 1):
        # a start date before the day and the backfill (setup only: nothing compared)
        start = min(datetime.date.fromisoformat(case["day"]), datetime.date.fromisoformat(case["first"])) \
            - datetime.timedelta(days=2)
        for entry in case["airflow"]:
            dag_id = f"dates_{entry['timetable']}_{i}"
            with open(os.path.join(dags, f"{dag_id}.py"), "w") as f:
                f.write(DAG_FILE.format(imports=entry["imports"], dag_id=dag_id, schedule=entry["schedule"], start=start))
            entries.append((i, case, entry, dag_id))
    if not entries:
        print("Airflow: no case to check")
        sys.exit(1)
    env = dict(os.environ, AIRFLOW_HOME=home, AIRFLOW__CORE__DAGS_FOLDER=dags,
               AIRFLOW__CORE__LOAD_EXAMPLES="False", AIRFLOW__LOGGING__LOGGING_LEVEL="ERROR")
    run = lambda args: subprocess.run([airflow, *args], env=env, capture_output=True, text=True)
    for step in (["db", "migrate"], ["dags", "reserialize"]):
        done = run(step)
        if done.returncode != 0:
            print(f"airflow {' '.join(step)} failed:\n{done.stdout}\n{done.stderr}")
            sys.exit(1)

    # Airflow itself from here on (scripts/real/airflow.py would hide the package).
    os.environ.update(env)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    from sqlalchemy import select

    from airflow.models.errors import ParseImportError
    from airflow.models.serialized_dag import SerializedDagModel
    from airflow.utils.session import create_session

    with create_session() as session:
        errors = [(e.filename, e.stacktrace) for e in session.scalars(select(ParseImportError))]
    if errors:
        print("the DAGs with the page's schedules do not import (airflow dags list-import-errors):")
        for filename, trace in errors:
            print(f"  {filename}: {trace[-600:]}")
        sys.exit(1)

    def command(dag_id, args):
        return ["backfill", "create", "--dag-id", dag_id, *args, "--dry-run"]

    # One dry-run also through the executable, beside the rest: it must list
    # what the in-process one lists.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    _, _, entry0, dag0 = entries[0]
    through_executable = pool.submit(dry_run_executable, airflow, env, command(dag0, entry0["bare"]["args"]))

    failed = 0
    for i, case, entry, dag_id in entries:
        wrong = []
        with create_session() as session:
            dag = SerializedDagModel.get_dag(dag_id, session=session)
        if dag is None:
            wrong.append(f"{dag_id} is not among the loaded DAGs")
            kind_name = "?"
        else:
            kind_name = type(dag.timetable).__name__
            want_after = instant(entry["run_after"])
            infos = runs_until(dag, want_after)
            info = infos[-1] if infos and infos[-1].run_after == want_after else None
            if not infos or infos[-1].run_after < want_after:
                wrong.append(f"the timetable schedules no run at or after {entry['run_after']}")
            elif info is None:
                wrong.append(f"no run fires at {entry['run_after']}: the next fires at {shown(infos[-1].run_after)}")
            else:
                if info.logical_date != instant(entry["logical_date"]):
                    wrong.append(f"the run at {entry['run_after']} has logical date {shown(info.logical_date)}, "
                                 f"the page says {entry['logical_date']}")
                got = info.data_interval and [info.data_interval.start, info.data_interval.end]
                if got != [instant(x) for x in entry["interval"]]:
                    wrong.append(f"the run at {entry['run_after']} has data interval "
                                 f"{[shown(x) for x in got] if got else got}, the page says {entry['interval']}")
        counts = {}
        for kind in ("backfill", "bare"):
            shell = f"airflow {' '.join(command(dag_id, entry[kind]['args']))}"
            got = dry_run(command(dag_id, entry[kind]["args"]))
            if (dag_id, kind) == (dag0, "bare"):
                executable = through_executable.result()
                if executable != got:
                    wrong.append(f"`{shell}` lists {executable} through the executable, {got} in process")
            if isinstance(got, str):
                wrong.append(f"`{shell}` {got}")
                continue
            counts[kind] = len(got)
            if [instant(x) for x in got] != [instant(x) for x in entry[kind]["logical_dates"]]:
                wrong.append(f"`{shell}` lists {differs(got, entry[kind]['logical_dates'], 'logical date')}")
        if wrong:
            failed += 1
            print(f"Airflow {entry['timetable']} ({kind_name}, case {i}: day {case['day']}) differs from the page:")
            for w in wrong:
                print(f"  {w}")
        else:
            at = lambda x: x[:16].replace("T", " ")
            dates = entry["backfill"]["logical_dates"]
            print(f"Airflow {entry['timetable']} ({kind_name}), day {case['day']}: the run at {at(entry['run_after'])} "
                  f"has logical date {at(entry['logical_date'])}, interval {at(entry['interval'][0])} to "
                  f"{at(entry['interval'][1])}; --from-date/--to-date dry-run {counts['backfill']} logical date(s)"
                  + (f" ({at(dates[0])} to {at(dates[-1])})" if dates else "")
                  + f", the bare dates {counts['bare']}")
    pool.shutdown()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""Loads the exported DAGs in the Airflow check-real pins (the backfill
lab's, and scenarios 4 and 5's designs as "Export as code" shows them), creates the pool and
unpauses each DAG as the commands say, and dry-runs every exported backfill
command, checking the logical dates Airflow would run are the plan's, one
per partition.

usage: airflow.py <folder written by partition-lab-export>/airflow <airflow executable>
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def commands(text):
    """Each `airflow backfill create ...` command in a file, continuation lines joined."""
    out, current = [], None
    for line in text.splitlines():
        # the re-run after an interruption is written commented out
        if line.startswith("# airflow backfill create") or (current is not None and line.startswith("#   --")):
            line = line[2:]
        if line.startswith("airflow backfill create"):
            current = line
        elif current is not None and line.startswith("  --"):
            current += " " + line.strip()
        else:
            current = None
            continue
        if current is not None and not current.endswith("\\"):
            out.append(current)
            current = None
        elif current is not None:
            current = current[:-1].rstrip()
    return out


def main():
    folder, airflow = sys.argv[1], sys.argv[2]
    home = tempfile.mkdtemp(prefix="airflow-home-")
    env = dict(os.environ, AIRFLOW_HOME=home, AIRFLOW__CORE__DAGS_FOLDER=os.path.join(folder, "dags"),
               AIRFLOW__CORE__LOAD_EXAMPLES="False", AIRFLOW__LOGGING__LOGGING_LEVEL="ERROR")
    run = lambda args: subprocess.run(args, env=env, capture_output=True, text=True)
    for step in (["db", "migrate"], ["dags", "reserialize"]):
        done = run([airflow, *step])
        if done.returncode != 0:
            print(f"airflow {' '.join(step)} failed:\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
    errors = run([airflow, "dags", "list-import-errors", "--output", "json"])
    if errors.returncode != 0 or json.loads(errors.stdout or "[]"):
        print(f"the exported DAGs do not import:\n{errors.stdout}\n{errors.stderr}")
        sys.exit(1)
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    seen, wrong = {}, []
    # The pool the DAG's tasks draw from, created as the commands say.
    with open(os.path.join(folder, "commands", f"{sorted(expected)[0]}.sh")) as f:
        pool = next(l for l in f.read().splitlines() if l.startswith("airflow pools set"))
    done = run([airflow, *shlex.split(pool)[1:]])
    got = run([airflow, "pools", "get", "source_pool", "--output", "json"])
    if done.returncode != 0 or '"slots": "4"' not in got.stdout.replace("'", '"') and '"slots": 4' not in got.stdout:
        wrong.append(f"`{pool}` did not create source_pool with 4 slots: {done.stderr[-300:]} {got.stdout[-300:]}")
    unpaused = set()
    for name, dates in sorted(expected.items()):
        with open(os.path.join(folder, "commands", f"{name}.sh")) as f:
            text = f.read()
        lines = commands(text)
        # A new DAG starts paused and its backfill waits: every file says how
        # to unpause it, and that command must work on the DAG it names.
        unpause = [l for l in text.splitlines() if l.startswith("airflow dags unpause ")]
        if len(unpause) != 1:
            wrong.append(f"{name}: expected one `airflow dags unpause`, found {len(unpause)}")
        elif unpause[0] not in unpaused:
            done = run([airflow, *shlex.split(unpause[0])[1:]])
            if done.returncode != 0:
                wrong.append(f"{name}: `{unpause[0]}` failed: {done.stderr[-300:]}")
            unpaused.add(unpause[0])
        if len(lines) != 2:
            wrong.append(f"{name}: expected a launch and a re-run command, found {len(lines)}")
            continue
        for line in lines:
            if line not in seen:
                done = run([*shlex.split(line.replace("airflow", airflow, 1)), "--dry-run"])
                # Airflow 3.3 prints the runs as a table (logical_date,
                # partition_key, partition_date); 3.1 printed a list.
                listed = re.findall(r"^\s*(?:- |\| )(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\+00:00)\s*(?:\||$)", done.stdout, re.M)
                seen[line] = [d.replace(" ", "T") for d in listed] if done.returncode == 0 else done.stderr[-400:]
            if seen[line] != dates:
                wrong.append(f"{name}: `{line}` would run {seen[line]}, the plan is {dates}")
    dags = sorted(f for f in os.listdir(os.path.join(folder, "dags")) if f.endswith(".py"))
    if not expected or not seen:
        wrong.append("no backfill command was compared")
    print(f"Airflow: {len(dags)} DAG(s) import ({', '.join(dags)}); {len(unpaused)} unpaused; "
          f"{len(seen)} distinct backfill command(s) dry-run, {len(wrong)} disagreement(s)")
    for line in wrong[:20]:
        print("  " + line)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()

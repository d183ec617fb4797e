"""What the SQLMesh and Dagster checks share: a working copy of the
exported project with its answers, the raw tables it reads (loaded into
warehouse.duckdb there), and a tool run that stops the check on failure."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import duckdb


def working_copy(folder, tool):
    """Copies `folder` into a new temporary folder, moves there, and returns
    it with the exporter's expected.json, which must hold plans of days."""
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    if not expected["plans"] or not all(expected["plans"].values()) or not expected["truth"]:
        print(f"{tool}: no plan, a plan of no days or no truth: nothing to compare")
        sys.exit(1)
    work = tempfile.mkdtemp(prefix=f"{tool.lower()}-")
    shutil.copytree(folder, work, dirs_exist_ok=True)
    os.chdir(work)
    return work, expected


def runner(tool, exe):
    """A function running `exe` with its arguments, stdin closed; on failure
    it prints the end of what the tool said and ends the check."""
    def run(args):
        done = subprocess.run([exe, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            name = os.path.basename(exe)
            print(f"{tool}: `{name} {' '.join(args)}` failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
            sys.exit(1)
    return run


def load(bronze_sign):
    """raw.bronze_orders and raw.fx_rates from the folder's CSV; bronze's
    amounts times `bronze_sign`. -1 spoils every day, with any withdrawn
    orders back in, so a day rebuilt from the true rows is told from one
    left alone, and an emptied day from one kept."""
    con = duckdb.connect("warehouse.duckdb")
    con.execute("create schema if not exists raw")
    files = ["bronze_orders.csv"]
    if bronze_sign < 0 and os.path.exists("withdrawn_orders.csv"):
        files.append("withdrawn_orders.csv")
    con.execute(
        "create or replace table raw.bronze_orders as select order_id, cast(dt as date) as dt, "
        f"cast(amount as decimal(18,2)) * {bronze_sign} as amount, currency "
        f"from read_csv({files!r}, header = true, all_varchar = true)"
    )
    con.execute(
        "create or replace table raw.fx_rates as select currency, cast(dt as date) as dt, "
        "cast(gbp_per_unit as decimal(18,6)) as gbp_per_unit "
        "from read_csv('fx_rates.csv', header = true, all_varchar = true)"
    )
    con.close()

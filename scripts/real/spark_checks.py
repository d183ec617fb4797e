"""Runs every Spark check of scripts/check-real in one JVM.

Each check is the same scripts, with the same arguments and assertions,
that check-real ran one process (and one JVM) apiece: the exported
replay_spark.py files exactly as downloaded, then compare.py on what they
wrote; backfill_spark.py, scenario_backfills.py and lateness.py.

Starting Spark, and warming it up, was much of a small check's time, so
they share one SparkContext:

- Each check gets a session of its own (`newSession()`: its own SQL
  settings, temporary views and functions), which the scripts' own
  `SparkSession.builder...getOrCreate()` returns, with their runtime
  settings applied to it alone; `stop()` is a no-op while they run, so one
  script's end does not end Spark for the next.
- Settings only a new JVM could take are the ones below for every check:
  a local master with two threads (lateness.py asked for one; its SQL gives
  the same rows), one warehouse folder (the backfill checks make and drop
  their own databases in it), and Hadoop's local file system setting file
  permissions without a process per file (java/NioLocalFileSystem.java).
- One after another: the backfill checks make and drop the databases
  bronze, silver, gold and ops, which the exported backfill jobs name.
  (Two lanes at once were no faster: the two cores are busy already, a
  third of it the JIT compiling Spark itself, which one JVM does once.)

No check needs a fresh JVM.

usage: spark_checks.py <folder written by partition-lab-export>
Prints each check's own output, then one line "PASS|FAIL <seconds>
<name>", and exits 1 if any failed. Spark's own log goes to stderr.
"""
import glob
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

import pyspark
from pyspark.sql import SparkSession

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import backfill_spark  # noqa: E402
import compare  # noqa: E402
import lateness  # noqa: E402
import scenario_backfills  # noqa: E402


def replay(folder):
    """The exported replay_spark.py as `python replay_spark.py` runs it:
    its folder first on the import path (its state.py), which it leaves
    for the next replay."""
    def run():
        sys.path.insert(0, folder)
        try:
            runpy.run_path(os.path.join(folder, "replay_spark.py"), run_name="__main__")
        finally:
            sys.path.remove(folder)
            sys.modules.pop("state", None)
    return run


def checks(out):
    """Each check, in order: its name and the steps it runs."""
    out = os.path.abspath(out)
    week, scen = os.path.join(out, "state-write"), os.path.join(out, "scenarios")
    compared = lambda folder: lambda: compare.main(
        ["compare.py", os.path.join(folder, "expected.json"), os.path.join(folder, "results.json"), "Spark"])
    return [
        ("State x Write on Spark", [replay(week), compared(week)]),
        ("scenarios 1 to 3 and 6 on Spark (no merges), on the chapter's data and a student's", [replay(scen), compared(scen)]),
        ("the backfill lab's Spark job on Spark",
         [lambda: backfill_spark.main(["backfill_spark.py", os.path.join(out, "backfill-spark")])]),
        ("a withdrawn day on Spark: emptied by a targeted overwrite, kept by a dynamic one",
         [lambda: backfill_spark.main(["backfill_spark.py", os.path.join(out, "backfill-spark-withdrawn")])]),
        ("scenarios 4 and 5: each backfill design's Spark job on Spark",
         [lambda: scenario_backfills.main(["scenario_backfills.py", os.path.join(out, "scenario-backfills")])]),
        ("your-data lateness query on Spark SQL",
         [lambda: lateness.main(["lateness.py", os.path.join(out, "lateness"), "spark"])]),
    ]


class Sessions:
    """The session the builder returns to the check under way."""

    def __init__(self, root):
        self.root, self.session = root, None
        self.get_or_create = SparkSession.Builder.getOrCreate
        sessions = self

        def get_or_create(builder):
            session = sessions.session
            module = SparkSession._get_j_spark_session_module(session._jvm)
            module.applyModifiableSettings(session._jsparkSession, builder._options)
            return session

        SparkSession.Builder.getOrCreate = get_or_create
        self.stop = SparkSession.stop
        SparkSession.stop = lambda self: None

    def fresh(self):
        """A new session for the next check."""
        self.session = self.root.newSession()
        jvm_class = SparkSession._get_j_spark_session_class(self.root._jvm)
        jvm_class.setActiveSession(self.session._jsparkSession)
        return self.session

    def restore(self):
        SparkSession.Builder.getOrCreate = self.get_or_create
        SparkSession.stop = self.stop


def status_of(step):
    """A step's exit status, as `python script` would have ended; like a
    process of its own, it leaves the next step the folder it started in."""
    cwd = os.getcwd()
    try:
        step()
        return 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        # sys.exit("message") prints the message and ends with status 1.
        print(e.code)
        return 1
    except Exception:
        traceback.print_exc(file=sys.stdout)
        return 1
    finally:
        os.chdir(cwd)


def local_file_system(classes):
    """Compiles java/NioLocalFileSystem.java into `classes` against
    PySpark's jars: the settings that use it, or none without a javac."""
    javac = shutil.which("javac")
    if javac is None:
        print("(no javac: Spark writes with Hadoop's own local file system, one chmod process per file)")
        return {}
    jars = os.path.join(os.path.dirname(pyspark.__file__), "jars", "*")
    source = os.path.join(HERE, "java", "NioLocalFileSystem.java")
    made = subprocess.run([javac, "-nowarn", "--release", "17", "-cp", jars, "-d", classes, source],
                          capture_output=True, text=True)
    if made.returncode != 0 or not glob.glob(os.path.join(classes, "partitionlab", "*.class")):
        print(f"error: javac could not build {source}:\n{made.stderr}")
        sys.exit(1)
    return {"spark.hadoop.fs.file.impl": "partitionlab.NioLocalFileSystem",
            "spark.driver.extraClassPath": classes}


def main():
    out = sys.argv[1]
    scratch = tempfile.mkdtemp(prefix="spark-checks-")
    builder = (
        SparkSession.builder.master("local[2]")
        .appName("partition-lab-checks")
        .config("spark.sql.warehouse.dir", os.path.join(scratch, "warehouse"))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    for key, value in local_file_system(os.path.join(scratch, "classes")).items():
        builder = builder.config(key, value)
    root = builder.getOrCreate()
    root.sparkContext.setLogLevel("ERROR")
    context = root.sparkContext
    sessions = Sessions(root)
    failed = 0
    try:
        for name, steps in checks(out):
            start = time.monotonic()
            sessions.fresh()
            status = 0
            for step in steps:
                status = status_of(step)
                if status != 0:
                    break
            # A check that ended Spark would make the next ones fail: none may.
            if context._jsc is None:
                print(f"{name}: Spark was stopped by the check")
                status = 1
            failed += status != 0
            print(f"{'PASS' if status == 0 else 'FAIL'} {time.monotonic() - start:.0f} {name}", flush=True)
            if context._jsc is None:
                break
            root.catalog.clearCache()
    finally:
        sessions.restore()
        if context._jsc is not None:
            root.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

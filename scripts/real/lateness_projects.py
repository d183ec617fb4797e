"""Runs the lateness lab's downloadable projects for one tool as a user
would: each tar exactly as the page makes it, unpacked into a folder of its
own and run with `python replay.py`, as its README says. The orders its
replay never books must be exactly the ones the lab says arrive after
their day is final, by id, none booked twice; and some profile's month must
tell each lateness from the next, or a wrong one would pass.

usage: lateness_projects.py <folder written by partition-lab-export>/lateness-projects <SQLMesh|Dagster>
(run with the Python that has the tool: the replay runs with it)
"""
import json
import os
import subprocess
import sys
import tarfile
import tempfile


def run(folder, case):
    """The replay's result.json, after running the unpacked project."""
    with tempfile.TemporaryDirectory(prefix="lateness-project-") as work:
        with tarfile.open(os.path.join(folder, case["tar"])) as tar:
            # The safe extraction filter where this Python has it (3.11.4 on).
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(work, **safe)
        (root,) = os.listdir(work)
        project = os.path.join(work, root)
        done = subprocess.run([sys.executable, "replay.py"], cwd=project, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise RuntimeError(f"replay.py failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        with open(os.path.join(project, "result.json")) as f:
            result = json.load(f)
        with open(os.path.join(project, "late_orders.txt")) as f:
            listed = f.read().split()
        if listed != result["never"]:
            raise RuntimeError("late_orders.txt and result.json disagree")
        return result, done.stdout.strip().splitlines()


def main():
    folder, tool = os.path.abspath(sys.argv[1]), sys.argv[2]
    with open(os.path.join(folder, "expected.json")) as f:
        cases = [c for c in json.load(f) if c["tool"] == tool]
    if not cases:
        print(f"{tool} lateness projects: none to run")
        sys.exit(1)
    failed = 0
    counts = {}
    for case in cases:
        label = f"{tool} {case['lateness']} on {case['profile']}"
        want = sorted(case["never"])
        counts.setdefault(case["profile"], {})[case["lateness"]] = len(want)
        try:
            result, said = run(folder, case)
        except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
            print(f"{label}: {e}")
            failed += 1
            continue
        never = sorted(result["never"])
        # The month as the lab counts it, so an empty load cannot pass as
        # "every order booked".
        if result["orders"] != case["orders"]:
            print(f"{label}: the replay read {result['orders']} of the month's orders, the lab has {case['orders']}")
            failed += 1
            continue
        if never == want and result["twice"] == 0:
            print(f"{label}: the downloaded project never books {len(never)} of {result['orders']} orders, "
                  f"exactly the lab's late ones, in {result['runs']} runs ({said[-1] if said else ''})")
            continue
        failed += 1
        extra = sorted(set(never) - set(want))[:5]
        missing = sorted(set(want) - set(never))[:5]
        print(f"{label}: never books {len(never)}, the lab says {len(want)} miss their day; "
              f"not booked but on time {extra}, booked but late {missing}, booked twice {result['twice']}")
    told_apart = any(
        all(a > b for a, b in zip(seq, seq[1:]))
        for seq in ([c[k] for k in ("l0", "l2", "l7") if k in c] for c in counts.values())
        if len(seq) == 3
    )
    if not told_apart:
        print(f"{tool} lateness projects: no profile's late orders fall strictly with the lateness, so nothing told them apart")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

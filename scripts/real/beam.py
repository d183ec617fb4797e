"""Runs a Beam pipeline the lab exports (Apache Beam's DirectRunner) on
each case of a folder and checks the events Beam drops as late are the
ones the lab says arrive after their day is final: the same count and the
same ids, at each allowed lateness. The cases: the lateness lab's pipeline
on each built-in profile's month and each test log, zone and run time
(`lateness-beam`), and scenario 3's designs with a finaliser, each as the
page's Beam block over the scenario's bronze (`scenario-beam`).

usage: beam.py <folder written by partition-lab-export>/<lateness-beam|scenario-beam> <python>
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    folder, python = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    if not cases:
        print("Beam: no cases to compare")
        sys.exit(1)
    failed = 0
    for case in cases:
        csv = os.path.join(folder, case["csv"])
        if not os.path.exists(csv):
            csv = case["csv"]
        days = ",".join(case["dropped"])
        with tempfile.TemporaryDirectory() as out:
            got_path = os.path.join(out, "got.json")
            run = subprocess.run(
                [python, os.path.join(folder, case["script"]), csv, "--lateness", days, "--json", got_path],
                capture_output=True,
                text=True,
            )
            if run.returncode != 0:
                failed += 1
                print(f"Beam: {case['name']}: the pipeline failed\n{run.stderr[-3000:]}")
                continue
            with open(got_path) as f:
                got = json.load(f)
        problems = []
        for key in ("read", "left_out"):
            if got[key] != case[key]:
                problems.append(f"{key}: lab {case[key]}, Beam {got[key]}")
        for l, ids in case["dropped"].items():
            mine = got["dropped"].get(l)
            if mine != ids:
                lab, beam = set(ids), set(mine or [])
                problems.append(
                    f"at {l} day(s): lab {len(ids)}, Beam {len(mine or [])}; "
                    f"only the lab: {sorted(lab - beam)[:5]}, only Beam: {sorted(beam - lab)[:5]}"
                )
        # A case where nothing is ever dropped, or everything, proves little.
        counts = [len(ids) for ids in case["dropped"].values()]
        if problems:
            failed += 1
            print(f"Beam disagrees with the lab on {case['name']}:")
            for p in problems:
                print(f"  {p}")
        elif max(counts) == 0:
            failed += 1
            print(f"Beam: {case['name']}: no event is late at any lateness: nothing to compare")
        else:
            shown = ", ".join(f"{l}: {len(ids)}" for l, ids in sorted(case["dropped"].items(), key=lambda kv: int(kv[0])))
            print(f"Beam: {case['name']}: drops exactly the lab's late events of {case['read']} (by lateness, {shown})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

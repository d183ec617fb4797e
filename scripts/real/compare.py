"""Compares what a real tool left in its tables with the engine's answer.

usage: compare.py <expected.json> <results.json> <tool name>
Each file maps a pipeline to {partition: [row ids, sorted]}; pipelines.json
beside expected.json says how each pipeline writes. Prints every
disagreement and exits 1 if there is any, if a pipeline the engine answered
is missing from the tool's results (unless the tool cannot express it, by
the list below), or if nothing was compared.
"""
import json
import os
import sys

# What each tool's runner cannot express, by the pipeline's write mode, and
# why. A pipeline missing from a tool's results for any other reason fails.
CANNOT_EXPRESS = {
    # Spark's own tables have no MERGE: it needs Delta Lake or Iceberg,
    # whose JARs are not on PyPI and cannot be fetched here.
    "Spark": {"merge": "a merge needs Delta Lake or Iceberg (JARs outside PyPI)"},
    "dbt": {},
}


def main(argv=None):
    expected_path, results_path, tool = (argv or sys.argv)[1:4]
    with open(expected_path) as f:
        expected = json.load(f)
    with open(results_path) as f:
        results = json.load(f)
    with open(os.path.join(os.path.dirname(expected_path), "pipelines.json")) as f:
        writes = {p["name"]: p["write"] for p in json.load(f)}
    cannot = CANNOT_EXPRESS[tool]
    compared, wrong = 0, []
    for name, parts in sorted(results.items()):
        want = expected.get(name)
        if want is None:
            wrong.append(f"{name}: not in the engine's answer")
            continue
        compared += 1
        for dt in sorted(set(want) | set(parts)):
            a, b = want.get(dt, []), parts.get(dt, [])
            if a != b:
                wrong.append(f"{name} {dt}: engine {len(a)} row(s) {a[:6]}, {tool} {len(b)} row(s) {b[:6]}")
    excused = {}
    for name in sorted(set(expected) - set(results)):
        why = cannot.get(writes.get(name))
        if why:
            excused.setdefault(why, []).append(name)
        else:
            wrong.append(f"{name}: the engine answered it, {tool} produced nothing")
    if any(not parts for parts in expected.values()):
        wrong.append("a pipeline with no rows in the engine's answer compares nothing")
    print(f"{tool}: {compared} of {len(expected)} pipeline(s) compared partition by partition, "
          f"{len(wrong)} disagreement(s)")
    for why, names in excused.items():
        print(f"  not expressible on {tool} ({why}): {len(names)}: {', '.join(names)}")
    for line in wrong[:40]:
        print("  " + line)
    sys.exit(1 if wrong or compared == 0 else 0)


if __name__ == "__main__":
    main()

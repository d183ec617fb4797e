"""Compares what a real tool left in its tables with the engine's answer.

usage: compare.py <expected.json> <results.json> <tool name>
Each file maps a pipeline to {partition: [row ids, sorted]}. Prints every
disagreement and exits 1 if there is any.
"""
import json
import sys


def main():
    expected_path, results_path, tool = sys.argv[1:4]
    with open(expected_path) as f:
        expected = json.load(f)
    with open(results_path) as f:
        results = json.load(f)
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
    missing = sorted(set(expected) - set(results))
    print(f"{tool}: {compared} pipeline(s) compared partition by partition, {len(wrong)} disagreement(s)"
          + (f"; not run on {tool}: {len(missing)}" if missing else ""))
    for line in wrong[:40]:
        print("  " + line)
    sys.exit(1 if wrong or compared == 0 else 0)


if __name__ == "__main__":
    main()

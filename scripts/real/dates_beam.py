"""Proves the dates page's Beam column on Apache Beam's DirectRunner: for
each case, a daily event-time window (FixedWindows of a day) with the
case's allowed lateness, and two replays of the runs after day d: one where
each run first moves the watermark to midnight of its day (`runs`), one
where it moves it to the run time itself (`at_run_time`). Each run adds one
element of day d (event time d 12:00 UTC) tagged with the run; Beam must
keep exactly the runs' elements the page marks `accepts` and drop the rest
as late, and put them in the page's `window`.

usage: dates_beam.py <folder written by partition-lab-export>/dates
(run with the Python that has Apache Beam)
"""
import json
import os
import sys
import tempfile
from datetime import datetime

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions
from apache_beam.testing.test_stream import TestStream
from apache_beam.transforms.trigger import AccumulationMode, AfterCount, AfterWatermark
from apache_beam.transforms.window import FixedWindows, TimestampedValue
from apache_beam.utils.timestamp import Duration, Timestamp

DAY = 24 * 60 * 60


def seconds(instant):
    """An instant as the page writes it, in seconds since the epoch."""
    return datetime.fromisoformat(instant).timestamp()


def iso(ts):
    return Timestamp.to_utc_datetime(ts).strftime("%Y-%m-%dT%H:%M:%S+00:00")


class Collect(beam.DoFn):
    """Writes each pane's window and tags, one line per pane (a file: the
    runner works on copies of this object)."""

    def __init__(self, path):
        self.path = path

    def process(self, keyed, window=beam.DoFn.WindowParam, pane=beam.DoFn.PaneInfoParam):
        _, tags = keyed
        with open(self.path, "a") as f:
            f.write(json.dumps({"window": [iso(window.start), iso(window.end)],
                                "timing": str(pane.timing), "tags": sorted(tags)}) + "\n")


def replay(day, lateness_days, runs):
    """The panes Beam emits when each run moves the watermark to its
    `watermark`, then adds one element of `day` at noon tagged with the run."""
    noon = datetime.fromisoformat(f"{day}T12:00:00+00:00")
    stream = TestStream()
    for r in runs:
        stream = stream.advance_watermark_to(seconds(r["watermark"])).add_elements(
            [TimestampedValue(r["run"], noon.timestamp())]
        )
    stream = stream.advance_watermark_to_infinity()
    options = PipelineOptions(["--runner=DirectRunner"])
    options.view_as(StandardOptions).streaming = True
    with tempfile.TemporaryDirectory(prefix="dates-beam-") as out:
        path = os.path.join(out, "panes.jsonl")
        with beam.Pipeline(options=options) as p:
            (
                p
                | stream
                | beam.WindowInto(
                    FixedWindows(DAY),
                    # Fires on time, then once per late element, as long as
                    # Beam keeps it: an element Beam drops fires nothing.
                    trigger=AfterWatermark(late=AfterCount(1)),
                    accumulation_mode=AccumulationMode.DISCARDING,
                    allowed_lateness=Duration(seconds=lateness_days * DAY),
                )
                | beam.Map(lambda tag: (None, tag))
                | beam.GroupByKey()
                | beam.ParDo(Collect(path))
            )
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f]


def main():
    folder = os.path.abspath(sys.argv[1])
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    if not cases:
        print("Beam dates: no case to compare")
        sys.exit(1)
    failed = 0
    for case in cases:
        want = case["beam"]
        for variant in ("runs", "at_run_time"):
            runs = want[variant]
            name = f"Beam dates d={case['day']} L={case['lateness']} ({variant})"
            if not runs:
                failed += 1
                print(f"{name}: no run to replay")
                continue
            panes = replay(case["day"], want["allowed_lateness_days"], runs)
            wrong = []
            kept = [t for pane in panes for t in pane["tags"]]
            if len(kept) != len(set(kept)):
                wrong.append(f"some element came out twice: {kept}")
            for pane in panes:
                if pane["window"] != want["window"]:
                    wrong.append(f"Beam put {pane['tags']} in window {pane['window']}, the page says {want['window']}")
            for r in runs:
                beam_keeps = r["run"] in kept
                if beam_keeps != r["accepts"]:
                    wrong.append(
                        f"run {r['run']} (watermark {r['watermark']}): Beam "
                        f"{'keeps' if beam_keeps else 'drops'} its element of day d, the page says "
                        f"{'accepts' if r['accepts'] else 'drops'}"
                    )
            extra = sorted(set(kept) - {r["run"] for r in runs})
            if extra:
                wrong.append(f"Beam emitted elements of no run: {extra}")
            if wrong:
                failed += 1
                print(f"{name}: Beam disagrees with the page:")
                for w in wrong:
                    print(f"  {w}")
            else:
                kept_runs = [r for r in runs if r["accepts"]]
                through = (f"the runs through {kept_runs[-1]['run']} (watermark {kept_runs[-1]['watermark']})"
                           if kept_runs else "no run")
                print(f"{name}: Beam keeps day d's elements of exactly {through} in window "
                      f"{want['window'][0]}..{want['window'][1]}, and drops the other {len(runs) - len(kept_runs)} as late")
        # Some run must be kept and some dropped, or a wrong lateness passes.
        every = [r["accepts"] for v in ("runs", "at_run_time") for r in want[v]]
        if all(every) or not any(every):
            failed += 1
            print(f"Beam dates d={case['day']}: the page's runs all accept or all drop: nothing tells the lateness apart")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

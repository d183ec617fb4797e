"""Allowed lateness of {{lateness_words}} in Apache Beam, from Partition Lab's lateness lab.

Written for and proven on {{versions}}. On Flink the
same setting is `.allowedLateness(Time.days(L))` on a daily event-time window
(Flink's default is 0), and `.sideOutputLateData(tag)` keeps what it drops.

The lab's rule: partition d (the events of day d in {{zone}}) is rebuilt by
each daily run at {{run}} until the run on day d+1+L, the last that may change
it; an event that arrives after that run misses its day. Beam's rule: an
element is dropped when the watermark is past its window's end plus the
allowed lateness. The two agree when each run first moves the watermark to
midnight of its own day, then reads what arrived since the run before (the
replay below does this): the run on d+1+L sets it to exactly the end of day
d plus L days, not past it. A watermark at the run time itself would need
L days and {{run}} more to keep the same rows.
{{convention}}

usage: python {{file}} arrivals.csv [--lateness 0,1,3] [--json out.json]
needs: pip install "apache-beam=={{beam}}.*" (and tzdata where the system has
no time zone files). Prints, for each allowed lateness, how many events
Beam dropped as late and which (by {{id_words}}).
"""

import argparse
import csv
import json
import os
import re
import sys
import tempfile
from datetime import datetime, time, timedelta, timezone
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

import apache_beam as beam
{{coders}}from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions
from apache_beam.testing.test_stream import TestStream
from apache_beam.transforms.window import {{window_names}}
from apache_beam.utils.timestamp import Duration

ALLOWED_LATENESS_DAYS = {{l}}
DAY = 24 * 60 * 60
HOUR = 60 * 60
ZONE = {{zone_literal}}
RUN_TIME = time({{hour}}, {{minute}})
COLUMNS = {
    "event": {{event}},
    "arrival": {{arrival}},
    "value": {{value}},
    "id": {{id}},
}


def midnight(day):
    """The start of `day` in ZONE, in seconds since the epoch."""
    return datetime.combine(day, time(0), tzinfo=ZoneInfo(ZONE)).timestamp()


def windowed(lateness_days=ALLOWED_LATENESS_DAYS):
    """Daily event-time windows that still take an element `lateness_days`
    after their day; each late firing emits what is new since the last, as
    an adjustment to the day."""
    return beam.WindowInto(
        {{window}},
        allowed_lateness=Duration(seconds=lateness_days * DAY{{extra}}),
    ){{local_days}}


# --- Replaying the log as the daily runs saw it --------------------------
# Everything below feeds a CSV log through `windowed` on Beam's
# DirectRunner: each row enters the stream at the first daily run at or
# after its arrival, and that run first moves the watermark to midnight of
# its own day, so Beam drops exactly the rows the lab says arrive after
# their day is final.

# The times the lab reads: ISO 8601 with a space or T, seconds and a
# fraction optional, an offset, Z or none (none is UTC).
TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
    r" ?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?"
)
# Plain decimals: no exponent, no separators, 15 whole and 10 fraction digits.
VALUE = re.compile(r"[+-]?(\d*)(?:\.(\d*))?")


def read_time(text):
    m = TIME.fullmatch(text.strip())
    if not m:
        return None
    y, mo, d, h, mi, s, frac, _z, sign, oh, om = m.groups()
    if (oh and int(oh) > 23) or (om and int(om) > 59):
        return None
    try:
        local = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s or 0))
    except ValueError:
        return None
    # Nanoseconds kept as a count: Python's datetimes stop at microseconds.
    nanos = int((frac or "").ljust(9, "0"))
    offset = timedelta(hours=int(oh or 0), minutes=int(om or 0))
    utc = local - offset if sign != "-" else local + offset
    return utc.replace(tzinfo=timezone.utc), nanos


def read_value(text):
    m = VALUE.fullmatch(text.strip())
    if not m:
        return None
    whole, fraction = m.group(1), m.group(2) or ""
    if (not whole and not fraction) or len(whole.lstrip("0")) > 15 or len(fraction) > 10:
        return None
    try:
        return abs(Decimal(text.strip()))
    except InvalidOperation:
        return None


def rows(path):
    """(id, event, arrival) for each row the lab reads; the rest counted."""
    kept, left_out = [], 0
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = None
        for record in reader:
            if header is None:
                names = [n.strip().lower() for n in record]
                if all(not n for n in names):
                    continue
                # A name the header has twice: the first, as the lab reads it.
                header = {}
                for i, n in enumerate(names):
                    header.setdefault(n, i)
                missing = [c for c in COLUMNS.values() if c and c.lower() not in header]
                if missing:
                    sys.exit(f"{path}: no column {missing[0]!r} in the header row")
                continue
            # A blank line is no row (the csv module reads it as no fields).
            if not record or (len(record) == 1 and not record[0].strip()):
                continue
            field = lambda name: (
                record[header[name.lower()]].strip() if header[name.lower()] < len(record) else ""
            )
            event_text, arrival_text = field(COLUMNS["event"]), field(COLUMNS["arrival"])
            value_text = field(COLUMNS["value"]) if COLUMNS["value"] else "1"
            event, arrival = read_time(event_text), read_time(arrival_text)
            if not (event_text and arrival_text and value_text) or not event or not arrival:
                left_out += 1
                continue
            if read_value(value_text) is None or arrival < event or not dated(event[0]):
                left_out += 1
                continue
            row_id = field(COLUMNS["id"]) if COLUMNS["id"] else str(reader.line_num)
            kept.append((row_id, event, arrival))
    return kept, left_out


def dated(at):
    """Whether the lab dates `at`: its zones' rules are held since 2008."""
    return ZONE == "UTC" or at.year >= 2008


def first_run_day(arrival):
    """The local day of the first daily run at or after `arrival`."""
    at, nanos = arrival
    day = at.astimezone(ZoneInfo(ZONE)).date()
    run = run_instant(day)
    return day if (at, nanos) <= (run, 0) else day + timedelta(days=1)


def run_instant(day):
    # fold=0: a run time the clocks skip runs as if they had not changed,
    # one they repeat runs at its first occurrence (as the lab).
    return datetime.combine(day, RUN_TIME, tzinfo=ZoneInfo(ZONE)).astimezone(timezone.utc)


def seconds(at):
    """A Beam timestamp: microseconds, so a fraction rounds down."""
    t, nanos = at
    return t.replace(microsecond=0).timestamp() + (nanos // 1000) / 1e6


def replay(kept):
    """The log as a stream: each run moves the watermark, then reads."""
    by_run = {}
    for row_id, event, arrival in kept:
        by_run.setdefault(first_run_day(arrival), []).append(
            TimestampedValue(row_id, seconds(event))
        )
    stream = TestStream()
    for day in sorted(by_run):
        stream = stream.advance_watermark_to(midnight(day)).add_elements(by_run[day])
    return stream.advance_watermark_to_infinity()


class Collect(beam.DoFn):
    """Writes every id a window's panes emit, one line per pane (a file,
    since the runner works on copies of this object)."""

    def __init__(self, path):
        self.path = path

    def process(self, keyed):
        _, ids = keyed
        with open(self.path, "a") as f:
            f.write(json.dumps(list(ids)) + "\n")


def emitted(path):
    try:
        with open(path) as f:
            return [row_id for line in f for row_id in json.loads(line)]
    except FileNotFoundError:
        return []


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="the arrival log, with a header row")
    parser.add_argument(
        "--lateness",
        default=str(ALLOWED_LATENESS_DAYS),
        help="allowed lateness in days, or several separated by commas",
    )
    parser.add_argument("--json", help="write the ids Beam dropped here")
    args = parser.parse_args(argv)
    days = [int(d) for d in args.lateness.split(",")]
    kept, left_out = rows(args.csv)
    options = PipelineOptions(["--runner=DirectRunner"])
    options.view_as(StandardOptions).streaming = True
    out = tempfile.mkdtemp(prefix="lateness-beam-")
    with beam.Pipeline(options=options) as p:
        stream = p | replay(kept)
        for l in days:
            (
                stream
                | f"Window {l}" >> windowed(l)
                | f"Key {l}" >> beam.Map(lambda row_id: (None, row_id))
                | f"Group {l}" >> beam.GroupByKey()
                | f"Collect {l}" >> beam.ParDo(Collect(os.path.join(out, f"{l}.jsonl")))
            )
    every = [row_id for row_id, _, _ in kept]
    report = {"read": len(every), "left_out": left_out, "dropped": {}}
    for l in days:
        survived = set(emitted(os.path.join(out, f"{l}.jsonl")))
        dropped = [row_id for row_id in every if row_id not in survived]
        report["dropped"][str(l)] = dropped
        print(
            f"allowed lateness {l} day{'' if l == 1 else 's'}: Beam dropped {len(dropped)} of {len(every)} "
            f"event{'' if len(every) == 1 else 's'} as late{': ' + ', '.join(dropped[:5]) + (' ...' if len(dropped) > 5 else '') if dropped else ''}"
        )
    if left_out:
        print(f"({left_out} row{'' if left_out == 1 else 's'} left out, as the lab does: a time or value that does not read, "
              "an arrival before its event, or before 2008 in a zone other than UTC)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f)


if __name__ == "__main__":
    main()

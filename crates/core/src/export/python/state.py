"""A pipeline's processing state, kept as Partition Lab defines it.

Written by Partition Lab. The runner next to this file asks the real tool
to read and write; this module decides what each run may read (its
watermark, the partitions its list rebuilds, or its trailing window) and when the state moves
on: after a successful write, or before it when the pipeline commits
first. A crash falls between the two steps.
"""
from datetime import date, datetime, timedelta


def parse_day(text):
    return date.fromisoformat(text)


def parse_at(text):
    return datetime.fromisoformat(text)


class State:
    def __init__(self, spec, start, finaliser=None):
        self.spec = spec
        self.start = parse_day(start)
        self.mark = None  # a watermark: the newest value read so far
        self.done = set()  # a partition list: the dates completed
        self.finaliser = finaliser
        self.final_through = None  # partitions up to this date are final

    def blocks_final(self):
        """Whether final partitions are closed to writes (not when late rows reopen them)."""
        return self.finaliser is not None and self.finaliser["after"] != "reopen"

    def finalise(self, day):
        """After a successful run for `day`: every partition up to day - L is final."""
        if self.finaliser is None:
            return
        last = day - timedelta(days=self.finaliser["lateness"])
        if last >= self.start and (self.final_through is None or last > self.final_through):
            self.final_through = last

    def kind(self):
        return self.spec["kind"]

    def targets(self, day):
        """The partitions a run rebuilds. A list: every date not yet done,
        plus the run's day and the lookback days before it. A trailing
        window: the run's day and the days before it, remembering nothing."""
        if self.kind() == "window":
            first = max(day - timedelta(days=self.spec["days"]), self.start)
            return [first + timedelta(days=n) for n in range((day - first).days + 1)]
        window = max(day - timedelta(days=self.spec["lookback"]), self.start)
        out, d = [], self.start
        while d <= day:
            if d not in self.done or d >= window:
                out.append(d)
            d += timedelta(days=1)
        return out

    def next_after(self, targets, newest):
        """The state a successful run leaves behind."""
        if self.kind() == "watermark":
            if newest is None:
                return self.mark
            return newest if self.mark is None else max(self.mark, newest)
        if self.kind() == "list":
            return self.done | set(targets)
        return None

    def save(self, value):
        if self.kind() == "watermark":
            self.mark = value
        elif self.kind() == "list":
            self.done = value


def steps(pipeline):
    """The pipeline's attempts in order, each with whether its write and
    its state save happen (a crash skips the second step)."""
    before = pipeline["commit"] == "before"
    for attempt in pipeline["attempts"]:
        crashes = attempt["crashes"]
        write = not (crashes and before)
        save = not (crashes and not before)
        yield attempt, before, write, save

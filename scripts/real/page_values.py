"""What the dates checks share: the page's instants read back, and a short
account of how a tool's list differs from the page's."""
import datetime


def instant(text):
    return datetime.datetime.fromisoformat(text)


def differs(got, want, noun):
    """got against the page's want, shortly: what one has that the other lacks."""
    more = [x for x in got if x not in want]
    fewer = [x for x in want if x not in got]
    if not more and not fewer:
        return f"{got} (the page's {noun}s in another order or repeated: {want})"
    return (f"{len(got)} {noun}(s), the page {len(want)}"
            + (f"; not on the page: {', '.join(map(str, more))}" if more else "")
            + (f"; missing: {', '.join(map(str, fewer))}" if fewer else ""))

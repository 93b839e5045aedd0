"""Moments a number may be worked out from: the dates, clock times and timestamps the evidence
shows, and the spans between them.

A number no evidence states is often a distance between two visible moments: "9 days between
them" after two dates written just before it, "the window opens at 03:40" from a dose given at
09:40 and a span the sentence gives, the age of a ticket from two timestamps that cross midnight.
``_reach.span_between`` decides with these time lines whether such a span is no sign of invention.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Sequence

from ._claim import Claim
from ._index import EvidenceIndex
from ._quantity import Quantity

_PLAIN_YEAR = 2023  # for dates written without a year: one that is not a leap year


def days_between(q: Quantity, near: Sequence[tuple[int, int, int | None]]) -> str | None:
    """The two dates written near a span of days or weeks that it is the distance between."""
    days = q.value / 86400.0
    for (m1, d1, y1), (m2, d2, y2) in itertools.combinations(dict.fromkeys(near), 2):
        year = y1 or y2 or _PLAIN_YEAR
        try:
            apart = abs((datetime.date(y2 or year, m2, d2) - datetime.date(y1 or year, m1, d1)).days)
        except ValueError:
            continue
        if apart and abs(apart - days) <= q.step / 86400.0 / 2:
            return f"{apart} days lie between {d1}/{m1} and {d2}/{m2}, written before it"
    return None


def clock_after(claim: Claim, index: EvidenceIndex) -> str | None:
    """A visible clock time plus or minus a span the claim's sentence gives that is the claim's
    time, to the minute: "09:40 yesterday, so the 18-24h window ran 03:40-09:40". Spans elsewhere
    are not tried: whole hours from anywhere reach any round time."""
    target = clock_minutes(claim.value or "00:00")
    spans = {q.value / 60.0 for q in claim.operands if q.family == "duration" and 0 < q.value <= 2 * 86400}
    clocks = {clock_minutes(c) for r in index.rows for c in r.clocks}
    for clock in sorted(clocks):
        for span in sorted(spans):
            for sign in (1, -1):
                if abs((clock + sign * span - target + 720) % 1440 - 720) < 0.5:
                    return f"{clock // 60:02d}:{clock % 60:02d} {'+' if sign > 0 else '-'} {span:g} minutes"
    return None


def timelines(index: EvidenceIndex, claim: Claim) -> tuple[list[float], list[float], list[float]]:
    """The visible dates (and those written near the claim) as seconds on one time line, the
    visible clock times as seconds of a day on another, and the visible timestamps (a date with
    its time, "2025-02-13T18:05:00Z") on a third, where a span may cross midnight."""
    days: list[float] = []
    for month, day, year in {*(d for r in index.rows for d in r.dates), *claim.near_dates}:
        try:
            days.append(datetime.date(year or _PLAIN_YEAR, month, day).toordinal() * 86400.0)
        except ValueError:
            continue
    times = {clock_minutes(c) * 60.0 for r in index.rows for c in r.clocks}
    stamps: set[float] = set()
    for text in index.texts:
        for m in _TIMESTAMP.finditer(text.text):
            try:
                day = datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).toordinal()
            except ValueError:
                continue
            stamps.add(day * 86400.0 + int(m.group(4)) * 3600.0 + int(m.group(5)) * 60.0 + int(m.group(6) or 0))
    return days, sorted(times - {stamp % 86400.0 for stamp in stamps}), sorted(stamps)  # each moment once


_TIMESTAMP = re.compile(r"\b((?:19|20)\d\d)-([01]\d)-([0-3]\d)[T ]([0-2]\d):([0-5]\d)(?::([0-5]\d))?")


def clock_minutes(clock: str) -> int:
    """Minutes since midnight of an ``hh:mm`` clock time."""
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)

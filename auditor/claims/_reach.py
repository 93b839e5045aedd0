"""Whether a number no evidence states is the time between two visible moments.

An age or an interval is often worked out from two dates or two timestamps the evidence shows
and never written down: ``"age_days": 167`` from a key last rotated on 2024-06-18 and a report
dated 2024-12-02; "29 days" until a deadline; "51 s" between two log lines. Such a number is no
sign of invention, so the claim goes to the grader rather than being called ``invented``.

Where many spans lie near the claim's magnitude (a log of many timestamps), one of them falling
within its written precision is chance and tells nothing, so a hit counts only where such spans
are rare. A span never grounds a claim: it only keeps the pass from calling it invented.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from ._quantity import Quantity

_MAX_MOMENTS = 60
_TIME_UNITS = (1.0, 60.0, 3600.0, 86400.0, 604800.0)  # a bare number may count any of them
_DAYS_IN_MONTH = 30.44
_NEAR = 1.5  # spans within this factor of the claim measure how crowded its magnitude is
_CHANCE = 0.2  # a hit counts when fewer spans than this would fall within the precision by chance


def span_between(claim: Quantity, timelines: Iterable[Iterable[float]]) -> bool:
    """Whether the span between two moments of one of the ``timelines`` (seconds: the days of
    the visible dates on one, the clock times of a day on another) gives the claim's number
    within its written precision, in a unit of time its family allows."""
    target = abs(claim.value)
    results = [value for line in timelines for span in _spans(line) for value in _in_units(claim, span)]
    if not results or not target:
        return False
    tolerance = max(claim.step / 2.0, target * (0.05 if claim.approx else 0.0)) + 1e-9
    truncates = claim.step >= 1 and not claim.approx  # as ``close``: "14 days" may be 14.6 days
    if not any(abs(r - target) <= tolerance or truncates and 0 <= r - target < claim.step for r in results):
        return False
    window = (tolerance + (claim.step if truncates else tolerance)) / target  # the width results may fall in
    near = sum(1 for r in results if target / _NEAR < r < target * _NEAR)
    return near * window / (2.0 * math.log(_NEAR)) <= _CHANCE


def _spans(moments: Iterable[float]) -> list[float]:
    points = sorted(set(moments))[-_MAX_MOMENTS:]  # the latest: a report's own date comes last
    return [b - a for a, b in itertools.combinations(points, 2)]


def _in_units(claim: Quantity, span: float) -> tuple[float, ...]:
    """A span (seconds) as values of the claim's family: seconds for a duration, months for a
    calendar span, and for a bare number or a count any unit of time."""
    if claim.family == "duration":
        return (span,)
    if claim.family == "calendar":
        return (span / 86400.0 / _DAYS_IN_MONTH,)
    if claim.family is None or claim.family == "count":
        return tuple(span / unit for unit in _TIME_UNITS)
    return ()

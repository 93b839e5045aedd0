"""Whether a clock time no evidence states is a visible time in another time zone.

Schedules cross zones: a tool lists ``2025-01-09 15:00`` (UTC) beside ``Asia/Riyadh (+03)``, and
the handoff says "18:00 local". A clock time that is a visible time moved by a visible zone offset
is no sign of invention, so the claim goes to the grader rather than being called ``invented``.
Offsets are read as written (``+03``, ``-05:00``, ``UTC+5:30``, ``Z``), from IANA names
(``America/New_York``, standard and summer time) and from common abbreviations (``CET``, ``PDT``).

A move counts only into a zone the clock's own row names (a schedule's line, a JSON record), on
the row's date when it has one (summer time), and out of the zone the clock is marked with ("00:00
UTC") when it is: a conversion the wrong way round, or by the wrong season, is still ``invented``.
"""

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Iterable

from ._moments import clock_minutes
from ._quantity import clocks

_OFFSET = r"(?P<sign>[+\-\u2212])(?P<h>[01]?\d)(?::?(?P<m>[0-5]\d))?"
#: "UTC+3", "GMT-05:00", an ISO time's suffix ("T18:00-05:00", "18:00:00+0100"); and "(+03)".
_NUMERIC = (re.compile(rf"(?:\b(?:UTC|GMT)\s?|(?<=T\d\d:\d\d)|(?<=\d\d:\d\d:\d\d)(?:\.\d+)?){_OFFSET}(?![\d:])"),
            re.compile(rf"\(\s*{_OFFSET}\s*\)"))
_UTC = re.compile(r"\b(?:UTC|GMT)\b|(?<=\d\d:\d\d:\d\d)(?:\.\d+)?Z\b|(?<=\d\d:\d\d)Z\b")
_IANA = re.compile(r"\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Z][A-Za-z_]+"
                   r"(?:/[A-Z][A-Za-z_]+)?\b")
#: Abbreviations whose offset is unambiguous in practice (hours; IST is left out: India or Ireland).
_ABBREVIATIONS = {"CET": 1.0, "CEST": 2.0, "EET": 2.0, "EEST": 3.0, "WET": 0.0, "WEST": 1.0, "BST": 1.0,
                  "EST": -5.0, "EDT": -4.0, "CST": -6.0, "CDT": -5.0, "MST": -7.0, "MDT": -6.0, "PST": -8.0,
                  "PDT": -7.0, "AKST": -9.0, "HST": -10.0, "JST": 9.0, "KST": 9.0, "SGT": 8.0, "HKT": 8.0,
                  "AEST": 10.0, "AEDT": 11.0, "NZST": 12.0, "NZDT": 13.0, "WAT": 1.0, "SAST": 2.0, "MSK": 3.0}
_ABBREVIATION = re.compile(rf"\b(?:{'|'.join(_ABBREVIATIONS)})\b")
#: A zone marker right after a clock time: the zone it is written in.
_MARK = re.compile(r"(?::\d\d(?:\.\d+)?)?\s?(?:(?P<utc>UTC|GMT|Z\b)(?:\s?(?P<sign>[+\-\u2212])(?P<h>[01]?\d)"
                   r"(?::?(?P<m>[0-5]\d))?(?![\d:]))?|(?P<sign2>[+\-\u2212])(?P<h2>[01]\d)(?::?(?P<m2>[0-5]\d))?(?![\d:])|"
                   r"(?P<abbr>[A-Z]{3,4})\b)")
_ZONE_HINT = re.compile(r"UTC|GMT|[+\-\u2212][01]?\d(?::?\d\d)?\b|/|[A-Z]{3}")
_DAY = 1440


def offsets(text: str, on: datetime.date | None = None) -> frozenset[int]:
    """The UTC offsets, in minutes, that ``text`` writes or names; a named zone's on the date ``on``,
    else both its winter and its summer offset."""
    found: set[int] = set()
    for m in (m for pattern in _NUMERIC for m in pattern.finditer(text)):
        minutes = _signed(m.group("sign"), m.group("h"), m.group("m"))
        if abs(minutes) <= 14 * 60:
            found.add(minutes)
    if _UTC.search(text):
        found.add(0)
    found.update(round(_ABBREVIATIONS[m.group(0)] * 60) for m in _ABBREVIATION.finditer(text))
    for name in set(_IANA.findall(text)):
        found.update(_zone_offsets(name, on))
    return frozenset(found)


def _zone_offsets(name: str, on: datetime.date | None) -> set[int]:
    """A zone's offsets (minutes) on ``on`` or else in winter and in summer; none if this machine
    has no such zone."""
    try:
        zone = zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return set()
    days = [on] if on is not None else [datetime.date(2025, 1, 15), datetime.date(2025, 7, 15)]
    out = set()
    for day in days:
        offset = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=zone).utcoffset()
        if offset is not None:
            out.add(round(offset.total_seconds() / 60))
    return out


def zone_moved(target: int, rows: Iterable[tuple[str, frozenset[tuple[int, int, int | None]]]]) -> str | None:
    """How the clock time ``target`` (minutes since midnight) is a clock time of a row moved into
    a zone the same row names, or None. ``rows`` are (text, its dates). A clock marked with its own
    zone ("00:00 UTC", "T18:00:00-05:00") moves only out of it; an unmarked one either way."""
    for text, dates in rows:
        if not _ZONE_HINT.search(text):
            continue
        times = clocks(text)
        if not times:
            continue
        on = _one_date(dates)
        zones = offsets(text, on)
        for _start, end, clock in times:
            own = _marked(_MARK.match(text, end))
            moves = {z - o for z in zones | {0} for o in own if z != o} if own else {z for z in zones if z} | {
                -z for z in zones if z}  # a marked time may also be given in UTC
            minutes = clock_minutes(clock)
            for move in sorted(moves):
                if (minutes + move - target) % _DAY == 0:
                    sign = "+" if move > 0 else "-"
                    return f"{clock} {sign} {abs(move) // 60}h{abs(move) % 60:02d}, into a zone its row names"
    return None


def _marked(mark: re.Match[str] | None) -> frozenset[int]:
    """The zone a clock time is written in, from the mark right after it ("15:00 UTC+3", "T18:00:00-05:00",
    "00:00Z", "10:00 CET"); none if unmarked or unknown."""
    if mark is None:
        return frozenset()
    sign, hours, minutes = (mark.group("sign"), mark.group("h"), mark.group("m")) if mark.group("utc") else (
        mark.group("sign2"), mark.group("h2"), mark.group("m2"))
    if hours is not None:
        return frozenset({_signed(sign, hours, minutes)})
    if mark.group("utc"):
        return frozenset({0})
    abbreviation = _ABBREVIATIONS.get(mark.group("abbr") or "")
    return frozenset() if abbreviation is None else frozenset({round(abbreviation * 60)})


def _signed(sign: str, hours: str, minutes: str | None) -> int:
    """An offset as written ("-", "05", "30") in minutes east of UTC."""
    value = int(hours) * 60 + int(minutes or 0)
    return -value if sign in "-\u2212" else value


def _one_date(dates: frozenset[tuple[int, int, int | None]]) -> datetime.date | None:
    if len(dates) != 1:
        return None
    ((month, day, year),) = dates
    try:
        return datetime.date(year or 2025, month, day)
    except ValueError:
        return None

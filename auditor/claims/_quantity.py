"""Quantities in prose and tool output: a number with its unit family, value in a base unit,
written precision and whether it was hedged ("~120 ms", "about 4h40m", "£2.18m", "420k").

Families (base unit): ``duration`` (seconds), ``size`` (bytes), ``length`` (metres), ``mass``
(grams), ``percent`` (percent),
``money`` (the currency's unit; the currency is kept), ``temperature``, ``ratio`` ("12x"),
``count`` (a counted noun: rows, tests, replicas, ...), and ``None`` for a bare number.
A bare number in tool output may be any unit of the claim's family: ``0.2874`` from a
``*_seconds`` metric supports "~290 ms", ``0.187`` supports "18.7%".

Dates ("3 March", "2024-06-02", "Jun 12 2025") and clock times ("14:32") are their own
kinds: they are compared as (month, day[, year]) and as hh:mm, never as arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..nlp import SPELLED_NUMBER, SPELLED_NUMBERS, spelled_value

_MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
DATE = re.compile(
    rf"\b(?P<iy>(?:19|20)\d\d)-(?P<im>[01]\d)-(?P<id>[0-3]\d)(?!\d)"
    rf"|\b(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<m1>{MONTH})(?:,?\s+(?P<y1>(?:19|20)\d\d)(?!-))?\b"
    rf"|\b(?P<m2>{MONTH})\s+(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\b(?!:)(?:,?\s+(?:[\d:]+\s+)?(?P<y2>(?:19|20)\d\d))?"
    # numeric: 21/02/2025, 12/25/2024, 01.03.2025 (dotted: day first, with four digits of year, or it is
    # a version), and without a year only where the day comes first and cannot be a month (27/03)
    rf"|(?<![\w/.])(?P<a>[0-3]?\d)(?:/(?P<b>[0-3]?\d)/(?P<y3>(?:19|20)?\d\d)|\.(?P<b4>[0-3]?\d)\.(?P<y4>(?:19|20)\d\d))"
    rf"(?![\w/]|\.\d)"
    rf"|(?<![\w/.])(?P<a5>1[3-9]|2\d|3[01])/(?P<b5>0[1-9]|1[0-2])(?![\w/]|\.\d)",
    re.IGNORECASE)
CLOCK = re.compile(r"(?<![\d:.])(?P<h>[0-2]?\d)(?::(?P<m>[0-5]\d)(?::[0-5]\d(?:\.\d+)?)?(?![\d:])(?!\s?[ap]\.?m\b)|"
                   r"(?::(?P<m2>[0-5]\d)(?::[0-5]\d)?)?\s?(?P<ampm>[ap]\.?m)\b\.?)", re.IGNORECASE)
_COMPOUND = re.compile(
    r"(?<![\w.])(?P<approx>~\s?|≈\s?|about\s+|around\s+|roughly\s+|approx(?:\.|imately)?\s+)?"
    r"(?=\d)(?:(?P<h>\d+)h)?(?:(?P<m>\d+)m(?!s|in|o))?(?:(?P<s>\d+(?:\.\d+)?)s)?(?![\w])", re.IGNORECASE)
#: Numbers written the continental way: "48.260.000" (two dotted thousands groups or more, so never a
#: version's "2.31.0"), and a decimal comma, read only before a percent sign ("29,2 %").
_DOTTED_THOUSANDS = r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?"
_DECIMAL_COMMA = r"\d+,\d{1,2}"
NUMBER = re.compile(
    r"(?P<approx>~\s?|≈\s?|\babout\s+|\baround\s+|\broughly\s+|\bapprox(?:\.|imately)?\s+|\bnearly\s+|"
    r"\balmost\s+|\bsome\s+|\b(?:just|slightly|a little|a bit) (?:over|under|above|below|shy of)\s+)?"
    r"(?:(?<![A-Za-z])[A-Z]{1,2}(?=\$))?(?P<cur>[$€£¥]|\b(?:CHF|EUR|USD|GBP|JPY)\s?)?"
    r"(?<![\w.,/^-])(?<![^\"]:)(?P<sign>[-−+])?"
    rf"(?P<num>{_DOTTED_THOUSANDS}(?![.\d])|{_DECIMAL_COMMA}(?=\s?%)|"
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:_\d{3})+|\d+(?:\.\d+)?)"
    r"(?P<scale>[ \t]?(?:k|bn|m|M|B|million|billion|thousand)(?![a-zA-Z]))?"
    r"(?P<unit>[ \t]?(?:%|pp|percentage points?|percent|x\b|×|°[ \t]?[CF]|"
    r"(?:ns|µs|us|ms|s|µm|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|"
    r"b|kb|mb|gb|tb|kib|mib|gib|bytes|[a-zA-Z][a-zA-Z_-]*)\b))?"
    r"(?![.,]?\d)")
_DURATION = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0,
             "seconds": 1.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0, "h": 3600.0, "hr": 3600.0,
             "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0, "day": 86400.0, "days": 86400.0, "week": 604800.0,
             "weeks": 604800.0}
_CALENDAR = {"month": 1.0, "months": 1.0, "year": 12.0, "years": 12.0}
_SIZE = {"b": 1.0, "bytes": 1.0, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 1024.0, "mib": 1024.0 ** 2,
         "gib": 1024.0 ** 3, "tib": 1024.0 ** 4}
_LENGTH = {"mm": 1e-3, "cm": 1e-2, "km": 1e3, "kms": 1e3, "meter": 1.0, "meters": 1.0, "metre": 1.0, "metres": 1.0,
           "kilometer": 1e3, "kilometers": 1e3, "kilometre": 1e3, "kilometres": 1e3, "mi": 1609.344, "mile": 1609.344,
           "miles": 1609.344, "ft": 0.3048, "feet": 0.3048, "foot": 0.3048, "µm": 1e-6, "um": 1e-6,
           "micron": 1e-6, "microns": 1e-6}
_ATTACHED = re.compile(r"[A-Za-z_]+\d")
_POWER = re.compile(r"\s?(?:[×x*]\s?10)?\^")
_BINARY = {"Ki": "kib", "Mi": "mib", "Gi": "gib", "Ti": "tib", "G": "gb", "T": "tb"}  # "9.6G" is no mass
#: Seconds (10 digits) or milliseconds (13) since 1970, from 2017 to 2033.
_EPOCH = re.compile(r"1[5-9]\d{8}(?:\.\d+)?|1[5-9]\d{11}")
_MASS = {"mg": 1e-3, "g": 1.0, "kg": 1e3, "kgs": 1e3, "kilo": 1e3, "kilos": 1e3, "kilogram": 1e3, "kilograms": 1e3,
         "t": 1e6, "tonne": 1e6, "tonnes": 1e6, "lb": 453.59237, "lbs": 453.59237, "oz": 28.349523125}
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9}
#: Currency signs and codes, as the currency they name.
CURRENCIES = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "chf": "chf", "eur": "eur", "usd": "usd", "gbp": "gbp",
             "jpy": "jpy"}
_NOT_COUNTED = frozenset(["and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "is", "are", "was",
                          "were", "the", "a", "an", "per", "than", "vs", "out", "each", "total", "now", "so", "today",
                          "yet", "already", "again", "too", "then", "here", "there", "instead", "only", "more",
                          "less", "ago", "left", "remain", "remaining", "but", "as", "if", "after", "before"])


@dataclass(frozen=True)
class Quantity:
    """``value`` is in the family's base unit; ``step`` is the written precision in that unit."""

    value: float
    family: str | None
    step: float
    approx: bool
    start: int
    end: int
    text: str
    noun: str | None = None
    currency: str | None = None
    written: float = 0.0
    #: Its sentence says it rounds ("Rounded to the dollar: NA $309,773"): an amount of cents states it.
    rounded: bool = False
    #: A file's line number in tool output (``ledger.tf:41:``): where a row is, never the value of
    #: what the row names, so it may state a claim's number but not contradict one.
    locator: bool = False
    #: The side of its number a hedged value lies on: "below" for "nearly", "almost", "just under",
    #: "slightly below", "just shy of"; "above" for "just over", "slightly above".
    side: str | None = None

    @property
    def bare(self) -> bool:
        return self.family is None


def _decimals_step(num: str) -> float:
    return 10.0 ** -len(num.split(".")[1]) if "." in num else 1.0


SPELLED = re.compile(rf"\b{SPELLED_NUMBER}\s+(?P<unit>ns|ms|seconds?|minutes?|hours?|days?|weeks?|months?|"
                     r"years?|percent)\b", re.IGNORECASE)


def spelled_number(word: str) -> float | None:
    """The value of one spelled-out number word ("six", "Twelve"), or None."""
    value = SPELLED_NUMBERS.get(word.lower())
    return float(value) if value is not None else None


def spelled(text: str) -> list[Quantity]:
    """Spelled-out numbers with a unit in prose ("twenty days", "two years"): evidence can state
    a number in words."""
    out = []
    for m in SPELLED.finditer(text):
        value = float(spelled_value(m))
        match = NUMBER.fullmatch(f"{value:g} {m.group('unit')}")
        q = _quantity(match) if match is not None else None
        if q is not None:
            out.append(Quantity(q.value, q.family, q.step, False, m.start(), m.end(), m.group(0), q.noun, None,
                                value))
    return out


def quantities(text: str) -> list[Quantity]:
    """Every number of ``text`` with its unit. Dates and clock times are left out (see ``dates``)."""
    skip = [(m.start(), m.end()) for m in DATE.finditer(text)] + [(m.start(), m.end()) for m in CLOCK.finditer(text)]
    out: list[Quantity] = []
    for m in _COMPOUND.finditer(text):
        parts = [p for p in ("h", "m", "s") if m.group(p)]
        if len(parts) < 2:
            continue
        seconds = sum(float(m.group(p)) * {"h": 3600.0, "m": 60.0, "s": 1.0}[p] for p in parts)
        step = {"h": 3600.0, "m": 60.0, "s": 1.0}[parts[-1]]
        out.append(Quantity(seconds, "duration", step, bool(m.group("approx")), m.start(), m.end(), m.group(0),
                            written=seconds))
        skip.append((m.start(), m.end()))
    covered = {i for a, b in skip for i in range(a, b)}
    for m in NUMBER.finditer(text):
        start = m.start("num") - (1 if m.group("sign") else 0)
        if start in covered or _ORDINAL.match(text, m.end("num")):
            continue  # "the 17th" is a day or a rank, not seventeen of something
        if (not (m.group("unit") or m.group("scale")) and _ATTACHED.match(text, m.end())) or _POWER.match(text, m.end()):
            continue  # "81bd3c2", "4e77a10": the head of a hash or an id; "3×10^5": a power, read as no number
        if _EPOCH.fullmatch(m.group("num")) and not (m.group("cur") or m.group("unit") or m.group("scale")):
            continue  # 1717153512.401: a Unix time (a Prometheus sample's), not a quantity
        q = _quantity(m)
        if q is not None:
            out.append(_qualified(q, text))
    out.sort(key=lambda q: q.start)
    return out


_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)
_QUALIFIED_UNIT = re.compile(r"[ \t]+(?P<unit>hours?|days?|weeks?|months?|years?|minutes?)\b")


def _qualified(q: Quantity, text: str) -> Quantity:
    """A count whose noun qualifies a unit that follows is that unit: "10 business days", "128
    associate hours" are durations, not counts of businesses or associates."""
    if q.family != "count":
        return q
    m = _QUALIFIED_UNIT.match(text, q.end)
    if m is None:
        return q
    number = text[q.start:q.end].rsplit(None, 1)[0] if " " in text[q.start:q.end].strip() else str(q.written)
    bare = replace(q, family=None, noun=None, text=number.strip())
    found = typed(bare, m.group("unit"))
    return replace(found, end=m.end(), text=text[q.start:m.end()]) if not found.bare else q


_PER = re.compile(r"/\s?(?:s|sec|min|h|hr|hour|d|day|wk|week|mo|month|yr|year|m|km|mi|ft|kg|g|l|unit|item|part|req|"
                  r"request|call|user|person|head|night|piece|pc|kwh|mwh)\b", re.IGNORECASE)


_CONTINENTAL = re.compile(rf"{_DOTTED_THOUSANDS}|{_DECIMAL_COMMA}")


def _quantity(m: re.Match[str]) -> Quantity | None:
    num = m.group("num")
    if _CONTINENTAL.fullmatch(num):
        num = num.replace(".", "").replace(",", ".")
    value = float(num.replace(",", "").replace("_", ""))  # 249_261_000 as code writes it
    if m.group("sign") in ("-", "−"):
        value = -value
    step = _decimals_step(num)
    scale_word = (m.group("scale") or "").strip()
    unit = (m.group("unit") or "").strip()
    low_unit = unit.lower().replace(" ", "")
    if unit in _BINARY:  # Kubernetes quantities: "512Mi" is mebibytes, never miles; "9.6G" gigabytes
        low_unit = _BINARY[unit]
    currency = CURRENCIES.get((m.group("cur") or "").strip().lower())
    scale = 1.0
    if scale_word:
        key = scale_word.lower()
        if scale_word == "m" and currency is None and not unit:
            # "5m" is minutes in a duration, a million after a currency; "481M" is always a million
            low_unit, scale_word = "min", ""
        else:
            scale = _SCALE.get(key, 1.0)
    value, step = value * scale, step * scale
    written = value
    family: str | None = None
    noun: str | None = None
    if currency is not None:
        family = "money"
    elif low_unit in ("%", "percent", "pp", "percentagepoint", "percentagepoints"):
        family = "percent"
    elif low_unit in ("x", "×"):
        family = "ratio"
    elif low_unit.startswith("°"):
        family = "temperature"
    elif low_unit in _DURATION:
        family, value, step = "duration", value * _DURATION[low_unit], step * _DURATION[low_unit]
    elif low_unit in _CALENDAR:
        family, value, step = "calendar", value * _CALENDAR[low_unit], step * _CALENDAR[low_unit]
    elif low_unit in _SIZE:
        family, value, step = "size", value * _SIZE[low_unit], step * _SIZE[low_unit]
    elif low_unit in _LENGTH:
        family, value, step = "length", value * _LENGTH[low_unit], step * _LENGTH[low_unit]
    elif low_unit in _MASS:
        family, value, step = "mass", value * _MASS[low_unit], step * _MASS[low_unit]
    elif low_unit and low_unit not in _NOT_COUNTED and low_unit.isalpha() and not unit[:1].isupper():
        family, noun = "count", low_unit.rstrip("s") or low_unit
    unit_used = family is not None and currency is None or (currency is not None and low_unit in ("x",))
    end = m.end("unit") if unit_used and m.group("unit") else m.end("scale") if m.group("scale") else m.end("num")
    approx = bool(m.group("approx")) and (m.group("approx") or "").strip().lower() != "some"
    start = m.start() if m.group("approx") or m.group("cur") else m.start("num") - (1 if m.group("sign") else 0)
    if unit_used and family not in ("money", "percent", "ratio") and _PER.match(m.string, end):
        # "6.2 mm/s", "12 strokes/min", "3 km/h": a rate, read as a bare number: no length, count or
        # duration can state it for certain ("3 files/folders" is no rate)
        family, noun, value, step = None, None, written, _decimals_step(num) * scale
    return Quantity(value, family, step, approx, start, end, m.string[start:end], noun, currency, written,
                    side=_side(m.group("approx") or ""))


_BELOW = re.compile(r"nearly|almost|(?:just|slightly|a little|a bit) (?:under|below|shy of)", re.IGNORECASE)
_ABOVE = re.compile(r"(?:just|slightly|a little|a bit) (?:over|above)", re.IGNORECASE)


def _side(approx: str) -> str | None:
    """Which side of its number a hedge puts the value: "nearly 20 minutes" is under 20."""
    return "below" if _BELOW.match(approx.strip()) else "above" if _ABOVE.match(approx.strip()) else None


def dates(text: str, ambiguous: bool = False) -> list[tuple[int, int, tuple[int, int, int | None]]]:
    """(start, end, (month, day, year or None)) for every date of ``text``. A numeric date whose
    day and month could be either way round (03/04/2025) is read both ways if ``ambiguous`` (what
    evidence may state), else not at all (what a claim states is then unknown)."""
    out: list[tuple[int, int, tuple[int, int, int | None]]] = []
    for m in DATE.finditer(text):
        year: int | None
        if m.group("a"):
            first, second = int(m.group("a")), int(m.group("b") or m.group("b4"))
            y = m.group("y3") or m.group("y4")
            year = int(y) + (2000 if len(y) == 2 else 0)
            day_first = first > 12 or first == second or m.group("b4") is not None  # 01.03.2025 is European
            readings = [(second, first)] if day_first else [(first, second)] if second > 12 else \
                [(second, first), (first, second)]
            if len(readings) == 2 and not ambiguous:
                continue
            out.extend((m.start(), m.end(), (month, day, year)) for month, day in readings
                       if 1 <= month <= 12 and 1 <= day <= 31)
            continue
        if m.group("a5"):
            out.append((m.start(), m.end(), (int(m.group("b5")), int(m.group("a5")), None)))
            continue
        if m.group("iy"):
            month, day, year = int(m.group("im")), int(m.group("id")), int(m.group("iy"))
        else:
            word = (m.group("m1") or m.group("m2")).lower()[:3]
            month, day = _MONTHS[word], int(m.group("d1") or m.group("d2"))
            y = m.group("y1") or m.group("y2")
            year = int(y) if y else None
        if 1 <= month <= 12 and 1 <= day <= 31:
            out.append((m.start(), m.end(), (month, day, year)))
    return out


def clocks(text: str) -> list[tuple[int, int, str]]:
    out = []
    for m in CLOCK.finditer(text):
        hour = int(m.group("h")) % 12 + (12 if (m.group("ampm") or "").lower().startswith("p") else 0) \
            if m.group("ampm") else int(m.group("h"))
        out.append((m.start(), m.end(), f"{hour:02d}:{m.group('m') or m.group('m2') or '00'}"))
    return out


#: Unit words a field name can end in ("incident_duration_s", "price_eur", "lead_time_days"), as the
#: unit a number takes after it (a currency goes before it).
_NAMED_UNITS = {**{u: u for u in ("s", "sec", "secs", "seconds", "ms", "min", "mins", "minutes", "h", "hrs", "hours",
                                   "day", "days", "week", "weeks", "month", "months", "year", "years", "kb", "mb",
                                   "gb", "km", "kg", "bytes")},
                "yrs": "years", "pct": "%", "percent": "%", "usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY",
                "chf": "CHF"}
_NAME_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def named_unit(name: str) -> str | None:
    """The unit a field name gives its number: a currency it names ("price_usd_per_month"), else its
    first unit word ("duration_s" -> s, "hours_last_12_months" -> hours), if the name is no rate
    ("per_day")."""
    parts = [p.lower() for p in _NAME_PARTS.findall(name)]
    currency = next((_NAMED_UNITS[p] for p in parts if p in CURRENCIES and p.isalpha()), None)
    if currency is not None or not parts or "per" in parts:  # "price_usd_per_user_month"; "per_day" is a rate
        return currency
    return next((_NAMED_UNITS[p] for p in parts if p in _NAMED_UNITS), None)


def typed(q: Quantity, unit: str) -> Quantity:
    """A bare number read in the unit its field names (``named_unit``); unchanged if that fails."""
    if not q.bare:
        return q
    number = q.text.lstrip("+-−")
    written = f"{unit} {number}" if unit.isupper() else f"{number}{unit}" if unit == "%" else f"{number} {unit}"
    m = NUMBER.fullmatch(written)
    found = _quantity(m) if m is not None else None
    if found is None or found.bare:
        return q
    sign = -1.0 if q.value < 0 else 1.0
    return Quantity(sign * found.value, found.family, found.step, q.approx, q.start, q.end, q.text, found.noun,
                    found.currency, q.written, side=q.side)

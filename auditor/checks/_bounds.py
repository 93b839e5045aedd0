"""A number a restated rule bounds from the other side: "at least 4.5/5" upstream, "at most
4.5/5" in the handoff. A negation just before a bound turns it ("never after 22:00" and "before
22:00" agree; "Nothing departing before 7am" and "don't book anything leaving before 7am" too), and a side is read only when the text says one: not for a number of another unit, nor for a bound a
negated act follows."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..nlp import NEGATION_PATTERN

_GREATER = (r"(?<!no )(?<!not )\b(?:at least|no less than|no fewer than|minimum of|more than|over|above|after|"
            r"later than|longer than)\s+(?:\w+\s+)?{n}(?![\d.])|(?<![\d.]){n}\s*(?:\w+\s+)?or (?:more|above|later)\b")
_LESSER = (r"(?<!no )(?<!not )\b(?:at most|no more than|not more than|maximum of|up to|less than|fewer than|under|"
           r"below|before|earlier than|shorter than)\s+(?:\w+\s+)?{n}(?![\d.])|(?<![\d.]){n}\s*(?:\w+\s+)?or "
           r"(?:less|fewer|below|earlier)\b")


_NONE = re.compile(r"\b(?:nothing|none|nobody|no one|avoid(?:s|ing)?)\b")  # "Nothing departing before 7am", "avoid …"


#: "No sleeps over 100 ms": "no" and the noun it negates, just before the bound.
_NO_NOUN = re.compile(r"\bno\s+[a-z-]+(?:\s+[a-z-]+)?\s+$")
#: A count just before the bound: "32 over the limit", "7 reading-speed hits above 17 cps".
_TALLY = re.compile(r"(?<![\w.:/-])\d[\d,]*\s+(?:[a-z-]+\s+){0,2}$")
_NUMBER = re.compile(r"(\d[\d:.,/]*\d|\d)(?![\d:.,/])(?:\s?([a-z%]+))?")
#: A negated act after a bound: "Anything under CHF 100 is not to be filed" says what "do not submit
#: anything under CHF 100" says, but "Items over 23 kg must never go above shoulder height" bounds
#: only whom the rule is for. Either way the side is not read.
_NOT_DONE = re.compile(r"\b(?:(?:is|are|be|was|were) not\b|isn't|aren't|(?:must|may|shall|should|will|can) not\b|"
                       r"mustn't|cannot|can't|won't|shouldn't|never\b)")


def turned_bound(low_up: str, low: str) -> str | None:
    """A number the two sides bound from opposite sides, a negation just before a bound counted:
    "at least 4.5" -> "at most 4.5" (while "never after 22:00" and "before 22:00" agree). The number
    must be the same quantity on both sides: where both write a unit after it, the same unit ("at
    most 2x" and "at least 2h" bound different things)."""
    units_up, units = _units(low_up), _units(low)
    for n in sorted(units_up.keys() & units.keys()):
        same = units_up[n] & units[n] if units_up[n] and units[n] else None
        if same == set():
            continue
        sides = [_side(text, n, same) for text in (low_up, low)]
        if 0 not in sides and sides[0] != sides[1]:
            return n
    return None


def _negates(before: str) -> bool:
    """A negation, "nothing"/"avoid", or "no" and its noun in the text just before a bound."""
    return NEGATION_PATTERN.search(before) is not None or _NONE.search(before) is not None \
        or _NO_NOUN.search(before) is not None


def _units(low: str) -> dict[str, set[str]]:
    """Each number of ``low`` with the unit words written after it (none for a bare one)."""
    found: dict[str, set[str]] = {}
    for m in _NUMBER.finditer(low):
        found.setdefault(m.group(1), set()).update([m.group(2)] if m.group(2) else [])
    return found


def _side(low: str, n: str, units: set[str] | None = None) -> int:
    """+1 when ``low`` bounds ``n`` from below (at least n), -1 from above, 0 when it does not say.
    With ``units``, only where ``n`` is written with one of them."""
    found = set()
    for sign, pattern in ((1, _GREATER), (-1, _LESSER)):
        for m in re.finditer(pattern.format(n=re.escape(n)), low):
            at = m.start() + m.group(0).find(n, 0 if m.group(0)[:1].isdigit() else len(m.group(0)) - len(n))
            unit = re.match(r"\s?([a-z%]+)", low[at + len(n):])
            if units is not None and (unit is None or unit.group(1) not in units):
                continue
            before = low[max(0, m.start() - 30):m.start()]
            after = re.split(r"[.;,:!?]", low[m.end():m.end() + 60], maxsplit=1)[0]
            if _NOT_DONE.search(after) is not None:
                return 0  # the bound qualifies what the negated act is about: which side it keeps is unsure
            if _TALLY.search(before):
                continue  # "32 over the 42-character limit": a count of breaches, no side of a rule
            found.add(-sign if _negates(before) else sign)
    return found.pop() if len(found) == 1 else 0


#: A rule that bounds from above ("under", "at most", "$90 or lower") or from below ("at least").
_UPPER_BOUND = re.compile(r"\b(?:under|at most|no more than|not more than|max(?:imum)?|exceed|below|up to|capped at|"
                          r"more than|over|above|cap of|"
                          r"limit of|less than|fewer than|no later than)\s+(?:\w+\s+)?[$\u20ac\u00a3]?\d|"
                          r"\d[\d,.]*\s*(?:\w+\s+)?or (?:lower|less|fewer|under|below|earlier)\b")
_LOWER_BOUND = re.compile(r"\b(?:at least|no less than|no fewer than|min(?:imum)?|no earlier than)\s+(?:\w+\s+)?"
                          r"[$\u20ac\u00a3]?\d|\d[\d,.]*\s*(?:\w+\s+)?or (?:later|more|above)\b")
#: Words that go past each side's bound.
_PAST_UPPER = re.compile(r"\b(?:over|above|exceed\w*|more than|beyond|past|later|longer)\b")
_PAST_LOWER = re.compile(r"\b(?:under|below|less than|fewer|earlier|older|before|shorter)\b")
#: "never beyond", "don't advertise anything above" ("not much over" is over)
_NEGATED_BOUND = re.compile(r"(?:\b(?:never|not|no|nothing)\s+|n't\s+\w+\s+(?:\w+\s+)?)$")
#: A cap restated as a range of what is allowed: "you can offer anything up to $200".
_WITHIN = re.compile(r"\b(?:up to|at most|no more than|not more than|max(?:imum)?|capped at|under|below)\b")


def goes_past(low_up: str, clauses: Sequence[str]) -> bool:
    """Whether one of ``clauses`` speaks of going past the bound of the rule ``low_up`` ("a little
    over the €40 line"), with no negation just before ("never beyond 6 weeks")."""
    past = [p for bound, p in ((_UPPER_BOUND, _PAST_UPPER), (_LOWER_BOUND, _PAST_LOWER)) if bound.search(low_up)]
    return any(not _NEGATED_BOUND.search(t, 0, m.start()) for t in clauses for p in past for m in p.finditer(t))


def restates_cap(low_up: str, low: str) -> bool:
    """Whether ``low`` speaks within the cap of the rule ``low_up``: "anything up to $200"."""
    return _UPPER_BOUND.search(low_up) is not None and _WITHIN.search(low) is not None


_BOUND_VALUE = re.compile(r"[$\u20ac\u00a3]?(\d[\d,]*(?:\.\d+)?)(?:\s*([a-z%]+))?")
_NOT_UNITS = ("if", "when", "for", "and", "or", "but", "on", "in", "at", "as", "so", "then", "by", "while", "until")
#: A value set: "bump to 5", "go up to 10", "fine at 6".
_SET_TO = re.compile(r"\b(?:to|at)\s+[$\u20ac\u00a3]?$")


def passes_value(low_up: str, clause: str) -> bool:
    """Whether ``clause`` sets a value past the rule's bound, in the bound's own unit: "feel free to
    raise retries to 5" for "max 3 retries" (the unit written after the number, or named in the
    clause). A negated bound ("no refunds under 20 dollars") is left alone."""
    for bound, sign in ((_UPPER_BOUND, 1), (_LOWER_BOUND, -1)):
        m = bound.search(low_up)
        if m is None:
            continue
        value = _BOUND_VALUE.match(low_up, m.start() if m.group(0)[:1].isdigit() else m.end() - 1)
        if value is None:
            continue
        limit, unit = float(value.group(1).replace(",", "")), value.group(2)
        if unit is None or unit in _NOT_UNITS or len(unit) < 2 or _negates(low_up[max(0, m.start() - 30):m.start()]):
            continue  # a bound of no named unit, or a negated one ("No refunds under 20 dollars")
        for x in _BOUND_VALUE.finditer(clause):
            named = x.group(2) == unit or x.group(2) in (None, *_NOT_UNITS) and unit.rstrip("s") in clause
            if not named or not _SET_TO.search(clause, max(0, x.start() - 8), x.start()) \
                    or clause[x.end(1):x.end(1) + 1] == ":":
                continue
            if sign * (float(x.group(1).replace(",", "")) - limit) > 0:
                return True
    return False

"""A number a restated rule bounds from the other side: "at least 4.5/5" upstream, "at most
4.5/5" in the handoff. A negation just before a bound turns it ("never after 22:00" and "before
22:00" agree; "Nothing departing before 7am" and "don't book anything leaving before 7am" too), and a side is read only when the text says one."""

from __future__ import annotations

import re

from ..nlp import NEGATION_PATTERN

_GREATER = (r"(?<!no )(?<!not )\b(?:at least|no less than|no fewer than|minimum of|more than|over|above|after|"
            r"later than|longer than)\s+(?:\w+\s+)?{n}(?![\d.])|(?<![\d.]){n}\s*(?:\w+\s+)?or (?:more|above|later)\b")
_LESSER = (r"(?<!no )(?<!not )\b(?:at most|no more than|not more than|maximum of|up to|less than|fewer than|under|"
           r"below|before|earlier than|shorter than)\s+(?:\w+\s+)?{n}(?![\d.])|(?<![\d.]){n}\s*(?:\w+\s+)?or "
           r"(?:less|fewer|below|earlier)\b")


_NONE = re.compile(r"\b(?:nothing|none|nobody|no one|avoid(?:s|ing)?)\b")  # "Nothing departing before 7am", "avoid …"


def turned_bound(low_up: str, low: str) -> str | None:
    """A number the two sides bound from opposite sides, a negation just before a bound counted:
    "at least 4.5" -> "at most 4.5" (while "never after 22:00" and "before 22:00" agree)."""
    shared = {m.group(0) for m in re.finditer(r"\d[\d:.,/]*\d|\d", low_up)} & {
        m.group(0) for m in re.finditer(r"\d[\d:.,/]*\d|\d", low)}
    for n in sorted(shared):
        sides = [_side(text, n) for text in (low_up, low)]
        if 0 not in sides and sides[0] != sides[1]:
            return n
    return None


def _side(low: str, n: str) -> int:
    """+1 when ``low`` bounds ``n`` from below (at least n), -1 from above, 0 when it does not say."""
    found = set()
    for sign, pattern in ((1, _GREATER), (-1, _LESSER)):
        for m in re.finditer(pattern.format(n=re.escape(n)), low):
            before = low[max(0, m.start() - 30):m.start()]
            negated = NEGATION_PATTERN.search(before) is not None or _NONE.search(before) is not None
            found.add(-sign if negated else sign)
    return found.pop() if len(found) == 1 else 0

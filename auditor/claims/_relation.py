"""What a percentage or ratio is of: the words around it say which arithmetic can give it.

* a **share** ("40% of total AP spend", "12% of requests") is a part over a whole: only
  ``a / b`` as a percentage can derive it;
* a **change** ("up 12%", "a 30% drop", "12x faster") compares two values: only a percentage
  change (for a percentage) or a plain ratio (for ``12x``) can derive it;
* otherwise any of the simple operations may.

A percentage followed by its own fraction ("12.7% (9/63)") states its arithmetic; ``fraction``
reads it so the sentence can be checked against itself.
"""

from __future__ import annotations

import re
from typing import Literal

Relation = Literal["share", "change"]

_SHARE_AFTER = re.compile(r"\s*(?:of|share\b|of\s+the)\b", re.IGNORECASE)
_CHANGE_AFTER = re.compile(r"\s*(?:up|down|higher|lower|more|less|increase|decrease|drop|fall|rise|growth|"
                           r"jump|gain|reduction|improvement|faster|slower|cheaper|bigger|smaller|change|"
                           r"better|worse|over|from)\b", re.IGNORECASE)
_CHANGE_BEFORE = re.compile(r"\b(?:up|down|by|rose|fell|grew|dropped|increased|decreased|jumped|cut|"
                            r"reduced|improved|shrank|gained|lost)\s+(?:by\s+)?(?:about\s+|roughly\s+|~)?$",
                            re.IGNORECASE)
_FRACTION = re.compile(r"\s*\(\s*(\d[\d,]*)\s*/\s*(\d[\d,]*)\s*\)")
_FRACTION_BEFORE = re.compile(r"(?<![\d/])(\d[\d,]*)\s*/\s*(\d[\d,]*)\s*\(\s*$")


def relation(text: str, start: int, end: int) -> Relation | None:
    """Whether the number at ``text[start:end]`` is a share of a whole or a change between two
    values, by the words just after and before it."""
    if _CHANGE_AFTER.match(text, end) or _CHANGE_BEFORE.search(text, max(0, start - 30), start):
        return "change"
    if _SHARE_AFTER.match(text, end):
        return "share"
    return None


def fraction(text: str, start: int, end: int) -> tuple[float, float] | None:
    """The ``(part/whole)`` written right after a percentage, or the ``part/whole (`` right
    before it ("331/397 (83.4%)"), if any."""
    m = _FRACTION.match(text, end) or _FRACTION_BEFORE.search(text, max(0, start - 30), start)
    if m is None:
        return None
    whole = float(m.group(2).replace(",", ""))
    return (float(m.group(1).replace(",", "")), whole) if whole else None

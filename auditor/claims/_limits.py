"""Claims that something stays within an upper bound: "All three summaries are within the
150-word limit", "nothing over 42 characters per line", "Reading speed is within 17 CPS
throughout".

The bound's own number appearing somewhere (in the rule that set it) says nothing about whether
it was kept, so such a claim is decided only by tool output that measures it:

* a **counter** of what exceeds that bound ("lines > 42 chars: 0", "CPS > 17: 23"): zero ->
  ``grounded``, more -> ``contradicted``;
* **measurements**, one ``name: number`` line each ("summary_1: 142"), whose names are the
  claim's subject ("summaries") or, when the claim counts its items ("all three"), a run of
  exactly that many lines of one output: all within the bound -> ``grounded``, any over it ->
  ``contradicted``.

Otherwise ``needs_semantic``: a bound is not a measured value, so its number appearing nowhere
does not make the claim invented either (a table may show it kept in a form this does not read).
A clause that states the rule itself ("WHO recommends less than 2000 mg", "the limit is under
10") is not a claim that it was kept (``RULE_STATED``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..nlp import stem
from ._rows import Row
from ._verdicts import Verdict

#: Words before a number that make it an upper bound the clause says was kept.
UPPER_BOUND = re.compile(
    r"\b(?:within|under|below|less than|fewer than|at most|no more than|not more than|"
    r"(?:nothing|none|no\s+\w+)\s+(?:over|above|exceeds?|exceeding|longer than|more than))\s+(?:the\s+)?[~≈]?$",
    re.IGNORECASE)
RULE_STATED = re.compile(r"\b(?:recommend\w*|advis\w*|requir\w*|allow\w*|permit\w*|limit(?:s|ed)?|cap(?:s|ped)?|"
                         r"rules?|polic(?:y|ies)|guidelines?|should|must|target\w*|aim\w*)\b", re.IGNORECASE)
#: A number written as a bound ("under 300 ms", "no more than $300", "< 0.5%") is a threshold, not a value.
BOUND_STATED = re.compile(
    r"[<>≤≥]=?\s*[$€£]?\d|\b(?:under|below|above|over|less than|more than|fewer than|at most|at least|up to|"
    r"no more than|not more than|no less than|max(?:imum)?|min(?:imum)?|within|exceeds?)\s+(?:[a-z]+\s+)?[$€£]?\d"
    r"|\d[\d.,]*\s*(?:[a-z%]+\s+)?or (?:less|fewer|more|lower|higher|greater|below|above|under|over)\b", re.IGNORECASE)
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_COUNTER = re.compile(rf"(?:>=?|≥|\bover|\babove|\bexceed(?:s|ing)?|\bmore than)\s*(?P<bound>{_NUMBER})[^:\n]{{0,24}}:"
                      rf"\s*(?P<count>\d+)\b", re.IGNORECASE)
_MEASURE = re.compile(rf"\s*(?P<name>[A-Za-z][\w .-]{{0,40}}?)\s*[:=|]\s*(?P<value>-?{_NUMBER})\s*")
_NAME_WORD = re.compile(r"[A-Za-z]{3,}")


def ground_limit(bound: float, subject: frozenset[str], items: int | None,
                 rows: Sequence[Row]) -> tuple[Verdict, str, Row | None]:
    """(verdict, reason, the row it rests on) for a claim that what ``subject`` names stays
    within ``bound``; ``items`` is how many things it counts ("all three"), if it says."""
    outputs = [r for r in rows if r.output]
    for row in reversed(outputs):
        for m in _COUNTER.finditer(row.text):
            if _value(m.group("bound")) == bound:
                count = int(m.group("count"))
                if count == 0:
                    return "grounded", f"the output counts 0 over {m.group('bound')}", row
                return "contradicted", f"the output counts {count} over {m.group('bound')}", row
    stems = {stem(w) for w in subject}
    by_text: dict[int, list[tuple[Row, str, float]]] = {}
    for row in outputs:
        line = _MEASURE.fullmatch(row.text)
        if line is not None:
            by_text.setdefault(row.field_index, []).append((row, line.group("name"), _value(line.group("value"))))
    for index in sorted(by_text, reverse=True):
        lines = by_text[index]
        named = [line for line in lines if stems & {stem(w) for w in _NAME_WORD.findall(line[1].replace("_", " "))}]
        measured = named or (lines if items is not None and len(lines) == items else [])
        if not measured:
            continue
        over = [line for line in measured if line[2] > bound]
        if over:
            row, name, value = over[0]
            return "contradicted", f"{name} is {value:g}, over {bound:g}", row
        return "grounded", f"all {len(measured)} measured values are within {bound:g}", measured[-1][0]
    return "needs_semantic", (f"{bound:g} is a bound, and no visible output measures what it limits; "
                              f"whether it was kept needs the semantic grader"), None


def _value(text: str) -> float:
    return float(text.replace(",", ""))


_ITEMS = re.compile(r"\b(?:all|each of the|every one of the)?\s*(?P<n>\d+|both|two|three|four|five|six|seven|"
                    r"eight|nine|ten)\b", re.IGNORECASE)
_ITEM_WORDS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10}


def counted_items(subject: str) -> int | None:
    """How many things a clause counts ("All three summaries", "both files"), if it says."""
    m = _ITEMS.search(subject)
    if m is None:
        return None
    n = m.group("n").lower()
    return int(n) if n.isdigit() else _ITEM_WORDS[n]

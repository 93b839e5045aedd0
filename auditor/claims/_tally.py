"""A tool's summary line repeated in a handoff: "Plan: 4 to add, 0 to change, 0 to destroy",
"3 critical, 5 high, 12 medium", "12 created, 0 updated".

A tally is two or more "N <label>" items in a row, separated by commas or semicolons. It is
grounded by the same labels, in the same order, in one line of the evidence:

* every number the same -> ``grounded``;
* a number differs -> ``contradicted``, naming the label and the evidence's number;
* no line carries the labels -> no verdict here (``None``); the tally's numbers are still checked
  one by one as numbers.

Numbers are read with thousands separators; labels are compared case-insensitively and with
whitespace normalised, so the words must be the tool's own words.
"""

from __future__ import annotations

import re

from ._index import EvidenceIndex
from ._rows import key_words
from ._verdicts import Located

_ITEM = r"\d[\d,]*\s+[A-Za-z][A-Za-z_-]*(?:\s+(?!and\b|or\b)[A-Za-z][A-Za-z_-]*){0,2}"
TALLY = re.compile(rf"(?<![\w.]){_ITEM}(?:(?:\s*[,;]\s*(?:and\s+)?|\s+and\s+){_ITEM}){{1,7}}")
_PARTS = re.compile(r"(\d[\d,]*)\s+([A-Za-z][A-Za-z_-]*(?:\s+[A-Za-z][A-Za-z_-]*){0,2})")
_STOP_LABEL = re.compile(r"\s+(?:and|or|but|so|in|on|at|with|for|from|since|over|after|before)\b.*$", re.IGNORECASE)


def items(tally: str) -> list[tuple[int, str]]:
    """The (number, label) items of a tally; a label ends before a joining word ("0 to destroy so ...")."""
    out = []
    for m in _PARTS.finditer(tally):
        label = _STOP_LABEL.sub("", m.group(2)).strip()
        out.append((int(m.group(1).replace(",", "")), label))
    return out


def ground_tally(tally: str, subject: frozenset[str], index: EvidenceIndex) -> Located | None:
    """``subject``: the key words just before the tally in the handoff ("Plan:"). A differing
    tally contradicts only when the evidence line names the same subject just before it: a list
    of several things tallied alike ("Fidelity (2 grey bars, ...)", "Returns (4 grey bars, ...)")
    is otherwise read as about another thing."""
    parsed = items(tally)
    if len(parsed) < 2:
        return None
    labels = [r"\s+".join(re.escape(word) for word in label.split()) for _, label in parsed]
    joint = r"[\s,;:|]+(?:and\s+)?"
    same = re.compile(joint.join(rf"(?<![\d,.])(?:{n}|{n:,})\s+{label}\b" for (n, _), label in zip(parsed, labels,
                                                                                                    strict=True)),
                      re.IGNORECASE)
    found = index.search(same, parsed[0][1].split()[0])
    if found is not None:
        text, m = found
        return Located("grounded", "the same tally appears", text, (m.start(), m.end()))
    pattern = re.compile(joint.join(rf"(\d[\d,]*)\s+{label}\b" for label in labels), re.IGNORECASE)
    found = index.search(pattern, parsed[0][1].split()[0])
    if found is None:
        return None
    text, m = found
    line_start = text.text.rfind("\n", 0, m.start()) + 1
    if not subject & key_words(text.text[max(line_start, m.start() - 60):m.start()]):
        return None
    for group, (claimed, label) in enumerate(parsed, start=1):
        actual = int(m.group(group).replace(",", ""))
        if actual != claimed:
            return Located("contradicted", f"the evidence has {actual} {label}, not {claimed}", text,
                                (m.start(group), m.end(group)))
    return Located("grounded", "the same tally appears", text, (m.start(), m.end()))

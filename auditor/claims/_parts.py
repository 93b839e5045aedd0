"""Two number shapes the general number reader skips: a score out of a scale ("average 3.8/5")
and a part of a set named before ("Six of them are open access").

Both are read here so the claims pass can hold them against the evidence:

* a **score** ``X/5``, ``X/10`` or ``X/100`` is the number ``X`` of what the words before it
  name ("average", "rating", "score"); a fraction with any other denominator stays a fraction;
* a **part** "N of them / these / those / the <things> are|were|have|had <state>" is a count
  whose subject is the state words after the verb. N may be spelled ("Six"). Such a count is
  grounded only by evidence that names the state ("open_access": 4), never by the same small
  number turning up elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._quantity import spelled_number

_SCORE = re.compile(r"(?<![\w.,/-])(?P<value>\d+(?:\.\d+)?)\s*/\s*(?P<scale>5|10|100)(?![\w/-]|[.,]\d)")
_SCORE_WORDS = re.compile(r"\b(?:average|avg|mean|median|rating|rated|score[sd]?|scoring|stars?|csat|nps)\b",
                          re.IGNORECASE)
_PART = re.compile(r"\b(?P<n>\d+|[A-Za-z]+)\s+of\s+(?:them|these|those|the\s+\w+)\s+(?:are|were|is|was|have|had|"
                   r"carry|include|show)\s+(?P<state>[^.;,:!?\n]{2,60})", re.IGNORECASE)


@dataclass(frozen=True)
class Part:
    start: int
    end: int
    value: float
    step: float
    subject: str  # the words that say what is counted or scored


def scores(text: str, start: int, end: int) -> list[Part]:
    """Scores out of a scale in ``text[start:end]`` whose preceding words say they are scores."""
    out = []
    for m in _SCORE.finditer(text, start, end):
        before = re.split(r"[,;:(]", text[max(start, m.start() - 40):m.start()])[-1]
        if _SCORE_WORDS.search(before):
            value = m.group("value")
            step = 10.0 ** -len(value.split(".")[1]) if "." in value else 1.0
            out.append(Part(m.start(), m.end(), float(value), step, before))
    return out


def parts(text: str, start: int, end: int) -> list[Part]:
    """"N of them are <state>" counts in ``text[start:end]``."""
    out = []
    for m in _PART.finditer(text, start, end):
        n = m.group("n")
        value = float(n) if n.isdigit() else spelled_number(n)
        if value is None:
            continue
        state = " ".join(m.group("state").split()[:3])
        out.append(Part(m.start(), m.end(), value, 1.0, state))
    return out

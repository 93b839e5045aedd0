"""Numbers a handoff gives as data: the ``"key": number`` pairs of a JSON object it hands over.

A handoff that ends "Dedupe done: ```json {"merged": 9871, "reduction_pct": 1.8}```" states
each pair as a result. Code is otherwise masked from claim extraction (it shows work), so these
pairs are read here: each is a number claim whose subject is its key, quoted as the whole pair.

The key says what kind of number it is: ``*_pct`` / ``percent`` is a percentage, a unit it ends in
is the number's unit (``diff_eur``, ``duration_s``: ``_quantity.named_unit``), and a key that
names a computation (``pct``, ``ratio``, ``total``, ``avg``, ``mean``, ``sum``, ``rate``, or a
change such as ``diff``) marks the value as computed, so arithmetic on the evidence may ground or contradict it. A key naming a
change (``change``, ``delta``, ``growth``, ``reduction``, ...) makes a percentage a change.

Objects introduced as an example, a template, a schema or a sample are not results and are
skipped, as are pairs inside a span the mood filter found non-assertive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._relation import Relation

_FENCE = re.compile(r"```[a-zA-Z]*\n?(?P<body>.*?)```", re.DOTALL)
_PAIR = re.compile(r'"(?P<key>[A-Za-z_][\w .-]{0,40})"\s*:\s*(?P<value>-?\d[\d_]*(?:\.\d+)?)(?![\d.])')
_EXAMPLE = re.compile(r"\b(?:example|e\.g\.|for instance|template|schema|sample|format|shape|like this|such as|"
                      r"would look|should look|expected)\b", re.IGNORECASE)
_PERCENT_KEY = re.compile(r"(?:^|_)(?:pct|percent|percentage)(?:$|_)|%", re.IGNORECASE)
_COMPUTED_KEY = re.compile(r"(?:^|_)(?:pct|percent|percentage|ratio|total|avg|average|mean|sum|rate)(?:$|_)",
                           re.IGNORECASE)
_CHANGE_KEY = re.compile(r"(?:^|_)(?:change|delta|diff|growth|increase|decrease|reduction|drop|gain|uplift)(?:$|_)",
                         re.IGNORECASE)
_SHARE_KEY = re.compile(r"(?:^|_)(?:share|of)(?:$|_)", re.IGNORECASE)


@dataclass(frozen=True)
class Pair:
    key: str
    value: str
    start: int  # the pair's span in the text
    end: int
    value_start: int
    percent: bool
    computed: bool
    relation: Relation | None


def handed_pairs(text: str) -> list[Pair]:
    """The numeric ``"key": value`` pairs of the JSON blocks ``text`` hands over as results."""
    out: list[Pair] = []
    for block in _FENCE.finditer(text):
        if _EXAMPLE.search(text, max(0, block.start() - 100), block.start()):
            continue
        for m in _PAIR.finditer(text, block.start("body"), block.end("body")):
            key = m.group("key")
            related: Relation | None = "change" if _CHANGE_KEY.search(key) else (
                "share" if _SHARE_KEY.search(key) else None)
            out.append(Pair(key, m.group("value"), m.start(), m.end(), m.start("value"),
                            _PERCENT_KEY.search(key) is not None,
                            _COMPUTED_KEY.search(key) is not None or _CHANGE_KEY.search(key) is not None, related))
    return out

"""Counts the evidence gives by counting, not by stating: "4 calls from 185.220.101.7" (four lines
of one tool output name the address), "3 active" (three records of a visible table carry the
word), "no match across 4 lists" (a JSON list under ``"lists"`` has four items).

Each rule only grounds: a count that none of them reproduces is left to the other rules, since
what a sentence counts is rarely the only thing one could count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence

from ..edges import EvidenceText

_LIST = r'"{noun}s?"\s*:\s*(\[[^\[\]{{}}]*\])'


def lines_naming(n: int, names: Iterable[str],
                 texts_with: Callable[[str], Iterable[EvidenceText]]) -> tuple[str, EvidenceText] | None:
    """The first identifier that exactly ``n`` lines of one tool output name, and that output
    (``texts_with(name)``: the texts holding the name)."""
    for name in names:
        folded = name.casefold()
        for text in texts_with(name):
            if text.field != "result":
                continue
            lines = [line for line in text.text.casefold().split("\n") if folded in line]
            if len(lines) == n:
                return name, text
    return None


def records_with(n: int, word: str, tables: Sequence[Sequence[frozenset[str]]]) -> int | None:
    """The size of the latest visible table of which exactly ``n`` records carry ``word``."""
    for table in reversed(tables):
        if sum(1 for record in table if word in record) == n:
            return len(table)
    return None


def list_items(n: int, noun: str, texts: Iterable[EvidenceText]) -> EvidenceText | None:
    """A tool output with a JSON list of ``n`` items under the key that names ``noun`` (plural or not)."""
    pattern = re.compile(_LIST.format(noun=re.escape(noun.rstrip("s"))), re.IGNORECASE)
    for text in texts:
        if text.field != "result":
            continue
        for m in pattern.finditer(text.text):
            try:
                items = json.loads(m.group(1))
            except ValueError:
                continue
            if isinstance(items, list) and len(items) == n:
                return text
    return None

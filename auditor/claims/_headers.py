"""A count against the column of a table that is headed by what it counts: "6 replicas running"
against ``kubectl get hpa``'s ``REPLICAS`` column, "412 orders" against a ``psql`` table's
``orders`` column.

A table is a header line of two or more word cells (cells split by a tab, ``|`` or two spaces)
followed by data lines of the same number of cells. The claim's counted noun names a header
cell (singular or plural, any case). The data row is the table's only one, or the only one that
names one of the claim's identifiers. Its cell in that column, a plain number, decides:

* the same number (up to the claim's rounding and hedge) -> ``grounded``;
* another number -> ``contradicted``.

Any doubt (two tables, several rows, a cell that is not one number) decides nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..edges import EvidenceText
from ._compare import supports
from ._quantity import Quantity, quantities
from ._rows import cells
from ._verdicts import Located, Verdict

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_WORD = re.compile(r"[A-Za-z][\w%-]*")


def header_value(claim: Quantity, ids: frozenset[str], texts: Iterable[EvidenceText]) -> Located | None:
    """``texts``: those holding the claim's counted noun, latest first. The first table whose header
    names the noun decides, if it can (rounding and hedges understood, as ``supports`` reads them)."""
    noun = claim.noun or ""
    for text in texts:
        if not noun or text.field != "result":
            continue
        found = _in_table(claim, noun, ids, text)
        if found is not None:
            return found
    return None


def _in_table(claim: Quantity, noun: str, ids: frozenset[str], text: EvidenceText) -> Located | None:
    lines = text.text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for at, line in enumerate(lines):
        header = cells(line)
        if len(header) < 2 or not all(_WORD.fullmatch(c) for c in header):
            continue
        column = next((i for i, c in enumerate(header) if c.lower().rstrip("s") == noun.rstrip("s")), None)
        if column is None:
            continue
        rows = []
        for n in range(at + 1, len(lines)):
            data = cells(lines[n])
            if len(data) != len(header):
                break
            rows.append((n, data))
        if len(rows) > 1:
            rows = [(n, c) for n, c in rows if any(i in lines[n].lower() for i in ids)]
        if len(rows) != 1:
            return None
        n, data = rows[0]
        cell = data[column]
        if not _NUMBER.fullmatch(cell):
            return None
        start = offsets[n] + lines[n].index(cell)
        span = (start, start + len(cell))
        stated = quantities(cell)
        verdict: Verdict = "grounded" if len(stated) == 1 and supports(claim, stated[0]) else "contradicted"
        return Located(verdict, f"the {header[column]} column gives {cell}", text, span)
    return None

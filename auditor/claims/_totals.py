"""A total over the records a sentence names: "INV-88213, INV-88240, INV-88255 and INV-88270 —
for $293,700.00 altogether", "the two Crestline invoices come to $127,320".

The sentence names records by identifier or by a capitalised name; the table rows of tool output
that hold one of those names are its records. A column of that table in which each named row has
exactly one number (compatible with the claim's unit) is summed:

* the sum gives the claim's number -> ``grounded``, the rows and the sum quoted;
* the sentence says it computes a total and exactly one such column exists, whose sum differs
  -> ``contradicted``;
* otherwise nothing is decided here.

Only table rows count (one line of tool output with two or more cells); the rows must come from
one table (the same text and the same number of cells), and at least two must be named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._compare import compatible
from ._derive import far_apart
from ._quantity import Quantity, quantities
from ._rows import Row, cells
from ._verdicts import Verdict


@dataclass(frozen=True)
class Total:
    verdict: Verdict
    reason: str
    rows: tuple[Row, ...]


def named_total(claim: Quantity, names: frozenset[str], rows: Sequence[Row],
                close: Callable[[Quantity, float], bool], computes: bool) -> Total | None:
    """``close(claim, value)`` says whether a value gives the claim's number."""
    named = [r for r in rows if r.structured and r.output and "\n" not in r.text
             and not r.text.lstrip().startswith(("{", '"')) and r.keys & names]
    tables: dict[tuple[int, int], list[tuple[Row, list[str]]]] = {}
    for row in named:
        found = cells(row.text)
        if len(found) >= 2:
            tables.setdefault((row.field_index, len(found)), []).append((row, found))
    for (_, width), members in tables.items():
        if len(members) < 2:
            continue
        sums: list[float] = []
        for column in range(width):
            values = [_single(cells[column]) for _, cells in members]
            if any(v is None or not compatible(claim, v) for v in values):
                continue
            total = sum(v.value for v in values if v is not None)
            these = tuple(r for r, _ in members)
            if close(claim, total):
                return Total("grounded", f"the sum of the {len(these)} named rows is {total:,.2f}", these)
            sums.append(total)
        if computes and len(sums) == 1 and not far_apart(claim.value, sums[0]):
            return Total("contradicted", f"the {len(members)} named rows sum to {sums[0]:,.2f}",
                         tuple(r for r, _ in members))
    return None


def _single(cell: str) -> Quantity | None:
    """The cell's number when the cell is only that number (a currency sign aside)."""
    found = quantities(cell)
    if len(found) != 1 or cell.replace(found[0].text, "", 1).strip(" $€£"):
        return None
    return found[0]

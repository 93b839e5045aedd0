"""Why a number no evidence states may still be no invention.

Two readings the arithmetic search does not make, each of which only keeps a claim from being
called ``invented`` (it goes to the grader):

- **A name.** A handoff names a thing by the number its identifier ends in: "store 77" for
  ``HLX-STORE-077``, "7781 on leg A" for circuit ``VX-100G-7781``. That number counts nothing.
- **A sum of picked rows.** "Four of the five are debit claims, USD 2,700.39 between them" sums
  the rows a condition picks out of one column. Any subset of a short column is tried; a hit
  counts only for a number written precisely enough (four significant digits or more) that a
  subset reaching it by chance is unlikely.
- **A share of a total.** "Physical sciences 66.1%" for a table row ``61 119`` (119 of 180);
  "Core zone carried 62% of trips" for ``core | 301877`` in a column of three counts. A cell over
  its row's or column's sum is tried, for a percentage written to a tenth when sixty shares or
  fewer are tried, otherwise when ten or fewer are, so a chance hit is unlikely.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from ._compare import compatible, tolerance
from ._index import EvidenceIndex
from ._quantity import Quantity

_MAX_COLUMN = 12  # 2**12 subsets of one column at most
_MAX_COLUMNS = 24  # columns tried per claim
_PRECISE_DIGITS = 4  # significant digits a claim needs: "2,700.39", not "1,000"
_FEW_SHARES = 10  # shares tried, at most, for a whole-number percentage
_SOME_SHARES = 60  # and for one written to a tenth


def id_part(q: Quantity, index: EvidenceIndex) -> str | None:
    """A visible identifier whose last part is the claim's whole number of two digits or more
    (a leading zero aside): "VX-100G-7781", "HLX-STORE-077"."""
    if q.family not in (None, "count") or not float(q.written).is_integer() or not 10 <= abs(q.written) < 1e9:
        return None
    digits = f"{abs(q.written):.0f}"
    # segments hold no separator, so the pattern cannot split one name many ways (no backtracking blow-up)
    found = index.search(re.compile(rf"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:[-_/#.][A-Za-z0-9]+)*?[-_/#]0*{digits}"
                                    rf"(?![\w.])"), digits)
    return found[1].group(0) if found is not None else None


def _significant(text: str) -> int:
    """Digits of a written number between its first and last non-zero one ("2,700.39" -> 6,
    "1,000" -> 1): how precisely it is written."""
    digits = "".join(re.findall(r"\d", text))
    return len(digits.strip("0"))


def picked_sum(q: Quantity, columns: Sequence[Sequence[Quantity]]) -> str | None:
    """The terms, if some two or more values of one column (not all of it) sum to the claim."""
    if not q.value or _significant(q.text) < _PRECISE_DIGITS:
        return None
    slack = tolerance(q)
    for column in columns[:_MAX_COLUMNS]:
        values = [e for e in column if compatible(q, e)]
        if not 3 <= len(values) <= _MAX_COLUMN:
            continue
        for size in range(2, len(values)):
            for terms in itertools.combinations(values, size):
                if abs(sum(e.value for e in terms) - q.value) <= slack:
                    return " + ".join(e.text.strip() for e in terms)
    return None


def share_of_total(q: Quantity, columns: Sequence[Sequence[Quantity]], rows: Sequence[Sequence[Quantity]]) -> str | None:
    """The cell, if a percentage is one cell's share of the sum of its table row or column."""
    if q.family != "percent" or not 0 < q.value < 100:
        return None
    groups = [g for g in (*columns, *rows) if len(g) >= 2 and all(e.family in (None, "count", "money") and e.value > 0
                                                                    for e in g)
              and len({e.family for e in g}) == 1]
    if sum(len(g) for g in groups) > (_FEW_SHARES if q.step > 0.1 or q.approx else _SOME_SHARES):
        return None
    slack = tolerance(q)
    for group in groups:
        total = sum(e.value for e in group)
        for cell in group:
            if abs(cell.value / total * 100.0 - q.value) <= slack:
                return f"{cell.text.strip()} of the total {total:g}"
    return None

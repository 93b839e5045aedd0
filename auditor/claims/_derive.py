"""Arithmetic on visible numbers: the simple operations that may give a claim's number
(``derive``), within its rounding (``close``), and the columns a sum or mean is taken over.

Only operations that give the claim's kind are tried (``_relation``): a ratio is a quotient of
like things, a share a part over its whole, a change a percentage change or a difference in
points; money comes from money, a percentage is applied to an amount, and a count is whole.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

from ._compare import compatible, supports
from ._quantity import Quantity
from ._relation import Relation
from ._rows import Row

_MAX_OPERANDS = 80
_MEASURES = frozenset({"money", "duration", "size", "length", "mass", "temperature"})  # units that carry through


class Derivation(NamedTuple):
    """Arithmetic on visible numbers that gives a claimed number: what it is, and whether it is
    sure enough to ground the claim (not a chance quotient of two unnamed numbers)."""

    text: str
    sure: bool = True


_CELL_BREAK = re.compile(r"\t|\|| {2,}")  # a tab (a comma-separated table's, once ``tabular``), a bar, a gap


def columns(rows: Sequence[Row]) -> list[list[Quantity]]:
    """Numbers that stand in one column: the same JSON key across objects, or the same cell
    position across the lines of one table."""
    by_key: dict[tuple[int, str], list[Quantity]] = {}
    for row in rows:
        if row.text.startswith('"') and len(row.quantities) == 1:
            key = row.text.split('"')[1]
            by_key.setdefault((row.field_index, key), []).append(row.quantities[0])
        elif "\n" not in row.text and not row.text.startswith("{"):
            cells = [c for c in _CELL_BREAK.split(row.text) if c.strip()]
            for position, cell in enumerate(cells):
                found = [q for q in row.quantities if cell.strip() and q.text.strip() == cell.strip()]
                if found:
                    by_key.setdefault((row.field_index, f"#{position}:{len(cells)}"), []).append(found[0])
    return [qs for qs in by_key.values() if len(qs) >= 2]


def derive(claim: Quantity, own: Sequence[Quantity], stated: Sequence[Quantity],
           columns: Sequence[Sequence[Quantity]], computed: bool, related: Relation | None = None) -> Derivation | None:
    """A description of simple arithmetic on visible numbers that gives ``claim``, if any (one
    operation on two numbers, a sum or mean of a list or column, or (a ± b) × c on the sentence's
    own visible numbers: "£22.90 against £21.50, 40 boxes, so £56.00 overcharged"). Only a
    percentage, a ratio, or a number whose sentence says it is computed ("in total", "=",
    "average", "per night", a signed difference) is looked for. The handoff's own numbers in the
    same sentence count as operands only when the evidence states them. A share or a change
    (``_relation``) is looked for only among the operations that give one."""
    visible = [o for o in own if any(supports(o, e) for e in stated)]
    ratio = claim.family in ("percent", "ratio")
    pool = visible + [e for e in stated if e.value != 0][-_MAX_OPERANDS:]
    if abs(claim.value) < 10 and claim.step >= 1 and not visible:
        return None
    if not computed and claim.family not in ("percent", "ratio"):
        return None
    for column in [visible, *columns]:
        same = [o for o in column if compatible(claim, o) and (o.family == claim.family or computed and not ratio)]
        if len(same) >= 2:
            total = sum(o.value for o in same)
            if close(claim, total) and (computed or not ratio):  # percentages add up only when the sentence says so
                return Derivation(f"sum of {', '.join(o.text for o in same)} = {total:g}")
            if computed and close(claim, total / len(same)):
                return Derivation(f"mean of {', '.join(o.text for o in same)} = {total / len(same):g}")
    for a, b, c in itertools.permutations(visible, 3) if computed else ():
        if c.family in _MEASURES or c.family == "percent":
            continue  # the multiplier counts ("40 boxes"); an amount times an amount is no amount
        for value, how in ((a.value - b.value) * c.value, "-"), ((a.value + b.value) * c.value, "+"):
            if _whole_close(claim, value):
                return Derivation(f"({a.text} {how} {b.text}) × {c.text} = {value:g}")
    place = {id(q): i for i, q in enumerate(stated)}
    unsure: Derivation | None = None
    for a, b in itertools.permutations(pool, 2):
        if a not in visible and b not in visible and not _near(a, b, place, 400 if computed else 120):
            continue
        if claim.family in ("ratio", "percent") and a.family != b.family and {a.family, b.family} != {None, "count"}:
            continue  # a quotient of unlike things ("1 warning / 0.08s") is no ratio; "44 users" of 18640 is one
        if claim.family in _MEASURES and claim.family not in (a.family, b.family):
            continue  # money comes from money ("$5 × 4 visits"), never from "5 times × 5 times"
        if a.family == "percent" and claim.family not in ("percent", "ratio"):
            continue  # a percentage is applied to an amount (as b), never multiplied as a plain number
        for value, how in _results(a.value, b.value, claim.family, related, a.family == "percent",
                                   b.family == "percent" and a.family != "percent", "percent" not in (a.family, b.family)):
            if how in "+-" and claim.family in _MEASURES and not a.family == b.family == claim.family:
                continue  # a sum or difference of money is of two amounts of money
            if how in "×/" and claim.family in _MEASURES and a.family == b.family == claim.family:
                continue  # and a product or quotient of two amounts is none
            if close(claim, value) if how.endswith("(%)") else _whole_close(claim, value):
                said = f"{a.text} {how} {b.text} = {value:g}"  # a share of a count rounds ("281 + 5%" -> 295)
                chance = how.startswith(("/", "change")) or (how == "-" and claim.family == "percent")
                if chance and not (computed or related or a in visible or b in visible):
                    # a quotient, a change or a difference in points of two numbers the sentence neither
                    # names nor says it computes: with a rounded percentage, some pair of nearby numbers
                    # matches by chance (right 0.6 of the time on the independent sets), so it is kept
                    # only if no sure derivation turns up, and then which two it is goes to the grader
                    unsure = unsure or Derivation(said, sure=False)
                    continue
                return Derivation(said)
    return unsure


def _near(a: Quantity, b: Quantity, place: dict[int, int], reach: int) -> bool:
    """Two evidence numbers are combined only when they come from the same place (within
    ``reach`` characters of one text: 400 when the sentence says it computes, 120 for a bare
    percentage or ratio), so distant unrelated numbers do not make up a result."""
    ia, ib = place.get(id(a), -100), place.get(id(b), 100)
    return abs(ia - ib) <= (12 if reach > 120 else 3) and abs(a.start - b.start) <= reach


def _results(a: float, b: float, family: str | None, related: Relation | None,
             points: bool, rate: bool = False, whole: bool = False) -> list[tuple[float, str]]:
    """The operations on ``a`` and ``b`` that can give a number of ``family``: a ratio is a
    quotient, a percentage a quotient as % (or the rest of the whole, as %) or a change in % (only
    one of them when the sentence says it is a share or a change; a change between two percentages may also be their
    difference in points), a percentage ``b`` applied to an amount ``a`` (added, taken off, or
    taken), anything else one of the four operations. The rest of a whole is taken only of a
    ``whole`` (neither number a percentage)."""
    if family == "ratio":
        return [(a / b, "/")] if b else []
    if family == "percent":
        if not b:
            return []
        share, change = (a / b * 100.0, "/ (as %)"), ((a - b) / b * 100.0, "change from (%)")
        # the rest of a whole of things: 112 crashed of 18,640 users is 99.4% crash-free
        rest = [(100.0 - a / b * 100.0, "/ (the rest, as %)")] if whole and a < b else []
        if related == "share":
            return [share, *rest]
        difference = [(a - b, "-")] if points else []  # percentage points: both are percentages
        if related == "change":
            return [change, *difference]
        return [share, *rest, change, *difference]
    if rate:  # "18% off $165", "£9,400 inc VAT at 20%", "active + 5%"
        return [(a * (1 + b / 100.0), "plus (%)"), (a * (1 - b / 100.0), "less (%)"), (a * b / 100.0, "at (%)")]
    out = [(a + b, "+"), (a - b, "-"), (a * b, "×")]
    return out + [(a / b, "/")] if b else out


def _whole_close(claim: Quantity, value: float) -> bool:
    """A result of arithmetic that gives the claim: a count only as a whole number ("2 files" is
    not 31.4 / 15)."""
    return close(claim, value) and (claim.family != "count" or abs(value - round(value)) < 1e-6)


def far_apart(a: float, b: float) -> bool:
    """Two numbers more than a thousandfold apart measure different things ("8 pts" and an id
    4478120 on the same row): neither can contradict the other."""
    a, b = abs(a), abs(b)
    return a > 0 and b > 0 and max(a, b) / min(a, b) > 1000.0


def close(claim: Quantity, value: float) -> bool:
    tolerance = max(claim.step / 2.0, abs(claim.value) * (0.05 if claim.approx else 0.0)) + 1e-9
    return abs(value - claim.value) <= tolerance or (claim.step >= 1 and 0 <= value - claim.value < claim.step
                                                     and not claim.approx)

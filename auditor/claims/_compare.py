"""Whether one number states another: the claim's written precision and hedge, the units a
number without one may be in, rounding to a round place, and which quantities can measure the
same thing at all (a family, a count's noun, a currency)."""

from __future__ import annotations

import re

from ._quantity import CURRENCIES, Quantity


def tolerance(claim: Quantity) -> float:
    """How far a number may be from the claim's and still state it (its rounding, or 5% hedged)."""
    base = claim.step if not claim.approx else max(claim.step, abs(claim.value) * 0.05)
    return base * (1.0 if claim.approx else 0.5) + 1e-9


#: The units a unit-less number of tool output may be in, as factors to the family's base unit.
_BARE_FACTORS: dict[str | None, tuple[float, ...]] = {
    "duration": (1.0, 1e-3, 60.0, 3600.0, 86400.0),
    "percent": (1.0, 100.0),
    "size": (1.0, 1e3, 1e6, 1e9, 1024.0, 1024.0 ** 2, 1024.0 ** 3),
}


def reading_factors(claim: Quantity) -> tuple[float, ...]:
    """The factors by which an evidence number can read as the claim's: those of a bare number
    (``_bare_factors``), and 1 for one with a unit ("1,340 µm" for "1.34 mm")."""
    return tuple(dict.fromkeys((*_bare_factors(claim), 1.0)))


def _bare_factors(claim: Quantity) -> tuple[float, ...]:
    """A bare number reads as a length or a mass only in the claim's own unit: "1.2" for "1.2 miles"."""
    if claim.family in ("length", "mass") and claim.written:
        return (claim.value / claim.written,)
    return _BARE_FACTORS.get(claim.family, (1.0,))


def _bare_readings(claim: Quantity, value: float) -> list[float]:
    """The values a unit-less number of tool output can stand for in the claim's family."""
    return [value * f for f in _bare_factors(claim)]


def stated_within(claim: Quantity) -> float:
    """How far a number that states the claim directly may lie from it: its ``tolerance``, or half
    the place a round number may be rounded to (``_rounded_to``)."""
    return max(tolerance(claim), _rounded_to(claim) / 2.0)


def _rounded_to(claim: Quantity) -> float:
    """The place a whole number with a unit, written with two significant digits or more and two
    zeros or more ("$65,600", "4,100 lb"), may be rounded to, in the claim's base unit; 0 for any other number (a
    hedged one has its own tolerance). Only a number that states the claim directly uses it: a
    result worked out from others must still hit the claim's written value."""
    written = claim.written
    if claim.approx or claim.bare or not float(written).is_integer():
        return 0.0  # a bare "8800" may be a port or an id, written exactly
    digits = f"{abs(written):.0f}"
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros < 2 or len(digits) - zeros < 2:
        return 0.0  # so written is not zero
    return 10.0 ** zeros * abs(claim.value / written)


def supports(claim: Quantity, evidence: Quantity) -> bool:
    """``evidence`` states the claim's number, up to the claim's written precision (rounding or
    truncation), its hedge ("~", "about": 5%) and the units of its family. A claim written
    without a sign gives a magnitude: a negative number of the evidence states it too."""
    if not compatible(claim, evidence) and not (claim.family == evidence.family == "count"):
        return False
    if claim.family == "money" and evidence.currency and claim.currency and evidence.currency != claim.currency:
        return False
    if claim.family == "money" and not (claim.approx or claim.rounded or _rounded_to(claim)) and claim.step == 1.0 \
            and 0 < evidence.step < 1.0 and abs(evidence.value - round(evidence.value)) > 1e-9:
        return False  # an amount is quoted exactly: "$14" is not "$13.50", though it rounds to it
    allowed = stated_within(claim)
    readings = _bare_readings(claim, evidence.value) if evidence.bare else [evidence.value]
    if claim.bare and not evidence.bare:
        readings = [evidence.written]
    if evidence.value < 0 < claim.value and "+" not in claim.text:
        readings = [abs(r) for r in readings]  # a debit of -18400.00 is "a $18,400.00 wire out"
    if claim.side is not None:  # "just under 20 minutes" is not 20m58s, nor "nearly 40%" 40.3%
        readings = [r for r in readings if (abs(r) <= abs(claim.value) if claim.side == "below"
                                            else abs(r) >= abs(claim.value))]
    for value in readings:
        if abs(value - claim.value) <= allowed:
            return True
        truncated = abs(claim.value) + claim.step > abs(value) >= abs(claim.value) and not claim.approx
        if truncated and (value >= 0) == (claim.value >= 0) and claim.step >= 1.0:
            return True
    return False


_CODES = re.compile(r"(?<![A-Za-z])(?:USD|EUR|GBP|JPY|CHF)(?![A-Za-z])|[$€£¥]")


def currencies(text: str) -> frozenset[str]:
    """The currencies a text names, by code or sign: a bare amount in a table whose currency is a
    cell of its own ("GBP      185.60") is in one of them."""
    return frozenset(CURRENCIES[m.group(0).lower()] for m in _CODES.finditer(text))


def compatible(claim: Quantity, evidence: Quantity) -> bool:
    """Could the two measure the same thing? Same family, or one of them bare."""
    if evidence.bare or claim.bare:
        return True
    if claim.family == "count" and evidence.family == "count":
        return claim.noun == evidence.noun
    if claim.currency and evidence.currency and claim.currency != evidence.currency:
        return False  # euros do not measure what pounds measure
    return claim.family == evidence.family

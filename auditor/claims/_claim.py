"""The claim: one checkable statement of a handoff, with its span and what the extractors read
of it (``_extract`` finds claims; ``_number_claims`` reads numbers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ._quantity import Quantity
from ._relation import Relation
from ._tools import Category

ClaimKind = Literal["result", "execution", "action", "path", "identifier", "number", "fuzzy"]
Polarity = Literal["positive", "negative"]


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    text: str
    start: int
    end: int
    sentence: tuple[int, int]
    category: Category | None = None
    polarity: Polarity = "positive"
    subkind: str | None = None
    value: str | None = None
    unit: str | None = None
    counts: tuple[tuple[str, int], ...] = ()
    quantity: Quantity | None = None
    date: tuple[int, int, int | None] | None = None
    keys: frozenset[str] = frozenset()
    operands: tuple[Quantity, ...] = ()
    computed: bool = False
    shown_code: bool = False
    collective: bool = False
    implicit: bool = False
    total: int | None = None
    #: The number is an upper bound the clause says was kept ("within the 150-word limit"); ``keys``
    #: then name what it limits, and ``items`` how many of them the clause counts ("all three").
    limit: bool = False
    items: int | None = None
    #: For a percentage or ratio: a share of a whole or a change between values (``_relation``),
    #: and the ``(part/whole)`` the sentence writes after it.
    relation: Relation | None = None
    fraction: tuple[float, float] | None = None
    #: The number counts a set the sentence says something of every member of ("all 12 nodes").
    universal: bool = False
    #: The number names a threshold ("over the 1,250-hour line"): a rule, which may come from
    #: outside the trace, so nothing stating it is no sign of invention.
    threshold: bool = False
    #: For a computed number: the records its sentence names (identifiers, capitalised names),
    #: whose total may give it ("the two Crestline invoices come to $127,320").
    names: frozenset[str] = frozenset()
    #: Only evidence naming the subject can ground the number ("Six of them are open access"):
    #: the same small number elsewhere says nothing.
    keyed: bool = False
    #: The sentence says the number is a sum, a mean or a difference of numbers it shows ("Together
    #: that's £5.6m"): its own visible numbers must give it.
    summed: bool = False
    #: For a span of days or weeks: the dates written near it, which it may be the distance between
    #: ("Tue 16 Jul ... Thu 25 Jul. That's 9 days between them").
    near_dates: tuple[tuple[int, int, int | None], ...] = ()

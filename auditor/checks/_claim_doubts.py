"""When a claim's failure is left to the grader: where it stands in the handoff says the
deterministic search may not have followed it.

* **Crowded parts.** A measure (an amount, a share, a span, a count, a time, a date) that fails
  beside another measure of its sentence part (a sentence, split at semicolons that end a clause)
  may be worked out from or stated with the other numbers by steps the search does not follow.
  On text nobody here tuned to, a number failing alone was a real defect about three times in
  four, one failing beside others about one time in three.
* **Forecasts.** A claim in a clause of what someone expects, plans or hopes ("We expect to mark
  the incident resolved by 16:00 UTC") says what is to come: absent from the evidence, it is no
  invention, and whether it is a fair forecast is the grader's.
* **Titles.** A ticket or pull-request number that opens the handoff ("PR #2218 `fix/...`",
  ``{"ticket": "MS-77120", ...``) names the work item the message is about, which the sender may
  have opened or been handed outside the trace: absent from the evidence, it is no invention.
* **Orders.** A claim inside a clause that orders the receiver ("Regenerate the lockfile under
  OPS-4471") asserts nothing: the name may be what the receiver is to create. Which clauses open
  with an order is the tagger's call (``TextAnalyzer.orders``), asked once per handoff for the
  clauses of its would-be inventions.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence

from ..claims import Claim
from ..nlp import Sentence, mask

#: Numbers that name rather than measure, and a tool's tally repeated (whose own numbers are claims).
_NOT_MEASURES = frozenset({"version", "ticket", "hash", "url", "tally"})
#: What may come before a ticket number that opens a handoff: a kind of work item ("PR", "Ticket:",
#: "Re:") or the first key of a JSON envelope (``{"ticket": "``).
_TITLE_LEAD = re.compile(r"[\s#*>\[(]*(?:(?:PR|MR|pull request|merge request|ticket|issue|case|incident|re|"
                         r"subject)\b[\s:#-]*)?|\s*\{\s*\"[\w -]{1,30}\"\s*:\s*\"?", re.IGNORECASE)
_FORECAST = re.compile(r"\b(?:expect(?:s|ed|ing)?|hop(?:e|es|ing)|intend(?:s|ed|ing)?|aim(?:s|ing)?|"
                       r"plan(?:s|ned|ning)?) to\b", re.IGNORECASE)
#: A semicolon that ends a clause (not one of an HTML entity: "&amp;").
_SEMICOLON = re.compile(r";(?=\s|$)")
_NAMED = re.compile(r"\b[A-Z][a-z]+ $")
_ENTITY = re.compile(r"&#?\w{1,10};")
#: Where an order may open inside a sentence ("Proposed fix: sort the parts ..."); not at a
#: conjunction, whose clause may share the sentence's subject ("Recipes bring sessions but convert at 1.7%").
_CLAUSE_OPEN = re.compile(r"[:;]\s+|\s[\u2014\u2013-]\s|\u2014")
#: How far from a claim its clause's opening is looked for; a clause opening further away is
#: read as no order.
_REACH = 300


def measure(claim: Claim, text: str) -> bool:
    """A number that measures or counts, not one that names (a version, a ticket, a hash, a link,
    or a bare whole number after a capitalised word: "Order 4412", "Service 12")."""
    if claim.kind != "number" or claim.subkind in _NOT_MEASURES:
        return False
    q = claim.quantity
    return not (q is not None and q.bare and q.step == 1 and _NAMED.search(text, max(0, claim.start - 30), claim.start))


class Parts:
    """The sentence parts of one handoff, and which of them give two measures or more (a
    measure inside another claim's span, such as the count of "INV-90418 (2)", is not counted
    apart from it)."""

    def __init__(self, text: str, claims: Sequence[Claim]) -> None:
        entities = {m.end() - 1 for m in _ENTITY.finditer(text)}
        self._semicolons = [m.start() for m in _SEMICOLON.finditer(mask(text).masked) if m.start() not in entities]
        self._text = text
        measures = sorted((c for c in claims if measure(c, text)), key=lambda c: (c.start, -c.end))
        counted: list[Claim] = []
        for claim in measures:
            if counted and claim.end <= counted[-1].end:
                continue  # inside the span of the one before
            counted.append(claim)
        tally = Counter(self.part(c) for c in counted)
        self._crowded = {part for part, n in tally.items() if n >= 2}

    def part(self, claim: Claim) -> tuple[int, int]:
        """The claim's sentence, and which of its parts holds the claim."""
        start = claim.sentence[0]
        return start, bisect_left(self._semicolons, claim.start) - bisect_left(self._semicolons, start)

    def crowds(self, claim: Claim) -> bool:
        return measure(claim, self._text) and self.part(claim) in self._crowded

    def doubt(self, claim: Claim, verdict: str) -> str | None:
        """Why a failure of ``claim`` is left to the grader, or None: it crowds its sentence part, it
        is a title, or it is a forecast."""
        if verdict in ("invented", "contradicted") and self.crowds(claim):
            return ("its sentence gives other numbers, which it may be worked out from or stated with by steps "
                    "the search does not follow")
        if verdict == "invented" and self.titles(claim):
            return ("it opens the handoff, naming the work item the message is about, which may have been opened "
                    "or handed over outside the trace")
        if verdict == "invented" and self.forecasts(claim):
            return "it is said of what someone expects, plans or hopes, which the evidence need not hold yet"
        return None

    def titles(self, claim: Claim) -> bool:
        """A ticket number the handoff opens with, as its title or its envelope's first value."""
        return claim.subkind == "ticket" and _TITLE_LEAD.fullmatch(self._text, 0, claim.start) is not None

    def forecasts(self, claim: Claim) -> bool:
        """The claim's clause, up to the claim, says what someone expects, plans or hopes."""
        start = max([claim.sentence[0], *(at + 1 for at in self._semicolons if at < claim.start)])
        return _FORECAST.search(self._text, start, claim.start) is not None


def order_clause(sentences: Sequence[Sentence], starts: Sequence[int], claim: Claim) -> str | None:
    """The clause holding the claim, from its opening (the sentence's start, a colon, a semicolon
    or a dash) to the next; None when the claim is in no sentence or its clause opens beyond
    ``_REACH``. ``starts`` are the sentences' start offsets."""
    at = bisect_right(starts, claim.start) - 1
    if at < 0 or claim.start >= sentences[at].end:
        return None
    sentence = sentences[at]
    offset = claim.start - sentence.start
    low = max(0, offset - _REACH)
    opening = max((m.end() for m in _CLAUSE_OPEN.finditer(sentence.text, low, offset)), default=None)
    if opening is None:
        if low > 0:
            return None
        opening = 0
    found = _CLAUSE_OPEN.search(sentence.text, offset, offset + _REACH)
    return sentence.text[opening:found.start() if found else offset + _REACH]

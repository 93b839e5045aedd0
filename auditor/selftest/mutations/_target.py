"""What a mutation works from (the edge, its message and the baseline findings on it) and what
it returns: a plan of splices, or the reason it does not apply to this edge."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ...checks import Finding, Quote
from ...edges import Edge
from ...nlp import TextAnalyzer
from ...trace import Trace
from .._splice import Splice

CONSTRAINTS = "edge-audit.constraints."
CLAIMS = "edge-audit.claims."


@dataclass(frozen=True)
class Target:
    trace: Trace
    edge: Edge
    #: The baseline audit's findings on this edge.
    findings: tuple[Finding, ...]
    rng: random.Random
    analyzer: TextAnalyzer

    def own(self, quote: Quote) -> bool:
        """Whether a quote is of this edge's message (not of another event)."""
        return quote.event_id == self.edge.message.id

    def kept_constraints(self) -> list[Finding]:
        """Constraints the baseline found kept, with their carrier in this message."""
        return [f for f in self.findings if f.check.startswith(CONSTRAINTS) and f.verdict == "kept"
                and f.upstream is not None and f.handoff and all(self.own(q) for q in f.handoff)]


#: A splice and what it does in words.
Edit = tuple[Splice, str]


@dataclass(frozen=True)
class Plan:
    """The splices of one mutation, what they do in words, and what must catch it: for a
    constraint mutation, the upstream constraint whose verdict must turn to a failure; for a
    claim mutation, any failing claim finding on the spliced text. ``extend`` gives the edits
    for one more sentence that carries the constraint (one the re-audit found still keeping it)."""

    splices: tuple[Splice, ...]
    description: str
    check: str
    constraint: Quote | None = None
    extend: Callable[[Quote], list[Edit]] | None = None


def disjoint(edits: list[Edit], taken: tuple[Splice, ...] = ()) -> list[Edit]:
    """The edits in text order without overlaps (with each other or with ``taken``): overlapping
    deletions merge into one; any other edit overlapping an earlier one is left out."""
    out: list[Edit] = []
    for splice, words in sorted(edits, key=lambda e: (e[0].field, e[0].start, e[0].end)):
        if any(t.field == splice.field and t.start < splice.end and splice.start < t.end for t in taken):
            continue
        last = out[-1][0] if out else None
        if last is not None and last.field == splice.field and splice.start < last.end:
            if last.text == splice.text == "":
                merged = Splice(last.field, last.start, max(last.end, splice.end), "")
                out[-1] = (merged, f"deleted {merged.field}[{merged.start}:{merged.end}]")
            continue
        out.append((splice, words))
    return out


def carrier_plan(target: Target, carrier_edits: Callable[[Target, Quote], list[Edit]], none: str) -> Plan | str:
    """A constraint mutation: one kept constraint (seeded choice among those whose carriers give
    edits), every sentence carrying it edited; ``none`` when no kept constraint gives any."""
    kept = target.kept_constraints()
    if not kept:
        return "no kept constraint carried by this message"
    editable = [(f, edits) for f in kept if (edits := disjoint([e for q in dict.fromkeys(f.handoff)
                                                                  for e in carrier_edits(target, q)]))]
    if not editable:
        return none
    finding, edits = pick(target, editable, lambda pair: finding_key(pair[0]))
    return Plan(tuple(s for s, _ in edits), f"{', '.join(w for _, w in edits)} in {finding.handoff[0].field}",
                CONSTRAINTS, finding.upstream, lambda quote: carrier_edits(target, quote))


T = TypeVar("T")


def finding_key(finding: Finding) -> tuple[str, int, int]:
    """A stable order of findings: by id (``<edge>#<n>``), then by the upstream span."""
    up = finding.upstream
    return finding.id, up.start if up else -1, up.end if up else -1


def pick(target: Target, options: list[T], key: Callable[[T], tuple[str, int, int]]) -> T:
    """One option, chosen by the target's seeded generator from the options in a stable order."""
    ordered = sorted(options, key=key)
    return ordered[target.rng.randrange(len(ordered))]

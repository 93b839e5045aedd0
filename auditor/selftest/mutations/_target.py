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


@dataclass(frozen=True)
class Plan:
    """The splices of one mutation, what they do in words, and what must catch it: for a
    constraint mutation, the upstream constraint whose verdict must turn to a failure; for a
    claim mutation, any failing claim finding on the spliced text."""

    splices: tuple[Splice, ...]
    description: str
    check: str
    constraint: Quote | None = None


T = TypeVar("T")


def finding_key(finding: Finding) -> tuple[str, int, int]:
    """A stable order of findings: by id (``<edge>#<n>``), then by the upstream span."""
    up = finding.upstream
    return finding.id, up.start if up else -1, up.end if up else -1


def pick(target: Target, options: list[T], key: Callable[[T], tuple[str, int, int]]) -> T:
    """One option, chosen by the target's seeded generator from the options in a stable order."""
    ordered = sorted(options, key=key)
    return ordered[target.rng.randrange(len(ordered))]

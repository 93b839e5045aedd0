"""invent: append a checkable claim nothing in the trace supports ("All 42 tests pass." where no
test ran), with a count that appears nowhere the source could see."""

from __future__ import annotations

from .._splice import Splice
from ._target import CLAIMS, Plan, Target

NAME = "invent"
TEMPLATES = (
    "All {n} tests pass.",
    "I ran the full test suite: {n} passed, 0 failed.",
    "The build succeeded and all {n} unit tests passed.",
)


def plan(target: Target) -> Plan | str:
    edge = target.edge
    if edge.capture == "partial":
        return "the source's capture is partial: a claim nothing supports is unverifiable by design"
    if not edge.upstream:
        return "an entry point (the source saw nothing): the claims pass skips it by design"
    seen = " ".join(text for item in edge.upstream for _, _, text in item.fields())
    n = next(str(k) for k in range(42, 10_000) if str(k) not in seen)
    claim = target.rng.choice(TEMPLATES).format(n=n)
    content = edge.message.content
    body = content.rstrip()
    text = ("\n\n" if body else "") + claim
    return Plan((Splice("content", len(body), len(body), text),), f"appended {claim!r}", CLAIMS)

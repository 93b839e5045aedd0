"""A rule and what it found: a status from the closed vocabulary, a verdict, a summary, and the
evidence (event ids and times). Expected and actual values never include argument values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

RuleStatus = Literal["pass", "fail", "warn", "unmeasured"]
#: Evidence lists are bounded; the rest is counted in ``Outcome.details["evidence_omitted"]``.
MAX_EVIDENCE = 16


@dataclass(frozen=True)
class Evidence:
    """One event a verdict rests on: its id, kind (tool, llm, message, or run) and name, and its
    recorded start and end (ISO-8601, None when the trace did not record them)."""

    event_id: str
    kind: str
    name: str
    start: str | None
    end: str | None

    def as_dict(self) -> dict[str, str | None]:
        return {"event_id": self.event_id, "kind": self.kind, "name": self.name, "start": self.start,
                "end": self.end}


@dataclass(frozen=True)
class Outcome:
    status: RuleStatus
    verdict: str
    summary: str
    evidence: tuple[Evidence, ...] = ()
    expected: object = None
    actual: object = None
    details: Mapping[str, object] = field(default_factory=dict)


def outcome(status: RuleStatus, verdict: str, summary: str, evidence: list[Evidence] | tuple[Evidence, ...] = (),
            expected: object = None, actual: object = None, **details: object) -> Outcome:
    """An outcome with its evidence bounded to ``MAX_EVIDENCE`` items (the rest counted)."""
    items = tuple(evidence)
    if len(items) > MAX_EVIDENCE:
        details = {**details, "evidence_omitted": len(items) - MAX_EVIDENCE}
        items = items[:MAX_EVIDENCE]
    return Outcome(status, verdict, summary, items, expected, actual, details)

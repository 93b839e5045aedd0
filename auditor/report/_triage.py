"""Triage: the edges to read first, worst first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..checks import Finding
from ..graders import SemanticFinding
from ._model import EdgeModel, TriageModel

#: Edges the report's triage list keeps.
TRIAGE_SIZE = 25
_STATUS_RANK = {"fail": 0, "warn": 1, "unmeasured": 2}


def triage(edges: Sequence[EdgeModel], findings: Sequence[Finding], semantic: Sequence[SemanticFinding],
           limit: int = TRIAGE_SIZE) -> list[TriageModel]:
    """The edges that did not pass, worst first: by status (fail, warn, unmeasured), then by
    their numbers of failing, warning, semantically failing and unmeasured findings, then by id."""
    by_status: dict[str, Counter[str]] = {}
    for f in findings:
        by_status.setdefault(f.edge_id, Counter())[f.status] += 1
    semantic_fail = Counter(f.edge_id for f in semantic if f.status == "fail")
    rows = []
    for e in edges:
        if e.status not in _STATUS_RANK:
            continue
        counts = by_status.get(e.id, Counter())
        rows.append(TriageModel(edge_id=e.id, trace_id=e.trace_id, route=f"{e.source}->{e.destination}",
                                status=e.status, fail=counts["fail"], warn=counts["warn"],
                                unmeasured=counts["unmeasured"], semantic_fail=semantic_fail[e.id],
                                verdicts=dict(sorted(e.counts.items()))))
    rows.sort(key=lambda r: (_STATUS_RANK[r.status], -r.fail, -r.warn, -r.semantic_fail, -r.unmeasured, r.edge_id))
    return rows[:limit]

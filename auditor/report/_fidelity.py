"""Edge fidelity: each message edge starts at 1.0 and loses weighted points for what its handoff
lost (constraints dropped, softened, inverted) or made up (claims invented, contradicted).
Sufficiency is a separate bit, never part of the score. Scores are aggregated per route.

A score covers the decided findings only: the items left unmeasured (for the graders, or
unverifiable) are counted beside it, so 1.0 with unmeasured items means "nothing lost that the
checks could decide", not "nothing lost".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..checks import Finding
from ..config import FidelityWeights
from ..sufficiency import Result as SufficiencyResult

#: The check (by registry name prefix) each weighted verdict belongs to.
WEIGHTED = {"dropped": "edge-audit.constraints.", "softened": "edge-audit.constraints.",
            "inverted": "edge-audit.constraints.", "invented": "edge-audit.claims.",
            "contradicted": "edge-audit.claims."}
_SCORED = ("edge-audit.constraints.", "edge-audit.claims.")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EdgeFidelity(_Model):
    edge_id: str
    route: str = Field(description="source->destination")
    score: float = Field(description="1.0 minus the weighted deductions, floored at 0")
    deductions: dict[str, int] = Field(description="Findings per weighted verdict")
    unmeasured: int = Field(description="Constraint and claim items the checks left unmeasured")
    sufficient: bool | None = Field(description="Sufficiency: true stands_alone, false leaked_context or broken, "
                                                "null not run or inconclusive")


class RouteFidelity(_Model):
    edges: int
    mean: float
    min: float
    deductions: dict[str, int]
    unmeasured: int
    sufficient: int = Field(description="Edges whose handoff stood alone")
    insufficient: int = Field(description="Edges with leaked context or broken")


class FidelitySection(_Model):
    weights: dict[str, float] = Field(default_factory=dict)
    edges: list[EdgeFidelity] = Field(default_factory=list)
    routes: dict[str, RouteFidelity] = Field(default_factory=dict)


def route_key(source: str, destination: str) -> str:
    return f"{source}->{destination}"


def _sufficient(result: SufficiencyResult | None) -> bool | None:
    if result is None or result.verdict == "inconclusive":
        return None
    return result.verdict == "stands_alone"


def fidelity_section(edges: Iterable[tuple[str, str, str]], findings: Sequence[Finding],
                     sufficiency: Sequence[SufficiencyResult], weights: FidelityWeights) -> FidelitySection:
    """The fidelity of each message edge ``(id, source, destination)`` and of each route."""
    table: Mapping[str, float] = weights.model_dump()
    by_edge: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.check.startswith(_SCORED):
            by_edge.setdefault(finding.edge_id, []).append(finding)
    checked = {r.edge_id: r for r in sufficiency}
    scored = []
    for edge_id, source, destination in edges:
        mine = by_edge.get(edge_id, [])
        lost = Counter(f.verdict for f in mine if f.verdict in WEIGHTED and f.check.startswith(WEIGHTED[f.verdict]))
        score = max(0.0, 1.0 - sum(table[v] * n for v, n in lost.items()))
        scored.append(EdgeFidelity(edge_id=edge_id, route=route_key(source, destination), score=round(score, 4),
                                   deductions={v: lost[v] for v in WEIGHTED if lost[v]},
                                   unmeasured=sum(1 for f in mine if f.status == "unmeasured"),
                                   sufficient=_sufficient(checked.get(edge_id))))
    routes = {}
    for route in sorted({e.route for e in scored}):
        mine_e = [e for e in scored if e.route == route]
        total: Counter[str] = Counter()
        for e in mine_e:
            total.update(e.deductions)
        routes[route] = RouteFidelity(
            edges=len(mine_e), mean=round(sum(e.score for e in mine_e) / len(mine_e), 4),
            min=min(e.score for e in mine_e), deductions={v: total[v] for v in WEIGHTED if total[v]},
            unmeasured=sum(e.unmeasured for e in mine_e), sufficient=sum(e.sufficient is True for e in mine_e),
            insufficient=sum(e.sufficient is False for e in mine_e))
    return FidelitySection(weights=dict(table), edges=scored, routes=routes)


def weights_text(weights: Mapping[str, float]) -> str:
    return ", ".join(f"{verdict} -{points:g}" for verdict, points in weights.items())


def route_fidelity_rows(section: FidelitySection) -> list[tuple[str, str, str, str, str, str]]:
    """(route, edges, mean, min, deductions, unmeasured/sufficiency) per route, worst mean first."""
    rows = []
    for route, agg in sorted(section.routes.items(), key=lambda kv: (kv[1].mean, kv[0])):
        lost = ", ".join(f"{v} {n}" for v, n in agg.deductions.items()) or "-"
        suff = f"{agg.sufficient} stand alone, {agg.insufficient} do not" if agg.sufficient + agg.insufficient else "-"
        rows.append((route, str(agg.edges), f"{agg.mean:.2f}", f"{agg.min:.2f}", lost, f"{agg.unmeasured}; {suff}"))
    return rows

"""Fidelity for the run history: the report's own figures when it carries a ``fidelity``
section (the edge-fidelity score of the self-test work), else one computed from verdict counts.

The fallback: an edge starts at 1.0 and loses ``LOSS`` for each deterministic finding that says
something was lost on it (a constraint dropped, softened or inverted; a claim invented or
contradicted), floored at 0; a route's fidelity is the mean over its message edges. It is a
coarse figure for trends, not a score to compare across tool versions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from ..report import Report

LOST_VERDICTS = frozenset({"dropped", "softened", "inverted", "invented", "contradicted"})
LOSS = 0.25


def edge_fidelity(report: Report) -> dict[str, float]:
    """Each message edge's fidelity from its verdict counts (the fallback above)."""
    lost = Counter(f.edge_id for f in report.deterministic.findings if f.verdict in LOST_VERDICTS)
    return {e.id: max(0.0, 1.0 - LOSS * lost[e.id]) for e in report.edges if e.kind == "message"}


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, Mapping):
        for key in ("fidelity", "score", "mean"):
            if isinstance(value.get(key), int | float) and not isinstance(value.get(key), bool):
                return float(value[key])
    return None


def report_fidelity(report: Report) -> tuple[dict[str, float], str]:
    """Per-route fidelity and where it came from: ``report`` (the report's ``fidelity`` section:
    ``{"routes": {route: number or {"fidelity": number}}}``) or ``verdicts`` (the fallback)."""
    raw = getattr(report, "fidelity", None)
    section = raw.model_dump(mode="json") if isinstance(raw, BaseModel) else raw
    routes = section.get("routes", section) if isinstance(section, Mapping) else None
    if isinstance(routes, Mapping):
        given = {str(route): n for route, value in routes.items() if (n := _number(value)) is not None}
        if given:
            return given, "report"
    per_route: dict[str, list[float]] = {}
    fidelity = edge_fidelity(report)
    for e in report.edges:
        if e.id in fidelity:
            per_route.setdefault(f"{e.source}->{e.destination}", []).append(fidelity[e.id])
    return {route: round(sum(v) / len(v), 4) for route, v in sorted(per_route.items())}, "verdicts"

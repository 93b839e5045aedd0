"""Divergence between edge fidelity and the end-to-end score, across reports in time order.

For each report, every route gets its mean edge fidelity (recomputed from the report's findings
with the config's weights, so reports written under other weights compare fairly) and the mean
end-to-end score (``metadata.score`` of the trace, shown as ``traces[].score`` in a report) of the
traces with an edge on that route. From one report to the next, a route whose fidelity fell by
more than ``fidelity_drop`` is:

* ``divergence`` when its end-to-end score moved by no more than ``score_tolerance``: downstream
  agents are covering for an upstream loss, the alert worth paging on (exit 1);
* ``parallel_drop`` when the score fell too (the end-to-end eval already sees it);
* ``score_rose`` when the score went up by more than the tolerance;
* ``unscored`` when either report has no score for the route's traces: it cannot tell (never a pass).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from ..config import FidelityWeights, TrendConfig
from ..errors import UsageError
from ..report import Report, fidelity_section, route_key

Verdict = Literal["divergence", "parallel_drop", "score_rose", "unscored"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RoutePoint(_Model):
    fidelity: float
    edges: int
    score: float | None


class RouteChange(_Model):
    route: str
    old: str
    new: str
    verdict: Verdict
    fidelity_old: float
    fidelity_new: float
    score_old: float | None
    score_new: float | None


class TrendResult(_Model):
    reports: list[str]
    fidelity_drop: float
    score_tolerance: float
    weights: dict[str, float]
    points: list[dict[str, RoutePoint]]
    changes: list[RouteChange]

    @property
    def divergent(self) -> list[RouteChange]:
        return [c for c in self.changes if c.verdict == "divergence"]


def _read(path: str | Path) -> Report:
    try:
        return Report.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    except (ValueError, ValidationError) as err:
        raise UsageError(f"{path}: not an edge-audit run report: {str(err).splitlines()[0]}") from None


def route_points(report: Report, weights: FidelityWeights) -> dict[str, RoutePoint]:
    """Each route's mean fidelity and the mean end-to-end score of the traces it appears in."""
    message_edges = [e for e in report.edges if e.kind == "message"]
    section = fidelity_section([(e.id, e.source, e.destination) for e in message_edges],
                               report.deterministic.findings, report.semantic.sufficiency, weights)
    scores = route_scores(report)
    return {route: RoutePoint(fidelity=agg.mean, edges=agg.edges, score=scores.get(route))
            for route, agg in section.routes.items()}


def route_scores(report: Report) -> dict[str, float | None]:
    """Per route of message edges, the mean end-to-end score of the traces it appears in; None
    unless every one of them has a score."""
    traces: dict[str, set[str]] = {}
    for e in report.edges:
        if e.kind == "message":
            traces.setdefault(route_key(e.source, e.destination), set()).add(e.trace_id)
    scores = {t.trace_id: t.score for t in report.traces}
    out: dict[str, float | None] = {}
    for route, ids in traces.items():
        known = [s for t in sorted(ids) if (s := scores.get(t)) is not None]
        out[route] = round(sum(known) / len(known), 4) if known and len(known) == len(ids) else None
    return out


def classify(fidelity_old: float, fidelity_new: float, score_old: float | None, score_new: float | None,
             settings: TrendConfig) -> Verdict | None:
    """What one route's change between two runs is (module docstring); None when its fidelity did
    not fall by more than ``fidelity_drop``. ``edge-audit history`` uses it too."""
    if fidelity_old - fidelity_new <= settings.fidelity_drop:
        return None
    if score_old is None or score_new is None:
        return "unscored"
    if abs(score_new - score_old) <= settings.score_tolerance:
        return "divergence"
    return "parallel_drop" if score_new < score_old else "score_rose"


def trend(paths: Sequence[str | Path], weights: FidelityWeights, settings: TrendConfig) -> TrendResult:
    """Compare each report with the one before it (give them oldest first)."""
    if len(paths) < 2:
        raise UsageError("trend needs at least two reports, oldest first")
    points = [route_points(_read(p), weights) for p in paths]
    changes = []
    for i in range(1, len(paths)):
        (old_path, old), (new_path, new) = (paths[i - 1], points[i - 1]), (paths[i], points[i])
        for route in sorted(set(old) & set(new)):
            a, b = old[route], new[route]
            verdict = classify(a.fidelity, b.fidelity, a.score, b.score, settings)
            if verdict is None:
                continue
            changes.append(RouteChange(route=route, old=str(old_path), new=str(new_path), verdict=verdict,
                                       fidelity_old=a.fidelity, fidelity_new=b.fidelity, score_old=a.score,
                                       score_new=b.score))
    return TrendResult(reports=[str(p) for p in paths], fidelity_drop=settings.fidelity_drop,
                       score_tolerance=settings.score_tolerance, weights=weights.model_dump(), points=points,
                       changes=changes)


def trend_lines(result: TrendResult) -> list[str]:
    def score(value: float | None) -> str:
        return "none" if value is None else f"{value:.2f}"

    lines = [f"trend over {len(result.reports)} reports: a route is flagged when its fidelity falls by more than "
             f"{result.fidelity_drop:g} while its end-to-end score moves by at most {result.score_tolerance:g}"]
    for c in result.changes:
        lines.append(f"{c.verdict:14} {c.route.replace('->', ' → ')}: fidelity {c.fidelity_old:.2f} -> "
                     f"{c.fidelity_new:.2f}, end-to-end score {score(c.score_old)} -> {score(c.score_new)} "
                     f"({c.old} -> {c.new})")
    flagged = len(result.divergent)
    lines.append(f"{flagged} divergent route{'' if flagged == 1 else 's'}; "
                 f"{len(result.changes) - flagged} other fidelity drop{'' if len(result.changes) - flagged == 1 else 's'}")
    return lines

"""Reading the run history back: per route, one point per run, the trend across them, and the
divergence alert of ``edge-audit trend`` (``auditor.trend.classify``) between consecutive runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..config import TrendConfig
from ..trend import Verdict, classify
from ._history import DEFAULT_HISTORY, connect


@dataclass(frozen=True)
class RoutePoint:
    """One route in one recorded run."""

    run_id: int
    recorded_at: str
    label: str | None
    tool_version: str
    edges: int
    failed_edges: int
    failures: int
    fidelity: float | None
    score: float | None = None  # mean end-to-end score of the route's traces (None: not every one scored)


@dataclass(frozen=True)
class RouteAlert:
    """A route whose fidelity fell from one recorded run to the next, and what its score did."""

    route: str
    old_run: int
    new_run: int
    verdict: Verdict
    fidelity_old: float
    fidelity_new: float
    score_old: float | None
    score_new: float | None


def route_history(path: str | Path = DEFAULT_HISTORY, routes: Sequence[str] = (),
                  last: int | None = None) -> dict[str, list[RoutePoint]]:
    """Per route (all, or those named), its points in run order, over the last ``last`` runs."""
    with connect(Path(path), create=False) as db:
        run_ids = [r[0] for r in db.execute("SELECT run_id FROM runs ORDER BY run_id DESC"
                                            + (" LIMIT ?" if last else ""), (last,) if last else ())]
        if not run_ids:
            return {}
        marks = ",".join("?" * len(run_ids))
        query = ("SELECT rr.route, r.run_id, r.recorded_at, r.label, r.tool_version, rr.edges, rr.failed_edges, "
                 "rr.failures, rr.fidelity, rr.score FROM route_runs rr JOIN runs r USING (run_id) "
                 f"WHERE r.run_id IN ({marks})")
        params: list[Any] = list(run_ids)
        if routes:
            query += f" AND rr.route IN ({','.join('?' * len(routes))})"
            params += list(routes)
        out: dict[str, list[RoutePoint]] = {}
        for row in db.execute(query + " ORDER BY rr.route, r.run_id", params):
            out.setdefault(row[0], []).append(RoutePoint(*row[1:]))
        return out


def trend(points: Sequence[RoutePoint]) -> str:
    """``rising``, ``falling`` or ``flat``: failing findings per edge, first run against last."""
    if len(points) < 2:
        return "one run"
    first, final = (p.failures / p.edges if p.edges else 0.0 for p in (points[0], points[-1]))
    return "rising" if final > first else "falling" if final < first else "flat"


def alerts(history: dict[str, list[RoutePoint]], settings: TrendConfig) -> list[RouteAlert]:
    """Routes whose fidelity fell by more than ``settings.fidelity_drop`` between consecutive runs,
    each classified as ``edge-audit trend`` does (``divergence`` is the one worth paging on)."""
    out = []
    for route, points in history.items():
        for a, b in zip(points, points[1:], strict=False):
            if a.fidelity is None or b.fidelity is None:
                continue
            verdict = classify(a.fidelity, b.fidelity, a.score, b.score, settings)
            if verdict is not None:
                out.append(RouteAlert(route, a.run_id, b.run_id, verdict, a.fidelity, b.fidelity, a.score, b.score))
    return out


def format_history(history: dict[str, list[RoutePoint]], settings: TrendConfig | None = None) -> str:
    """The history as text: per route, a line per run, then the trend."""
    if not history:
        return "no runs recorded"
    lines = []
    for route, points in history.items():
        lines.append(f"{route}")
        lines.append(f"  {'run':14}  {'recorded':20}  {'edges':>6}  {'failing':>7}  {'failures':>8}  fidelity")
        for p in points:
            fidelity = "-" if p.fidelity is None else f"{p.fidelity:.3f}"
            name = f"{p.run_id}" + (f" {p.label}" if p.label else "")
            lines.append(f"  {name:14}  {p.recorded_at:20}  {p.edges:>6}  {p.failed_edges:>7}  {p.failures:>8}  "
                         f"{fidelity}")
        failures = " → ".join(str(p.failures) for p in points)
        lines.append(f"  failures {failures}: {trend(points)}")
        for alert in alerts({route: points}, settings or TrendConfig()):
            lines.append(f"  {alert.verdict}: run {alert.old_run} -> {alert.new_run}, fidelity "
                         f"{alert.fidelity_old:.2f} -> {alert.fidelity_new:.2f}, end-to-end score "
                         f"{_score(alert.score_old)} -> {_score(alert.score_new)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _score(value: float | None) -> str:
    return "none" if value is None else f"{value:.2f}"


def history_json(history: dict[str, list[RoutePoint]], settings: TrendConfig | None = None) -> dict[str, Any]:
    found = alerts(history, settings or TrendConfig())
    return {route: {"trend": trend(points), "runs": [asdict(p) for p in points],
                    "alerts": [asdict(a) for a in found if a.route == route]} for route, points in history.items()}

"""Per-route aggregates of the sufficiency results (degraded legs left out)."""

from __future__ import annotations

from collections import Counter

from ..sufficiency import Result
from ._model import RouteSufficiencyModel


def route_summary(results: list[Result]) -> dict[str, RouteSufficiencyModel]:
    out: dict[str, RouteSufficiencyModel] = {}
    for route in dict.fromkeys(r.route for r in results):
        mine = [r for r in results if r.route == route]
        measured = [r for r in mine if "degraded" not in (r.context_off.status, r.context_on.status)]
        fields = Counter(q.missing_field for r in measured for q in r.questions)
        out[route] = RouteSufficiencyModel(
            edges=len(mine), verdicts=dict(Counter(r.verdict for r in mine)), measured=len(measured),
            stands_alone_rate=(sum(r.verdict == "stands_alone" for r in measured) / len(measured)) if measured else None,
            missing_fields=dict(fields.most_common()))
    return out

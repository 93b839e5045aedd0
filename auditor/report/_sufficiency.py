"""Sufficiency results as report models, and their per-route aggregates (degraded legs left out)."""

from __future__ import annotations

from collections import Counter

from ..sufficiency import Leg, Result
from ._model import (
    IgnoredContextModel,
    LegModel,
    QuestionModel,
    RouteSufficiencyModel,
    RubricRefModel,
    SufficiencyModel,
)


def _leg(leg: Leg) -> LegModel:
    return LegModel(status=leg.status, score=leg.score, output_source=leg.output_source,
                    decision_source=leg.decision_source, evidence=leg.evidence, degraded_reason=leg.degraded_reason,
                    output_event=leg.output_event, output_excerpt=leg.output_excerpt, tokens=leg.tokens)


def sufficiency_model(r: Result) -> SufficiencyModel:
    return SufficiencyModel(
        edge_id=r.case.edge_id, route=r.case.route, verdict=r.verdict, reason=r.reason, acceptance=r.acceptance,
        context_off=_leg(r.off), context_on=_leg(r.on), score_delta=r.score_delta, token_delta=r.token_delta,
        tool_delta=r.tool_delta,
        questions=[QuestionModel(question=q.question, missing_field=q.missing_field) for q in r.questions],
        ignored_context=[IgnoredContextModel(event_id=e, term=t) for e, t in r.ignored_context],
        deterministic=list(r.deterministic),
        rubric=RubricRefModel(id=r.rubric.id, version=r.rubric.version, hash=r.rubric.hash) if r.rubric else None,
        model=r.model, receiver_model=r.receiver_model,
    )


def route_summary(results: list[SufficiencyModel]) -> dict[str, RouteSufficiencyModel]:
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

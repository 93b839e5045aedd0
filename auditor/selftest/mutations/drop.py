"""drop: delete every sentence of the handoff that carries a kept constraint, where the receiver
never saw the constraint itself (had it seen it, as in a group chat, nothing was lost)."""

from __future__ import annotations

from ...edges import Quote
from .._splice import Splice
from ._target import Edit, Plan, Target, carrier_plan

NAME = "drop"


def carrier_edits(target: Target, carrier: Quote) -> list[Edit]:
    return [(Splice(carrier.field, carrier.start, carrier.end, ""),
             f"deleted {carrier.field}[{carrier.start}:{carrier.end}]")]


def plan(target: Target) -> Plan | str:
    seen = target.edge.receiver_saw
    unseen = Target(target.trace, target.edge, tuple(
        f for f in target.findings if f.upstream is None or f.upstream.event_id not in seen), target.rng,
        target.analyzer)
    if target.kept_constraints() and not unseen.kept_constraints():
        return "the receiver saw every kept constraint itself"
    return carrier_plan(unseen, carrier_edits, "no kept constraint to drop")

"""drop: delete every sentence of the handoff that carries a kept constraint, where the receiver
never saw the constraint itself (had it seen it, as in a group chat, nothing was lost)."""

from __future__ import annotations

from .._splice import Splice
from ._target import CONSTRAINTS, Plan, Target, finding_key, pick

NAME = "drop"


def plan(target: Target) -> Plan | str:
    kept = target.kept_constraints()
    if not kept:
        return "no kept constraint carried by this message"
    unseen = [f for f in kept if f.upstream is not None and f.upstream.event_id not in target.edge.receiver_saw]
    if not unseen:
        return "the receiver saw every kept constraint itself"
    finding = pick(target, unseen, finding_key)
    spans = sorted({(q.field, q.start, q.end) for q in finding.handoff})
    merged: list[tuple[str, int, int]] = []
    for field, start, end in spans:
        if merged and merged[-1][0] == field and start <= merged[-1][2]:
            merged[-1] = (field, merged[-1][1], max(end, merged[-1][2]))
        else:
            merged.append((field, start, end))
    splices = tuple(Splice(field, start, end, "") for field, start, end in merged)
    where = ", ".join(f"{f}[{s}:{e}]" for f, s, e in merged)
    return Plan(splices, f"deleted {where}", CONSTRAINTS, finding.upstream)

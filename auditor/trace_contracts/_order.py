"""Order relations between two sets of steps, in three modes.

* ``first-occurrence``: the first ``before`` step comes before the first ``after`` step in the
  trace's event order (model calls, which have no place in it, by start time). Overlapping
  intervals are a non-failing ``overlap`` warning.
* ``happens-before``: the first ``before`` step ends no later than the first ``after`` starts.
* ``all-occurrences``: every ``before`` step ends no later than any ``after`` starts.

In the two causal modes a missing start or end time is ``missing_time`` (unmeasured): the rule
never falls back to event order.
"""

from __future__ import annotations

from datetime import datetime

from ._facts import Facts, Step
from ._model import Endpoint, OrderMode, OrderRule, StepOrder
from ._outcome import Outcome, RuleStatus, outcome
from ._rule import Rule


def _label(endpoint: Endpoint) -> str:
    to = f"->{endpoint.to}" if endpoint.to else ""
    return f"{endpoint.kind} {endpoint.name}{to}"


def _ts(value: datetime | None) -> float:
    return value.timestamp() if value is not None else 0.0


def _sort_key(steps: list[Step]) -> tuple[str, dict[str, tuple[float, str]]] | None:
    """How to order these steps: by event position when all have one, else by start time
    (None when a start is missing)."""
    if all(s.position is not None for s in steps):
        return "position", {s.id: (float(s.position or 0), s.id) for s in steps}
    if any(s.start is None for s in steps):
        return None
    return "start", {s.id: (_ts(s.start), s.id) for s in steps}


def compare(facts: Facts, before: list[Step], after: list[Step], mode: OrderMode, labels: tuple[str, str],
            missing: RuleStatus) -> Outcome:
    """The verdict of "``labels[0]`` before ``labels[1]``" over the given steps. ``missing`` is the
    status when an endpoint did not occur."""
    expected = {"before": labels[0], "after": labels[1], "mode": mode}
    absent = [label for label, steps in zip(labels, (before, after), strict=True) if not steps]
    if absent:
        return outcome(missing, "endpoint_missing", f"{' and '.join(absent)} did not occur, so the order "
                       f"{labels[0]} before {labels[1]} cannot hold", [facts.run_evidence()], expected,
                       {"missing": absent})
    if mode == "first-occurrence":
        keyed = _sort_key(before + after)
        if keyed is None:
            untimed = [s.evidence() for s in before + after if s.start is None]
            return outcome("unmeasured", "missing_time", "a model call has no start time and no place in the event "
                           "order, so first occurrences cannot be compared", untimed, expected)
        key = keyed[1]
        first_b = min(before, key=lambda s: key[s.id])
        first_a = min(after, key=lambda s: key[s.id])
        pair = [first_b.evidence(), first_a.evidence()]
        if key[first_b.id] >= key[first_a.id]:
            return outcome("fail", "out_of_order", f"{labels[1]} ({first_a.id}) came before {labels[0]} "
                           f"({first_b.id})", pair, expected)
        if first_b.end is not None and first_a.start is not None and first_b.end > first_a.start:
            return outcome("warn", "overlap", f"{labels[0]} ({first_b.id}) started first but was still running "
                           f"when {labels[1]} ({first_a.id}) started", pair, expected)
        return outcome("pass", "ordered", f"{labels[0]} ({first_b.id}) came before {labels[1]} ({first_a.id})",
                       pair, expected)
    if mode == "happens-before":
        early_b, early_a = _earliest(before), _earliest(after)
        pair = [s.evidence() for s in (early_b, early_a) if s is not None]
        if early_b is None or early_a is None or early_b.end is None or early_a.start is None:
            untimed = [s.evidence() for s in before + after if s.start is None or s.end is None]
            return outcome("unmeasured", "missing_time", "a start or end time needed to decide happens-before is "
                           "not recorded", untimed or pair, expected)
        if early_b.end <= early_a.start:
            return outcome("pass", "ordered", f"{labels[0]} ({early_b.id}) ended before {labels[1]} "
                           f"({early_a.id}) started", pair, expected)
        return outcome("fail", "not_happened_before", f"{labels[0]} ({early_b.id}) had not ended when {labels[1]} "
                       f"({early_a.id}) started", pair, expected)
    untimed = [s.evidence() for s in before if s.end is None] + [s.evidence() for s in after if s.start is None]
    if untimed:
        return outcome("unmeasured", "missing_time", "an end time of a before step or a start time of an after step "
                       "is not recorded", untimed, expected)
    last_b = max(before, key=lambda s: (_ts(s.end), s.id))
    first_a = min(after, key=lambda s: (_ts(s.start), s.id))
    pair = [last_b.evidence(), first_a.evidence()]
    if last_b.end is not None and first_a.start is not None and last_b.end <= first_a.start:
        return outcome("pass", "ordered", f"every {labels[0]} ended before any {labels[1]} started", pair, expected)
    return outcome("fail", "not_all_before", f"{labels[0]} ({last_b.id}) ended after {labels[1]} ({first_a.id}) "
                   "started", pair, expected)


def _earliest(steps: list[Step]) -> Step | None:
    """The first step by event position (or start time for model calls); None when model calls
    without a start time make it unknowable."""
    keyed = _sort_key(steps)
    if keyed is None:
        return None
    return min(steps, key=lambda s: keyed[1][s.id])


def _tool(name: str) -> Endpoint:
    return Endpoint(kind="tool", name=name)


def order_rule(rule_id: str, before: Endpoint, after: Endpoint, mode: OrderMode, missing: RuleStatus) -> Rule:
    labels = (_label(before), _label(after))
    how = {"first-occurrence": "first comes before the first", "happens-before": "first ends before the first",
           "all-occurrences": "every one ends before any"}[mode]
    return Rule(rule_id, f"{labels[0]}: the {how} {labels[1]} ({mode})",
                lambda facts: compare(facts, facts.matching(before), facts.matching(after), mode, labels, missing))


def required_order_rules(prefix: str, names: list[str], mode: OrderMode) -> list[Rule]:
    """Adjacent pairs of ``required_order``; a missing tool is the presence rule's failure, so
    here it is unmeasured."""
    return [order_rule(f"{prefix}.order.{i}", _tool(a), _tool(b), mode, "unmeasured")
            for i, (a, b) in enumerate(zip(names, names[1:], strict=False))]


def order_rules(prefix: str, rules: list[OrderRule]) -> list[Rule]:
    return [order_rule(f"{prefix}.order_rules.{i}", _tool(r.before), _tool(r.after), r.mode,
                       "fail" if r.require_endpoints else "unmeasured") for i, r in enumerate(rules)]


def step_order_rules(prefix: str, rules: list[StepOrder]) -> list[Rule]:
    return [order_rule(f"{prefix}.order.{i}", r.before, r.after, r.mode,
                       "fail" if r.require_endpoints else "unmeasured") for i, r in enumerate(rules)]

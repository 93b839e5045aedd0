"""Sufficiency: the selected edges' receivers rerun with the handoff alone, once every trace is
read (the cost estimate is announced before any call). A shard of a parallel run leaves the
cases its selector kept for the parent's selector (``check_selected``)."""

from __future__ import annotations

from ..edges import Edge
from ..errors import UsageError
from ..sufficiency import Case, Selector, load_agents, make_case, make_selector, make_sufficiency
from ..trace import LoadedTrace
from ._base import Audit, BasePass, Numbered


class Sufficiency(BasePass):
    def __init__(self, audit: Audit, selector: Selector) -> None:
        self.audit = audit
        self.selector = selector
        self.agents = load_agents(audit.config)
        self.runner = audit.llm()
        self.pending: list[Case] = []

    def edge(self, item: LoadedTrace, edge: Edge, found: list[Numbered]) -> None:
        if self.selector.wants(edge.id):
            self.pending.append(make_case(item.trace, edge, self.agents))

    def commit(self) -> None:
        for case in self.pending:
            self.selector.offer(case)
        self.pending.clear()

    def rollback(self) -> None:
        self.pending.clear()

    def finish(self) -> None:
        if self.audit.defer_model_calls:
            self.audit.deferred_cases.extend(self.selector.cases())
            return
        check_selected(self.audit, self.selector)


def check_selected(audit: Audit, selector: Selector) -> None:
    """Rerun the selected cases (the estimate announced first) and add their results."""
    missing = selector.missing()
    if missing:
        raise UsageError(f"--sufficiency edge:{missing[0]}: no such edge in the traces")
    checker = make_sufficiency(audit.config, audit.llm(), audit.context)
    cases = selector.cases()
    estimate = checker.estimate(cases)
    audit.sufficiency_estimate = estimate
    if audit.hooks.sufficiency_estimate is not None:
        audit.hooks.sufficiency_estimate(*estimate)
    audit.sufficiency.extend(checker.run(cases, audit.hooks.semantic_progress))


def make(audit: Audit) -> Sufficiency | None:
    selector = make_selector(audit.config)
    return Sufficiency(audit, selector) if selector.active else None

"""Sufficiency: the selected edges' receivers rerun with the handoff alone, once every trace is
read (the cost estimate is announced before any call)."""

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
        missing = self.selector.missing()
        if missing:
            raise UsageError(f"--sufficiency edge:{missing[0]}: no such edge in the traces")
        checker = make_sufficiency(self.audit.config, self.runner, self.audit.context)
        cases = self.selector.cases()
        estimate = checker.estimate(cases)
        self.audit.sufficiency_estimate = estimate
        if self.audit.hooks.sufficiency_estimate is not None:
            self.audit.hooks.sufficiency_estimate(*estimate)
        self.audit.sufficiency.extend(checker.run(cases, self.audit.hooks.semantic_progress))


def make(audit: Audit) -> Sufficiency | None:
    selector = make_selector(audit.config)
    return Sufficiency(audit, selector) if selector.active else None

"""The runner: a new kind of pass is a ``make(audit)`` factory and one line in ``PASSES``; it
sees every edge after the passes before it, with their findings, then every trace, then the end."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from auditor import audit
from auditor.edges import Edge
from auditor.passes import PASSES, Audit, BasePass, Numbered
from auditor.trace import LoadedTrace


class Counting(BasePass):
    def __init__(self) -> None:
        self.edges: list[tuple[str, int]] = []
        self.traces = 0
        self.finished = False

    def edge(self, item: LoadedTrace, edge: Edge, found: list[Numbered]) -> None:
        self.edges.append((edge.id, len(found)))

    def trace(self, item: LoadedTrace) -> None:
        self.traces += 1

    def finish(self) -> None:
        self.finished = True


def test_a_registered_pass_sees_every_edge_with_the_earlier_passes_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Counting] = []

    def make(run: Audit) -> Counting:
        made.append(Counting())
        return made[-1]

    monkeypatch.setitem(PASSES, "counting", make)
    report = audit([EXAMPLES])
    [counting] = made
    assert counting.finished and counting.traces == report.summary.traces
    message_edges = [e for e in report.edges if e.kind == "message"]
    assert [edge_id for edge_id, _ in counting.edges] == [e.id for e in message_edges]
    found = {edge_id: n for edge_id, n in counting.edges}
    assert all(found[e.id] == sum(e.counts.values()) for e in message_edges)

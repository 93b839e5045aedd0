"""The runner: a new kind of pass is a ``make(audit)`` factory and one line in ``PASSES``; it
sees every edge after the passes before it, with their findings, then every trace, then the end."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_traces_that_share_a_trace_id_are_each_audited_as_if_alone(tmp_path: Path) -> None:
    """Two logs of one benchmark task often share a trace id: no parse or evidence of one may serve
    the other (per-run caches key texts by their content too)."""
    def trace(rule: str, handoff: str, result: str) -> dict[str, object]:
        return {"schema": "edge-audit.trace.v1", "trace_id": "same", "agents": [{"name": "user", "kind": "human"}],
                "events": [
                    {"type": "message", "id": "m1", "sender": "user", "recipients": ["planner"], "content": rule},
                    {"type": "tool_call", "id": "t1", "agent": "planner", "tool": "bash",
                     "arguments": {"command": "pytest -q"}, "result": result, "exit_code": 0, "status": "ok"},
                    {"type": "message", "id": "m2", "sender": "planner", "recipients": ["coder"], "content": handoff}]}

    (tmp_path / "a.json").write_text(json.dumps(trace(
        "Fix the export. You must not change the signature of export_csv(rows).",
        "Fix the export; keep the export_csv(rows) signature as it is. 12 passed.", "12 passed")))
    (tmp_path / "b.json").write_text(json.dumps(trace(
        "Fix the login. You must not delete the audit_log table.", "Fix the login bug. 40 passed.",
        "41 passed, 1 failed")))

    def verdicts(*paths: Path) -> list[str]:
        return [f.verdict for f in audit([str(p) for p in paths]).deterministic.findings]

    together = verdicts(tmp_path / "a.json", tmp_path / "b.json")
    assert together == verdicts(tmp_path / "a.json") + verdicts(tmp_path / "b.json")
    assert "contradicted" in together

"""Edge fidelity (scores, weights, per route, in every report) and ``edge-audit trend``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from auditor import AuditConfig, audit
from auditor._cli.main import main
from auditor.config import FidelityWeights, TrendConfig
from auditor.nlp import TextAnalyzer
from auditor.report import print_terminal, to_json, to_markdown
from auditor.trend import trend

TICKET = ("Add retries to the webhook handler. You must not change the signature of handle_webhook(event, ctx). "
          "Never log the customer's card number.")
KEPT = ("Add retries to handle_webhook. You must not change the signature of handle_webhook(event, ctx). "
        "Never log the customer's card number.")
SOFTENED = KEPT.replace("You must not change", "You should try not to change")


def _trace(plan: str, score: float | None, trace_id: str = "fidelity-run") -> dict[str, Any]:
    return {"schema": "edge-audit.trace.v1", "trace_id": trace_id, "metadata": {"score": score},
            "agents": [{"name": "user", "kind": "human"}, {"name": "planner"}, {"name": "coder"}],
            "events": [
                {"type": "message", "id": "ticket", "sender": "user", "recipients": ["planner"], "content": TICKET},
                {"type": "tool_call", "id": "t1", "agent": "planner", "tool": "bash",
                 "arguments": {"command": "pytest"}, "result": "58 passed in 3.1s", "exit_code": 0, "status": "ok"},
                {"type": "message", "id": "plan", "sender": "planner", "recipients": ["coder"], "content": plan}]}


def _report(tmp_path: Path, name: str, plan: str, score: float | None, analyzer: TextAnalyzer) -> Path:
    """A report of one trace. Each has its own trace id: one analyzer caches parses by trace and event id."""
    trace = tmp_path / f"{name}.trace.json"
    trace.write_text(json.dumps(_trace(plan, score, trace_id=f"fidelity-{name}")), encoding="utf-8")
    out = tmp_path / f"{name}.json"
    out.write_text(to_json(audit([trace], AuditConfig(), analyzer=analyzer)), encoding="utf-8")
    return out


def test_edge_and_route_fidelity_in_every_report(tmp_path: Path, analyzer: TextAnalyzer) -> None:
    plan = SOFTENED + " All 12 tests pass."  # softened (-0.2) and contradicted by the run (-0.4)
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps(_trace(plan, 0.9)))
    report = audit([trace], AuditConfig(), analyzer=analyzer)
    (edge,) = report.fidelity.edges
    assert edge.deductions == {"softened": 1, "contradicted": 1} and edge.score == pytest.approx(0.4)
    assert edge.sufficient is None and report.fidelity.weights["softened"] == 0.2
    assert report.fidelity.routes["planner->coder"].mean == pytest.approx(0.4)
    heavier = AuditConfig(fidelity={"weights": {"softened": 0.5, "contradicted": 0.7}})
    assert audit([trace], heavier, analyzer=analyzer).fidelity.edges[0].score == 0.0  # floored at 0
    data = json.loads(to_json(report))
    assert data["fidelity"]["routes"]["planner->coder"]["deductions"] == {"softened": 1, "contradicted": 1}
    markdown = to_markdown(report)
    assert "## Edge fidelity by route" in markdown and "softened -0.2" in markdown
    assert "| planner → coder | 1 | 0.40 | 0.40 | softened 1, contradicted 1 |" in markdown
    console = Console(file=io.StringIO(), width=200)
    print_terminal(report, console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "edge fidelity by route" in text and "planner → coder" in text and "0.40" in text


def test_trend_flags_a_divergence_and_not_a_parallel_drop(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          analyzer: TextAnalyzer) -> None:
    before = _report(tmp_path, "before", KEPT, 0.9, analyzer)
    diverged = _report(tmp_path, "diverged", SOFTENED, 0.92, analyzer)   # fidelity 1.0 -> 0.8, score holds
    parallel = _report(tmp_path, "parallel", SOFTENED, 0.5, analyzer)    # fidelity and score fall together
    settings = TrendConfig()
    result = trend([before, diverged], FidelityWeights(), settings)
    assert [(c.route, c.verdict) for c in result.changes] == [("planner->coder", "divergence")]
    assert trend([before, parallel], FidelityWeights(), settings).divergent == []
    assert [c.verdict for c in trend([before, parallel], FidelityWeights(), settings).changes] == ["parallel_drop"]
    assert trend([before, before], FidelityWeights(), settings).changes == []
    assert main(["trend", str(before), str(diverged)]) == 1
    out = capsys.readouterr().out
    assert "divergence     planner → coder: fidelity 1.00 -> 0.80, end-to-end score 0.90 -> 0.92" in out
    assert main(["trend", str(before), str(parallel), "--json", str(tmp_path / "t.json")]) == 0
    assert json.loads((tmp_path / "t.json").read_text())["changes"][0]["verdict"] == "parallel_drop"
    # A drop under the configured delta is no change at all.
    assert trend([before, diverged], FidelityWeights(), TrendConfig(fidelity_drop=0.25)).changes == []


def test_trend_without_scores_cannot_tell(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          analyzer: TextAnalyzer) -> None:
    before = _report(tmp_path, "before", KEPT, None, analyzer)
    after = _report(tmp_path, "after", SOFTENED, None, analyzer)
    assert [c.verdict for c in trend([before, after], FidelityWeights(), TrendConfig()).changes] == ["unscored"]
    assert main(["trend", str(before)]) == 2
    assert "at least two reports" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["trend", str(before), str(bad)]) == 2

"""The mutation self-test: each mutation changes exactly one message exactly where it says, the
re-audit is read per (edge, mutation), the grid is seeded, and the floor gates the exit code."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

from auditor import AuditConfig, audit, build_edges
from auditor._cli.main import main
from auditor.errors import MutationError
from auditor.nlp import TextAnalyzer
from auditor.selftest import (
    MUTATIONS,
    Plan,
    SelftestResult,
    Splice,
    Target,
    apply,
    grid_lines,
    selftest,
    verify,
)
from auditor.trace import Trace

TICKET = ("Add retries to the webhook handler. You must not change the signature of handle_webhook(event, ctx). "
          "Never log the customer's card number.")
PLAN = ("Add retries to handle_webhook. You must not change the signature of handle_webhook(event, ctx). "
        "Never log the customer's card number. 58 tests passed.")


def _doc() -> dict[str, Any]:
    return {"schema": "edge-audit.trace.v1", "trace_id": "selftest-demo",
            "agents": [{"name": "user", "kind": "human"}, {"name": "planner"}, {"name": "coder"}],
            "events": [
                {"type": "message", "id": "ticket", "sender": "user", "recipients": ["planner"], "content": TICKET},
                {"type": "tool_call", "id": "t1", "agent": "planner", "tool": "bash",
                 "arguments": {"command": "pytest"}, "result": "58 passed in 3.1s", "exit_code": 0, "status": "ok"},
                {"type": "message", "id": "plan", "sender": "planner", "recipients": ["coder"], "content": PLAN}]}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.json"
    path.write_text(json.dumps(_doc()), encoding="utf-8")
    return path


def _target(demo: Path, analyzer: TextAnalyzer, seed: str = "0") -> Target:
    trace = Trace.model_validate(json.loads(demo.read_text()))
    report = audit([demo], AuditConfig(), analyzer=analyzer)
    edge = build_edges(trace).edges[0]
    findings = tuple(f for f in report.deterministic.findings if f.edge_id == edge.id)
    return Target(trace, edge, findings, random.Random(seed), analyzer)


def _mutated(target: Target, name: str) -> str:
    plan = MUTATIONS[name](target)
    assert isinstance(plan, Plan), plan
    mutant = apply(target.trace, "plan", name, plan.splices)
    verify(target.trace, mutant, "plan", name, plan.splices)
    message = mutant.events[-1]
    assert message.id == f"plan~{name}" and message.type == "message"
    return message.content


def test_each_mutation_changes_only_its_span(demo: Path, analyzer: TextAnalyzer) -> None:
    target = _target(demo, analyzer)
    mutated = {name: _mutated(target, name) for name in MUTATIONS}
    assert {mutated["soften"], mutated["invert"], mutated["drop"]} & {PLAN} == set()
    softened_or = ("You should try not to change the signature", "Try not to log the customer's card number")
    assert any(s in mutated["soften"] for s in softened_or)
    assert any(s in mutated["invert"] for s in ("You may change the signature", "Feel free to log"))
    assert len(mutated["drop"]) < len(PLAN) and mutated["drop"].count("must not") + mutated["drop"].count("Never") == 1
    assert mutated["invent"].startswith(PLAN + "\n\n") and "58" not in mutated["invent"][len(PLAN):]
    assert mutated["contradict"] == PLAN.replace("58 tests", "59 tests") or "failed" in mutated["contradict"]


def test_verify_refuses_a_stray_change(demo: Path) -> None:
    trace = Trace.model_validate(json.loads(demo.read_text()))
    splice = (Splice("content", 0, 3, "Put"),)
    mutant = apply(trace, "plan", "soften", splice)
    verify(trace, mutant, "plan", "soften", splice)
    other = mutant.model_copy(update={"events": [mutant.events[0].model_copy(update={"content": "x"}),
                                                 *mutant.events[1:]]})
    with pytest.raises(MutationError, match=r"events\[0\]\.content"):
        verify(trace, other, "plan", "soften", splice)
    narrow = (Splice("content", 0, 1, "P"),)  # claims less than the mutant changed
    with pytest.raises(MutationError, match="changed outside"):
        verify(trace, mutant, "plan", "soften", narrow)


def test_not_applicable_says_why(tmp_path: Path, analyzer: TextAnalyzer) -> None:
    doc = _doc()
    doc["events"][-1]["content"] = "Add retries to handle_webhook."
    doc["trace_id"] = "selftest-bare"  # the shared analyzer caches parses by trace and event id
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(doc))
    target = _target(path, analyzer)
    assert "no kept constraint" in str(MUTATIONS["soften"](target))
    assert "no claim grounded on a tool result" in str(MUTATIONS["contradict"](target))


@pytest.fixture(scope="module")
def examples_result(analyzer: TextAnalyzer) -> SelftestResult:
    paths = [EXAMPLES / "all-kept-refunds.json", EXAMPLES / "claims-all-grounded.json", EXAMPLES / "incident-webhook.json"]
    return selftest(paths, AuditConfig(), analyzer=analyzer)


def test_examples_grid(examples_result: SelftestResult, analyzer: TextAnalyzer) -> None:
    cells = {(c.edge_id, c.mutation): c for c in examples_result.cells}
    refunds = "all-kept-refunds/m3->writer"
    assert cells[(refunds, "soften")].caught_by == "edge-audit.constraints.v1:softened"
    assert cells[(refunds, "invert")].caught_by == "edge-audit.constraints.v1:inverted"
    assert cells[(refunds, "invent")].caught_by == "edge-audit.claims.v1:invented"
    assert cells[(refunds, "contradict")].state == "caught"
    assert cells[("incident-webhook/plan->coder", "soften")].state == "not_applicable"
    lines = grid_lines(examples_result)
    assert lines[0].split() == ["edge", "soften", "drop", "invert", "invent", "contradict"]
    assert any(line.startswith(refunds) and "constraints.v1:softened" in line for line in lines)
    assert any(line.startswith("catch rate: soften ") for line in lines)
    for cell in examples_result.cells:
        assert (cell.state == "missed") == (cell.reason != "" and cell.state != "not_applicable")
    again = selftest([EXAMPLES / "all-kept-refunds.json", EXAMPLES / "claims-all-grounded.json",
                      EXAMPLES / "incident-webhook.json"], AuditConfig(), analyzer=analyzer)
    assert again == examples_result  # seeded: the same cells


def test_floor_gates_the_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "all-kept-refunds.json"
    strict, lax = tmp_path / "strict.yaml", tmp_path / "lax.yaml"
    strict.write_text("selftest: {floor: 1.0}\n")
    lax.write_text("selftest: {floor: 0.0}\n")
    assert main(["selftest", str(path), "--config", str(lax), "--json", str(tmp_path / "s.json")]) == 0
    out = capsys.readouterr().out
    assert "all-kept-refunds/m3->writer" in out and "catch rate:" in out
    result = SelftestResult.model_validate_json((tmp_path / "s.json").read_text())
    missed = [c for c in result.cells if c.state == "missed"]
    assert main(["selftest", str(path), "--config", str(strict)]) == (1 if missed else 0)


def test_a_sentence_still_keeping_the_constraint_is_placed_back_in_the_original() -> None:
    from auditor.edges import Quote
    from auditor.selftest._run import _original

    original = "Never log it. Keep the API. Never log it, really."
    splices = (Splice("content", 0, 5, "Try not to"),)  # +5 characters before the quote
    mutant = "Try not to log it. Keep the API. Never log it, really."
    start = mutant.index("Never")
    placed = _original(Quote("m~soften", "content", start, len(mutant), mutant[start:]), splices, "m")
    assert placed is not None and original[placed.start:placed.end] == placed.text and placed.event_id == "m"
    assert _original(Quote("m~soften", "content", 0, 18, mutant[:18]), splices, "m") is None  # inside the splice
    deleted = (Splice("content", 0, 14, ""),)
    after = original[14:]
    assert _original(Quote("m~drop", "content", 0, 13, after[:13]), deleted, "m") is None  # at the deletion
    placed = _original(Quote("m~drop", "content", 1, 13, after[1:13]), deleted, "m")
    assert placed is not None and original[placed.start:placed.end] == after[1:13]

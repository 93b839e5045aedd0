"""Conformance with agent-inspect's trace-contract tests (packages/core/test/checks/
contract.test.ts): each row restates one of its cases on our contract format and our trace
model. Where our behaviour differs on purpose, the row says so and the README lists it
("Trace contracts: differences from agent-inspect")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import FIXTURES
from trace_contract_helpers import failing, run, statuses, tool, trace

from auditor.trace import load_file

RETRIEVE_1 = tool("retrieve-1", "retrieve", 0, 1)
GENERATE = tool("generate-1", "generate", 2, 3)
RETRIEVE_2 = tool("retrieve-2", "retrieve", 4, 5)
GENERATE_OVERLAPPING = tool("generate-1", "generate", 0.5, 3)
A1, B1, C1 = tool("a-1", "a", 0, 1), tool("b-1", "b", 2, 3), tool("c-1", "c", 4, 5)
ORDER = {"required_order": ["retrieve", "generate"]}


@dataclass(frozen=True)
class Case:
    name: str
    contract: dict[str, Any]
    events: list[dict[str, Any]]
    run_status: str | None = "ok"
    #: The rules that fail, exactly.
    fails: tuple[str, ...] = ()
    #: Other statuses to check, by rule id.
    expect: dict[str, str] = field(default_factory=dict)


CASES = [
    # run.allowedStatuses
    Case("canonical ok status accepted as it is", {"run": {"allowed_statuses": ["ok"]}}, [tool("e", "x")],
         expect={"run.status": "pass"}),
    Case("alias success means ok", {"run": {"allowed_statuses": ["success"]}}, [tool("e", "x")],
         expect={"run.status": "pass"}),
    Case("alias failed means error", {"run": {"allowed_statuses": ["failed"]}}, [tool("e", "x", status="error")],
         run_status="error", expect={"run.status": "pass"}),
    Case("several allowed statuses, run matches one", {"run": {"allowed_statuses": ["ok", "error"]}},
         [tool("e", "x", status="error")], run_status="error", expect={"run.status": "pass"}),
    Case("several allowed statuses, run matches none", {"run": {"allowed_statuses": ["ok", "running"]}},
         [tool("e", "x", status="error")], run_status="error", fails=("run.status",)),
    Case("an unfinished run passes when running is allowed and completion not required",
         {"run": {"allowed_statuses": ["ok", "running"], "require_completed": False}}, [tool("e", "x")],
         run_status="running", expect={"run.status": "pass"}),
    # Difference: agent-inspect looks for events still running in a run marked ok; our importers
    # mark such a run itself "running", which the allowed statuses then reject.
    Case("an unfinished run fails allowed statuses without running", {"run": {"allowed_statuses": ["ok", "error"]}},
         [tool("e", "x")], run_status="running", fails=("run.status",)),
    # tools.requiredOrder modes
    Case("omitted mode: later repeats do not undo a first occurrence in order", {"tools": ORDER},
         [RETRIEVE_1, GENERATE, RETRIEVE_2], expect={"tools.order.0": "pass", "tools.required": "pass"}),
    Case("explicit first-occurrence behaves as the omitted mode",
         {"tools": {**ORDER, "required_order_mode": "first-occurrence"}}, [RETRIEVE_1, GENERATE, RETRIEVE_2],
         expect={"tools.order.0": "pass"}),
    Case("happens-before fails when the first calls overlap",
         {"tools": {**ORDER, "required_order_mode": "happens-before"}}, [RETRIEVE_1, GENERATE_OVERLAPPING],
         fails=("tools.order.0",)),
    # Ours in addition: the same overlap in the default mode is a warning, not a failure.
    Case("first-occurrence warns on the same overlap", {"tools": ORDER}, [RETRIEVE_1, GENERATE_OVERLAPPING],
         expect={"tools.order.0": "warn"}),
    Case("all-occurrences fails when a before call repeats after the after call",
         {"tools": {**ORDER, "required_order_mode": "all-occurrences"}}, [RETRIEVE_1, GENERATE, RETRIEVE_2],
         fails=("tools.order.0",)),
    *[Case(f"required order implies presence ({mode})", {"tools": {**ORDER, "required_order_mode": mode}},
           [GENERATE], fails=("tools.required",), expect={"tools.order.0": "unmeasured"})
      for mode in ("first-occurrence", "happens-before", "all-occurrences")],
    Case("all-occurrences judges each adjacent pair on its own: first pair",
         {"tools": {"required_order": ["a", "b", "c"], "required_order_mode": "all-occurrences"}},
         [A1, B1, tool("a-2", "a", 6, 7), C1], fails=("tools.order.0",), expect={"tools.order.1": "pass"}),
    Case("all-occurrences judges each adjacent pair on its own: second pair",
         {"tools": {"required_order": ["a", "b", "c"], "required_order_mode": "all-occurrences"}},
         [A1, B1, C1, tool("b-2", "b", 6, 7)], fails=("tools.order.1",), expect={"tools.order.0": "pass"}),
]


# Semantics agent-inspect documents for its trace contracts (docs/TRACE-CONTRACTS.md) beyond its tests.
BRANCHES = {"any_of": [{"id": "cache-hit", "tools": {"required": ["cache_lookup"], "forbidden": ["retrieve"]}},
                       {"id": "retrieve", "tools": {"required_order": ["retrieve", "generate"]}}]}
CASES += [
    Case("unlisted tools between an ordered pair are allowed", {"tools": ORDER},
         [RETRIEVE_1, tool("x", "other", 1.5, 1.8), GENERATE], expect={"tools.order.0": "pass"}),
    Case("an unused failing branch does not fail the contract when another passes",
         {"tools": {"required": ["generate"]}, "alternatives": BRANCHES}, [RETRIEVE_1, GENERATE],
         expect={"alternatives.any_of": "pass"}),
    Case("no branch passing fails the alternatives", {"alternatives": BRANCHES}, [GENERATE, RETRIEVE_2],
         fails=("alternatives.any_of",)),
    Case("a scope matching nothing is never a pass", {"scope": {"agents": ["verifier-agent"]},
                                                      "tools": {"required": ["run_tests"]}},
         [RETRIEVE_1], expect={"tools.required": "unmeasured"}),
    Case("missing structured argument evidence is never a pass",
         {"tools": {"arguments": [{"tool": "retrieve", "path": "/q", "op": "exists"}]}}, [RETRIEVE_1],
         expect={"tools.arguments.0": "unmeasured"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_conformance(case: Case) -> None:
    evaluation = run(case.contract, trace(case.events, status=case.run_status))
    assert failing(evaluation) == list(case.fails)
    found = statuses(evaluation)
    for rule_id, status in case.expect.items():
        assert found[rule_id] == status, (rule_id, evaluation)
    for result in evaluation.results:
        if result.outcome.status == "fail":
            assert result.outcome.evidence, result


def test_failing_order_names_its_mode() -> None:
    """agent-inspect's generated pair rule carries the mode in its expectation; so does ours."""
    evaluation = run({"tools": {**ORDER, "required_order_mode": "happens-before"}},
                     trace([RETRIEVE_1, GENERATE_OVERLAPPING]))
    result = next(r for r in evaluation.results if r.rule.id == "tools.order.0")
    assert result.outcome.expected == {"before": "tool retrieve", "after": "tool generate", "mode": "happens-before"}


def test_explicit_first_occurrence_gives_the_same_findings_as_omitted() -> None:
    subject = trace([RETRIEVE_1, GENERATE, RETRIEVE_2])
    omitted = run({"tools": ORDER}, subject)
    explicit = run({"tools": {**ORDER, "required_order_mode": "first-occurrence"}}, subject)
    assert [(r.rule.id, r.outcome) for r in omitted.results] == [(r.rule.id, r.outcome) for r in explicit.results]


def test_a_real_trace_with_run_and_budget_rules_has_evidence_on_every_failure() -> None:
    """agent-inspect's first case: a recorded trace with completion, duration and a call budget."""
    subject = load_file(FIXTURES / "formats" / "openai-agents-incident.jsonl").traces[0].trace
    evaluation = run({"run": {"require_completed": True, "max_duration_ms": 600_000}, "tools": {"max_calls": 10}},
                     subject)
    assert statuses(evaluation) == {"run.status": "pass", "run.duration": "pass", "tools.max_calls": "pass"}
    assert all(r.outcome.evidence for r in evaluation.results)

"""Trace contracts, rule by rule: each kind passes on one trace and fails on another, and what
the trace does not record (a time in a causal mode, structured arguments, a run status, model
calls, an attempt's identity, a scope's events) is unmeasured, never a pass."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from trace_contract_helpers import llm, message, run, statuses, tool, trace, verdicts

from auditor.errors import ConfigError
from auditor.trace import Trace
from auditor.trace_contracts import parse_contract


@dataclass(frozen=True)
class Row:
    name: str
    contract: dict[str, Any]
    subject: Trace
    rule: str
    status: str
    verdict: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


SEARCH = tool("s1", "search", 0, 1)
CHARGE = tool("c1", "charge", 2, 3, arguments={"amount": 5, "dryRun": True, "card": "4111-SECRET"})
TWO = trace([SEARCH, CHARGE])
PLANNER_WORKER = [{"name": "planner"}, {"name": "worker", "invoked_by": ["planner"]}, {"name": "other"}]

ROWS = [
    # tools: presence, closed set, budgets
    Row("required present", {"tools": {"required": ["search"]}}, TWO, "tools.required", "pass"),
    Row("required missing", {"tools": {"required": ["refund"]}}, TWO, "tools.required", "fail", "tool_missing"),
    Row("forbidden absent", {"tools": {"forbidden": ["delete"]}}, TWO, "tools.forbidden", "pass"),
    Row("forbidden called", {"tools": {"forbidden": ["charge"]}}, TWO, "tools.forbidden", "fail", "forbidden_tool"),
    Row("allowed set holds", {"tools": {"allowed": ["search", "charge"]}}, TWO, "tools.allowed", "pass"),
    Row("allowed set broken", {"tools": {"allowed": ["search"]}}, TWO, "tools.allowed", "fail", "tool_not_allowed"),
    Row("max calls kept", {"tools": {"max_calls": 2}}, TWO, "tools.max_calls", "pass"),
    Row("max calls exceeded", {"tools": {"max_calls": 1}}, TWO, "tools.max_calls", "fail", "too_many_calls"),
    Row("max calls per tool kept", {"tools": {"max_calls_per_tool": {"search": 1}}}, TWO, "tools.max_calls.search",
        "pass"),
    Row("max calls per tool exceeded", {"tools": {"max_calls_per_tool": {"search": 1}}},
        trace([SEARCH, tool("s2", "search", 4, 5)]), "tools.max_calls.search", "fail", "too_many_calls"),
    # required order, causal modes
    Row("happens-before holds", {"tools": {"required_order": ["search", "charge"],
                                           "required_order_mode": "happens-before"}}, TWO, "tools.order.0", "pass"),
    Row("happens-before with a missing end time", {"tools": {"required_order": ["search", "charge"],
                                                             "required_order_mode": "happens-before"}},
        trace([tool("s1", "search", 0, None), CHARGE]), "tools.order.0", "unmeasured", "missing_time"),
    Row("all-occurrences with a missing start time", {"tools": {"required_order": ["search", "charge"],
                                                                "required_order_mode": "all-occurrences"}},
        trace([SEARCH, tool("c1", "charge")]), "tools.order.0", "unmeasured", "missing_time"),
    Row("first-occurrence needs no times", {"tools": {"required_order": ["search", "charge"]}},
        trace([tool("s1", "search"), tool("c1", "charge")]), "tools.order.0", "pass"),
    Row("first-occurrence out of order", {"tools": {"required_order": ["charge", "search"]}}, TWO, "tools.order.0",
        "fail", "out_of_order"),
    # additive order rules
    Row("order rule holds", {"tools": {"order_rules": [{"before": "search", "after": "charge",
                                                        "mode": "all-occurrences"}]}}, TWO,
        "tools.order_rules.0", "pass"),
    Row("order rule broken", {"tools": {"order_rules": [{"before": "charge", "after": "search"}]}}, TWO,
        "tools.order_rules.0", "fail", "out_of_order"),
    Row("order rule endpoint missing", {"tools": {"order_rules": [{"before": "auth", "after": "charge"}]}}, TWO,
        "tools.order_rules.0", "fail", "endpoint_missing"),
    Row("order rule endpoint missing, not required", {"tools": {"order_rules": [
        {"before": "auth", "after": "charge", "require_endpoints": False}]}}, TWO,
        "tools.order_rules.0", "unmeasured", "endpoint_missing"),
    # cross-kind order
    Row("tool before model call", {"steps": {"order": [{"before": {"kind": "tool", "name": "search"},
                                                        "after": {"kind": "llm", "name": "gpt-4o-mini"},
                                                        "mode": "happens-before"}]}},
        trace([SEARCH], llm_calls=[llm("g1", 2, 3)]), "steps.order.0", "pass"),
    Row("model call before tool, wrongly", {"steps": {"order": [{"before": {"kind": "tool", "name": "search"},
                                                                 "after": {"kind": "llm", "name": "chat"}}]}},
        trace([tool("s1", "search", 5, 6)], llm_calls=[llm("g1", 2, 3)]), "steps.order.0", "fail", "out_of_order"),
    Row("model call without a time", {"steps": {"order": [{"before": {"kind": "tool", "name": "search"},
                                                           "after": {"kind": "llm", "name": "chat"}}]}},
        trace([SEARCH], llm_calls=[llm("g1", None, None)]), "steps.order.0", "unmeasured", "missing_time"),
    Row("message before tool", {"steps": {"order": [{"before": {"kind": "message", "name": "planner", "to": "worker"},
                                                     "after": {"kind": "tool", "name": "search"}}]}},
        trace([message("m1", "planner", "worker"), tool("s1", "search")]), "steps.order.0", "pass"),
    Row("tool before the message that should start it", {"steps": {"order": [
        {"before": {"kind": "message", "name": "planner"}, "after": {"kind": "tool", "name": "search"}}]}},
        trace([tool("s1", "search"), message("m1", "planner", "worker")]), "steps.order.0", "fail", "out_of_order"),
    Row("a tool of the same name does not stand in for a model call", {"steps": {"order": [
        {"before": {"kind": "llm", "name": "search"}, "after": {"kind": "tool", "name": "charge"}}]}},
        TWO, "steps.order.0", "fail", "endpoint_missing"),
    # run
    Row("status and duration kept", {"run": {"allowed_statuses": ["ok"], "max_duration_ms": 5000}},
        trace([SEARCH], started=0, ended=4), "run.duration", "pass", extra={"run.status": "pass"}),
    Row("too slow", {"run": {"max_duration_ms": 1000}}, trace([SEARCH], started=0, ended=4), "run.duration", "fail",
        "too_slow"),
    Row("duration without times", {"run": {"max_duration_ms": 1000}}, trace([SEARCH]), "run.duration", "unmeasured",
        "missing_time"),
    Row("completion required, run unfinished", {"run": {"require_completed": True}},
        trace([SEARCH], status="running"), "run.status", "fail", "incomplete"),
    Row("completion required, no status recorded", {"run": {"require_completed": True}}, trace([SEARCH], status=None),
        "run.status", "unmeasured", "status_unknown"),
    # scope
    Row("scope by agent", {"scope": {"agents": ["worker"]}, "tools": {"required": ["search"]}},
        trace([SEARCH, tool("x", "search", agent="other")]), "tools.required", "pass"),
    Row("scope by agent excludes others' calls", {"scope": {"agents": ["other"]}, "tools": {"forbidden": ["charge"]}},
        trace([CHARGE, tool("x", "search", agent="other")]), "tools.forbidden", "pass"),
    Row("scope under an agent includes the agents it invoked",
        {"scope": {"under_agent": "planner"}, "tools": {"required": ["search"]}},
        trace([SEARCH, tool("x", "lookup", agent="other")], agents=PLANNER_WORKER), "tools.required", "pass"),
    Row("scope under an agent leaves others out", {"scope": {"under_agent": "planner"},
                                                   "tools": {"required": ["lookup"]}},
        trace([SEARCH, tool("x", "lookup", agent="other")], agents=PLANNER_WORKER), "tools.required", "fail"),
    Row("scope under a handoff: from it until the answer back",
        {"scope": {"under_handoff": "h1"}, "tools": {"forbidden": ["charge"], "required": ["search"]}},
        trace([message("h1", "planner", "worker"), SEARCH, message("back", "worker", "planner"), CHARGE],
              agents=PLANNER_WORKER), "tools.forbidden", "pass", extra={"tools.required": "pass"}),
    Row("scope under a handoff sees the calls inside it",
        {"scope": {"under_handoff": "h1"}, "tools": {"forbidden": ["search"]}},
        trace([message("h1", "planner", "worker"), SEARCH, message("back", "worker", "planner")],
              agents=PLANNER_WORKER), "tools.forbidden", "fail"),
    Row("scope under a handoff named by its handoff id",
        {"scope": {"under_handoff": "h-17"}, "tools": {"forbidden": ["charge"]}},
        trace([dict(message("m1", "planner", "worker"), handoff_id="h-17"), SEARCH,
               message("back", "worker", "planner"), CHARGE], agents=PLANNER_WORKER), "tools.forbidden", "pass"),
    Row("scope by metadata", {"scope": {"metadata": {"source": "otlp"}}, "tools": {"required": ["search"]}},
        trace([SEARCH], source="otlp"), "tools.required", "pass"),
    Row("scope matching nothing: an agent not in the trace", {"scope": {"agents": ["ghost"]},
                                                             "tools": {"forbidden": ["charge"]}},
        TWO, "tools.forbidden", "unmeasured", "scope_empty"),
    Row("scope matching nothing: other metadata", {"scope": {"metadata": {"labels.env": "prod"}},
                                                   "tools": {"forbidden": ["charge"]}},
        TWO, "tools.forbidden", "unmeasured", "scope_empty"),
    Row("scope matching nothing: an unknown handoff", {"scope": {"under_handoff": "nope"},
                                                       "tools": {"max_calls": 9}},
        TWO, "tools.max_calls", "unmeasured", "scope_empty"),
    # model calls
    Row("model calls within budget", {"llm": {"max_calls": 2, "max_total_tokens": 100, "allowed_models": ["gpt-4o-mini"]}},
        trace([SEARCH], llm_calls=[llm("g1", 1, 2, tokens=40), llm("g2", 3, 4, tokens=50)]), "llm.max_calls", "pass",
        extra={"llm.max_total_tokens": "pass", "llm.allowed_models": "pass"}),
    Row("too many model calls", {"llm": {"max_calls": 1}}, trace([SEARCH], llm_calls=[llm("g1", 1, 2), llm("g2", 3, 4)]),
        "llm.max_calls", "fail", "too_many_calls"),
    Row("too many tokens", {"llm": {"max_total_tokens": 60}},
        trace([SEARCH], llm_calls=[llm("g1", 1, 2, tokens=40), llm("g2", 3, 4, tokens=50)]), "llm.max_total_tokens",
        "fail", "too_many_tokens"),
    Row("tokens not recorded", {"llm": {"max_total_tokens": 60}}, trace([SEARCH], llm_calls=[llm("g1", 1, 2)]),
        "llm.max_total_tokens", "unmeasured", "tokens_unknown"),
    Row("model not allowed", {"llm": {"allowed_models": ["gpt-4o"]}}, trace([SEARCH], llm_calls=[llm("g1", 1, 2)]),
        "llm.allowed_models", "fail", "model_not_allowed"),
    Row("model not recorded", {"llm": {"allowed_models": ["gpt-4o"]}},
        trace([SEARCH], llm_calls=[llm("g1", 1, 2, model=None)]), "llm.allowed_models", "unmeasured", "model_unknown"),
    Row("no model calls recorded", {"llm": {"max_calls": 3}}, TWO, "llm.max_calls", "unmeasured", "no_model_calls"),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_rule(row: Row) -> None:
    evaluation = run(row.contract, row.subject)
    found = statuses(evaluation)
    assert found[row.rule] == row.status, evaluation
    if row.verdict:
        assert verdicts(evaluation)[row.rule] == row.verdict
    for rule_id, status in row.extra.items():
        assert found[rule_id] == status
    for result in evaluation.results:
        assert result.outcome.evidence, result  # every finding carries event ids


def test_evidence_has_event_ids_and_times() -> None:
    result = run({"tools": {"required_order": ["search", "charge"]}}, TWO).results[1]
    assert [e.as_dict() for e in result.outcome.evidence] == [
        {"event_id": "s1", "kind": "tool", "name": "search", "start": "2026-07-11T00:00:00+00:00",
         "end": "2026-07-11T00:00:01+00:00"},
        {"event_id": "c1", "kind": "tool", "name": "charge", "start": "2026-07-11T00:00:02+00:00",
         "end": "2026-07-11T00:00:03+00:00"}]


def _args(check: dict[str, Any], *calls: dict[str, Any]) -> tuple[str, str]:
    evaluation = run({"tools": {"arguments": [{"tool": "charge", **check}]}}, trace(list(calls)))
    return statuses(evaluation)["tools.arguments.0"], verdicts(evaluation)["tools.arguments.0"]


def _charge(event_id: str, arguments: Any) -> dict[str, Any]:
    return tool(event_id, "charge", arguments=arguments)


@pytest.mark.parametrize(("check", "calls", "expected"), [
    ({"path": "/dryRun", "op": "equals", "value": True}, [CHARGE], ("pass", "satisfied")),
    ({"path": "/dryRun", "op": "equals", "value": False}, [CHARGE], ("fail", "argument_mismatch")),
    ({"path": "/dryRun", "op": "equals", "value": 1}, [CHARGE], ("fail", "argument_mismatch")),  # true is not 1
    ({"path": "/amount", "op": "type", "type": "number"}, [CHARGE], ("pass", "satisfied")),
    ({"path": "/amount", "op": "type", "type": "string"}, [CHARGE], ("fail", "argument_mismatch")),
    ({"path": "/card", "op": "exists"}, [CHARGE], ("pass", "satisfied")),
    ({"path": "/cvv", "op": "exists"}, [CHARGE], ("fail", "argument_mismatch")),
    ({"path": "/amount", "op": "one_of", "values": [5, 10]}, [CHARGE], ("pass", "satisfied")),
    ({"path": "/amount", "op": "one_of", "values": [1, 2]}, [CHARGE], ("fail", "argument_mismatch")),
    ({"path": "/items/0/a~1b", "op": "equals", "value": 1}, [_charge("x", {"items": [{"a/b": 1}]})],
     ("pass", "satisfied")),
    # occurrence: first, all, any
    ({"path": "/dryRun", "op": "equals", "value": True, "occurrence": "first"},
     [CHARGE, _charge("c2", {"dryRun": False})], ("pass", "satisfied")),
    ({"path": "/dryRun", "op": "equals", "value": True, "occurrence": "all"},
     [CHARGE, _charge("c2", {"dryRun": False})], ("fail", "argument_mismatch")),
    ({"path": "/dryRun", "op": "equals", "value": False, "occurrence": "any"},
     [CHARGE, _charge("c2", {"dryRun": False})], ("pass", "satisfied")),
    ({"path": "/dryRun", "op": "equals", "value": None, "occurrence": "any"},
     [CHARGE, _charge("c2", {"dryRun": False})], ("fail", "argument_mismatch")),
    # a JSON string is structured when it parses whole into an object
    ({"path": "/dryRun", "op": "equals", "value": True}, [_charge("c", '{"dryRun": true}')], ("pass", "satisfied")),
    # missing structured evidence fails closed, with its own verdict
    ({"path": "/dryRun", "op": "exists"}, [tool("c", "charge")], ("unmeasured", "argument_evidence_missing")),
    ({"path": "/dryRun", "op": "exists"}, [_charge("c", "charge 5 EUR, dry run")],
     ("unmeasured", "argument_evidence_missing")),
    ({"path": "/dryRun", "op": "exists"}, [_charge("c", '{"dryRun": tr')], ("unmeasured", "argument_evidence_missing")),
    ({"path": "/dryRun", "op": "exists", "occurrence": "any"}, [tool("c", "charge"), _charge("d", {"x": 1})],
     ("unmeasured", "argument_evidence_missing")),
    # a measured failure is not hidden by another call's missing evidence
    ({"path": "/dryRun", "op": "exists"}, [tool("c", "charge"), _charge("d", {"x": 1})],
     ("fail", "argument_mismatch")),
    # no call at all: nothing breaks "all"; "first"/"any" have nothing to read
    ({"path": "/dryRun", "op": "exists"}, [SEARCH], ("pass", "not_called")),
    ({"path": "/dryRun", "op": "exists", "occurrence": "first"}, [SEARCH], ("unmeasured", "not_called")),
])
def test_argument_checks(check: dict[str, Any], calls: list[dict[str, Any]], expected: tuple[str, str]) -> None:
    assert _args(check, *calls) == expected


def test_argument_findings_never_carry_argument_values() -> None:
    secret = {"amount": 5, "dryRun": "4111-SECRET", "card": "4111-SECRET"}
    evaluation = run({"tools": {"arguments": [{"tool": "charge", "path": "/dryRun", "op": "equals", "value": True},
                                              {"tool": "charge", "path": "/card", "op": "type", "type": "number"}]}},
                     trace([_charge("c1", secret)]))
    assert [r.outcome.status for r in evaluation.results] == ["fail", "fail"]
    for result in evaluation.results:
        text = json.dumps([result.outcome.summary, result.outcome.expected, result.outcome.actual,
                           dict(result.outcome.details)], default=str)
        assert "SECRET" not in text and "4111" not in text
        assert "string" in result.outcome.summary  # the type found, not the value


RETRY = {"retry": {"max_attempts": 2, "non_idempotent_tools": ["charge"],
                   "require_recovered_failure_visible": True}}


def _attempt(event_id: str, status: str, arguments: Any = None, call_id: str | None = "op-1") -> dict[str, Any]:
    return tool(event_id, "charge", call_id=call_id, status=status, arguments=arguments)


@pytest.mark.parametrize(("events", "expected"), [
    # a failure, then a retry with an idempotency key: all good
    ([_attempt("a1", "error", {"idempotency_key": "k"}), _attempt("a2", "ok", {"idempotency_key": "k"})],
     {"retry.max_attempts": "pass", "retry.idempotency": "pass", "retry.recovered_failure_visible": "pass"}),
    # three attempts of one operation
    ([_attempt(f"a{i}", "error", {"idempotency_key": "k"}) for i in range(3)],
     {"retry.max_attempts": "fail", "retry.idempotency": "pass", "retry.recovered_failure_visible": "pass"}),
    # a retry without a key, after an attempt that did not fail
    ([_attempt("a1", "ok", {"amount": 1}), _attempt("a2", "ok", {"amount": 1})],
     {"retry.max_attempts": "pass", "retry.idempotency": "fail", "retry.recovered_failure_visible": "fail"}),
    # a retry without structured arguments; an attempt with no recorded status
    ([_attempt("a1", "unknown"), _attempt("a2", "ok")],
     {"retry.idempotency": "unmeasured", "retry.recovered_failure_visible": "unmeasured"}),
    # two calls with different call ids: two operations, no retry
    ([_attempt("a1", "ok", call_id="op-1"), _attempt("a2", "ok", call_id="op-2")],
     {"retry.max_attempts": "pass", "retry.idempotency": "pass", "retry.recovered_failure_visible": "pass"}),
    # two calls without call ids: attempts cannot be identified (never guessed from times)
    ([_attempt("a1", "error", call_id=None), _attempt("a2", "ok", call_id=None)],
     {"retry.max_attempts": "unmeasured", "retry.idempotency": "unmeasured",
      "retry.recovered_failure_visible": "unmeasured"}),
])
def test_retry_rules(events: list[dict[str, Any]], expected: dict[str, str]) -> None:
    found = statuses(run(RETRY, trace(events)))
    assert {k: found[k] for k in expected} == expected


ALTERNATIVES = {
    "tools": {"required": ["answer"]},
    "alternatives": {"any_of": [
        {"id": "cache-hit", "tools": {"required": ["cache_lookup"], "forbidden": ["retrieve"]}},
        {"id": "retrieve", "tools": {"required_order": ["retrieve", "answer"]}},
    ]},
}


def test_alternatives_one_branch_is_enough() -> None:
    evaluation = run(ALTERNATIVES, trace([tool("r", "retrieve"), tool("a", "answer")]))
    assert statuses(evaluation) == {"tools.required": "pass", "alternatives.any_of": "pass"}
    assert evaluation.results[-1].outcome.actual == "retrieve"


def test_alternatives_none_satisfied_names_each_branch_first_failure() -> None:
    evaluation = run(ALTERNATIVES, trace([tool("a", "answer"), tool("r", "retrieve")]))
    result = evaluation.results[-1]
    assert (result.outcome.status, result.outcome.verdict) == ("fail", "none_satisfied")
    failures = result.outcome.details["branch_failures"]
    assert isinstance(failures, dict)
    assert failures["cache-hit"].startswith("alternatives.cache-hit.tools.required: tool_missing")
    assert failures["retrieve"].startswith("alternatives.retrieve.tools.order.0: out_of_order")


def test_alternatives_base_rules_always_apply() -> None:
    evaluation = run(ALTERNATIVES, trace([tool("c", "cache_lookup")]))
    assert statuses(evaluation) == {"tools.required": "fail", "alternatives.any_of": "pass"}


def test_alternatives_unmeasured_branch_is_not_a_pass() -> None:
    contract = {"alternatives": {"any_of": [
        {"id": "timed", "tools": {"required_order": ["a", "b"], "required_order_mode": "happens-before"}},
        {"id": "never", "tools": {"required": ["z"]}}]}}
    result = run(contract, trace([tool("a", "a"), tool("b", "b")])).results[-1]
    assert (result.outcome.status, result.outcome.verdict) == ("unmeasured", "branch_unmeasured")


@pytest.mark.parametrize(("raw", "message"), [
    ({"id": "x", "tools": {"required_order_mode": "sometimes"}}, "required_order_mode"),
    ({"id": "x", "alternatives": {"any_of": [{"id": "a"}, {"id": "a"}]}}, "unique"),
    ({"id": "x", "alternatives": {"any_of": [{"id": "a", "alternatives": {}}]}}, "alternatives"),
    ({"id": "x", "tools": {"arguments": [{"tool": "t", "path": "dryRun", "op": "exists"}]}}, "JSON Pointer"),
    ({"id": "x", "tools": {"arguments": [{"tool": "t", "path": "/a", "op": "equals"}]}}, "needs value"),
    ({"id": "x", "scope": {"agents": []}}, "scope.agents"),
    ({"id": "x", "tool": {}}, "tool"),
])
def test_invalid_contracts_are_config_errors(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_contract(raw)


def test_naive_and_aware_times_compare() -> None:
    naive = dict(tool("s1", "search", 0, 1), timestamp="2026-07-11T00:00:00", end_time="2026-07-11T00:00:01")
    evaluation = run({"tools": {"required_order": ["search", "charge"], "required_order_mode": "happens-before"}},
                     trace([naive, CHARGE]))
    assert statuses(evaluation)["tools.order.0"] == "pass"

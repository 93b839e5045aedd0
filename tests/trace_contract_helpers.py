"""Small builders for trace-contract tests: native traces whose tool calls, messages and model
calls carry the times a test needs."""

from __future__ import annotations

from typing import Any

from auditor.trace import Trace
from auditor.trace_contracts import Evaluation, evaluate_contract, parse_contract

DAY = "2026-07-11T00:00:"


def at(seconds: float | None) -> str | None:
    return None if seconds is None else f"{DAY}{seconds:06.3f}Z"


def tool(event_id: str, name: str, start: float | None = None, end: float | None = None, *, agent: str = "worker",
         arguments: Any = None, call_id: str | None = None, status: str = "ok") -> dict[str, Any]:
    event: dict[str, Any] = {"type": "tool_call", "id": event_id, "agent": agent, "tool": name, "status": status}
    if start is not None:
        event["timestamp"] = at(start)
    if end is not None:
        event["end_time"] = at(end)
    if arguments is not None:
        event["arguments"] = arguments
    if call_id is not None:
        event["call_id"] = call_id
    return event


def message(event_id: str, sender: str, to: str, at_s: float | None = None, content: str = "done") -> dict[str, Any]:
    event: dict[str, Any] = {"type": "message", "id": event_id, "sender": sender, "recipients": [to],
                             "content": content}
    if at_s is not None:
        event["timestamp"] = at(at_s)
    return event


def llm(call_id: str, start: float | None, end: float | None, *, model: str | None = "gpt-4o-mini",
        tokens: int | None = None, agent: str = "worker", name: str = "chat") -> dict[str, Any]:
    return {"id": call_id, "agent": agent, "name": name, "model": model, "total_tokens": tokens,
            "timestamp": at(start), "end_time": at(end)}


def trace(events: list[dict[str, Any]], *, status: str | None = "ok", llm_calls: list[dict[str, Any]] | None = None,
          agents: list[dict[str, Any]] | None = None, started: float | None = None, ended: float | None = None,
          source: str | None = None, trace_id: str = "t-contract") -> Trace:
    metadata: dict[str, Any] = {"status": status, "started_at": at(started), "ended_at": at(ended)}
    if source is not None:
        metadata["source"] = source
    return Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": trace_id, "metadata": metadata,
                                 "agents": agents or [], "events": events, "llm_calls": llm_calls or []})


def run(contract: dict[str, Any], subject: Trace) -> Evaluation:
    evaluation = evaluate_contract(parse_contract({"id": "c", **contract}), subject)
    assert evaluation is not None
    return evaluation


def statuses(evaluation: Evaluation) -> dict[str, str]:
    return {r.rule.id: r.outcome.status for r in evaluation.results}


def verdicts(evaluation: Evaluation) -> dict[str, str]:
    return {r.rule.id: r.outcome.verdict for r in evaluation.results}


def failing(evaluation: Evaluation) -> list[str]:
    return [r.rule.id for r in evaluation.results if r.outcome.status == "fail"]

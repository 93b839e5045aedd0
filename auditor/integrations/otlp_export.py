"""Native trace -> OTLP JSON with OTel GenAI attributes (one ``TracesData`` document).

Reading the result back with the OTLP format gives the same edges (ids, sources,
destinations). Each native event becomes one agent turn:

* a message from a person: an ``invoke_agent`` span of each recipient whose
  ``gen_ai.input.messages`` holds the text as a user message;
* a message from an agent: an ``invoke_agent`` span of the sender with a ``chat`` child whose
  output is the text, and one ``execute_tool`` ``transfer_to_<destination>`` child per edge
  destination (``gen_ai.handoff.to_agent: "*"`` when the message has no other speaker after it);
* a tool call: an ``invoke_agent`` span of the caller with an ``execute_tool`` child;
* a handoff stage: a span with the ``edge_audit.handoff.*`` attributes.

Every span carries ``edge_audit.trace.id`` and ``edge_audit.event.id``. What OTLP GenAI has no
place for is not exported: ``structured`` message parts, ``visible_to`` of tool calls, exit codes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..trace import BROADCAST, HandoffStage, Message, ToolCall, Trace


def _value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [_value(v) for v in value]}}
    return {"stringValue": str(value)}


def _attrs(items: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in items.items() if v is not None]


def _hex(text: str, size: int) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:size]


def to_otlp(trace: Trace) -> dict[str, Any]:
    from ..edges import build_edges

    destinations: dict[str, list[str]] = {}
    for edge in build_edges(trace).edges:
        destinations.setdefault(edge.message.id, []).append(edge.destination)
    agents = trace.agents_by_name()
    prompted: set[str] = set()
    trace_hex = _hex(trace.trace_id, 32)
    spans: list[dict[str, Any]] = []

    def span(name: str, start: int, attrs: dict[str, Any], parent: str | None = None, error: bool = False,
             key: str = "") -> str:
        span_id = _hex(f"{trace.trace_id}/{key or name}/{len(spans)}", 16)
        spans.append({
            "traceId": trace_hex, "spanId": span_id, **({"parentSpanId": parent} if parent else {}), "name": name,
            "kind": 1, "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500_000_000),
            "attributes": _attrs({"edge_audit.trace.id": trace.trace_id, **attrs}),
            "status": {"code": 2 if error else 0},
        })
        return span_id

    def agent_span(agent: str, start: int, extra: dict[str, Any] | None = None) -> str:
        attrs: dict[str, Any] = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent, **(extra or {})}
        declared = agents.get(agent)
        if declared is not None and declared.system_prompt and agent not in prompted:
            prompted.add(agent)
            attrs["gen_ai.system_instructions"] = json.dumps([{"type": "text", "content": declared.system_prompt}])
        return span(f"invoke_agent {agent}", start, attrs)

    for index, event in enumerate(trace.events):
        start = 1_700_000_000_000_000_000 + index * 1_000_000_000
        if isinstance(event, HandoffStage):
            span(f"handoff_stage {event.stage}", start, {
                "edge_audit.event.id": event.id, "edge_audit.handoff.id": event.handoff_id,
                "edge_audit.handoff.attempt_id": event.attempt_id, "edge_audit.handoff.stage": event.stage,
                "edge_audit.handoff.route": event.route, "edge_audit.handoff.contract_version": event.contract_version,
                "edge_audit.handoff.from_agent": event.from_agent, "edge_audit.handoff.to_agent": event.to_agent,
                "edge_audit.handoff.keys": list(event.keys), "edge_audit.handoff.capture": event.capture})
        elif isinstance(event, ToolCall):
            parent = agent_span(event.agent, start)
            args = event.arguments if isinstance(event.arguments, str) or event.arguments is None else \
                json.dumps(event.arguments)
            span(f"execute_tool {event.tool}", start + 1, {
                "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": event.tool,
                "gen_ai.tool.call.id": event.call_id, "gen_ai.tool.call.arguments": args,
                "gen_ai.tool.call.result": event.result, "edge_audit.event.id": event.id}, parent, event.status == "error")
        elif isinstance(event, Message):
            declared = agents.get(event.sender)
            if declared is not None and declared.kind != "agent":
                recipients = list(agents) if event.recipients == BROADCAST else event.recipients
                for r in recipients:
                    if r != event.sender and (agents.get(r) is None or agents[r].kind == "agent"):
                        agent_span(r, start, {"edge_audit.event.id": event.id, "gen_ai.input.messages": json.dumps(
                            [{"role": "user", "parts": [{"type": "text", "content": event.content}]}])})
                continue
            parent = agent_span(event.sender, start)
            span("chat", start + 1, {"gen_ai.operation.name": "chat", "edge_audit.event.id": event.id,
                                     "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                                         {"type": "text", "content": event.content}]}])}, parent)
            for n, destination in enumerate(destinations.get(event.id, []), start=2):
                if destination == BROADCAST:
                    span("handoff", start + n, {"gen_ai.handoff.from_agent": event.sender,
                                                "gen_ai.handoff.to_agent": BROADCAST, "edge_audit.event.id": event.id},
                         parent)
                else:
                    span(f"execute_tool transfer_to_{destination}", start + n, {
                        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": f"transfer_to_{destination}",
                        "edge_audit.event.id": event.id}, parent)
    return {"resourceSpans": [{"resource": {"attributes": _attrs({"service.name": "edge-audit-export"})},
                               "scopeSpans": [{"scope": {"name": "edge-audit"}, "spans": spans}]}]}

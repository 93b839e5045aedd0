"""OpenAI Agents SDK traces, as the JSONL a tracing processor writes: one ``trace`` object
(``{"object": "trace", "id", "workflow_name", ...}``) and its ``trace.span`` objects
(``{"object": "trace.span", "id", "trace_id", "parent_id", "started_at", "ended_at",
"span_data", "error"}``) per line. ``auditor.integrations.openai_agents`` writes this file.

``span_data.type``:

* ``agent`` (``name``): an agent span;
* ``generation`` (``input``/``output`` messages, chat-completions or responses shape): an LLM span;
* ``function`` (``name``, ``input``, ``output``): a tool call; ``transfer_to_<agent>`` is a handoff;
* ``handoff`` (``from_agent``, ``to_agent``): the handoff, a child of the source agent's span,
  whose destination agent span is the next sibling;
* ``guardrail``, ``custom``, ``response`` and others: kept only as structure.

A span with an ``error`` is a failed call. The SDK hands the whole conversation to the next
agent; its user inputs are therefore seen by every agent whose generation input holds them.
Edges follow the rules in ``_spans``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...errors import TraceError, TraceValidationError
from .._json import loads
from .._model import Trace
from ._registry import BY_KEY, Record, TraceFormat, register_format
from ._span_model import Msg, Span, ToolCallPart, iso_seconds, set_usage, text_of
from ._spans import trace_or_error


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("text"))
    return ""


def _messages(items: Any) -> list[Msg]:
    out: list[Msg] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "function_call":
            out.append(Msg("assistant", "", (ToolCallPart(_opt_str(item.get("call_id")), str(item.get("name", "")),
                                                          item.get("arguments")),)))
            continue
        if kind == "function_call_output":
            continue
        listed = item.get("tool_calls")
        calls = tuple(ToolCallPart(_opt_str(c.get("id")), str(_dict(c.get("function")).get("name", "")),
                                   _dict(c.get("function")).get("arguments"))
                      for c in (listed if isinstance(listed, list) else []) if isinstance(c, dict))
        out.append(Msg(str(item.get("role", "")), _content_text(item.get("content")), calls))
    return out


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _opt_str(value: Any) -> str | None:
    """An optional id: a string as it is, a number as text, anything else None."""
    if value is None or isinstance(value, str):
        return value
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _span(raw: dict[str, Any], seq: int) -> Span:
    data = raw.get("span_data")
    if not isinstance(data, dict):
        raise ValueError("span has no span_data object")
    span_id = raw.get("id")
    if not isinstance(span_id, str) or not span_id:
        raise ValueError("span has no id")
    kind = data.get("type")
    parent = raw.get("parent_id")
    if parent is not None and not isinstance(parent, str):
        raise ValueError(f"parent_id must be a string, got {type(parent).__name__}")
    span = Span(span_id=span_id, parent_id=parent or None, name=str(data.get("name") or kind), kind="other",
                start=iso_seconds(raw.get("started_at")), end=iso_seconds(raw.get("ended_at")) or None, seq=seq,
                error=bool(raw.get("error")))
    if kind == "agent":
        span.kind, span.agent = "agent", str(data.get("name") or "agent")
    elif kind == "generation":
        span.kind, span.model = "llm", _opt_str(data.get("model"))
        usage = _dict(data.get("usage"))
        set_usage(span, usage.get("input_tokens"), usage.get("output_tokens"), usage.get("total_tokens"))
        span.inputs, span.outputs = _messages(data.get("input")), _messages(data.get("output"))
    elif kind == "function":
        span.kind, span.tool_name = "tool", str(data.get("name") or "function")
        raw_input = data.get("input")
        try:
            span.arguments = loads(raw_input) if isinstance(raw_input, str) else raw_input
        except ValueError:
            span.arguments = raw_input
        output = data.get("output")
        span.result = None if output is None else text_of(output)
        if raw.get("error"):
            span.result = (span.result or "") + f"\nerror: {text_of(raw['error'])}"
    elif kind == "handoff":
        span.kind, span.handoff_from, span.handoff_to = ("handoff", _opt_str(data.get("from_agent")),
                                                         _opt_str(data.get("to_agent")))
    return span


def _detect(document: Any) -> bool:
    return isinstance(document, dict) and document.get("object") in ("trace", "trace.span")


def _records(records: Iterable[Record], path: str, name_hint: str) -> Iterator[Trace | TraceError]:
    spans: dict[str, list[Span]] = {}
    meta: dict[str, dict[str, Any]] = {}
    for seq, (line, document) in enumerate(records):
        if not _detect(document):
            yield TraceValidationError(path, "not an OpenAI Agents trace or trace.span object", line=line)
            continue
        if document["object"] == "trace":
            trace_id = document.get("id")
            if isinstance(trace_id, str):
                meta[trace_id] = {"source": "openai-agents", "task": document.get("workflow_name"),
                                  "labels": {"group_id": document.get("group_id")}}
                spans.setdefault(trace_id, [])
            continue
        trace_id = document.get("trace_id")
        if not isinstance(trace_id, str) or not trace_id:
            yield TraceValidationError(path, "span has no trace_id", line=line, where=f"span {document.get('id', '?')}")
            continue
        try:
            spans.setdefault(trace_id, []).append(_span(document, seq))
        except (ValueError, TypeError, AttributeError) as err:
            yield TraceValidationError(path, f"malformed span: {err}", line=line, where=f"span {document.get('id', '?')}")
    for trace_id, items in spans.items():
        if not items:
            yield TraceValidationError(path, f"trace {trace_id} has no spans", where=f"trace {trace_id}")
            continue
        yield trace_or_error(path, trace_id, items, meta.get(trace_id, {"source": "openai-agents"}))


OPENAI_AGENTS = register_format(TraceFormat(
    name="openai-agents", registry_name="edge-audit.format.openai-agents.v1", detect=_detect, records=_records,
    description="OpenAI Agents SDK processor JSONL: trace and trace.span objects (agent, generation, function, handoff)",
    priority=BY_KEY,
))

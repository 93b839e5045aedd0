"""Langfuse trace exports: ``{"trace": {...}, "observations": [...]}`` (or a trace object with
its ``observations`` inside), one per JSON file or per JSONL line.

Observations are ``AGENT``, ``TOOL``, ``GENERATION``, ``SPAN`` (and other types, kept as
structure), linked by ``parentObservationId``, ordered by ``startTime``. An observation that
arrived through OTel keeps its span attributes in ``metadata.attributes``; those are read with
the OTLP mappers (GenAI semconv or OpenInference). Otherwise:

* ``AGENT``: an agent span named ``name``; a string or ``messages`` input is what it was given;
* ``GENERATION``: an LLM span; ``input`` is a message list (``{role, content}``) or a prompt
  string, ``output`` a message (with ``tool_calls``) or a string;
* ``TOOL``: a tool call (``input`` as arguments, ``output`` as result); ``transfer_to_<agent>``
  is a handoff. ``level: ERROR`` marks a failure.

The trace's own ``input``, when no agent input carries it, is the first agent's input from the
user. Edges follow the rules in ``_spans``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ...errors import TraceError, TraceValidationError
from .._model import Trace
from ._registry import BY_KEY, Record, TraceFormat, register_format
from ._span_model import Msg, Span, ToolCallPart, iso_seconds, set_usage, text_of
from ._spans import trace_or_error
from .otlp import span_from_attributes


def _msg(raw: Any, default_role: str) -> Msg | None:
    if isinstance(raw, str):
        return Msg(default_role, raw)
    if not isinstance(raw, dict):
        return None
    content = raw.get("content")
    text = content if isinstance(content, str) else "\n".join(
        str(p.get("text", "")) for p in content or [] if isinstance(p, dict) and p.get("text"))
    calls = tuple(ToolCallPart(c.get("id"), str((c.get("function") or c).get("name", "")),
                               (c.get("function") or c).get("arguments", c.get("args")))
                  for c in raw.get("tool_calls") or [] if isinstance(c, dict))
    return Msg(str(raw.get("role", default_role)), text, calls)


def _messages(value: Any, default_role: str) -> list[Msg]:
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]
    items = value if isinstance(value, list) else [value] if value is not None else []
    return [m for m in (_msg(v, default_role) for v in items) if m is not None]


def _span(obs: dict[str, Any], seq: int) -> Span:
    obs_id = obs.get("id")
    if not isinstance(obs_id, str) or not obs_id:
        raise ValueError("observation has no id")
    start, end = iso_seconds(obs.get("startTime")), iso_seconds(obs.get("endTime")) or None
    error = obs.get("level") == "ERROR"
    parent = obs.get("parentObservationId") or None
    name = str(obs.get("name") or "")
    attrs = (obs.get("metadata") or {}).get("attributes") if isinstance(obs.get("metadata"), dict) else None
    if isinstance(attrs, dict) and attrs:
        return span_from_attributes(obs_id, parent, name, start, end, seq, attrs, error)
    kind = str(obs.get("type", "")).upper()
    span = Span(span_id=obs_id, parent_id=parent, name=name, kind="other", start=start, end=end, seq=seq, error=error)
    if kind == "AGENT":
        span.kind, span.agent = "agent", name or "agent"
        span.inputs = _messages(obs.get("input"), "user")
        span.outputs = _messages(obs.get("output"), "assistant")
    elif kind == "GENERATION":
        span.kind, span.model = "llm", obs.get("model")
        usage = obs.get("usageDetails") or obs.get("usage")
        if isinstance(usage, dict):
            set_usage(span, usage.get("input"), usage.get("output"), usage.get("total"))
        span.inputs = _messages(obs.get("input"), "user")
        span.outputs = _messages(obs.get("output"), "assistant")
    elif kind == "TOOL":
        span.kind, span.tool_name = "tool", name or "tool"
        span.arguments = obs.get("input")
        output = obs.get("output")
        span.result = None if output is None else text_of(output)
        if error and obs.get("statusMessage"):
            span.result = ((span.result + "\n") if span.result else "") + f"error: {obs['statusMessage']}"
    return span


def _parts(document: Any) -> tuple[dict[str, Any], list[Any]] | None:
    if not isinstance(document, dict) or not isinstance(document.get("observations"), list):
        return None
    inner = document.get("trace")
    trace: dict[str, Any] = inner if isinstance(inner, dict) else document
    observations: list[Any] = document["observations"]
    return (trace, observations) if isinstance(trace.get("id"), str) else None


def _detect(document: Any) -> bool:
    return _parts(document) is not None


def _records(records: Iterable[Record], path: str, name_hint: str) -> Iterator[Trace | TraceError]:
    for line, document in records:
        parts = _parts(document)
        if parts is None:
            yield TraceValidationError(path, "not a Langfuse export ({trace, observations})", line=line)
            continue
        trace, observations = parts
        spans = []
        for seq, obs in enumerate(observations):
            try:
                spans.append(_span(obs, seq))
            except (ValueError, TypeError, AttributeError) as err:
                where = f"observations[{seq}] (observation {obs.get('id', '?') if isinstance(obs, dict) else '?'})"
                yield TraceValidationError(path, f"malformed observation: {err}", line=line, where=where)
        first_agent = min((s for s in spans if s.kind == "agent"), key=lambda s: (s.start, s.seq), default=None)
        task = trace.get("input")
        if first_agent is not None and task is not None and not any(m.role == "user" for m in first_agent.inputs):
            first_agent.inputs = [*_messages(task if not isinstance(task, dict) or "messages" in task
                                             else json.dumps(task), "user"), *first_agent.inputs]
        yield trace_or_error(path, str(trace["id"]), spans, {"source": "langfuse", "task": trace.get("name")},
                             line=line)


LANGFUSE = register_format(TraceFormat(
    name="langfuse", registry_name="edge-audit.format.langfuse.v1", detect=_detect, records=_records,
    description="Langfuse trace export: {trace, observations[]} with AGENT/TOOL/GENERATION/SPAN, OTel attributes",
    priority=BY_KEY,
))

"""OTLP JSON traces: the file exporter's JSONL (one ``TracesData`` per line) or one JSON document,
``resourceSpans -> scopeSpans -> spans``. Spans of one ``traceId`` may arrive on many lines;
they are grouped into one trace.

Two attribute dialects are read:

* **OTel GenAI semantic conventions.** ``gen_ai.operation.name`` ``invoke_agent``,
  ``invoke_agent.internal`` or ``create_agent`` is an agent span (``gen_ai.agent.name``, else
  ``gen_ai.agent.id``, else the span name); ``execute_tool`` a tool span (``gen_ai.tool.name``,
  ``gen_ai.tool.call.id``, ``gen_ai.tool.call.arguments`` / ``.result`` as a JSON string or an
  object); ``chat``/``text_completion``/``generate_content`` an LLM span. Messages are
  ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (role plus parts of type ``text``,
  ``tool_call``, ``tool_call_response``), ``gen_ai.system_instructions``, and the older
  ``gen_ai.prompt`` / ``gen_ai.completion`` (a JSON list, or flattened ``gen_ai.prompt.<i>.role``
  / ``.content``). ``gen_ai.handoff.from_agent`` / ``to_agent`` mark a handoff.
* **OpenInference.** ``openinference.span.kind`` AGENT / TOOL / LLM / CHAIN; ``agent.name``
  (else ``graph.node.id``); on tools ``tool.name``, ``input.value``, ``output.value``; on LLM
  spans the flattened ``llm.input_messages.<i>.message.*`` and
  ``llm.output_messages.<i>.message.tool_calls.<j>.tool_call.function.*``. Tool spans named
  ``handoff to X`` (openai-agents instrumentation) are handoffs.

``status.code`` 2 (or ``STATUS_CODE_ERROR``) is an error; the span kind may be an integer or an
enum name. Handoff stage records (for contracts) are spans with ``edge_audit.handoff.stage`` and
``edge_audit.handoff.id``, ``.attempt_id``, ``.route``, ``.contract_version``, ``.from_agent``,
``.to_agent``, ``.keys`` (string array) and ``.capture``. ``edge_audit.event.id`` names the
native event a span came from (the exporter writes it). The edges are then inferred by the rules
in ``_spans``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from ...errors import TraceError, TraceValidationError
from .._json import loads
from .._model import Trace
from ._registry import BY_KEY, Record, TraceFormat, register_format
from ._span_model import Msg, Span, SpanKind, ToolCallPart, set_usage
from ._spans import trace_or_error

_AGENT_OPS = frozenset({"invoke_agent", "invoke_agent.internal", "create_agent"})
_LLM_OPS = frozenset({"chat", "text_completion", "generate_content"})
_FLAT = re.compile(r"^(?P<base>[\w.]+?)\.(?P<i>\d+)\.(?P<rest>.+)$")


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` as a Python value (``intValue`` arrives as a string); a malformed
    value (a wrong type inside) is None, never an exception."""
    if not isinstance(value, dict):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        raw = value["intValue"]
        if isinstance(raw, bool) or not isinstance(raw, (int, str)) or len(str(raw)) > 40:
            return None
        try:
            return int(raw)
        except ValueError:
            return None
    if "doubleValue" in value:
        try:
            return float(value["doubleValue"])
        except (TypeError, ValueError):
            return None
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "arrayValue" in value:
        values = value["arrayValue"].get("values") if isinstance(value["arrayValue"], dict) else None
        return [any_value(v) for v in values] if isinstance(values, list) else []
    if "kvlistValue" in value:
        values = value["kvlistValue"].get("values") if isinstance(value["kvlistValue"], dict) else None
        return attributes(values)
    if "bytesValue" in value:
        return value["bytesValue"]
    return None


def attributes(items: Any) -> dict[str, Any]:
    if not isinstance(items, list):
        return {}
    return {kv["key"]: any_value(kv.get("value")) for kv in items
            if isinstance(kv, dict) and isinstance(kv.get("key"), str)}


def _json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return loads(value)
        except ValueError:
            return value
    return value


def _nested(attrs: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """``prefix.<i>.a.b = v`` flattened attributes as a list of nested dicts, by index."""
    items: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix + "."):
            continue
        match = _FLAT.match(key)
        if not match or match["base"] != prefix:
            continue
        node = items.setdefault(int(match["i"]), {})
        parts = match["rest"].split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return [items[i] for i in sorted(items)]


def _semconv_messages(value: Any) -> list[Msg]:
    out = []
    for m in _json(value) or []:
        if not isinstance(m, dict):
            continue
        role = str(m.get("role", ""))
        texts, calls = [], []
        parts = m.get("parts")
        if isinstance(parts, list):
            for part in parts:
                if not isinstance(part, dict):
                    continue
                kind = part.get("type")
                if kind == "text":
                    texts.append(str(part.get("content", "")))
                elif kind == "tool_call":
                    calls.append(ToolCallPart(part.get("id"), str(part.get("name", "")), _json(part.get("arguments"))))
        elif m.get("content") is not None:
            texts.append(str(m["content"]) if not isinstance(m["content"], list) else
                         " ".join(str(c.get("text", c)) if isinstance(c, dict) else str(c) for c in m["content"]))
        out.append(Msg(role, "\n".join(t for t in texts if t), tuple(calls)))
    return out


def _openinference_messages(attrs: dict[str, Any], prefix: str) -> list[Msg]:
    out = []
    for item in _nested(attrs, prefix):
        message = item.get("message", {})
        calls = []
        for call in _nested_dict_list(message.get("tool_calls")):
            tool_call = call.get("tool_call", {})
            function = tool_call.get("function", {})
            calls.append(ToolCallPart(tool_call.get("id"), str(function.get("name", "")), _json(function.get("arguments"))))
        out.append(Msg(str(message.get("role", "")), str(message.get("content") or ""), tuple(calls)))
    return out


def _nested_dict_list(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node[k] for k in sorted(node, key=lambda k: int(k) if str(k).isdigit() else 0) if isinstance(node[k], dict)]
    return []


def _legacy(attrs: dict[str, Any], key: str) -> list[Msg]:
    if key in attrs:
        return _semconv_messages(attrs[key])
    return [Msg(str(i.get("role", "")), str(i.get("content") or "")) for i in _nested(attrs, key)]


def _kind(attrs: dict[str, Any]) -> SpanKind:
    op = attrs.get("gen_ai.operation.name")
    op = op if isinstance(op, str) else None
    oi = str(attrs.get("openinference.span.kind", "")).upper()
    if op in _AGENT_OPS or oi == "AGENT":
        return "agent"
    if op == "execute_tool" or oi == "TOOL":
        return "tool"
    if op in _LLM_OPS or oi == "LLM":
        return "llm"
    if attrs.get("gen_ai.handoff.to_agent"):
        return "handoff"
    return "other"


def _time(value: Any) -> float:
    try:
        return int(value) / 1e9
    except (TypeError, ValueError):
        return 0.0


def _stage(attrs: dict[str, Any], span_id: str) -> dict[str, Any]:
    keys = attrs.get("edge_audit.handoff.keys") or []
    stage = {"type": "handoff_stage", "id": attrs.get("edge_audit.event.id") or span_id,
             "handoff_id": attrs.get("edge_audit.handoff.id"), "attempt_id": str(attrs.get("edge_audit.handoff.attempt_id", "1")),
             "stage": attrs.get("edge_audit.handoff.stage"), "route": attrs.get("edge_audit.handoff.route"),
             "contract_version": attrs.get("edge_audit.handoff.contract_version"),
             "from_agent": attrs.get("edge_audit.handoff.from_agent"), "to_agent": attrs.get("edge_audit.handoff.to_agent"),
             "keys": keys if isinstance(keys, list) else [keys], "capture": attrs.get("edge_audit.handoff.capture", "complete")}
    return {k: v for k, v in stage.items() if v is not None}


def otlp_span(raw: dict[str, Any], seq: int) -> Span:
    """One OTLP span as a ``Span`` (raises ValueError on a malformed one)."""
    span_id = raw.get("spanId")
    if not isinstance(span_id, str) or not span_id:
        raise ValueError("span has no spanId")
    parent = raw.get("parentSpanId")
    if parent is not None and not isinstance(parent, str):
        raise ValueError(f"parentSpanId must be a string, got {type(parent).__name__}")
    status = raw.get("status") or {}
    code = status.get("code") if isinstance(status, dict) else None
    return span_from_attributes(span_id, raw.get("parentSpanId") or None, str(raw.get("name", "")),
                                _time(raw.get("startTimeUnixNano")), _time(raw.get("endTimeUnixNano")) or None, seq,
                                attributes(raw.get("attributes")), code in (2, "2", "STATUS_CODE_ERROR"))


def span_from_attributes(span_id: str, parent_id: str | None, name: str, start: float, end: float | None, seq: int,
                         attrs: dict[str, Any], error: bool) -> Span:
    """A span from its decoded attributes, in either dialect (also used for Langfuse
    observations that arrived through OTel)."""
    kind = _kind(attrs)
    span = Span(span_id=span_id, parent_id=parent_id, name=name, kind=kind, start=start, end=end, seq=seq,
                error=error, event_id=attrs.get("edge_audit.event.id"),
                model=attrs.get("gen_ai.request.model") or attrs.get("llm.model_name"))
    if kind == "llm":
        set_usage(span, attrs.get("gen_ai.usage.input_tokens", attrs.get("llm.token_count.prompt")),
                  attrs.get("gen_ai.usage.output_tokens", attrs.get("llm.token_count.completion")),
                  attrs.get("llm.token_count.total"))
    span.handoff_from = attrs.get("gen_ai.handoff.from_agent")
    span.handoff_to = attrs.get("gen_ai.handoff.to_agent")
    if kind == "agent":
        span.agent = str(attrs.get("gen_ai.agent.name") or attrs.get("gen_ai.agent.id") or attrs.get("agent.name")
                         or attrs.get("graph.node.id") or re.sub(r"^(invoke_agent|create_agent)\s+", "", name))
    if kind == "tool":
        span.tool_name = str(attrs.get("gen_ai.tool.name") or attrs.get("tool.name")
                             or re.sub(r"^execute_tool\s+", "", name))
        span.call_id = attrs.get("gen_ai.tool.call.id") or attrs.get("tool_call.id")
        span.arguments = _json(attrs.get("gen_ai.tool.call.arguments", attrs.get("input.value")))
        result = attrs.get("gen_ai.tool.call.result", attrs.get("output.value"))
        span.result = None if result is None else result if isinstance(result, str) else json.dumps(result)
    system = attrs.get("gen_ai.system_instructions")
    inputs = (_semconv_messages(attrs["gen_ai.input.messages"]) if "gen_ai.input.messages" in attrs
              else _openinference_messages(attrs, "llm.input_messages") or _legacy(attrs, "gen_ai.prompt"))
    if system:
        parts = _json(system)
        text = "\n".join(str(p.get("content", "")) for p in parts if isinstance(p, dict)) if isinstance(parts, list) \
            else str(parts)
        inputs = [Msg("system", text), *inputs]
    if kind == "agent" and not inputs and isinstance(attrs.get("input.value"), str):
        inputs = [Msg("user", attrs["input.value"])]
    span.inputs = inputs
    span.outputs = (_semconv_messages(attrs["gen_ai.output.messages"]) if "gen_ai.output.messages" in attrs
                    else _openinference_messages(attrs, "llm.output_messages") or _legacy(attrs, "gen_ai.completion"))
    if "edge_audit.handoff.stage" in attrs:
        span.stage_event = _stage(attrs, span_id)
    return span


def _detect(document: Any) -> bool:
    return isinstance(document, dict) and isinstance(document.get("resourceSpans"), list)


#: A trace is complete once its root span has arrived and this many records (lines) have passed
#: with no span of it. Exporters write a span when it ends, and the root ends last.
FLUSH_AFTER_RECORDS = 64


def _records(records: Iterable[Record], path: str, name_hint: str) -> Iterator[Trace | TraceError]:
    """Spans grouped by trace. A trace is handed on once it has a root span and
    ``FLUSH_AFTER_RECORDS`` records went by without a span of it (so memory holds only the
    traces still open), or at the end of the file; a span that arrives for a trace already
    handed on is reported as late, never merged silently."""
    spans: dict[str, list[Span]] = {}
    services: dict[str, str] = {}
    names: dict[str, str] = {}
    rooted: set[str] = set()
    last_seen: dict[str, int] = {}
    done: set[str] = set()
    seq = 0

    def flush(trace_id: str) -> Trace | TraceError:
        items = spans.pop(trace_id)
        rooted.discard(trace_id)
        last_seen.pop(trace_id, None)
        done.add(trace_id)
        return trace_or_error(path, names.pop(trace_id, trace_id), items,
                              {"source": "otlp", "labels": {"service": services.pop(trace_id, None),
                                                            "otlp_trace_id": trace_id}})

    for index, (line, document) in enumerate(records):
        if not _detect(document):
            yield TraceValidationError(path, "not an OTLP TracesData object (no resourceSpans list)", line=line)
            continue
        for r, resource in enumerate(document["resourceSpans"]):
            if not isinstance(resource, dict):
                yield TraceValidationError(path, "resourceSpans item is not an object", line=line,
                                           where=f"resourceSpans[{r}]")
                continue
            res = resource.get("resource")
            service = attributes(res.get("attributes") if isinstance(res, dict) else None).get("service.name")
            scopes = resource.get("scopeSpans") or resource.get("instrumentationLibrarySpans") or []
            for s, scope in enumerate(scopes if isinstance(scopes, list) else [scopes]):
                scope_spans = scope.get("spans") if isinstance(scope, dict) else None
                if not isinstance(scope_spans, list):
                    if scope_spans is not None or not isinstance(scope, dict):
                        yield TraceValidationError(path, "scopeSpans item has no spans list", line=line,
                                                   where=f"resourceSpans[{r}].scopeSpans[{s}]")
                    continue
                for k, raw in enumerate(scope_spans):
                    seq += 1
                    where = f"resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"
                    trace_id = raw.get("traceId") if isinstance(raw, dict) else None
                    span_id = raw.get("spanId") if isinstance(raw, dict) else None
                    if not isinstance(span_id, str):
                        span_id = None
                    if not trace_id or not isinstance(trace_id, str):
                        yield TraceValidationError(path, "span has no traceId", line=line,
                                                   where=f"{where} (span {span_id or '?'})")
                        continue
                    if trace_id in done:
                        yield TraceValidationError(path, f"late span: trace {trace_id} was taken as complete "
                                                         f"after {FLUSH_AFTER_RECORDS} lines without a span of it",
                                                   line=line, where=f"{where} (span {span_id or '?'})")
                        continue
                    try:
                        span = otlp_span(raw, seq)
                    except (ValueError, TypeError, KeyError, AttributeError) as err:
                        yield TraceValidationError(path, f"malformed span: {err}", line=line,
                                                   where=f"{where} (span {span_id or '?'})")
                        continue
                    spans.setdefault(trace_id, []).append(span)
                    last_seen[trace_id] = index
                    if span.parent_id is None:
                        rooted.add(trace_id)
                    if trace_id not in names:
                        named = attributes(raw.get("attributes")).get("edge_audit.trace.id")
                        if named:
                            names[trace_id] = str(named)
                    if service:
                        services.setdefault(trace_id, str(service))
        for trace_id in [t for t in rooted if index - last_seen[t] >= FLUSH_AFTER_RECORDS]:
            yield flush(trace_id)
    for trace_id in list(spans):
        yield flush(trace_id)


OTLP = register_format(TraceFormat(
    name="otlp", registry_name="edge-audit.format.otlp.v1", detect=_detect, records=_records,
    description="OTLP JSON (file exporter JSONL or one document): OTel GenAI semconv and OpenInference spans",
    priority=BY_KEY,
))

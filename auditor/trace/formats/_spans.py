"""From a tree of spans to a native trace: the edge inference rules shared by the span-based
formats (OTLP GenAI and OpenInference, OpenAI Agents SDK, LangSmith, Langfuse).

Each format maps its records to ``Span`` values; ``spans_to_trace`` then applies these rules:

1. **Order.** Spans are ordered by start time, then by their order in the file. Timestamps
   only order events; they never join them: ownership follows parent ids.
2. **Owner.** A span belongs to the agent of its nearest ancestor-or-self agent span. A parent
   id that is not in the trace (a missing parent) makes the span a root; a span with no agent
   above it belongs to no agent: its tool calls are kept under the agent ``unattributed``.
3. **Inputs from people.** A user-role text in an agent's (or its LLM spans') input that no
   agent produced is a message from ``user`` (a human), addressed to every agent whose inputs
   hold it. System texts are the agent's system prompt.
4. **Handoffs**, three ways, each giving a message from the source to the destination:
   a. a tool call named ``transfer_to_<agent>``, ``transfer_back_to_<agent>`` or
      ``handoff to <agent>``: a tool span, or else a tool call in an LLM output (only when no
      tool or handoff span records that handoff);
   b. a span carrying ``handoff_from``/``handoff_to`` (``gen_ai.handoff.*``, SDK handoff spans);
   c. an agent span nested under another agent's span (the parent invoked it), unless an
      explicit handoff to it already came from that parent.
   The content of a handoff is the source's assistant text since its previous handoff,
   followed by any text in the handoff call's arguments. For (c) it is the child's input
   (what the parent passed), or else the parent's latest text. A handoff to several agents
   under one event id is one message to all of them.
5. **Other assistant texts** of an agent (those no handoff carried) are messages to the agent
   that invoked it (the child's return), or else to ``user``.
6. **Tools.** Every other tool span is a tool call of its owner, with arguments, result and
   status (error when the span failed); a retried call is two calls.

Event ids are the span ids, with ``:in``, ``:out<n>`` or ``:handoff`` suffixes;
an ``edge_audit.event.id`` attribute, when a span has one, is used as the id instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import ValidationError

from ...errors import TraceError, TraceValidationError
from .._json import loads
from .._model import Trace
from ._span_model import Span, iso_time, text_of

UNATTRIBUTED = "unattributed"
HUMAN = "user"
_TRANSFER = re.compile(r"^(?:transfer_(?:back_)?to_|handoff[ _]to[ _])(?P<to>.+)$", re.IGNORECASE)


def transfer_target(name: str | None) -> str | None:
    match = _TRANSFER.match(name or "")
    return match["to"].strip() if match else None


def _argument_text(arguments: Any) -> str:
    """The prose a handoff call carries in its arguments (string values only)."""
    if isinstance(arguments, str):
        raw: str = arguments
        try:
            arguments = loads(raw)
        except ValueError:
            return raw.strip()
    if isinstance(arguments, dict):
        return "\n".join(v.strip() for v in arguments.values() if isinstance(v, str) and v.strip())
    return ""


class _Builder:
    def __init__(self, trace_id: str, spans: list[Span]) -> None:
        self.trace_id = trace_id
        self.spans = sorted(spans, key=lambda s: (s.start, s.seq))
        self.by_id = {s.span_id: s for s in self.spans}
        self.agents: dict[str, dict[str, Any]] = {}
        self.events: list[tuple[float, int, dict[str, Any]]] = []
        self.order = 0
        self.pending: dict[str, list[tuple[float, str, str]]] = {}  # agent span id -> (time, id, text) not handed off
        self.emitted: dict[str, dict[str, Any]] = {}
        self.invoked_by: dict[str, str] = {}  # agent span id -> name of the agent that invoked it
        self.handed: set[tuple[str, str]] = set()  # (source agent span id, target) handoffs made so far
        self.explicit: set[tuple[str, str]] = set()  # (source agent span id, target) with a tool or handoff span
        self.produced: set[str] = set()
        self.human: dict[str, dict[str, Any]] = {}
        self.llm_calls: list[dict[str, Any]] = []
        self.names = self._agent_names()

    def _agent_names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        for s in self.spans:
            if s.kind == "agent" and s.agent:
                names.setdefault(_norm(s.agent), s.agent)
        return names

    def resolve(self, name: str) -> str:
        return self.names.get(_norm(name), name)

    def parent(self, span: Span) -> Span | None:
        return self.by_id.get(span.parent_id) if span.parent_id else None

    def agent_span(self, span: Span | None, include_self: bool = True) -> Span | None:
        current = span if include_self else (self.parent(span) if span else None)
        seen = set()
        while current is not None and current.span_id not in seen:
            seen.add(current.span_id)
            if current.kind == "agent":
                return current
            current = self.parent(current)
        return None

    def add(self, start: float, event: dict[str, Any]) -> None:
        self.order += 1
        self.events.append((start, self.order, event))

    def declare(self, name: str, kind: str = "agent", system: str | None = None, model: str | None = None) -> None:
        entry = self.agents.setdefault(name, {"name": name, "kind": kind})
        if system and "system_prompt" not in entry:
            entry["system_prompt"] = system
        if model and "model" not in entry:
            entry["model"] = model

    def message(self, start: float, event_id: str, sender: str, recipients: list[str], content: str) -> None:
        earlier = self.emitted.get(event_id)
        if earlier is not None and earlier["sender"] == sender and isinstance(earlier["recipients"], list):
            earlier["recipients"].extend(r for r in recipients if r not in earlier["recipients"])
            return
        if content.strip():
            self.produced.add(content.strip())
            event: dict[str, Any] = {"type": "message", "id": event_id, "sender": sender,
                                     "recipients": "*" if recipients == ["*"] else list(recipients),
                                     "content": content}
            if start > 0:
                event["timestamp"] = iso_time(start)
            self.emitted[event_id] = event
            self.add(start, event)

    def take_pending(self, agent_span: Span | None) -> str:
        if agent_span is None:
            return ""
        return "\n\n".join(text for _, _, text in self.pending.pop(agent_span.span_id, []))

    def handoff(self, span: Span, source_span: Span | None, source: str, target: str, arguments: Any) -> None:
        target = self.resolve(target)
        content = "\n\n".join(t for t in (self.take_pending(source_span), _argument_text(arguments)) if t)
        self.declare(source)
        self.declare(target)
        if source_span is not None:
            self.handed.add((source_span.span_id, target))
        self.message(span.start, span.event_id or f"{span.span_id}:handoff", source, [target], content)

    def human_input(self, span: Span, text: str, agent: str) -> None:
        key = text.strip()
        if not key or key in self.produced:
            return
        entry = self.human.get(key)
        if entry is None:
            self.declare(HUMAN, "human")
            entry = {"type": "message", "id": span.event_id or f"{span.span_id}:in", "sender": HUMAN,
                     "recipients": [agent], "content": text}
            if span.clock()[0] is not None:
                entry["timestamp"] = iso_time(span.clock()[0])
            self.human[key] = entry
            self.add(span.start - 1e-9, entry)
        elif agent not in entry["recipients"]:
            entry["recipients"].append(agent)

    def read_inputs(self, span: Span, agent: str, model: str | None) -> None:
        for msg in span.inputs:
            if msg.role == "system":
                self.declare(agent, system=msg.text, model=model)
            elif msg.role in ("user", "human"):
                self.human_input(span, msg.text, agent)

    def on_agent(self, span: Span) -> None:
        name = span.agent or span.name
        self.declare(name, model=span.model)
        parent = self.agent_span(span, include_self=False)
        if parent is not None:
            parent_name = parent.agent or parent.name
            self.invoked_by[span.span_id] = parent_name
            callers = self.agents[name].setdefault("invoked_by", [])
            if parent_name not in callers:
                callers.append(parent_name)
            if (parent.span_id, name) not in self.handed:
                passed = next((m.text for m in reversed(span.inputs) if m.role in ("user", "human") and m.text), "")
                content = passed or self.take_pending(parent)
                self.handed.add((parent.span_id, name))
                self.message(span.start, span.event_id or f"{span.span_id}:in", parent_name, [name], content)
            self.produced.update(m.text.strip() for m in span.inputs if m.text.strip())
            for msg in span.inputs:
                if msg.role == "system":
                    self.declare(name, system=msg.text)
        else:
            self.read_inputs(span, name, span.model)

    def on_llm(self, span: Span, owner: Span | None, tool_calls: set[str]) -> None:
        name = (owner.agent or owner.name) if owner else UNATTRIBUTED
        self.read_inputs(span, name, span.model)
        start, end = span.clock()
        self.llm_calls.append({"id": span.span_id, "agent": name, "name": span.name or "llm", "model": span.model,
                               "status": "error" if span.error else ("ok" if end is not None else "unknown"),
                               "input_tokens": span.input_tokens, "output_tokens": span.output_tokens,
                               "total_tokens": span.total_tokens, "timestamp": iso_time(start), "end_time": iso_time(end)})
        for n, msg in enumerate(span.outputs, start=1):
            if msg.role not in ("assistant", "ai", "model") and msg.role:
                continue
            if msg.text.strip() and owner is not None:
                event_id = span.event_id if span.event_id and n == 1 else f"{span.span_id}:out{n}"
                self.pending.setdefault(owner.span_id, []).append((span.start, event_id, msg.text))
                self.produced.add(msg.text.strip())
            for call in msg.tool_calls:
                target = transfer_target(call.name)
                if (target and owner is not None and (call.call_id is None or call.call_id not in tool_calls)
                        and (owner.span_id, _norm(self.resolve(target))) not in self.explicit):
                    self.handoff(span, owner, name, target, call.arguments)

    def on_tool(self, span: Span, owner: Span | None) -> None:
        name = (owner.agent or owner.name) if owner else UNATTRIBUTED
        target = transfer_target(span.tool_name or span.name)
        if target:
            self.handoff(span, owner, name, target, span.arguments)
            return
        self.declare(name)
        event: dict[str, Any] = {"type": "tool_call", "id": span.event_id or span.span_id, "agent": name,
                                 "tool": span.tool_name or span.name or "tool",
                                 "status": "error" if span.error else "ok"}
        if span.call_id:
            event["call_id"] = span.call_id
        if span.arguments is not None:
            event["arguments"] = span.arguments if isinstance(span.arguments, (dict, str)) else text_of(span.arguments)
        if span.result is not None:
            event["result"] = span.result
        start, end = span.clock()
        if start is not None:
            event["timestamp"] = iso_time(start)
        if end is not None:
            event["end_time"] = iso_time(end)
        self.add(span.start, event)

    def build(self, metadata: dict[str, Any]) -> Trace:
        tool_calls = {s.call_id for s in self.spans if s.kind == "tool" and s.call_id}
        for s in self.spans:
            target = s.handoff_to or (transfer_target(s.tool_name or s.name) if s.kind == "tool" else None)
            owner_span = self.agent_span(s)
            if target and owner_span is not None:
                self.explicit.add((owner_span.span_id, _norm(self.resolve(target))))
        thinking = {owner.span_id for s in self.spans if s.kind == "llm" and (owner := self.agent_span(s))}
        for span in self.spans:
            owner = self.agent_span(span)
            if span.stage_event is not None:
                self.add(span.start, span.stage_event)
            elif span.kind == "agent":
                self.on_agent(span)
                if span.span_id not in thinking:
                    for n, msg in enumerate(m for m in span.outputs if m.text.strip()):
                        self.pending.setdefault(span.span_id, []).append(
                            (span.end or span.start, f"{span.span_id}:out{n + 1}", msg.text))
                        self.produced.add(msg.text.strip())
            elif span.handoff_to:
                source_span = owner
                source = span.handoff_from or ((owner.agent or owner.name) if owner else UNATTRIBUTED)
                if span.handoff_from and (owner is None or (owner.agent or owner.name) != span.handoff_from):
                    source_span = next((s for s in reversed(self.spans) if s.kind == "agent"
                                        and s.agent == span.handoff_from and s.start <= span.start), owner)
                self.handoff(span, source_span, source, span.handoff_to, span.arguments)
            elif span.kind == "llm":
                self.on_llm(span, owner, tool_calls)
            elif span.kind == "tool":
                self.on_tool(span, owner)
        for span_id, items in self.pending.items():
            agent_span = self.by_id[span_id]
            sender = agent_span.agent or agent_span.name
            to = self.invoked_by.get(span_id, HUMAN)
            if to == HUMAN:
                self.declare(HUMAN, "human")
            for start, event_id, text in items:
                self.message(start, event_id, sender, [to], text)
        events = [e for _, _, e in sorted(self.events, key=lambda item: (item[0], item[1]))]
        return Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": self.trace_id,
                                     "metadata": {**self.run_metadata(), **metadata},
                                     "agents": list(self.agents.values()), "events": events,
                                     "llm_calls": self.llm_calls})

    def run_metadata(self) -> dict[str, Any]:
        """Run status and times from the spans: started at the earliest recorded start, ended at
        the latest recorded end; ``running`` when some spans have an end and others none, else
        ``error`` when a root span failed, else ``ok``. Nothing when no span records an end."""
        clocks = [s.clock() for s in self.spans]
        starts = [start for start, _ in clocks if start is not None]
        ends = [end for _, end in clocks if end is not None]
        out: dict[str, Any] = {}
        if starts:
            out["started_at"] = iso_time(min(starts))
        if ends:
            out["ended_at"] = iso_time(max(ends))
            if len(ends) < len(clocks):
                out["status"] = "running"
            else:
                roots = [s for s in self.spans if self.parent(s) is None]
                out["status"] = "error" if any(s.error for s in roots) else "ok"
        return out


def _norm(name: str) -> str:
    if not isinstance(name, str):
        raise ValueError(f"an agent name must be a string, got {type(name).__name__}")
    return re.sub(r"[\s_\-]+", "_", name.strip().lower())


def spans_to_trace(trace_id: str, spans: Iterable[Span], metadata: dict[str, Any] | None = None) -> Trace:
    """Apply the inference rules above to the spans of one trace. Raises ``ValueError`` (naming
    the span and field) for a span whose fields have the wrong types."""
    if not isinstance(trace_id, str):
        raise ValueError(f"trace id must be a string, got {type(trace_id).__name__}")
    items = list(spans)
    for span in items:
        span.check_types()
    return _Builder(trace_id, items).build(metadata or {})


def trace_or_error(path: str, trace_id: Any, spans: Iterable[Span], metadata: dict[str, Any] | None = None,
                   line: int | None = None) -> Trace | TraceError:
    """``spans_to_trace``, or a ``TraceValidationError`` naming the file, the trace and the span
    or field at fault: a record format yields it and goes on with its other traces."""
    return _or_error(path, f"trace {trace_id}", line, lambda: spans_to_trace(trace_id, spans, metadata))


def native_or_error(path: str, document: dict[str, Any], line: int | None = None) -> Trace | TraceError:
    """A native trace document validated, or a ``TraceValidationError`` naming the field."""
    return _or_error(path, f"trace {document.get('trace_id')}", line, lambda: Trace.model_validate(document))


def _or_error(path: str, where: str, line: int | None, build: Callable[[], Trace]) -> Trace | TraceError:
    try:
        return build()
    except ValidationError as err:
        first = err.errors()[0]
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"]).lstrip(".")
        return TraceValidationError(path, f"cannot build a trace: {first['msg']}", line=line,
                                    where=f"{where}, {loc}")
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        return TraceValidationError(path, f"cannot build a trace: {err}", line=line, where=where)

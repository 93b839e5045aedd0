"""What the rules read: the steps of a trace (tool calls, messages, model calls) with their ids,
times and positions, narrowed to a contract's scope.

A step's ``position`` is its index among the trace's events, the order the trace recorded;
model calls are kept beside the events and have no position, so ordering them needs times.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from functools import cached_property
from typing import Any

from ..trace import BROADCAST, Message, ToolCall, Trace
from ._model import AppliesTo, Endpoint, Scope, StepKind
from ._outcome import Evidence


@dataclass(frozen=True)
class Step:
    id: str
    kind: StepKind
    name: str
    agent: str
    position: int | None
    start: datetime | None
    end: datetime | None
    status: str = "unknown"
    call_id: str | None = None
    arguments: Any = None
    recipients: tuple[str, ...] = ()
    model: str | None = None
    tokens: int | None = None

    def evidence(self) -> Evidence:
        return self._evidence

    @cached_property
    def _evidence(self) -> Evidence:  # built once per step: rules cite the same calls again and again
        return Evidence(self.id, self.kind, self.name, _iso(self.start), _iso(self.end))

    def matches(self, endpoint: Endpoint) -> bool:
        if self.kind != endpoint.kind:
            return False
        if self.kind == "llm":
            return endpoint.name in (self.name, self.model)
        if self.kind == "message" and endpoint.to is not None and endpoint.to not in self.recipients:
            return False
        return self.name == endpoint.name


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else utc(value)


def utc(value: datetime) -> datetime:
    """A recorded time, a naive one read as UTC (traces from different tools mix both)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def trace_steps(trace: Trace) -> list[Step]:
    """Every tool call and message of ``trace`` in event order, then its model calls."""
    names = [a.name for a in trace.agents]
    out: list[Step] = []
    for index, event in enumerate(trace.events):
        if isinstance(event, ToolCall):
            out.append(Step(event.id, "tool", event.tool, event.agent, index, _utc(event.timestamp), _utc(event.end_time),
                            event.status, event.call_id, event.arguments))
        elif isinstance(event, Message):
            to = tuple(n for n in names if n != event.sender) if event.recipients == BROADCAST else tuple(
                event.recipients)
            out.append(Step(event.id, "message", event.sender, event.sender, index, _utc(event.timestamp),
                            _utc(event.timestamp), "ok", recipients=to))
    for call in trace.llm_calls:
        total = call.total_tokens
        if total is None and call.input_tokens is not None and call.output_tokens is not None:
            total = call.input_tokens + call.output_tokens
        out.append(Step(call.id, "llm", call.name, call.agent, None, _utc(call.timestamp), _utc(call.end_time), call.status,
                        model=call.model, tokens=total))
    return out


@dataclass(frozen=True)
class Facts:
    """The scoped steps of one trace."""

    trace: Trace
    steps: tuple[Step, ...]
    scope: str

    def of_kind(self, kind: StepKind) -> list[Step]:
        return [s for s in self.steps if s.kind == kind]

    def tools(self, name: str | None = None) -> list[Step]:
        return [s for s in self.steps if s.kind == "tool" and (name is None or s.name == name)]

    def matching(self, endpoint: Endpoint) -> list[Step]:
        return [s for s in self.steps if s.matches(endpoint)]

    def run_evidence(self) -> Evidence:
        meta = self.trace.metadata
        return Evidence(self.trace.trace_id, "run", self.trace.trace_id, _iso(meta.started_at), _iso(meta.ended_at))


def applies(applies_to: AppliesTo, trace: Trace) -> bool:
    if applies_to.sources is not None and trace.metadata.source not in applies_to.sources:
        return False
    return any(fnmatchcase(trace.trace_id, pattern) for pattern in applies_to.trace_ids)


def subtree(trace: Trace, roots: Iterable[str]) -> set[str]:
    """``roots`` and every agent they invoked, transitively (``Agent.invoked_by``)."""
    children: dict[str, list[str]] = {}
    for agent in trace.agents:
        for parent in agent.invoked_by:
            children.setdefault(parent, []).append(agent.name)
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(children.get(name, []))
    return seen


def _metadata_value(trace: Trace, key: str) -> tuple[bool, Any]:
    meta = trace.metadata
    if key.startswith("labels."):
        label = key.removeprefix("labels.")
        return label in meta.labels, meta.labels.get(label)
    if key in ("source", "task", "status", "score"):
        value = getattr(meta, key)
        return value is not None, value
    return False, None


METADATA_KEYS = ("source", "task", "status", "score", "labels.<key>")


def _handoff_window(trace: Trace, steps: list[Step], handoff: str) -> list[Step]:
    start = next((i for i, e in enumerate(trace.events)
                  if isinstance(e, Message) and handoff in (e.id, e.handoff_id)), None)
    if start is None:
        return []
    message = trace.events[start]
    assert isinstance(message, Message)
    recipients = [a.name for a in trace.agents if a.name != message.sender] if message.recipients == BROADCAST \
        else list(message.recipients)
    actors = subtree(trace, recipients)
    stop = len(trace.events)
    for i in range(start + 1, len(trace.events)):
        event = trace.events[i]
        if isinstance(event, Message) and event.sender in actors and (
                event.recipients == BROADCAST or message.sender in event.recipients):
            stop = i + 1
            break
    return [s for s in steps if s.position is not None
            and (s.position == start or (start < s.position < stop and s.agent in actors))]


def select(trace: Trace, scope: Scope | None) -> Facts:
    """The steps of ``trace`` that ``scope`` selects (all of them without a scope)."""
    steps = trace_steps(trace)
    if scope is None:
        return Facts(trace, tuple(steps), "whole trace")
    described = []
    if scope.metadata is not None:
        described.append("metadata " + ", ".join(f"{k}={v}" for k, v in sorted(scope.metadata.items())))
        for key, wanted in scope.metadata.items():
            found, value = _metadata_value(trace, key)
            if not found or value != wanted:
                steps = []
    if scope.agents is not None:
        described.append("agents " + ", ".join(scope.agents))
        steps = [s for s in steps if s.agent in scope.agents]
    if scope.under_agent is not None:
        described.append(f"under agent {scope.under_agent}")
        actors = subtree(trace, [scope.under_agent])
        steps = [s for s in steps if s.agent in actors]
    if scope.under_handoff is not None:
        described.append(f"under handoff {scope.under_handoff}")
        steps = _handoff_window(trace, steps, scope.under_handoff)
    return Facts(trace, tuple(steps), "; ".join(described) or "whole trace")

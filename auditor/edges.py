"""Edges and what their source could see. The visibility rules live here and nowhere else.

An **edge** is one message from its source agent to one destination agent.

* A message with named recipients gives one edge per recipient that is an agent (not the
  sender, not a human, not a tool).
* A broadcast (``"*"``) gives one edge, to the next other agent that speaks after it
  (the one that acts on it), or to ``*`` when no other agent speaks after it.
* Edge ids are ``<trace_id>/<message id>-><destination>``: stable across runs.

A message that is not an edge is counted as skipped with a reason:
``from_human`` (a pipeline input, not a handoff), ``from_tool``, ``to_human`` (a reply
to a human or tool, not to an agent), ``self_addressed``, ``empty``; a chat message an importer turned into tool evidence is ``tool_output``.

The **upstream** of an edge is exactly what its source could see before sending it,
in trace order:

1. the source's own system prompt;
2. every earlier message sent by someone else and addressed to the source or broadcast
   (its structured part included);
3. every earlier tool call made by the source, or whose result was visible to it
   (``visible_to`` names it, or is ``"*"``).

The source's own earlier messages are not upstream: a constraint must come from
something the source was told. ``receiver_saw`` records which upstream events the
destination could also see, so a check can tell a lost constraint from one the receiver
had anyway.

An edge's ``capture`` is its source agent's observation capture (``Agent.capture``, which a
config can override per agent): ``partial`` means the source saw things the trace does not
show, so a claim nothing visible supports is ``unverifiable`` rather than invented. A tool
call ``recorded_as`` ``observation`` is an agent's transcript of what it saw, carried inside
its next message: it is upstream evidence, and the message stays an edge.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .trace import BROADCAST, HandoffStage, Message, ObservationCapture, ToolCall, Trace

SkipReason = Literal["from_human", "from_tool", "to_human", "self_addressed", "empty", "tool_output"]
UpstreamKind = Literal["system_prompt", "message", "tool_call"]


@dataclass(frozen=True)
class UpstreamItem:
    """One thing the source could see. ``event_id`` is ``system:<agent>`` for a system prompt."""

    kind: UpstreamKind
    event_id: str
    author: str
    text: str
    structured: dict[str, object] | None = None
    tool_call: ToolCall | None = None

    def fields(self) -> tuple[tuple[str, str, str], ...]:
        """The texts it offers as evidence, as (event id, field, text): a tool call's arguments
        (JSON unless a string) and result; otherwise its content or system prompt."""
        if self.tool_call is not None:
            call = self.tool_call
            args = call.arguments if isinstance(call.arguments, str) else (
                json.dumps(call.arguments, default=str, ensure_ascii=False) if call.arguments else "")
            return (call.id, "arguments", args), (call.id, "result", call.result or "")
        return ((self.event_id, "system_prompt" if self.kind == "system_prompt" else "content", self.text),)


@dataclass(frozen=True)
class Quote:
    """A span of one field of one event: ``field`` is ``content``, ``system_prompt`` or a
    structured path such as ``structured.constraints[0]``."""

    event_id: str
    field: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class KeyedText:
    """One text field of one event, under a key that names it for the whole run
    (``<trace>/<event>/<field>``), so that analyses can be cached per text."""

    key: str
    event_id: str
    field: str
    text: str


def event_texts(trace_id: str, event_id: str, field: str, text: str,
                structured: dict[str, object] | None) -> list[KeyedText]:
    """The prose of an event plus each item of its structured ``constraints`` list."""
    out = [KeyedText(f"{trace_id}/{event_id}/{field}", event_id, field, text)] if text else []
    items = structured.get("constraints") if structured else None
    if isinstance(items, list):
        for i, item in enumerate(items):
            value = item.get("text") if isinstance(item, dict) else item
            if isinstance(value, str) and value.strip():
                name = f"structured.constraints[{i}]"
                out.append(KeyedText(f"{trace_id}/{event_id}/{name}", event_id, name, value))
    return out


@dataclass(frozen=True)
class Contacts:
    """When each participant first addressed each other (event index), shared by all edges of
    a trace: it tells a delegation from a reply. ``author`` delegates to ``agent`` when the
    author is a human (a pipeline input), or addressed the agent before the agent ever
    addressed the author; a message the other way round is a reply or a report."""

    direct: Mapping[tuple[str, str], int] = field(default_factory=dict)
    broadcast: Mapping[str, int] = field(default_factory=dict)
    humans: frozenset[str] = frozenset()

    def first(self, sender: str, recipient: str) -> float:
        return min(self.direct.get((sender, recipient), math.inf), self.broadcast.get(sender, math.inf))

    def delegates_to(self, author: str, agent: str) -> bool:
        return author in self.humans or self.first(author, agent) < self.first(agent, author)


@dataclass(frozen=True)
class Edge:
    id: str
    trace_id: str
    source: str
    destination: str
    message: Message
    index: int
    upstream: tuple[UpstreamItem, ...]
    receiver_saw: frozenset[str]
    capture: ObservationCapture = "complete"
    contacts: Contacts = field(default_factory=Contacts)


@dataclass(frozen=True)
class SkippedMessage:
    trace_id: str
    event_id: str
    sender: str
    reason: SkipReason


@dataclass(frozen=True)
class EdgeSet:
    edges: tuple[Edge, ...]
    skipped: tuple[SkippedMessage, ...]
    source_messages: int

    def skipped_by_reason(self) -> dict[str, int]:
        return dict(Counter(s.reason for s in self.skipped))


@dataclass
class _Visibility:
    """Who could see which event, built in one pass over the trace."""

    by_agent: dict[str, list[UpstreamItem]] = field(default_factory=dict)

    def add(self, agent: str, item: UpstreamItem) -> None:
        self.by_agent.setdefault(agent, []).append(item)


def _addressed_to(message: Message, agent: str) -> bool:
    return message.recipients == BROADCAST or agent in message.recipients


def _tool_visible_to(call: ToolCall, agent: str) -> bool:
    return call.agent == agent or call.visible_to == BROADCAST or agent in call.visible_to


def _next_speaker(trace: Trace, index: int, sender: str, agents: set[str]) -> str:
    for event in trace.events[index + 1:]:
        if isinstance(event, Message) and event.sender != sender and event.sender in agents:
            return event.sender
    return BROADCAST


def build_edges(trace: Trace, capture: Mapping[str, ObservationCapture] | None = None) -> EdgeSet:
    """All edges of a trace, their upstream views, and the messages that are not edges.
    ``capture`` overrides the trace's observation capture per agent name."""
    declared = trace.agents_by_name()
    participants = list(declared)
    for event in trace.events:
        if isinstance(event, HandoffStage):
            continue
        names = [event.sender] if isinstance(event, Message) else [event.agent]
        if isinstance(event, Message) and event.recipients != BROADCAST:
            names.extend(event.recipients)
        participants.extend(n for n in names if n not in participants)
    kinds = {name: (declared[name].kind if name in declared else "agent") for name in participants}
    speaking_agents = {name for name, kind in kinds.items() if kind == "agent"}
    captures: dict[str, ObservationCapture] = {name: agent.capture for name, agent in declared.items()}
    captures.update(capture or {})
    contacts = _contacts(trace, frozenset(name for name, kind in kinds.items() if kind == "human"))

    seen = _Visibility()
    authored: dict[str, set[str]] = {}
    for name in participants:
        prompt = declared[name].system_prompt if name in declared else None
        if prompt:
            seen.add(name, UpstreamItem("system_prompt", f"system:{name}", name, prompt))

    edges: list[Edge] = []
    skipped: list[SkippedMessage] = []
    source_messages = 0
    for index, event in enumerate(trace.events):
        if isinstance(event, HandoffStage):
            continue
        if isinstance(event, ToolCall):
            if event.recorded_as == "chat_message":
                source_messages += 1
                skipped.append(SkippedMessage(trace.trace_id, event.id, event.agent, "tool_output"))
            item = UpstreamItem("tool_call", event.id, event.agent, event.result or "", tool_call=event)
            for name in participants:
                if _tool_visible_to(event, name):
                    seen.add(name, item)
            continue
        source_messages += 1
        edges_before = len(edges)
        reason = _skip_reason(event, kinds)
        if reason is None:
            upstream = tuple(seen.by_agent.get(event.sender, ()))
            destinations = (
                [_next_speaker(trace, index, event.sender, speaking_agents)]
                if event.recipients == BROADCAST
                else [r for r in dict.fromkeys(event.recipients) if r != event.sender and r in speaking_agents]
            )
            for destination in destinations:
                receivers = speaking_agents - {event.sender} if destination == BROADCAST else {destination}
                saw = _seen_by_all(seen, authored, receivers)
                edges.append(Edge(
                    id=f"{trace.trace_id}/{event.id}->{destination}", trace_id=trace.trace_id,
                    source=event.sender, destination=destination, message=event, index=index,
                    upstream=upstream, receiver_saw=saw, capture=captures.get(event.sender, "complete"),
                    contacts=contacts,
                ))
            if len(edges) == edges_before:
                reason = "self_addressed" if set(event.recipients) <= {event.sender} else "to_human"
        if reason is not None:
            skipped.append(SkippedMessage(trace.trace_id, event.id, event.sender, reason))
        authored.setdefault(event.sender, set()).add(event.id)
        item = UpstreamItem("message", event.id, event.sender, event.content, structured=event.structured)
        for name in participants:
            if name != event.sender and _addressed_to(event, name):
                seen.add(name, item)
    return EdgeSet(edges=tuple(edges), skipped=tuple(skipped), source_messages=source_messages)


def _contacts(trace: Trace, humans: frozenset[str]) -> Contacts:
    direct: dict[tuple[str, str], int] = {}
    broadcast: dict[str, int] = {}
    for index, event in enumerate(trace.events):
        if not isinstance(event, Message):
            continue
        if event.recipients == BROADCAST:
            broadcast.setdefault(event.sender, index)
        else:
            for recipient in event.recipients:
                direct.setdefault((event.sender, recipient), index)
    return Contacts(direct, broadcast, humans)


def _seen_by_all(seen: _Visibility, authored: dict[str, set[str]], agents: set[str]) -> frozenset[str]:
    """Events every one of ``agents`` could see or wrote itself."""
    sets = [{item.event_id for item in seen.by_agent.get(name, ())} | authored.get(name, set()) for name in agents]
    return frozenset(set.intersection(*sets)) if sets else frozenset()


def _skip_reason(message: Message, kinds: Mapping[str, str]) -> SkipReason | None:
    kind = kinds.get(message.sender, "agent")
    if kind == "human":
        return "from_human"
    if kind == "tool":
        return "from_tool"
    if not message.content.strip() and not message.structured:
        return "empty"
    if message.recipients != BROADCAST and set(message.recipients) <= {message.sender}:
        return "self_addressed"
    return None

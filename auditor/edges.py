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

import gc
import math
import zlib
from collections import Counter
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ._upstream import Mark as Mark
from ._upstream import ReceiverView as ReceiverView
from ._upstream import UpstreamItem as UpstreamItem
from ._upstream import UpstreamKind as UpstreamKind
from ._upstream import UpstreamView as UpstreamView
from ._upstream import Visibility
from ._upstream import upstream_mark as upstream_mark
from ._upstream import upstream_since as upstream_since
from .trace import BROADCAST, HandoffStage, Message, ObservationCapture, ToolCall, Trace

SkipReason = Literal["from_human", "from_tool", "to_human", "self_addressed", "empty", "tool_output"]
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
class EventText:
    """One text field of one event (``content``, ``system_prompt``, a tool call's ``arguments`` or
    ``result``, or a structured path), whole. ``key`` is the name it goes by where one is needed:
    the run-wide ``<trace>/<event>/<field>@<fingerprint>`` under which its parse is cached, or the id a grader's
    prompt shows it under (``E2``). The claims pass calls it ``EvidenceText``, the constraints
    pass ``KeyedText``: the same type. (A span of one is a ``Quote``.)"""

    event_id: str
    field: str
    text: str
    key: str = ""


#: The names the constraint and claim passes use for an ``EventText``.
KeyedText = EventText
EvidenceText = EventText


def fingerprint(text: str) -> str:
    """A short digest of a text. Per-run caches key a text by trace and event id *and* this, so
    two traces that share a trace id (two logs of one benchmark task) never get each other's
    parses."""
    return f"{len(text):x}.{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def event_texts(trace_id: str, event_id: str, field: str, text: str,
                structured: dict[str, object] | None) -> list[EventText]:
    """The prose of an event plus each item of its structured ``constraints`` list."""
    out = [EventText(event_id, field, text, f"{trace_id}/{event_id}/{field}@{fingerprint(text)}")] if text else []
    items = structured.get("constraints") if structured else None
    if isinstance(items, list):
        for i, item in enumerate(items):
            value = item.get("text") if isinstance(item, dict) else item
            if isinstance(value, str) and value.strip():
                name = f"structured.constraints[{i}]"
                out.append(EventText(event_id, name, value, f"{trace_id}/{event_id}/{name}@{fingerprint(value)}"))
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
    """``upstream`` is a read-only sequence of what the source could see (an ``UpstreamView``
    sharing storage with the other edges of its trace, or any sequence); ``receiver_saw``
    answers ``event_id in edge.receiver_saw`` (a ``ReceiverView``, or any set of ids)."""

    id: str
    trace_id: str
    source: str
    destination: str
    message: Message
    index: int
    upstream: Sequence[UpstreamItem]
    receiver_saw: Container[str]
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


def _addressed_to(message: Message, agent: str) -> bool:
    return message.recipients == BROADCAST or agent in message.recipients


def _next_speakers(trace: Trace, agents: set[str]) -> list[tuple[str | None, str | None]]:
    """For each event index, the next other agent to speak after it, per sender: computed in one
    backward pass as (nearest later agent sender, nearest later agent sender other than it)."""
    nearest: str | None = None
    second: str | None = None
    out: list[tuple[str | None, str | None]] = [(None, None)] * len(trace.events)
    for index in range(len(trace.events) - 1, -1, -1):
        out[index] = (nearest, second)
        event = trace.events[index]
        if isinstance(event, Message) and event.sender in agents and event.sender != nearest:
            second, nearest = nearest, event.sender
    return out


def _next_speaker(pair: tuple[str | None, str | None], sender: str) -> str:
    """The next other agent to speak after a message of ``sender`` (``*`` when none does)."""
    nearest, second = pair
    if nearest is not None and nearest != sender:
        return nearest
    return second if second is not None and second != sender else BROADCAST


def build_edges(trace: Trace, capture: Mapping[str, ObservationCapture] | None = None) -> EdgeSet:
    """All edges of a trace, their upstream views, and the messages that are not edges.
    ``capture`` overrides the trace's observation capture per agent name."""
    paused = gc.isenabled()
    gc.disable()  # it allocates many small acyclic objects: cyclic collections would rescan the heap
    try:
        return _build_edges(trace, capture)
    finally:
        if paused:
            gc.enable()


def _build_edges(trace: Trace, capture: Mapping[str, ObservationCapture] | None) -> EdgeSet:
    declared = trace.agents_by_name()
    participants: dict[str, None] = dict.fromkeys(declared)
    for event in trace.events:
        if isinstance(event, HandoffStage):
            continue
        if isinstance(event, Message):
            participants.setdefault(event.sender)
            if event.recipients != BROADCAST:
                for name in event.recipients:
                    participants.setdefault(name)
        else:
            participants.setdefault(event.agent)
    kinds = {name: (declared[name].kind if name in declared else "agent") for name in participants}
    speaking_agents = frozenset(name for name, kind in kinds.items() if kind == "agent")
    captures: dict[str, ObservationCapture] = {name: agent.capture for name, agent in declared.items()}
    captures.update(capture or {})
    upcoming = _next_speakers(trace, set(speaking_agents))
    contacts = _contacts(trace, frozenset(name for name, kind in kinds.items() if kind == "human"))

    seen = Visibility()
    for name in participants:
        prompt = declared[name].system_prompt if name in declared else None
        if prompt:
            seen.add_named([name], UpstreamItem("system_prompt", f"system:{name}", name, prompt))
            seen.saw(f"system:{name}", name, frozenset())

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
            if event.visible_to == BROADCAST:
                seen.add_everyone(item, None)
                seen.saw(event.id, event.agent, None)
            else:
                names = dict.fromkeys([event.agent, *(n for n in event.visible_to if n in participants)])
                seen.add_named(names, item)
                seen.saw(event.id, event.agent, frozenset(names))
            continue
        source_messages += 1
        edges_before = len(edges)
        reason = _skip_reason(event, kinds)
        if reason is None:
            upstream = seen.upstream(event.sender)
            destinations = (
                [_next_speaker(upcoming[index], event.sender)]
                if event.recipients == BROADCAST
                else [r for r in dict.fromkeys(event.recipients) if r != event.sender and r in speaking_agents]
            )
            for destination in destinations:
                receivers = speaking_agents - {event.sender} if destination == BROADCAST else frozenset([destination])
                edges.append(Edge(
                    id=f"{trace.trace_id}/{event.id}->{destination}", trace_id=trace.trace_id,
                    source=event.sender, destination=destination, message=event, index=index,
                    upstream=upstream, receiver_saw=seen.receivers(receivers),
                    capture=captures.get(event.sender, "complete"), contacts=contacts,
                ))
            if len(edges) == edges_before:
                reason = "self_addressed" if set(event.recipients) <= {event.sender} else "to_human"
        if reason is not None:
            skipped.append(SkippedMessage(trace.trace_id, event.id, event.sender, reason))
        item = UpstreamItem("message", event.id, event.sender, event.content, structured=event.structured)
        if event.recipients == BROADCAST:
            seen.add_everyone(item, event.sender)
            seen.saw(event.id, event.sender, None)
        else:
            addressed = dict.fromkeys(n for n in event.recipients if n != event.sender)
            seen.add_named(addressed, item)
            seen.saw(event.id, event.sender, frozenset(addressed))
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

"""What an agent could see, stored once per trace: ``UpstreamItem`` (one thing a source could
see) and the views over a trace's shared visibility lists (``UpstreamView``, ``ReceiverView``)
that ``auditor.edges`` builds. The rules deciding who sees what live in ``auditor.edges``."""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, overload

from .trace import ToolCall

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
class Mark:
    """Where one agent's upstream view ends, in one trace's visibility lists (``storage``)."""

    storage: int  # the ``Visibility``'s serial number
    agent: str
    everyone: int
    own: int


class Visibility:
    """Who could see which event, built in one pass and shared by every edge of a trace: items
    everyone saw (broadcasts, tool results visible to ``*``) are stored once, items addressed
    by name once per addressee. An edge's upstream is a view over both lists up to its
    position, so building all edges costs time and memory linear in the trace (plus one entry
    per named addressee), never messages x recipients."""

    _made = itertools.count()

    def __init__(self) -> None:
        self.serial = next(Visibility._made)  # names this storage in marks (ids of freed objects recur)
        self.everyone: list[tuple[int, UpstreamItem, str | None]] = []  # (order, item, its author if hidden from it)
        self.own: dict[str, list[tuple[int, UpstreamItem]]] = {}
        self.own_broadcasts: dict[str, list[int]] = {}  # agent -> positions in everyone of its own broadcasts
        self.audience: dict[str, tuple[int, str, frozenset[str] | None]] = {}  # id -> (order, owner, names|None=all)
        self.order = 0

    def add_named(self, names: Iterable[str], item: UpstreamItem) -> None:
        self.order += 1
        for name in names:
            self.own.setdefault(name, []).append((self.order, item))

    def add_everyone(self, item: UpstreamItem, hidden_from: str | None) -> None:
        self.order += 1
        if hidden_from is not None:
            self.own_broadcasts.setdefault(hidden_from, []).append(len(self.everyone))
        self.everyone.append((self.order, item, hidden_from))

    def saw(self, event_id: str, owner: str, names: frozenset[str] | None) -> None:
        self.audience[event_id] = (self.order, owner, names)

    def upstream(self, agent: str) -> UpstreamView:
        return UpstreamView(self, agent, len(self.everyone), len(self.own.get(agent, ())))

    def receivers(self, agents: frozenset[str]) -> ReceiverView:
        return ReceiverView(self, agents, self.order)


class UpstreamView(Sequence[UpstreamItem]):
    """What one agent could see up to one point of the trace, in trace order: a read-only
    sequence over storage shared by the trace's edges (iterate it; indexing walks it)."""

    __slots__ = ("_vis", "_agent", "_everyone", "_own")

    def __init__(self, vis: Visibility, agent: str, everyone: int, own: int) -> None:
        self._vis, self._agent, self._everyone, self._own = vis, agent, everyone, own

    def __iter__(self) -> Iterator[UpstreamItem]:
        return self._between(0, 0)

    @property
    def mark(self) -> Mark:
        """Where this view ends; a later view of the same agent continues from here."""
        return Mark(self._vis.serial, self._agent, self._everyone, self._own)

    def since(self, mark: Mark) -> Iterator[UpstreamItem] | None:
        """The items after ``mark``, in trace order, without walking the ones before it; None
        when ``mark`` is not an earlier mark of this agent in this trace."""
        if (mark.storage, mark.agent) != (self._vis.serial, self._agent) or mark.everyone > self._everyone \
                or mark.own > self._own:
            return None
        return self._between(mark.everyone, mark.own)

    def _between(self, i: int, j: int) -> Iterator[UpstreamItem]:
        shared = self._vis.everyone
        own = self._vis.own.get(self._agent, [])
        while i < self._everyone or j < self._own:
            if j >= self._own or (i < self._everyone and shared[i][0] < own[j][0]):
                order, item, hidden_from = shared[i]
                i += 1
                if hidden_from != self._agent:
                    yield item
            else:
                yield own[j][1]
                j += 1

    def __len__(self) -> int:
        mine = bisect.bisect_left(self._vis.own_broadcasts.get(self._agent, []), self._everyone)
        return self._everyone - mine + self._own

    @overload
    def __getitem__(self, index: int) -> UpstreamItem: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[UpstreamItem]: ...

    def __getitem__(self, index: int | slice) -> UpstreamItem | Sequence[UpstreamItem]:
        return tuple(self)[index]

    def __repr__(self) -> str:
        return f"UpstreamView({self._agent!r}, {len(self)} items)"


def upstream_mark(upstream: Sequence[UpstreamItem]) -> Mark | None:
    """Where ``upstream`` ends, when it is an ``UpstreamView`` (whose agent's upstream only grows
    along a trace); None for any other sequence, which is always read whole."""
    return upstream.mark if isinstance(upstream, UpstreamView) else None


def upstream_since(upstream: Sequence[UpstreamItem], start: Mark | None) -> Iterable[UpstreamItem] | None:
    """The items of ``upstream`` after ``start``, an earlier mark of the same agent's view; None
    when it cannot continue from ``start`` (no mark, or another agent, trace or kind of sequence):
    the caller reads ``upstream`` whole."""
    return upstream.since(start) if start is not None and isinstance(upstream, UpstreamView) else None


class ReceiverView(Container[str]):
    """The events every one of ``agents`` could see (or wrote) before one point of the trace:
    ``event_id in view``, answered from each event's audience without building the set."""

    __slots__ = ("_vis", "_agents", "_order")

    def __init__(self, vis: Visibility, agents: frozenset[str], order: int) -> None:
        self._vis, self._agents, self._order = vis, agents, order

    def __contains__(self, event_id: object) -> bool:
        found = self._vis.audience.get(event_id) if isinstance(event_id, str) else None
        if found is None or not self._agents:
            return False
        order, owner, names = found
        if order > self._order:
            return False
        if names is None:
            return True
        if len(self._agents) > len(names) + 1:
            return False
        return all(agent == owner or agent in names for agent in self._agents)

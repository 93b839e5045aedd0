"""What a sufficiency check needs from a trace, taken while the trace streams past, and which
edges are checked.

A **case** is one edge with its receiver: the handoff text, the receiver's system prompt and
model (from the trace, else from the agents file), what the receiver produced next in the trace
(its first message after the handoff, and the tool calls it made before it), and everything else
the receiver could see before the handoff (for the leaked-context evidence).
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Mapping
from dataclasses import dataclass

from ..edges import Edge
from ..errors import UsageError
from ..trace import BROADCAST, Message, ToolCall, Trace


@dataclass(frozen=True)
class AgentSpec:
    model: str | None = None
    system_prompt: str | None = None


@dataclass(frozen=True)
class Case:
    edge_id: str
    trace_id: str
    source: str
    destination: str
    handoff_event: str
    handoff: str
    receiver_known: bool
    receiver_model: str | None
    receiver_system: str | None
    pipeline_event: str | None
    pipeline_output: str | None
    pipeline_tool_calls: int
    receiver_context: tuple[tuple[str, str], ...]

    @property
    def route(self) -> str:
        return f"{self.source}->{self.destination}"


def make_case(trace: Trace, edge: Edge, agents: Mapping[str, AgentSpec]) -> Case:
    declared = trace.agents_by_name().get(edge.destination)
    configured = agents.get(edge.destination, AgentSpec())
    known = edge.destination != BROADCAST and (declared is not None or edge.destination in agents or any(
        isinstance(e, Message) and e.sender == edge.destination for e in trace.events))
    output_event = output = None
    tools = 0
    for event in trace.events[edge.index + 1:]:
        if isinstance(event, ToolCall) and event.agent == edge.destination:
            tools += 1
        if isinstance(event, Message) and event.sender == edge.destination and event.content.strip():
            output_event, output = event.id, event.content
            break
    context: list[tuple[str, str]] = []
    for event in trace.events[:edge.index]:
        if isinstance(event, Message) and event.sender != edge.destination and (
                event.recipients == BROADCAST or edge.destination in event.recipients):
            context.append((event.id, event.content))
        elif isinstance(event, ToolCall) and (event.agent == edge.destination or event.visible_to == BROADCAST
                                              or edge.destination in event.visible_to):
            context.append((event.id, event.result or ""))
    return Case(
        edge_id=edge.id, trace_id=trace.trace_id, source=edge.source, destination=edge.destination,
        handoff_event=edge.message.id, handoff=edge.message.content, receiver_known=known,
        receiver_model=(declared.model if declared and declared.model else None) or configured.model,
        receiver_system=(declared.system_prompt if declared and declared.system_prompt else None)
        or configured.system_prompt,
        pipeline_event=output_event, pipeline_output=output, pipeline_tool_calls=tools,
        receiver_context=tuple(context),
    )


@dataclass(frozen=True)
class Selection:
    """``off``, ``all``, ``sample:N`` (the N edges with the smallest hash of seed and edge id:
    deterministic, and independent of file order) or ``edge:ID`` (repeatable)."""

    mode: str
    size: int = 0
    edges: frozenset[str] = frozenset()
    seed: int = 0

    @classmethod
    def parse(cls, values: list[str], seed: int = 0) -> Selection:
        if not values or values == ["off"]:
            return cls("off")
        if values == ["all"]:
            return cls("all", seed=seed)
        if len(values) == 1 and values[0].startswith("sample:"):
            size = values[0].removeprefix("sample:")
            if not size.isdigit() or int(size) < 1:
                raise UsageError(f"--sufficiency {values[0]}: N must be a positive whole number")
            return cls("sample", int(size), seed=seed)
        if all(v.startswith("edge:") and len(v) > 5 for v in values):
            return cls("edges", edges=frozenset(v.removeprefix("edge:") for v in values), seed=seed)
        raise UsageError(f"--sufficiency {' '.join(values)}: use off, all, sample:N, or edge:ID (repeatable)")


class Selector:
    """Keeps the selected cases while edges stream past; ``sample:N`` keeps at most N."""

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self._heap: list[tuple[int, str, Case]] = []
        self._all: list[Case] = []

    @property
    def active(self) -> bool:
        return self.selection.mode != "off"

    def wants(self, edge_id: str) -> bool:
        mode = self.selection.mode
        return mode in ("all", "sample") or (mode == "edges" and edge_id in self.selection.edges)

    def offer(self, case: Case) -> None:
        if self.selection.mode != "sample":
            self._all.append(case)
            return
        rank = -int.from_bytes(hashlib.sha256(f"{self.selection.seed}:{case.edge_id}".encode()).digest()[:8], "big")
        item = (rank, case.edge_id, case)
        if len(self._heap) < self.selection.size:
            heapq.heappush(self._heap, item)
        elif item > self._heap[0]:
            heapq.heapreplace(self._heap, item)

    def cases(self) -> list[Case]:
        chosen = self._all if self.selection.mode != "sample" else [c for _, _, c in self._heap]
        return sorted(chosen, key=lambda c: c.edge_id)

    def missing(self) -> list[str]:
        seen = {c.edge_id for c in self._all}
        return sorted(self.selection.edges - seen) if self.selection.mode == "edges" else []

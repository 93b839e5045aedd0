"""The shared upstream views give exactly what a naive per-edge copy gives (the rules as the
module docstring states them), on random traces: upstream in order, its length, and which
events every receiver saw."""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES

from auditor.edges import Edge, build_edges
from auditor.trace import BROADCAST, Message, ToolCall, Trace, load_paths


def _naive_upstream(trace: Trace, edge: Edge) -> list[str]:
    agent = edge.source
    out = [f"system:{agent}"] if any(a.name == agent and a.system_prompt for a in trace.agents) else []
    for event in trace.events[: edge.index]:
        if isinstance(event, Message) and event.sender != agent and (
                event.recipients == BROADCAST or agent in event.recipients) or isinstance(event, ToolCall) and (event.agent == agent or event.visible_to == BROADCAST
                                              or agent in event.visible_to):
            out.append(event.id)
    return out


def _naive_saw(trace: Trace, edge: Edge, receivers: set[str], event_id: str) -> bool:
    def saw(agent: str) -> bool:
        if event_id == f"system:{agent}":
            return any(a.name == agent and a.system_prompt for a in trace.agents)
        for event in trace.events[: edge.index]:
            if event.id != event_id:
                continue
            if isinstance(event, Message):
                return event.sender == agent or event.recipients == BROADCAST or agent in event.recipients
            if isinstance(event, ToolCall):
                return event.agent == agent or event.visible_to == BROADCAST or agent in event.visible_to
        return False

    return bool(receivers) and all(saw(r) for r in receivers)


def _random_trace(rng: random.Random, size: int) -> Trace:
    agents = [f"a{i}" for i in range(rng.randint(2, 6))]
    events: list[dict[str, object]] = []
    for n in range(size):
        who = rng.choice([*agents, "user"])
        if rng.random() < 0.25:
            visible: object = "*" if rng.random() < 0.3 else rng.sample(agents, rng.randint(0, 2))
            events.append({"type": "tool_call", "id": f"t{n}", "agent": rng.choice(agents), "tool": "bash",
                           "result": "ok", "visible_to": visible})
        else:
            recipients: object = "*" if rng.random() < 0.5 else rng.sample([*agents, "user"], rng.randint(1, 3))
            events.append({"type": "message", "id": f"m{n}", "sender": who, "recipients": recipients,
                           "content": f"message {n}"})
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": "r",
        "agents": [{"name": "user", "kind": "human"}, *({"name": a, "system_prompt": f"be {a}"}
                                                       for a in agents if rng.random() < 0.5)],
        "events": events})


@pytest.mark.parametrize("seed", range(30))
def test_shared_views_equal_the_naive_copy(seed: int) -> None:
    rng = random.Random(seed)
    trace = _random_trace(rng, rng.randint(1, 40))
    names = [a.name for a in trace.agents]
    for event in trace.events:
        if isinstance(event, Message):
            names += [event.sender, *(event.recipients if event.recipients != BROADCAST else [])]
        elif isinstance(event, ToolCall):
            names.append(event.agent)
    speaking = set(names) - {"user"}
    for edge in build_edges(trace).edges:
        expected = _naive_upstream(trace, edge)
        assert [item.event_id for item in edge.upstream] == expected
        assert len(edge.upstream) == len(expected)
        if expected:
            assert edge.upstream[-1].event_id == expected[-1]
        receivers = speaking - {edge.source} if edge.destination == BROADCAST else {edge.destination}
        for event_id in [e.id for e in trace.events] + [f"system:{a.name}" for a in trace.agents]:
            assert (event_id in edge.receiver_saw) == _naive_saw(trace, edge, receivers, event_id), event_id


def test_examples_keep_their_upstream() -> None:
    for loaded in load_paths([EXAMPLES]).traces:
        for edge in build_edges(loaded.trace).edges:
            assert [i.event_id for i in edge.upstream] == _naive_upstream(loaded.trace, edge)

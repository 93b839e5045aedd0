"""The shared upstream views give exactly what a naive per-edge copy gives (the rules as the
module docstring states them), on random traces: upstream in order, its length, and which
events every receiver saw."""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES
from labelled_claims import claim_check

from auditor.edges import Edge, Mark, build_edges, upstream_mark, upstream_since
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
    marks: dict[str, tuple[Mark, list[str]]] = {}
    for edge in build_edges(trace).edges:
        expected = _naive_upstream(trace, edge)
        assert [item.event_id for item in edge.upstream] == expected
        if edge.source in marks:  # an edge continues from its source's previous edge
            mark, before = marks[edge.source]
            tail = upstream_since(edge.upstream, mark)
            assert tail is not None and before + [i.event_id for i in tail] == expected
        marks[edge.source] = (upstream_mark(edge.upstream), expected)  # type: ignore[assignment]
        assert len(edge.upstream) == len(expected)
        if expected:
            assert edge.upstream[-1].event_id == expected[-1]
        receivers = speaking - {edge.source} if edge.destination == BROADCAST else {edge.destination}
        for event_id in [e.id for e in trace.events] + [f"system:{a.name}" for a in trace.agents]:
            assert (event_id in edge.receiver_saw) == _naive_saw(trace, edge, receivers, event_id), event_id


def test_a_mark_continues_only_its_own_agents_view_in_its_own_trace() -> None:
    rng = random.Random(7)
    first, second = build_edges(_random_trace(rng, 30)).edges, build_edges(_random_trace(rng, 30)).edges
    mark = upstream_mark(first[-1].upstream)
    assert mark is not None
    assert upstream_since(second[-1].upstream, mark) is None  # another trace's storage
    other = next(e for e in first if e.source != first[-1].source)
    assert upstream_since(other.upstream, mark) is None  # another agent
    assert upstream_since(list(first[-1].upstream), mark) is None  # a plain sequence is read whole
    assert upstream_mark(list(first[-1].upstream)) is None


@pytest.mark.parametrize("seed", range(12))
def test_incremental_claim_evidence_equals_evidence_gathered_from_scratch(seed: int) -> None:
    """One check across a trace (each source's evidence gathered as it goes) finds what a fresh
    check per edge finds, on traces whose claims are grounded by what arrives between edges."""
    rng = random.Random(seed)
    trace = _random_trace(rng, rng.randint(10, 40))
    events = [e.model_copy(update={"content": f"The export took {rng.randint(1, 6)} s."}) if isinstance(e, Message)
              else e.model_copy(update={"result": f"export done in {rng.randint(1, 6)} s"}) for e in trace.events]
    trace = trace.model_copy(update={"events": events})
    shared, verdicts = claim_check(), []
    for loaded in [trace, *(t.trace for t in load_paths([EXAMPLES]).traces)]:
        for edge in build_edges(loaded).edges:
            found = shared(edge)
            assert found == claim_check()(edge), edge.id
            verdicts += [f.verdict for f in found]
    assert {"grounded", "invented"} <= set(verdicts)


def test_examples_keep_their_upstream() -> None:
    for loaded in load_paths([EXAMPLES]).traces:
        for edge in build_edges(loaded.trace).edges:
            assert [i.event_id for i in edge.upstream] == _naive_upstream(loaded.trace, edge)

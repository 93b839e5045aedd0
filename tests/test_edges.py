"""Edges and the visibility rules; each message is parsed at most once per run."""

from __future__ import annotations

from conftest import EXAMPLES, FIXTURES

from auditor import audit
from auditor.edges import build_edges
from auditor.nlp import TextAnalyzer
from auditor.trace import Trace


def _trace() -> Trace:
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": "vis",
        "agents": [{"name": "user", "kind": "human"}, {"name": "a", "system_prompt": "You are A."},
                   {"name": "b", "system_prompt": "You are B."}, {"name": "c"}],
        "events": [
            {"type": "message", "id": "u", "sender": "user", "recipients": ["a"], "content": "task"},
            {"type": "message", "id": "ab", "sender": "a", "recipients": ["b"], "content": "private to b"},
            {"type": "tool_call", "id": "tb", "agent": "b", "tool": "bash", "result": "b's output"},
            {"type": "tool_call", "id": "tall", "agent": "b", "tool": "bash", "result": "shared", "visible_to": "*"},
            {"type": "message", "id": "bc", "sender": "b", "recipients": ["c", "a"], "content": "to c and a"},
            {"type": "message", "id": "cx", "sender": "c", "recipients": "*", "content": "everyone"},
            {"type": "message", "id": "late", "sender": "a", "recipients": ["b"], "content": "after"},
        ],
    })


def test_upstream_is_exactly_what_the_source_could_see() -> None:
    edges = {e.id: e for e in build_edges(_trace()).edges}
    up = {eid: [i.event_id for i in e.upstream] for eid, e in edges.items()}
    assert up["vis/ab->b"] == ["system:a", "u"]
    assert up["vis/bc->c"] == ["system:b", "ab", "tb", "tall"]
    assert up["vis/cx->a"] == ["tall", "bc"]
    assert up["vis/late->b"] == ["system:a", "u", "tall", "bc", "cx"]


def test_one_edge_per_recipient_and_broadcast_goes_to_next_speaker() -> None:
    ids = [e.id for e in build_edges(_trace()).edges]
    assert ids == ["vis/ab->b", "vis/bc->c", "vis/bc->a", "vis/cx->a", "vis/late->b"]


def test_receiver_saw_tracks_what_the_destination_could_see() -> None:
    edges = {e.id: e for e in build_edges(_trace()).edges}
    assert "u" not in edges["vis/ab->b"].receiver_saw
    assert "ab" in edges["vis/bc->a"].receiver_saw  # a wrote it
    assert "tb" not in edges["vis/bc->c"].receiver_saw


def test_edge_ids_are_stable_across_runs() -> None:
    first = [e.id for e in audit([EXAMPLES]).edges]
    assert first == [e.id for e in audit([EXAMPLES]).edges]


def test_each_message_is_parsed_at_most_once_however_many_edges_see_it() -> None:
    analyzer = TextAnalyzer()
    report = audit([FIXTURES / "whowhen"], analyzer=analyzer)
    assert report.summary.edges > 10
    parsed = analyzer.stats.parses_by_sentence
    assert parsed and max(parsed.values()) == 1
    assert analyzer.stats.sentences_parsed == len(parsed)


def test_naive_mode_parses_again_but_gives_the_same_verdicts() -> None:
    naive = TextAnalyzer(fast=False, cache=False)
    fast = TextAnalyzer()
    a = audit([FIXTURES / "whowhen"], analyzer=naive)
    b = audit([FIXTURES / "whowhen"], analyzer=fast)
    assert [(f.edge_id, f.verdict) for f in a.deterministic.findings] == [
        (f.edge_id, f.verdict) for f in b.deterministic.findings]
    assert max(naive.stats.parses_by_sentence.values()) > 1


def test_batched_prepare_gives_the_same_findings_as_edge_by_edge() -> None:
    from auditor.checks import CheckContext, make_check
    from auditor.trace import load_paths

    edges = [e for t in load_paths([FIXTURES / "whowhen", EXAMPLES]).traces for e in build_edges(t.trace).edges]
    batched = make_check("edge-audit.constraints.v1", CheckContext(TextAnalyzer()), {})
    single = make_check("edge-audit.constraints.v1", CheckContext(TextAnalyzer()), {})
    batched.prepare(edges)  # type: ignore[attr-defined]
    for edge in edges:
        assert batched(edge) == single(edge), edge.id

"""The foreign formats: detection, the edges, upstream views and tool evidence each fixture
must produce (asserted exactly), the incident detectable in every format, the OTLP round trip,
the OpenAI Agents processor, and malformed input naming file, line and span."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, FIXTURES

from auditor import AuditConfig, audit
from auditor.config import CheckConfig
from auditor.edges import build_edges
from auditor.integrations.openai_agents import JsonlTraceProcessor
from auditor.integrations.otlp_export import to_otlp
from auditor.trace import HandoffStage, Message, ToolCall, Trace, load_paths

FORMATS = FIXTURES / "formats"

# fixture -> trace id -> (format, edges [(event id, source, destination, upstream event ids)], tools [(id, agent, tool, status)])
EXPECTED: dict[str, dict[str, tuple[str, list[tuple[str, str, str, list[str]]], list[tuple[str, str, str, str]]]]] = {
    "otlp-genai-incident.jsonl": {"5b8aa5a2d2c872e8321cf37308d69df2": ("otlp", [
        ("c1000000000000c1:handoff", "planner", "coder", ["system:planner", "a1000000000000a1:in"]),
        ("0a100000000000a0:out1", "coder", "planner", ["c1000000000000c1:handoff", "f1000000000000f1"]),
    ], [("f1000000000000f1", "coder", "bash", "error")])},
    "otlp-openinference-edge-cases.json": {"9f0c2d71aa5e4b21b0c6f3d27c1e8a44": ("otlp", [
        ("9000000000000009:handoff", "researcher", "writer",
         ["system:researcher", "3000000000000003:in", "5000000000000005", "7000000000000007"]),
        ("b00000000000000b:handoff", "writer", "reviewer", ["system:writer", "9000000000000009:handoff"]),
    ], [("5000000000000005", "researcher", "metrics_query", "error"),
        ("7000000000000007", "researcher", "metrics_query", "ok"),
        ("a00000000000000a", "unattributed", "cache_lookup", "ok")])},
    "openai-agents-incident.jsonl": {"trace_4f1c2a9e0b7d4e6f8a1b2c3d4e5f6a7b": ("openai-agents", [
        ("span_handoff_0000001:handoff", "Planner", "Coder", ["system:Planner", "span_planner_gen0001:in"]),
    ], [("span_coder_tool00001", "Coder", "run_tests", "ok")])},
    "openai-agents-edge-cases.jsonl": {
        "trace_aaaa0000000000000000000000000001": ("openai-agents", [
            ("span_a_xfer:handoff", "Triage", "Billing", ["span_a_gen1:in"]),
        ], [("span_a_refund", "Billing", "issue_refund", "ok"), ("span_a_orphan", "unattributed", "audit_log", "ok")]),
        "trace_bbbb0000000000000000000000000002": ("openai-agents", [], [
            ("span_b_tool1", "Booker", "search_flights", "error"), ("span_b_tool2", "Booker", "search_flights", "ok")]),
    },
    "langsmith-incident.jsonl": {"1f0c6a52-0000-4000-8000-00000000a001": ("langsmith", [
        ("s1-xfer:handoff", "supervisor", "coder", ["system:supervisor", "s1-llm:in"]),
        ("c1-back:handoff", "coder", "supervisor", ["s1-llm:in", "s1-xfer:handoff", "c1-tool"]),
    ], [("c1-tool", "coder", "run_tests", "error")])},
    "langsmith-edge-cases.json": {
        "2a000000-0000-4000-8000-0000000000aa": ("langsmith", [
            ("a-xfer:handoff", "triage", "billing", ["a-llm:in"]),
        ], [("a-refund", "billing", "issue_refund", "ok"), ("a-lost", "unattributed", "audit_log", "ok")]),
        "2b000000-0000-4000-8000-0000000000bb": ("langsmith", [], [
            ("b-tool-1", "booker", "search_flights", "error"), ("b-tool-2", "booker", "search_flights", "ok")]),
    },
    "langfuse-incident.json": {"lf-trace-incident": ("langfuse", [
        ("o-xfer:handoff", "planner", "coder", ["system:planner", "o-planner:in"]),
        ("o-coder-gen:out1", "coder", "planner", ["o-xfer:handoff", "o-tests"]),
    ], [("o-tests", "coder", "run_tests", "error")])},
    "langfuse-otel-edge-cases.json": {"lf-trace-otel": ("langfuse", [
        ("e-handoff:handoff", "researcher", "writer", ["e-res:in", "e-tool"]),
    ], [("e-tool", "researcher", "metrics_query", "ok"), ("e-orphan", "unattributed", "cache_lookup", "ok")])},
    "agentchat-swarm-incident.json": {"agentchat-swarm-incident": ("agentchat", [
        ("msg-0003", "planner", "coder", ["msg-0001"]),
        ("msg-0006", "coder", "*", ["msg-0001", "msg-0003", "msg-0004:call_t1"]),
        ("msg-0007", "coder", "reviewer", ["msg-0001", "msg-0003", "msg-0004:call_t1"]),
    ], [("msg-0004:call_t1", "coder", "run_tests", "error")])},
    "agentchat-edge-cases.jsonl": {"agentchat-edge-cases": ("agentchat", [
        ("msg-0007", "booker", "critic", ["msg-0001", "msg-0002:c1", "msg-0004:c2"]),
        ("msg-0008", "booker", "critic", ["msg-0001", "msg-0002:c1", "msg-0004:c2"]),
        ("msg-0009", "critic", "*", ["msg-0001", "msg-0007", "msg-0008"]),
    ], [("msg-0002:c1", "booker", "search_flights", "error"), ("msg-0004:c2", "booker", "search_flights", "ok")])},
}

INCIDENTS = {  # fixture -> the edge whose handoff softens the MUST NOT
    "otlp-genai-incident.jsonl": "5b8aa5a2d2c872e8321cf37308d69df2/c1000000000000c1:handoff->coder",
    "openai-agents-incident.jsonl": "trace_4f1c2a9e0b7d4e6f8a1b2c3d4e5f6a7b/span_handoff_0000001:handoff->Coder",
    "langsmith-incident.jsonl": "1f0c6a52-0000-4000-8000-00000000a001/s1-xfer:handoff->coder",
    "langfuse-incident.json": "lf-trace-incident/o-xfer:handoff->coder",
    "agentchat-swarm-incident.json": "agentchat-swarm-incident/msg-0003->coder",
}


@pytest.mark.parametrize("fixture", list(EXPECTED))
def test_fixture_gives_exactly_the_expected_edges_upstream_and_tools(fixture: str) -> None:
    loaded = load_paths([FORMATS / fixture])
    traces = {t.trace.trace_id: t for t in loaded.traces}
    assert set(traces) == set(EXPECTED[fixture]), fixture
    for trace_id, (fmt, edges, tools) in EXPECTED[fixture].items():
        item = traces[trace_id]
        assert item.format == fmt, (fixture, trace_id)
        got = [(e.message.id, e.source, e.destination, [u.event_id for u in e.upstream])
               for e in build_edges(item.trace).edges]
        assert got == edges, (fixture, trace_id)
        calls = [(e.id, e.agent, e.tool, e.status) for e in item.trace.events if isinstance(e, ToolCall)]
        assert calls == tools, (fixture, trace_id)


def test_tool_evidence_carries_arguments_and_results() -> None:
    [item] = load_paths([FORMATS / "otlp-genai-incident.jsonl"]).traces
    [bash] = [e for e in item.trace.events if isinstance(e, ToolCall)]
    assert bash.arguments == {"command": "pytest -q"} and bash.call_id == "call_t1"
    assert bash.result is not None and "3 failed, 41 passed" in bash.result
    [res] = [t for t in load_paths([FORMATS / "langsmith-edge-cases.json"]).traces if t.trace.trace_id.startswith("2b")]
    first = next(e for e in res.trace.events if isinstance(e, ToolCall))
    assert first.result is not None and "TimeoutError" in first.result


@pytest.mark.parametrize("fixture", list(INCIDENTS))
def test_the_softened_must_not_is_detected_in_every_format(fixture: str) -> None:
    config = AuditConfig(checks=[CheckConfig(name="edge-audit.constraints.v1")])
    report = audit([FORMATS / fixture], config)
    softened = [f for f in report.deterministic.findings if f.verdict == "softened"]
    assert [f.edge_id for f in softened] == [INCIDENTS[fixture]], fixture
    assert softened[0].upstream is not None and "MUST NOT" in softened[0].upstream.text
    assert softened[0].handoff and "Prefer" in softened[0].handoff[0].text


def _edges(trace: Trace) -> list[tuple[str, str, str]]:
    return [(e.id, e.source, e.destination) for e in build_edges(trace).edges]


@pytest.mark.parametrize("path", sorted(p.name for p in EXAMPLES.iterdir()) + ["whowhen/1.json", "whowhen/10.json"])
def test_native_to_otlp_genai_and_back_gives_the_same_edges(tmp_path: Path, path: str) -> None:
    source = EXAMPLES / path if (EXAMPLES / path).exists() else FIXTURES / path
    for item in load_paths([source]).traces:
        exported = tmp_path / f"{item.trace.trace_id}.json"
        exported.write_text(json.dumps(to_otlp(item.trace)))
        back = load_paths([exported])
        assert not back.errors and [t.format for t in back.traces] == ["otlp"], path
        assert _edges(back.traces[0].trace) == _edges(item.trace), (path, item.trace.trace_id)
        stages = [e.id for e in item.trace.events if isinstance(e, HandoffStage)]
        assert [e.id for e in back.traces[0].trace.events if isinstance(e, HandoffStage)] == stages, path


def _span(trace_id: str | None, span_id: str | None) -> dict[str, Any]:
    span: dict[str, Any] = {"name": "x", "attributes": []}
    if trace_id:
        span["traceId"] = trace_id
    if span_id:
        span["spanId"] = span_id
    return {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}


def test_malformed_otlp_names_the_file_line_and_span_and_keeps_the_rest(tmp_path: Path) -> None:
    good = FORMATS.joinpath("otlp-genai-incident.jsonl").read_text().splitlines()
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([good[0], json.dumps(_span("abc", None)), "{not json", json.dumps(_span(None, "s9")),
                               good[1]]) + "\n")
    loaded = load_paths([path])
    assert [t.trace.trace_id for t in loaded.traces] == ["5b8aa5a2d2c872e8321cf37308d69df2"]
    errors = sorted((e.line, e.where, e.reason) for e in loaded.errors)
    assert errors[0] == (2, "resourceSpans[0].scopeSpans[0].spans[0] (span ?)", "malformed span: span has no spanId")
    assert errors[1][0] == 3 and errors[1][2].startswith("invalid JSON")
    assert errors[2] == (4, "resourceSpans[0].scopeSpans[0].spans[0] (span s9)", "span has no traceId")
    assert all(e.path == str(path) for e in loaded.errors)


def test_a_record_of_another_format_in_a_record_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    lines = FORMATS.joinpath("langsmith-incident.jsonl").read_text().splitlines()
    path.write_text("\n".join([lines[0], json.dumps({"object": "trace.span"}), *lines[1:]]) + "\n")
    loaded = load_paths([path])
    assert len(loaded.traces) == 1
    assert [(e.line, "not a LangSmith run" in e.reason) for e in loaded.errors] == [(2, True)]


class _Exported:
    def __init__(self, data: dict[str, Any] | None) -> None:
        self.data = data

    def export(self) -> dict[str, Any] | None:
        return self.data


def test_the_openai_agents_processor_writes_what_the_format_reads(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    processor = JsonlTraceProcessor(path)
    processor.on_trace_start(_Exported({"object": "trace", "id": "trace_1", "workflow_name": "w"}))
    for sid, parent, data in [
        ("s_a", None, {"type": "agent", "name": "A"}),
        ("s_g", "s_a", {"type": "generation", "input": [{"role": "user", "content": "Do X. Never do Y."}],
                        "output": [{"role": "assistant", "content": "B: do X, and never do Y."}]}),
        ("s_h", "s_a", {"type": "handoff", "from_agent": "A", "to_agent": "B"}),
        ("s_b", None, {"type": "agent", "name": "B"}),
    ]:
        processor.on_span_start(_Exported(None))
        processor.on_span_end(_Exported({"object": "trace.span", "id": sid, "trace_id": "trace_1", "parent_id": parent,
                                         "started_at": f"2025-01-01T00:00:0{len(sid)}Z", "ended_at": None,
                                         "span_data": data, "error": None}))
    processor.on_span_end(_Exported(None))
    processor.on_trace_end(_Exported(None))
    processor.shutdown()
    [item] = load_paths([path]).traces
    assert item.format == "openai-agents"
    assert _edges(item.trace) == [("trace_1/s_h:handoff->B", "A", "B")]
    assert next(e for e in item.trace.events if isinstance(e, Message) and e.sender == "A").content == \
        "B: do X, and never do Y."


def test_format_detection_follows_the_explicit_priority_not_the_import_order() -> None:
    from auditor.trace import all_formats, detect_format

    order = [f.name for f in all_formats()]
    assert order[0] == "native" and order[-2:] == ["ag2", "magentic-one"]
    assert all(a.priority <= b.priority for a, b in itertools.pairwise(all_formats()))
    history = {"history": [{"content": "hi", "name": "planner"}]}
    assert detect_format(history).name == "ag2"  # type: ignore[union-attr]
    # A document that two formats would take goes to the one of higher priority.
    assert detect_format({**history, "schema": "edge-audit.trace.v1"}).name == "native"  # type: ignore[union-attr]
    assert detect_format({**history, "resourceSpans": []}).name == "otlp"  # type: ignore[union-attr]

"""What the span importers now keep for trace contracts, beside what they already built: tool
calls' start and end times, model calls (model, times, token usage where the source records it),
the run's status and times, and which agent invoked which. Edges are unchanged (see
test_behaviour and test_formats)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FIXTURES

from auditor.trace import ToolCall, Trace, load_file

FORMATS = FIXTURES / "formats"


def _only(path: Path) -> Trace:
    result = load_file(path)
    assert not result.errors and len(result.traces) == 1, result.errors
    return result.traces[0].trace


@pytest.mark.parametrize(("name", "tool_id", "start", "end", "llm_calls", "duration"), [
    ("otlp-genai-incident.jsonl", "f1000000000000f1", "08:00:09", "08:00:20", 3, 30.0),
    ("openai-agents-incident.jsonl", "span_coder_tool00001", "09:00:09", "09:00:12", 3, 20.0),
    ("langsmith-incident.jsonl", "c1-tool", "10:00:06.500000", "10:00:07", 3, 9.5),
    ("langfuse-incident.json", "o-tests", "11:00:04", "11:00:04.400000", 2, 5.4),
])
def test_span_formats_keep_times_model_calls_and_run_metadata(name: str, tool_id: str, start: str, end: str,
                                                              llm_calls: int, duration: float) -> None:
    trace = _only(FORMATS / name)
    call = next(e for e in trace.events if e.id == tool_id)
    assert isinstance(call, ToolCall)
    assert call.timestamp is not None and call.timestamp.time().isoformat() == start
    assert call.end_time is not None and call.end_time.time().isoformat() == end
    assert len(trace.llm_calls) == llm_calls and all(c.timestamp is not None for c in trace.llm_calls)
    meta = trace.metadata
    assert meta.status == "ok"
    assert meta.started_at is not None and meta.ended_at is not None
    assert (meta.ended_at - meta.started_at).total_seconds() == duration


def test_recorded_usage_is_kept() -> None:
    calls = _only(FORMATS / "openai-agents-incident.jsonl").llm_calls
    assert [(c.id, c.input_tokens, c.output_tokens) for c in calls][0] == ("span_planner_gen0001", 120, 40)


def test_agent_invocations_are_recorded() -> None:
    trace = _only(FORMATS / "otlp-genai-incident.jsonl")
    assert trace.agents_by_name()["coder"].invoked_by == ["planner"]


def test_a_span_without_an_end_makes_the_run_running(tmp_path: Path) -> None:
    lines = (FORMATS / "openai-agents-incident.jsonl").read_text().splitlines()
    spans = [json.loads(line) for line in lines]
    tool = next(s for s in spans if s.get("id") == "span_coder_tool00001")
    del tool["ended_at"]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in spans))
    trace = _only(path)
    assert trace.metadata.status == "running"
    call = next(e for e in trace.events if e.id == "span_coder_tool00001")
    assert isinstance(call, ToolCall) and call.end_time is None and call.timestamp is not None


def test_a_failed_root_span_makes_the_run_error(tmp_path: Path) -> None:
    doc = json.loads((FORMATS / "langfuse-incident.json").read_text())
    root = next(o for o in doc["observations"] if not o.get("parentObservationId"))
    root["level"] = "ERROR"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert _only(path).metadata.status == "error"


def test_native_and_ag2_traces_record_no_times() -> None:
    trace = _only(FIXTURES / "whowhen" / "1.json")
    assert trace.metadata.status is None and trace.llm_calls == []
    assert all(e.timestamp is None for e in trace.events if isinstance(e, ToolCall))


def _otlp_usage(text: str) -> str:
    doc = json.loads(text.splitlines()[0])
    for span in doc["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        if span["spanId"] == "b1000000000000b1":
            span["attributes"] += [{"key": "gen_ai.usage.input_tokens", "value": {"intValue": "10"}},
                                   {"key": "gen_ai.usage.output_tokens", "value": {"intValue": "5"}}]
    return json.dumps(doc) + "\n" + "\n".join(text.splitlines()[1:])


def _agents_usage(text: str) -> str:
    spans = [json.loads(line) for line in text.splitlines()]
    for span in spans:
        if span.get("id") == "span_coder_gen000001":
            span["span_data"]["usage"] = {"input_tokens": 10, "output_tokens": 5}
    return "\n".join(json.dumps(s) for s in spans)


def _langsmith_usage(text: str) -> str:
    runs = [json.loads(line) for line in text.splitlines()]
    for run in runs:
        if run.get("id") == "s1-llm":
            run.update(prompt_tokens=10, completion_tokens=5, total_tokens=15)
    return "\n".join(json.dumps(r) for r in runs)


def _langfuse_usage(text: str) -> str:
    doc = json.loads(text)
    for obs in doc["observations"]:
        if obs["id"] == "o-plan-gen":
            obs["usage"] = {"input": 10, "output": 5, "total": 15}
    return json.dumps(doc)


@pytest.mark.parametrize(("name", "call_id", "inject"), [
    ("otlp-genai-incident.jsonl", "b1000000000000b1", _otlp_usage),
    ("openai-agents-incident.jsonl", "span_coder_gen000001", _agents_usage),
    ("langsmith-incident.jsonl", "s1-llm", _langsmith_usage),
    ("langfuse-incident.json", "o-plan-gen", _langfuse_usage),
])
def test_token_usage_is_read_where_recorded(tmp_path: Path, name: str, call_id: str,
                                            inject: Callable[[str], str]) -> None:
    before = _only(FORMATS / name)
    assert next(c for c in before.llm_calls if c.id == call_id).input_tokens is None
    path = tmp_path / name
    path.write_text(inject((FORMATS / name).read_text()))
    after = _only(path)
    call = next(c for c in after.llm_calls if c.id == call_id)
    assert (call.input_tokens, call.output_tokens) == (10, 5)
    assert after.events == before.events  # usage changes no event


def test_values_that_are_not_counts_are_dropped(tmp_path: Path) -> None:
    doc = json.loads((FORMATS / "langfuse-incident.json").read_text())
    gen = next(o for o in doc["observations"] if o["id"] == "o-plan-gen")
    gen["usage"] = {"input": True, "output": -1, "total": "ten"}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    call = next(c for c in _only(path).llm_calls if c.id == "o-plan-gen")
    assert (call.input_tokens, call.output_tokens, call.total_tokens) == (None, None, None)


def test_a_model_call_name_over_the_limit_is_refused(tmp_path: Path) -> None:
    from auditor import AuditConfig, audit
    from auditor.config import LimitsConfig

    doc = {"schema": "edge-audit.trace.v1", "trace_id": "t", "events": [],
           "llm_calls": [{"id": "g", "agent": "a", "name": "chat", "model": "m" * 500}]}
    (tmp_path / "t.json").write_text(json.dumps(doc))
    report = audit([tmp_path], AuditConfig(checks=[], limits=LimitsConfig(max_name_chars=100)))
    (error,) = report.input_errors
    assert error.where == "llm_calls[0].model" and "exceeds the limit" in error.reason

"""Loading traces: native, AG2 (Who&When), Magentic-One, detection and forcing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, FIXTURES, WHOWHEN

from auditor.edges import build_edges
from auditor.errors import UsageError
from auditor.trace import Message, ToolCall, load_file, load_paths


def test_all_shipped_who_and_when_fixtures_import_and_account_for_every_message() -> None:
    result = load_paths([FIXTURES / "whowhen"])
    assert result.errors == []
    assert len(result.traces) == 3
    for loaded in result.traces:
        history = json.loads(Path(loaded.path).read_text())["history"]
        edge_set = build_edges(loaded.trace)
        mapped = {e.message.id for e in edge_set.edges} | {s.event_id for s in edge_set.skipped}
        assert mapped == {f"step-{i}" for i in range(len(history))}, loaded.path
        assert edge_set.source_messages == len(history)


@pytest.mark.skipif(not WHOWHEN.is_dir(), reason="shared/datasets is not beside this checkout")
def test_all_126_shared_who_and_when_traces_import() -> None:
    result = load_paths([WHOWHEN])
    assert [e.describe() for e in result.errors] == []
    assert len(result.traces) == 126
    for loaded in result.traces:
        edge_set = build_edges(loaded.trace)
        accounted = len({e.message.id for e in edge_set.edges}) + len(edge_set.skipped)
        observations = [e for e in loaded.trace.events if isinstance(e, ToolCall) and e.recorded_as == "observation"]
        assert accounted == edge_set.source_messages == len(loaded.trace.events) - len(observations), loaded.path


def test_computer_terminal_becomes_tool_evidence_with_exit_code() -> None:
    (loaded,) = load_file(FIXTURES / "whowhen" / "1.json").traces
    assert loaded.format == "ag2"
    call = loaded.trace.events[1]
    assert isinstance(call, ToolCall)
    # the code that ran came with the task (step-0), which the importer gives to the human task giver
    assert (call.agent, call.tool, call.exit_code, call.status) == ("task", "code_execution", 0, "ok")
    assert call.visible_to == "*" and call.recorded_as == "chat_message"
    assert loaded.trace.metadata.labels["mistake_agent"] == "Excel_Expert"
    assert loaded.trace.metadata.score == 0.0


def test_failed_execution_maps_to_error_status(tmp_path) -> None:
    doc = {"history": [
        {"role": "assistant", "name": "Coder", "content": "```python\nprint(1/0)\n```"},
        {"role": "user", "name": "Computer_terminal", "content": "exitcode: 1 (execution failed)\nCode output: ZeroDivisionError"},
    ]}
    path = tmp_path / "ag2.json"
    path.write_text(json.dumps(doc))
    (loaded,) = load_file(path).traces
    call = loaded.trace.events[1]
    assert isinstance(call, ToolCall) and call.exit_code == 1 and call.status == "error" and call.agent == "Coder"


def test_magentic_one_roles_become_addressed_messages() -> None:
    (loaded,) = load_file(FIXTURES / "magentic_one.json").traces
    assert loaded.format == "magentic-one"
    events = [e for e in loaded.trace.events if isinstance(e, Message)]
    assert (events[2].sender, events[2].recipients) == ("Orchestrator", ["WebSurfer"])
    assert (events[3].sender, events[3].recipients) == ("WebSurfer", ["Orchestrator"])
    edge_set = build_edges(loaded.trace)
    assert edge_set.skipped_by_reason() == {"from_human": 1, "self_addressed": 2, "to_human": 1}
    assert [e.id for e in edge_set.edges][0] == "magentic-synthetic-1/step-2->WebSurfer"


def test_forced_format_that_does_not_match_is_a_clear_error() -> None:
    result = load_file(EXAMPLES / "incident-webhook.json", format="ag2")
    assert result.traces == []
    (error,) = result.errors
    assert "incident-webhook.json" in str(error) and "forced format 'ag2'" in str(error)


def test_unknown_forced_format_name_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown trace format 'zipkin'"):
        load_paths([EXAMPLES], format="zipkin")


def test_native_ids_are_stable_and_assigned_when_missing() -> None:
    first = load_file(EXAMPLES / "travel-and-ops.jsonl").traces
    second = load_file(EXAMPLES / "travel-and-ops.jsonl").traces
    ids = [[e.id for e in t.trace.events] for t in first]
    assert ids == [[e.id for e in t.trace.events] for t in second]
    assert ids[0] == ["ev-0000", "ev-0001"]
    assert [t.line for t in first] == [1, 2]

"""Evidence in the Who&When importers: the AG2 task as a human input, Magentic-One transcripts as
observation tool calls, the ComputerTerminal as code execution, capture per agent, and clean
errors for malformed documents."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT

from auditor.config import AuditConfig, load_config
from auditor.edges import Edge, EdgeSet, build_edges
from auditor.errors import TraceError
from auditor.trace import Message, ToolCall, Trace, load_file, load_paths
from auditor.trace.formats import get_format

DATASETS = ROOT.parent / "shared" / "datasets"
MAGENTIC = FIXTURES / "magentic_one" / "47.json"
_MARKER = re.compile(r"^(?:Here is a screenshot of|Automatic OCR of the page screenshot|Viewport position:)", re.M)


def _load(path: Path) -> Trace:
    (loaded,) = load_file(path).traces
    return loaded.trace


def _write(tmp_path: Path, doc: Any, name: str = "doc.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def _edge(edge_set: EdgeSet, event_id: str) -> Edge:
    (edge,) = [e for e in edge_set.edges if e.message.id == event_id]
    return edge


def _event(trace: Trace, event_id: str) -> Message | ToolCall:
    (event,) = [e for e in trace.events if e.id == event_id]
    assert isinstance(event, Message | ToolCall)
    return event


# AG2: the task is a pipeline input from a human task giver

def test_ag2_task_becomes_a_human_input_not_an_edge() -> None:
    trace = _load(FIXTURES / "whowhen" / "1.json")
    task = _event(trace, "step-0")
    assert isinstance(task, Message) and (task.sender, task.recipients) == ("task", "*")
    assert task.content.startswith("You are given: (1) a task")
    assert trace.agents_by_name()["task"].kind == "human"
    edge_set = build_edges(trace)
    assert "step-0" not in {e.message.id for e in edge_set.edges}
    assert [s.reason for s in edge_set.skipped if s.event_id == "step-0"] == ["from_human"]


def test_ag2_task_text_is_upstream_of_every_edge() -> None:
    for name in ("1.json", "10.json", "25.json"):
        edge_set = build_edges(_load(FIXTURES / "whowhen" / name))
        assert edge_set.edges, name
        for edge in edge_set.edges:
            task = [item for item in edge.upstream if item.event_id == "step-0"]
            assert task and task[0].author == "task" and "# General Task" in task[0].text, edge.id


@pytest.mark.parametrize(("first", "question", "is_task"), [
    ("Please solve: how many moons does Mars have? Answer with a number.", "how many moons does Mars have?", True),
    ("You are given: (1) a task and advises from your manager with a specific plan and (2) a general task.\n"
     "# General Task\nexitcode: 1 (execution failed)\n# Task and suggestions from manager\n## Task description\n"
     "Count the moons.", "How many moons does Mars have?", True),
    ("I will start by loading the data.", "How many moons does Mars have?", False),
])
def test_ag2_task_is_found_by_the_question_or_the_framework_preamble(
        tmp_path: Path, first: str, question: str, is_task: bool) -> None:
    doc = {"question": question, "history": [
        {"role": "assistant", "name": "Planner", "content": first},
        {"role": "assistant", "name": "Solver", "content": "Mars has 2 moons."},
    ]}
    trace = _load(_write(tmp_path, doc))
    assert _event(trace, "step-0").sender == ("task" if is_task else "Planner")  # type: ignore[union-attr]
    assert ("step-0" in {e.message.id for e in build_edges(trace).edges}) is not is_task


def test_ag2_task_giver_name_does_not_take_an_agents_name(tmp_path: Path) -> None:
    doc = {"question": "Q?", "history": [
        {"name": "task", "content": "Q? Solve it."}, {"name": "Solver", "content": "Done."}]}
    trace = _load(_write(tmp_path, doc))
    assert _event(trace, "step-0").sender == "task-2"  # type: ignore[union-attr]


def test_ag2_code_from_the_task_runs_as_the_task_givers_code_execution() -> None:
    trace = _load(FIXTURES / "whowhen" / "1.json")
    call = _event(trace, "step-1")
    assert isinstance(call, ToolCall)
    assert (call.agent, call.tool, call.recorded_as, call.exit_code, call.status) == (
        "task", "code_execution", "chat_message", 0, "ok")
    assert call.arguments and "pd.read_excel" in call.arguments["code"]  # type: ignore[index]
    assert all(a.capture == "complete" for a in trace.agents)


def test_ag2_browser_transcript_is_an_observation_and_its_author_partial(tmp_path: Path) -> None:
    page = ("Address: bing: Mars moons\nTitle: Mars moons - Search\nViewport position: Showing page 1 of 1.\n"
            "=======================\nA Bing search for 'Mars moons' found 10 results:\n1. Phobos and Deimos")
    doc = {"question": "How many moons?", "history": [
        {"name": "Planner", "content": "How many moons? Find out."},
        {"name": "WebServing_Expert", "content": page},
        {"name": "Checker", "content": "Phobos and Deimos: 2 moons."}]}
    trace = _load(_write(tmp_path, doc))
    observation = _event(trace, "step-1.observation")
    assert isinstance(observation, ToolCall) and observation.result == page and observation.tool == "web_browser"
    assert [e.id for e in trace.events] == ["step-0", "step-1.observation", "step-1", "step-2"]
    captures = {a.name: a.capture for a in trace.agents}
    assert captures == {"task": "complete", "WebServing_Expert": "partial", "Checker": "complete"}
    edge_set = build_edges(trace)
    assert _edge(edge_set, "step-1").capture == "partial" and _edge(edge_set, "step-2").capture == "complete"


# Magentic-One: transcripts are observations, the terminal is code execution

def test_websurfer_message_yields_an_observation_in_its_own_upstream_and_stays_an_edge() -> None:
    trace = _load(MAGENTIC)
    ids = [e.id for e in trace.events]
    assert ids.index("step-4.observation") == ids.index("step-4") - 1
    observation = _event(trace, "step-4.observation")
    message = _event(trace, "step-4")
    assert isinstance(observation, ToolCall) and isinstance(message, Message)
    assert (observation.agent, observation.tool, observation.recorded_as, observation.visible_to) == (
        "WebSurfer", "web_browser", "observation", [])
    assert observation.arguments == {"action": "I typed 'World Bank data on gross savings as a percentage of GDP "
                                               "by country from 2001 to 2010' into '0 characters out of 2000'."}
    assert observation.result is not None and observation.result.startswith("Here is a screenshot of [World Bank")
    assert "About 15,200 results" in observation.result and observation.result.endswith("<Image>")
    assert observation.result in message.content and message.content.startswith("I typed")

    edge_set = build_edges(trace)
    edge = _edge(edge_set, "step-4")
    assert (edge.source, edge.destination) == ("WebSurfer", "Orchestrator")
    evidence = [item for item in edge.upstream if item.event_id == "step-4.observation"]
    assert evidence and evidence[0].tool_call is observation
    assert any("About 15,200 results" in text for _, _, text in evidence[0].fields())
    later = _edge(edge_set, "step-6")
    assert "step-4.observation" not in {i.event_id for i in later.upstream}
    assert "step-4" in {i.event_id for i in later.upstream}


def test_filesurfer_page_and_error_are_observations() -> None:
    trace = _load(MAGENTIC)
    page = _event(trace, "step-20.observation")
    assert isinstance(page, ToolCall)
    assert (page.agent, page.tool, page.status, page.arguments) == ("FileSurfer", "file_viewer", "ok", None)
    assert page.result is not None and page.result.startswith("Address: file:///workspace\n")
    assert "Index of /workspace" in page.result
    error = _event(trace, "step-16.observation")
    assert isinstance(error, ToolCall) and error.status == "error"
    assert error.result is not None and error.result.startswith("File surfer encountered an error")
    edge = _edge(build_edges(trace), "step-20")
    assert edge.source == "FileSurfer" and "step-20.observation" in {i.event_id for i in edge.upstream}


def test_computer_terminal_output_is_code_execution_with_its_exit_status() -> None:
    trace = _load(MAGENTIC)
    no_code, unzip, script = (_event(trace, f"step-{i}") for i in (48, 55, 63))
    assert isinstance(no_code, ToolCall) and (no_code.exit_code, no_code.status) == (None, "unknown")
    assert isinstance(unzip, ToolCall) and (unzip.agent, unzip.exit_code, unzip.status) == ("Orchestrator", 0, "ok")
    assert unzip.arguments == {"request": "unzip /workspace/API_NY.GDS.TOTL.ZS_DS2_en_csv_v2_1020.zip -d "
                                          "/workspace/unzipped_data"}
    assert isinstance(script, ToolCall)
    assert (script.agent, script.tool, script.recorded_as, script.exit_code, script.status, script.visible_to) == (
        "Assistant", "code_execution", "chat_message", 0, "ok", ["Orchestrator"])
    assert script.arguments and "process_savings_data.py" in script.arguments["code"]  # type: ignore[index]
    assert trace.agents_by_name()["ComputerTerminal"].kind == "tool"
    edge_set = build_edges(trace)
    assert {s.event_id: s.reason for s in edge_set.skipped}["step-63"] == "tool_output"
    assert not [e for e in edge_set.edges if e.destination == "ComputerTerminal"]
    assert "step-55" in {i.event_id for i in _edge(edge_set, "step-57").upstream}


@pytest.mark.parametrize(("output", "exit_code", "status"), [
    ("The script ran, then exited with an error (POSIX exit code: 1)\nIts output was:\nTraceback ...", 1, "error"),
    ("The script ran, then exited with Unix exit code: 0\nIts output was:\n42", 0, "ok"),
    ("The script ran but produced no output to console. The Unix exit code was: 0. If you were expecting output, "
     "consider revising the script to ensure content is printed to stdout.", 0, "ok"),
    ("The script ran but produced no output to console. The POSIX exit code was: 2.", 2, "error"),
    ("An exception occurred while executing the code block: timeout", None, "error"),
    ("No code block detected in the messages. Please provide a markdown-encoded code block.", None, "unknown"),
])
def test_terminal_exit_status_shapes(tmp_path: Path, output: str, exit_code: int | None, status: str) -> None:
    doc = {"history": [
        {"role": "human", "content": "Compute 6*7."},
        {"role": "Orchestrator (-> Assistant)", "content": "Write the script."},
        {"role": "Assistant", "content": "```python\nprint(6*7)\n```"},
        {"role": "Orchestrator (-> ComputerTerminal)", "content": "Run it."},
        {"role": "ComputerTerminal", "content": output},
    ]}
    call = _event(_load(_write(tmp_path, doc)), "step-4")
    assert isinstance(call, ToolCall) and (call.agent, call.exit_code, call.status) == ("Assistant", exit_code, status)
    assert call.arguments == {"code": "print(6*7)\n"}


def test_runtime_traceback_is_kept_with_the_transcript_and_prose_stays_message_only(tmp_path: Path) -> None:
    websurfer = ("I clicked 'Prices'.\n\nHere is a screenshot of [Prices](https://example.org/p). The viewport shows "
                 "40% of the webpage, and is positioned at the top of the page.\nAutomatic OCR of the page screenshot "
                 "has detected the following text:\n\nTea 3.50\n<Image>\nError processing publish message\n"
                 "Traceback (most recent call last):\n  File \"x.py\", line 410, in f\nValueError: boom")
    summary = "The page lists tea at 3.50 and coffee at 4.10."
    doc = {"history": [{"role": "human", "content": "Price of tea?"},
                       {"role": "Orchestrator (-> WebSurfer)", "content": "Open the prices page."},
                       {"role": "WebSurfer", "content": websurfer},
                       {"role": "Orchestrator (-> WebSurfer)", "content": "Summarize the page."},
                       {"role": "WebSurfer", "content": summary}]}
    trace = _load(_write(tmp_path, doc))
    observation = _event(trace, "step-2.observation")
    assert isinstance(observation, ToolCall) and observation.arguments == {"action": "I clicked 'Prices'."}
    assert observation.result is not None and observation.result.endswith("Tea 3.50\n<Image>")
    runtime = _event(trace, "step-2.runtime")
    assert isinstance(runtime, ToolCall) and (runtime.tool, runtime.status, runtime.recorded_as) == (
        "agent_runtime", "error", "observation")
    assert runtime.result is not None and runtime.result.startswith("Error processing publish message\nTraceback")
    assert runtime.result.endswith("ValueError: boom")
    assert [e.id for e in trace.events if e.id.startswith("step-4")] == ["step-4"]
    assert _event(trace, "step-4").content == summary  # type: ignore[union-attr]
    edge = _edge(build_edges(trace), "step-2")
    assert {"step-2.observation", "step-2.runtime"} <= {i.event_id for i in edge.upstream}


def test_a_runtime_warning_inside_an_instruction_is_not_the_orchestrators_words(tmp_path: Path) -> None:
    warning = ("/usr/local/lib/python3.11/site-packages/autogen_magentic_one/agents/orchestrator.py:216: "
               "UserWarning: Resolved model mismatch: a != b.\n  ledger_response = await self._model_client.create(")
    doc = {"history": [{"role": "human", "content": "Find the museum."},
                       {"role": "Orchestrator (-> WebSurfer)", "content": f"Search for the museum.\n{warning}"}]}
    trace = _load(_write(tmp_path, doc))
    runtime = _event(trace, "step-1.runtime")
    assert isinstance(runtime, ToolCall) and runtime.result == warning and runtime.status == "unknown"
    assert "step-1.observation" not in {e.id for e in trace.events}
    assert "step-1.runtime" in {i.event_id for i in _edge(build_edges(trace), "step-1").upstream}


# Capture: partial for the browsing agents, complete for the others; the config overrides it

def test_edge_capture_is_partial_for_websurfer_and_filesurfer_complete_for_the_orchestrator() -> None:
    edge_set = build_edges(_load(MAGENTIC))
    by_source: dict[str, set[str]] = {}
    for edge in edge_set.edges:
        by_source.setdefault(edge.source, set()).add(edge.capture)
    assert by_source == {"Orchestrator": {"complete"}, "WebSurfer": {"partial"}, "FileSurfer": {"partial"},
                         "Assistant": {"complete"}}


def test_config_evidence_capture_overrides_the_format_default(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    config_path = tmp_path / "edge-audit.yaml"
    config_path.write_text("evidence:\n  capture:\n    WebSurfer: complete\n    Orchestrator: partial\n")
    config = load_config(config_path)
    edge_set = build_edges(_load(MAGENTIC), config.evidence.capture)
    captures = {(e.source, e.capture) for e in edge_set.edges}
    assert ("WebSurfer", "complete") in captures and ("Orchestrator", "partial") in captures
    assert ("FileSurfer", "partial") in captures and ("Orchestrator", "complete") not in captures

    import auditor.passes._runner as audit_module
    from auditor import audit

    seen: list[tuple[str, str]] = []

    def spy(trace: Trace, capture: Any = None) -> EdgeSet:
        result = build_edges(trace, capture)
        seen.extend((e.source, e.capture) for e in result.edges)
        return result

    monkeypatch.setattr(audit_module, "build_edges", spy)
    audit([MAGENTIC], AuditConfig(checks=[], evidence=config.evidence))
    assert ("WebSurfer", "complete") in seen and ("Orchestrator", "partial") in seen


# Malformed documents: a clean error naming the place, never a crash

MALFORMED = {
    "history-not-list": ({"history": {"a": 1}}, "ag2", "history: expected a list"),
    "item-not-object": ({"history": [{"name": "A", "content": "hi"}, 7]}, "ag2", "history[1]: expected an object"),
    "content-not-text": ({"history": [{"name": "A", "content": {"x": 1}}]}, "ag2", "history[0].content: expected text"),
    "content-part": ({"history": [{"name": "A", "content": [{"text": 5}]}]}, "ag2", "history[0].content[0]"),
    "role-not-string": ({"history": [{"role": ["x"], "content": "hi"}]}, "ag2", "history[0].role: expected a string"),
    "name-not-string": ({"history": [{"name": 3, "content": "hi"}]}, "ag2", "history[0].name: expected a string"),
    "no-speaker": ({"history": [{"name": "", "content": "hi"}]}, "ag2", "history[0]: has neither a name nor a role"),
    "system-prompt": ({"history": [{"name": "A", "content": "hi"}], "system_prompt": ["p"]}, "ag2", "system_prompt"),
    "question": ({"question": 5, "history": [{"name": "A", "content": "hi"}]}, "ag2", "question: expected a string"),
    "m1-item": ({"history": [{"role": "Orchestrator (-> WebSurfer)", "content": "go"}, "x"]}, "magentic-one",
                "history[1]: expected an object"),
    "m1-content": ({"history": [{"role": "Orchestrator (-> WebSurfer)", "content": 12}]}, "magentic-one",
                   "history[0].content: expected text"),
    "m1-role": ({"history": [{"role": "Orchestrator (-> WebSurfer)", "content": "go"},
                             {"role": 4, "content": "x"}]}, "magentic-one", "history[1].role: expected a string"),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_documents_give_a_clean_error_naming_the_place(tmp_path: Path, case: str) -> None:
    doc, fmt, expected = MALFORMED[case]
    convert = get_format(fmt).convert
    assert convert is not None
    with pytest.raises(ValueError, match=expected.replace("[", r"\[").replace("]", r"\]")):
        convert(doc, "x")
    path = _write(tmp_path, doc, f"{case}.json")
    result = load_file(path, format=fmt) if get_format(fmt).detect(doc) else load_file(path)
    assert result.traces == []
    (error,) = result.errors
    assert isinstance(error, TraceError) and path.name in str(error)
    if get_format(fmt).detect(doc):
        assert expected in str(error), str(error)


# The shared Who&When logs (absent from a fresh clone)

@pytest.mark.skipif(not DATASETS.is_dir(), reason="shared/datasets is not beside this checkout")
def test_every_shared_who_and_when_log_imports_and_no_transcript_is_left_in_a_bare_message() -> None:
    folders = [DATASETS / "whowhen-algorithm-generated", DATASETS / "whowhen-hand-crafted-sample"]
    result = load_paths([f for f in folders if f.is_dir()])
    assert [e.describe() for e in result.errors] == []
    observations = 0
    for loaded in result.traces:
        trace = loaded.trace
        ids = {e.id for e in trace.events}
        for event in trace.events:
            if isinstance(event, Message) and event.sender not in ("task", "human", "Orchestrator"):
                has_marker = _MARKER.search(event.content) is not None
                assert not has_marker or f"{event.id}.observation" in ids, (loaded.path, event.id)
            if isinstance(event, ToolCall) and event.recorded_as == "observation":
                observations += 1
        if loaded.format == "ag2":
            first = trace.events[0]
            assert isinstance(first, Message) and first.sender == "task", loaded.path
        edge_set = build_edges(trace)
        accounted = len({e.message.id for e in edge_set.edges}) + len(edge_set.skipped)
        assert accounted == edge_set.source_messages, loaded.path
    assert observations > 0

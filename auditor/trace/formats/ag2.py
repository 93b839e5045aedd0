"""AG2 / AutoGen group-chat logs (Who&When's Algorithm-Generated set, CaptainAgent).

``{"question", "history": [{"content", "role", "name"}], "system_prompt": {agent: prompt}, ...}``:

* every chat message is a broadcast: in a group chat everyone sees everything;
* **the task is a pipeline input.** AG2 logs the task as the first history message, under the
  name of the agent that opened the chat ("You are given: (1) a task and advises from your
  manager ... # General Task ... # Task and suggestions from manager ..."). That text was given to
  the chat, not written by that agent, so when the first message carries the document's
  ``question`` or has that framework preamble, it becomes a broadcast message from a human task
  giver (an agent of kind ``human`` named ``task``): it is not an edge, and it is upstream
  evidence and a constraint source for every agent;
* a ``Computer_terminal`` message is the output of running the code in the most recent message
  of another speaker. It becomes a ``tool_call`` event of that speaker (tool
  ``code_execution``, the code blocks of that message as ``arguments.code``), visible to
  everyone, ``recorded_as: chat_message``, with the exit code and status parsed from its
  ``exitcode: N (execution succeeded|failed)`` line (status ``unknown`` for other shapes, such
  as "There is no code from the last 1 message for me to execute");
* a message that is a browser transcript (an expert such as ``WebServing_Expert`` pasting the
  page it fetched: ``Address: ...`` / ``Title: ...`` / ``Viewport position: ...`` and the page text;
  the shapes are those of ``_transcripts``) also yields an ``observation`` tool call of its sender
  (id ``step-<i>.observation``, placed just before the message, which stays a broadcast), and that
  agent's observation capture is ``partial``: it browses through a tool whose steps the log does
  not keep. Runtime log lines inside a message are an ``agent_runtime`` call of the sender (id
  ``step-<i>.runtime``), not its words. Every other agent's capture is ``complete``: its only tool is code execution, which the
  log records;
* event ids are ``step-<index>``, the index into ``history`` (Who&When's ``mistake_step``
  therefore names an event id directly).
"""

from __future__ import annotations

import re
from typing import Any

from .._model import Trace
from ._registry import TraceFormat, register_format
from ._transcripts import observation_call, runtime_call
from ._whowhen import (
    checked_history,
    code_of,
    content_of,
    history_of,
    is_magentic,
    metadata_of,
    text_field,
    trace_id_of,
    unused_name,
)

TERMINAL_NAMES = frozenset({"Computer_terminal", "computer_terminal"})
TASK_GIVER = "task"
_EXITCODE = re.compile(r"^\s*exitcode:\s*(-?\d+)\s*\(execution (succeeded|failed)\)", re.IGNORECASE)
#: The preamble AG2's CaptainAgent writes when it hands a task to a group of experts.
_TASK_PREAMBLE = re.compile(
    r"\A\s*You are given: \(1\) a task and advises from your manager"
    r"|^# General Task\s*$.*^# Task and suggestions from manager\s*$",
    re.MULTILINE | re.DOTALL,
)


def _looks_like_message(item: Any) -> bool:
    return isinstance(item, dict) and "content" in item and ("name" in item or "role" in item)


def _detect(document: Any) -> bool:
    history = history_of(document)
    if history is None or is_magentic(history):
        return False
    return not history or any(_looks_like_message(item) for item in history)


def is_task_message(text: str, question: str | None) -> bool:
    """Whether a first history message hands the task to the chat: it contains the document's
    question, or it has the framework's task preamble."""
    if question and question.strip() and question.strip() in text:
        return True
    return bool(_TASK_PREAMBLE.search(text))


def _speaker(item: dict[str, Any], index: int) -> str:
    name = text_field(item, "name", index) or text_field(item, "role", index)
    if not name.strip():
        raise ValueError(f"history[{index}]: has neither a name nor a role")
    return name


def _system_prompts(document: dict[str, Any]) -> dict[str, str | None]:
    prompts = document.get("system_prompt")
    if prompts is None:
        return {}
    if not isinstance(prompts, dict):
        raise ValueError(f"system_prompt: expected an object of agent name to prompt, got {type(prompts).__name__}")
    for name, prompt in prompts.items():
        if prompt is not None and not isinstance(prompt, str):
            raise ValueError(f"system_prompt[{name!r}]: expected a string, got {type(prompt).__name__}")
    return dict(prompts)


def _terminal_call(event_id: str, text: str, author: str | None, author_text: str, fallback: str) -> dict[str, Any]:
    match = _EXITCODE.match(text)
    status = "unknown" if match is None else ("ok" if match.group(2).lower() == "succeeded" else "error")
    code = code_of(author_text)
    return {
        "type": "tool_call", "id": event_id, "agent": author or fallback, "tool": "code_execution",
        "arguments": {"code": code} if code is not None else None, "result": text,
        "exit_code": int(match.group(1)) if match else None, "status": status, "visible_to": "*",
        "recorded_as": "chat_message",
    }


def _convert(document: Any, name_hint: str) -> Trace:
    history = checked_history(document)
    metadata = metadata_of(document, "ag2")
    agents: dict[str, dict[str, Any]] = {
        name: {"name": name, "system_prompt": prompt} for name, prompt in _system_prompts(document).items()
    }
    speakers = [_speaker(item, index) for index, item in enumerate(history)]
    events: list[dict[str, Any]] = []
    last_author: str | None = None
    last_text = ""
    for index, (item, name) in enumerate(zip(history, speakers, strict=True)):
        text = content_of(item, index)
        event_id = f"step-{index}"
        if name in TERMINAL_NAMES:
            agents.setdefault(name, {"name": name, "kind": "tool"})
            events.append(_terminal_call(event_id, text, last_author, last_text, name))
            continue
        if index == 0 and is_task_message(text, metadata["task"]):
            name = unused_name(TASK_GIVER, set(agents) | set(speakers))
            agents[name] = {"name": name, "kind": "human"}
        agents.setdefault(name, {"name": name})
        last_author, last_text = name, text
        observation = observation_call(event_id, name, text) if agents[name].get("kind") != "human" else None
        if observation is not None:
            agents[name]["capture"] = "partial"
            events.append(observation)
        runtime = runtime_call(event_id, name, text) if agents[name].get("kind") != "human" else None
        if runtime is not None:
            events.append(runtime)
        events.append({"type": "message", "id": event_id, "sender": name, "recipients": "*", "content": text})
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": trace_id_of(document, name_hint), "metadata": metadata,
        "agents": list(agents.values()), "events": events,
    })


AG2 = register_format(TraceFormat(
    name="ag2", registry_name="edge-audit.format.ag2.v1", detect=_detect, convert=_convert,
    description="AG2 / AutoGen group-chat log (Who&When): {history: [{content, role, name}], system_prompt}",
))

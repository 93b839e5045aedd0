"""AG2 / AutoGen group-chat logs (Who&When style) and Magentic-One logs.

Both arrive as one JSON object with a ``history`` list of chat messages.

AG2 (``{"history": [{"content", "role", "name"}], "system_prompt": {...}, ...}``):
  * every chat message is a broadcast: in a group chat everyone sees everything;
  * a ``Computer_terminal`` message is the output of running the code in the most
    recent message of another agent. It becomes a ``tool_call`` event of that agent
    (tool ``code_execution``, the code blocks of that message as ``arguments.code``),
    visible to everyone, with the exit code and status parsed from its
    ``exitcode: N (execution succeeded|failed)`` line;
  * event ids are ``step-<index>``, the index into ``history`` (Who&When's
    ``mistake_step`` therefore names an event id directly).

Magentic-One (roles such as ``Orchestrator (-> WebSurfer)``):
  * ``X (-> Y)`` is a message from X to Y;
  * ``X (thought)`` and ``X (termination condition)`` are X's notes to itself;
  * ``X (final answer)`` goes to the human;
  * a plain role ``Y`` is Y's reply to the orchestrator; ``human``/``user`` is the task giver.
"""

from __future__ import annotations

import re
from typing import Any

from .._model import Trace
from ._registry import TraceFormat, register_format

TERMINAL_NAMES = frozenset({"Computer_terminal", "computer_terminal"})
_CODE_BLOCK = re.compile(r"```[\w+-]*\n(.*?)```", re.DOTALL)
_EXITCODE = re.compile(r"^\s*exitcode:\s*(-?\d+)\s*\(execution (succeeded|failed)\)", re.IGNORECASE)
_MAGENTIC_ROLE = re.compile(r"^(?P<agent>[^()]+?)\s*\((?:->\s*(?P<to>[^()]+?)|(?P<note>[a-z ]+))\)\s*$")
_HUMAN_NAMES = frozenset({"human", "user"})


def _history(document: Any) -> list[Any] | None:
    history = document.get("history") if isinstance(document, dict) else None
    return history if isinstance(history, list) else None


def _speaker(item: dict[str, Any]) -> str:
    return str(item.get("name") or item.get("role") or "")


def _is_magentic(history: list[Any]) -> bool:
    return any(
        isinstance(item, dict) and _MAGENTIC_ROLE.match(str(item.get("role", ""))) for item in history
    )


def _detect_ag2(document: Any) -> bool:
    history = _history(document)
    if history is None or _is_magentic(history):
        return False
    return all(isinstance(item, dict) and "content" in item and ("name" in item or "role" in item)
               for item in history)


def _detect_magentic(document: Any) -> bool:
    history = _history(document)
    return history is not None and _is_magentic(history)


def _metadata(document: dict[str, Any], source: str) -> dict[str, Any]:
    labels = {
        key: document[key]
        for key in ("question_ID", "level", "ground_truth", "mistake_agent", "mistake_step", "mistake_reason")
        if key in document
    }
    score = None
    if isinstance(document.get("is_correct"), bool):
        score = 1.0 if document["is_correct"] else 0.0
    return {"source": source, "task": document.get("question"), "score": score, "labels": labels}


def _content(item: dict[str, Any]) -> str:
    content = item.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) if isinstance(part, dict) else str(part) for part in content)
    raise ValueError(f"content must be text, got {type(content).__name__}")


def _convert_ag2(document: Any, name_hint: str) -> Trace:
    history = _history(document) or []
    prompts = document.get("system_prompt") if isinstance(document.get("system_prompt"), dict) else {}
    agents: dict[str, dict[str, Any]] = {}
    for name, prompt in prompts.items():
        agents[name] = {"name": name, "system_prompt": prompt if isinstance(prompt, str) else None}
    events: list[dict[str, Any]] = []
    last_author: str | None = None
    last_text = ""
    for index, item in enumerate(history):
        if not isinstance(item, dict):
            raise ValueError(f"history[{index}] must be an object, got {type(item).__name__}")
        name = _speaker(item)
        if not name:
            raise ValueError(f"history[{index}] has neither a name nor a role")
        text = _content(item)
        event_id = f"step-{index}"
        if name in TERMINAL_NAMES:
            agents.setdefault(name, {"name": name, "kind": "tool"})
            match = _EXITCODE.match(text)
            exit_code = int(match.group(1)) if match else None
            status = "unknown" if match is None else ("ok" if match.group(2).lower() == "succeeded" else "error")
            events.append({
                "type": "tool_call", "id": event_id, "agent": last_author or name, "tool": "code_execution",
                "arguments": {"code": "\n".join(_CODE_BLOCK.findall(last_text))} if _CODE_BLOCK.search(last_text) else None,
                "result": text, "exit_code": exit_code, "status": status, "visible_to": "*",
                "recorded_as": "chat_message",
            })
            continue
        agents.setdefault(name, {"name": name})
        last_author, last_text = name, text
        events.append({"type": "message", "id": event_id, "sender": name, "recipients": "*", "content": text})
    trace_id = str(document.get("question_ID") or name_hint)
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": trace_id, "metadata": _metadata(document, "ag2"),
        "agents": list(agents.values()), "events": events,
    })


def _convert_magentic(document: Any, name_hint: str) -> Trace:
    history = _history(document) or []
    agents: dict[str, dict[str, Any]] = {}
    events: list[dict[str, Any]] = []
    orchestrator = "Orchestrator"
    for item in history:
        match = _MAGENTIC_ROLE.match(str(item.get("role", ""))) if isinstance(item, dict) else None
        if match and match.group("to"):
            orchestrator = match.group("agent").strip()
            break
    for index, item in enumerate(history):
        if not isinstance(item, dict):
            raise ValueError(f"history[{index}] must be an object, got {type(item).__name__}")
        role = str(item.get("role") or item.get("name") or "")
        if not role:
            raise ValueError(f"history[{index}] has no role")
        text = _content(item)
        match = _MAGENTIC_ROLE.match(role)
        recipients: list[str] | str
        if match:
            sender = match.group("agent").strip()
            if match.group("to"):
                recipients = [match.group("to").strip()]
            elif (match.group("note") or "").strip() == "final answer":
                recipients = ["human"]
                agents.setdefault("human", {"name": "human", "kind": "human"})
            else:
                recipients = [sender]
        elif role.lower() in _HUMAN_NAMES:
            sender = role
            agents.setdefault(role, {"name": role, "kind": "human"})
            recipients = "*"
        else:
            sender = role
            recipients = [orchestrator]
        agents.setdefault(sender, {"name": sender})
        if isinstance(recipients, list):
            for name in recipients:
                agents.setdefault(name, {"name": name})
        events.append({"type": "message", "id": f"step-{index}", "sender": sender,
                       "recipients": recipients, "content": text})
    trace_id = str(document.get("question_ID") or name_hint)
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": trace_id, "metadata": _metadata(document, "magentic-one"),
        "agents": list(agents.values()), "events": events,
    })


AG2 = register_format(TraceFormat(
    name="ag2", registry_name="edge-audit.format.ag2.v1", detect=_detect_ag2, convert=_convert_ag2,
    description="AG2 / AutoGen group-chat log (Who&When): {history: [{content, role, name}], system_prompt}",
))
MAGENTIC_ONE = register_format(TraceFormat(
    name="magentic-one", registry_name="edge-audit.format.magentic-one.v1", detect=_detect_magentic,
    convert=_convert_magentic,
    description='Magentic-One log: {history: [{content, role}]} with roles like "Orchestrator (-> WebSurfer)"',
))

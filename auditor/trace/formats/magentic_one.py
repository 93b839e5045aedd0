"""Magentic-One logs (Who&When's Hand-Crafted set): ``{"question", "history": [{"content", "role"}]}``
with roles such as ``Orchestrator (-> WebSurfer)``.

Roles:
  * ``X (-> Y)`` is a message from X to Y;
  * ``X (thought)`` and ``X (termination condition)`` are X's notes to itself;
  * ``X (final answer)`` goes to the human;
  * a plain role ``Y`` is Y's reply to the orchestrator; ``human``/``user`` is the task giver
    (kind ``human``, a broadcast: a pipeline input, not an edge).

Evidence (see ``_transcripts`` for the shapes recognised):
  * a reply that transcribes an observation (WebSurfer's screenshot, metadata and OCR; FileSurfer's
    ``Address: ... Viewport position:`` page) is split: an ``observation`` tool call of that agent
    (tool ``web_browser``, or ``file_viewer`` for an agent whose name says file; ``arguments``
    ``{"action": <the action it reports>}``; ``result`` the transcript; ``recorded_as:
    observation``; id ``step-<i>.observation``; visible to the agent only) placed immediately
    before the message ``step-<i>``, which keeps its whole content and stays an edge to the
    orchestrator;
  * the runtime's own log lines inside a message (Python warnings, "Error processing publish
    message" tracebacks) are an ``agent_runtime`` call of the sender (id ``step-<i>.runtime``,
    ``recorded_as: observation``), not its words;
  * a ``ComputerTerminal`` reply is the output of running code: a ``code_execution`` tool call
    (``recorded_as: chat_message``, id ``step-<i>``) of the author of the most recent message it
    could see that has a fenced code block (``arguments.code``), or, when none has, of the agent
    that last addressed the terminal (``arguments.request``: its words), visible to whoever saw
    that message; exit code and status are parsed from the output. The terminal itself is an
    agent of kind ``tool``, so instructions to it are not edges.

Observation capture: WebSurfer, FileSurfer and any agent whose replies carry transcripts are
``partial`` (the transcript is evidence, but they also read what the log does not keep: text
outside the viewport, whole pages they summarise); the orchestrator and the Assistant are
``complete``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._model import BROADCAST, Trace
from ._registry import TraceFormat, register_format
from ._transcripts import execution_status, observation_call, runtime_call
from ._whowhen import (
    MAGENTIC_ROLE,
    checked_history,
    code_of,
    content_of,
    history_of,
    is_magentic,
    metadata_of,
    text_field,
    trace_id_of,
)

HUMAN_NAMES = frozenset({"human", "user"})
TERMINAL_NAMES = frozenset({"ComputerTerminal", "Computer_terminal", "computer_terminal"})
#: Magentic-One's own browsing agents: partial capture even in a log where they only summarise.
BROWSING_AGENTS = frozenset({"WebSurfer", "FileSurfer"})


def _detect(document: Any) -> bool:
    history = history_of(document)
    return history is not None and is_magentic(history)


@dataclass(frozen=True)
class _Said:
    """A message the terminal could see: who wrote it, to whom, and its code if any."""

    sender: str
    recipients: list[str] | str
    code: str | None
    text: str


def _orchestrator(history: list[dict[str, Any]]) -> str:
    for item in history:
        role = item.get("role")
        match = MAGENTIC_ROLE.match(role) if isinstance(role, str) else None
        if match and match.group("to"):
            return match.group("agent").strip()
    return "Orchestrator"


def _route(role: str, orchestrator: str) -> tuple[str, list[str] | str]:
    """Sender and recipients of a role."""
    match = MAGENTIC_ROLE.match(role)
    if match is None:
        return role, (BROADCAST if role.lower() in HUMAN_NAMES else [orchestrator])
    sender = match.group("agent").strip()
    if match.group("to"):
        return sender, [match.group("to").strip()]
    if (match.group("note") or "").strip() == "final answer":
        return sender, ["human"]
    return sender, [sender]


def _terminal_call(event_id: str, name: str, output: str, said: list[_Said]) -> dict[str, Any]:
    source = next((s for s in reversed(said) if s.code is not None), None)
    arguments: dict[str, str] | None = {"code": source.code} if source and source.code is not None else None
    if source is None:
        source = next((s for s in reversed(said) if isinstance(s.recipients, list) and name in s.recipients), None)
        arguments = {"request": source.text} if source else None
    agent = source.sender if source else name
    visible: list[str] | str = []
    if source is not None:
        requester = next((s.sender for s in reversed(said) if isinstance(s.recipients, list)
                          and name in s.recipients), None)
        visible = BROADCAST if source.recipients == BROADCAST else [
            n for n in dict.fromkeys([*source.recipients, *([requester] if requester else [])])
            if n not in (agent, name)]
    exit_code, status = execution_status(output)
    return {"type": "tool_call", "id": event_id, "agent": agent, "tool": "code_execution",
            "arguments": arguments, "result": output, "exit_code": exit_code, "status": status,
            "visible_to": visible, "recorded_as": "chat_message"}


def _convert(document: Any, name_hint: str) -> Trace:
    history = checked_history(document)
    metadata = metadata_of(document, "magentic-one")
    orchestrator = _orchestrator(history)
    agents: dict[str, dict[str, Any]] = {}
    events: list[dict[str, Any]] = []
    said: list[_Said] = []
    observers: set[str] = set()
    for index, item in enumerate(history):
        role = text_field(item, "role", index) or text_field(item, "name", index)
        if not role.strip():
            raise ValueError(f"history[{index}]: has no role")
        text = content_of(item, index)
        event_id = f"step-{index}"
        sender, recipients = _route(role, orchestrator)
        if sender in TERMINAL_NAMES and MAGENTIC_ROLE.match(role) is None:
            agents.setdefault(sender, {"name": sender, "kind": "tool"})
            events.append(_terminal_call(event_id, sender, text, said))
            continue
        kind = "human" if sender.lower() in HUMAN_NAMES else ("tool" if sender in TERMINAL_NAMES else "agent")
        agents.setdefault(sender, {"name": sender, "kind": kind})
        if isinstance(recipients, list):
            for name in recipients:
                default = "human" if name.lower() in HUMAN_NAMES else ("tool" if name in TERMINAL_NAMES else "agent")
                agents.setdefault(name, {"name": name, "kind": default})
        observation = observation_call(event_id, sender, text) if kind == "agent" and sender != orchestrator else None
        own_text = text
        if observation is not None:
            observers.add(sender)
            events.append(observation)
            own_text = text.replace(observation["result"], "", 1)
        runtime = runtime_call(event_id, sender, text) if kind == "agent" and recipients != [sender] else None
        if runtime is not None:
            events.append(runtime)
        events.append({"type": "message", "id": event_id, "sender": sender, "recipients": recipients,
                       "content": text})
        if recipients != [sender]:
            said.append(_Said(sender, recipients, code_of(own_text), text))
    for name, agent in agents.items():
        if agent["kind"] == "agent" and (name in BROWSING_AGENTS or name in observers):
            agent["capture"] = "partial"
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": trace_id_of(document, name_hint), "metadata": metadata,
        "agents": list(agents.values()), "events": events,
    })


MAGENTIC_ONE = register_format(TraceFormat(
    name="magentic-one", registry_name="edge-audit.format.magentic-one.v1", detect=_detect, convert=_convert,
    description='Magentic-One log: {history: [{content, role}]} with roles like "Orchestrator (-> WebSurfer)"',
))

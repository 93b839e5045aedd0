"""AutoGen AgentChat (0.4 and later) message logs: the messages of a team run
(``TaskResult.messages`` dumped with ``model_dump()``), as a JSON array, JSONL (one message per
line) or ``{"messages": [...]}``. One file is one trace, named after the file.

* ``TextMessage`` (and ``MultiModalMessage``, ``StopMessage``, ``ToolCallSummaryMessage``):
  a message from ``source``. In a team every participant sees the thread, so it is a
  broadcast; ``source`` ``user`` is the human giving the task.
* ``HandoffMessage{source, target, content, context}``: an explicit edge from ``source`` to
  ``target``.
* ``ToolCallRequestEvent`` (``content``: ``[{id, name, arguments}]``) and
  ``ToolCallExecutionEvent`` (``content``: ``[{call_id, content, is_error}]``): joined by call id
  into tool calls of ``source``; ``is_error`` is a failure. A request with no execution is a
  call with no result.
* Other events (``ThoughtEvent``, ``UserInputRequestedEvent``, ...) carry no handoff.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ...errors import TraceError, TraceValidationError
from .._json import loads
from .._model import Trace
from ._registry import BY_KEY, Record, TraceFormat, register_format
from ._spans import native_or_error

_TEXT = frozenset({"TextMessage", "MultiModalMessage", "StopMessage", "ToolCallSummaryMessage"})
_KNOWN = _TEXT | {"HandoffMessage", "ToolCallRequestEvent", "ToolCallExecutionEvent", "ThoughtEvent",
                  "UserInputRequestedEvent", "MemoryQueryEvent", "ModelClientStreamingChunkEvent",
                  "SelectSpeakerEvent", "SelectorEvent", "CodeGenerationEvent", "CodeExecutionEvent"}
HUMAN_SOURCES = frozenset({"user", "human"})


def _detect(document: Any) -> bool:
    if isinstance(document, dict) and isinstance(document.get("messages"), list) and document["messages"]:
        document = document["messages"][0]
    if not isinstance(document, dict):
        return False
    kind = document.get("type")
    return isinstance(kind, str) and kind in _KNOWN and isinstance(document.get("source"), str)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(c if isinstance(c, str) else json.dumps(c) for c in content)
    return "" if content is None else json.dumps(content)


def _records(records: Iterable[Record], path: str, name_hint: str) -> Iterator[Trace | TraceError]:
    events: list[dict[str, Any]] = []
    agents: dict[str, dict[str, Any]] = {}
    calls: dict[str, dict[str, Any]] = {}
    index = 0
    for line, record in records:
        items = record["messages"] if isinstance(record, dict) and isinstance(record.get("messages"), list) else [record]
        for item in items:
            index += 1
            where = f"message {index}"
            if not _detect(item):
                yield TraceValidationError(path, "not an AgentChat message (needs a known type and a source)",
                                           line=line, where=where)
                continue
            kind, source = item["type"], item["source"]
            event_id = str(item.get("id") or f"msg-{index:04d}")
            agents.setdefault(source, {"name": source, "kind": "human" if source in HUMAN_SOURCES else "agent"})
            if kind in _TEXT:
                events.append({"type": "message", "id": event_id, "sender": source, "recipients": "*",
                               "content": _text(item.get("content"))})
            elif kind == "HandoffMessage":
                target = str(item.get("target", ""))
                agents.setdefault(target, {"name": target, "kind": "agent"})
                events.append({"type": "message", "id": event_id, "sender": source, "recipients": [target],
                               "content": _text(item.get("content"))})
            elif kind == "ToolCallRequestEvent":
                requested = item.get("content")
                for n, call in enumerate(requested if isinstance(requested, list) else []):
                    if not isinstance(call, dict):
                        yield TraceValidationError(path, "tool call request is not an object", line=line, where=where)
                        continue
                    call_id = str(call.get("id") or f"{event_id}-{n}")
                    raw = call.get("arguments")
                    try:
                        arguments = loads(raw) if isinstance(raw, str) else raw
                    except ValueError:
                        arguments = raw
                    event = {"type": "tool_call", "id": f"{event_id}:{call_id}", "agent": source,
                             "tool": str(call.get("name") or "tool"), "call_id": call_id, "arguments": arguments}
                    calls[call_id] = event
                    events.append(event)
            elif kind == "ToolCallExecutionEvent":
                executed = item.get("content")
                for result in executed if isinstance(executed, list) else []:
                    if not isinstance(result, dict):
                        continue
                    call = calls.get(str(result.get("call_id")))  # str(): ids of any JSON type
                    if call is None:
                        yield TraceValidationError(path, f"tool result for unknown call {result.get('call_id')!r}",
                                                   line=line, where=where)
                        continue
                    call["result"] = _text(result.get("content"))
                    call["status"] = "error" if result.get("is_error") else "ok"
    if events or agents:
        yield native_or_error(path, {"schema": "edge-audit.trace.v1", "trace_id": name_hint,
                                     "metadata": {"source": "autogen-agentchat"}, "agents": list(agents.values()),
                                     "events": events})


AGENTCHAT = register_format(TraceFormat(
    name="agentchat", registry_name="edge-audit.format.agentchat.v1", detect=_detect, records=_records,
    description="AutoGen AgentChat 0.4+ messages: TextMessage, ToolCallRequest/ExecutionEvent, HandoffMessage",
    priority=BY_KEY,
))
